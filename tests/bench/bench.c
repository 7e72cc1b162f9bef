/*
** bench.c: what bloom_build and bloom_might_contain cost inside SQLite, side
** by side with what they are measured against. A program that prints
** figures, not a test: these machines are shared and noisy, so every case is
** run several times, alternating with the cases it is compared with, and the
** median is kept.
**
** Usage: bloom_bench EXTENSION [--quick] [--dir DIR] [TABLE...]
**
** TABLE is any of: core probe build exact forms scale live (default: all). --quick
** shrinks the data (no 100M or 10M keys, fewer runs) to check that
** everything runs. DIR (default .) receives the database files the exact
** lookups need.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getrusage */

#include <sqlite3.h>

#include "bloom_core.h"
#include "twin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

typedef struct bench {
    sqlite3 *db;
    int runs;  /* times each case is measured */
    int quick; /* small data, to check the program */
    const char *dir;
    const char *extension; /* the path of bloom.so */
} bench;

/* A query to time: SQL text and an optional BLOB bound to ?1. */
typedef struct query {
    const char *label;
    char *sql;
    const void *blob;
    int bytes;
} query;

static void die(bench *b, const char *what) {
    fprintf(stderr, "bloom_bench: %s: %s\n", what, b->db ? sqlite3_errmsg(b->db) : "");
    exit(2);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs SQL (several statements allowed) without results; exits on failure. */
static void exec(bench *b, const char *sql) {
    if (sqlite3_exec(b->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
        die(b, sql);
    }
}

/* A formatted copy of a string, for SQL built here; exits on failure. */
static char *format(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *s = sqlite3_vmprintf(fmt, ap);
    va_end(ap);
    if (s == NULL) {
        fprintf(stderr, "bloom_bench: out of memory\n");
        exit(2);
    }
    return s;
}

/* Runs q once (prepare, bind, every row) and returns the seconds it took; column 0 of its
** first row goes to *result when result is not NULL. */
static double run_once(bench *b, const query *q, sqlite3_int64 *result) {
    sqlite3_stmt *stmt = NULL;
    double start = now();
    if (sqlite3_prepare_v2(b->db, q->sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(b, q->label);
    }
    if (q->blob != NULL) {
        sqlite3_bind_blob(stmt, 1, q->blob, q->bytes, SQLITE_STATIC);
    }
    int rc, first = 1;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (first && result != NULL) {
            *result = sqlite3_column_int64(stmt, 0);
        }
        first = 0;
    }
    if (rc != SQLITE_DONE) {
        die(b, q->label);
    }
    sqlite3_finalize(stmt);
    return now() - start;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Times count queries b->runs times each, in turns (1 2 3 1 2 3 ...); medians[i] gets the
** median seconds of query i. */
static void time_in_turns(bench *b, const query *queries, int count, double *medians) {
    double *times = malloc(sizeof(double) * (size_t)(count * b->runs));
    if (times == NULL) {
        die(b, "out of memory");
    }
    for (int r = 0; r < b->runs; r++) {
        for (int i = 0; i < count; i++) {
            times[i * b->runs + r] = run_once(b, &queries[i], NULL);
        }
    }
    for (int i = 0; i < count; i++) {
        qsort(times + i * b->runs, (size_t)b->runs, sizeof(double), compare_doubles);
        medians[i] = times[i * b->runs + b->runs / 2];
    }
    free(times);
}

/* Returns a malloc'ed copy of the BLOB the one-row query sql returns, its size in *bytes. */
static void *fetch_blob(bench *b, const char *sql, int *bytes) {
    sqlite3_stmt *stmt = NULL;
    void *copy = NULL;
    if (sqlite3_prepare_v2(b->db, sql, -1, &stmt, NULL) != SQLITE_OK ||
        sqlite3_step(stmt) != SQLITE_ROW) {
        die(b, sql);
    }
    *bytes = sqlite3_column_bytes(stmt, 0);
    copy = malloc((size_t)*bytes);
    if (copy == NULL) {
        die(b, "out of memory");
    }
    memcpy(copy, sqlite3_column_blob(stmt, 0), (size_t)*bytes);
    sqlite3_finalize(stmt);
    return copy;
}

/* The integer the one-row query sql returns. */
static sqlite3_int64 fetch_int(bench *b, const char *sql) {
    query q = {sql, (char *)sql, NULL, 0};
    sqlite3_int64 result = 0;
    run_once(b, &q, &result);
    return result;
}

/* noop(filter, key): the floor, SQLite's cost of calling a two-argument function. */
static void noop_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    sqlite3_result_int(ctx, 0);
}

/* A recursive CTE s(i) counting from 1 to n. */
static char *series(sqlite3_int64 n) {
    return format("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < %lld)",
                  n);
}

/* Builds a filter of the keys 1..n at 1 % in a layout and returns it; *seconds gets the time
** the build took. */
static void *build_filter(bench *b, sqlite3_int64 n, const char *layout, int *bytes,
                          double *seconds) {
    char *cte = series(n);
    char *sql = format("%s SELECT bloom_build(i, %lld, 0.01, '%s') FROM s", cte, n, layout);
    double start = now();
    void *filter = fetch_blob(b, sql, bytes);
    *seconds = now() - start;
    sqlite3_free(cte);
    sqlite3_free(sql);
    return filter;
}

static const char *const layouts[] = {"standard", "blocked"};

/* 0. The probe without SQLite: the core's loop, for filters of 10k, 1M and 100M keys. */
static void table_core(bench *b) {
    static const uint64_t sizes[] = {10000, 1000000, 100000000};
    const uint64_t probes = 1000000;
    int size_count = b->quick ? 2 : 3;
    printf("\n### 0. The probe without SQLite\n\n");
    printf("The core alone in a C loop: %llu probes of keys that were added, then of keys that "
           "were not, p = 0.01. Median of %d runs.\n\n",
           (unsigned long long)probes, b->runs);
    printf("| keys in the filter | layout | present ns/probe | absent ns/probe "
           "|\n|---|---|---|---|\n");
    for (int s = 0; s < size_count; s++) {
        for (int l = 0; l < 2; l++) {
            bloom_header h;
            double bytes_needed, times[2][16];
            if (bloom_size(sizes[s], 0.01, l == 0 ? BLOOM_LAYOUT_STANDARD : BLOOM_LAYOUT_BLOCKED,
                           &h, &bytes_needed) != FILTER_OK) {
                die(b, "bloom_size");
            }
            uint8_t *bits = calloc(h.m / 8, 1);
            if (bits == NULL) {
                die(b, "out of memory");
            }
            for (uint64_t i = 1; i <= sizes[s]; i++) {
                bloom_set(bits, &h, key_hash_integer((int64_t)i));
            }
            uint64_t hits = 0;
            for (int r = 0; r < b->runs && r < 16; r++) {
                for (int absent = 0; absent < 2; absent++) {
                    double start = now();
                    for (uint64_t i = 1; i <= probes; i++) {
                        hits += bloom_test(bits, &h,
                                           key_hash_integer(absent ? -(int64_t)i : (int64_t)i));
                    }
                    times[absent][r] = now() - start;
                }
            }
            int runs = b->runs < 16 ? b->runs : 16;
            qsort(times[0], (size_t)runs, sizeof(double), compare_doubles);
            qsort(times[1], (size_t)runs, sizeof(double), compare_doubles);
            printf("| %llu | %s | %.0f | %.0f |\n", (unsigned long long)sizes[s], layouts[l],
                   times[0][runs / 2] * 1e9 / (double)probes,
                   times[1][runs / 2] * 1e9 / (double)probes);
            fflush(stdout);
            free(bits);
            if (hits == 0) {
                die(b, "no key probed 1");
            }
        }
    }
}

/* 1. The probe against the floor, for filters of 10k, 1M and 100M keys. */
static void table_probe(bench *b) {
    static const sqlite3_int64 sizes[] = {10000, 1000000, 100000000};
    int size_count = b->quick ? 2 : 3;
    printf("\n### 1. Probe floor\n\n");
    printf("`SELECT sum(bloom_might_contain(?1, x)) FROM keys` over 1,000,000 rows (keys 1 to "
           "1M, all in the filter but for the 10k one), against the same scan calling "
           "`noop(?1, x)`, a function registered by the benchmark that returns 0, and "
           "`twin(?1, x)`, the design of the other SQLite Bloom extension (tests/bench/twin.h: "
           "k = 4 from one 32-bit hash, no header, no validation) over the same bytes. "
           "p = 0.01. Median of %d runs, in turns.\n\n",
           b->runs);
    printf("| keys in the filter | layout | filter bytes | noop ns/row | twin ns/row | probe "
           "ns/row | probe / noop | twin / probe |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < size_count; s++) {
        for (int l = 0; l < 2; l++) {
            int bytes;
            double build_seconds;
            void *filter = build_filter(b, sizes[s], layouts[l], &bytes, &build_seconds);
            query queries[3] = {
                {"noop", "SELECT sum(noop(?1, x)) FROM keys", filter, bytes},
                {"twin", "SELECT sum(twin(?1, x)) FROM keys", filter, bytes},
                {"probe", "SELECT sum(bloom_might_contain(?1, x)) FROM keys", filter, bytes},
            };
            double medians[3];
            time_in_turns(b, queries, 3, medians);
            printf("| %lld | %s | %d | %.1f | %.1f | %.1f | %.2f | %.2f |\n", (long long)sizes[s],
                   layouts[l], bytes, medians[0] * 1e9 / 1e6, medians[1] * 1e9 / 1e6,
                   medians[2] * 1e9 / 1e6, medians[2] / medians[0], medians[1] / medians[2]);
            fflush(stdout);
            free(filter);
        }
    }
}

/* 2. The build against count(x). */
static void table_build(bench *b) {
    printf("\n### 2. Build floor\n\n");
    printf("Over the 1,000,000 rows of `keys`, median of %d runs, in turns.\n\n", b->runs);
    query queries[] = {
        {"count", "SELECT count(x) FROM keys", NULL, 0},
        {"standard", "SELECT bloom_build(x, 1000000, 0.01) FROM keys", NULL, 0},
        {"blocked", "SELECT bloom_build(x, 1000000, 0.01, 'blocked') FROM keys", NULL, 0},
        {"auto", "SELECT bloom_build(x) FROM keys", NULL, 0},
        {"auto blocked", "SELECT bloom_build(x, NULL, 0.01, 'blocked') FROM keys", NULL, 0},
    };
    const int count = sizeof queries / sizeof queries[0];
    double medians[sizeof queries / sizeof queries[0]];
    time_in_turns(b, queries, count, medians);
    printf("| query | ns/row | ratio to count(x) |\n|---|---|---|\n");
    for (int i = 0; i < count; i++) {
        printf("| `%s` | %.1f | %.2f |\n", queries[i].sql, medians[i] * 1e9 / 1e6,
               medians[i] / medians[0]);
    }
}

/* Pseudo-random distinct key number i, as SQL for format(): a bijection of 0..4294967310. */
#define KEY(i) "((" i ") * 2654435761 %% 4294967311)"

/* 3. The filter against the exact lookup it replaces. */
static void table_exact(bench *b) {
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

/* Hex of a BLOB, for the literal form. */
static char *hex_literal(const void *blob, int bytes) {
    static const char digits[] = "0123456789ABCDEF";
    char *hex = sqlite3_malloc64((sqlite3_uint64)bytes * 2 + 4);
    const unsigned char *p = blob;
    if (hex == NULL) {
        return NULL;
    }
    hex[0] = 'x';
    hex[1] = '\'';
    for (int i = 0; i < bytes; i++) {
        hex[2 + 2 * i] = digits[p[i] >> 4];
        hex[3 + 2 * i] = digits[p[i] & 15];
    }
    hex[2 + 2 * bytes] = '\'';
    hex[3 + 2 * bytes] = '\0';
    return hex;
}

/* 4. Ways of writing the probe. */
static void table_forms(bench *b) {
    const int rows = b->quick ? 10000 : 100000;
    int bytes;
    double build_seconds;
    void *filter = build_filter(b, 1000000, "standard", &bytes, &build_seconds);
    char *literal = hex_literal(filter, bytes);
    sqlite3_stmt *stmt = NULL;
    exec(b, "DROP TABLE IF EXISTS filters; CREATE TABLE filters(name TEXT, f BLOB);"
            "DROP VIEW IF EXISTS plain_view; CREATE VIEW plain_view AS SELECT rowid AS rid, "
            "bloom_might_contain((SELECT f FROM filters WHERE name = 'a'), x) AS maybe FROM keys;"
            "DROP VIEW IF EXISTS handle_view; CREATE VIEW handle_view AS SELECT rowid AS rid, "
            "bloom_might_contain((SELECT bloom_handle(f) FROM filters WHERE name = 'a'), x) AS "
            "maybe FROM keys;");
    if (sqlite3_prepare_v2(b->db, "INSERT INTO filters VALUES ('a', ?1)", -1, &stmt, NULL) !=
        SQLITE_OK) {
        die(b, "filters");
    }
    sqlite3_bind_blob(stmt, 1, filter, bytes, SQLITE_STATIC);
    sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    printf("\n### 4. Query forms\n\n");
    printf("SQLite %s. A filter of 1M keys (%d bytes) probed by %d rows; median of %d runs, "
           "in turns, prepare included.\n\n",
           sqlite3_libversion(), bytes, rows, b->runs);
    query queries[] = {
        {"bound parameter `bloom_might_contain(?1, x)`",
         format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %d", rows), filter,
         bytes},
        {"literal `bloom_might_contain(x'5351...', x)`",
         format("SELECT sum(bloom_might_contain(%s, x)) FROM keys WHERE rowid <= %d", literal,
                rows),
         NULL, 0},
        {"scalar subquery `bloom_might_contain((SELECT f FROM filters WHERE name = 'a'), x)`",
         format("SELECT sum(bloom_might_contain((SELECT f FROM filters WHERE name = 'a'), x)) FROM "
                "keys WHERE rowid <= %d",
                rows),
         NULL, 0},
        {"join, filters outer: `FROM filters CROSS JOIN keys WHERE filters.name = 'a'`",
         format("SELECT sum(bloom_might_contain(filters.f, x)) FROM filters CROSS JOIN keys WHERE "
                "filters.name = 'a' AND keys.rowid <= %d",
                rows),
         NULL, 0},
        {"join, automatic index: `FROM keys, filters WHERE filters.name = 'a' AND "
         "bloom_might_contain(filters.f, x)`",
         format("SELECT count(*) FROM keys, filters WHERE filters.name = 'a' AND "
                "bloom_might_contain(filters.f, x) AND keys.rowid <= %d",
                rows),
         NULL, 0},
        {"scalar subquery of a handle `bloom_might_contain((SELECT bloom_handle(f) FROM filters "
         "WHERE name = 'a'), x)`",
         format("SELECT sum(bloom_might_contain((SELECT bloom_handle(f) FROM filters WHERE name = "
                "'a'), x)) FROM keys WHERE rowid <= %d",
                rows),
         NULL, 0},
        {"view with a scalar subquery `CREATE VIEW v AS SELECT ..., "
         "bloom_might_contain((SELECT f FROM filters WHERE name = 'a'), x) AS maybe FROM keys`",
         format("SELECT sum(maybe) FROM plain_view WHERE rid <= %d", rows), NULL, 0},
        {"view with a handle `... bloom_might_contain((SELECT bloom_handle(f) FROM filters WHERE "
         "name = 'a'), x) AS maybe ...`",
         format("SELECT sum(maybe) FROM handle_view WHERE rid <= %d", rows), NULL, 0},
        {"CTE `WITH f AS (SELECT f FROM filters WHERE name = 'a') ... FROM keys, f`",
         format("WITH g AS (SELECT f FROM filters WHERE name = 'a') SELECT "
                "sum(bloom_might_contain(g.f, x)) FROM keys, g WHERE keys.rowid <= %d",
                rows),
         NULL, 0},
        {"CTE, materialized: `WITH f AS MATERIALIZED (...) ... FROM keys, f`",
         format("WITH g AS MATERIALIZED (SELECT f FROM filters WHERE name = 'a') SELECT "
                "sum(bloom_might_contain(g.f, x)) FROM keys, g WHERE keys.rowid <= %d",
                rows),
         NULL, 0},
    };
    const int count = sizeof queries / sizeof queries[0];
    double medians[sizeof queries / sizeof queries[0]];
    time_in_turns(b, queries, count, medians);
    printf("| form | ms | ns/row | ratio to the bound parameter |\n|---|---|---|---|\n");
    for (int i = 0; i < count; i++) {
        printf("| %s | %.1f | %.0f | %.1f |\n", queries[i].label, medians[i] * 1e3,
               medians[i] * 1e9 / rows, medians[i] / medians[0]);
        sqlite3_free(queries[i].sql);
    }
    sqlite3_free(literal);
    free(filter);
}

/* Peak resident memory of this process, in MB. */
static double peak_rss_mb(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_maxrss / 1024.0;
}

/* 6. 100M keys: build, peak memory, and the measured rate over 10M absent keys. */
static void table_scale(bench *b) {
    const sqlite3_int64 n = b->quick ? 1000000 : 100000000, probes = b->quick ? 1000000 : 10000000;
    printf("\n### 6. Scale\n\n");
    printf("%lld keys at p = 0.01, built through SQL (`bloom_build(i, n, 0.01, layout)` over a "
           "recursive CTE), then %lld absent keys probed (a bound parameter). Peak memory: "
           "SQLite's highwater during the build, and the process's peak resident size so far.\n\n",
           (long long)n, (long long)probes);
    printf("| layout | bytes | build s | build ns/key | SQLite peak MB | process peak MB | "
           "probe ns/row | false positives | measured rate |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (int l = 0; l < 2; l++) {
        int bytes;
        double build_seconds;
        sqlite3_int64 used, highwater;
        sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &used, &highwater, 1);
        void *filter = build_filter(b, n, layouts[l], &bytes, &build_seconds);
        sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &used, &highwater, 0);
        char *cte = series(probes);
        char *sql = format("%s SELECT sum(bloom_might_contain(?1, -i)) FROM s", cte);
        query q = {"absent", sql, filter, bytes};
        sqlite3_int64 hits = 0;
        double probe_seconds = run_once(b, &q, &hits);
        printf("| %s | %d | %.1f | %.0f | %.0f | %.0f | %.0f | %lld | %.4f %% |\n", layouts[l],
               bytes, build_seconds, build_seconds * 1e9 / (double)n, (double)highwater / 1e6,
               peak_rss_mb(), probe_seconds * 1e9 / (double)probes, (long long)hits,
               100.0 * (double)hits / (double)probes);
        fflush(stdout);
        sqlite3_free(cte);
        sqlite3_free(sql);
        free(filter);
    }
    printf("\nprobe ns/row includes the recursive CTE that generates the keys.\n");
}

/* 7. Filters kept up to date where they are stored (ext/in_place_functions.c): a trigger that
** adds each new row's key in place, against no trigger and against rewriting the BLOB; the
** in-place probe against a bound filter; and what the counting kind costs a row. */

/* A connection to the file database path in WAL mode, synchronous=NORMAL, without automatic
** checkpoints, with the extension loaded. */
static sqlite3 *open_live(bench *b, const char *path) {
    sqlite3 *db = NULL;
    char *err = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(db, b->extension, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "bloom_bench: cannot open %s: %s\n", path, err ? err : sqlite3_errmsg(db));
        exit(2);
    }
    return db;
}

