/*
** bench.c: what bloom_build and bloom_might_contain cost inside SQLite, side
** by side with what they are measured against. A program that prints
** figures, not a test: these machines are shared and noisy, so every case is
** run several times, alternating with the cases it is compared with, and the
** median is kept.
**
** Usage: bloom_bench EXTENSION [--quick] [--dir DIR] [--charts DIR] [TABLE...]
**
** TABLE is any of: core probe build exact forms scale live vacuum scalable
** countmin cuckoo livetable parquet size (default: all). --quick shrinks the data (no 100M or 10M
** keys, fewer runs) to check that everything runs. DIR (default .) receives
** the database files the exact lookups need. --charts DIR (made if missing) receives, as tables
** 1, 11a and 13 print, their figures as the data files of docs/charts (probe_cost.dat,
** insert_cost.dat, bits_per_key.dat), which tests/bench/charts.sh draws.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getrusage */

#include <sqlite3.h>

#include "../test_kinds.h"
#include "twin.h"

#define XXH_INLINE_ALL /* the floors hash as a probe does, with XXH3 compiled in */
#include <xxhash.h>

#include <math.h>
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
    const char *charts;    /* --charts DIR: where the charts' data files go; NULL: none */
} bench;

/* bloom_build's N (0 for NULL), P and kind, bound to ?1, ?2 and ?3 as client libraries bind
** them: the kind as TEXT with its length, so with no NUL after it. */
typedef struct build_arguments {
    sqlite3_int64 n;
    double p;
    const char *kind;
} build_arguments;

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

/* The clock now() reads: wall time, but for the tables of work in memory that choose the
** thread's CPU time (which the machine's other load does not inflate while it waits). */
static clockid_t bench_clock = CLOCK_MONOTONIC;

