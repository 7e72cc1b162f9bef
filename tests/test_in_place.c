/*
** test_in_place.c: bloom_add_in_place, bloom_remove_in_place,
** bloom_might_contain_in_place, cms_add_in_place and cms_count_in_place
** through SQLite's C API (rules 19 (in place), 22 (scalable) and 25 (count-min
** in place)).
**
** Usage: test_in_place EXTENSION SCRATCH
**
** SCRATCH is a path prefix for the database files the test creates
** (SCRATCH.readonly.db, SCRATCH.transactions.db, SCRATCH.memory.db,
** SCRATCH.pages.db). The writers include a scalable filter's growth, which
** replaces the cell by an UPDATE run from the function. Checks
**  1. the application's authorizer: denying the UPDATE of the filters table
**     stops the writers, denying the READ of the filter column stops them all,
**     with SQLITE_AUTH and the message, the BLOB byte-identical, also when the
**     UPDATE that grows a scalable filter is denied after the statement's
**     check; SQLITE_IGNORE to the UPDATE of the column stops every writer,
**     growing or not; denying the PRAGMA that reads the table's columns stops
**     them all; allowing everything, or denying another table only, does not
**     stop them;
**  2. trusted_schema = OFF: the writers and the probes are refused in a
**     trigger or view of the main schema, work (and grow) in a TEMP trigger or
**     view;
**  3. a read-only database and PRAGMA query_only: the writers fail, the BLOB
**     unchanged; the probes work;
**  4. ROLLBACK, ROLLBACK TO, and a trigger's RAISE(ABORT) in autocommit and in
**     an explicit transaction undo what the writers wrote, growth included;
**  5. for each kind, 2,000 keys of every SQL type added in place give the bytes
**     of bloom_add and of bloom_build (a scalable filter growing on the way; a
**     Parquet filter, of one type, takes them as TEXT that keeps their type apart),
**     probing in place agrees with bloom_might_contain on 10,000 keys, and
**     (counting, cuckoo) removing half in place gives the bytes of
**     bloom_remove; a static kind (the binary fuse filter, built once from all
**     its keys by bloom_build: rule 30 (static filters)) stored whole, sized
**     at the end and of no keys: the writers refuse it, the BLOB unchanged,
**     bloom_add_in_place and bloom_remove_in_place saying it is built once from
**     all its keys, and probing it in place agrees with bloom_might_contain;
**  6. the Nth allocation failing while a writer runs, once or persistently,
**     for N = 1, 2, ... until a run makes fewer: an error, the BLOB
**     byte-identical, the connection usable;
**  7. the pages a writer writes (WAL frames): O(depth) of a count-min sketch,
**     O(k) of a Bloom filter, not the BLOB's;
**  8. scalable filters growing while the same statement scans their table.
** Lookaside is off, so that every allocation reaches the allocator.
*/
#include <sqlite3.h>

#include "allocator.h"
#include "check.h"
#include "database.h"

#include <stdlib.h>

static const char *extension_path;

/* ---- The failing allocator (as tests/robust/test_oom.c): fails allocations while armed. */

static sqlite3_mem_methods default_allocator;

static struct {
    int armed;
    int persistent;          /* fail every allocation from fail_at on, not only that one */
    long long fail_at;       /* 1-based number of the allocation to fail */
    long long allocations;   /* xMalloc and xRealloc calls since armed */
    long long failures_made; /* of those, the ones that returned NULL */
} plan;

static int allocation_must_fail(void) {
    if (!plan.armed) {
        return 0;
    }
    plan.allocations++;
    if (plan.allocations == plan.fail_at || (plan.persistent && plan.allocations > plan.fail_at)) {
        plan.failures_made++;
        return 1;
    }
    return 0;
}

static void *failing_malloc(int bytes) {
    return allocation_must_fail() ? NULL : default_allocator.xMalloc(bytes);
}

static void *failing_realloc(void *old, int bytes) {
    return allocation_must_fail() ? NULL : default_allocator.xRealloc(old, bytes);
}

static void arm(long long fail_at, int persistent) {
    plan.armed = 1;
    plan.persistent = persistent;
    plan.fail_at = fail_at;
    plan.allocations = 0;
    plan.failures_made = 0;
}

static void disarm(void) {
    plan.armed = 0;
}

/* ---- Connections, statements and BLOBs. */

/* A connection to path opened with flags, lookaside off, the extension loaded; exits on
** failure. */
static sqlite3 *open_db(const char *path, int flags) {
    sqlite3 *db = NULL;
    char *err = NULL;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_LOOKASIDE, NULL, 0, 0) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(db, extension_path, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "test_in_place: cannot open %s with %s: %s\n", path, extension_path,
                err ? err : sqlite3_errmsg(db));
        exit(2);
    }
    return db;
}

