/*
** bench_probe.c: table 1, the probe against its floors (see bench.c).
*/
#include "bench.h"

/* 1. The probe against the floors, for filters of 10k, 1M and 100M keys: every kind of one size
** in turns with the others; every kind whose rate is measured up to 1M keys (quick: 10k), the
** kinds of is_probe_kind above. */
void table_probe(bench *b) {
    static const sqlite3_int64 sizes[] = {10000, 1000000, 100000000};
    int size_count = b->quick ? 2 : 3;
    sqlite3_int64 every_kind = b->quick ? 10000 : 1000000; /* the largest size of every kind */
    printf("\n### 1. Probe floor\n\n");
    printf("`SELECT sum(bloom_might_contain(?1, x)) FROM keys` over 1,000,000 rows (keys 1 to "
           "1M, all in the filter but for the 10k one), against the same scan calling "
           "`noop(?1, x)`, a function registered by the benchmark that returns 0, `floor(?1, x)`, "
           "the hash-and-touch floor (a function that reads both arguments, hashes the key by "
           "XXH3-64, an INTEGER as its 8 bytes, and reads the byte of the filter the hash "
           "picks; for Spark's kind, `floor_spark`, the key hashed as Spark must, by two passes of "
           "its Murmur3, the second seeded by the first), and `twin(?1, x)`, the design of the "
           "other SQLite Bloom extension "
           "(tests/bench/twin.h: k = 4 from one 32-bit hash, no header, no validation), floor "
           "and twin over the same bytes as the probe. p = 0.01. Every kind whose rate is "
           "measured (table 13) up to %lld keys; above, the layouts of a Bloom filter, the "
           "kinds built whole and Spark's. Median of %d runs, every query of one size in "
           "turns.\n\n",
           (long long)every_kind, b->runs);
    printf(
        "| keys in the filter | layout | filter bytes | noop ns/row | floor ns/row | twin ns/row "
        "| probe ns/row | probe / floor | probe / noop | twin / probe | probe / blocked's "
        "|\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    FILE *chart = chart_open(b, "probe_cost.dat");
    chart_printf(chart, "# Table 1 of bloom_bench: ns per row of SELECT sum(f(?1, x)) FROM keys, "
                        "one block a size (blocks apart by two empty lines).\n"
                        "# kind keys filter_bytes noop floor twin probe\n");
    enum { FLOOR, TWIN, PROBE, PER_KIND };
    for (int s = 0; s < size_count; s++) {
        const filter_kind *kinds[FILTER_KIND_COUNT];
        int kind_count =
            kinds_where(sizes[s] > every_kind ? is_probe_kind : has_measured_rate, kinds);
        int blocked = -1;
        void *filters[FILTER_KIND_COUNT] = {NULL};
        int bytes[FILTER_KIND_COUNT] = {0};
        query queries[1 + PER_KIND * FILTER_KIND_COUNT];
        for (int k = 0; k < kind_count; k++) {
            double build_seconds;
            blocked = kinds[k]->id == BLOOM_LAYOUT_BLOCKED ? k : blocked;
            filters[k] = build_filter(b, sizes[s], kinds[k]->name, &bytes[k], &build_seconds);
            query *q = &queries[1 + PER_KIND * k];
            const char *own_floor = test_kind_of(kinds[k])->own_floor;
            q[FLOOR] = (query){
                "floor",
                format("SELECT sum(%s(?1, x)) FROM keys", own_floor != NULL ? own_floor : "floor"),
                filters[k], bytes[k]};
            q[TWIN] = (query){"twin", "SELECT sum(twin(?1, x)) FROM keys", filters[k], bytes[k]};
            q[PROBE] = (query){"probe", "SELECT sum(bloom_might_contain(?1, x)) FROM keys",
                               filters[k], bytes[k]};
        }
        queries[0] = (query){"noop", "SELECT sum(noop(?1, x)) FROM keys", filters[0], bytes[0]};
        double medians[1 + PER_KIND * FILTER_KIND_COUNT];
        time_in_turns(b, queries, 1 + PER_KIND * kind_count, medians);
        chart_printf(chart, s == 0 ? "" : "\n\n");
        for (int k = 0; k < kind_count; k++) {
            const double *m = &medians[1 + PER_KIND * k];
            printf("| %lld | %s | %d | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f |",
                   (long long)sizes[s], kinds[k]->name, bytes[k], medians[0] * 1e9 / 1e6,
                   m[FLOOR] * 1e9 / 1e6, m[TWIN] * 1e9 / 1e6, m[PROBE] * 1e9 / 1e6,
                   m[PROBE] / m[FLOOR], m[PROBE] / medians[0], m[TWIN] / m[PROBE]);
            if (blocked >= 0) {
                printf(" %.2f |\n", m[PROBE] / medians[1 + PER_KIND * blocked + PROBE]);
            } else {
                printf(" - |\n");
            }
            chart_printf(chart, "%s %lld %d %.1f %.1f %.1f %.1f\n", kinds[k]->name,
                         (long long)sizes[s], bytes[k], medians[0] * 1e9 / 1e6,
                         m[FLOOR] * 1e9 / 1e6, m[TWIN] * 1e9 / 1e6, m[PROBE] * 1e9 / 1e6);
        }
        fflush(stdout);
        for (int k = 0; k < kind_count; k++) {
            free(filters[k]);
            sqlite3_free(queries[1 + PER_KIND * k + FLOOR].sql);
        }
    }
    chart_close(chart);
}