/* Bytes of the file path, 0 when there is none. */
static long long file_bytes(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* Moves the WAL into the database and truncates it to 0 bytes. */
static void truncate_wal(bench *lb, const char *wal) {
    if (fetch_int(lb, "PRAGMA wal_checkpoint(TRUNCATE)") != 0 || file_bytes(wal) != 0) {
        die(lb, "the WAL checkpoint was blocked");
    }
}

/* The median of n doubles, sorted in place. */
static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), compare_doubles);
    return v[n / 2];
}

enum { LIVE_RUNS_MAX = 16, INSERT_CASES = 4, PROBE_CASES = 5 };

/* 7a. Committed inserts into users(name), one a transaction, with the filter of row 1 kept up
** to date by a trigger or not. */
static void live_inserts(bench *lb, const char *wal) {
    static const char *const kinds[] = {"standard", "blocked", "counting", "cuckoo"};
    static const char *const labels[INSERT_CASES] = {
        "no trigger", "in place: `SELECT bloom_add_in_place('filters', 'filter', 1, NEW.name)`",
        "rewrite: `UPDATE filters SET filter = bloom_add(filter, NEW.name) WHERE id = 1`",
        "in place, with a page cache of 64 MB (`PRAGMA cache_size=-65536`)"};
    static const char *const triggers[INSERT_CASES] = {
        "",
        "CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN SELECT "
        "bloom_add_in_place('filters', 'filter', 1, NEW.name); END;",
        "CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN UPDATE filters SET filter = "
        "bloom_add(filter, NEW.name) WHERE id = 1; END;",
        "CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN SELECT "
        "bloom_add_in_place('filters', 'filter', 1, NEW.name); END;"};
    const sqlite3_int64 n = lb->quick ? 10000 : 1000000;
    const int counts[INSERT_CASES] = {lb->quick ? 200 : 2000, lb->quick ? 200 : 2000,
                                      lb->quick ? 20 : 100, lb->quick ? 200 : 2000};
    const int runs = lb->runs < LIVE_RUNS_MAX ? lb->runs : LIVE_RUNS_MAX;
    const sqlite3_int64 page_size = fetch_int(lb, "PRAGMA page_size");
    sqlite3_int64 name = 0;
    printf("\n### 7a. Committed inserts, with the filter kept up to date\n\n");
    printf("A file database in WAL mode, `PRAGMA synchronous=NORMAL` (no sync at commit), "
           "SQLite's default page cache (2 MB) but in the last case; `INSERT INTO users(name) "
           "VALUES (?1)` prepared "
           "once, run in autocommit (one transaction an insert) with new names 'user-N'. The "
           "filter: row 1 of `filters(id INTEGER PRIMARY KEY, filter BLOB)`, built for n = %lld "
           "at p = 0.01 holding %lld integer keys. Before each case the table is emptied and "
           "the WAL truncated (`PRAGMA wal_checkpoint(TRUNCATE)`); `PRAGMA "
           "wal_autocheckpoint=0` throughout, so the WAL's growth is what the inserts wrote: "
           "pages = (WAL bytes - 32) / (%lld + 24). Median of %d runs, in turns. (The cuckoo "
           "filter, which refuses keys past its capacity, is built for 1.1 n, so that the "
           "inserts find room.)\n\n",
           (long long)n, (long long)n, (long long)page_size, runs);
    printf("| kind | filter bytes | trigger | inserts a run | µs/insert | ratio to no trigger | "
           "WAL bytes/insert | pages written/insert |\n|---|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char *cte = series(n);
        sqlite3_int64 capacity = strcmp(kinds[k], "cuckoo") == 0 ? n + n / 10 : n;
        char *build = format("DROP TRIGGER IF EXISTS users_filter; DELETE FROM filters; %s "
                             "INSERT INTO filters(id, filter) SELECT 1, bloom_build(i, %lld, "
                             "0.01, '%s') FROM s;",
                             cte, (long long)capacity, kinds[k]);
        exec(lb, build);
        sqlite3_free(cte);
        sqlite3_free(build);
        sqlite3_int64 bytes = fetch_int(lb, "SELECT length(filter) FROM filters WHERE id = 1");
        double seconds[INSERT_CASES][LIVE_RUNS_MAX], pages[INSERT_CASES][LIVE_RUNS_MAX];
        for (int r = 0; r < runs; r++) {
            for (int c = 0; c < INSERT_CASES; c++) {
                char *setup = format("DROP TRIGGER IF EXISTS users_filter; DELETE FROM users; "
                                     "PRAGMA cache_size=%d; %s",
                                     c == 3 ? -65536 : -2000, triggers[c]);
                exec(lb, setup);
                sqlite3_free(setup);
                truncate_wal(lb, wal);
                sqlite3_stmt *insert = NULL;
                if (sqlite3_prepare_v2(lb->db, "INSERT INTO users(name) VALUES (?1)", -1, &insert,
                                       NULL) != SQLITE_OK) {
                    die(lb, "INSERT INTO users");
                }
                double start = now();
                for (int i = 0; i < counts[c]; i++) {
                    char text[32];
                    int len = snprintf(text, sizeof text, "user-%lld", (long long)++name);
                    sqlite3_bind_text(insert, 1, text, len, SQLITE_STATIC);
                    if (sqlite3_step(insert) != SQLITE_DONE) {
                        die(lb, labels[c]);
                    }
                    sqlite3_reset(insert);
                }
                seconds[c][r] = (now() - start) / counts[c];
                sqlite3_finalize(insert);
                long long wal_bytes = file_bytes(wal);
                pages[c][r] = wal_bytes > 32
                                  ? (double)((wal_bytes - 32) / (page_size + 24)) / counts[c]
                                  : 0.0;
            }
        }
        double floor = median(seconds[0], runs);
        for (int c = 0; c < INSERT_CASES; c++) {
            double s = median(seconds[c], runs), p = median(pages[c], runs);
            printf("| %s | %lld | %s | %d | %.1f | %.1f | %.0f | %.2f |\n", kinds[k],
                   (long long)bytes, labels[c], counts[c], s * 1e6, s / floor,
                   p * (double)(page_size + 24), p);
            fflush(stdout);
        }
    }
    exec(lb, "DROP TRIGGER IF EXISTS users_filter; DELETE FROM users; DELETE FROM filters; "
             "PRAGMA cache_size=-2000;");
    truncate_wal(lb, wal);
}