static sqlite3 *open_memory(void) {
    return open_db(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
}

/* A BLOB copied into the C heap. */
typedef struct bytes {
    unsigned char *data;
    int length;
} bytes;

static void bytes_set(bytes *b, const void *data, int length) {
    free(b->data);
    b->data = malloc(length > 0 ? (size_t)length : 1);
    if (b->data == NULL) {
        fprintf(stderr, "test_in_place: out of memory in the test itself\n");
        exit(2);
    }
    if (length > 0) {
        memcpy(b->data, data, (size_t)length);
    }
    b->length = length;
}

static void bytes_free(bytes *b) {
    free(b->data);
    b->data = NULL;
    b->length = 0;
}

static int bytes_equal(const bytes *a, const bytes *b) {
    return a->length == b->length && memcmp(a->data, b->data, (size_t)a->length) == 0;
}

/*
** Runs sql with ?1 bound to blob (when not NULL) and returns, in a buffer that the next call
** reuses, column 0 of its first row ("NULL", "blob(N)" or the text), "" for no row, or
** "error RC: MESSAGE" when prepare or a step failed (RC the primary result code). Steps to
** the end.
*/
static const char *run_blob(sqlite3 *db, const char *sql, const bytes *blob) {
    static char out[1024];
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    out[0] = '\0';
    if (rc == SQLITE_OK && blob != NULL) {
        rc = sqlite3_bind_blob(stmt, 1, blob->data, blob->length, SQLITE_STATIC);
    }
    rc = step_to_end(stmt, rc, out, sizeof out);
    if (rc != SQLITE_OK) {
        snprintf(out, sizeof out, "error %d: %s", rc, sqlite3_errmsg(db));
    }
    sqlite3_finalize(stmt);
    return out;
}

static const char *run(sqlite3 *db, const char *sql) {
    return run_blob(db, sql, NULL);
}

/* The BLOB of filters.f at rowid id (with the authorizer off); exits when there is none. */
static bytes read_cell(sqlite3 *db, int id) {
    sqlite3_stmt *stmt = NULL;
    bytes b = {NULL, 0};
    if (sqlite3_prepare_v2(db, "SELECT f FROM filters WHERE id = ?1", -1, &stmt, NULL) !=
            SQLITE_OK ||
        sqlite3_bind_int(stmt, 1, id) != SQLITE_OK || sqlite3_step(stmt) != SQLITE_ROW ||
        sqlite3_column_type(stmt, 0) != SQLITE_BLOB) {
        fprintf(stderr, "test_in_place: cannot read filters.f, id %d: %s\n", id,
                sqlite3_errmsg(db));
        exit(2);
    }
    bytes_set(&b, sqlite3_column_blob(stmt, 0), sqlite3_column_bytes(stmt, 0));
    sqlite3_finalize(stmt);
    return b;
}

/* Whether filters.f at id holds exactly b. */
static int cell_is(sqlite3 *db, int id, const bytes *b) {
    bytes now = read_cell(db, id);
    int same = bytes_equal(&now, b);
    bytes_free(&now);
    return same;
}

/* Writes b into filters.f at id (the test's own write, not under test). */
static void write_cell(sqlite3 *db, int id, const bytes *b) {
    sqlite3_stmt *stmt = NULL;
    CHECK(sqlite3_prepare_v2(db, "UPDATE filters SET f = ?1 WHERE id = ?2", -1, &stmt, NULL) ==
          SQLITE_OK);
    sqlite3_bind_blob(stmt, 1, b->data, b->length, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 2, id);
    CHECK(sqlite3_step(stmt) == SQLITE_DONE);
    sqlite3_finalize(stmt);
}

/* The filters every test starts from: 1 standard, 2 counting, 3 blocked, 4 scalable (for n = 1:
** full, so that a new key grows it by a stage), 5 a count-min sketch, each holding 'k'. */
static const char filters_sql[] =
    "CREATE TABLE filters(id INTEGER PRIMARY KEY, name TEXT, f BLOB);"
    "INSERT INTO filters VALUES"
    " (1, 'standard', bloom_add(bloom_empty(1000, 0.01), 'k')),"
    " (2, 'counting', bloom_add(bloom_empty(1000, 0.01, 'counting'), 'k')),"
    " (3, 'blocked', bloom_add(bloom_empty(1000, 0.01, 'blocked'), 'k')),"
    " (4, 'scalable', bloom_add(bloom_empty(1, 0.01, 'scalable'), 'k')),"
    " (5, 'countmin', cms_add(cms_empty(0.01, 0.01), 'k'));";

/* The stages of the scalable filter at id 4. */
static const char stage_count_sql[] =
    "SELECT json_extract(bloom_info(f), '$.stage_count') FROM filters WHERE id = 4";

/* ---- 1. The authorizer. */

static int deny_update_of_filters(void *arg, int action, const char *a, const char *b,
                                  const char *schema, const char *trigger) {
    (void)arg, (void)b, (void)schema, (void)trigger;
    return action == SQLITE_UPDATE && a != NULL && strcmp(a, "filters") == 0 ? SQLITE_DENY
                                                                             : SQLITE_OK;
}

static int deny_read_of_f(void *arg, int action, const char *a, const char *b, const char *schema,
                          const char *trigger) {
    (void)arg, (void)schema, (void)trigger;
    return action == SQLITE_READ && a != NULL && b != NULL && strcmp(a, "filters") == 0 &&
                   strcmp(b, "f") == 0
               ? SQLITE_DENY
               : SQLITE_OK;
}

/* Denies everything on table other. */
static int deny_other_table(void *arg, int action, const char *a, const char *b, const char *schema,
                            const char *trigger) {
    (void)arg, (void)action, (void)b, (void)schema, (void)trigger;
    return a != NULL && strcmp(a, "other") == 0 ? SQLITE_DENY : SQLITE_OK;
}

/* Allows everything; records the UPDATE and the READ of main.filters.f it was asked about. */
static struct { int update_f, read_f; } asked;

static int allow_all(void *arg, int action, const char *a, const char *b, const char *schema,
                     const char *trigger) {
    (void)arg, (void)trigger;
    int filters_f = a != NULL && b != NULL && schema != NULL && strcmp(a, "filters") == 0 &&
                    strcmp(b, "f") == 0 && strcmp(schema, "main") == 0;
    asked.update_f |= filters_f && action == SQLITE_UPDATE;
    asked.read_f |= filters_f && action == SQLITE_READ;
    return SQLITE_OK;
}

/* Denies the UPDATE of filters once deny_from_now is set: between two steps of a statement,
** after the check its first call made. */
static int deny_from_now;

static int deny_update_from_now(void *arg, int action, const char *a, const char *b,
                                const char *schema, const char *trigger) {
    return deny_from_now ? deny_update_of_filters(arg, action, a, b, schema, trigger) : SQLITE_OK;
}

/* Denies every PRAGMA, also those read as tables (pragma_table_xinfo). */
static int deny_pragmas(void *arg, int action, const char *a, const char *b, const char *schema,
                        const char *trigger) {
    (void)arg, (void)a, (void)b, (void)schema, (void)trigger;
    return action == SQLITE_PRAGMA ? SQLITE_DENY : SQLITE_OK;
}

/* Answers SQLITE_IGNORE to the UPDATE of filters.f: SQLite then compiles an UPDATE of that
** column without its assignment, silently. */
static int ignore_update_of_f(void *arg, int action, const char *a, const char *b,
                              const char *schema, const char *trigger) {
    (void)arg;
    (void)schema;
    (void)trigger;
    return action == SQLITE_UPDATE && a != NULL && b != NULL && strcmp(a, "filters") == 0 &&
                   strcmp(b, "f") == 0
               ? SQLITE_IGNORE
               : SQLITE_OK;
}

static void test_authorizer(void) {
    sqlite3 *db = open_memory();
    exec(db, filters_sql);
    exec(db, "CREATE TABLE other(id INTEGER PRIMARY KEY, f BLOB);"
             "INSERT INTO other VALUES (1, bloom_empty(100, 0.01))");
    bytes standard = read_cell(db, 1), counting = read_cell(db, 2);
    bytes scalable = read_cell(db, 4), countmin = read_cell(db, 5);

    /* The UPDATE of filters denied: both writers refused, with either spelling of the table;
    ** the probe, which only reads, works. */
    sqlite3_set_authorizer(db, deny_update_of_filters, NULL);
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'new key')"),
              "error 23: bloom_add_in_place: cannot update main.filters.f: not authorized");
    CHECK_STR(run(db, "SELECT bloom_add_in_place('main.filters', 'f', 3, 'new key')"),
              "error 23: bloom_add_in_place: cannot update main.filters.f: not authorized");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"),
              "error 23: bloom_remove_in_place: cannot update main.filters.f: not authorized");
    CHECK_U64(sqlite3_errcode(db), SQLITE_AUTH);
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 2, 'k')"), "1");
    /* A scalable filter that would grow, and a count-min sketch. */
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 4, 'new key')"),
              "error 23: bloom_add_in_place: cannot update main.filters.f: not authorized");
    CHECK_STR(run(db, "SELECT cms_add_in_place('filters', 'f', 5, 'new key', 7)"),
              "error 23: cms_add_in_place: cannot update main.filters.f: not authorized");
    CHECK_U64(sqlite3_errcode(db), SQLITE_AUTH);
    CHECK_STR(run(db, "SELECT cms_count_in_place('filters', 'f', 5, 'k')"), "1");
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK(cell_is(db, 1, &standard));
    CHECK(cell_is(db, 2, &counting));
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));

    /* The READ of filters.f denied: all three refused. */
    sqlite3_set_authorizer(db, deny_read_of_f, NULL);
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'new key')"),
              "error 23: bloom_add_in_place: cannot update main.filters.f: access to filters.f "
              "is prohibited");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"),
              "error 23: bloom_remove_in_place: cannot update main.filters.f: access to "
              "filters.f is prohibited");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 1, 'k')"),
              "error 23: bloom_might_contain_in_place: cannot read main.filters.f: access to "
              "filters.f is prohibited");
    CHECK_U64(sqlite3_errcode(db), SQLITE_AUTH);
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 4, 'new key')"),
              "error 23: bloom_add_in_place: cannot update main.filters.f: access to filters.f "
              "is prohibited");
    CHECK_STR(run(db, "SELECT cms_add_in_place('filters', 'f', 5, 'new key')"),
              "error 23: cms_add_in_place: cannot update main.filters.f: access to filters.f is "
              "prohibited");
    CHECK_STR(run(db, "SELECT cms_count_in_place('filters', 'f', 5, 'k')"),
              "error 23: cms_count_in_place: cannot read main.filters.f: access to filters.f is "
              "prohibited");
    CHECK_U64(sqlite3_errcode(db), SQLITE_AUTH);
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK(cell_is(db, 1, &standard));
    CHECK(cell_is(db, 2, &counting));
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));

    /* The UPDATE that grows a scalable filter is prepared when it runs: an authorizer that
    ** denies it after the statement's first call (which checked the authorizer for the
    ** statement, adding nothing: 'k' is there) stops the growth, with SQLITE_AUTH, the cell as
    ** it was. (No ORDER BY: a sort would compute every row in the first step.) */
    sqlite3_stmt *stmt = NULL;
    deny_from_now = 0;
    sqlite3_set_authorizer(db, deny_update_from_now, NULL);
    CHECK(sqlite3_prepare_v2(db,
                             "SELECT bloom_add_in_place('filters', 'f', 4, k) FROM "
                             "(SELECT 'k' AS k UNION ALL SELECT 'new key')",
                             -1, &stmt, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(stmt) == SQLITE_ROW);
    CHECK_U64(sqlite3_column_int(stmt, 0), 0);
    deny_from_now = 1;
    CHECK_U64(sqlite3_step(stmt), SQLITE_AUTH);
    CHECK_STR(sqlite3_errmsg(db),
              "bloom_add_in_place: cannot update main.filters.f: not authorized");
    sqlite3_finalize(stmt);
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK(cell_is(db, 4, &scalable));
    CHECK_STR(run(db, stage_count_sql), "1");

    /* SQLITE_IGNORE to the UPDATE of the column makes SQLite leave the column out of an UPDATE,
    ** silently: a write in place would pass it by, and the UPDATE that grows a scalable filter
    ** would lose the key while the add answered 1. Every writer is an error, growing or not,
    ** the cells as they were; the probes, which only read, work. */
    static const struct {
        const char *func, *sql;
    } ignored_writers[] = {
        {"bloom_add_in_place", "SELECT bloom_add_in_place('filters', 'f', 4, 'new key')"},
        {"bloom_add_in_place", "SELECT bloom_add_in_place('filters', 'f', 1, 'new key')"},
        {"bloom_remove_in_place", "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"},
        {"cms_add_in_place", "SELECT cms_add_in_place('filters', 'f', 5, 'new key', 7)"},
    };
    sqlite3_set_authorizer(db, ignore_update_of_f, NULL);
    for (size_t i = 0; i < sizeof ignored_writers / sizeof ignored_writers[0]; i++) {
        char *expected = sqlite3_mprintf(
            "error 1: %s: cannot write main.filters.f in place: the authorizer leaves the column "
            "out of an UPDATE of it (SQLITE_IGNORE), which a write in place would pass by",
            ignored_writers[i].func);
        CHECK_STR(run(db, ignored_writers[i].sql), expected);
        sqlite3_free(expected);
    }
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 2, 'k')"), "1");
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK(cell_is(db, 1, &standard));
    CHECK(cell_is(db, 2, &counting));
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));

    /* The functions read the table's columns by PRAGMA table_xinfo, which the authorizer is
    ** asked about: denying it stops them all, with SQLITE_AUTH. */
    sqlite3_set_authorizer(db, deny_pragmas, NULL);
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'new key')"),
              "error 23: bloom_add_in_place: cannot update main.filters.f: not authorized");
    CHECK_STR(run(db, "SELECT cms_count_in_place('filters', 'f', 5, 'k')"),
              "error 23: cms_count_in_place: cannot read main.filters.f: not authorized");
    CHECK_U64(sqlite3_errcode(db), SQLITE_AUTH);
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK(cell_is(db, 1, &standard));

    /* An authorizer that allows everything: it is asked, and the three work. */
    sqlite3_set_authorizer(db, allow_all, NULL);
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'new key')"), "1");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"), "1");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 1, 'new key')"), "1");
    CHECK(asked.update_f);
    CHECK(asked.read_f);
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 4, 'new key')"), "1");
    CHECK_STR(run(db, "SELECT cms_add_in_place('filters', 'f', 5, 'new key', 7)"), "7");
    CHECK_STR(run(db, "SELECT cms_count_in_place('filters', 'f', 5, 'new key')"), "7");
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK(!cell_is(db, 1, &standard));
    CHECK_STR(
        run_blob(db, "SELECT f = bloom_add(?1, 'new key') FROM filters WHERE id = 1", &standard),
        "1");
    CHECK_STR(run(db, stage_count_sql), "2");
    CHECK_STR(
        run_blob(db, "SELECT f = bloom_add(?1, 'new key') FROM filters WHERE id = 4", &scalable),
        "1");
    CHECK_STR(
        run_blob(db, "SELECT f = cms_add(?1, 'new key', 7) FROM filters WHERE id = 5", &countmin),
        "1");
    CHECK_STR(
        run(db, "SELECT json_extract(bloom_info(f), '$.keys_added') FROM filters WHERE id = 2"),
        "0");

    /* An authorizer that denies another table only: filters is not blocked, other is. */
    sqlite3_set_authorizer(db, deny_other_table, NULL);
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 2, 'k')"), "1");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"), "1");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 1, 'k')"), "1");
    CHECK_STR(run(db, "SELECT bloom_add_in_place('other', 'f', 1, 'k')"),
              "error 23: bloom_add_in_place: cannot update main.other.f: not authorized");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('other', 'f', 1, 'k')"),
              "error 23: bloom_might_contain_in_place: cannot read main.other.f: access to "
              "other.f is prohibited");
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK_STR(run(db, "SELECT json_extract(bloom_info(f), '$.keys_added') FROM other"), "0");

    bytes_free(&standard);
    bytes_free(&counting);
    bytes_free(&scalable);
    bytes_free(&countmin);
    sqlite3_close(db);
}

