/*
** test_in_place.c: bloom_add_in_place, bloom_remove_in_place and
** bloom_might_contain_in_place through SQLite's C API (rule 19 (in place)).
**
** Usage: test_in_place EXTENSION SCRATCH
**
** SCRATCH is a path prefix for the database files the test creates
** (SCRATCH.readonly.db, SCRATCH.transactions.db). Checks
**  1. the application's authorizer: denying the UPDATE of the filters table
**     stops the writers, denying the READ of the filter column stops all three,
**     with SQLITE_AUTH and the message, the BLOB byte-identical; allowing
**     everything, or denying another table only, does not stop them;
**  2. trusted_schema = OFF: the writers are refused in a trigger or view of
**     the main schema, work in a TEMP trigger; the probe works in a view;
**  3. a read-only database and PRAGMA query_only: the writers fail, the BLOB
**     unchanged; the probe works;
**  4. ROLLBACK, ROLLBACK TO, and a trigger's RAISE(ABORT) in autocommit and in
**     an explicit transaction undo what the writers wrote;
**  5. for each kind, 2,000 keys of every SQL type added in place give the bytes
**     of bloom_add and of bloom_build, probing in place agrees with
**     bloom_might_contain on 10,000 keys, and (counting, cuckoo) removing half in place
**     gives the bytes of bloom_remove;
**  6. the Nth allocation failing while a writer runs, once or persistently,
**     for N = 1, 2, ... until a run makes fewer: an error, the BLOB
**     byte-identical, the connection usable.
** Lookaside is off, so that every allocation reaches the allocator.
*/
#include <sqlite3.h>

#include "allocator.h"
#include "check.h"

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

/* Removes a database file and its journals. */
static void remove_database(const char *path) {
    static const char *suffixes[] = {"", "-journal", "-wal", "-shm"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char *name = sqlite3_mprintf("%s%s", path, suffixes[i]);
        remove(name);
        sqlite3_free(name);
    }
}

/* Runs sql, which must succeed. */
static void exec(sqlite3 *db, const char *sql) {
    char *err = NULL;
    if (!CHECK(sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK)) {
        fprintf(stderr, "    %s\n    %s\n", sql, err ? err : "?");
    }
    sqlite3_free(err);
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
    int first = 1;
    while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (first) {
            int type = sqlite3_column_type(stmt, 0);
            if (type == SQLITE_NULL) {
                snprintf(out, sizeof out, "NULL");
            } else if (type == SQLITE_BLOB) {
                snprintf(out, sizeof out, "blob(%d)", sqlite3_column_bytes(stmt, 0));
            } else {
                snprintf(out, sizeof out, "%s", (const char *)sqlite3_column_text(stmt, 0));
            }
        }
        first = 0;
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_OK && rc != SQLITE_DONE) {
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

/* The filters every test starts from: 1 standard, 2 counting, 3 blocked, each holding 'k'. */
static const char filters_sql[] =
    "CREATE TABLE filters(id INTEGER PRIMARY KEY, name TEXT, f BLOB);"
    "INSERT INTO filters VALUES"
    " (1, 'standard', bloom_add(bloom_empty(1000, 0.01), 'k')),"
    " (2, 'counting', bloom_add(bloom_empty(1000, 0.01, 'counting'), 'k')),"
    " (3, 'blocked', bloom_add(bloom_empty(1000, 0.01, 'blocked'), 'k'));";

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

static void test_authorizer(void) {
    sqlite3 *db = open_memory();
    exec(db, filters_sql);
    exec(db, "CREATE TABLE other(id INTEGER PRIMARY KEY, f BLOB);"
             "INSERT INTO other VALUES (1, bloom_empty(100, 0.01))");
    bytes standard = read_cell(db, 1), counting = read_cell(db, 2);

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
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK(cell_is(db, 1, &standard));
    CHECK(cell_is(db, 2, &counting));

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
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK(cell_is(db, 1, &standard));
    CHECK(cell_is(db, 2, &counting));

    /* An authorizer that allows everything: it is asked, and the three work. */
    sqlite3_set_authorizer(db, allow_all, NULL);
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'new key')"), "1");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"), "1");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 1, 'new key')"), "1");
    CHECK(asked.update_f);
    CHECK(asked.read_f);
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK(!cell_is(db, 1, &standard));
    CHECK_STR(
        run_blob(db, "SELECT f = bloom_add(?1, 'new key') FROM filters WHERE id = 1", &standard),
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
              "error 23: bloom_add_in_place: cannot update main.other.f: access to other.f is "
              "prohibited");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('other', 'f', 1, 'k')"),
              "error 23: bloom_might_contain_in_place: cannot read main.other.f: access to "
              "other.f is prohibited");
    sqlite3_set_authorizer(db, NULL, NULL);
    CHECK_STR(run(db, "SELECT json_extract(bloom_info(f), '$.keys_added') FROM other"), "0");

    bytes_free(&standard);
    bytes_free(&counting);
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
         "CREATE VIEW add_view AS SELECT bloom_add_in_place('filters', 'f', 1, 'view key') AS c;");
    /* The flags this rests on: the writers neither deterministic nor innocuous, the probe
    ** innocuous (0x200000) but not deterministic. */
    CHECK_STR(run(db, "SELECT group_concat(name || ' ' || flags, ', ') FROM (SELECT name, flags "
                      "FROM pragma_function_list WHERE name LIKE 'bloom%in_place' AND narg = 4 "
                      "ORDER BY name)"),
              "bloom_add_in_place 0, bloom_might_contain_in_place 2097152, "
              "bloom_remove_in_place 0");
    CHECK(sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL) == SQLITE_OK);
    CHECK_STR(run(db, "PRAGMA trusted_schema"), "0");
    bytes standard = read_cell(db, 1), counting = read_cell(db, 2);

    CHECK_STR(run(db, "INSERT INTO log VALUES ('trigger key')"),
              "error 1: unsafe use of bloom_add_in_place()");
    CHECK_STR(run(db, "INSERT INTO removals VALUES ('k')"),
              "error 1: unsafe use of bloom_remove_in_place()");
    CHECK_STR(run(db, "SELECT c FROM add_view"), "error 1: unsafe use of bloom_add_in_place()");
    CHECK(cell_is(db, 1, &standard));
    CHECK(cell_is(db, 2, &counting));
    CHECK_STR(run(db, "SELECT count(*) FROM log"), "0");

    /* A TEMP trigger is the application's own: it may. */
    CHECK_STR(run(db, "INSERT INTO temp_log VALUES ('temp key')"), "");
    CHECK(!cell_is(db, 1, &standard));
    CHECK_STR(
        run_blob(db, "SELECT f = bloom_add(?1, 'temp key') FROM filters WHERE id = 1", &standard),
        "1");
    /* The probe is innocuous: a view of the main schema may call it. */
    CHECK_STR(run(db, "SELECT c FROM probe_view"), "1");

    /* With the schema trusted, the same trigger works. */
    CHECK(sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 1, NULL) == SQLITE_OK);
    CHECK_STR(run(db, "INSERT INTO log VALUES ('trigger key')"), "");
    CHECK_STR(run(db, "SELECT bloom_might_contain_in_place('filters', 'f', 1, 'trigger key')"),
              "1");

    bytes_free(&standard);
    bytes_free(&counting);
    sqlite3_close(db);
}