/* 7b. One probe a statement: the filter read in place against the filter bound. */
static void live_probes(bench *lb, const char *wal) {
    static const sqlite3_int64 sizes[] = {1000000, 10000000, 100000000};
    static const sqlite3_int64 quick_sizes[] = {10000, 100000};
    static const char *const sql[PROBE_CASES] = {
        "SELECT bloom_might_contain_in_place('filters', 'filter', 2, ?1)",
        "SELECT bloom_might_contain(?2, ?1)", "SELECT bloom_might_contain(?2, ?1)",
        "SELECT bloom_might_contain(filter, ?1) FROM filters WHERE id = 2",
        "SELECT bloom_might_contain_in_place('filters', 'filter', 2, ?1)"};
    const int size_count = lb->quick ? 2 : 3;
    const int runs = lb->runs < LIVE_RUNS_MAX ? lb->runs : LIVE_RUNS_MAX;
    printf("\n### 7b. One probe a statement\n\n");
    printf("Standard filters at p = 0.01 in row 2 of `filters`, in the WAL-mode file database "
           "(checkpointed), SQLite's default page cache (2 MB). Probes one statement each "
           "(`sqlite3_prepare_v2`, bind, step, finalize), half of them keys in the filter: "
           "`SELECT bloom_might_contain_in_place('filters', 'filter', 2, ?1)` against `SELECT "
           "bloom_might_contain(?2, ?1)` with the filter, held by the program, bound to ?2 "
           "(SQLITE_STATIC: no copy; SQLITE_TRANSIENT: SQLite copies it), against `SELECT "
           "bloom_might_contain(filter, ?1) FROM filters WHERE id = 2`, and in place again with "
           "a page cache twice the filter's size (`PRAGMA cache_size`). Median of %d runs, in "
           "turns. 100M keys only when its build (and storing it) takes under 2 minutes, and "
           "then 100 probes a run, since a probe in place of it takes milliseconds.\n\n",
           runs);
    printf("| keys in the filter | filter bytes | build and store s | probes a run | in place "
           "µs/probe | bound STATIC "
           "µs/probe | bound TRANSIENT µs/probe | read from the table µs/probe | in place, page "
           "cache holding the filter µs/probe | TRANSIENT / in place | in place / STATIC "
           "|\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < size_count; s++) {
        sqlite3_int64 n = lb->quick ? quick_sizes[s] : sizes[s];
        int probes = lb->quick ? 1000 : n > 10000000 ? 100 : 10000;
        char *cte = series(n);
        char *build = format("DELETE FROM filters; %s INSERT INTO filters(id, filter) SELECT 2, "
                             "bloom_build(i, %lld, 0.01) FROM s;",
                             cte, (long long)n);
        double start = now();
        exec(lb, build);
        truncate_wal(lb, wal);
        double build_seconds = now() - start;
        sqlite3_free(cte);
        sqlite3_free(build);
        if (build_seconds > 120.0) {
            printf("| %lld | - | %.0f | - | skipped: the build and store took over 2 minutes | | "
                   "| | | | |\n",
                   (long long)n, build_seconds);
            exec(lb, "DELETE FROM filters");
            truncate_wal(lb, wal);
            continue;
        }
        int bytes;
        void *filter = fetch_blob(lb, "SELECT filter FROM filters WHERE id = 2", &bytes);
        double times[PROBE_CASES][LIVE_RUNS_MAX];
        sqlite3_int64 hits[PROBE_CASES] = {0};
        for (int r = 0; r < runs; r++) {
            for (int c = 0; c < PROBE_CASES; c++) {
                char *cache = format("PRAGMA cache_size=%lld",
                                     c == 4 ? -2 * ((long long)bytes / 1024 + 1) : -2000LL);
                exec(lb, cache);
                sqlite3_free(cache);
                hits[c] = 0;
                double begin = now();
                for (int j = 1; j <= probes; j++) {
                    sqlite3_stmt *stmt = NULL;
                    if (sqlite3_prepare_v2(lb->db, sql[c], -1, &stmt, NULL) != SQLITE_OK) {
                        die(lb, sql[c]);
                    }
                    sqlite3_bind_int64(stmt, 1, j % 2 ? j : -j); /* odd keys are in it */
                    if (c == 1 || c == 2) {
                        sqlite3_bind_blob(stmt, 2, filter, bytes,
                                          c == 1 ? SQLITE_STATIC : SQLITE_TRANSIENT);
                    }
                    if (sqlite3_step(stmt) != SQLITE_ROW) {
                        die(lb, sql[c]);
                    }
                    hits[c] += sqlite3_column_int(stmt, 0);
                    sqlite3_finalize(stmt);
                }
                times[c][r] = (now() - begin) / probes;
            }
        }
        for (int c = 1; c < PROBE_CASES; c++) {
            if (hits[c] != hits[0]) {
                die(lb, "the probes disagree");
            }
        }
        double m[PROBE_CASES];
        for (int c = 0; c < PROBE_CASES; c++) {
            m[c] = median(times[c], runs);
        }
        printf("| %lld | %d | %.1f | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f |\n",
               (long long)n, bytes, build_seconds, probes, m[0] * 1e6, m[1] * 1e6, m[2] * 1e6,
               m[3] * 1e6, m[4] * 1e6, m[2] / m[0], m[0] / m[1]);
        fflush(stdout);
        free(filter);
        exec(lb, "DELETE FROM filters; PRAGMA cache_size=-2000;");
        truncate_wal(lb, wal);
    }
}

