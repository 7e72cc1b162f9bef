/*
** bench_exact.c: table 3, the filter against the exact lookup it replaces (see bench.c).
*/
#include "bench.h"

/* Pseudo-random distinct key number i, as SQL for format(): a bijection of 0..4294967310. */
#define KEY(i) "((" i ") * 2654435761 %% 4294967311)"

/* 3. The filter against the exact lookup it replaces. */
void table_exact(bench *b) {
    static const sqlite3_int64 sizes[] = {1000000, 10000000};
    sqlite3_int64 quick_size = 100000, probes = b->quick ? 100000 : 1000000;
    int size_count = b->quick ? 1 : 2;
    printf("\n### 3. Against the exact lookup\n\n");
    printf("A set of N integer keys (`small(k INTEGER PRIMARY KEY)`, in the same database file "
           "or in an attached one) and its filter at p = 0.01; %lld probes in a random "
           "order, 90 %% of them absent. The files are on disk and in the operating system's "
           "cache; SQLite's page cache is its default 2 MB, then large enough to hold the "
           "table. Median of %d runs, in turns, after a warm-up run.\n\n",
           (long long)probes, b->runs);
    printf("| N | where | page cache | query | ms | rows found | bytes |\n"
           "|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < size_count; s++) {
        sqlite3_int64 n = b->quick ? quick_size : sizes[s];
        char *cte = series(n);
        char *path = format("%s/bench_exact_%lld.db", b->dir, (long long)n);
        remove(path);
        char *attach = format("ATTACH %Q AS other", path);
        exec(b, attach);
        /* Probe j is key j % 10 == 0 ? a present one : the absent key n + 1 + j. */
        char *create =
            format("DROP TABLE IF EXISTS main.small; DROP TABLE IF EXISTS probes;"
                   "CREATE TABLE main.small(k INTEGER PRIMARY KEY);"
                   "CREATE TABLE other.small(k INTEGER PRIMARY KEY);"
                   "INSERT INTO main.small %s SELECT " KEY(
                       "i") " AS k FROM s ORDER BY k;"
                            "INSERT INTO other.small SELECT k FROM main.small;"
                            "CREATE TABLE probes AS WITH RECURSIVE j(j) AS (SELECT 0 UNION ALL "
                            "SELECT j + 1 FROM j WHERE j < %lld) SELECT CASE WHEN j %% 10 = 0 "
                            "THEN " KEY("(j * 7919) %% %lld + 1") " ELSE " KEY(
                                "%lld + 1 + j") " END AS x FROM j;",
                   cte, (long long)probes - 1, (long long)n, (long long)n);
        exec(b, create);
        int bytes;
        void *filter = fetch_blob(b,
                                  "SELECT bloom_build(k, (SELECT count(*) FROM main.small), 0.01) "
                                  "FROM main.small",
                                  &bytes);
        sqlite3_int64 table_bytes =
            fetch_int(b, "SELECT page_count * page_size FROM pragma_page_count('other'), "
                         "pragma_page_size('other')");
        static const char *wheres[] = {"main", "other"};
        for (int c = 0; c < 4; c++) {
            const char *where = wheres[c % 2];
            int large_cache = c >= 2;
            /* SQLite's default page cache (2,000 KiB), then one that holds the whole table. */
            char *cache = format("PRAGMA main.cache_size = %lld; PRAGMA other.cache_size = %lld;",
                                 large_cache ? -(table_bytes / 1024) * 2 : -2000LL,
                                 large_cache ? -(table_bytes / 1024) * 2 : -2000LL);
            exec(b, cache);
            sqlite3_free(cache);
            query queries[] = {
                {"filter", "SELECT count(*) FROM probes WHERE bloom_might_contain(?1, x)", filter,
                 bytes},
                {"IN",
                 format("SELECT count(*) FROM probes WHERE x IN (SELECT k FROM %s.small)", where),
                 NULL, 0},
                {"EXISTS",
                 format("SELECT count(*) FROM probes WHERE EXISTS (SELECT 1 FROM %s.small WHERE k "
                        "= x)",
                        where),
                 NULL, 0},
                {"filter, then IN",
                 format("SELECT count(*) FROM probes WHERE bloom_might_contain(?1, x) AND x IN "
                        "(SELECT k FROM %s.small)",
                        where),
                 filter, bytes},
            };
            const int count = sizeof queries / sizeof queries[0];
            double medians[sizeof queries / sizeof queries[0]];
            for (int i = 0; i < count; i++) {
                run_once(b, &queries[i], NULL); /* warm the caches */
            }
            time_in_turns(b, queries, count, medians);
            sqlite3_int64 exact = -1;
            for (int i = c == 0 ? 0 : 1; i < count; i++) {
                sqlite3_int64 found = 0;
                run_once(b, &queries[i], &found);
                /* The exact queries agree, and the filter alone finds at least as many. */
                if (i > 0 && exact >= 0 && found != exact) {
                    die(b, "the exact lookups disagree");
                }
                exact = i > 0 ? found : exact;
                printf("| %lld | %s | %s | %s | %.0f | %lld | %lld |\n", (long long)n,
                       i == 0 ? "-" : where,
                       i == 0        ? "-"
                       : large_cache ? "holds the table"
                                     : "2 MB",
                       queries[i].label, medians[i] * 1e3, (long long)found,
                       (long long)(queries[i].blob != NULL && i == 0 ? bytes : table_bytes));
            }
            for (int i = 1; i < count; i++) {
                sqlite3_free(queries[i].sql);
            }
            fflush(stdout);
        }
        exec(b, "DETACH other");
        remove(path);
        free(filter);
        sqlite3_free(cte);
        sqlite3_free(path);
        sqlite3_free(attach);
        sqlite3_free(create);
    }
    printf("\nbytes: the filter's BLOB; for the lookups, the file holding `small` alone.\n");
}
