/*
** test_memory.c: the extension's use of memory, seen through SQLite's allocator.
**
** Usage: test_memory EXTENSION
**
** Installs a counting allocator with SQLITE_CONFIG_MALLOC and checks that
**  - bloom_might_contain allocates nothing per row (rule 13 (memory and limits));
**  - bloom_build allocates once per group, whatever the number of rows;
**  - every kind's build makes the same allocations with its parameters bound as
**    with literals;
**  - a filter beyond the heap limit fails with SQLITE_NOMEM, leaves the
**    database as it was, and frees everything (rule 13 (memory and limits));
**  - an auto-sized build (N NULL) holds at most 64 bytes per distinct key
**    besides the filter, and duplicated rows do not add to that;
**  - a static kind's build (one that cannot add, built once from all its
**    keys: the binary fuse filter), with each of its large allocations failing
**    in turn, once and from then on (its kept keys as they grow, the buffer
**    that sorts them, the filter, the three arrays of scratch), ends in
**    SQLITE_NOMEM, frees everything and leaves the connection usable.
*/
#include <sqlite3.h>

#include "allocator.h"
#include "check.h"
#include "test_kinds.h"

#include <stdlib.h>
#include <string.h>

static sqlite3_mem_methods default_allocator;
static long long allocation_calls; /* xMalloc and xRealloc calls so far */

/* Allocations of at least this many bytes are large: those a plan may fail. */
#define LARGE_BYTES 4096

/* The most large allocations a plan records the size of. */
#define LARGE_FAILURES_MAX 64

/* The failure plan of large allocations: while armed, fails the fail_at-th (and every later one
** if persistent), and records the sizes it failed. */
static struct {
    int armed;
    int persistent;
    long long fail_at;                    /* 1-based number of the large allocation to fail */
    long long large;                      /* large allocations since armed */
    int failures;                         /* of those, the ones that returned NULL */
    int failed_bytes[LARGE_FAILURES_MAX]; /* the sizes asked for of the first of them */
} large_plan;

/* Whether an allocation of bytes must fail; counts it. */
static int large_allocation_must_fail(int bytes) {
    if (!large_plan.armed || bytes < LARGE_BYTES) {
        return 0;
    }
    large_plan.large++;
    if (large_plan.large == large_plan.fail_at ||
        (large_plan.persistent && large_plan.large > large_plan.fail_at)) {
        if (large_plan.failures < LARGE_FAILURES_MAX) {
            large_plan.failed_bytes[large_plan.failures] = bytes;
        }
        large_plan.failures++;
        return 1;
    }
    return 0;
}

static void *counting_malloc(int bytes) {
    allocation_calls++;
    return large_allocation_must_fail(bytes) ? NULL : default_allocator.xMalloc(bytes);
}

static void *counting_realloc(void *old, int bytes) {
    allocation_calls++;
    return large_allocation_must_fail(bytes) ? NULL : default_allocator.xRealloc(old, bytes);
}

/* Installs the counting allocator around SQLite's default one; exits on failure. */
static void install_counting_allocator(void) {
    wrap_sqlite_allocator(&default_allocator, counting_malloc, counting_realloc, "test_memory");
}

/* Runs sql, binding ?1 = filter (may be NULL) and ?2 = rows; returns the allocation calls it
** made and stores column 0 of its one row in *result and the result code in *rc. */
static long long count_allocations(sqlite3 *db, const char *sql, const void *filter, int bytes,
                                   int rows, sqlite3_int64 *result, int *rc) {
    sqlite3_stmt *stmt = NULL;
    CHECK(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK);
    sqlite3_bind_blob(stmt, 1, filter, bytes, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, rows);
    long long before = allocation_calls;
    *rc = sqlite3_step(stmt);
    long long calls = allocation_calls - before;
    *result = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return calls;
}