/* 7c. What the counting kind costs a row, in one statement over the keys table. */
static void live_counting(bench *b) {
    const int rows = b->quick ? 100000 : 1000000, copies = b->quick ? 100 : 1000;
    int standard_bytes, counting_bytes, cuckoo_bytes;
    double build_seconds;
    void *standard = build_filter(b, 1000000, "standard", &standard_bytes, &build_seconds);
    void *counting = build_filter(b, 1000000, "counting", &counting_bytes, &build_seconds);
    /* The cuckoo filter built for 1.1M keys, so that the adds find room. */
    char *cte = series(1000000);
    char *cuckoo_sql = format("%s SELECT bloom_build(i, 1100000, 0.01, 'cuckoo') FROM s", cte);
    void *cuckoo = fetch_blob(b, cuckoo_sql, &cuckoo_bytes);
    sqlite3_free(cte);
    sqlite3_free(cuckoo_sql);
    query probe[] = {
        {"noop", format("SELECT sum(noop(?1, x)) FROM keys WHERE rowid <= %d", rows), standard,
         standard_bytes},
        {"standard",
         format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %d", rows),
         standard, standard_bytes},
        {"counting",
         format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %d", rows),
         counting, counting_bytes},
        {"cuckoo",
         format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %d", rows), cuckoo,
         cuckoo_bytes},
    };
    query change[] = {
        {"noop", format("SELECT count(noop(?1, x)) FROM keys WHERE rowid <= %d", copies), standard,
         standard_bytes},
        {"add standard",
         format("SELECT count(bloom_add(?1, x)) FROM keys WHERE rowid <= %d", copies), standard,
         standard_bytes},
        {"add counting",
         format("SELECT count(bloom_add(?1, x)) FROM keys WHERE rowid <= %d", copies), counting,
         counting_bytes},
        {"remove counting",
         format("SELECT count(bloom_remove(?1, x)) FROM keys WHERE rowid <= %d", copies), counting,
         counting_bytes},
        {"add cuckoo", format("SELECT count(bloom_add(?1, x)) FROM keys WHERE rowid <= %d", copies),
         cuckoo, cuckoo_bytes},
        {"remove cuckoo",
         format("SELECT count(bloom_remove(?1, x)) FROM keys WHERE rowid <= %d", copies), cuckoo,
         cuckoo_bytes},
    };
    enum { PROBES = sizeof probe / sizeof probe[0], CHANGES = sizeof change / sizeof change[0] };
    double p[PROBES], c[CHANGES];
    time_in_turns(b, probe, PROBES, p);
    time_in_turns(b, change, CHANGES, c);
    printf("\n### 7c. What the kinds that remove cost\n\n");
    printf("One statement over the rows of `keys` (keys 1 to 1M), the filter bound to ?1: 1M "
           "keys at p = 0.01, standard (%d bytes), counting (%d bytes, 4-bit counters) and "
           "cuckoo (%d bytes, built for 1.1M keys so that adds find room). bloom_add and "
           "bloom_remove return a new filter, a copy of the bound one, for every row: %d rows "
           "for them. noop(?1, x) is SQLite's cost of calling a function. Median of %d runs, in "
           "turns.\n\n",
           standard_bytes, counting_bytes, cuckoo_bytes, copies, b->runs);
    printf("| operation | rows | noop ns/row | standard ns/row | counting ns/row | cuckoo ns/row "
           "|\n|---|---|---|---|---|---|\n");
    printf("| `bloom_might_contain(?1, x)` | %d | %.1f | %.1f | %.1f | %.1f |\n", rows,
           p[0] * 1e9 / rows, p[1] * 1e9 / rows, p[2] * 1e9 / rows, p[3] * 1e9 / rows);
    printf("| `bloom_add(?1, x)` | %d | %.1f | %.0f | %.0f | %.0f |\n", copies, c[0] * 1e9 / copies,
           c[1] * 1e9 / copies, c[2] * 1e9 / copies, c[4] * 1e9 / copies);
    printf("| `bloom_remove(?1, x)` | %d | %.1f | - (cannot remove) | %.0f | %.0f |\n", copies,
           c[0] * 1e9 / copies, c[3] * 1e9 / copies, c[5] * 1e9 / copies);
    for (int i = 0; i < PROBES; i++) {
        sqlite3_free(probe[i].sql);
    }
    for (int i = 0; i < CHANGES; i++) {
        sqlite3_free(change[i].sql);
    }
    free(standard);
    free(counting);
    free(cuckoo);
}

