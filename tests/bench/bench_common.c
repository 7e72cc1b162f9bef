/*
** bench_common.c: the benchmark's helpers (see bench.h): running and timing queries in turns,
** fetching values, the data of the charts, the kinds a table measures, database files.
*/
#include "bench.h"

void die(bench *b, const char *what) {
    fprintf(stderr, "bloom_bench: %s: %s\n", what, b->db ? sqlite3_errmsg(b->db) : "");
    exit(2);
}

/* The clock now() reads: wall time, but for the tables of work in memory that choose the
** thread's CPU time (which the machine's other load does not inflate while it waits). */
clockid_t bench_clock = CLOCK_MONOTONIC;

double now(void) {
    struct timespec t;
    clock_gettime(bench_clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs SQL (several statements allowed) without results; exits on failure. */
void exec(bench *b, const char *sql) {
    if (sqlite3_exec(b->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
        die(b, sql);
    }
}

/* A formatted copy of a string, for SQL built here; exits on failure. */
char *format(const char *fmt, ...) {
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
FILE *chart_open(bench *b, const char *name) {
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
void chart_printf(FILE *chart, const char *fmt, ...) {
    if (chart != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(chart, fmt, ap);
        va_end(ap);
    }
}

/* Closes chart (nothing when it is NULL); exits when its writes failed. */
void chart_close(FILE *chart) {
    if (chart != NULL && (ferror(chart) || fclose(chart) != 0)) {
        fprintf(stderr, "bloom_bench: a chart's data file was not written\n");
        exit(2);
    }
}

/* Runs q once (prepare, bind, every row), with the build arguments a bound too when a is not
** NULL, and returns the seconds it took; column 0 of its first row goes to *result when result
** is not NULL. */
double run_bound(bench *b, const query *q, const build_arguments *a, sqlite3_int64 *result) {
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
double run_once(bench *b, const query *q, sqlite3_int64 *result) {
    return run_bound(b, q, NULL, result);
}

int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Times count queries b->runs times each, in turns (1 2 3 1 2 3 ...), query i with the build
** arguments arguments[i] bound when arguments is not NULL (NULL ones: none); medians[i] gets
** the median seconds of query i. */
void time_bound_in_turns(bench *b, const query *queries, const build_arguments *const *arguments,
                         int count, double *medians) {
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
void time_in_turns(bench *b, const query *queries, int count, double *medians) {
    time_bound_in_turns(b, queries, NULL, count, medians);
}

/* Returns a malloc'ed copy of the BLOB the one-row query sql returns, its size in *bytes. */
void *fetch_blob(bench *b, const char *sql, int *bytes) {
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
sqlite3_int64 fetch_int_bound(bench *b, const char *sql, const void *blob, int bytes) {
    query q = {sql, (char *)sql, blob, bytes};
    sqlite3_int64 result = 0;
    run_once(b, &q, &result);
    return result;
}

/* The integer the one-row query sql returns. */
sqlite3_int64 fetch_int(bench *b, const char *sql) {
    return fetch_int_bound(b, sql, NULL, 0);
}

/* A recursive CTE s(i) counting from 1 to n. */
char *series(sqlite3_int64 n) {
    return format("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < %lld)",
                  n);
}

/* Runs the SQL of sql_format, whose %s is series(n). */
void exec_over_series(bench *b, sqlite3_int64 n, const char *sql_format) {
    char *cte = series(n);
    char *sql = format(sql_format, cte);
    exec(b, sql);
    sqlite3_free(cte);
    sqlite3_free(sql);
}

/* Builds a filter of the keys 1..n at 1 % in a layout and returns it; *seconds gets the time
** the build took. */
void *build_filter(bench *b, sqlite3_int64 n, const char *layout, int *bytes, double *seconds) {
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
int kinds_where(int (*keep)(const filter_kind *kind), const filter_kind **kinds) {
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
int is_bloom_layout(const filter_kind *kind) {
    return test_kind_of(kind)->bloom_layout;
}

/* Whether kind cannot be added to: it is built whole from its keys by bloom_build (the binary
** fuse filter). */
int is_built_whole(const filter_kind *kind) {
    return !filter_kind_can(kind, FILTER_ADDS);
}

/* Whether tables 0, 1, 2 and 6 set kind side by side with the others: a layout of a Bloom
** filter, a kind built whole, which stands in for one where the keys do not change, or a kind
** held to the floors (tests/test_kinds.h: Spark's). */
int is_probe_kind(const filter_kind *kind) {
    return is_bloom_layout(kind) || is_built_whole(kind) || test_kind_of(kind)->held_to_floors;
}

/* Whether bloom_build builds kind (tests/test_kinds.h). */
int is_built_by_bloom_build(const filter_kind *kind) {
    return test_kind_of(kind)->builder == BUILT_BY_BLOOM_BUILD;
}

/* Whether tables 1 (up to 1M keys) and 13 measure kind: bloom_build builds it, and its rate is
** measured. */
int has_measured_rate(const filter_kind *kind) {
    return is_built_by_bloom_build(kind) && test_kind_of(kind)->rate != RATE_UNMEASURED;
}

/* A connection to the file database path in WAL mode, synchronous=NORMAL, without automatic
** checkpoints, with the extension loaded. */
sqlite3 *open_live(bench *b, const char *path) {
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
long long file_bytes(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* Moves the WAL into the database and truncates it to 0 bytes. */
void truncate_wal(bench *lb, const char *wal) {
    if (fetch_int(lb, "PRAGMA wal_checkpoint(TRUNCATE)") != 0 || file_bytes(wal) != 0) {
        die(lb, "the WAL checkpoint was blocked");
    }
}

/* The median of n doubles, sorted in place. */
double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), compare_doubles);
    return v[n / 2];
}

/* The n to build a filter of kind with when n keys are to be inserted in it later: n, and the
** slack the kind needs to find room for them (tests/test_kinds.h). */
sqlite3_int64 capacity_for_inserts(const filter_kind *kind, sqlite3_int64 n) {
    return n + n * test_kind_of(kind)->insert_slack_percent / 100;
}

/* Whether 7a keeps a filter of kind up to date in place: bloom_build builds it for n keys, it
** adds keys in place, and it never grows (8d grows a scalable filter in place). A kind whose
** filters hold the values of one type (a Parquet filter's) is left out of 7a, 7b, 7c and 11a,
** which add TEXT names to filters built of INTEGER keys. */
int adds_in_place_without_growing(const filter_kind *kind) {
    return test_kind_of(kind)->builder == BUILT_BY_BLOOM_BUILD &&
           filter_kind_can(kind, FILTER_ADDS_IN_PLACE) && !filter_kind_can(kind, FILTER_GROWS) &&
           kind->value_type == NULL;
}

/* A copy of b on a new file database DIR/file (its path and its WAL's in *path and *wal),
** with the extension loaded. */
bench open_bench_file(bench *b, const char *file, char **path, char **wal) {
    *path = format("%s/%s", b->dir, file);
    *wal = format("%s-wal", *path);
    remove(*path);
    remove(*wal);
    bench lb = *b;
    lb.db = open_live(b, *path);
    return lb;
}

/* Closes lb's database and removes its files and their paths. */
void close_bench_file(bench *lb, char *path, char *wal) {
    sqlite3_close(lb->db);
    remove(path);
    remove(wal);
    sqlite3_free(path);
    sqlite3_free(wal);
}

/* splitmix64: the benchmark's random numbers, from a fixed seed. */
uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
