/*
** bench_scale.c: table 6, 100M keys (see bench.c).
*/
#include "bench.h"

/* Peak resident memory of this process, in MB. */
static double peak_rss_mb(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_maxrss / 1024.0;
}

/* 6. 100M keys: build, peak memory, and the measured rate over 10M absent keys. */
void table_scale(bench *b) {
    const sqlite3_int64 n = b->quick ? 1000000 : 100000000, probes = b->quick ? 1000000 : 10000000;
    printf("\n### 6. Scale\n\n");
    printf("%lld keys at p = 0.01, built through SQL (`bloom_build(i, n, 0.01, layout)` over a "
           "recursive CTE), then %lld absent keys probed (a bound parameter). Peak memory: "
           "SQLite's highwater during the build, and the process's peak resident size so far.\n\n",
           (long long)n, (long long)probes);
    printf("| layout | bytes | build s | build ns/key | SQLite peak MB | process peak MB | "
           "probe ns/row | false positives | measured rate |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    const filter_kind *layouts[FILTER_KIND_COUNT];
    int layout_count = kinds_where(is_probe_kind, layouts);
    for (int l = 0; l < layout_count; l++) {
        int bytes;
        double build_seconds;
        sqlite3_int64 used, highwater;
        sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &used, &highwater, 1);
        void *filter = build_filter(b, n, layouts[l]->name, &bytes, &build_seconds);
        sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &used, &highwater, 0);
        char *cte = series(probes);
        char *sql = format("%s SELECT sum(bloom_might_contain(?1, -i)) FROM s", cte);
        query q = {"absent", sql, filter, bytes};
        sqlite3_int64 hits = 0;
        double probe_seconds = run_once(b, &q, &hits);
        printf("| %s | %d | %.1f | %.0f | %.0f | %.0f | %.0f | %lld | %.4f %% |\n",
               layouts[l]->name, bytes, build_seconds, build_seconds * 1e9 / (double)n,
               (double)highwater / 1e6, peak_rss_mb(), probe_seconds * 1e9 / (double)probes,
               (long long)hits, 100.0 * (double)hits / (double)probes);
        fflush(stdout);
        sqlite3_free(cte);
        sqlite3_free(sql);
        free(filter);
    }
    printf("\nprobe ns/row includes the recursive CTE that generates the keys.\n");
}
