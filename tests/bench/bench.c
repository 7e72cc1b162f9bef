/*
** bench.c: what bloom_build and bloom_might_contain cost inside SQLite, side
** by side with what they are measured against. A program that prints
** figures, not a test: these machines are shared and noisy, so every case is
** run several times, alternating with the cases it is compared with, and the
** median is kept.
**
** Usage: bloom_bench EXTENSION [--quick] [--dir DIR] [TABLE...]
**
** TABLE is any of: core probe build exact forms scale (default: all). --quick
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
#include <time.h>

typedef struct bench {
    sqlite3 *db;
    int runs;  /* times each case is measured */
    int quick; /* small data, to check the program */
    const char *dir;
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
    bench b = {NULL, 5, 0, "."};
    char *err = NULL;
    int arg = 2;
    if (argc < 2) {
        fprintf(stderr,
                "usage: %s EXTENSION [--quick] [--dir DIR] [probe build exact forms scale]\n",
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
                  {"exact", table_exact}, {"forms", table_forms}, {"scale", table_scale}};
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