/* ---- 2. trusted_schema = OFF. */

static void test_trusted_schema(void) {
    sqlite3 *db = open_memory();
    exec(db, filters_sql);
    exec(db,
         "CREATE TABLE log(k);"
         "CREATE TRIGGER log_add AFTER INSERT ON log BEGIN"
         "  SELECT bloom_add_in_place('filters', 'f', 1, NEW.k); END;"
         "CREATE TABLE removals(k);"
         "CREATE TRIGGER removals_remove AFTER INSERT ON removals BEGIN"
         "  SELECT bloom_remove_in_place('filters', 'f', 2, NEW.k); END;"
         "CREATE TABLE temp_log(k);"
         "CREATE TEMP TRIGGER temp_log_add AFTER INSERT ON main.temp_log BEGIN"
         "  SELECT bloom_add_in_place('filters', 'f', 1, NEW.k); END;"
         "CREATE VIEW probe_view AS"
         "  SELECT bloom_might_contain_in_place('filters', 'f', 1, 'temp key') AS c;"
         "CREATE VIEW add_view AS SELECT bloom_add_in_place('filters', 'f', 1, 'view key') AS c;"
         "CREATE TABLE counts(k);"
         "CREATE TRIGGER counts_add AFTER INSERT ON counts BEGIN"
         "  SELECT cms_add_in_place('filters', 'f', 5, NEW.k); END;"
         "CREATE TABLE temp_counts(k);"
         "CREATE TEMP TRIGGER temp_counts_add AFTER INSERT ON main.temp_counts BEGIN"
         "  SELECT cms_add_in_place('filters', 'f', 5, NEW.k, 3);"
         "  SELECT bloom_add_in_place('filters', 'f', 4, NEW.k); END;"
         "CREATE VIEW count_view AS SELECT cms_count_in_place('filters', 'f', 5, 'temp key') AS c;"
         "CREATE VIEW cms_add_view AS SELECT cms_add_in_place('filters', 'f', 5, 'view key') AS c;"
         "CREATE TEMP VIEW temp_probe_view AS"
         "  SELECT bloom_might_contain_in_place('filters', 'f', 1, 'temp key') AS c;"
         "CREATE TEMP VIEW temp_count_view AS"
         "  SELECT cms_count_in_place('filters', 'f', 5, 'temp key') AS c;");
    /* The flags this rests on: the writers and the probes neither deterministic nor innocuous
    ** (a probe names a table of any schema, so an untrusted schema must not call it). */
    CHECK_STR(run(db, "SELECT group_concat(name || ' ' || flags, ', ') FROM (SELECT name, flags "
                      "FROM pragma_function_list WHERE name LIKE '%in_place' AND narg = 4 "
                      "ORDER BY name)"),
              "bloom_add_in_place 0, bloom_might_contain_in_place 0, "
              "bloom_remove_in_place 0, cms_add_in_place 0, cms_count_in_place 0");
    CHECK(sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL) == SQLITE_OK);
    CHECK_STR(run(db, "PRAGMA trusted_schema"), "0");
    bytes standard = read_cell(db, 1), counting = read_cell(db, 2);
    bytes scalable = read_cell(db, 4), countmin = read_cell(db, 5);

    CHECK_STR(run(db, "INSERT INTO log VALUES ('trigger key')"),
              "error 1: unsafe use of bloom_add_in_place()");
    CHECK_STR(run(db, "INSERT INTO removals VALUES ('k')"),
              "error 1: unsafe use of bloom_remove_in_place()");
    CHECK_STR(run(db, "SELECT c FROM add_view"), "error 1: unsafe use of bloom_add_in_place()");
    CHECK_STR(run(db, "INSERT INTO counts VALUES ('trigger key')"),
              "error 1: unsafe use of cms_add_in_place()");
    CHECK_STR(run(db, "SELECT c FROM cms_add_view"), "error 1: unsafe use of cms_add_in_place()");
    /* The probes too: they read the table they name, of any schema. */
    CHECK_STR(run(db, "SELECT c FROM probe_view"),
              "error 1: unsafe use of bloom_might_contain_in_place()");
    CHECK_STR(run(db, "SELECT c FROM count_view"), "error 1: unsafe use of cms_count_in_place()");
    CHECK(cell_is(db, 1, &standard));
    CHECK(cell_is(db, 2, &counting));
    CHECK(cell_is(db, 5, &countmin));
    CHECK_STR(run(db, "SELECT count(*) FROM log"), "0");
    CHECK_STR(run(db, "SELECT count(*) FROM counts"), "0");

    /* A TEMP trigger is the application's own: it may. */
    CHECK_STR(run(db, "INSERT INTO temp_log VALUES ('temp key')"), "");
    CHECK(!cell_is(db, 1, &standard));
    CHECK_STR(
        run_blob(db, "SELECT f = bloom_add(?1, 'temp key') FROM filters WHERE id = 1", &standard),
        "1");
    /* A TEMP view, the application's own, may probe. */
    CHECK_STR(run(db, "SELECT c FROM temp_probe_view"), "1");
    /* The same for a count-min sketch, and a scalable filter growing from a TEMP trigger (its
    ** UPDATE, run from the function, is the application's own too). */
    CHECK_STR(run(db, "INSERT INTO temp_counts VALUES ('temp key')"), "");
    CHECK_STR(run(db, "SELECT c FROM temp_count_view"), "3");
    CHECK_STR(
        run_blob(db, "SELECT f = cms_add(?1, 'temp key', 3) FROM filters WHERE id = 5", &countmin),
        "1");
    CHECK_STR(run(db, stage_count_sql), "2");
    CHECK_STR(
        run_blob(db, "SELECT f = bloom_add(?1, 'temp key') FROM filters WHERE id = 4", &scalable),
        "1");

    /* With the schema trusted, the same trigger works. */
    CHECK(sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 1, NULL) == SQLITE_OK);
    CHECK_STR(run(db, "INSERT INTO log VALUES ('trigger key')"), "");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 1, 'trigger key')"),
              "1");
    CHECK_STR(run(db, "INSERT INTO counts VALUES ('trigger key')"), "");
    CHECK_STR(run(db, "SELECT cms_count_in_place('filters', 'f', 5, 'trigger key')"), "1");
    CHECK_STR(run(db, "SELECT c FROM probe_view"), "1");

    bytes_free(&standard);
    bytes_free(&counting);
    bytes_free(&scalable);
    bytes_free(&countmin);
    sqlite3_close(db);
}

/* ---- 3. Read-only. */