/* A baseline aggregate: handover(bytes) allocates one buffer of that size on its first row
** and hands it to SQLite without a copy, as bloom_build should. */
static void handover_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    void **buffer = sqlite3_aggregate_context(ctx, sizeof *buffer);
    (void)argc;
    if (buffer != NULL && *buffer == NULL) {
        *buffer = sqlite3_malloc64((sqlite3_uint64)sqlite3_value_int64(argv[0]));
        if (*buffer != NULL) {
            memset(*buffer, 0, (size_t)sqlite3_value_int64(argv[0]));
        }
    }
}

static void handover_final(sqlite3_context *ctx) {
    void **buffer = sqlite3_aggregate_context(ctx, 0);
    if (buffer != NULL && *buffer != NULL) {
        sqlite3_result_blob64(ctx, *buffer, 1198200, sqlite3_free);
    }
}

/* Peak memory of a statement above what was in use before it. */
static sqlite3_int64 peak_memory(sqlite3 *db, const char *sql) {
    sqlite3_int64 before, highwater;
    sqlite3_int64 result;
    int rc;
    sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &before, &highwater, 1);
    count_allocations(db, sql, NULL, 0, 0, &result, &rc);
    CHECK_U64(rc, SQLITE_ROW);
    sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &before, &highwater, 0);
    return highwater - before;
}

/* Probes allocate nothing per row; the aggregate allocates once per filter. */
static void test_allocations(sqlite3 *db) {
    /* Rows from a table scan, which itself allocates nothing per row. */
    const char *build = "SELECT bloom_build(i, 100000, 0.01) FROM numbers WHERE i <= ?2";
    const char *probe = "SELECT sum(bloom_might_contain(?1, i)) FROM numbers WHERE i <= ?2";
    const char *count = "SELECT count(i) FROM numbers WHERE i <= ?2";
    sqlite3_stmt *stmt = NULL;
    sqlite3_int64 result;
    int rc;
    CHECK(sqlite3_exec(db,
                       "CREATE TABLE numbers(i INTEGER PRIMARY KEY); INSERT INTO numbers "
                       "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < "
                       "100000) SELECT i FROM s",
                       NULL, NULL, NULL) == SQLITE_OK);

    /* The filter, built once, then probed by 10 and by 100,000 rows. */
    CHECK(sqlite3_prepare_v2(db, build, -1, &stmt, NULL) == SQLITE_OK);
    sqlite3_bind_int(stmt, 2, 100000);
    CHECK(sqlite3_step(stmt) == SQLITE_ROW);
    const void *filter = sqlite3_column_blob(stmt, 0);
    int bytes = sqlite3_column_bytes(stmt, 0);
    long long probe_few = count_allocations(db, probe, filter, bytes, 10, &result, &rc);
    CHECK_U64(result, 10);
    long long probe_many = count_allocations(db, probe, filter, bytes, 100000, &result, &rc);
    CHECK_U64(result, 100000);
    long long count_few = count_allocations(db, count, NULL, 0, 10, &result, &rc);
    long long count_many = count_allocations(db, count, NULL, 0, 100000, &result, &rc);
    CHECK_U64(result, 100000);
    printf("allocation calls over 10 and 100000 rows: probe %lld and %lld, count() %lld and "
           "%lld\n",
           probe_few, probe_many, count_few, count_many);
    CHECK_U64(probe_many, probe_few);
    CHECK_U64(count_many, count_few);

    /* TEXT keys read from a UTF-8 column: no allocation per probe either. (TEXT that SQLite
    ** must convert from UTF-16, or NUL-terminate, as substr() results, costs SQLite one.) */
    CHECK(sqlite3_exec(db, "CREATE TABLE words AS SELECT i, 'word number ' || i AS w FROM numbers",
                       NULL, NULL, NULL) == SQLITE_OK);
    const char *probe_text = "SELECT sum(bloom_might_contain(?1, w)) FROM words WHERE i <= ?2";
    long long text_few = count_allocations(db, probe_text, filter, bytes, 10, &result, &rc);
    long long text_many = count_allocations(db, probe_text, filter, bytes, 100000, &result, &rc);
    const char *count_text = "SELECT count(w) FROM words WHERE i <= ?2";
    long long scan_few = count_allocations(db, count_text, NULL, 0, 10, &result, &rc);
    long long scan_many = count_allocations(db, count_text, NULL, 0, 100000, &result, &rc);
    printf("allocation calls over 10 and 100000 rows: probe of TEXT keys %lld and %lld, count() "
           "%lld and %lld\n",
           text_few, text_many, scan_few, scan_many);
    CHECK(text_many - text_few <= scan_many - scan_few);
    sqlite3_finalize(stmt);

    long long build_few = count_allocations(db, build, NULL, 0, 10, &result, &rc);
    long long build_many = count_allocations(db, build, NULL, 0, 100000, &result, &rc);
    CHECK_U64(build_many, build_few);
    /* Against an aggregate that allocates one buffer of the filter's size and hands it over:
    ** the same allocations and the same peak, so bloom_build makes no copy of its own. (SQLite
    ** may copy a result itself: 3.40 copies an aggregate's result into the output register.) */
    CHECK(sqlite3_create_function(db, "handover", 1, SQLITE_UTF8, NULL, NULL, handover_step,
                                  handover_final) == SQLITE_OK);
    long long built = count_allocations(db, "SELECT bloom_build(i, 1000000, 0.01) FROM numbers",
                                        NULL, 0, 0, &result, &rc);
    long long handed_over =
        count_allocations(db, "SELECT handover(1198200) FROM numbers", NULL, 0, 0, &result, &rc);
    sqlite3_int64 built_peak = peak_memory(db, "SELECT bloom_build(i, 1000000, 0.01) FROM numbers");
    sqlite3_int64 handed_over_peak = peak_memory(db, "SELECT handover(1198200) FROM numbers");
    printf("a 1198200-byte filter over 100000 rows: %lld allocation calls and %lld bytes at the "
           "peak; the baseline %lld and %lld\n",
           built, (long long)built_peak, handed_over, (long long)handed_over_peak);
    CHECK_U64(built, handed_over);
    CHECK(built_peak <= handed_over_peak + 4096);
}

