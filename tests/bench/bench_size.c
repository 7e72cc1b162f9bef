/*
** bench_size.c: table 13, bits per key by kind and rate (see bench.c).
*/
#include "bench.h"

/* 13. Every kind whose rate is measured, built over the same keys at p from 10 % to 0.01 %: its
** bytes a key, its false negatives (none, checked) and its measured rate on absent keys. */
void table_size(bench *b) {
    static const double rates[] = {0.1, 0.01, 0.004, 0.001, 0.0001};
    const sqlite3_int64 keys = b->quick ? 100000 : 1000000, probes = b->quick ? 1000000 : 10000000;
    printf("\n### 13. Bits per key and measured rates\n\n");
    printf("`SELECT bloom_build(x, %lld, p, kind) FROM keys WHERE rowid <= %lld` (the keys 1 to "
           "%lld), then every one of those keys probed (`bloom_might_contain(?1, x)`: keys "
           "answering 0 are false negatives, of which there must be none), then %lld absent "
           "keys (-1 to -%lld, from a recursive CTE). Bits per key: 8 times the BLOB's bytes, "
           "header included, over the keys. One run: nothing here is timed.\n\n",
           (long long)keys, (long long)keys, (long long)keys, (long long)probes, (long long)probes);
    printf(
        "| kind | p | k or f | filter bytes | bits per key | false negatives | false positives "
        "| measured rate | measured / p | held to |\n|---|---|---|---|---|---|---|---|---|---|\n");
    const filter_kind *kinds[FILTER_KIND_COUNT];
    int kind_count = kinds_where(has_measured_rate, kinds);
    FILE *chart = chart_open(b, "bits_per_key.dat");
    chart_printf(chart,
                 "# Table 13 of bloom_bench: %lld keys, %lld absent keys probed. One block "
                 "a kind (blocks apart by two empty lines), its first line the kind's "
                 "name.\n# kind p bits_per_key measured_rate\n",
                 (long long)keys, (long long)probes);
    char *cte = series(probes);
    char *absent = format("%s SELECT sum(bloom_might_contain(?1, -i)) FROM s", cte);
    char *missed = format("SELECT count(*) FROM keys WHERE rowid <= %lld AND NOT "
                          "bloom_might_contain(?1, x)",
                          (long long)keys);
    for (int k = 0; k < kind_count; k++) {
        const test_kind *t = test_kind_of(kinds[k]);
        char *field = format("SELECT json_extract(bloom_info(?1), '$.%s')", t->k_field);
        chart_printf(chart, "%s%s\n", k == 0 ? "" : "\n\n", kinds[k]->name);
        for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
            char *build = format("SELECT bloom_build(x, %lld, %.17g, '%s') FROM keys WHERE rowid "
                                 "<= %lld",
                                 (long long)keys, rates[r], kinds[k]->name, (long long)keys);
            int bytes;
            void *filter = fetch_blob(b, build, &bytes);
            sqlite3_int64 negatives = fetch_int_bound(b, missed, filter, bytes);
            sqlite3_int64 positives = fetch_int_bound(b, absent, filter, bytes);
            sqlite3_int64 k_or_f = fetch_int_bound(b, field, filter, bytes);
            double rate = (double)positives / (double)probes;
            printf("| %s | %g | %s %lld | %d | %.3f | %lld | %lld | %.4f %% | %.3f | %s |\n",
                   kinds[k]->name, rates[r], t->k_field, (long long)k_or_f, bytes,
                   8.0 * bytes / (double)keys, (long long)negatives, (long long)positives,
                   100.0 * rate, rate / rates[r],
                   t->rate == RATE_AT_MOST_P ? "at most p" : "near p");
            chart_printf(chart, "%s %g %.3f %.4e\n", kinds[k]->name, rates[r],
                         8.0 * bytes / (double)keys, rate);
            fflush(stdout);
            if (negatives != 0) {
                die(b, "a key added to a filter probed 0");
            }
            free(filter);
            sqlite3_free(build);
        }
        sqlite3_free(field);
    }
    sqlite3_free(cte);
    sqlite3_free(absent);
    sqlite3_free(missed);
    chart_close(chart);
}