static void test_read_only(const char *scratch) {
    char *path = sqlite3_mprintf("%s.readonly.db", scratch);
    remove_database(path);
    sqlite3 *db = open_db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    exec(db, filters_sql);
    bytes standard = read_cell(db, 1), counting = read_cell(db, 2);
    bytes scalable = read_cell(db, 4), countmin = read_cell(db, 5);
    sqlite3_close(db);

    /* Opened read-only. */
    db = open_db(path, SQLITE_OPEN_READONLY);
    /* A scalable filter that would grow, and a count-min sketch: refused before anything. */
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 4, 'new key')"),
              "error 8: bloom_add_in_place: cannot write main.filters.f, rowid 4: attempt to "
              "write a readonly database");
    CHECK_STR(run(db, "SELECT cms_add_in_place('filters', 'f', 5, 'new key')"),
              "error 8: cms_add_in_place: cannot write main.filters.f, rowid 5: attempt to "
              "write a readonly database");
    CHECK_STR(run(db, "SELECT cms_count_in_place('filters', 'f', 5, 'k')"), "1");
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'new key')"),
              "error 8: bloom_add_in_place: cannot write main.filters.f, rowid 1: attempt to "
              "write a readonly database");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"),
              "error 8: bloom_remove_in_place: cannot write main.filters.f, rowid 2: attempt to "
              "write a readonly database");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 2, 'k')"), "1");
    CHECK(cell_is(db, 1, &standard));
    CHECK(cell_is(db, 2, &counting));
    sqlite3_close(db);

    /* PRAGMA query_only. */
    db = open_db(path, SQLITE_OPEN_READWRITE);
    exec(db, "PRAGMA query_only = ON");
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 4, 'new key')"),
              "error 8: bloom_add_in_place: cannot write main.filters.f, rowid 4: attempt to "
              "write a readonly database");
    CHECK_STR(run(db, "SELECT cms_add_in_place('filters', 'f', 5, 'new key')"),
              "error 8: cms_add_in_place: cannot write main.filters.f, rowid 5: attempt to "
              "write a readonly database");
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'new key')"),
              "error 8: bloom_add_in_place: cannot write main.filters.f, rowid 1: attempt to "
              "write a readonly database");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"),
              "error 8: bloom_remove_in_place: cannot write main.filters.f, rowid 2: attempt to "
              "write a readonly database");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 1, 'k')"), "1");
    CHECK(cell_is(db, 1, &standard));
    CHECK(cell_is(db, 2, &counting));
    exec(db, "PRAGMA query_only = OFF");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"), "1");
    CHECK(!cell_is(db, 2, &counting));
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 4, 'new key')"), "1");
    CHECK_STR(run(db, stage_count_sql), "2");
    sqlite3_close(db);

    bytes_free(&standard);
    bytes_free(&counting);
    bytes_free(&scalable);
    bytes_free(&countmin);
    remove_database(path);
    sqlite3_free(path);
}

/* ---- 4. Transactions. */

static void test_transactions_on(const char *path) {
    sqlite3 *db = open_db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    exec(db, filters_sql);
    exec(db, "CREATE TABLE events(k, fail);"
             "CREATE TRIGGER events_add AFTER INSERT ON events BEGIN"
             "  SELECT bloom_add_in_place('filters', 'f', 1, NEW.k);"
             "  SELECT bloom_remove_in_place('filters', 'f', 2, 'k') WHERE NEW.k = 'remove';"
             "  SELECT bloom_add_in_place('filters', 'f', 4, NEW.k);"
             "  SELECT cms_add_in_place('filters', 'f', 5, NEW.k, 2);"
             "  SELECT RAISE(ABORT, 'events: refused') WHERE NEW.fail; END;");
    bytes before = read_cell(db, 1), counting = read_cell(db, 2);
    /* The scalable filter grows (its UPDATE run from the function) on its first new key. */
    bytes scalable = read_cell(db, 4), countmin = read_cell(db, 5);

    /* BEGIN ... ROLLBACK. */
    exec(db, "BEGIN");
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'rolled back')"), "1");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"), "1");
    CHECK(!cell_is(db, 1, &before));
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 4, 'rolled back')"), "1");
    CHECK_STR(run(db, stage_count_sql), "2");
    CHECK_STR(run(db, "SELECT cms_add_in_place('filters', 'f', 5, 'rolled back', 4)"), "4");
    exec(db, "ROLLBACK");
    CHECK(cell_is(db, 1, &before));
    CHECK(cell_is(db, 2, &counting));
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));

    /* SAVEPOINT ... ROLLBACK TO. */
    exec(db, "SAVEPOINT sp");
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'savepoint key')"), "1");
    exec(db, "ROLLBACK TO sp; RELEASE sp");
    CHECK(cell_is(db, 1, &before));
    /* Growth (twice: stages of 1 and 2 keys, then 4) and a count after a savepoint are undone
    ** by ROLLBACK TO it; what came before it stays until the transaction rolls back. */
    exec(db, "BEGIN");
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'before savepoint')"), "1");
    bytes outer = read_cell(db, 1);
    exec(db, "SAVEPOINT sp");
    CHECK_STR(run(db,
                  "SELECT sum(bloom_add_in_place('filters', 'f', 4, k)) FROM (SELECT 'sp 1' AS k "
                  "UNION ALL SELECT 'sp 2' UNION ALL SELECT 'sp 3')"),
              "3");
    CHECK_STR(run(db, stage_count_sql), "3");
    CHECK_STR(run(db, "SELECT cms_add_in_place('filters', 'f', 5, 'sp 1')"), "1");
    exec(db, "ROLLBACK TO sp; RELEASE sp");
    CHECK(cell_is(db, 1, &outer));
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));
    exec(db, "ROLLBACK");
    CHECK(cell_is(db, 1, &before));

    /* In autocommit: the trigger adds (and grows), then the statement aborts. */
    CHECK_STR(run(db, "INSERT INTO events VALUES ('aborted', 1)"), "error 19: events: refused");
    CHECK(cell_is(db, 1, &before));
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));
    CHECK_STR(run(db, "INSERT INTO events VALUES ('remove', 1)"), "error 19: events: refused");
    CHECK(cell_is(db, 2, &counting));
    /* Three rows, three calls, the third row aborts: none of them stays. */
    CHECK_STR(run(db, "INSERT INTO events VALUES ('a', 0), ('b', 0), ('c', 1)"),
              "error 19: events: refused");
    CHECK(cell_is(db, 1, &before));
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));
    CHECK_STR(run(db, "SELECT count(*) FROM events"), "0");
    CHECK(sqlite3_get_autocommit(db));

    /* In an explicit transaction: the statement is undone, not what came before it. */
    exec(db, "BEGIN");
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'kept')"), "1");
    bytes kept = read_cell(db, 1);
    CHECK(!bytes_equal(&kept, &before));
    CHECK_STR(run(db, "INSERT INTO events VALUES ('aborted', 1)"), "error 19: events: refused");
    CHECK(!sqlite3_get_autocommit(db));
    CHECK(cell_is(db, 1, &kept));
    CHECK_STR(run(db, "INSERT INTO events VALUES ('a', 0), ('remove', 0), ('c', 1)"),
              "error 19: events: refused");
    CHECK(cell_is(db, 1, &kept));
    CHECK(cell_is(db, 2, &counting));
    CHECK(cell_is(db, 4, &scalable));
    CHECK(cell_is(db, 5, &countmin));
    CHECK_STR(run(db, "INSERT INTO events VALUES ('accepted', 0)"), "");
    bytes accepted = read_cell(db, 1);
    CHECK(!bytes_equal(&accepted, &kept));
    exec(db, "COMMIT");
    CHECK(cell_is(db, 1, &accepted));
    CHECK_STR(run_blob(db,
                       "SELECT f = bloom_add(bloom_add(?1, 'kept'), 'accepted') FROM filters "
                       "WHERE id = 1",
                       &before),
              "1");
    CHECK_STR(run(db, "SELECT group_concat(k) FROM events"), "accepted");
    CHECK_STR(run(db, stage_count_sql), "2");
    CHECK_STR(
        run_blob(db, "SELECT f = bloom_add(?1, 'accepted') FROM filters WHERE id = 4", &scalable),
        "1");
    CHECK_STR(
        run_blob(db, "SELECT f = cms_add(?1, 'accepted', 2) FROM filters WHERE id = 5", &countmin),
        "1");

    bytes_free(&before);
    bytes_free(&counting);
    bytes_free(&kept);
    bytes_free(&accepted);
    bytes_free(&outer);
    bytes_free(&scalable);
    bytes_free(&countmin);
    sqlite3_close(db);
}

static void test_transactions(const char *scratch) {
    char *path = sqlite3_mprintf("%s.transactions.db", scratch);
    remove_database(path);
    test_transactions_on(":memory:");
    test_transactions_on(path);
    remove_database(path);
    sqlite3_free(path);
}

/* ---- 5. Equivalence with the functions on a BLOB value. */