/* Allocation calls of a build over the first 10,000 rows of numbers, the query form (a format
** of three %s: an INTEGER, p and a TEXT argument) run with n (NULL when 0), 0.01 and text
** written as literals, or bound to ?1, ?2 and ?3 as client libraries bind them: TEXT with its
** length, so with no NUL after it. */
static long long build_allocations(sqlite3 *db, const char *form, sqlite3_int64 n, const char *text,
                                   int bound) {
    char literal_n[24];
    sqlite3_snprintf(sizeof literal_n, literal_n, n > 0 ? "%lld" : "NULL", n);
    char *literal_text = sqlite3_mprintf("%Q", text);
    char *sql = bound ? sqlite3_mprintf(form, "?1", "?2", "?3")
                      : sqlite3_mprintf(form, literal_n, "0.01", literal_text);
    sqlite3_stmt *stmt = NULL;
    CHECK(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK);
    if (bound) {
        CHECK((n > 0 ? sqlite3_bind_int64(stmt, 1, n) : sqlite3_bind_null(stmt, 1)) == SQLITE_OK);
        CHECK(sqlite3_bind_double(stmt, 2, 0.01) == SQLITE_OK);
        CHECK(sqlite3_bind_text(stmt, 3, text, (int)strlen(text), SQLITE_STATIC) == SQLITE_OK);
    }
    long long before = allocation_calls;
    CHECK_U64(sqlite3_step(stmt), SQLITE_ROW);
    long long calls = allocation_calls - before;
    CHECK(sqlite3_column_int64(stmt, 0) > 0);
    sqlite3_finalize(stmt);
    sqlite3_free(sql);
    sqlite3_free(literal_text);
    return calls;
}

