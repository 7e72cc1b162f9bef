/*
** accuracy.c: measured false-positive rates of filters built and probed in SQL.
**
** Usage: accuracy EXTENSION [--layout NAME] [--auto-sized COPIES] [KEYS [PROBES [P...]]]
**        (defaults: 1000000 keys, 2000000 probes, p = 0.1 0.01 0.001)
**
** For each kind whose rate it measures (tests/test_kinds.h), or the one
** --layout names, and each p, it builds bloom_build(key, KEYS, p, kind) over
** KEYS keys of all four types, then probes PROBES keys that were never added:
** absent numbers, and TEXT and BLOB keys whose bytes equal those of added BLOB
** and TEXT keys. With --auto-sized, it builds bloom_build(key, NULL, p, kind)
** over COPIES rows of each key instead, interleaved, of the kinds that can be
** sized at the end. It prints a table a kind, a row per p, and fails unless,
** for every kind and p:
**  - the filter was sized for KEYS keys;
**  - every added key probes 1;
**  - the measured rate is within 5 standard deviations of the rate the
**    filter's own fill predicts (bloom_info's estimated_fp_rate);
**  - the measured rate is within 5 standard deviations plus 3 % of p (for a
**    kind whose rate is at most p, such as a cuckoo filter, whose fingerprints
**    are whole bits, at most that above p);
**  - for a kind whose rate is at most p, the rate its contents predict is at
**    most p (a binary fuse filter's, 2^-f for fingerprints of f bits).
** A static kind (one that cannot add, such as the binary fuse filter) is
** measured like the others: bloom_build builds it once from all the keys.
*/
#include <sqlite3.h>

#include "check.h"
#include "test_kinds.h"

#include <math.h>
#include <stdlib.h>

/* Key i of the added set: INTEGER, TEXT, BLOB and REAL in turn (for a kind of one type, as
** test_kind_key makes it). */
#define ADDED_KEY                                                                                  \
    "CASE i % 4 WHEN 0 THEN i WHEN 1 THEN 'k' || i WHEN 2 THEN CAST('b' || i AS BLOB) "            \
    "ELSE i + 0.5 END"

/* Probe j: never added, and distinct for every j. Integers past the added range, BLOBs
** spelling TEXT keys (added for j < KEYS), TEXT spelling BLOB keys (likewise), and REALs
** between the added ones. */
#define ABSENT_KEY                                                                                 \
    "CASE j % 4 WHEN 0 THEN ?2 + j WHEN 1 THEN CAST('k' || j AS BLOB) WHEN 2 THEN 'b' || j "       \
    "ELSE j + 0.75 END"

/* Parameters of every query: ?1 the filter (or NULL), ?2 KEYS, ?3 PROBES, ?4 p, ?5 COPIES,
** ?6 the kind's name. */
typedef struct run {
    sqlite3 *db;
    sqlite3_int64 keys, probes;
    sqlite3_int64 copies; /* 0: bloom_build(key, KEYS, p); else auto-sized over COPIES rows a key */
    const filter_kind *kind;
} run;

/* Prepares sql and binds the run's parameters; exits on failure. */
static sqlite3_stmt *prepare(const run *r, const char *sql, const void *filter, int bytes,
                             double p) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(r->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        fprintf(stderr, "accuracy: %s\n", sqlite3_errmsg(r->db));
        exit(2);
    }
    sqlite3_bind_blob(stmt, 1, filter, bytes, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, r->keys);
    sqlite3_bind_int64(stmt, 3, r->probes);
    sqlite3_bind_double(stmt, 4, p);
    sqlite3_bind_int64(stmt, 5, r->copies);
    sqlite3_bind_text(stmt, 6, r->kind->name, -1, SQLITE_STATIC);
    return stmt;
}

/* Steps a prepared statement to its one row; exits on failure. */
static void step_row(const run *r, sqlite3_stmt *stmt) {
    if (sqlite3_step(stmt) != SQLITE_ROW) {
        fprintf(stderr, "accuracy: %s\n", sqlite3_errmsg(r->db));
        exit(2);
    }
}