/* 2,000 keys of every SQL type, some repeated (as the same value or an equal one of another
** type), some NULL; then 10,000 probes: those keys, and 8,000 others. */
static const char keys_sql[] =
    "CREATE TABLE keys(i INTEGER PRIMARY KEY, k);"
    "INSERT INTO keys WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < "
    "2000) SELECT i, CASE i % 8"
    "  WHEN 0 THEN i * 7919"
    "  WHEN 1 THEN 'key ' || i"
    "  WHEN 2 THEN CAST('blob ' || i AS BLOB)"
    "  WHEN 3 THEN i + 0.5"
    "  WHEN 4 THEN i % 50"
    "  WHEN 5 THEN CASE WHEN i % 40 = 5 THEN NULL ELSE (i % 30) * 1.0 END"
    "  WHEN 6 THEN 'dup ' || (i % 20)"
    "  ELSE CASE WHEN i % 3 = 0 THEN -i ELSE x'' END END FROM s;"
    "CREATE TABLE probes(i INTEGER PRIMARY KEY, k);"
    "INSERT INTO probes SELECT i, k FROM keys;"
    "INSERT INTO probes WITH RECURSIVE s(i) AS (SELECT 2001 UNION ALL SELECT i + 1 FROM s WHERE "
    "i < 10000) SELECT i, CASE i % 5"
    "  WHEN 0 THEN i * 7919 + 1"
    "  WHEN 1 THEN 'absent ' || i"
    "  WHEN 2 THEN CAST('key ' || i AS BLOB)"
    "  WHEN 3 THEN i + 0.25"
    "  ELSE 'KEY ' || i END FROM s;";

/* One step of a statement over one key. */
typedef struct row {
    int rc;         /* of the step */
    char value[16]; /* column 0: "NULL" or the integer */
} row;

/* Steps stmt once with ?2 bound to i: its step's code, column 0 as text, and column 1 (when there
** is one) into *blob. */
static row step_key(sqlite3_stmt *stmt, int i, bytes *blob) {
    row r;
    sqlite3_bind_int(stmt, 2, i);
    r.rc = sqlite3_step(stmt);
    snprintf(r.value, sizeof r.value, "%s",
             r.rc != SQLITE_ROW ? "error"
             : sqlite3_column_type(stmt, 0) == SQLITE_NULL
                 ? "NULL"
                 : (const char *)sqlite3_column_text(stmt, 0));
    if (r.rc == SQLITE_ROW && blob != NULL && sqlite3_column_count(stmt) > 1) {
        bytes_set(blob, sqlite3_column_blob(stmt, 1), sqlite3_column_bytes(stmt, 1));
    }
    sqlite3_reset(stmt);
    return r;
}

static void test_equivalence(void) {
    /* Not 'cuckoo': these keys repeat up to 167 times, and a cuckoo filter holds a key at most 8
    ** times; its equivalences are in tests/sql/kinds.sql. A 'scalable' filter for n = 100, so
    ** that in place it grows (to 4 stages), key by key as bloom_add grows it; it counts only the
    ** keys it answered 1 for, the others every non-NULL key. A 'parquet' filter holds the values
    ** of one type (rule 27 (Parquet filters)): its keys and probes are the same as TEXT that keeps
    ** their type apart, as test_kind_key makes them (tests/test_kinds.h), through the views
    ** kind_keys and kind_probes. (The count-min sketch: tests/sql/countmin.sql and
    ** tests/sql/kinds.sql.) */
    static const struct {
        const char *name;
        int n;
        const char *key; /* the key it gets, an expression of k */
    } kinds[] = {{"standard", 2000, "k"},
                 {"blocked", 2000, "k"},
                 {"counting", 2000, "k"},
                 {"scalable", 100, "k"},
                 {"parquet", 2000, "(typeof(k) || ':' || (k))"}};
    sqlite3 *db = open_memory();
    exec(db, keys_sql);
    exec(db, "CREATE TABLE filters(id INTEGER PRIMARY KEY, name TEXT, f BLOB);");
    CHECK_STR(run(db, "SELECT count(*) FROM keys"), "2000");
    CHECK_STR(run(db, "SELECT count(k) || ' ' || count(DISTINCT typeof(k)) FROM keys"), "1950 5");
    CHECK_STR(run(db, "SELECT count(*) FROM probes"), "10000");
    for (int kind = 0; kind < (int)(sizeof kinds / sizeof kinds[0]); kind++) {
        int id = kind + 1, scalable = strcmp(kinds[kind].name, "scalable") == 0;
        char *sql =
            sqlite3_mprintf("INSERT INTO filters VALUES (%d, %Q, bloom_empty(%d, 0.01, %Q))", id,
                            kinds[kind].name, kinds[kind].n, kinds[kind].name);
        exec(db, sql);
        sqlite3_free(sql);
        sql = sqlite3_mprintf("DROP VIEW IF EXISTS kind_keys; DROP VIEW IF EXISTS kind_probes;"
                              "CREATE TEMP VIEW kind_keys AS SELECT i, %s AS k FROM keys;"
                              "CREATE TEMP VIEW kind_probes AS SELECT i, %s AS k FROM probes;",
                              kinds[kind].key, kinds[kind].key);
        exec(db, sql);
        sqlite3_free(sql);
        bytes reference = read_cell(db, id);

        /* One key at a time: in place, and by bloom_add on a copy, whose probe before says
        ** what bloom_add_in_place must answer. */
        sqlite3_stmt *add_value = NULL, *add_in_place = NULL;
        CHECK(sqlite3_prepare_v2(db,
                                 "SELECT 1 - bloom_might_contain(?1, k), bloom_add(?1, k) "
                                 "FROM kind_keys WHERE i = ?2",
                                 -1, &add_value, NULL) == SQLITE_OK);
        sql = sqlite3_mprintf(
            "SELECT bloom_add_in_place('filters', 'f', %d, k) FROM kind_keys WHERE i = ?2", id);
        CHECK(sqlite3_prepare_v2(db, sql, -1, &add_in_place, NULL) == SQLITE_OK);
        sqlite3_free(sql);
        int mismatches = 0, was_absent = 0;
        for (int i = 1; i <= 2000; i++) {
            sqlite3_bind_blob(add_value, 1, reference.data, reference.length, SQLITE_TRANSIENT);
            row expected = step_key(add_value, i, &reference);
            row got = step_key(add_in_place, i, NULL);
            if (expected.rc != SQLITE_ROW || strcmp(expected.value, got.value) != 0) {
                if (mismatches++ < 5) {
                    fprintf(stderr, "    %s, key %d: in place %s (%s), expected %s\n",
                            kinds[kind].name, i, got.value, sqlite3_errmsg(db), expected.value);
                }
            }
            was_absent += strcmp(got.value, "1") == 0;
        }
        sqlite3_finalize(add_value);
        sqlite3_finalize(add_in_place);
        CHECK_U64(mismatches, 0);
        CHECK(was_absent > 1000 && was_absent < 1950); /* repeats answered 0 */
        CHECK(cell_is(db, id, &reference));
        sql = sqlite3_mprintf("SELECT (SELECT f FROM filters WHERE id = %d) = bloom_build(k, %d, "
                              "0.01, %Q) FROM (SELECT k FROM kind_keys ORDER BY i)",
                              id, kinds[kind].n, kinds[kind].name);
        CHECK_STR(run(db, sql), "1");
        sqlite3_free(sql);
        sql = sqlite3_mprintf(
            "SELECT json_extract(bloom_info(f), '$.keys_added') FROM filters WHERE id = %d", id);
        char keys_added[16];
        snprintf(keys_added, sizeof keys_added, "%d", scalable ? was_absent : 1950);
        CHECK_STR(run(db, sql), keys_added);
        sqlite3_free(sql);
        if (scalable) {
            sql =
                sqlite3_mprintf("SELECT json_extract(bloom_info(f), '$.stage_count') FROM filters "
                                "WHERE id = %d",
                                id);
            CHECK_STR(run(db, sql), "4");
            sqlite3_free(sql);
        }

        /* 10,000 probes: in place and on the value agree; every key added answers 1. */
        sql = sqlite3_mprintf(
            "SELECT count(*) || ' ' || sum(a IS NOT b) || ' ' || sum(a) FILTER (WHERE i <= 2000) "
            "|| ' ' || (sum(a) FILTER (WHERE i > 2000) = sum(b) FILTER (WHERE i > 2000)) FROM "
            "(SELECT i, bloom_might_contain_in_place('filters', 'f', %d, k) AS a, "
            "bloom_might_contain(?1, k) AS b FROM kind_probes)",
            id);
        CHECK_STR(run_blob(db, sql, &reference), "10000 0 1950 1");
        sqlite3_free(sql);

        if (strcmp(kinds[kind].name, "counting") == 0 || strcmp(kinds[kind].name, "cuckoo") == 0) {
            /* Every other key removed, in place and by bloom_remove on the copy. */
            sqlite3_stmt *remove_value = NULL, *remove_in_place = NULL;
            CHECK(sqlite3_prepare_v2(
                      db,
                      "SELECT CASE WHEN k IS NULL THEN NULL ELSE 1 END, bloom_remove(?1, k) "
                      "FROM kind_keys WHERE i = ?2",
                      -1, &remove_value, NULL) == SQLITE_OK);
            sql = sqlite3_mprintf(
                "SELECT bloom_remove_in_place('filters', 'f', %d, k) FROM kind_keys WHERE i = ?2",
                id);
            CHECK(sqlite3_prepare_v2(db, sql, -1, &remove_in_place, NULL) == SQLITE_OK);
            sqlite3_free(sql);
            mismatches = 0;
            for (int i = 2; i <= 2000; i += 2) {
                sqlite3_bind_blob(remove_value, 1, reference.data, reference.length,
                                  SQLITE_TRANSIENT);
                row expected = step_key(remove_value, i, &reference);
                row got = step_key(remove_in_place, i, NULL);
                if (expected.rc != SQLITE_ROW || strcmp(expected.value, got.value) != 0) {
                    if (mismatches++ < 5) {
                        fprintf(stderr, "    removing key %d: in place %s (%s), expected %s\n", i,
                                got.value, sqlite3_errmsg(db), expected.value);
                    }
                }
            }
            sqlite3_finalize(remove_value);
            sqlite3_finalize(remove_in_place);
            CHECK_U64(mismatches, 0);
            CHECK(cell_is(db, id, &reference));
            sql = sqlite3_mprintf(
                "SELECT json_extract(bloom_info(f), '$.keys_added') FROM filters WHERE id = %d",
                id);
            CHECK_STR(run(db, sql), "950");
            sqlite3_free(sql);
            /* The keys at odd i are still there. */
            sql =
                sqlite3_mprintf("SELECT count(*) FROM kind_keys WHERE i %% 2 = 1 AND k IS NOT NULL "
                                "AND NOT bloom_might_contain_in_place('filters', 'f', %d, k)",
                                id);
            CHECK_STR(run(db, sql), "0");
            sqlite3_free(sql);
        }
        bytes_free(&reference);
    }
    sqlite3_close(db);
}