/* Every kind's build, n given and sized at the end where it can be, makes the same allocations
** with n, p and the kind (a sketch's count, delta and update) bound as with literals: none per
** row for a bound TEXT that SQLite would have to copy to end it with a NUL. */
static void test_bound_parameters(sqlite3 *db) {
    const filter_kind *kind;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        const test_kind *t = test_kind_of(kind);
        for (int sized_at_end = 0; sized_at_end <= (t->sized_at_end ? 1 : 0); sized_at_end++) {
            const char *form = t->builder == BUILT_BY_CMS_BUILD
                                   ? "SELECT length(cms_build(i, %s, 0.001, %s, %s)) FROM "
                                     "numbers WHERE i <= 10000"
                                   : "SELECT length(bloom_build(i, %s, %s, %s)) FROM numbers "
                                     "WHERE i <= 10000";
            const char *text = t->builder == BUILT_BY_CMS_BUILD ? "conservative" : kind->name;
            sqlite3_int64 n = t->builder == BUILT_BY_CMS_BUILD ? 1 : sized_at_end ? 0 : 10000;
            long long literals = build_allocations(db, form, n, text, 0);
            long long bound = build_allocations(db, form, n, text, 1);
            printf("%s, %s: %lld allocation calls with literals, %lld bound\n", kind->name,
                   n > 0 ? "n given" : "sized at the end", literals, bound);
            CHECK_U64(bound, literals);
        }
    }
}

/* An auto-sized build over 100,000 distinct keys, once and with every row ten times. */
static void test_auto_sized_memory(sqlite3 *db) {
    CHECK(sqlite3_exec(db,
                       "CREATE TABLE ten(c); INSERT INTO ten VALUES (1), (2), (3), (4), (5), (6), "
                       "(7), (8), (9), (10);",
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_int64 once = peak_memory(db, "SELECT length(bloom_build(i)) FROM numbers");
    sqlite3_int64 ten_times =
        peak_memory(db, "SELECT length(bloom_build(i)) FROM numbers, ten WHERE c <= 10");
    sqlite3_int64 filter = 119880; /* 100,000 keys at 1 % */
    printf("auto-sized build over 100000 distinct keys: peak %lld bytes (%.1f a key besides the "
           "filter); with every row 10 times: %lld bytes\n",
           (long long)once, (double)(once - filter) / 100000, (long long)ten_times);
    CHECK(once <= 64 * 100000 + filter + 65536);
    CHECK(ten_times <= once + 65536);
}

/* Beyond the heap limit: SQLITE_NOMEM, the database unharmed, all memory returned. */
static void test_out_of_memory(sqlite3 *db) {
    sqlite3_int64 result;
    int rc;
    CHECK(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);", NULL, NULL,
                       NULL) == SQLITE_OK);
    sqlite3_int64 used = sqlite3_memory_used();
    sqlite3_hard_heap_limit64(used + 1000000);
    /* 8M keys at 1 %: a 9.6 MB filter, under the length limit but over the heap limit. */
    count_allocations(db, "SELECT bloom_build(x, 8000000, 0.01) FROM t", NULL, 0, 0, &result, &rc);
    CHECK_U64(rc, SQLITE_NOMEM);
    CHECK_U64(sqlite3_extended_errcode(db), SQLITE_NOMEM);
    CHECK(sqlite3_memory_used() <= used);
    sqlite3_hard_heap_limit64(0);
    count_allocations(db, "SELECT sum(x) FROM t", NULL, 0, 0, &result, &rc);
    CHECK_U64(rc, SQLITE_ROW);
    CHECK_U64(result, 6);
    count_allocations(db, "SELECT length(bloom_build(x, 8000000, 0.01)) FROM t", NULL, 0, 0,
                      &result, &rc);
    CHECK_U64(rc, SQLITE_ROW);
    CHECK_U64(result, 64 + 9585064);
}

