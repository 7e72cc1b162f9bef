/*
** bench_core.c: table 0, the probe without SQLite (see bench.c).
*/
#include "bench.h"

/* A filter of kind holding the keys 1..n at p = 0.01, from malloc, its length into *bytes: a
** layout of a Bloom filter filled by the core (bloom_set), another kind built by bloom_build
** through SQL (a kind built whole has no add). */
static uint8_t *core_filter(bench *b, const filter_kind *kind, uint64_t n, uint64_t *bytes) {
    if (!is_bloom_layout(kind)) {
        int length;
        double build_seconds;
        uint8_t *blob = build_filter(b, (sqlite3_int64)n, kind->name, &length, &build_seconds);
        *bytes = (uint64_t)length;
        return blob;
    }
    bloom_header h;
    double bytes_needed;
    if (bloom_size(n, 0.01, kind->id, &h, &bytes_needed) != FILTER_OK) {
        die(b, "bloom_size");
    }
    *bytes = FILTER_HEADER_BYTES + h.m / 8;
    uint8_t *blob = calloc(*bytes, 1);
    if (blob == NULL) {
        die(b, "out of memory");
    }
    bloom_write_header(blob, &h);
    for (uint64_t i = 1; i <= n; i++) {
        bloom_set(blob + FILTER_HEADER_BYTES, &h, key_hash_integer((int64_t)i));
    }
    return blob;
}

/* 0. The probe without SQLite: the core's loop, for filters of 10k, 1M and 100M keys. */
void table_core(bench *b) {
    static const uint64_t sizes[] = {10000, 1000000, 100000000};
    const uint64_t probes = 1000000;
    int size_count = b->quick ? 2 : 3;
    printf("\n### 0. The probe without SQLite\n\n");
    printf("The core alone in a C loop: %llu probes of keys that were added, then of keys that "
           "were not, p = 0.01, each through its kind's entry in the table of kinds "
           "(`might_contain` of a view `filter_open` made), as `bloom_might_contain` calls it. "
           "Median of %d runs.\n\n",
           (unsigned long long)probes, b->runs);
    printf("| keys in the filter | layout | present ns/probe | absent ns/probe "
           "|\n|---|---|---|---|\n");
    const filter_kind *kinds[FILTER_KIND_COUNT];
    int kind_count = kinds_where(is_probe_kind, kinds);
    for (int s = 0; s < size_count; s++) {
        for (int k = 0; k < kind_count; k++) {
            uint64_t bytes;
            double times[2][16];
            uint8_t *blob = core_filter(b, kinds[k], sizes[s], &bytes);
            filter_view view;
            char why[FILTER_WHY_MAX];
            if (filter_open(blob, bytes, &view, why) != FILTER_OK) {
                die(b, why);
            }
            int (*might_contain)(const filter_view *, key_hash) = view.kind->might_contain;
            uint64_t hits = 0;
            for (int r = 0; r < b->runs && r < 16; r++) {
                for (int absent = 0; absent < 2; absent++) {
                    double start = now();
                    for (uint64_t i = 1; i <= probes; i++) {
                        hits += (uint64_t)might_contain(
                            &view, key_hash_integer(absent ? -(int64_t)i : (int64_t)i));
                    }
                    times[absent][r] = now() - start;
                }
            }
            int runs = b->runs < 16 ? b->runs : 16;
            qsort(times[0], (size_t)runs, sizeof(double), compare_doubles);
            qsort(times[1], (size_t)runs, sizeof(double), compare_doubles);
            printf("| %llu | %s | %.0f | %.0f |\n", (unsigned long long)sizes[s], kinds[k]->name,
                   times[0][runs / 2] * 1e9 / (double)probes,
                   times[1][runs / 2] * 1e9 / (double)probes);
            fflush(stdout);
            free(blob);
            if (hits == 0) {
                die(b, "no key probed 1");
            }
        }
    }
}