/* The kinds that cannot add: built once from all their keys by bloom_build (rule 30 (static
** filters)). */
static const char *const static_kinds[] = {"fuse"};

/* Checks that sql, a writer in place on filters.f at id, fails with a message that starts with
** expected, the BLOB unchanged. */
static void check_writer_refused(sqlite3 *db, int id, const char *sql, const char *expected) {
    bytes before = read_cell(db, id);
    const char *got = run(db, sql);
    if (!CHECK(strncmp(got, expected, strlen(expected)) == 0)) {
        fprintf(stderr, "    %s: %s\n    expected: %s...\n", sql, got, expected);
    }
    CHECK(cell_is(db, id, &before));
    bytes_free(&before);
}

/* Each static kind's filters in place: refused by the writers, probed as on the value. */
static void test_static_kinds(void) {
    sqlite3 *db = open_memory();
    exec(db, keys_sql);
    exec(db, "CREATE TABLE filters(id INTEGER PRIMARY KEY, name TEXT, f BLOB);");
    for (size_t kind = 0; kind < sizeof static_kinds / sizeof static_kinds[0]; kind++) {
        const char *name = static_kinds[kind];
        /* 1: built for n = 2000 from the 2,000 keys (1,126 distinct, 50 NULL), 2: sized at the
        ** end from them, 3: from their NULLs alone, a filter of no keys. */
        char *sql = sqlite3_mprintf(
            "DELETE FROM filters;"
            "INSERT INTO filters SELECT 1, %Q, bloom_build(k, 2000, 0.01, %Q) FROM keys;"
            "INSERT INTO filters SELECT 2, %Q, bloom_build(k, NULL, 0.01, %Q) FROM keys;"
            "INSERT INTO filters SELECT 3, %Q, bloom_build(k, 2000, 0.01, %Q) FROM keys "
            "WHERE k IS NULL;",
            name, name, name, name, name, name);
        exec(db, sql);
        sqlite3_free(sql);
        CHECK_STR(run(db, "SELECT group_concat(json_extract(bloom_info(f), '$.keys_added') || "
                          "' ' || json_extract(bloom_info(f), '$.n'), ', ') FROM (SELECT f FROM "
                          "filters ORDER BY id)"),
                  "1126 2000, 1126 1126, 0 2000");
        CHECK_STR(run(db, "SELECT count(DISTINCT k) FROM keys"), "1126");
        for (int id = 1; id <= 3; id++) {
            /* The writers refuse it, the BLOB as it was. */
            char expected[256];
            snprintf(expected, sizeof expected,
                     "error 1: bloom_add_in_place: a '%s' filter cannot add keys where it is "
                     "stored: it is built once from all its keys",
                     name);
            sql = sqlite3_mprintf("SELECT bloom_add_in_place('filters', 'f', %d, 'new key')", id);
            check_writer_refused(db, id, sql, expected);
            sqlite3_free(sql);
            sql = sqlite3_mprintf("SELECT bloom_add_in_place('main.filters', 'f', %d, k) FROM "
                                  "keys WHERE k IS NOT NULL",
                                  id);
            check_writer_refused(db, id, sql, expected);
            sqlite3_free(sql);
            snprintf(expected, sizeof expected,
                     "error 1: bloom_remove_in_place: a '%s' filter cannot remove keys: it is "
                     "built once from all its keys",
                     name);
            sql = sqlite3_mprintf("SELECT bloom_remove_in_place('filters', 'f', %d, 'key 1')", id);
            check_writer_refused(db, id, sql, expected);
            sqlite3_free(sql);
            snprintf(expected, sizeof expected,
                     "error 1: cms_add_in_place: main.filters.f, rowid %d holds a '%s' filter, not "
                     "a count-min sketch",
                     id, name);
            sql = sqlite3_mprintf("SELECT cms_add_in_place('filters', 'f', %d, 'key 1', 2)", id);
            check_writer_refused(db, id, sql, expected);
            sqlite3_free(sql);

            /* 10,000 probes: in place and on the value agree; every key of the set answers 1,
            ** none of the filter of no keys does. */
            bytes value = read_cell(db, id);
            sql = sqlite3_mprintf(
                "SELECT count(*) || ' ' || sum(a IS NOT b) || ' ' || sum(a) FILTER (WHERE i <= "
                "2000) || ' ' || (sum(a) FILTER (WHERE i > 2000) = sum(b) FILTER (WHERE i > "
                "2000)) || ' ' || (sum(a) FILTER (WHERE i > 2000) < 400) FROM (SELECT i, "
                "bloom_might_contain_in_place('filters', 'f', %d, k) AS a, "
                "bloom_might_contain(?1, k) AS b FROM probes)",
                id);
            CHECK_STR(run_blob(db, sql, &value), id == 3 ? "10000 0 0 1 1" : "10000 0 1950 1 1");
            sqlite3_free(sql);
            CHECK(cell_is(db, id, &value));
            bytes_free(&value);
        }
    }
    sqlite3_close(db);
}

/* ---- 6. Allocation failures. */

/*
** Runs sql (one writer call) with the Nth allocation of its step failing, once or from then on,
** for N = 1, 2, ... until a run makes fewer than N allocations, in autocommit or in an explicit
** transaction; the cell at id starts each run as before. A run ends in an error with the cell
** unchanged, or (a failure SQLite absorbed) in answer with the cell as after. In a transaction,
** the cell is read before the ROLLBACK that ends it: only the function's own write-back can have
** restored it, unless SQLite rolled the transaction back itself (after SQLITE_NOMEM it may).
*/
static void fail_each_allocation(sqlite3 *db, const char *sql, int id, const bytes *before,
                                 const bytes *after, const char *answer, int persistent,
                                 int in_transaction) {
    long long n = 1, errors = 0, absorbed = 0, rolled_back = 0;
    const char *how = persistent
                          ? (in_transaction ? "persistently, in a transaction" : "persistently")
                          : (in_transaction ? "once, in a transaction" : "once");
    for (;; n++) {
        sqlite3_stmt *stmt = NULL;
        write_cell(db, id, before);
        if (in_transaction) {
            exec(db, "BEGIN");
        }
        CHECK(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK);
        arm(n, persistent);
        int rc = sqlite3_step(stmt);
        disarm();
        char value[32] = "";
        if (rc == SQLITE_ROW) {
            snprintf(value, sizeof value, "%s", (const char *)sqlite3_column_text(stmt, 0));
            rc = sqlite3_step(stmt);
        }
        char message[256];
        snprintf(message, sizeof message, "%s", sqlite3_errmsg(db));
        sqlite3_finalize(stmt);
        int failed = plan.failures_made > 0, open = !sqlite3_get_autocommit(db);
        if (rc == SQLITE_DONE) {
            absorbed += failed;
            CHECK_STR(value, answer);
            CHECK(open == in_transaction);
            if (!CHECK(cell_is(db, id, after))) {
                fprintf(stderr, "    %s, allocation %lld failing %s: the result, not its BLOB\n",
                        sql, n, how);
            }
        } else {
            errors++;
            rolled_back += in_transaction && !open;
            CHECK(failed);
            CHECK(!open || in_transaction);
            if (!CHECK(cell_is(db, id, before))) {
                fprintf(stderr, "    %s, allocation %lld failing %s: error %d (%s), BLOB changed\n",
                        sql, n, how, rc, message);
            }
        }
        if (open) {
            exec(db, "ROLLBACK");
        }
        if (!failed) {
            break;
        }
        if (n >= 100000) {
            CHECK(!"a run that never ends");
            break;
        }
    }
    printf("%s, %s: %lld failure points, %lld errors (%lld with the transaction rolled back by "
           "SQLite), %lld absorbed\n",
           sql, how, n - 1, errors, rolled_back, absorbed);
    CHECK(errors > 0);
}