static double now(void) {
    struct timespec t;
    clock_gettime(bench_clock, &t);
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

/* The data file DIR/name of --charts DIR, opened for writing; NULL without --charts. Exits when
** it cannot be written. */
static FILE *chart_open(bench *b, const char *name) {
    if (b->charts == NULL) {
        return NULL;
    }
    char *path = format("%s/%s", b->charts, name);
    FILE *chart = fopen(path, "w");
    if (chart == NULL) {
        fprintf(stderr, "bloom_bench: cannot write %s\n", path);
        exit(2);
    }
    sqlite3_free(path);
    return chart;
}

/* Writes to chart as printf does; nothing when chart is NULL. */
static void chart_printf(FILE *chart, const char *fmt, ...) {
    if (chart != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(chart, fmt, ap);
        va_end(ap);
    }
}

/* Closes chart (nothing when it is NULL); exits when its writes failed. */
static void chart_close(FILE *chart) {
    if (chart != NULL && (ferror(chart) || fclose(chart) != 0)) {
        fprintf(stderr, "bloom_bench: a chart's data file was not written\n");
        exit(2);
    }
}

/* Runs q once (prepare, bind, every row), with the build arguments a bound too when a is not
** NULL, and returns the seconds it took; column 0 of its first row goes to *result when result
** is not NULL. */
static double run_bound(bench *b, const query *q, const build_arguments *a, sqlite3_int64 *result) {
    sqlite3_stmt *stmt = NULL;
    double start = now();
    if (sqlite3_prepare_v2(b->db, q->sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(b, q->label);
    }
    if (q->blob != NULL) {
        sqlite3_bind_blob(stmt, 1, q->blob, q->bytes, SQLITE_STATIC);
    }
    if (a != NULL) {
        if (a->n > 0) {
            sqlite3_bind_int64(stmt, 1, a->n);
        }
        sqlite3_bind_double(stmt, 2, a->p);
        sqlite3_bind_text(stmt, 3, a->kind, (int)strlen(a->kind), SQLITE_STATIC);
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

/* run_bound without build arguments. */
static double run_once(bench *b, const query *q, sqlite3_int64 *result) {
    return run_bound(b, q, NULL, result);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Times count queries b->runs times each, in turns (1 2 3 1 2 3 ...), query i with the build
** arguments arguments[i] bound when arguments is not NULL (NULL ones: none); medians[i] gets
** the median seconds of query i. */
static void time_bound_in_turns(bench *b, const query *queries,
                                const build_arguments *const *arguments, int count,
                                double *medians) {
    double *times = malloc(sizeof(double) * (size_t)(count * b->runs));
    if (times == NULL) {
        die(b, "out of memory");
    }
    for (int r = 0; r < b->runs; r++) {
        for (int i = 0; i < count; i++) {
            times[i * b->runs + r] =
                run_bound(b, &queries[i], arguments != NULL ? arguments[i] : NULL, NULL);
        }
    }
    for (int i = 0; i < count; i++) {
        qsort(times + i * b->runs, (size_t)b->runs, sizeof(double), compare_doubles);
        medians[i] = times[i * b->runs + b->runs / 2];
    }
    free(times);
}

/* time_bound_in_turns without build arguments. */
static void time_in_turns(bench *b, const query *queries, int count, double *medians) {
    time_bound_in_turns(b, queries, NULL, count, medians);
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

/* The integer the one-row query sql returns with blob bound to ?1 (none when blob is NULL). */
static sqlite3_int64 fetch_int_bound(bench *b, const char *sql, const void *blob, int bytes) {
    query q = {sql, (char *)sql, blob, bytes};
    sqlite3_int64 result = 0;
    run_once(b, &q, &result);
    return result;
}

/* The integer the one-row query sql returns. */
static sqlite3_int64 fetch_int(bench *b, const char *sql) {
    return fetch_int_bound(b, sql, NULL, 0);
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

/* Runs the SQL of sql_format, whose %s is series(n). */
static void exec_over_series(bench *b, sqlite3_int64 n, const char *sql_format) {
    char *cte = series(n);
    char *sql = format(sql_format, cte);
    exec(b, sql);
    sqlite3_free(cte);
    sqlite3_free(sql);
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

/* The kinds of the table of kinds for which keep holds, in the order of their ids, into kinds
** (FILTER_KIND_COUNT at most); how many. */
static int kinds_where(int (*keep)(const filter_kind *kind), const filter_kind **kinds) {
    const filter_kind *kind;
    int count = 0;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        if (keep(kind)) {
            kinds[count++] = kind;
        }
    }
    return count;
}

/* Whether kind is a layout of a Bloom filter (tests/test_kinds.h): the standard and blocked
** kinds, which tables 0, 1, 2, 6 and 8b set side by side. */
static int is_bloom_layout(const filter_kind *kind) {
    return test_kind_of(kind)->bloom_layout;
}

/* Whether kind cannot be added to: it is built whole from its keys by bloom_build (the binary
** fuse filter). */
static int is_built_whole(const filter_kind *kind) {
    return !filter_kind_can(kind, FILTER_ADDS);
}

/* Whether tables 0, 1, 2 and 6 set kind side by side with the others: a layout of a Bloom
** filter, or a kind built whole, which stands in for one where the keys do not change. */
static int is_probe_kind(const filter_kind *kind) {
    return is_bloom_layout(kind) || is_built_whole(kind);
}

/* Whether bloom_build builds kind (tests/test_kinds.h). */
static int is_built_by_bloom_build(const filter_kind *kind) {
    return test_kind_of(kind)->builder == BUILT_BY_BLOOM_BUILD;
}

/* Whether tables 1 (up to 1M keys) and 13 measure kind: bloom_build builds it, and its rate is
** measured. */
static int has_measured_rate(const filter_kind *kind) {
    return is_built_by_bloom_build(kind) && test_kind_of(kind)->rate != RATE_UNMEASURED;
}

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
static void table_core(bench *b) {
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

/* 1. The probe against the floors, for filters of 10k, 1M and 100M keys: every kind of one size
** in turns with the others; every kind whose rate is measured up to 1M keys (quick: 10k), the
** kinds of is_probe_kind above. */
static void table_probe(bench *b) {
    static const sqlite3_int64 sizes[] = {10000, 1000000, 100000000};
    int size_count = b->quick ? 2 : 3;
    sqlite3_int64 every_kind = b->quick ? 10000 : 1000000; /* the largest size of every kind */
    printf("\n### 1. Probe floor\n\n");
    printf("`SELECT sum(bloom_might_contain(?1, x)) FROM keys` over 1,000,000 rows (keys 1 to "
           "1M, all in the filter but for the 10k one), against the same scan calling "
           "`noop(?1, x)`, a function registered by the benchmark that returns 0, `floor(?1, x)`, "
           "the hash-and-touch floor (a function that reads both arguments, hashes the key by "
           "XXH3-64, an INTEGER as its 8 bytes, and reads the byte of the filter the hash "
           "picks), and `twin(?1, x)`, the design of the other SQLite Bloom extension "
           "(tests/bench/twin.h: k = 4 from one 32-bit hash, no header, no validation), floor "
           "and twin over the same bytes as the probe. p = 0.01. Every kind whose rate is "
           "measured (table 13) up to %lld keys; above, the layouts of a Bloom filter and the "
           "kinds built whole. Median of %d runs, every query of one size in turns.\n\n",
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
            q[FLOOR] = (query){"floor", "SELECT sum(floor(?1, x)) FROM keys", filters[k], bytes[k]};
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
        }
    }
    chart_close(chart);
}

/* The query of table 2 that builds a filter of layout over keys, n given or sized at the end, in
** its shortest form: bloom_build's defaults (the first kind, p = 0.01) left out. */
static char *build_floor_query(const filter_kind *layout, int sized_at_end) {
    if (layout != filter_kind_at(0)) {
        return format("SELECT bloom_build(x, %s, 0.01, '%s') FROM keys",
                      sized_at_end ? "NULL" : "1000000", layout->name);
    }
    return format("SELECT bloom_build(x%s) FROM keys", sized_at_end ? "" : ", 1000000, 0.01");
}

/* 2, then: bloom_build with n, p and the kind as literals against the same bound as parameters,
** in turns, for each kind it builds, n given, then sized at the end where the kind can be. */
static void table_build_bound(bench *b) {
    printf("\nThe same with n, p and the kind bound (`SELECT bloom_build(x, ?1, ?2, ?3) FROM "
           "keys`, the kind as client libraries bind TEXT: with its length), in turns with the "
           "literals; the thread's CPU time.\n\n");
    const filter_kind *kinds[FILTER_KIND_COUNT];
    int kind_count = kinds_where(is_built_by_bloom_build, kinds), count = 0;
    kind_count = b->quick ? 1 : kind_count; /* quick: the first kind alone */
    build_arguments arguments[2 * FILTER_KIND_COUNT];
    const build_arguments *bound[4 * FILTER_KIND_COUNT];
    query queries[4 * FILTER_KIND_COUNT];
    for (int sized_at_end = 0; sized_at_end < 2; sized_at_end++) {
        for (int k = 0; k < kind_count; k++) {
            if (sized_at_end && !test_kind_of(kinds[k])->sized_at_end) {
                continue;
            }
            build_arguments *a = &arguments[count / 2];
            *a = (build_arguments){sized_at_end ? 0 : 1000000, 0.01, kinds[k]->name};
            bound[count] = NULL;
            queries[count++] = (query){kinds[k]->name,
                                       format("SELECT bloom_build(x, %s, 0.01, '%s') FROM keys",
                                              sized_at_end ? "NULL" : "1000000", kinds[k]->name),
                                       NULL, 0};
            bound[count] = a;
            queries[count++] = (query){
                kinds[k]->name, format("SELECT bloom_build(x, ?1, ?2, ?3) FROM keys"), NULL, 0};
        }
    }
    double medians[4 * FILTER_KIND_COUNT];
    bench_clock = CLOCK_THREAD_CPUTIME_ID; /* in memory: what the other load does not inflate */
    time_bound_in_turns(b, queries, bound, count, medians);
    bench_clock = CLOCK_MONOTONIC;
    printf("| kind | n | literals, ns/row | bound, ns/row | bound / literals |\n"
           "|---|---|---|---|---|\n");
    for (int i = 0; i < count; i += 2) {
        printf("| %s | %s | %.1f | %.1f | %.2f |\n", queries[i].label,
               bound[i + 1]->n > 0 ? "1000000" : "NULL", medians[i] * 1e9 / 1e6,
               medians[i + 1] * 1e9 / 1e6, medians[i + 1] / medians[i]);
    }
    for (int i = 0; i < count; i++) {
        sqlite3_free(queries[i].sql);
    }
}

/* 2. The build against count(x) and hashagg: each layout of a Bloom filter and each kind built
** whole, n given, then sized at the end, against the first kind's build of the same n; then
** every kind's build with its parameters as literals and bound (table_build_bound). */
static void table_build(bench *b) {
    printf("\n### 2. Build floor\n\n");
    printf("Over the 1,000,000 rows of `keys`, median of %d runs, in turns. `hashagg(x, n, p)` "
           "is the floor of a build, an aggregate that reads its three arguments and hashes "
           "each key by XXH3-64 (an INTEGER as its 8 bytes); the last column sets each build "
           "against the first kind's with the same n.\n\n",
           b->runs);
    const filter_kind *kinds[FILTER_KIND_COUNT];
    int kind_count = kinds_where(is_probe_kind, kinds), count = 0;
    query queries[2 + 2 * FILTER_KIND_COUNT];
    int first[2 + 2 * FILTER_KIND_COUNT]; /* the query of the first kind with the same n */
    queries[count++] = (query){"count", "SELECT count(x) FROM keys", NULL, 0};
    queries[count++] = (query){"hashagg", "SELECT hashagg(x, 1000000, 0.01) FROM keys", NULL, 0};
    for (int sized_at_end = 0; sized_at_end < 2; sized_at_end++) {
        int group = count;
        for (int k = 0; k < kind_count; k++) {
            if (sized_at_end && !test_kind_of(kinds[k])->sized_at_end) {
                continue;
            }
            first[count] = group;
            queries[count++] =
                (query){kinds[k]->name, build_floor_query(kinds[k], sized_at_end), NULL, 0};
        }
    }
    double medians[2 + 2 * FILTER_KIND_COUNT];
    time_in_turns(b, queries, count, medians);
    printf("| query | ns/row | ratio to count(x) | ratio to hashagg | ratio to the first kind's "
           "|\n|---|---|---|---|---|\n");
    for (int i = 0; i < count; i++) {
        printf("| `%s` | %.1f | %.2f | %.2f |", queries[i].sql, medians[i] * 1e9 / 1e6,
               medians[i] / medians[0], medians[i] / medians[1]);
        if (i >= 2) {
            printf(" %.2f |\n", medians[i] / medians[first[i]]);
        } else {
            printf(" - |\n");
        }
    }
    for (int i = 2; i < count; i++) {
        sqlite3_free(queries[i].sql);
    }
    table_build_bound(b);
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

/* 7. Filters kept up to date where they are stored (ext/functions/in_place_functions.c): a trigger that
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

/* The n to build a filter of kind with when n keys are to be inserted in it later: n, and the
** slack the kind needs to find room for them (tests/test_kinds.h). */
static sqlite3_int64 capacity_for_inserts(const filter_kind *kind, sqlite3_int64 n) {
    return n + n * test_kind_of(kind)->insert_slack_percent / 100;
}

/* Whether 7a keeps a filter of kind up to date in place: bloom_build builds it for n keys, it
** adds keys in place, and it never grows (8d grows a scalable filter in place). A kind whose
** filters hold the values of one type (a Parquet filter's) is left out of 7a, 7b, 7c and 11a,
** which add TEXT names to filters built of INTEGER keys. */
static int adds_in_place_without_growing(const filter_kind *kind) {
    return test_kind_of(kind)->builder == BUILT_BY_BLOOM_BUILD &&
           filter_kind_can(kind, FILTER_ADDS_IN_PLACE) && !filter_kind_can(kind, FILTER_GROWS) &&
           kind->value_type == NULL;
}

/* 7a. Committed inserts into users(name), one a transaction, with the filter of row 1 kept up
** to date by a trigger or not. */
static void live_inserts(bench *lb, const char *wal) {
    const filter_kind *kinds[FILTER_KIND_COUNT];
    const int kind_count = kinds_where(adds_in_place_without_growing, kinds);
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
           "pages = (WAL bytes - 32) / (%lld + 24). Median of %d runs, in turns.",
           (long long)n, (long long)n, (long long)page_size, runs);
    for (int k = 0; k < kind_count; k++) {
        if (capacity_for_inserts(kinds[k], n) != n) {
            printf(" (The %s filter, which refuses keys past its capacity, is built for %g n, so "
                   "that the inserts find room.)",
                   kinds[k]->name, (double)capacity_for_inserts(kinds[k], n) / (double)n);
        }
    }
    printf("\n\n");
    printf("| kind | filter bytes | trigger | inserts a run | µs/insert | ratio to no trigger | "
           "WAL bytes/insert | pages written/insert |\n|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < kind_count; k++) {
        char *cte = series(n);
        char *build = format("DROP TRIGGER IF EXISTS users_filter; DELETE FROM filters; %s "
                             "INSERT INTO filters(id, filter) SELECT 1, bloom_build(i, %lld, "
                             "0.01, '%s') FROM s;",
                             cte, (long long)capacity_for_inserts(kinds[k], n), kinds[k]->name);
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
            printf("| %s | %lld | %s | %d | %.1f | %.1f | %.0f | %.2f |\n", kinds[k]->name,
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

/* Whether 7c sets kind against the first kind: another kind, that removes keys. */
static int removes_keys(const filter_kind *kind) {
    return kind != filter_kind_at(0) && filter_kind_can(kind, FILTER_REMOVES);
}

/* Prints a row of 7c: operation over rows rows, noop's seconds, then each of the count kinds'
** seconds in seconds[] in turn, as ns/row with the decimals given (a kind that cannot remove:
** seconds NULL). */
static void print_cost_row(const char *operation, int rows, double noop,
                           const double *const *seconds, int count, int decimals) {
    printf("| `%s` | %d | %.1f |", operation, rows, noop * 1e9 / rows);
    for (int k = 0; k < count; k++) {
        if (seconds[k] == NULL) {
            printf(" - (cannot remove) |");
        } else {
            printf(" %.*f |", decimals, *seconds[k] * 1e9 / rows);
        }
    }
    printf("\n");
}

/* 7c. What the kinds that remove cost a row against the first kind (bloom_build's default), in
** one statement over the keys table. */
static void live_removing(bench *b) {
    const int rows = b->quick ? 100000 : 1000000, copies = b->quick ? 100 : 1000;
    const sqlite3_int64 n = 1000000;
    const filter_kind *kinds[1 + FILTER_KIND_COUNT] = {filter_kind_at(0)};
    const int count = 1 + kinds_where(removes_keys, kinds + 1);
    void *filters[1 + FILTER_KIND_COUNT];
    int bytes[1 + FILTER_KIND_COUNT];
    /* After noop's: the probes of each filter; the adds and removes of each. */
    query probe[2 + FILTER_KIND_COUNT], change[1 + 2 * (1 + FILTER_KIND_COUNT)];
    double probe_seconds[2 + FILTER_KIND_COUNT], change_seconds[1 + 2 * (1 + FILTER_KIND_COUNT)];
    const double *probed[1 + FILTER_KIND_COUNT], *added[1 + FILTER_KIND_COUNT],
        *removed[1 + FILTER_KIND_COUNT];
    int probes = 1, changes = 1;
    char *cte = series(n);
    for (int k = 0; k < count; k++) {
        char *sql = format("%s SELECT bloom_build(i, %lld, 0.01, '%s') FROM s", cte,
                           (long long)capacity_for_inserts(kinds[k], n), kinds[k]->name);
        filters[k] = fetch_blob(b, sql, &bytes[k]);
        sqlite3_free(sql);
        probed[k] = &probe_seconds[probes];
        probe[probes++] = (query){
            kinds[k]->name,
            format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %d", rows),
            filters[k], bytes[k]};
        added[k] = &change_seconds[changes];
        change[changes++] =
            (query){kinds[k]->name,
                    format("SELECT count(bloom_add(?1, x)) FROM keys WHERE rowid <= %d", copies),
                    filters[k], bytes[k]};
        removed[k] = NULL;
        if (filter_kind_can(kinds[k], FILTER_REMOVES)) {
            removed[k] = &change_seconds[changes];
            change[changes++] = (query){
                kinds[k]->name,
                format("SELECT count(bloom_remove(?1, x)) FROM keys WHERE rowid <= %d", copies),
                filters[k], bytes[k]};
        }
    }
    sqlite3_free(cte);
    probe[0] = (query){"noop", format("SELECT sum(noop(?1, x)) FROM keys WHERE rowid <= %d", rows),
                       filters[0], bytes[0]};
    change[0] =
        (query){"noop", format("SELECT count(noop(?1, x)) FROM keys WHERE rowid <= %d", copies),
                filters[0], bytes[0]};
    time_in_turns(b, probe, probes, probe_seconds);
    time_in_turns(b, change, changes, change_seconds);
    printf("\n### 7c. What the kinds that remove cost\n\n");
    printf("One statement over the rows of `keys` (keys 1 to 1M), the filter bound to ?1: 1M "
           "keys at p = 0.01, ");
    for (int k = 0; k < count; k++) {
        printf("%s%s (%d bytes",
               k == 0           ? ""
               : k + 1 == count ? " and "
                                : ", ",
               kinds[k]->name, bytes[k]);
        sqlite3_int64 counter_bits = fetch_int_bound(
            b, "SELECT json_extract(bloom_info(?1), '$.counter_bits')", filters[k], bytes[k]);
        if (counter_bits > 0) {
            printf(", %lld-bit counters", (long long)counter_bits);
        }
        if (capacity_for_inserts(kinds[k], n) != n) {
            printf(", built for %gM keys so that adds find room",
                   (double)capacity_for_inserts(kinds[k], n) / 1e6);
        }
        printf(")");
    }
    printf(". bloom_add and bloom_remove return a new filter, a copy of the bound one, for every "
           "row: %d rows for them. noop(?1, x) is SQLite's cost of calling a function. Median of "
           "%d runs, in turns.\n\n",
           copies, b->runs);
    printf("| operation | rows | noop ns/row |");
    for (int k = 0; k < count; k++) {
        printf(" %s ns/row |", kinds[k]->name);
    }
    printf("\n|---|---|---|");
    for (int k = 0; k < count; k++) {
        printf("---|");
    }
    printf("\n");
    print_cost_row("bloom_might_contain(?1, x)", rows, probe_seconds[0], probed, count, 1);
    print_cost_row("bloom_add(?1, x)", copies, change_seconds[0], added, count, 0);
    print_cost_row("bloom_remove(?1, x)", copies, change_seconds[0], removed, count, 0);
    for (int i = 0; i < probes; i++) {
        sqlite3_free(probe[i].sql);
    }
    for (int i = 0; i < changes; i++) {
        sqlite3_free(change[i].sql);
    }
    for (int k = 0; k < count; k++) {
        free(filters[k]);
    }
}

/* A copy of b on a new file database DIR/file (its path and its WAL's in *path and *wal),
** with the extension loaded. */
static bench open_bench_file(bench *b, const char *file, char **path, char **wal) {
    *path = format("%s/%s", b->dir, file);
    *wal = format("%s-wal", *path);
    remove(*path);
    remove(*wal);
    bench lb = *b;
    lb.db = open_live(b, *path);
    return lb;
}

/* Closes lb's database and removes its files and their paths. */
static void close_bench_file(bench *lb, char *path, char *wal) {
    sqlite3_close(lb->db);
    remove(path);
    remove(wal);
    sqlite3_free(path);
    sqlite3_free(wal);
}

static void table_live(bench *b) {
    char *path, *wal;
    bench lb = open_bench_file(b, "bench_live.db", &path, &wal);
    exec(&lb, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0;"
              "CREATE TABLE users(name TEXT);"
              "CREATE TABLE filters(id INTEGER PRIMARY KEY, filter BLOB);");
    live_inserts(&lb, wal);
    live_probes(&lb, wal);
    close_bench_file(&lb, path, wal);
    live_removing(b);
}

/* 8. The scalable kind (ext/kinds/scalable_core.h): its growth ratio g and tightening ratio r chosen
** from measurements through the core; its figures through SQL; and its growth in place. */

/* splitmix64: the benchmark's random numbers, from a fixed seed. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A filter in memory from malloc, grown as bloom_add grows it. */
typedef struct grown_filter {
    uint8_t *blob;
    uint64_t bytes;
    int stages; /* a scalable filter's */
} grown_filter;

/* An empty scalable filter for a first stage of n keys at compound rate p, of growth g and
** tightening r, stages of layout. */
static void scalable_start(bench *b, grown_filter *g, uint64_t n, double p, int layout, int growth,
                           double tightening) {
    scalable_header h;
    bloom_header first;
    double bytes;
    if (scalable_size(n, p, layout, growth, tightening, &h, &first, &bytes) != FILTER_OK) {
        die(b, "scalable_size");
    }
    g->bytes = (uint64_t)bytes;
    g->blob = calloc(g->bytes, 1);
    if (g->blob == NULL) {
        die(b, "out of memory");
    }
    scalable_write_header(g->blob, &h);
    bloom_write_header(g->blob + FILTER_HEADER_BYTES, &first);
    g->stages = 1;
}

/* Adds key to the scalable filter g, growing it by a stage when it is full, as bloom_add does
** (sql_kind_grow). Returns 1 when it grew. */
static int scalable_push(bench *b, grown_filter *g, key_hash key) {
    filter_status status = filter_add(&scalable_kind, g->blob, key);
    if (status != FILTER_FULL) {
        return 0;
    }
    filter_view f = {&scalable_kind, 0, 0, 0, g->blob, g->bytes};
    uint64_t grown;
    if (scalable_kind.grow_size(&f, &grown) != FILTER_OK) {
        die(b, "the scalable filter cannot grow");
    }
    uint8_t *larger = realloc(g->blob, grown);
    if (larger == NULL) {
        die(b, "out of memory");
    }
    filter_grow(&scalable_kind, larger, g->bytes, grown);
    g->blob = larger;
    g->bytes = grown;
    g->stages++;
    if (filter_add(&scalable_kind, g->blob, key) != FILTER_OK) {
        die(b, "a grown scalable filter had no room");
    }
    return 1;
}

/* A Bloom filter of layout for n keys at p holding the keys 1..n, from malloc. */
static grown_filter bloom_filled(bench *b, uint64_t n, double p, int layout) {
    bloom_header h;
    double bytes;
    grown_filter g = {NULL, 0, 0};
    if (bloom_size(n, p, layout, &h, &bytes) != FILTER_OK) {
        die(b, "bloom_size");
    }
    g.bytes = (uint64_t)bytes;
    g.blob = calloc(g.bytes, 1);
    if (g.blob == NULL) {
        die(b, "out of memory");
    }
    for (uint64_t i = 1; i <= n; i++) {
        bloom_set(g.blob + FILTER_HEADER_BYTES, &h, key_hash_integer((int64_t)i));
    }
    h.keys = n;
    bloom_write_header(g.blob, &h);
    return g;
}

/* A view of g that filter_open accepted. */
static filter_view open_grown(bench *b, const grown_filter *g) {
    filter_view f;
    char why[FILTER_WHY_MAX];
    if (filter_open(g->blob, g->bytes, &f, why) != FILTER_OK) {
        die(b, why);
    }
    return f;
}

/* Probes f with the keys from first on, count of them, by its kind's might_contain (the
** probe bloom_might_contain makes): the answers 1, and the seconds into *seconds. */
static uint64_t probe_run(const filter_view *f, int64_t first, int64_t step, uint64_t count,
                          double *seconds) {
    uint64_t hits = 0;
    double start = now();
    int64_t key = first;
    for (uint64_t i = 0; i < count; i++, key += step) {
        hits += (uint64_t)f->kind->might_contain(f, key_hash_integer(key));
    }
    *seconds = now() - start;
    return hits;
}

/* Filters time_probes sets side by side, at most: in 8b, a scalable filter and a filter of each
** layout of a Bloom filter. */
enum { PROBE_CASES_MAX = 2 * FILTER_KIND_COUNT };

/* Times count probes of the keys first, first + step, ... in each of cases filters, b->runs times
** in turns: ns/probe medians into ns, the answers 1 into hits. */
static void time_probes(bench *b, const filter_view *filters, int cases, int64_t first,
                        int64_t step, uint64_t count, double *ns, uint64_t *hits) {
    double times[PROBE_CASES_MAX][LIVE_RUNS_MAX];
    int runs = b->runs < LIVE_RUNS_MAX ? b->runs : LIVE_RUNS_MAX;
    for (int r = 0; r < runs; r++) {
        for (int c = 0; c < cases; c++) {
            hits[c] = probe_run(&filters[c], first, step, count, &times[c][r]);
        }
    }
    for (int c = 0; c < cases; c++) {
        ns[c] = median(times[c], runs) * 1e9 / (double)count;
    }
}

/* A filter of 8a: its ratios, and the keys offered and the bytes when each stage was added. */
typedef struct scalable_run {
    int growth;
    double tightening;
    uint64_t grew_at[SCALABLE_STAGES_MAX];  /* keys offered when stage i was added */
    uint64_t bytes_at[SCALABLE_STAGES_MAX]; /* bytes with stages 0..i */
    int stages;
} scalable_run;

/* Bytes of the scalable filter of run after count keys were offered one by one. */
static uint64_t run_bytes(const scalable_run *run, uint64_t count, int *stages) {
    int s = 0;
    while (s + 1 < run->stages && run->grew_at[s + 1] <= count) {
        s++;
    }
    *stages = s + 1;
    return run->bytes_at[s];
}

/* Bytes of a standard Bloom filter for n keys at p. */
static uint64_t standard_bytes(uint64_t n, double p) {
    bloom_header h;
    double bytes;
    return bloom_size(n, p, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK ? (uint64_t)bytes : 0;
}

/* 8a. Growth and tightening ratios, through the core. */
static void table_scalable_ratios(bench *b) {
    static const int growths[] = {2, 4};
    static const double tightenings[] = {0.5, 0.7, 0.8, 0.9};
    enum { GROWTHS = 2, TIGHTENINGS = 4, CHECKPOINTS = 4, POINTS = 1001 };
    const uint64_t n = 1000, absent = b->quick ? 100000 : 1000000;
    const double p = 0.01;
    const int checkpoints = b->quick ? 3 : CHECKPOINTS;
    double summary[GROWTHS][TIGHTENINGS][9] = {{{0}}};
    printf("\n### 8a. Scalable filter: the growth and tightening ratios\n\n");
    printf(
        "Through the core (scalable_size, the kind's add, grow_size and filter_grow, as bloom_add "
        "uses them): a scalable filter of first stage n = %llu, compound rate p = %g, stages "
        "of the standard layout, growth g and tightening r; the keys 1, 2, 3, ... offered one "
        "by one. At 1x, 10x, 100x and 1000x n keys offered: its bytes against a standard "
        "filter built for that count and holding the same keys, its stages, the false "
        "positives of %llu absent keys (-1, -2, ...), and the ns per absent probe (the kind's "
        "might_contain) against the standard filter's, median of %d runs in turns.\n\n",
        (unsigned long long)n, p, (unsigned long long)absent, b->runs);
    printf("| g | r | keys offered | stages | bytes | standard bytes | bytes ratio | false "
           "positives | measured rate | probe ns | standard probe ns | probe ratio "
           "|\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int gi = 0; gi < GROWTHS; gi++) {
        for (int ri = 0; ri < TIGHTENINGS; ri++) {
            scalable_run run = {growths[gi], tightenings[ri], {0}, {0}, 1};
            grown_filter g;
            scalable_start(b, &g, n, p, BLOOM_LAYOUT_STANDARD, run.growth, run.tightening);
            run.bytes_at[0] = g.bytes;
            uint64_t offered = 0, target = n;
            double worst_rate = 0, *s = summary[gi][ri]; /* the summary's columns */
            for (int c = 0; c < checkpoints; c++, target *= 10) {
                for (; offered < target; offered++) {
                    if (scalable_push(b, &g, key_hash_integer((int64_t)offered + 1))) {
                        run.grew_at[run.stages] = offered + 1;
                        run.bytes_at[run.stages++] = g.bytes;
                        /* The stages before the new one are full: the rate at its highest. */
                        filter_view full = open_grown(b, &g);
                        double seconds, rate = (double)probe_run(&full, -1, -1, absent, &seconds) /
                                               (double)absent;
                        s[8] = rate > s[8] ? rate : s[8];
                    }
                }
                grown_filter standard = bloom_filled(b, target, p, BLOOM_LAYOUT_STANDARD);
                filter_view views[2] = {open_grown(b, &g), open_grown(b, &standard)};
                double seconds, ns[2];
                uint64_t hits[2];
                if (probe_run(&views[0], 1, 1, target, &seconds) != target) {
                    die(b, "a key added to a scalable filter probed 0");
                }
                time_probes(b, views, 2, -1, -1, absent, ns, hits);
                double rate = (double)hits[0] / (double)absent;
                worst_rate = rate > worst_rate ? rate : worst_rate;
                printf("| %d | %.1f | %llu | %d | %llu | %llu | %.2f | %llu | %.4f %% | %.1f | "
                       "%.1f | %.2f |\n",
                       run.growth, run.tightening, (unsigned long long)target, g.stages,
                       (unsigned long long)g.bytes, (unsigned long long)standard.bytes,
                       (double)g.bytes / (double)standard.bytes, (unsigned long long)hits[0],
                       100.0 * rate, ns[0], ns[1], ns[0] / ns[1]);
                fflush(stdout);
                s[c] = (double)g.bytes / (double)standard.bytes;
                s[6] = ns[0] / ns[1];
                free(standard.blob);
            }
            /* Final counts log-uniform from n to the last checkpoint. */
            double ratio_sum = 0, stage_sum = 0, span = (double)(target / 10) / (double)n;
            for (int j = 0; j < POINTS; j++) {
                uint64_t count = (uint64_t)llround((double)n * pow(span, (double)j / (POINTS - 1)));
                int stages;
                ratio_sum +=
                    (double)run_bytes(&run, count, &stages) / (double)standard_bytes(count, p);
                stage_sum += stages;
            }
            s[4] = ratio_sum / POINTS;
            s[5] = stage_sum / POINTS;
            s[7] = worst_rate;
            free(g.blob);
        }
    }
    printf("\nThe same runs in summary: bytes against the standard filter at each count; their "
           "mean, and the mean number of stages, over %d final counts spread log-uniformly from "
           "1x to %dx n (the bytes of the filter that offering that many keys made, against a "
           "standard filter sized for that count); the highest measured rate of the "
           "checkpoints, and of the moments each stage became full (measured just after the "
           "next was added, on the same absent keys); the probe ratio at the last "
           "checkpoint.\n\n",
           POINTS, checkpoints == 4 ? 1000 : 100);
    printf("| g | r | bytes ratio 1x | 10x | 100x | 1000x | mean bytes ratio | mean stages | "
           "highest measured rate, checkpoints | highest, stages full | probe ratio at the last "
           "|\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int gi = 0; gi < GROWTHS; gi++) {
        for (int ri = 0; ri < TIGHTENINGS; ri++) {
            double *s = summary[gi][ri];
            printf("| %d | %.1f | %.2f | %.2f | %.2f | ", growths[gi], tightenings[ri], s[0], s[1],
                   s[2]);
            if (checkpoints == 4) {
                printf("%.2f | ", s[3]);
            } else {
                printf("- | ");
            }
            printf("%.2f | %.2f | %.4f %% | %.4f %% | %.2f |\n", s[4], s[5], 100.0 * s[7],
                   100.0 * s[8], s[6]);
        }
    }
    fflush(stdout);
}

/* 8b. Stages of the blocked layout against the standard one, at the last checkpoint: for each
** layout of a Bloom filter, a scalable filter of its stages and a filter of it. */
static void table_scalable_layouts(bench *b) {
    static const int growths[] = {2, 4};
    static const double tightenings[] = {0.5, 0.7, 0.8, 0.9};
    const uint64_t n = 1000, keys = b->quick ? 100000 : 1000000, absent = keys;
    const double p = 0.01;
    const filter_kind *layouts[FILTER_KIND_COUNT];
    const int layout_count = kinds_where(is_bloom_layout, layouts), cases = 2 * layout_count;
    printf("\n### 8b. Scalable filter: stages of the blocked layout\n\n");
    printf("As 8a, after %llu keys offered one by one (%llux n): a scalable filter of ",
           (unsigned long long)keys, (unsigned long long)(keys / n));
    for (int l = 0; l < layout_count; l++) {
        printf("%s%s stages", l == 0 ? "" : " and one of ", layouts[l]->name);
    }
    printf(", against ");
    for (int l = 0; l < layout_count; l++) {
        printf("%sa %s", l == 0 ? "" : " and ", layouts[l]->name);
    }
    printf(" filter built for %llu keys. ns per probe of %llu absent keys and of the %llu keys "
           "added, median of %d runs in turns.\n\n",
           (unsigned long long)keys, (unsigned long long)absent, (unsigned long long)keys, b->runs);
    printf("| g | r | filter | stages | bytes | measured rate | absent ns/probe | present "
           "ns/probe |\n|---|---|---|---|---|---|---|---|\n");
    for (int gi = 0; gi < 2; gi++) {
        for (int ri = 0; ri < 4; ri++) {
            /* The scalable filters, then the filters of the layouts. */
            grown_filter g[PROBE_CASES_MAX];
            filter_view views[PROBE_CASES_MAX];
            for (int l = 0; l < layout_count; l++) {
                scalable_start(b, &g[l], n, p, layouts[l]->id, growths[gi], tightenings[ri]);
                for (uint64_t i = 1; i <= keys; i++) {
                    scalable_push(b, &g[l], key_hash_integer((int64_t)i));
                }
                g[layout_count + l] = bloom_filled(b, keys, p, layouts[l]->id);
            }
            for (int c = 0; c < cases; c++) {
                views[c] = open_grown(b, &g[c]);
            }
            double absent_ns[PROBE_CASES_MAX], present_ns[PROBE_CASES_MAX];
            uint64_t hits[PROBE_CASES_MAX], present[PROBE_CASES_MAX];
            time_probes(b, views, cases, -1, -1, absent, absent_ns, hits);
            time_probes(b, views, cases, 1, 1, keys, present_ns, present);
            for (int c = 0; c < cases; c++) {
                if (present[c] != keys) {
                    die(b, "a key added probed 0");
                }
                const char *layout = layouts[c % layout_count]->name;
                char name[64], stages[16] = "-";
                if (c < layout_count) {
                    snprintf(name, sizeof name, "scalable, %s stages", layout);
                    snprintf(stages, sizeof stages, "%d", g[c].stages);
                } else {
                    snprintf(name, sizeof name, "%s", layout);
                }
                printf("| %d | %.1f | %s | %s | %llu | %.4f %% | %.1f | %.1f |\n", growths[gi],
                       tightenings[ri], name, stages, (unsigned long long)g[c].bytes,
                       100.0 * (double)hits[c] / (double)absent, absent_ns[c], present_ns[c]);
                free(g[c].blob);
            }
            fflush(stdout);
        }
    }
}

/* The REAL the one-row query sql returns with blob bound to ?1. */
static double fetch_double_bound(bench *b, const char *sql, const void *blob, int bytes) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(b->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(b, sql);
    }
    sqlite3_bind_blob(stmt, 1, blob, bytes, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_ROW) {
        die(b, sql);
    }
    double v = sqlite3_column_double(stmt, 0);
    sqlite3_finalize(stmt);
    return v;
}

/* The table absent(x) of the keys -1 to -count, for false positives. */
static void make_absent(bench *b, sqlite3_int64 count) {
    exec_over_series(b, count,
                     "DROP TABLE IF EXISTS absent; CREATE TABLE absent(x INTEGER); INSERT INTO "
                     "absent %s SELECT -i FROM s;");
}

/* 8c. The scalable kind through SQL, with the constants it ships with. */
static void table_scalable_sql(bench *b) {
    static const sqlite3_int64 counts[] = {1000, 10000, 100000, 1000000};
    const int count_n = b->quick ? 3 : 4;
    const sqlite3_int64 absent = 1000000, chain_max = b->quick ? 10000 : 100000;
    make_absent(b, absent);
    printf("\n### 8c. Scalable filter through SQL\n\n");
    printf("The shipping constants, g = %d and r = %g: `SELECT bloom_build(x, 1000, 0.01, "
           "'scalable') FROM keys WHERE rowid <= N` (the aggregate adds the keys 1..N one by "
           "one, growing as it goes), against a standard filter built for the same N keys "
           "(`bloom_build(x, N, 0.01)`). Up to N = %lld the same filter is also built by "
           "`bloom_add` row by row (a recursive CTE carrying the filter from `bloom_empty(1000, "
           "0.01, 'scalable')`), and must be the same bytes. Every added key is probed "
           "(`sum(bloom_might_contain(?1, x))`), then the %lld absent keys of `absent(x)` (-1 "
           "to -1M); ns per absent probe, bound filter, against the standard filter's and "
           "`noop(?1, x)`'s, and ns per key of the two builds, median of %d runs in turns.\n\n",
           SCALABLE_GROWTH, SCALABLE_TIGHTENING, (long long)chain_max, (long long)absent, b->runs);
    printf("| keys added | stages | bytes | standard bytes | bytes ratio | keys probing 1 | "
           "false positives | measured rate | bloom_info estimated_fp_rate | noop ns/row | "
           "standard ns/row | scalable ns/row | scalable / standard | build ns/key, scalable "
           "| build ns/key, standard |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---"
           "|---|\n");
    for (int i = 0; i < count_n; i++) {
        sqlite3_int64 c = counts[i];
        int bytes, standard_bytes;
        char *build = format(
            "SELECT bloom_build(x, 1000, 0.01, 'scalable') FROM keys WHERE rowid <= %lld", c);
        char *build_standard =
            format("SELECT bloom_build(x, %lld, 0.01) FROM keys WHERE rowid <= %lld", c, c);
        void *filter = fetch_blob(b, build, &bytes);
        void *standard = fetch_blob(b, build_standard, &standard_bytes);
        if (c <= chain_max) {
            int chain_bytes;
            char *chain = format("WITH RECURSIVE s(i, f) AS (SELECT 0, bloom_empty(1000, 0.01, "
                                 "'scalable') UNION ALL SELECT i + 1, bloom_add(f, i + 1) FROM s "
                                 "WHERE i < %lld) SELECT f FROM s WHERE i = %lld",
                                 c, c);
            void *added = fetch_blob(b, chain, &chain_bytes);
            if (chain_bytes != bytes || memcmp(added, filter, (size_t)bytes) != 0) {
                die(b, "bloom_add row by row and bloom_build made different scalable filters");
            }
            free(added);
            sqlite3_free(chain);
        }
        char *present_sql =
            format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %lld", c);
        sqlite3_int64 present = fetch_int_bound(b, present_sql, filter, bytes);
        if (present != c) {
            die(b, "a key added to a scalable filter probed 0");
        }
        sqlite3_int64 stages = fetch_int_bound(
            b, "SELECT json_extract(bloom_info(?1), '$.stage_count')", filter, bytes);
        double estimated = fetch_double_bound(
            b, "SELECT json_extract(bloom_info(?1), '$.estimated_fp_rate')", filter, bytes);
        query probes[] = {
            {"noop", "SELECT sum(noop(?1, x)) FROM absent", filter, bytes},
            {"standard", "SELECT sum(bloom_might_contain(?1, x)) FROM absent", standard,
             standard_bytes},
            {"scalable", "SELECT sum(bloom_might_contain(?1, x)) FROM absent", filter, bytes},
        };
        query builds[] = {{"scalable", build, NULL, 0}, {"standard", build_standard, NULL, 0}};
        double p[3], bt[2];
        sqlite3_int64 fp = 0;
        time_in_turns(b, probes, 3, p);
        time_in_turns(b, builds, 2, bt);
        run_once(b, &probes[2], &fp);
        printf("| %lld | %lld | %d | %d | %.2f | %lld | %lld | %.4f %% | %.4f %% | %.1f | %.1f | "
               "%.1f | %.2f | %.1f | %.1f |\n",
               (long long)c, (long long)stages, bytes, standard_bytes,
               (double)bytes / standard_bytes, (long long)present, (long long)fp,
               100.0 * (double)fp / (double)absent, 100.0 * estimated, p[0] * 1e9 / absent,
               p[1] * 1e9 / absent, p[2] * 1e9 / absent, p[2] / p[1], bt[0] * 1e9 / (double)c,
               bt[1] * 1e9 / (double)c);
        fflush(stdout);
        sqlite3_free(build);
        sqlite3_free(build_standard);
        sqlite3_free(present_sql);
        free(filter);
        free(standard);
    }
}

/* 8d. Growing in place: bloom_add_in_place on a stored scalable filter, which rewrites the cell
** with an UPDATE when it adds a stage. */
static void table_scalable_in_place(bench *b) {
    const sqlite3_int64 inserts = b->quick ? 10000 : 100000;
    const int runs = b->runs < 3 ? b->runs : 3;
    enum { CASES = 2 };
    static const char *const names[CASES] = {"standard, `bloom_empty(N, 0.01)`",
                                             "scalable, from `bloom_empty(1000, 0.01, "
                                             "'scalable')`"};
    char *path = format("%s/bench_scalable.db", b->dir);
    char *wal = format("%s-wal", path);
    remove(path);
    remove(wal);
    bench lb = *b;
    lb.db = open_live(b, path);
    exec(&lb, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0;"
              "CREATE TABLE filters(id INTEGER PRIMARY KEY, filter BLOB);");
    const sqlite3_int64 page_size = fetch_int(&lb, "PRAGMA page_size");
    double seconds[CASES][LIVE_RUNS_MAX], growth_seconds[CASES][LIVE_RUNS_MAX];
    double largest[CASES][LIVE_RUNS_MAX], pages[CASES][LIVE_RUNS_MAX];
    int growths[CASES] = {0};
    sqlite3_int64 final_bytes[CASES] = {0};
    for (int r = 0; r < runs; r++) {
        for (int c = 0; c < CASES; c++) {
            char *reset = c == 1 ? format("DELETE FROM filters; INSERT INTO filters VALUES (1, "
                                          "bloom_empty(1000, 0.01, 'scalable'));")
                                 : format("DELETE FROM filters; INSERT INTO filters VALUES (1, "
                                          "bloom_empty(%lld, 0.01));",
                                          (long long)inserts);
            exec(&lb, reset);
            sqlite3_free(reset);
            truncate_wal(&lb, wal);
            sqlite3_stmt *add = NULL;
            if (sqlite3_prepare_v2(lb.db, "SELECT bloom_add_in_place('filters', 'filter', 1, ?1)",
                                   -1, &add, NULL) != SQLITE_OK) {
                die(&lb, "bloom_add_in_place");
            }
            growths[c] = 0;
            growth_seconds[c][r] = 0;
            largest[c][r] = 0;
            double start = now();
            for (sqlite3_int64 i = 1; i <= inserts; i++) {
                sqlite3_int64 changes = sqlite3_total_changes64(lb.db);
                double begin = now();
                sqlite3_bind_int64(add, 1, i);
                if (sqlite3_step(add) != SQLITE_ROW) {
                    die(&lb, "bloom_add_in_place");
                }
                sqlite3_reset(add);
                double took = now() - begin;
                if (sqlite3_total_changes64(lb.db) != changes) { /* the cell was rewritten */
                    growths[c]++;
                    growth_seconds[c][r] += took;
                    largest[c][r] = took > largest[c][r] ? took : largest[c][r];
                }
            }
            seconds[c][r] = (now() - start) / (double)inserts;
            sqlite3_finalize(add);
            long long wal_bytes = file_bytes(wal);
            pages[c][r] = wal_bytes > 32
                              ? (double)((wal_bytes - 32) / (page_size + 24)) / (double)inserts
                              : 0.0;
            final_bytes[c] = fetch_int(&lb, "SELECT length(filter) FROM filters WHERE id = 1");
        }
    }
    /* The filter grown in place (the last case run) holds every key, and is the one
    ** bloom_build makes of them. */
    int stored_bytes, built_bytes;
    void *stored = fetch_blob(&lb, "SELECT filter FROM filters WHERE id = 1", &stored_bytes);
    char *present_sql =
        format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %lld", inserts);
    if (fetch_int_bound(b, present_sql, stored, stored_bytes) != inserts) {
        die(b, "a key added in place probed 0");
    }
    char *build = format(
        "SELECT bloom_build(x, 1000, 0.01, 'scalable') FROM keys WHERE rowid <= %lld", inserts);
    void *built = fetch_blob(b, build, &built_bytes);
    int same = stored_bytes == built_bytes && memcmp(stored, built, (size_t)built_bytes) == 0;
    printf("\n### 8d. Scalable filter: growing in place\n\n");
    printf("`SELECT bloom_add_in_place('filters', 'filter', 1, ?1)`, prepared once, for the keys "
           "1 to N = %lld, each its own transaction, in a WAL-mode file database (`synchronous = "
           "NORMAL`, SQLite's default 2 MB page cache, the WAL truncated before each run): on a "
           "scalable filter that starts with one stage of 1,000 keys and grows (each new stage "
           "rewrites the cell with an UPDATE, counted by sqlite3_total_changes), against a "
           "standard filter built for the N keys, which does not grow. Median of %d runs in "
           "turns. The scalable filter grown in place holds every key, and is %s the one "
           "`bloom_build(x, 1000, 0.01, 'scalable')` makes of the same keys.\n\n",
           (long long)inserts, runs, same ? "byte for byte" : "NOT");
    printf("| filter | final bytes | inserts | µs/insert, amortised | ratio | inserts that grew "
           "| µs in them, in all | the largest of them, µs | pages written/insert |\n"
           "|---|---|---|---|---|---|---|---|---|\n");
    double m[CASES];
    for (int c = 0; c < CASES; c++) {
        m[c] = median(seconds[c], runs);
    }
    for (int c = 0; c < CASES; c++) {
        printf("| %s | %lld | %lld | %.1f | %.2f | %d | %.0f | %.0f | %.2f |\n", names[c],
               (long long)final_bytes[c], (long long)inserts, m[c] * 1e6, m[c] / m[0], growths[c],
               median(growth_seconds[c], runs) * 1e6, median(largest[c], runs) * 1e6,
               median(pages[c], runs));
    }
    fflush(stdout);
    if (!same) {
        die(b, "the scalable filter grown in place is not the one bloom_build makes");
    }
    free(stored);
    free(built);
    sqlite3_free(build);
    sqlite3_free(present_sql);
    sqlite3_close(lb.db);
    remove(path);
    remove(wal);
    sqlite3_free(path);
    sqlite3_free(wal);
}

static void table_scalable(bench *b) {
    bench_clock = CLOCK_THREAD_CPUTIME_ID; /* 8a to 8c: in memory */
    table_scalable_ratios(b);
    table_scalable_layouts(b);
    table_scalable_sql(b);
    bench_clock = CLOCK_MONOTONIC; /* 8d writes a file */
    table_scalable_in_place(b);
}

/* 9. The count-min sketch (ext/kinds/countmin_core.h) on a Zipf-distributed stream. */

/* Draws of ranks 1..keys with chance proportional to 1 / rank^s: the cumulative distribution,
** searched. */
typedef struct zipf {
    double *cdf;
    uint64_t keys;
} zipf;

static zipf zipf_make(bench *b, uint64_t keys, double s) {
    zipf z = {malloc(sizeof(double) * keys), keys};
    double sum = 0;
    if (z.cdf == NULL) {
        die(b, "out of memory");
    }
    for (uint64_t r = 1; r <= keys; r++) {
        sum += pow((double)r, -s);
        z.cdf[r - 1] = sum;
    }
    for (uint64_t r = 0; r < keys; r++) {
        z.cdf[r] /= sum;
    }
    z.cdf[keys - 1] = 1.0;
    return z;
}

static uint64_t zipf_draw(const zipf *z, uint64_t *state) {
    double u = (double)(next_random(state) >> 11) * 0x1.0p-53;
    uint64_t lo = 0, hi = z->keys - 1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (z->cdf[mid] < u) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo + 1;
}

/* Runs sql (one statement, ?1 bound to each value) for the values v[0..count-1] in one
** transaction. */
static void insert_all(bench *b, const char *sql, const sqlite3_int64 *v, uint64_t count) {
    sqlite3_stmt *stmt = NULL;
    exec(b, "BEGIN");
    if (sqlite3_prepare_v2(b->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(b, sql);
    }
    for (uint64_t i = 0; i < count; i++) {
        sqlite3_bind_int64(stmt, 1, v[i]);
        if (sqlite3_step(stmt) != SQLITE_DONE) {
            die(b, sql);
        }
        sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
    exec(b, "COMMIT");
}

static void table_countmin(bench *b) {
    bench_clock = CLOCK_THREAD_CPUTIME_ID; /* restored at the end */
    static const double settings[][2] = {{0.001, 0.01}, {0.0001, 0.01}, {0.0001, 0.001}};
    enum { SETTINGS = 3, MAIN = 1 };
    const uint64_t keys = b->quick ? 100000 : 1000000, events = b->quick ? 1000000 : 10000000;
    const double exponent = 1.0;
    uint64_t state = 20261204, *exact = calloc(keys + 1, sizeof(uint64_t));
    sqlite3_int64 *values = malloc(sizeof(sqlite3_int64) * (events > keys ? events : keys));
    if (exact == NULL || values == NULL) {
        die(b, "out of memory");
    }
    /* The stream: events(key), in the order drawn. */
    zipf z = zipf_make(b, keys, exponent);
    for (uint64_t i = 0; i < events; i++) {
        uint64_t rank = zipf_draw(&z, &state);
        exact[rank]++;
        values[i] = (sqlite3_int64)rank;
    }
    free(z.cdf);
    exec(b, "DROP TABLE IF EXISTS events; CREATE TABLE events(key INTEGER);"
            "DROP TABLE IF EXISTS probes; CREATE TABLE probes(key INTEGER);");
    insert_all(b, "INSERT INTO events VALUES (?1)", values, events);
    /* The probes: every key of 1..keys once, in a random order. */
    for (uint64_t i = 0; i < keys; i++) {
        values[i] = (sqlite3_int64)i + 1;
    }
    for (uint64_t i = keys - 1; i > 0; i--) {
        uint64_t j = next_random(&state) % (i + 1);
        sqlite3_int64 t = values[i];
        values[i] = values[j];
        values[j] = t;
    }
    insert_all(b, "INSERT INTO probes VALUES (?1)", values, keys);
    free(values);
    /* The exact counts, in a file of their own to measure its size. */
    char *path = format("%s/bench_counts.db", b->dir);
    remove(path);
    char *attach = format("ATTACH %Q AS exact", path);
    exec(b, attach);
    exec(b, "CREATE TABLE exact.counts(key INTEGER PRIMARY KEY, c INTEGER);"
            "INSERT INTO exact.counts SELECT key, count(*) FROM events GROUP BY key;");
    uint64_t seen = 0, top = 0;
    for (uint64_t r = 1; r <= keys; r++) {
        seen += exact[r] > 0;
        top = exact[r] > top ? exact[r] : top;
    }
    if ((uint64_t)fetch_int(b, "SELECT count(*) FROM exact.counts") != seen) {
        die(b, "GROUP BY and the stream disagree");
    }
    sqlite3_int64 counts_bytes =
        fetch_int(b, "SELECT page_count * page_size FROM pragma_page_count('exact'), "
                     "pragma_page_size('exact')");
    printf("\n### 9. Count-min sketch on a Zipf stream\n\n");
    printf("A stream of %llu events over the keys 1 to %llu, Zipf-distributed with exponent s = "
           "%.1f (key r drawn with chance proportional to 1/r^s, by the benchmark's splitmix64 "
           "from seed 20261204): %llu keys seen, the most frequent %llu times. The events in "
           "`events(key INTEGER)`, in the order drawn. A sketch `cms_build(key, epsilon, delta)` "
           "(plain) or `cms_build(key, 1, epsilon, delta, 'conservative')` over the table, then "
           "the estimate of every key of 1..%llu (countmin_estimate, the code of cms_count; "
           "their sum checked against `sum(cms_count(?1, key))`) against the exact count. "
           "Error = estimate - count (never below 0: checked); N = %llu.\n\n",
           (unsigned long long)events, (unsigned long long)keys, exponent, (unsigned long long)seen,
           (unsigned long long)top, (unsigned long long)keys, (unsigned long long)events);
    printf("| epsilon | delta | update | width x depth | bytes | epsilon N | keys within epsilon "
           "N | share (at least 1 - delta) | largest error | mean error | keys exact | build s "
           "(one run) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    void *sketches[2] = {NULL, NULL};
    int sketch_bytes[2] = {0, 0};
    char *builds[2] = {NULL, NULL};
    for (int s = 0; s < SETTINGS; s++) {
        for (int update = 0; update < 2; update++) {
            double epsilon = settings[s][0], delta = settings[s][1];
            char *sql = update == 0
                            ? format("SELECT cms_build(key, %g, %g) FROM events", epsilon, delta)
                            : format("SELECT cms_build(key, 1, %g, %g, 'conservative') "
                                     "FROM events",
                                     epsilon, delta);
            int bytes;
            double start = now();
            void *sketch = fetch_blob(b, sql, &bytes);
            double build_seconds = now() - start;
            filter_view f;
            char why[FILTER_WHY_MAX];
            if (filter_open(sketch, (uint64_t)bytes, &f, why) != FILTER_OK) {
                die(b, why);
            }
            countmin_header h = countmin_header_of(&f);
            if (h.total != events) {
                die(b, "the sketch's total is not the number of events");
            }
            double bound = epsilon * (double)events, error_sum = 0;
            uint64_t within = 0, largest = 0, exact_keys = 0, estimate_sum = 0;
            for (uint64_t r = 1; r <= keys; r++) {
                uint64_t estimate = countmin_estimate(&f, key_hash_integer((int64_t)r));
                if (estimate < exact[r]) {
                    die(b, "a count-min estimate is below the true count");
                }
                uint64_t error = estimate - exact[r];
                within += (double)error <= bound;
                exact_keys += error == 0;
                largest = error > largest ? error : largest;
                error_sum += (double)error;
                estimate_sum += estimate;
            }
            if ((uint64_t)fetch_int_bound(b, "SELECT sum(cms_count(?1, key)) FROM probes", sketch,
                                          bytes) != estimate_sum) {
                die(b, "cms_count and countmin_estimate disagree");
            }
            printf("| %g | %g | %s | %llu x %u | %d | %.0f | %llu | %.4f %% | %llu | %.1f | %.2f "
                   "%% | %.1f |\n",
                   epsilon, delta, countmin_update_name(h.update), (unsigned long long)h.width,
                   (unsigned)h.depth, bytes, bound, (unsigned long long)within,
                   100.0 * (double)within / (double)keys, (unsigned long long)largest,
                   error_sum / (double)keys, 100.0 * (double)exact_keys / (double)keys,
                   build_seconds);
            fflush(stdout);
            if (s == MAIN) {
                sketches[update] = sketch;
                sketch_bytes[update] = bytes;
                builds[update] = sql;
            } else {
                free(sketch);
                sqlite3_free(sql);
            }
        }
    }
    printf("\nThe exact counts, `counts(key INTEGER PRIMARY KEY, c INTEGER)` from the GROUP BY, "
           "take %lld bytes in a file of their own.\n",
           (long long)counts_bytes);
    /* Building, against count(key) and the exact GROUP BY. */
    query build_queries[] = {
        {"count", "SELECT count(key) FROM events", NULL, 0},
        {"group", "SELECT key, count(*) FROM events GROUP BY key", NULL, 0},
        {"plain", builds[0], NULL, 0},
        {"conservative", builds[1], NULL, 0},
    };
    enum { BUILDS = sizeof build_queries / sizeof build_queries[0] };
    double bt[BUILDS];
    time_in_turns(b, build_queries, BUILDS, bt);
    printf("\nBuilding, epsilon = %g, delta = %g, over the %llu rows of `events`, median of %d "
           "runs in turns:\n\n",
           settings[MAIN][0], settings[MAIN][1], (unsigned long long)events, b->runs);
    printf("| query | ns/event | ratio to the GROUP BY |\n|---|---|---|\n");
    for (int i = 0; i < BUILDS; i++) {
        printf("| `%s` | %.1f | %.2f |\n", build_queries[i].sql, bt[i] * 1e9 / (double)events,
               bt[i] / bt[1]);
    }
    /* Querying, against the indexed lookup. */
    const char *lookup = "SELECT sum((SELECT c FROM exact.counts WHERE counts.key = probes.key)) "
                         "FROM probes";
    query query_queries[] = {
        {"noop", "SELECT sum(noop(?1, key)) FROM probes", sketches[0], sketch_bytes[0]},
        {"plain", "SELECT sum(cms_count(?1, key)) FROM probes", sketches[0], sketch_bytes[0]},
        {"conservative", "SELECT sum(cms_count(?1, key)) FROM probes", sketches[1],
         sketch_bytes[1]},
        {"lookup", (char *)lookup, NULL, 0},
    };
    enum { QUERIES = sizeof query_queries / sizeof query_queries[0] };
    double qt[QUERIES], large_cache;
    sqlite3_int64 found = 0;
    run_once(b, &query_queries[3], &found);
    if ((uint64_t)found != events) {
        die(b, "the exact counts do not add up to the events");
    }
    time_in_turns(b, query_queries, QUERIES, qt);
    char *cache = format("PRAGMA exact.cache_size = %lld", -(counts_bytes / 1024) * 2);
    exec(b, cache);
    sqlite3_free(cache);
    run_once(b, &query_queries[3], NULL); /* warm the cache */
    time_in_turns(b, &query_queries[3], 1, &large_cache);
    exec(b, "PRAGMA exact.cache_size = -2000");
    printf("\nQuerying: the %llu keys of `probes(key)` (every key of 1..%llu once, in a random "
           "order), the sketch (%d bytes) bound to ?1, against the exact count looked up in "
           "`counts` by its INTEGER PRIMARY KEY, with SQLite's default 2 MB page cache and "
           "with one that holds the table. Median of %d runs in turns.\n\n",
           (unsigned long long)keys, (unsigned long long)keys, sketch_bytes[0], b->runs);
    printf("| query | ns/row | ratio to the lookup |\n|---|---|---|\n");
    for (int i = 0; i < QUERIES; i++) {
        printf("| `%s`%s%s | %.1f | %.2f |\n", query_queries[i].sql,
               i == 1   ? ", plain"
               : i == 2 ? ", conservative"
                        : "",
               i == 3 ? ", 2 MB page cache" : "", qt[i] * 1e9 / (double)keys, qt[i] / qt[3]);
    }
    printf("| `%s`, page cache holding the table | %.1f | %.2f |\n", lookup,
           large_cache * 1e9 / (double)keys, large_cache / qt[3]);
    fflush(stdout);
    exec(b, "DETACH exact; DROP TABLE events; DROP TABLE probes;");
    remove(path);
    sqlite3_free(path);
    sqlite3_free(attach);
    for (int i = 0; i < 2; i++) {
        free(sketches[i]);
        sqlite3_free(builds[i]);
    }
    free(exact);
    bench_clock = CLOCK_MONOTONIC;
}

/* 10. The cuckoo kind's slack: filters for n keys filled with n random keys, with the buckets
** cuckoo_size gives (CUCKOO_SLACK square roots more than n keys at CUCKOO_LOAD) and without. */
static void table_cuckoo_slack(bench *b) {
    static const uint64_t ranges[][2] = {{1, 100}, {101, 1000}, {1001, 3000}};
    const uint64_t n_max = b->quick ? 300 : 3000;
    const int seeds = b->quick ? 2 : 32;
    uint64_t fills[2][4] = {{0}}, failed[2][4] = {{0}}, bytes_at[2] = {0, 0};
    for (uint64_t n = 1; n <= n_max; n++) {
        for (int slack = 0; slack < 2; slack++) {
            cuckoo_header h;
            double bytes_needed;
            if (cuckoo_size(n, 0.01, &h, &bytes_needed) != FILTER_OK) {
                die(b, "cuckoo_size");
            }
            if (!slack) {
                h.buckets = (uint64_t)ceil((double)n / (CUCKOO_SLOTS * CUCKOO_LOAD));
            }
            uint64_t bytes = cuckoo_blob_bytes(&h);
            uint8_t *blob = malloc(bytes);
            if (blob == NULL) {
                die(b, "out of memory");
            }
            bytes_at[slack] += bytes;
            int range = 0;
            while (n > ranges[range][1]) {
                range++;
            }
            for (int seed = 0; seed < seeds; seed++) {
                uint64_t state = (n << 32) | (uint64_t)seed; /* the same keys with and without */
                memset(blob, 0, bytes);
                cuckoo_write_header(blob, &h);
                int full = 0;
                for (uint64_t i = 0; i < n && !full; i++) {
                    full = filter_add(&cuckoo_kind, blob,
                                      key_hash_integer((int64_t)next_random(&state))) != FILTER_OK;
                }
                fills[slack][range]++;
                fills[slack][3]++;
                failed[slack][range] += (uint64_t)full;
                failed[slack][3] += (uint64_t)full;
            }
            free(blob);
        }
    }
    printf("\n### 10. Cuckoo filter: the slack\n\n");
    printf("For every n from 1 to %llu, %d cuckoo filters for n keys at p = 0.01 (cuckoo_size), "
           "each filled with n random keys (splitmix64, seeded by n and the fill; the same keys "
           "in both rows), through the kind's add. Fills that had no room for one of the keys, "
           "out of the fills, with b = n / (4 x %.2f) buckets rounded up and with cuckoo_size's "
           "ceil(b + %.0f sqrt(b)). Bytes: the sum over n of one filter's.\n\n",
           (unsigned long long)n_max, seeds, CUCKOO_LOAD, CUCKOO_SLACK);
    printf("| buckets | n = 1 to 100 | 101 to 1,000 | 1,001 to 3,000 | all | bytes |\n"
           "|---|---|---|---|---|---|\n");
    for (int slack = 0; slack < 2; slack++) {
        printf("| %s |", slack ? "ceil(b + 2 sqrt(b)) (cuckoo_size)" : "ceil(b)");
        for (int r = 0; r < 4; r++) {
            if (fills[slack][r] == 0) {
                printf(" - |");
            } else {
                printf(" %llu / %llu (%.2f %%) |", (unsigned long long)failed[slack][r],
                       (unsigned long long)fills[slack][r],
                       100.0 * (double)failed[slack][r] / (double)fills[slack][r]);
            }
        }
        printf(" %llu |\n", (unsigned long long)bytes_at[slack]);
    }
    fflush(stdout);
}

/* The smallest and the largest filter for n keys at p = 0.01 (its overflow chain the shortest and
** the longest) of the kinds 7a keeps up to date in place: their kinds, into kinds[0] and
** kinds[1]. */
static void smallest_and_largest(bench *b, sqlite3_int64 n, const filter_kind **kinds) {
    const filter_kind *candidates[FILTER_KIND_COUNT];
    const int count = kinds_where(adds_in_place_without_growing, candidates);
    uint64_t least = UINT64_MAX, most = 0;
    for (int k = 0; k < count; k++) {
        uint64_t bytes;
        uint8_t *empty =
            test_kind_of(candidates[k])
                ->make_empty((uint64_t)capacity_for_inserts(candidates[k], n), 0.01, &bytes);
        if (empty == NULL) {
            die(b, "the core cannot size a filter of 7a");
        }
        free(empty);
        if (bytes < least) {
            least = bytes;
            kinds[0] = candidates[k];
        }
        if (bytes > most) {
            most = bytes;
            kinds[1] = candidates[k];
        }
    }
}

/* 7d. The in-place insert with PRAGMA auto_vacuum = INCREMENTAL, whose pointer map lets SQLite
** find the pages of a BLOB's overflow chain without reading them, for the smallest and the
** largest of 7a's filters. */
static void table_vacuum(bench *b) {
    static const char *const modes[] = {"NONE", "INCREMENTAL"};
    const sqlite3_int64 n = b->quick ? 10000 : 1000000;
    const filter_kind *kinds[2];
    smallest_and_largest(b, n, kinds);
    const int inserts = b->quick ? 100 : 1000,
              runs = b->runs < LIVE_RUNS_MAX ? b->runs : LIVE_RUNS_MAX;
    bench lb[2];
    char *paths[2], *wals[2];
    for (int v = 0; v < 2; v++) {
        paths[v] = format("%s/bench_vacuum_%d.db", b->dir, v);
        wals[v] = format("%s-wal", paths[v]);
        remove(paths[v]);
        remove(wals[v]);
        lb[v] = *b;
        lb[v].db = open_live(b, paths[v]);
        char *setup =
            format("PRAGMA auto_vacuum = %s; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                   "PRAGMA wal_autocheckpoint=0; CREATE TABLE users(name TEXT);"
                   "CREATE TABLE filters(id INTEGER PRIMARY KEY, filter BLOB);"
                   "CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN SELECT "
                   "bloom_add_in_place('filters', 'filter', 1, NEW.name); END;",
                   modes[v]);
        exec(&lb[v], setup);
        sqlite3_free(setup);
        if (fetch_int(&lb[v], "PRAGMA auto_vacuum") != v * 2) {
            die(&lb[v], "PRAGMA auto_vacuum");
        }
    }
    const sqlite3_int64 page_size = fetch_int(&lb[0], "PRAGMA page_size");
    printf("\n### 7d. In place, with PRAGMA auto_vacuum = INCREMENTAL\n\n");
    printf("As 7a's in-place case (WAL, `synchronous=NORMAL`, SQLite's default 2 MB page cache, "
           "one transaction an insert, the trigger `SELECT bloom_add_in_place('filters', "
           "'filter', 1, NEW.name)`; %d inserts a run), in two database files that differ only "
           "in `PRAGMA auto_vacuum`, set before their tables were created. Filters for n = %lld "
           "at p = 0.01 holding %lld keys. Median of %d runs in turns.\n\n",
           inserts, (long long)n, (long long)n, runs);
    printf("| kind | filter bytes | auto_vacuum | µs/insert | ratio to NONE | pages written/insert "
           "|\n|---|---|---|---|---|---|\n");
    sqlite3_int64 name = 0;
    for (int k = 0; k < 2; k++) {
        char *cte = series(n);
        char *build = format("DELETE FROM filters; %s INSERT INTO filters(id, filter) SELECT 1, "
                             "bloom_build(i, %lld, 0.01, '%s') FROM s;",
                             cte, (long long)capacity_for_inserts(kinds[k], n), kinds[k]->name);
        sqlite3_int64 bytes = 0;
        for (int v = 0; v < 2; v++) {
            exec(&lb[v], build);
            bytes = fetch_int(&lb[v], "SELECT length(filter) FROM filters WHERE id = 1");
        }
        sqlite3_free(cte);
        sqlite3_free(build);
        double seconds[2][LIVE_RUNS_MAX], pages[2][LIVE_RUNS_MAX];
        for (int r = 0; r < runs; r++) {
            for (int v = 0; v < 2; v++) {
                exec(&lb[v], "DELETE FROM users");
                truncate_wal(&lb[v], wals[v]);
                sqlite3_stmt *insert = NULL;
                if (sqlite3_prepare_v2(lb[v].db, "INSERT INTO users(name) VALUES (?1)", -1, &insert,
                                       NULL) != SQLITE_OK) {
                    die(&lb[v], "INSERT INTO users");
                }
                double start = now();
                for (int i = 0; i < inserts; i++) {
                    char text[32];
                    int len = snprintf(text, sizeof text, "user-%lld", (long long)++name);
                    sqlite3_bind_text(insert, 1, text, len, SQLITE_STATIC);
                    if (sqlite3_step(insert) != SQLITE_DONE) {
                        die(&lb[v], "INSERT INTO users");
                    }
                    sqlite3_reset(insert);
                }
                seconds[v][r] = (now() - start) / inserts;
                sqlite3_finalize(insert);
                long long wal_bytes = file_bytes(wals[v]);
                pages[v][r] =
                    wal_bytes > 32 ? (double)((wal_bytes - 32) / (page_size + 24)) / inserts : 0.0;
            }
        }
        double none = median(seconds[0], runs);
        for (int v = 0; v < 2; v++) {
            double s = median(seconds[v], runs);
            printf("| %s | %lld | %s | %.1f | %.2f | %.2f |\n", kinds[k]->name, (long long)bytes,
                   modes[v], s * 1e6, s / none, median(pages[v], runs));
        }
        fflush(stdout);
    }
    for (int v = 0; v < 2; v++) {
        sqlite3_close(lb[v].db);
        remove(paths[v]);
        remove(wals[v]);
        sqlite3_free(paths[v]);
        sqlite3_free(wals[v]);
    }
}

/* 11. The live table (ext/live/live_table.c): an insert through a trigger and a probe at capacities
** from 1e5 to 1e8 keys, a bulk load, a snapshot, a join and a query over many filters. */

/* 11a's inserts: into a table without a trigger, through a trigger into a live table, through a
** trigger calling bloom_add_in_place on the same filter stored as a BLOB, through a trigger
** into an ordinary table (the least a trigger that writes a row costs), and through a trigger
** that rewrites a random row of a copy of the chunk rows (the least a filter kept in page-sized
** rows of the database costs). */
enum {
    LIVE_TABLE_SIZES = 4,
    PLAIN_INSERT = 0,
    LIVE_INSERT,
    IN_PLACE_INSERT,
    HELD_LIVE_INSERT,     /* LIVE_INSERT with a page cache that holds the chunks, read beforehand */
    TABLE_TRIGGER_INSERT, /* through a trigger that inserts the name into an ordinary table */
    PAGE_TRIGGER_INSERT,  /* through a trigger that updates a random row of a chunk rows' copy */
    TABLE_INSERT_CASES
};

/* Names of HELD_LIVE_INSERT's inserts start past the others', so that its keys are new. */
#define HELD_NAMES_FROM 1000000000LL

/* A prepared statement of sql on lb's connection; exits on failure. */
static sqlite3_stmt *prepare(bench *lb, const char *sql) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(lb->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(lb, sql);
    }
    return stmt;
}

/* Runs stmt, with the text key bound to ?1 when key is not NULL, to its end; its first
** column's integer (0 without a row). */
static sqlite3_int64 step_all(bench *lb, sqlite3_stmt *stmt, const char *key) {
    sqlite3_int64 first = 0;
    int rc, row = 0;
    if (key != NULL) {
        sqlite3_bind_text(stmt, 1, key, -1, SQLITE_TRANSIENT);
    }
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (row++ == 0) {
            first = sqlite3_column_int64(stmt, 0);
        }
    }
    if (rc != SQLITE_DONE) {
        die(lb, sqlite3_sql(stmt));
    }
    sqlite3_reset(stmt);
    return first;
}

/* A filter of kind for capacity keys at 1 %: bloom_empty's, its body random bytes (about half
** the bits set, as a Bloom filter at capacity has them), from malloc; *bytes its size. */
static void *random_filter(bench *lb, const char *kind, sqlite3_int64 capacity, int *bytes) {
    char *sql = format("SELECT bloom_empty(%lld, 0.01, '%s')", (long long)capacity, kind);
    uint8_t *filter = fetch_blob(lb, sql, bytes);
    uint64_t state = (uint64_t)capacity;
    for (int i = 64; i < *bytes; i++) {
        filter[i] = (uint8_t)next_random(&state);
    }
    sqlite3_free(sql);
    return filter;
}

/* Makes seen a live table of kind for capacity keys holding filter (bytes long), with the
** trigger that adds each new users(name) to it. */
static void live_table_make(bench *lb, const char *kind, sqlite3_int64 capacity, const void *filter,
                            int bytes) {
    char *create = format("DROP TRIGGER IF EXISTS users_seen; DROP TABLE IF EXISTS seen; "
                          "CREATE VIRTUAL TABLE seen USING "
                          "bloom(kind = '%s', n = %lld, p = 0.01); CREATE TRIGGER users_seen "
                          "AFTER INSERT ON users BEGIN INSERT INTO seen(key) VALUES (NEW.name); "
                          "END;",
                          kind, (long long)capacity);
    exec(lb, create);
    sqlite3_free(create);
    sqlite3_stmt *load = prepare(lb, "INSERT INTO seen(filter) VALUES (?1)");
    sqlite3_bind_blob(load, 1, filter, bytes, SQLITE_STATIC);
    step_all(lb, load, NULL);
    sqlite3_finalize(load);
}

/* Inserts count names 'user-N' (N from *name on) with insert, one a transaction; the seconds
** an insert took, and the WAL pages an insert wrote in *pages. */
static double timed_inserts(bench *lb, const char *wal, sqlite3_stmt *insert, int count,
                            sqlite3_int64 *name, double *pages) {
    const sqlite3_int64 page_size = fetch_int(lb, "PRAGMA page_size");
    truncate_wal(lb, wal);
    double start = now();
    for (int i = 0; i < count; i++) {
        char text[32];
        snprintf(text, sizeof text, "user-%lld", (long long)++*name);
        step_all(lb, insert, text);
    }
    double seconds = (now() - start) / count;
    long long wal_bytes = file_bytes(wal);
    *pages = wal_bytes > 32 ? (double)((wal_bytes - 32) / (page_size + 24)) / count : 0.0;
    return seconds;
}

/* Makes pages, a copy of seen_chunks' chunk_rows rows of bytes, and paged's trigger, which
** rewrites one of them at random (a multiplicative hash of the insert's rowid) at each insert. */
static void copy_chunk_rows(bench *lb, sqlite3_int64 chunk_rows) {
    char *sql = format("CREATE TABLE pages(id INTEGER PRIMARY KEY, n INTEGER, data BLOB); "
                       "INSERT INTO pages(n, data) SELECT 1000, data FROM seen_chunks ORDER BY id; "
                       "CREATE TRIGGER paged_page AFTER INSERT ON paged BEGIN UPDATE pages SET "
                       "n = n + 1 WHERE id = 1 + NEW.rowid * 2654435761 %% %lld; END;",
                       (long long)chunk_rows);
    exec(lb, sql);
    sqlite3_free(sql);
}

/* Seconds a probe statement of lookup took, one key a step, over probes keys: for text_keys,
** names inserted ('user-1' to 'user-inserted') alternating with names never inserted, else
** integers from 1 to 1M; the sum of the first columns in *hits. */
static double timed_probes(bench *lb, sqlite3_stmt *lookup, int probes, int text_keys,
                           sqlite3_int64 inserted, sqlite3_int64 *hits) {
    double start = now();
    *hits = 0;
    for (int j = 1; j <= probes; j++) {
        if (text_keys) {
            char text[32];
            if (j % 2) {
                snprintf(text, sizeof text, "user-%lld", 1 + (long long)(j / 2 % inserted));
            } else {
                snprintf(text, sizeof text, "absent-%d", j);
            }
            *hits += step_all(lb, lookup, text);
        } else {
            sqlite3_bind_int64(lookup, 1, 1 + (j * 7919LL) % 1000000);
            *hits += step_all(lb, lookup, NULL);
        }
    }
    return (now() - start) / probes;
}

/* Inserts a run of 11a's in-place case into a filter of bytes, where the others make inserts: as
** many up to 2 MB, fewer above, as each reads the BLOB's whole overflow chain (at least 20). */
static int in_place_inserts(int inserts, int bytes) {
    int count = bytes <= 2000000 ? inserts : (int)((double)inserts * 2e6 / bytes);
    return count < 20 ? 20 : count;
}

/* Stores filter (bytes long) as the BLOB of row 1 of filters, which stored's trigger keeps up to
** date in place. */
static void store_filter(bench *lb, const void *filter, int bytes) {
    sqlite3_stmt *store = prepare(lb, "INSERT OR REPLACE INTO filters(id, filter) VALUES (1, ?1)");
    sqlite3_bind_blob(store, 1, filter, bytes, SQLITE_STATIC);
    step_all(lb, store, NULL);
    sqlite3_finalize(store);
}

/* 11a. Inserts through a trigger and probes, by kind and capacity. */
static void live_table_inserts(bench *lb, const char *wal) {
    static const sqlite3_int64 sizes[LIVE_TABLE_SIZES] = {100000, 1000000, 10000000, 100000000};
    static const sqlite3_int64 quick_sizes[LIVE_TABLE_SIZES] = {10000, 100000, 0, 0};
    const int runs = lb->runs < LIVE_RUNS_MAX ? lb->runs : LIVE_RUNS_MAX;
    const int inserts = lb->quick ? 200 : 2000, probes = lb->quick ? 2000 : 20000;
    const filter_kind *kinds[FILTER_KIND_COUNT];
    const int kind_count = kinds_where(adds_in_place_without_growing, kinds);
    sqlite3_int64 name = 0;
    double first_insert = 0, first_probe = 0;
    printf("\n### 11a. The live table: inserts through a trigger, and probes\n\n");
    printf("A file database in WAL mode, `PRAGMA synchronous=NORMAL`, SQLite's default page "
           "cache (2 MB), `PRAGMA wal_autocheckpoint=0`. `seen` is a live table of the kind for "
           "the capacity at p = 0.01, loaded with a filter whose body is random bytes (about "
           "half its bits set, as at capacity; 'blocked' at every capacity, the other kinds that "
           "add in place at the second, built by `bloom_build` of half the capacity's keys). "
           "Committed inserts, one a transaction, of new names 'user-N' into `plain(name)`, "
           "into `users(name)`, whose trigger runs `INSERT INTO seen(key) VALUES (NEW.name)`, "
           "and into `stored(name)`, whose trigger runs `SELECT bloom_add_in_place('filters', "
           "'filter', 1, NEW.name)` on the same filter stored as the BLOB of row 1 of "
           "`filters` (%d inserts a run, fewer for a filter over 2 MB: %d x 2 MB / its bytes, "
           "at least 20); and into `users` again, other names, with a page cache of twice the "
           "filter's bytes that the chunk rows were read into first (`held`: as in a program "
           "that keeps its page cache warm), the cache set back to 2 MB after; and into "
           "`logged(name)`, whose trigger runs `INSERT INTO log(name) VALUES (NEW.name)` into an "
           "ordinary table: the least a trigger that writes a row costs; and into `paged(name)`, "
           "whose trigger runs `UPDATE pages SET n = n + 1 WHERE id = 1 + NEW.rowid * "
           "2654435761 %% (chunk rows)` on `pages(id INTEGER PRIMARY KEY, n, data)`, a copy of "
           "the chunk rows' bytes (`rewriting a page`: a random row of the filter's size and "
           "number of rows read and written, the least a filter kept in page-sized rows costs). "
           "WAL pages an insert = (WAL bytes - 32) / (page size + 24) after the WAL was "
           "truncated. Then, prepared once and stepped a key at a time, `SELECT "
           "count(*) FROM seen WHERE key = ?1` (half the keys inserted) against the primary-key "
           "lookup `SELECT x FROM keys WHERE rowid = ?1` in a table of 1M rows. Median of %d "
           "runs, in turns; `insert / first capacity` and `probe / first capacity` compare with "
           "the first capacity of the kind.\n\n",
           inserts, inserts, runs);
    printf(
        "| kind | capacity | filter bytes | chunk rows | plain insert µs | trigger insert µs "
        "| ratio | WAL pages/insert plain | trigger | in-place inserts a run | in-place insert "
        "µs | ratio to plain | WAL pages/insert in place | probe µs | primary-key lookup µs | "
        "ratio | insert / first capacity | probe / first capacity | held trigger insert µs | "
        "held ratio to plain | trigger into a table µs | its ratio to plain | trigger rewriting a "
        "page µs | its ratio to plain | trigger insert / it |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        "---|---|---|\n");
    FILE *chart = chart_open(lb, "insert_cost.dat");
    chart_printf(chart, "# Table 11a of bloom_bench: microseconds a committed insert, without a "
                        "trigger, through a trigger into a live table, through a trigger calling "
                        "bloom_add_in_place, through a trigger into an ordinary table.\n"
                        "# kind capacity filter_bytes plain live_table in_place table_trigger\n");
    for (int k = 0; k < kind_count; k++) {
        int blocked = strcmp(kinds[k]->name, "blocked") == 0;
        for (int s = blocked ? 0 : 1; s < (blocked ? LIVE_TABLE_SIZES : 2); s++) {
            sqlite3_int64 capacity = lb->quick ? quick_sizes[s] : sizes[s];
            if (capacity == 0) {
                continue;
            }
            int bytes;
            void *filter;
            if (blocked || strcmp(kinds[k]->name, "standard") == 0) {
                filter = random_filter(lb, kinds[k]->name, capacity, &bytes);
            } else {
                char *cte = series(capacity / 2);
                char *sql =
                    format("%s SELECT bloom_build(i, %lld, 0.01, '%s') FROM s", cte,
                           (long long)capacity_for_inserts(kinds[k], capacity), kinds[k]->name);
                filter = fetch_blob(lb, sql, &bytes);
                sqlite3_free(cte);
                sqlite3_free(sql);
            }
            live_table_make(lb, kinds[k]->name, capacity, filter, bytes);
            store_filter(lb, filter, bytes);
            free(filter);
            sqlite3_int64 chunk_rows = fetch_int(lb, "SELECT count(*) FROM seen_chunks");
            copy_chunk_rows(lb, chunk_rows);
            sqlite3_stmt *insert[TABLE_INSERT_CASES] = {
                prepare(lb, "INSERT INTO plain(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO users(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO stored(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO users(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO logged(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO paged(name) VALUES (?1)")};
            const int counts[TABLE_INSERT_CASES] = {
                inserts, inserts, in_place_inserts(inserts, bytes), inserts, inserts, inserts};
            char *hold = format("PRAGMA cache_size = %lld; SELECT sum(length(data)) FROM "
                                "seen_chunks;",
                                -2LL * bytes / 1024);
            sqlite3_stmt *lookup[2] = {prepare(lb, "SELECT count(*) FROM seen WHERE key = ?1"),
                                       prepare(lb, "SELECT x FROM keys WHERE rowid = ?1")};
            double seconds[TABLE_INSERT_CASES][LIVE_RUNS_MAX],
                pages[TABLE_INSERT_CASES][LIVE_RUNS_MAX];
            double probe_seconds[2][LIVE_RUNS_MAX];
            sqlite3_int64 hits[2];
            exec(lb,
                 "DELETE FROM plain; DELETE FROM users; DELETE FROM stored; DELETE FROM logged; "
                 "DELETE FROM log; DELETE FROM paged;");
            name = 0;
            for (int r = 0; r < runs; r++) {
                sqlite3_int64 first = name; /* the same names go into each table */
                for (int c = 0; c < TABLE_INSERT_CASES; c++) {
                    name = c == HELD_LIVE_INSERT ? first + HELD_NAMES_FROM : first;
                    if (c == HELD_LIVE_INSERT) {
                        exec(lb, hold);
                    }
                    seconds[c][r] =
                        timed_inserts(lb, wal, insert[c], counts[c], &name, &pages[c][r]);
                    if (c == HELD_LIVE_INSERT) {
                        exec(lb, "PRAGMA cache_size = -2000");
                    }
                }
                name = first + inserts;
                for (int c = 0; c < 2; c++) {
                    probe_seconds[c][r] =
                        timed_probes(lb, lookup[c], probes, c == 0, name, &hits[c]);
                }
            }
            if (hits[0] < probes / 2) {
                die(lb, "a key added through the trigger was not found");
            }
            double m[TABLE_INSERT_CASES], p[TABLE_INSERT_CASES];
            for (int c = 0; c < TABLE_INSERT_CASES; c++) {
                m[c] = median(seconds[c], runs);
                p[c] = median(pages[c], runs);
            }
            double probe = median(probe_seconds[0], runs),
                   lookup_s = median(probe_seconds[1], runs);
            if (s == (blocked ? 0 : 1)) {
                first_insert = m[LIVE_INSERT];
                first_probe = probe;
            }
            printf("| %s | %lld | %d | %lld | %.1f | %.1f | %.2f | %.2f | %.2f | %d | %.1f | %.2f "
                   "| %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.2f | %.1f | %.2f | %.1f "
                   "| %.2f | %.2f |\n",
                   kinds[k]->name, (long long)capacity, bytes, (long long)chunk_rows,
                   m[PLAIN_INSERT] * 1e6, m[LIVE_INSERT] * 1e6, m[LIVE_INSERT] / m[PLAIN_INSERT],
                   p[PLAIN_INSERT], p[LIVE_INSERT], counts[IN_PLACE_INSERT],
                   m[IN_PLACE_INSERT] * 1e6, m[IN_PLACE_INSERT] / m[PLAIN_INSERT],
                   p[IN_PLACE_INSERT], probe * 1e6, lookup_s * 1e6, probe / lookup_s,
                   m[LIVE_INSERT] / first_insert, probe / first_probe, m[HELD_LIVE_INSERT] * 1e6,
                   m[HELD_LIVE_INSERT] / m[PLAIN_INSERT], m[TABLE_TRIGGER_INSERT] * 1e6,
                   m[TABLE_TRIGGER_INSERT] / m[PLAIN_INSERT], m[PAGE_TRIGGER_INSERT] * 1e6,
                   m[PAGE_TRIGGER_INSERT] / m[PLAIN_INSERT],
                   m[LIVE_INSERT] / m[PAGE_TRIGGER_INSERT]);
            chart_printf(chart, "%s %lld %d %.1f %.1f %.1f %.1f\n", kinds[k]->name,
                         (long long)capacity, bytes, m[PLAIN_INSERT] * 1e6, m[LIVE_INSERT] * 1e6,
                         m[IN_PLACE_INSERT] * 1e6, m[TABLE_TRIGGER_INSERT] * 1e6);
            fflush(stdout);
            for (int c = 0; c < TABLE_INSERT_CASES; c++) {
                sqlite3_finalize(insert[c]);
            }
            sqlite3_free(hold);
            for (int c = 0; c < 2; c++) {
                sqlite3_finalize(lookup[c]);
            }
            exec(
                lb,
                "DROP TABLE seen; DELETE FROM filters; DROP TABLE pages; DROP TRIGGER paged_page;");
            truncate_wal(lb, wal);
        }
    }
    chart_close(chart);
}

/* Seconds the one-row query sql took to prepare, step and give its BLOB's bytes, which it
** reads all of (a checksum); exits on failure. */
static double timed_blob_read(bench *lb, const char *sql) {
    double start = now();
    sqlite3_stmt *stmt = prepare(lb, sql);
    if (sqlite3_step(stmt) != SQLITE_ROW) {
        die(lb, sql);
    }
    const uint8_t *bytes = sqlite3_column_blob(stmt, 0);
    int length = sqlite3_column_bytes(stmt, 0);
    uint64_t sum = 0;
    for (int i = 0; i < length; i += 64) {
        sum += bytes[i];
    }
    sqlite3_finalize(stmt);
    double seconds = now() - start;
    return sum == UINT64_MAX ? 0 : seconds;
}

/* Inserts of new keys into bulk, and of names into plain, by lb's connection and a second one in
** turns, one a transaction, so that each finds the other's commit (which empties its caches):
** the seconds an insert took, runs times, into seconds[0] (bulk) and seconds[1] (plain). */
static void live_inserts_in_turns(bench *lb, const char *path, int runs, int inserts,
                                  double seconds[2][LIVE_RUNS_MAX]) {
    static const char *const sql[2] = {"INSERT INTO bulk(key) VALUES (?1)",
                                       "INSERT INTO plain(name) VALUES (?1)"};
    bench other = *lb;
    other.db = open_live(lb, path);
    exec(&other, "PRAGMA synchronous=NORMAL");
    sqlite3_stmt *insert[2][2];
    for (int t = 0; t < 2; t++) {
        insert[t][0] = prepare(lb, sql[t]);
        insert[t][1] = prepare(&other, sql[t]);
    }
    sqlite3_int64 name = 0;
    for (int r = 0; r < runs; r++) {
        for (int t = 0; t < 2; t++) {
            double start = now();
            for (int i = 0; i < inserts; i++) {
                char text[32];
                snprintf(text, sizeof text, "turn-%lld", (long long)++name);
                step_all(i % 2 ? &other : lb, insert[t][i % 2], text);
            }
            seconds[t][r] = (now() - start) / inserts;
        }
    }
    for (int t = 0; t < 2; t++) {
        sqlite3_finalize(insert[t][0]);
        sqlite3_finalize(insert[t][1]);
    }
    sqlite3_close(other.db);
}

/* 11b. A bulk load against bloom_build, a snapshot against reading a BLOB, a join against
** the bound BLOB, and one key over many filters. */
static void live_table_bulk(bench *lb, const char *path, const char *wal) {
    const sqlite3_int64 n = lb->quick ? 100000 : 10000000, join_rows = lb->quick ? 100000 : 1000000;
    const int filters = lb->quick ? 100 : 1000, many_probes = lb->quick ? 200 : 1000;
    char *cte = series(n);
    char *fill = format("CREATE TABLE big(x INTEGER); INSERT INTO big %s SELECT i * 7 FROM s;"
                        "CREATE VIRTUAL TABLE bulk USING bloom(kind = 'blocked', n = %lld, "
                        "p = 0.01);",
                        cte, (long long)n);
    exec(lb, fill);
    sqlite3_free(cte);
    sqlite3_free(fill);
    char *build = format("SELECT bloom_build(x, %lld, 0.01, 'blocked') FROM big", (long long)n);
    const query build_query = {"bloom_build", build, NULL, 0};
    double build_seconds[LIVE_RUNS_MAX], load_seconds[LIVE_RUNS_MAX];
    const int runs = lb->runs < LIVE_RUNS_MAX ? lb->runs : LIVE_RUNS_MAX;
    for (int r = 0; r < runs; r++) {
        build_seconds[r] = run_once(lb, &build_query, NULL);
        exec(lb, "DELETE FROM bulk");
        truncate_wal(lb, wal);
        double start = now();
        exec(lb, "INSERT INTO bulk(key) SELECT x FROM big");
        load_seconds[r] = now() - start;
        truncate_wal(lb, wal);
    }
    int bytes;
    void *built = fetch_blob(lb, build, &bytes);
    exec(lb, "CREATE TABLE blobs(id INTEGER PRIMARY KEY, f BLOB)");
    sqlite3_stmt *keep = prepare(lb, "INSERT INTO blobs VALUES (1, ?1)");
    sqlite3_bind_blob(keep, 1, built, bytes, SQLITE_STATIC);
    step_all(lb, keep, NULL);
    sqlite3_finalize(keep);
    if (fetch_int(lb, "SELECT (SELECT filter FROM bulk) = (SELECT f FROM blobs)") != 1) {
        die(lb, "the snapshot differs from bloom_build's filter");
    }
    truncate_wal(lb, wal);
    /* Snapshots and BLOB reads, on this connection (chunks cached) and on a new one. */
    static const char *const reads[2] = {"SELECT filter FROM bulk",
                                         "SELECT f FROM blobs WHERE id = 1"};
    double read_seconds[4][LIVE_RUNS_MAX];
    for (int r = 0; r < runs; r++) {
        for (int c = 0; c < 4; c++) {
            bench fresh = *lb;
            if (c >= 2) {
                fresh.db = open_live(lb, path);
            }
            read_seconds[c][r] = timed_blob_read(&fresh, reads[c % 2]);
            if (c >= 2) {
                sqlite3_close(fresh.db);
            }
        }
    }
    /* The join: rows of keys (1..join_rows; a seventh of them in the filter) probed. */
    char *joins[3] = {
        format("SELECT count(*) FROM keys AS k WHERE k.rowid <= %lld AND EXISTS (SELECT 1 FROM "
               "bulk WHERE key = k.x)",
               (long long)join_rows),
        format("SELECT count(*) FROM keys AS k JOIN bulk AS b ON b.key = k.x WHERE k.rowid <= "
               "%lld",
               (long long)join_rows),
        format("SELECT count(*) FROM keys AS k WHERE k.rowid <= %lld AND "
               "bloom_might_contain(?1, k.x)",
               (long long)join_rows)};
    query join_queries[3] = {{"EXISTS", joins[0], NULL, 0},
                             {"JOIN", joins[1], NULL, 0},
                             {"bound", joins[2], built, bytes}};
    double join_seconds[3];
    time_in_turns(lb, join_queries, 3, join_seconds);
    sqlite3_int64 counts[3];
    for (int c = 0; c < 3; c++) {
        counts[c] = fetch_int_bound(lb, joins[c], join_queries[c].blob, join_queries[c].bytes);
    }
    if (counts[0] != counts[2] || counts[1] != counts[2]) {
        die(lb, "the join and the bound probe disagree");
    }
    double turn_seconds[2][LIVE_RUNS_MAX]; /* after the join: these keys are not in big */
    live_inserts_in_turns(lb, path, runs, lb->quick ? 100 : 400, turn_seconds);
    /* One key over many filters. */
    cte = series((sqlite3_int64)filters * 100);
    char *many = format("CREATE VIRTUAL TABLE parts USING bloom(kind = 'blocked', n = 10000, "
                        "p = 0.01); %s INSERT INTO parts(name, key) SELECT 'part-' || (i %% %d), i "
                        "FROM s;",
                        cte, filters);
    exec(lb, many);
    sqlite3_free(cte);
    sqlite3_free(many);
    sqlite3_stmt *by_key = prepare(lb, "SELECT count(*) FROM parts WHERE key = ?1");
    double many_seconds[LIVE_RUNS_MAX];
    sqlite3_int64 found = 0;
    for (int r = 0; r < runs; r++) {
        double start = now();
        found = 0;
        for (int j = 1; j <= many_probes; j++) {
            sqlite3_bind_int64(by_key, 1, j % 2 ? j : -j);
            found += step_all(lb, by_key, NULL);
        }
        many_seconds[r] = (now() - start) / many_probes;
    }
    sqlite3_finalize(by_key);
    printf("\n### 11b. The live table: bulk load, snapshot, join, many filters\n\n");
    printf("The same database. `bulk` is a 'blocked' live table for n = %lld at p = 0.01, "
           "`big(x)` holds %lld keys; `blobs` holds bloom_build's filter of them (%d bytes), "
           "which the snapshot equals byte for byte (checked). A snapshot, `SELECT filter FROM "
           "bulk`, against a BLOB read, `SELECT f FROM blobs WHERE id = 1`, each prepared, "
           "stepped and its bytes read, on the connection that "
           "loaded the filter (its chunks cached) and on a new connection. Inserts of new keys "
           "into `bulk` by two connections in turns, one a transaction, so that each finds the "
           "other's commit (which empties its caches), against the same inserts into `plain`. "
           "The join probes "
           "%lld rows of `keys` (1 to 1M, a seventh of them in the filter) with `EXISTS`, with "
           "`JOIN`, and with `bloom_might_contain(?1, x)` and the filter bound. `parts` holds "
           "%d 'blocked' filters for n = 10,000, of 100 keys each; `SELECT count(*) FROM parts "
           "WHERE key = ?1` over %d keys, half of them in a filter. Median of %d runs, in "
           "turns.\n\n",
           (long long)n, (long long)n, bytes, (long long)join_rows, filters, many_probes, runs);
    printf("| operation | live table | against | ratio |\n|---|---|---|---|\n");
    double build_s = median(build_seconds, runs), load_s = median(load_seconds, runs);
    printf("| load %lld keys: `INSERT INTO bulk(key) SELECT x FROM big`, s | %.2f | "
           "`SELECT bloom_build(x, ...) FROM big`: %.2f | %.2f |\n",
           (long long)n, load_s, build_s, load_s / build_s);
    double m[4];
    for (int c = 0; c < 4; c++) {
        m[c] = median(read_seconds[c], runs);
    }
    printf("| snapshot, ms | %.2f | BLOB read: %.2f | %.2f |\n", m[0] * 1e3, m[1] * 1e3,
           m[0] / m[1]);
    printf("| snapshot on a new connection, ms | %.2f | BLOB read: %.2f | %.2f |\n", m[2] * 1e3,
           m[3] * 1e3, m[2] / m[3]);
    double turn_live = median(turn_seconds[0], runs), turn_plain = median(turn_seconds[1], runs);
    printf("| insert, two connections in turns, µs | %.1f | into `plain`: %.1f | %.2f |\n",
           turn_live * 1e6, turn_plain * 1e6, turn_live / turn_plain);
    printf("| join `EXISTS`, %lld rows, s | %.3f | bound BLOB: %.3f | %.2f |\n",
           (long long)join_rows, join_seconds[0], join_seconds[2],
           join_seconds[0] / join_seconds[2]);
    printf("| join `JOIN`, %lld rows, s | %.3f | bound BLOB: %.3f | %.2f |\n", (long long)join_rows,
           join_seconds[1], join_seconds[2], join_seconds[1] / join_seconds[2]);
    double many_s = median(many_seconds, runs);
    printf("| one key over %d filters, µs | %.1f | µs a filter: %.3f | |\n", filters, many_s * 1e6,
           many_s * 1e6 / filters);
    if (found < many_probes / 2) {
        die(lb, "a key of a filter of parts was not found");
    }
    for (int c = 0; c < 3; c++) {
        sqlite3_free(joins[c]);
    }
    sqlite3_free(build);
    free(built);
    exec(lb, "DROP TABLE parts; DROP TABLE bulk; DROP TABLE big; DROP TABLE blobs;");
    truncate_wal(lb, wal);
}

static void table_live_table(bench *b) {
    char *path, *wal;
    bench lb = open_bench_file(b, "bench_live_table.db", &path, &wal);
    char *cte = series(1000000);
    char *setup = format("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                         "PRAGMA wal_autocheckpoint=0; CREATE TABLE plain(name TEXT); "
                         "CREATE TABLE users(name TEXT); CREATE TABLE keys(x INTEGER); "
                         "CREATE TABLE logged(name TEXT); CREATE TABLE log(name TEXT); CREATE "
                         "TABLE paged(name TEXT); CREATE "
                         "TRIGGER logged_log AFTER INSERT ON logged BEGIN INSERT INTO log(name) "
                         "VALUES (NEW.name); END; "
                         "INSERT INTO keys %s SELECT i FROM s; CREATE TABLE stored(name TEXT); "
                         "CREATE TABLE filters(id INTEGER PRIMARY KEY, filter BLOB); CREATE "
                         "TRIGGER stored_filter AFTER INSERT ON stored BEGIN SELECT "
                         "bloom_add_in_place('filters', 'filter', 1, NEW.name); END;",
                         cte);
    exec(&lb, setup);
    sqlite3_free(cte);
    sqlite3_free(setup);
    truncate_wal(&lb, wal);
    live_table_inserts(&lb, wal);
    live_table_bulk(&lb, path, wal);
    close_bench_file(&lb, path, wal);
}

/* The XXH3-64 hash of a key as the floors take it: an INTEGER's 8 bytes, as a probe hashes it
** (no conversion to text), else the bytes of its TEXT or BLOB. */
static uint64_t floor_hash(sqlite3_value *key) {
    if (sqlite3_value_type(key) == SQLITE_INTEGER) {
        sqlite3_int64 v = sqlite3_value_int64(key);
        return XXH3_64bits(&v, sizeof v);
    }
    const void *bytes = sqlite3_value_blob(key);
    return XXH3_64bits(bytes, (size_t)sqlite3_value_bytes(key));
}

/* floor_hash by XXH64 (seed 0), the hash Parquet fixes for its filters. */
static uint64_t floor_hash_parquet(sqlite3_value *key) {
    if (sqlite3_value_type(key) == SQLITE_INTEGER) {
        sqlite3_int64 v = sqlite3_value_int64(key);
        return XXH64(&v, sizeof v, 0);
    }
    const void *bytes = sqlite3_value_blob(key);
    return XXH64(bytes, (size_t)sqlite3_value_bytes(key), 0);
}

/* One byte of the filter argv[0], picked by h, as a result. */
static void floor_touch(sqlite3_context *ctx, sqlite3_value **argv, uint64_t h) {
    const unsigned char *filter = sqlite3_value_blob(argv[0]);
    int bytes = sqlite3_value_bytes(argv[0]);
    sqlite3_result_int(ctx, filter != NULL && bytes > 0 ? filter[h % (uint64_t)bytes] & 1 : 0);
}

/* floor(filter, key): the hash-and-touch floor of a probe (the least a probe can do): reads
** both arguments, hashes the key by XXH3-64 (floor_hash) and reads one byte of the filter that
** the hash picks. */
static void floor_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    floor_touch(ctx, argv, floor_hash(argv[1]));
}

/* floor_xxh64(filter, key): floor with the key hashed by XXH64, as a Parquet probe must. */
static void floor_xxh64_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    floor_touch(ctx, argv, floor_hash_parquet(argv[1]));
}

/* hashagg(key, n, p): the floor of a build (the least an aggregate can do): reads its three
** arguments and hashes each key by XXH3-64 (floor_hash) into a sum it returns. */
static void hashagg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    uint64_t *sum = sqlite3_aggregate_context(ctx, sizeof *sum);
    sqlite3_int64 n = sqlite3_value_int64(argv[1]);
    double p = sqlite3_value_double(argv[2]);
    if (sum != NULL && n > 0 && p > 0) {
        *sum += floor_hash(argv[0]);
    }
}

static void hashagg_final(sqlite3_context *ctx) {
    uint64_t *sum = sqlite3_aggregate_context(ctx, 0);
    sqlite3_result_int64(ctx, sum != NULL ? (sqlite3_int64)*sum : 0);
}

/* 12. Parquet filters against the floors: probes and builds over 1M TEXT keys. */
static void table_parquet(bench *b) {
    const sqlite3_int64 keys = b->quick ? 100000 : 1000000, in_filter = keys / 10;
    printf("\n### 12. Parquet filters and the floors\n\n");
    printf("Over %lld TEXT keys ('key ' || i), median of %d runs, in turns. Probes: "
           "`SELECT sum(f(?1, x)) FROM tkeys` with a filter of the first %lld keys at p = 0.01, "
           "against `noop`, the floor of a call, and `floor`, the hash-and-touch floor: a "
           "function that reads both arguments, hashes the key by XXH3-64 and reads one byte "
           "of the filter; `floor_xxh64`, the same with the key hashed by XXH64, as Parquet "
           "fixes; `twin` is the other SQLite Bloom extension's design "
           "(tests/bench/twin.h) over the parquet filter's bytes. Builds: `bloom_build(x, n, "
           "p, kind)` over all the keys (n = their number), against `hashagg`, an aggregate "
           "that reads its three arguments and hashes each key.\n\n",
           (long long)keys, b->runs, (long long)in_filter);
    exec_over_series(b, keys,
                     "CREATE TABLE tkeys(x TEXT); INSERT INTO tkeys %s SELECT 'key ' || i FROM s;");
    int blocked_bytes, parquet_bytes;
    char *sql = format("SELECT bloom_build(x, %lld, 0.01, 'blocked') FROM tkeys WHERE rowid <= "
                       "%lld",
                       (long long)in_filter, (long long)in_filter);
    void *blocked = fetch_blob(b, sql, &blocked_bytes);
    sqlite3_free(sql);
    sql = format("SELECT bloom_build(x, %lld, 0.01, 'parquet') FROM tkeys WHERE rowid <= %lld",
                 (long long)in_filter, (long long)in_filter);
    void *parquet = fetch_blob(b, sql, &parquet_bytes);
    sqlite3_free(sql);
    query probes[] = {
        {"noop", "SELECT sum(noop(?1, x)) FROM tkeys", parquet, parquet_bytes},
        {"floor", "SELECT sum(floor(?1, x)) FROM tkeys", parquet, parquet_bytes},
        {"floor_xxh64", "SELECT sum(floor_xxh64(?1, x)) FROM tkeys", parquet, parquet_bytes},
        {"blocked", "SELECT sum(bloom_might_contain(?1, x)) FROM tkeys", blocked, blocked_bytes},
        {"parquet", "SELECT sum(bloom_might_contain(?1, x)) FROM tkeys", parquet, parquet_bytes},
        {"twin", "SELECT sum(twin(?1, x)) FROM tkeys", parquet, parquet_bytes},
    };
    enum { NOOP, FLOOR, FLOOR_XXH64, BLOCKED, PARQUET, TWIN, PROBES };
    _Static_assert(sizeof probes / sizeof probes[0] == PROBES, "a name for each probe");
    double medians[PROBES];
    time_in_turns(b, probes, PROBES, medians);
    printf("| probe | filter bytes | ns/row | ratio to floor | ratio to floor_xxh64 | ratio to "
           "noop |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < PROBES; i++) {
        printf("| %s | %d | %.1f | %.2f | %.2f | %.2f |\n", probes[i].label, probes[i].bytes,
               medians[i] * 1e9 / (double)keys, medians[i] / medians[FLOOR],
               medians[i] / medians[FLOOR_XXH64], medians[i] / medians[NOOP]);
    }
    printf("\ntwin / parquet: %.2f.\n\n", medians[TWIN] / medians[PARQUET]);
    free(blocked);
    free(parquet);
    /* Builds against the build floor (table 2 compares literals with bound parameters). */
    static const char *const kinds[] = {"standard", "blocked", "parquet"};
    query builds[1 + 3];
    builds[0] = (query){
        "hashagg", format("SELECT hashagg(x, %lld, 0.01) FROM tkeys", (long long)keys), NULL, 0};
    for (int k = 0; k < 3; k++) {
        builds[1 + k] = (query){
            kinds[k],
            format("SELECT bloom_build(x, %lld, 0.01, '%s') FROM tkeys", (long long)keys, kinds[k]),
            NULL, 0};
    }
    double build_medians[1 + 3];
    time_in_turns(b, builds, 1 + 3, build_medians);
    printf("| build | ns/key | ratio to hashagg |\n|---|---|---|\n");
    for (int i = 0; i < 1 + 3; i++) {
        printf("| %s | %.1f | %.2f |\n", builds[i].label, build_medians[i] * 1e9 / (double)keys,
               build_medians[i] / build_medians[0]);
        sqlite3_free(builds[i].sql);
    }
    exec(b, "DROP TABLE tkeys");
}

/* 13. Every kind whose rate is measured, built over the same keys at p from 10 % to 0.01 %: its
** bytes a key, its false negatives (none, checked) and its measured rate on absent keys. */
static void table_size(bench *b) {
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
    bench b = {NULL, 5, 0, ".", NULL, NULL};
    char *err = NULL;
    int arg = 2;
    if (argc < 2) {
        fprintf(stderr,
                "usage: %s EXTENSION [--quick] [--dir DIR] [--charts DIR] [core probe build exact "
                "forms scale live vacuum scalable countmin cuckoo livetable parquet size]\n",
                argv[0]);
        return 2;
    }
    for (; arg < argc && strncmp(argv[arg], "--", 2) == 0; arg++) {
        if (strcmp(argv[arg], "--quick") == 0) {
            b.quick = 1;
            b.runs = 3;
        } else if (strcmp(argv[arg], "--dir") == 0 && arg + 1 < argc) {
            b.dir = argv[++arg];
        } else if (strcmp(argv[arg], "--charts") == 0 && arg + 1 < argc) {
            b.charts = argv[++arg];
            mkdir(b.charts, 0777); /* chart_open says so if it still cannot write there */
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
                                noop_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(b.db, "floor", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                floor_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(b.db, "floor_xxh64", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                floor_xxh64_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(b.db, "hashagg", 3, SQLITE_UTF8 | SQLITE_INNOCUOUS, NULL, NULL,
                                hashagg_step, hashagg_final) != SQLITE_OK) {
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
    } tables[] = {{"core", table_core},           {"probe", table_probe},
                  {"build", table_build},         {"exact", table_exact},
                  {"forms", table_forms},         {"scale", table_scale},
                  {"live", table_live},           {"vacuum", table_vacuum},
                  {"scalable", table_scalable},   {"countmin", table_countmin},
                  {"cuckoo", table_cuckoo_slack}, {"livetable", table_live_table},
                  {"parquet", table_parquet},     {"size", table_size}};
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