/* Sum of bloom_might_contain(filter, KEY) for i (or j) from 0 to count - 1. */
static sqlite3_int64 count_hits(const run *r, const char *key, const char *count,
                                const void *filter, int bytes) {
    char *sql = sqlite3_mprintf(
        "WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < %s - 1) "
        "SELECT sum(bloom_might_contain(?1, %s)) FROM (SELECT i, i AS j FROM s)",
        count, key);
    sqlite3_stmt *stmt = prepare(r, sql, filter, bytes, 0);
    step_row(r, stmt);
    sqlite3_int64 hits = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_free(sql);
    return hits;
}

/* bloom_info's number at the JSON path NAME of the filter: every kind measured has
** estimated_fp_rate and n, and its k_field (tests/test_kinds.h). */
static double info_number(const run *r, const void *filter, int bytes, const char *name) {
    char *sql = sqlite3_mprintf("SELECT json_extract(bloom_info(?1), '$.%q')", name);
    sqlite3_stmt *stmt = prepare(r, sql, filter, bytes, 0);
    step_row(r, stmt);
    double value = sqlite3_column_double(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_free(sql);
    return value;
}

/* Measures one p: prints its table row and checks the bounds. */
static void measure(const run *r, double p) {
    char added[512], absent[512];
    test_kind_key(r->kind, ADDED_KEY, added, sizeof added);
    test_kind_key(r->kind, ABSENT_KEY, absent, sizeof absent);
    char *fixed_n = sqlite3_mprintf(
        "WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ?2 - 1) "
        "SELECT bloom_build(%s, ?2, ?4, ?6) FROM s",
        added);
    char *auto_sized = sqlite3_mprintf(
        "WITH RECURSIVE s(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM s WHERE r < ?2 * ?5 - 1) "
        "SELECT bloom_build(%s, NULL, ?4, ?6) FROM (SELECT r %% ?2 AS i FROM s)",
        added);
    sqlite3_stmt *build = prepare(r, r->copies > 0 ? auto_sized : fixed_n, NULL, 0, p);
    sqlite3_free(fixed_n);
    sqlite3_free(auto_sized);
    step_row(r, build);
    int bytes = sqlite3_column_bytes(build, 0);
    const uint8_t *filter = sqlite3_column_blob(build, 0);
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (!CHECK(filter_open(filter, (uint64_t)bytes, &view, why) == FILTER_OK)) {
        fprintf(stderr, "    %s\n", why);
        sqlite3_finalize(build);
        return;
    }
    sqlite3_int64 found = count_hits(r, added, "?2", filter, bytes);
    sqlite3_int64 hits = count_hits(r, absent, "?3", filter, bytes);
    double model = info_number(r, filter, bytes, "estimated_fp_rate");
    const test_kind *t = test_kind_of(r->kind);
    unsigned k = (unsigned)info_number(r, filter, bytes, t->k_field);
    double rate = (double)hits / (double)r->probes;
    double sigma_model = sqrt(model * (1 - model) / (double)r->probes);
    double sigma_target = sqrt(p * (1 - p) / (double)r->probes);
    printf("| %-7g | %8.2f | %2u | %9d | %10lld | %8.4f %% | %8.4f %% | %5.3f |\n", p,
           8.0 * (bytes - FILTER_HEADER_BYTES) / (double)r->keys, k, bytes, (long long)hits,
           100 * rate, 100 * model, rate / p);
    CHECK_U64((uint64_t)info_number(r, filter, bytes, "n"), r->keys);
    CHECK(found == r->keys);
    CHECK(fabs(rate - model) <= 5 * sigma_model);
    CHECK(t->rate == RATE_AT_MOST_P ? rate - p <= 5 * sigma_target + 0.03 * p
                                    : fabs(rate - p) <= 5 * sigma_target + 0.03 * p);
    CHECK(t->rate != RATE_AT_MOST_P || model <= p);
    sqlite3_finalize(build);
}

/* Whether the run measures kind: a kind that bloom_build builds, whose rate is measured, and for
** an auto-sized run one that can be sized at the end; only that kind when only is not NULL. */
static int measures(const run *r, const filter_kind *only, const filter_kind *kind) {
    const test_kind *t = test_kind_of(kind);
    return (only == NULL || kind == only) && t->builder == BUILT_BY_BLOOM_BUILD &&
           t->rate != RATE_UNMEASURED && (r->copies == 0 || t->sized_at_end);
}

/* Measures r's kind at the count rates, given as text: prints its table. */
static void measure_kind(const run *r, const char *const *rates, int count) {
    printf("Layout: %s.\n\n", r->kind->name);
    printf("| p       | bits/key |  k |     bytes | false hits | measured   | "
           "fill model | ratio |\n");
    printf("|---------|----------|----|-----------|------------|------------|"
           "------------|-------|\n");
    for (int i = 0; i < count; i++) {
        measure(r, atof(rates[i]));
    }
    printf("\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr,
                "usage: %s EXTENSION [--layout NAME] [--auto-sized COPIES] [KEYS [PROBES "
                "[P...]]]\n",
                argv[0]);
        return 2;
    }
    run r = {NULL, 1000000, 2000000, 0, NULL};
    const filter_kind *only = NULL, *kind;
    char *err = NULL;
    int arg = 2;
    if (arg + 1 < argc && strcmp(argv[arg], "--layout") == 0) {
        only = filter_kind_named(argv[arg + 1]);
        if (only == NULL) {
            fprintf(stderr, "accuracy: no kind is called %s\n", argv[arg + 1]);
            return 2;
        }
        arg += 2;
    }
    if (arg + 1 < argc && strcmp(argv[arg], "--auto-sized") == 0) {
        r.copies = atoll(argv[arg + 1]);
        arg += 2;
    }
    if (arg < argc) {
        r.keys = atoll(argv[arg++]);
    }
    if (arg < argc) {
        r.probes = atoll(argv[arg++]);
    }
    if (only != NULL && !measures(&r, only, only)) {
        fprintf(stderr, "accuracy: does not measure a '%s' filter%s\n", only->name,
                r.copies > 0 ? " sized at the end" : "");
        return 2;
    }
    if (r.keys < 4 || r.probes < 1 || r.copies < 0 ||
        sqlite3_open(":memory:", &r.db) != SQLITE_OK ||
        sqlite3_db_config(r.db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(r.db, argv[1], NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "accuracy: cannot start: %s\n", err ? err : "bad arguments");
        return 2;
    }
    if (r.copies > 0) {
        printf("%lld keys of four types added %lld times each to bloom_build(key, NULL, p), %lld "
               "absent keys probed, through SQL.\n\n",
               (long long)r.keys, (long long)r.copies, (long long)r.probes);
    } else {
        printf("%lld keys of four types added, %lld absent keys probed, through SQL.\n\n",
               (long long)r.keys, (long long)r.probes);
    }
    static const char *const default_rates[] = {"0.1", "0.01", "0.001"};
    const char *const *rates = arg < argc ? (const char *const *)argv + arg : default_rates;
    int rate_count =
        arg < argc ? argc - arg : (int)(sizeof default_rates / sizeof default_rates[0]);
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        if (measures(&r, only, kind)) {
            r.kind = kind;
            measure_kind(&r, rates, rate_count);
        }
    }
    printf("ratio = measured / p. fill model = the rate the filter's contents predict "
           "(bloom_info's estimated_fp_rate). k = bloom_info's k");
    const char *separator = ";";
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        if (measures(&r, only, kind) && strcmp(test_kind_of(kind)->k_field, "k") != 0) {
            printf("%s %s for a %s filter", separator, test_kind_of(kind)->k_field, kind->name);
            separator = ",";
        }
    }
    printf(".\n");
    sqlite3_close(r.db);
    return check_report("accuracy");
}