static void test_out_of_memory(const char *scratch) {
    static const struct {
        int id;
        const char *sql, *answer;
    } operations[] = {
        {1, "SELECT bloom_add_in_place('filters', 'f', 1, 'absent key')", "1"},
        {3, "SELECT bloom_add_in_place('main.filters', 'f', 3, 'absent key')", "1"},
        {2, "SELECT bloom_add_in_place('filters', 'f', 2, 'absent key')", "1"},
        {2, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')", "1"},
        /* A scalable filter grown by a stage: the copy, the UPDATE and its statement. */
        {4, "SELECT bloom_add_in_place('filters', 'f', 4, 'absent key')", "1"},
        {5, "SELECT cms_add_in_place('filters', 'f', 5, 'absent key', 3)", "3"},
    };
    char *path = sqlite3_mprintf("%s.memory.db", scratch);
    const char *databases[] = {":memory:", path};
    for (int d = 0; d < 2; d++) {
        remove_database(databases[d]);
        sqlite3 *db = open_db(databases[d], SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        exec(db, filters_sql);
        for (size_t i = 0; i < sizeof operations / sizeof operations[0]; i++) {
            bytes before = read_cell(db, operations[i].id);
            CHECK_STR(run(db, operations[i].sql), operations[i].answer);
            bytes after = read_cell(db, operations[i].id);
            CHECK(!bytes_equal(&before, &after));
            for (int mode = 0; mode < 4; mode++) {
                fail_each_allocation(db, operations[i].sql, operations[i].id, &before, &after,
                                     operations[i].answer, mode & 1, mode >> 1);
            }
            write_cell(db, operations[i].id, &before);
            CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 1, 'k')"), "1");
            bytes_free(&before);
            bytes_free(&after);
        }
        sqlite3_close(db);
        remove_database(databases[d]);
    }
    sqlite3_free(path);
}

/* ---- 7. What a writer writes: the pages of the bytes that change, not the filter's. */

/* Frames in the WAL of the database at path, of pages of page_size bytes (0 when it has none). */
static long long wal_frames(const char *path, long long page_size) {
    char *wal = sqlite3_mprintf("%s-wal", path);
    FILE *file = fopen(wal, "rb");
    long length = 0;
    if (file != NULL && fseek(file, 0, SEEK_END) == 0) {
        length = ftell(file);
    }
    if (file != NULL) {
        fclose(file);
    }
    sqlite3_free(wal);
    return length > 32 ? (length - 32) / (page_size + 24) : 0;
}

/* The frames one run of sql (an autocommit transaction) with ?1 bound to key (when not NULL)
** added to the WAL of the database at path, emptied before. */
static long long frames_written(sqlite3 *db, const char *path, const char *sql, const char *key) {
    sqlite3_stmt *stmt = NULL;
    CHECK_STR(run(db, "PRAGMA wal_checkpoint(TRUNCATE)"), "0");
    CHECK_U64(wal_frames(path, 4096), 0);
    CHECK(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK);
    if (key != NULL) {
        sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
    }
    if (!CHECK(sqlite3_finalize(stmt) == SQLITE_OK)) {
        fprintf(stderr, "    %s: %s\n", sql, sqlite3_errmsg(db));
    }
    return wal_frames(path, 4096);
}

/* The most frames_written over runs of sql with ?1 bound to 'key 0' to 'key 19'. */
static long long most_frames_written(sqlite3 *db, const char *path, const char *sql) {
    long long most = 0;
    for (int i = 0; i < 20; i++) {
        char key[16];
        snprintf(key, sizeof key, "key %d", i);
        long long frames = frames_written(db, path, sql, key);
        most = frames > most ? frames : most;
    }
    return most;
}

/*
** In a WAL database of 4096-byte pages, with no checkpoint but ours, the frames a call adds to
** the WAL are the pages it wrote. A count-min sketch of 5 rows of 27,183 counters (1,087,384
** bytes, 266 pages) gets at most 7 from cms_add_in_place, plain or conservative: one a row and
** the header's (which may straddle the row's leaf page and its first overflow page), O(depth)
** of 266; a standard filter of 1,198,200 bytes with k = 7 at most 9 from bloom_add_in_place; a
** scalable filter of 4 stages (524,872 bytes) at most k + 3 of its last stage (k = 10; its
** header's two and its stage header's) from an add that does not grow it. A copy of the sketch
** inserted writes all its pages: the measure sees them. (An UPDATE of the whole cell with a
** value of the same length writes as few: SQLite overwrites a cell of the same size page by
** page, and writes the pages that differ only.)
*/
static void test_pages_written(const char *scratch) {
    char *path = sqlite3_mprintf("%s.pages.db", scratch);
    remove_database(path);
    sqlite3 *db = open_db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    CHECK_STR(run(db, "PRAGMA page_size = 4096"), "");
    CHECK_STR(run(db, "PRAGMA journal_mode = WAL"), "wal");
    CHECK_STR(run(db, "PRAGMA wal_autocheckpoint = 0"), "0");
    CHECK_STR(run(db, "PRAGMA synchronous = OFF"), ""); /* no fsync: what is written is the same */
    exec(db, "CREATE TABLE cells(id INTEGER PRIMARY KEY, f BLOB);"
             "INSERT INTO cells VALUES (1, cms_empty(0.0001, 0.01)),"
             " (2, cms_empty(0.0001, 0.01, 'conservative')), (3, bloom_empty(1000000, 0.01)),"
             " (4, (SELECT bloom_build(value, 20000, 0.01, 'scalable') FROM (WITH RECURSIVE "
             " s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 150000) "
             " SELECT value FROM s)));");
    CHECK_STR(run(db, "SELECT group_concat(length(f), ' ') FROM cells"),
              "1087384 1087384 1198200 524872");
    CHECK_STR(run(db, "SELECT json_extract(bloom_info(f), '$.stage_count') || ' ' || "
                      "json_extract(bloom_info(f), '$.stages[3].k') FROM cells WHERE id = 4"),
              "4 10");
    long long plain =
        most_frames_written(db, path, "SELECT cms_add_in_place('cells', 'f', 1, ?1, 5)");
    long long conservative =
        most_frames_written(db, path, "SELECT cms_add_in_place('cells', 'f', 2, ?1, 5)");
    long long standard =
        most_frames_written(db, path, "SELECT bloom_add_in_place('cells', 'f', 3, ?1)");
    long long scalable =
        most_frames_written(db, path, "SELECT bloom_add_in_place('cells', 'f', 4, ?1)");
    long long copy =
        frames_written(db, path, "INSERT INTO cells SELECT 5, f FROM cells WHERE id = 1", NULL);
    printf("pages written: cms_add_in_place %lld (conservative %lld), bloom_add_in_place %lld "
           "(scalable %lld), a copy of the sketch inserted %lld\n",
           plain, conservative, standard, scalable, copy);
    CHECK(plain >= 1 && plain <= 7);
    CHECK(conservative >= 1 && conservative <= 7);
    CHECK(standard >= 1 && standard <= 9);
    CHECK(scalable >= 1 && scalable <= 13);
    CHECK(copy >= 266);
    /* What the calls wrote is what cms_add writes, and the scalable filter did not grow. */
    CHECK_STR(run(db, "SELECT (a.f = (SELECT cms_build(k, 5, 0.0001, 0.01) FROM (SELECT 'key ' || "
                      "value AS k FROM (WITH RECURSIVE s(value) AS (SELECT 0 UNION ALL SELECT "
                      "value + 1 FROM s WHERE value < 19) SELECT value FROM s)))) || '|' || "
                      "(a.f = b.f) FROM cells AS a, cells AS b WHERE a.id = 1 AND b.id = 5"),
              "1|1");
    CHECK_STR(
        run(db, "SELECT json_extract(bloom_info(f), '$.stage_count') FROM cells WHERE id = 4"),
        "4");
    sqlite3_close(db);
    remove_database(path);
    sqlite3_free(path);
}

/* ---- 8. Growth while the statement reads the table it grows a cell of. */

/* Whether each row of t holds the scalable filter bloom_build makes of keys, a SELECT of the
** keys added to the row (its id as t.id), in order. */
static void check_rows_built(sqlite3 *db, const char *keys) {
    char *sql = sqlite3_mprintf(
        "SELECT count(*) || ' ' || sum(f = (SELECT bloom_build(k, 1, 0.01, 'scalable') FROM (%s)))"
        " FROM t",
        keys);
    CHECK_STR(run(db, sql), "50 50");
    sqlite3_free(sql);
}

static void test_growth_while_scanning(void) {
    sqlite3 *db = open_memory();
    static const char reset[] = "UPDATE t SET f = bloom_empty(1, 0.01, 'scalable')";
    exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, f BLOB, x INTEGER);"
             "CREATE TABLE s(j INTEGER PRIMARY KEY);"
             "INSERT INTO s WITH RECURSIVE c(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM c WHERE "
             "j < 20) SELECT j FROM c;"
             "INSERT INTO t(id, x) SELECT j, j FROM s;"
             "INSERT INTO t(id, x) SELECT j + 20, j + 20 FROM s;"
             "INSERT INTO t(id, x) SELECT j + 40, j + 40 FROM s WHERE j <= 10;");
    exec(db, reset);
    /* Each row's cell grows 5 times (stages of 1, 2, 4, 8 and 16 keys) while the cursor on t
    ** stands on it, in autocommit and in a transaction. */
    static const char outer[] =
        "SELECT count(*) || ' ' || sum(r) FROM (SELECT bloom_add_in_place('t', 'f', t.id, "
        "t.x * 1000 + s.j) AS r FROM t CROSS JOIN s)";
    CHECK_STR(run(db, outer), "1000 1000");
    check_rows_built(db, "SELECT t.x * 1000 + j AS k FROM s ORDER BY j");
    CHECK_STR(run(db, "SELECT json_extract(bloom_info(f), '$.stage_count') FROM t WHERE id = 1"),
              "5");
    exec(db, reset);
    exec(db, "BEGIN");
    CHECK_STR(run(db, outer), "1000 1000");
    exec(db, "COMMIT");
    check_rows_built(db, "SELECT t.x * 1000 + j AS k FROM s ORDER BY j");
    /* The scan of t inside: every cell it passes grows, over and over. */
    exec(db, reset);
    CHECK_STR(run(db, "SELECT count(*) || ' ' || sum(r) FROM (SELECT bloom_add_in_place('t', 'f', "
                      "t.id, t.x * 1000 + s.j) AS r FROM s CROSS JOIN t)"),
              "1000 1000");
    check_rows_built(db, "SELECT t.x * 1000 + j AS k FROM s ORDER BY j");
    /* Every row's x into the cell of row 1, which the scan passes as it grows. */
    exec(db, reset);
    CHECK_STR(run(db, "SELECT count(*) || ' ' || sum(bloom_add_in_place('t', 'f', 1, x)) FROM t"),
              "50 50");
    CHECK_STR(run(db, "SELECT f = (SELECT bloom_build(x, 1, 0.01, 'scalable') FROM (SELECT x FROM "
                      "t ORDER BY id)) FROM t WHERE id = 1"),
              "1");
    CHECK_STR(run(db, "SELECT count(*) FROM t AS a, t AS b WHERE b.id = 1 AND NOT "
                      "bloom_might_contain(b.f, a.x)"),
              "0");
    sqlite3_close(db);
}