/* A large allocation a static kind's build must make, in the order it makes them: bytes (as SQLite
** asks its allocator, rounded up to 8), or at least that many. */
typedef struct expected_allocation {
    const char *what;
    long long bytes;
    int at_least;
} expected_allocation;

/* Runs sql (one row: the length of a filter) with the large allocations failing from the
** fail_at-th on, as large_plan says; checks that it ends cleanly: SQLITE_NOMEM, all its memory
** returned, the connection usable; or, when nothing failed or SQLite absorbed the failure,
** length. Returns the failures made; *nomem whether it ended in SQLITE_NOMEM. */
static int run_with_large_failures(sqlite3 *db, const char *sql, long long fail_at, int persistent,
                                   sqlite3_int64 length, int *nomem) {
    sqlite3_int64 result;
    int rc;
    sqlite3_int64 before = sqlite3_memory_used();
    large_plan.armed = 1;
    large_plan.persistent = persistent;
    large_plan.fail_at = fail_at;
    large_plan.large = 0;
    large_plan.failures = 0;
    count_allocations(db, sql, NULL, 0, 0, &result, &rc);
    large_plan.armed = 0;
    *nomem = rc == SQLITE_NOMEM;
    int clean = large_plan.failures > 0 && rc == SQLITE_NOMEM
                    ? sqlite3_extended_errcode(db) == SQLITE_NOMEM
                    : rc == SQLITE_ROW && result == length;
    sqlite3_int64 after = sqlite3_memory_used();
    int healthy =
        count_allocations(db, "SELECT count(*) FROM numbers", NULL, 0, 0, &result, &rc) >= 0 &&
        rc == SQLITE_ROW && result == 100000;
    if (!check_record(clean && after == before && healthy, __FILE__, __LINE__,
                      "a failed large allocation ended cleanly")) {
        fprintf(stderr,
                "    %s, large allocation %lld failing%s: result code %d, memory %lld -> %lld, "
                "connection %s\n",
                sql, fail_at, persistent ? " and every later one" : "", rc, (long long)before,
                (long long)after, healthy ? "healthy" : "BROKEN");
    }
    return large_plan.failures;
}

/* A large allocation failed once: its size, and whether the run ended in SQLITE_NOMEM. */
typedef struct failed_allocation {
    int bytes;
    int nomem;
} failed_allocation;

/* Whether the allocations failed once, in order, hold each of expected[0 .. count) in turn,
** each failure ending in SQLITE_NOMEM. */
static int failed_in_order(const failed_allocation *failed, int failures,
                           const expected_allocation *expected, int count) {
    int next = 0;
    for (int i = 0; i < failures && next < count; i++) {
        long long bytes = (long long)failed[i].bytes, want = (expected[next].bytes + 7) / 8 * 8;
        if (failed[i].nomem && (expected[next].at_least ? bytes >= want : bytes == want)) {
            next++;
        }
    }
    if (next < count) {
        fprintf(
            stderr, "    no failed allocation of %s%lld bytes (%s) that ended in SQLITE_NOMEM\n",
            expected[next].at_least ? "at least " : "", expected[next].bytes, expected[next].what);
    }
    return next == count;
}