/* ---- 3. Read-only. */

static void test_read_only(const char *scratch) {
    char *path = sqlite3_mprintf("%s.readonly.db", scratch);
    remove_database(path);
    sqlite3 *db = open_db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    exec(db, filters_sql);
    bytes standard = read_cell(db, 1), counting = read_cell(db, 2);
    sqlite3_close(db);

    /* Opened read-only. */
    db = open_db(path, SQLITE_OPEN_READONLY);
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
    sqlite3_close(db);

    bytes_free(&standard);
    bytes_free(&counting);
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
             "  SELECT RAISE(ABORT, 'events: refused') WHERE NEW.fail; END;");
    bytes before = read_cell(db, 1), counting = read_cell(db, 2);

    /* BEGIN ... ROLLBACK. */
    exec(db, "BEGIN");
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'rolled back')"), "1");
    CHECK_STR(run(db, "SELECT bloom_remove_in_place('filters', 'f', 2, 'k')"), "1");
    CHECK(!cell_is(db, 1, &before));
    exec(db, "ROLLBACK");
    CHECK(cell_is(db, 1, &before));
    CHECK(cell_is(db, 2, &counting));

    /* SAVEPOINT ... ROLLBACK TO. */
    exec(db, "SAVEPOINT sp");
    CHECK_STR(run(db, "SELECT bloom_add_in_place('filters', 'f', 1, 'savepoint key')"), "1");
    exec(db, "ROLLBACK TO sp; RELEASE sp");
    CHECK(cell_is(db, 1, &before));

    /* In autocommit: the trigger adds, then the statement aborts. */
    CHECK_STR(run(db, "INSERT INTO events VALUES ('aborted', 1)"), "error 19: events: refused");
    CHECK(cell_is(db, 1, &before));
    CHECK_STR(run(db, "INSERT INTO events VALUES ('remove', 1)"), "error 19: events: refused");
    CHECK(cell_is(db, 2, &counting));
    /* Three rows, three calls, the third row aborts: none of them stays. */
    CHECK_STR(run(db, "INSERT INTO events VALUES ('a', 0), ('b', 0), ('c', 1)"),
              "error 19: events: refused");
    CHECK(cell_is(db, 1, &before));
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

    bytes_free(&before);
    bytes_free(&counting);
    bytes_free(&kept);
    bytes_free(&accepted);
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
    ** times; its equivalences are in tests/sql/kinds.sql. */
    static const char *kinds[] = {"standard", "blocked", "counting"};
    sqlite3 *db = open_memory();
    exec(db, keys_sql);
    exec(db, "CREATE TABLE filters(id INTEGER PRIMARY KEY, name TEXT, f BLOB);");
    CHECK_STR(run(db, "SELECT count(*) FROM keys"), "2000");
    CHECK_STR(run(db, "SELECT count(k) || ' ' || count(DISTINCT typeof(k)) FROM keys"), "1950 5");
    CHECK_STR(run(db, "SELECT count(*) FROM probes"), "10000");
    for (int kind = 0; kind < (int)(sizeof kinds / sizeof kinds[0]); kind++) {
        int id = kind + 1;
        char *sql =
            sqlite3_mprintf("INSERT INTO filters VALUES (%d, %Q, bloom_empty(2000, 0.01, %Q))", id,
                            kinds[kind], kinds[kind]);
        exec(db, sql);
        sqlite3_free(sql);
        bytes reference = read_cell(db, id);

        /* One key at a time: in place, and by bloom_add on a copy, whose probe before says
        ** what bloom_add_in_place must answer. */
        sqlite3_stmt *add_value = NULL, *add_in_place = NULL;
        CHECK(sqlite3_prepare_v2(db,
                                 "SELECT 1 - bloom_might_contain(?1, k), bloom_add(?1, k) "
                                 "FROM keys WHERE i = ?2",
                                 -1, &add_value, NULL) == SQLITE_OK);
        sql = sqlite3_mprintf(
            "SELECT bloom_add_in_place('filters', 'f', %d, k) FROM keys WHERE i = ?2", id);
        CHECK(sqlite3_prepare_v2(db, sql, -1, &add_in_place, NULL) == SQLITE_OK);
        sqlite3_free(sql);
        int mismatches = 0, was_absent = 0;
        for (int i = 1; i <= 2000; i++) {
            sqlite3_bind_blob(add_value, 1, reference.data, reference.length, SQLITE_TRANSIENT);
            row expected = step_key(add_value, i, &reference);
            row got = step_key(add_in_place, i, NULL);
            if (expected.rc != SQLITE_ROW || strcmp(expected.value, got.value) != 0) {
                if (mismatches++ < 5) {
                    fprintf(stderr, "    %s, key %d: in place %s (%s), expected %s\n", kinds[kind],
                            i, got.value, sqlite3_errmsg(db), expected.value);
                }
            }
            was_absent += strcmp(got.value, "1") == 0;
        }
        sqlite3_finalize(add_value);
        sqlite3_finalize(add_in_place);
        CHECK_U64(mismatches, 0);
        CHECK(was_absent > 1000 && was_absent < 1950); /* repeats answered 0 */
        CHECK(cell_is(db, id, &reference));
        sql = sqlite3_mprintf("SELECT (SELECT f FROM filters WHERE id = %d) = bloom_build(k, 2000, "
                              "0.01, %Q) FROM (SELECT k FROM keys ORDER BY i)",
                              id, kinds[kind]);
        CHECK_STR(run(db, sql), "1");
        sqlite3_free(sql);
        sql = sqlite3_mprintf(
            "SELECT json_extract(bloom_info(f), '$.keys_added') FROM filters WHERE id = %d", id);
        CHECK_STR(run(db, sql), "1950");
        sqlite3_free(sql);

        /* 10,000 probes: in place and on the value agree; every key added answers 1. */
        sql = sqlite3_mprintf(
            "SELECT count(*) || ' ' || sum(a IS NOT b) || ' ' || sum(a) FILTER (WHERE i <= 2000) "
            "|| ' ' || (sum(a) FILTER (WHERE i > 2000) = sum(b) FILTER (WHERE i > 2000)) FROM "
            "(SELECT i, bloom_might_contain_in_place('filters', 'f', %d, k) AS a, "
            "bloom_might_contain(?1, k) AS b FROM probes)",
            id);
        CHECK_STR(run_blob(db, sql, &reference), "10000 0 1950 1");
        sqlite3_free(sql);

        if (strcmp(kinds[kind], "counting") == 0 || strcmp(kinds[kind], "cuckoo") == 0) {
            /* Every other key removed, in place and by bloom_remove on the copy. */
            sqlite3_stmt *remove_value = NULL, *remove_in_place = NULL;
            CHECK(sqlite3_prepare_v2(
                      db,
                      "SELECT CASE WHEN k IS NULL THEN NULL ELSE 1 END, bloom_remove(?1, k) "
                      "FROM keys WHERE i = ?2",
                      -1, &remove_value, NULL) == SQLITE_OK);
            sql = sqlite3_mprintf(
                "SELECT bloom_remove_in_place('filters', 'f', %d, k) FROM keys WHERE i = ?2", id);
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
            sql = sqlite3_mprintf("SELECT count(*) FROM keys WHERE i %% 2 = 1 AND k IS NOT NULL "
                                  "AND NOT bloom_might_contain_in_place('filters', 'f', %d, k)",
                                  id);
            CHECK_STR(run(db, sql), "0");
            sqlite3_free(sql);
        }
        bytes_free(&reference);
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
    test_out_of_memory(argv[2]);
    CHECK_U64(sqlite3_memory_used(), 0);
    return check_report("test_in_place");
}