/* Ignores PRAGMA table_list, as an authorizer may to hide the list of tables. */
static int ignore_table_list(void *arg, int action, const char *a, const char *b,
                             const char *schema, const char *trigger) {
    (void)arg, (void)b, (void)schema, (void)trigger;
    return action == SQLITE_PRAGMA && a != NULL && strcmp(a, "table_list") == 0 ? SQLITE_IGNORE
                                                                                : SQLITE_OK;
}

/* Steps stmt once more: its second column as text, or "error N: message". */
static const char *step_text(sqlite3 *db, sqlite3_stmt *stmt) {
    static char out[512];
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        snprintf(out, sizeof out, "%s", (const char *)sqlite3_column_text(stmt, 1));
    } else {
        snprintf(out, sizeof out, "error %d: %s", rc, sqlite3_errmsg(db));
    }
    return out;
}

/*
** Another connection changes the schema while a statement that holds no lock (it reads no
** table) calls a writer row by row: the checks made for the first row are made again, so a
** trigger created since is refused, and a table rebuilt with a column called rowid that is not
** its rowid is written at the rowid the call names, not at the row the stale name finds. And a
** table PRAGMA table_list does not list (an authorizer hides it, or an eponymous virtual table)
** is refused: whether it is a shadow table cannot be told.
*/
static void test_schema_changes(const char *scratch) {
    char *path = sqlite3_mprintf("%s.schema_changes.db", scratch);
    remove_database(path);
    sqlite3 *a = open_db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    sqlite3 *b = open_db(path, SQLITE_OPEN_READWRITE);
    const char *rows =
        "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3) "
        "SELECT i, bloom_add_in_place('t', 'f', 1, 'k' || i) FROM c";
    sqlite3_stmt *stmt = NULL;

    exec(a, "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, f BLOB);"
            "INSERT INTO t VALUES (1, 'x', bloom_empty(100, 0.01));"
            "CREATE TABLE log(n INTEGER)");
    CHECK(sqlite3_prepare_v2(a, rows, -1, &stmt, NULL) == SQLITE_OK);
    CHECK_STR(step_text(a, stmt), "1");
    exec(b, "CREATE TRIGGER t_f AFTER UPDATE OF f ON t BEGIN INSERT INTO log VALUES (1); END");
    CHECK_STR(step_text(a, stmt),
              "error 1: bloom_add_in_place: cannot write main.t.f in place: an UPDATE of it fires "
              "a trigger, which a write in place would not; use UPDATE main.t SET f = "
              "bloom_add(f, key) WHERE rowid = 1 instead");
    sqlite3_finalize(stmt);
    CHECK_STR(run(a, "SELECT bloom_might_contain(f, 'k1') || bloom_might_contain(f, 'k2') FROM t"),
              "10");
    CHECK_STR(run(a, "SELECT count(*) FROM log"), "0");
    CHECK_STR(run(a, "PRAGMA integrity_check"), "ok");

    exec(a, "DROP TABLE t; CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, f BLOB);"
            "INSERT INTO t VALUES (1, 'x', bloom_empty(100, 0.01, 'scalable'))");
    CHECK(sqlite3_prepare_v2(a, rows, -1, &stmt, NULL) == SQLITE_OK);
    CHECK_STR(step_text(a, stmt), "1");
    exec(b, "DROP TABLE t; CREATE TABLE t(rowid INTEGER, name TEXT, f BLOB);"
            "INSERT INTO t(_rowid_, rowid, name, f) VALUES"
            " (1, 2, 'x', bloom_add(bloom_add(bloom_empty(2, 0.01, 'scalable'), 'a'), 'b')),"
            " (2, 1, 'y', bloom_add(bloom_empty(100, 0.01, 'scalable'), 'secret'))");
    CHECK_STR(step_text(a, stmt), "1"); /* grows the filter of _rowid_ 1 */
    CHECK_STR(step_text(a, stmt), "1");
    sqlite3_finalize(stmt);
    CHECK_STR(run(a, "SELECT group_concat(bloom_might_contain(f, 'k2') || "
                     "bloom_might_contain(f, 'secret') || bloom_might_contain(f, 'a'), ' ') "
                     "FROM (SELECT f FROM t ORDER BY _rowid_)"),
              "101 010");
    CHECK_STR(run(a, "PRAGMA integrity_check"), "ok");

    exec(a, "CREATE VIRTUAL TABLE ft USING fts5(c0);"
            "INSERT INTO ft VALUES (bloom_empty(10, 0.01))");
    sqlite3_db_config(a, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_set_authorizer(a, ignore_table_list, NULL);
    /* Before 3.37 there is no PRAGMA table_list: the older guards refuse instead. */
    const int lists_tables = sqlite3_libversion_number() >= 3037000;
    CHECK_STR(run(a, "SELECT bloom_add_in_place('ft_content', 'c0', 1, 'x')"),
              lists_tables
                  ? "error 1: bloom_add_in_place: cannot update main.ft_content.c0: PRAGMA "
                    "table_list does not list main.ft_content (an eponymous virtual table, or one "
                    "an authorizer hides), so what kind of table it is cannot be told"
                  : "error 1: bloom_add_in_place: cannot write main.ft_content.c0 in place: "
                    "defensive mode is on, and before SQLite 3.37 this code cannot tell shadow "
                    "tables, which defensive mode keeps read-only");
    sqlite3_set_authorizer(a, NULL, NULL);
    sqlite3_db_config(a, SQLITE_DBCONFIG_DEFENSIVE, 0, NULL);
    CHECK_STR(run(a, "SELECT bloom_might_contain_in_place('json_each', 'value', 1, 'x')"),
              lists_tables
                  ? "error 1: bloom_might_contain_in_place: cannot read main.json_each.value: "
                    "PRAGMA table_list does not list main.json_each (an eponymous virtual table, "
                    "or one an authorizer hides), so what kind of table it is cannot be told"
                  : "error 1: bloom_might_contain_in_place: cannot read main.json_each.value: "
                    "main.json_each has no rowid");
    sqlite3_close(b);
    sqlite3_close(a);
    remove_database(path);
    sqlite3_free(path);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s EXTENSION SCRATCH\n", argv[0]);
        return 2;
    }
    extension_path = argv[1];
    wrap_sqlite_allocator(&default_allocator, failing_malloc, failing_realloc, "test_in_place");
    test_authorizer();
    test_trusted_schema();
    test_read_only(argv[2]);
    test_transactions(argv[2]);
    test_equivalence();
    test_static_kinds();
    test_out_of_memory(argv[2]);
    test_pages_written(argv[2]);
    test_growth_while_scanning();
    test_schema_changes(argv[2]);
    CHECK_U64(sqlite3_memory_used(), 0);
    return check_report("test_in_place");
}