/* A static kind's build of kind over rows rows (form: its SQL, the kind's name a %s) with each of
** its large allocations failing in turn, once, then from then on: each must end cleanly, and
** those failed once must hold, in order, the kept keys (grown to hold the rows' keys), the buffer
** that sorts them, the filter and the three arrays of scratch of its slots (ext/sql/fuse_sql.c).
** Where n is given (n > 0), the first must be the room reserved for n keys at the first row, its
** failure absorbed (the keys' room then grown as they come). */
static void test_static_build_failing(sqlite3 *db, const filter_kind *kind, const char *form,
                                      long long rows, long long n) {
    char *build = sqlite3_mprintf(form, kind->name);
    char *sql = sqlite3_mprintf("SELECT length(f) FROM (%s)", build);
    char *info_sql =
        sqlite3_mprintf("SELECT json_extract(bloom_info(f), '$.slots') FROM (%s)", build);
    sqlite3_int64 length, slots;
    int rc;
    count_allocations(db, sql, NULL, 0, 0, &length, &rc);
    CHECK_U64(rc, SQLITE_ROW);
    count_allocations(db, info_sql, NULL, 0, 0, &slots, &rc);
    CHECK_U64(rc, SQLITE_ROW);
    const expected_allocation expected[] = {
        {"the kept keys, grown", rows * 8, 1},
        {"the sort buffer", rows * 8, 0},
        {"the filter", length, 0},
        {"the scratch's hashes", slots * 8, 0},
        {"the scratch's queue", slots * 4, 0},
        {"the scratch's counts", slots, 0},
    };
    failed_allocation failed[LARGE_FAILURES_MAX];
    int failures = 0, nomem;
    long long points[2] = {0, 0};
    for (int persistent = 0; persistent <= 1; persistent++) {
        for (long long fail_at = 1; fail_at <= 1000; fail_at++) {
            int made = run_with_large_failures(db, sql, fail_at, persistent, length, &nomem);
            if (made == 0) {
                break;
            }
            points[persistent]++;
            if (!persistent && failures < LARGE_FAILURES_MAX) {
                failed[failures].bytes = large_plan.failed_bytes[0];
                failed[failures++].nomem = nomem;
            }
        }
    }
    printf("%s: %lld large allocations failing in turn, %lld from then on, each ending cleanly; "
           "the sizes failed in turn:",
           build, points[0], points[1]);
    for (int i = 0; i < failures; i++) {
        printf(" %d%s", failed[i].bytes, failed[i].nomem ? "" : " (absorbed)");
    }
    printf("\n");
    CHECK(points[0] >= (long long)(sizeof expected / sizeof expected[0]));
    if (n > 0) {
        CHECK(failures > 0 && failed[0].bytes == n * 8 && !failed[0].nomem);
    }
    CHECK(points[1] == points[0]);
    CHECK(failed_in_order(failed, failures, expected, sizeof expected / sizeof expected[0]));
    sqlite3_free(build);
    sqlite3_free(sql);
    sqlite3_free(info_sql);
}

/* test_static_build_failing for every kind that cannot add: over 20,000 distinct keys sized at
** the end, and over 20,000 rows of 5,000 keys for n given. */
static void test_static_builds_failing(sqlite3 *db) {
    const filter_kind *kind;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        if (filter_kind_can(kind, FILTER_ADDS) ||
            test_kind_of(kind)->builder != BUILT_BY_BLOOM_BUILD) {
            continue;
        }
        test_static_build_failing(
            db, kind, "SELECT bloom_build(i, NULL, 0.01, '%s') AS f FROM numbers WHERE i <= 20000",
            20000, 0);
        test_static_build_failing(
            db, kind,
            "SELECT bloom_build(i %% 5000, 5000, 0.01, '%s') AS f FROM numbers WHERE i <= 20000",
            20000, 5000);
    }
}

int main(int argc, char **argv) {
    sqlite3 *db = NULL;
    char *err = NULL;
    if (argc != 2) {
        fprintf(stderr, "usage: %s EXTENSION\n", argv[0]);
        return 2;
    }
    install_counting_allocator();
    if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(db, argv[1], NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "test_memory: cannot load %s: %s\n", argv[1], err ? err : "?");
        return 2;
    }
    test_allocations(db);
    test_bound_parameters(db);
    test_auto_sized_memory(db);
    test_static_builds_failing(db);
    test_out_of_memory(db);
    sqlite3_close(db);
    CHECK_U64(sqlite3_memory_used(), 0);
    return check_report("test_memory");
}