static void table_live(bench *b) {
    char *path = format("%s/bench_live.db", b->dir);
    char *wal = format("%s-wal", path);
    remove(path);
    remove(wal);
    bench lb = *b;
    lb.db = open_live(b, path);
    exec(&lb, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0;"
              "CREATE TABLE users(name TEXT);"
              "CREATE TABLE filters(id INTEGER PRIMARY KEY, filter BLOB);");
    live_inserts(&lb, wal);
    live_probes(&lb, wal);
    sqlite3_close(lb.db);
    remove(path);
    remove(wal);
    sqlite3_free(path);
    sqlite3_free(wal);
    live_counting(b);
}

/* Whether name is among the tables asked for (all when none is). */
static int wanted(int argc, char **argv, int first, const char *name) {
    if (first >= argc) {
        return 1;
    }
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    bench b = {NULL, 5, 0, ".", NULL};
    char *err = NULL;
    int arg = 2;
    if (argc < 2) {
        fprintf(stderr,
                "usage: %s EXTENSION [--quick] [--dir DIR] [core probe build exact forms scale "
                "live]\n",
                argv[0]);
        return 2;
    }
    for (; arg < argc && strncmp(argv[arg], "--", 2) == 0; arg++) {
        if (strcmp(argv[arg], "--quick") == 0) {
            b.quick = 1;
            b.runs = 3;
        } else if (strcmp(argv[arg], "--dir") == 0 && arg + 1 < argc) {
            b.dir = argv[++arg];
        } else {
            fprintf(stderr, "bloom_bench: unknown option %s\n", argv[arg]);
            return 2;
        }
    }
    b.extension = argv[1];
    char *path = format("%s/bench_main.db", b.dir);
    remove(path);
    if (sqlite3_open(path, &b.db) != SQLITE_OK ||
        sqlite3_db_config(b.db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(b.db, argv[1], NULL, &err) != SQLITE_OK ||
        sqlite3_create_function(b.db, "twin", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                twin_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(b.db, "noop", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                noop_func, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "bloom_bench: cannot start: %s\n", err ? err : sqlite3_errmsg(b.db));
        return 2;
    }
    sqlite3_stmt *version = NULL;
    if (sqlite3_prepare_v2(b.db, "SELECT bloom_version()", -1, &version, NULL) != SQLITE_OK ||
        sqlite3_step(version) != SQLITE_ROW) {
        die(&b, "bloom_version()");
    }
    printf("## sqlite-bloom benchmark\n\nSQLite %s, sqlite-bloom %s, %s mode.\n",
           sqlite3_libversion(), (const char *)sqlite3_column_text(version, 0),
           b.quick ? "quick" : "full");
    sqlite3_finalize(version);
    char *cte = series(1000000);
    char *keys = format("CREATE TABLE keys(x INTEGER); INSERT INTO keys %s SELECT i FROM s;", cte);
    exec(&b, keys);
    sqlite3_free(cte);
    sqlite3_free(keys);
    static const struct {
        const char *name;
        void (*print)(bench *);
    } tables[] = {{"core", table_core},   {"probe", table_probe}, {"build", table_build},
                  {"exact", table_exact}, {"forms", table_forms}, {"scale", table_scale},
                  {"live", table_live}};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (wanted(argc, argv, arg, tables[i].name)) {
            tables[i].print(&b);
        }
    }
    sqlite3_close(b.db);
    remove(path);
    sqlite3_free(path);
    return 0;
}
