/*
** fuzz_sql.c: libFuzzer target for every SQL function of the extension, with
** fuzzed values bound to statements on an in-memory database.
**
** Input (see fuzz_input.h for values):
**   1 byte   configuration: modulo 3, the database's text encoding; divided by 4, modulo 8,
**            the SQLITE_LIMIT_LENGTH (0: 1 MB, which bounds every filter bloom_build makes;
**            others small, to cut error messages and refuse long values); bit 5, PRAGMA
**            query_only for the in-place functions; bit 6, the in-place functions in a
**            transaction that is rolled back
**   3 values ?1 (a filter), ?2 (a key), ?3 (another filter); ?4 is built from the rows
**   1 byte   modulo 9, the number of rows of the table rows(key, n, p, layout)
**   4 values per row: its key, n, p and layout, for bloom_build
**   1 byte   the target of the in-place functions' second round (0, or the input's end: the
**            cell of ?1): bits 0-2 the table, 3-4 the column (target_tables, target_columns),
**            5-7 the rowid (1, 2, 3, 99, 1.0, 1.5, '1', 'x')
**
** Any result or error is fine, but for the statements marked as probes: every column of
** every row they return is NULL or 1 (a key added probes 1, bloom_info is valid JSON).
** The statements are prepared before the length limit is set: it also limits SQL text.
**
** The union of the filters built over groups of the rows, when there is one, answers 1 for
** every key of the rows, whatever the kind (a cuckoo filter's union is not byte for byte the
** filter of every row, rule 21 (cuckoo)).
**
** The in-place functions work on the table cells(f, g), whose rows 1, 2 and 3 hold ?1, ?3 and
** ?4 in f (what fits the length limit) and an INTEGER in g, and on tables with ?1 in row 1 that
** they must refuse or that the authorizer guards. Every call answers NULL, 0 or 1, or is an
** error. Their first round, on the cell of ?1 with the key ?2, checks (rule 19 (in place)):
** bloom_might_contain_in_place answers as bloom_might_contain; bloom_add_in_place fails with
** the error "no room" exactly when bloom_add of the cell does (a cuckoo filter, rule 21
** (cuckoo)); after bloom_add_in_place succeeds, the cell is byte for byte bloom_add of what it
** held, the answer is 1 when bloom_might_contain answered 0 before, and the key probes 1 in
** place and with bloom_might_contain; bloom_remove_in_place then succeeds on a kind that
** removes, the cell becoming bloom_remove of what it held (for a counting filter, the filter
** before the add when no counter reached 15; for a cuckoo filter, one that answers as the
** filter before the add for ?2 and every key of the rows, with as many slots in use), and fails
** on any other kind; a call that fails or has a NULL key changes no cell. The second round
** calls the three on the chosen target: any answer or error, no cell changed by an error.
** With bit 6, the rollback restores every cell. The in-place functions may also fail with
** SQLITE_AUTH (the authorizer) and SQLITE_READONLY (query_only).
*/
#include "filter_kinds.h"
#include "counting_core.h"
#include "countmin_core.h"
#include "cuckoo_core.h"
#include "fuzz_db.h"

#include <stdint.h>

#include <stdlib.h>
#include <string.h>

/* The configuration bits of the in-place functions. */
enum { QUERY_ONLY = 32, ROLLED_BACK = 64 };

/* The tables of the in-place functions. locked: the authorizer denies its updates and reads
** NULL for its f; indexed: f cannot be opened for writing; no_rowid: no rowid to name. */
static const char schema[] = "CREATE TABLE rows(key, n, p, layout);"
                             "CREATE TABLE cells(f, g);"
                             "CREATE TABLE locked(f, g);"
                             "CREATE TABLE indexed(f, g); CREATE INDEX indexed_f ON indexed(f);"
                             "CREATE TABLE no_rowid(id INTEGER PRIMARY KEY, f, g) WITHOUT ROWID;"
                             "CREATE VIEW cells_view AS SELECT f, g FROM cells;";

/* The cells' rows: ?1, ?3 and ?4 in f; an INTEGER in g. (No text: under a small length limit a
** UTF-16 database refuses it.) */
static const char *const fill_sql[] = {
    "INSERT INTO cells(rowid, f, g) VALUES (?1, ?2, 42)",
    "INSERT INTO locked(rowid, f, g) VALUES (?1, ?2, 42)",
    "INSERT INTO indexed(rowid, f, g) VALUES (?1, ?2, 42)",
    "INSERT INTO no_rowid(id, f, g) VALUES (?1, ?2, 42)",
};

/* Every cell of the tables, for the checks that nothing changed. */
static const char snapshot_sql[] =
    "SELECT 1, rowid, f, g FROM cells UNION ALL SELECT 2, rowid, f, g FROM locked "
    "UNION ALL SELECT 3, rowid, f, g FROM indexed UNION ALL SELECT 4, id, f, g FROM no_rowid";

/* The targets of the second round: TABLE, COLUMN and ROWID, chosen by a byte. */
static const char *const target_tables[8] = {
    "cells",   "main.CELLS", "temp.cells", "locked",
    "indexed", "cells_view", "no_rowid",   NULL, /* the INTEGER 7 */
};
static const char *const target_columns[4] = {"f", "F", "g", "nosuch"};
enum { ROWID_CHOICES = 8 };

/* The parameters: ?1 a filter, ?2 a key, ?3 a filter (from the input), ?4 the filter
** bloom_build(key, n, p, layout) makes of the table rows. */
enum { PARAMETER_BUILT = 3, PARAMETERS = 4, MAX_ROWS = 8, ROW_VALUES = 4 };

/* The statement whose result is ?4. */
static const char build_rows_sql[] = "SELECT bloom_build(key, n, p, layout) FROM rows";

/* The statements run on every input, with the parameters bound. Few of them size a filter
** from the rows: a blocked filter at p = 1e-19 takes 0.4 s to size (4 s with the sanitizers),
** and each bloom_build of the rows sizes again. */
static const struct {
    const char *sql;
    int probes; /* every column of every row is NULL or 1 */
} statements[] = {
    {"SELECT bloom_version()", 0},
    {"SELECT bloom_might_contain(?1, ?2)", 0},
    {"SELECT bloom_might_contain(?3, ?2)", 0},
    {"SELECT bloom_info(?1)", 0},
    {"SELECT bloom_info(?3)", 0},
    {"SELECT json_valid(i) FROM (SELECT bloom_info(?1) AS i) WHERE i IS NOT NULL", 1},
    {"SELECT bloom_add(?1, ?2)", 0},
    {"SELECT bloom_might_contain(bloom_add(?1, ?2), ?2)", 1},
    {"SELECT bloom_union(?1, ?3)", 0},
    {"SELECT bloom_union(?3, ?1)", 0},
    {"SELECT json_valid(i) FROM (SELECT bloom_info(bloom_union(?1, ?1)) AS i) "
     "WHERE i IS NOT NULL",
     1},
    {"SELECT bloom_union(column1) FROM (VALUES (?1), (?3), (?2))", 0},
    {"SELECT bloom_might_contain(bloom_union(column1), ?2) FROM (VALUES (?1), (?3))", 0},
    {"SELECT bloom_build(?2), bloom_build(?1), bloom_build(?3)", 0},
    {"SELECT bloom_build(key) FROM rows", 0},
    {"SELECT bloom_might_contain(f, key) FROM (SELECT bloom_build(key) AS f FROM rows), rows", 1},
    {"SELECT bloom_build(key, n, p) FROM rows", 0},
    {"SELECT bloom_might_contain(u, key) FROM (SELECT bloom_union(f) AS u FROM (SELECT "
     "bloom_build(key, n, p, layout) AS f FROM rows GROUP BY rowid % 2)), rows",
     1},
    {"SELECT bloom_might_contain(?4, key) FROM rows", 1},
    {"SELECT json_valid(i) FROM (SELECT bloom_info(?4) AS i) WHERE i IS NOT NULL", 1},
    {"SELECT bloom_add(?4, ?2), bloom_union(?4, ?1), bloom_union(?4, ?4)", 0},
    {"SELECT bloom_union(key), bloom_union(n), bloom_union(layout) FROM rows", 0},
    {"SELECT bloom_might_contain(key, n), bloom_add(key, p), bloom_info(layout) FROM rows", 0},
    {"SELECT bloom_remove(?1, ?2)", 0},
    {"SELECT bloom_remove(?3, ?2), bloom_remove(bloom_handle(?1), ?2)", 0},
    {"SELECT bloom_remove(?4, key), bloom_remove(key, ?4) FROM rows", 0},
    /* Removing a key just added takes no other key's count. */
    {"SELECT bloom_might_contain(bloom_remove(bloom_add(?4, ?2), ?2), key) FROM rows", 1},
    /* A scalable filter of n = 1 grows to hold every key of the rows (rule 22 (scalable)). */
    {"SELECT bloom_might_contain(f, key) FROM (SELECT bloom_build(key, 1, p, 'scalable') AS f "
     "FROM rows), rows",
     1},
    {"SELECT bloom_might_contain(bloom_add(bloom_add(?4, ?2), key), key) FROM rows", 1},
    /* The count-min functions on the fuzzed values (rule 23 (count-min sketch)). */
    /* Spark's bytes (rule 32 (Spark filters)): any BLOB read as them, any filter written as them;
    ** bytes that are read write back the same, and a key added to their filter probes 1. */
    {"SELECT bloom_from_spark(?1), bloom_from_spark(?3), bloom_to_spark(?1), bloom_to_spark(?4)",
     0},
    {"SELECT bloom_to_spark(bloom_from_spark(?1)) = ?1", 1},
    {"SELECT bloom_might_contain(bloom_add(bloom_from_spark(?1), ?2), ?2)", 1},
    {"SELECT cms_info(?1), cms_add(?1, ?2), cms_add(?1, ?2, ?2)", 0},
    {"SELECT cms_count(?1, ?2)", 0},
    {"SELECT cms_union(?1, ?3), cms_union(?3, ?1), cms_info(?3), cms_count(?3, ?2)", 0},
    {"SELECT cms_union(column1) FROM (VALUES (?1), (?3), (?2))", 0},
    {"SELECT json_valid(i) FROM (SELECT cms_info(?1) AS i) WHERE i IS NOT NULL", 1},
    {"SELECT cms_count(cms_add(?1, ?2, 5), ?2) = cms_count(?1, ?2) + 5", 1},
    {"SELECT cms_build(key, p, p), cms_build(key, n, p, p), cms_build(key, n, p, p, layout) "
     "FROM rows",
     0},
    {"SELECT cms_build(key, p, p, layout) FROM rows", 0},
    {"SELECT cms_empty(p, p), cms_empty(p, p, layout), cms_build(?2, ?2, ?2), "
     "cms_empty(?2, ?2, ?2) FROM rows",
     0},
    {"SELECT cms_count(key, n), cms_add(key, p), cms_info(layout), cms_union(key) FROM rows", 0},
    /* A sketch's estimates are at least the counts of the rows' keys (t), the conservative
    ** update's at most the plain one's, also for the union of groups; the plain groups' union
    ** is the sketch of every row; adding 5 to a key adds 5 to its estimate. */
    {"SELECT cms_count(s, key) >= t AND cms_count(c, key) >= t AND cms_count(c, key) <= "
     "cms_count(s, key) FROM (SELECT cms_build(key, n, 0.05, 0.05) AS s, cms_build(key, n, 0.05, "
     "0.05, 'conservative') AS c FROM rows), (SELECT key, (SELECT sum(CAST(n AS INTEGER)) FROM "
     "rows AS r WHERE r.key IS rows.key) AS t FROM rows WHERE key IS NOT NULL)",
     1},
    {"SELECT cms_count(u, key) >= t AND cms_count(v, key) >= t FROM (SELECT cms_union(s) AS u, "
     "cms_union(c) AS v FROM (SELECT cms_build(key, n, 0.05, 0.05) AS s, cms_build(key, n, 0.05, "
     "0.05, 'conservative') AS c FROM rows GROUP BY rowid % 2)), (SELECT key, (SELECT "
     "sum(CAST(n AS INTEGER)) FROM rows AS r WHERE r.key IS rows.key) AS t FROM rows WHERE key IS "
     "NOT NULL)",
     1},
    {"SELECT cms_union(s) = (SELECT cms_build(key, n, 0.05, 0.05) FROM rows) FROM (SELECT "
     "cms_build(key, n, 0.05, 0.05) AS s FROM rows GROUP BY rowid % 2)",
     1},
    {"SELECT cms_count(cms_add(s, key, 5), key) = cms_count(s, key) + 5 FROM (SELECT "
     "cms_build(key, n, 0.05, 0.05, 'conservative') AS s FROM rows), rows",
     1},
};

/* The statements that call the in-place functions, run after the rounds (see fuzz_db_step for
** their result codes), on every cell. */
static const char *const in_place_statements[] = {
    "SELECT bloom_might_contain_in_place('cells', 'f', rowid, ?2) FROM cells",
    "SELECT bloom_add_in_place('cells', 'f', cells.rowid, key) FROM cells, rows",
    "SELECT bloom_might_contain_in_place('main.cells', 'f', cells.rowid, key) FROM cells, rows",
    "SELECT bloom_remove_in_place('cells', 'f', cells.rowid, key) FROM cells, rows",
    "UPDATE cells SET g = bloom_add_in_place('cells', 'f', rowid, ?2) WHERE rowid = 2",
    "SELECT bloom_add_in_place('cells', 'f', 1, ?2), bloom_remove_in_place('cells', 'f', 1, ?2)",
    "SELECT bloom_add_in_place(?1, ?3, ?4, ?2)",
    "SELECT bloom_add_in_place('cells', 'f', 1)",
    "SELECT cms_add_in_place('cells', 'f', cells.rowid, key, n) FROM cells, rows",
    "SELECT cms_count_in_place('cells', 'f', 1, ?2), cms_add_in_place('cells', 'f', 2, ?2)",
    "SELECT cms_add_in_place(?1, ?3, ?4, ?2), cms_count_in_place(?1, ?3, ?4, ?2)",
    "SELECT cms_add_in_place('cells', 'f', 3, ?2, ?2), cms_count_in_place('cells', 'f', 3, ?1)",
};

/* SQLITE_LIMIT_LENGTH, chosen by the configuration byte. */
static const int length_limits[8] = {1 << 20, 0, 1, 40, 64, 100, 200, 1000};

/* Aborts unless every column of the current row of stmt is NULL or 1. */
static void check_probe_row(sqlite3_stmt *stmt) {
    for (int column = 0; column < sqlite3_column_count(stmt); column++) {
        int type = sqlite3_column_type(stmt, column);
        if (type != SQLITE_NULL &&
            (type != SQLITE_INTEGER || sqlite3_column_int64(stmt, column) != 1)) {
            fuzz_fail("%s: column %d is %s, not 1", sqlite3_sql(stmt), column,
                      (const char *)sqlite3_column_text(stmt, column));
        }
    }
}

/* Runs stmt, statement i of statements, with the parameters bound, and finalizes it. */
static void run_statement(sqlite3_stmt *stmt, size_t i, const fuzz_value *parameters) {
    int rc;
    for (int index = 1; index <= sqlite3_bind_parameter_count(stmt); index++) {
        fuzz_db_bind(stmt, index, &parameters[index - 1]);
    }
    while ((rc = fuzz_db_step(stmt)) == SQLITE_ROW) {
        if (statements[i].probes) {
            check_probe_row(stmt);
        }
    }
    fuzz_db_reset(stmt, rc);
    fuzz_db_finalize(stmt);
}

/* Runs build (build_rows_sql) and finalizes it; returns its result as a value, NULL after an
** error, with *copy the memory to free once the value is no longer used. */
static fuzz_value build_rows(sqlite3_stmt *build, uint8_t **copy) {
    fuzz_value built = {FUZZ_NULL, 0, 0.0, NULL, 0};
    int rc = fuzz_db_step(build);
    *copy = NULL;
    if (rc == SQLITE_ROW && sqlite3_column_type(build, 0) == SQLITE_BLOB) {
        built.length = (size_t)sqlite3_column_bytes(build, 0);
        *copy = malloc(built.length);
        if (*copy == NULL) {
            fuzz_fail("out of memory for %zu bytes", built.length);
        }
        memcpy(*copy, sqlite3_column_blob(build, 0), built.length);
        built.tag = FUZZ_BLOB;
        built.bytes = *copy;
    }
    if (rc == SQLITE_ROW) {
        rc = fuzz_db_step(build);
        if (rc != SQLITE_DONE) {
            fuzz_fail("%s gives more than a row", build_rows_sql);
        }
    }
    fuzz_db_reset(build, rc);
    fuzz_db_finalize(build);
    return built;
}

/* Fills the table rows from the input with insert. */
static void insert_rows(sqlite3_stmt *insert, fuzz_input *in) {
    int rows = fuzz_take_u8(in) % (MAX_ROWS + 1);
    for (int row = 0; row < rows; row++) {
        for (int index = 1; index <= ROW_VALUES; index++) {
            fuzz_value v = fuzz_take_value(in);
            fuzz_db_bind(insert, index, &v);
        }
        (void)fuzz_db_run(insert); /* a value too long for a UTF-16 database is an error */
    }
}

/* The authorizer of the databases: denies every update of the table locked and reads NULL for
** its column f; allows the rest. */
static int authorize(void *unused, int action, const char *a, const char *b, const char *database,
                     const char *trigger) {
    (void)unused;
    (void)database;
    (void)trigger;
    if (action == SQLITE_UPDATE && a != NULL && strcmp(a, "locked") == 0) {
        return SQLITE_DENY;
    }
    if (action == SQLITE_READ && a != NULL && b != NULL && strcmp(a, "locked") == 0 &&
        strcmp(b, "f") == 0) {
        return SQLITE_IGNORE;
    }
    return SQLITE_OK;
}

/* The in-place operations, and the functions each calls. */
enum { MIGHT_CONTAIN, ADD, REMOVE, OPERATIONS };
static const char *const in_place_sql[OPERATIONS] = {
    "SELECT bloom_might_contain_in_place(?1, ?2, ?3, ?4)",
    "SELECT bloom_add_in_place(?1, ?2, ?3, ?4)",
    "SELECT bloom_remove_in_place(?1, ?2, ?3, ?4)",
};
static const char *const plain_sql[OPERATIONS] = {
    "SELECT bloom_might_contain(?1, ?2)",
    "SELECT bloom_add(?1, ?2)",
    "SELECT bloom_remove(?1, ?2)",
};

/* The count-min functions of the sketch round: in place on the cell of ?1 with the key ?1, and
** on a value (?1) with the key ?2. */
enum { COUNT_IN_PLACE, ADD_IN_PLACE, CMS_COUNT, CMS_ADD, SKETCH_CALLS };
static const char *const sketch_sql[SKETCH_CALLS] = {
    "SELECT cms_count_in_place('cells', 'f', 1, ?1)",
    "SELECT cms_add_in_place('cells', 'f', 1, ?1, 3)",
    "SELECT cms_count(?1, ?2)",
    "SELECT cms_add(?1, ?2, 3)",
};

/* The statements of the in-place rounds, prepared before the length limit. */
typedef struct in_place {
    sqlite3_stmt *fill[sizeof fill_sql / sizeof fill_sql[0]];
    sqlite3_stmt *read_cell; /* f of cells' row 1 */
    sqlite3_stmt *snapshot;
    sqlite3_stmt *call[OPERATIONS];  /* (TABLE, COLUMN, ROWID, KEY) */
    sqlite3_stmt *plain[OPERATIONS]; /* (FILTER, KEY) */
    sqlite3_stmt *begin, *rollback;
    sqlite3_stmt *probe_rows; /* bloom_might_contain(FILTER, key) for each row of rows */
    sqlite3_stmt *sketch[SKETCH_CALLS];
    sqlite3_stmt *others[sizeof in_place_statements / sizeof in_place_statements[0]];
} in_place;

static void in_place_prepare(sqlite3 *db, in_place *ip) {
    for (size_t i = 0; i < sizeof ip->fill / sizeof ip->fill[0]; i++) {
        ip->fill[i] = fuzz_db_prepare(db, fill_sql[i]);
    }
    ip->read_cell = fuzz_db_prepare(db, "SELECT f FROM cells WHERE rowid = 1");
    ip->snapshot = fuzz_db_prepare(db, snapshot_sql);
    for (int op = 0; op < OPERATIONS; op++) {
        ip->call[op] = fuzz_db_prepare(db, in_place_sql[op]);
        ip->plain[op] = fuzz_db_prepare(db, plain_sql[op]);
    }
    ip->begin = fuzz_db_prepare(db, "BEGIN");
    ip->rollback = fuzz_db_prepare(db, "ROLLBACK");
    ip->probe_rows = fuzz_db_prepare(db, "SELECT bloom_might_contain(?1, key) FROM rows");
    for (int i = 0; i < SKETCH_CALLS; i++) {
        ip->sketch[i] = fuzz_db_prepare(db, sketch_sql[i]);
    }
    for (size_t i = 0; i < sizeof ip->others / sizeof ip->others[0]; i++) {
        ip->others[i] = fuzz_db_prepare(db, in_place_statements[i]);
    }
}

static void in_place_finalize(in_place *ip) {
    for (size_t i = 0; i < sizeof ip->fill / sizeof ip->fill[0]; i++) {
        fuzz_db_finalize(ip->fill[i]);
    }
    fuzz_db_finalize(ip->read_cell);
    fuzz_db_finalize(ip->snapshot);
    for (int op = 0; op < OPERATIONS; op++) {
        fuzz_db_finalize(ip->call[op]);
        fuzz_db_finalize(ip->plain[op]);
    }
    fuzz_db_finalize(ip->begin);
    fuzz_db_finalize(ip->rollback);
    fuzz_db_finalize(ip->probe_rows);
    for (int i = 0; i < SKETCH_CALLS; i++) {
        fuzz_db_finalize(ip->sketch[i]);
    }
    for (size_t i = 0; i < sizeof ip->others / sizeof ip->others[0]; i++) {
        fuzz_db_finalize(ip->others[i]);
    }
}

/* Runs stmt, which must succeed (a statement of the harness's own). */
static void run_own(sqlite3_stmt *stmt) {
    if (fuzz_db_run(stmt) != SQLITE_DONE) {
        fuzz_fail("%s: %s", sqlite3_sql(stmt), sqlite3_errmsg(sqlite3_db_handle(stmt)));
    }
}

/* Fills the tables of the in-place functions: rows 1, 2 and 3 of cells hold the filters
** parameters[0], [2] and [3]; row 1 of the others parameters[0]. A value that does not fit the
** length limit (in the database's encoding) leaves its row out. */
static void fill_tables(in_place *ip, const fuzz_value *parameters) {
    static const int cells_rows[3] = {0, 2, PARAMETER_BUILT};
    for (size_t t = 0; t < sizeof ip->fill / sizeof ip->fill[0]; t++) {
        for (int row = 0; row < (t == 0 ? 3 : 1); row++) {
            if (sqlite3_bind_int64(ip->fill[t], 1, row + 1) != SQLITE_OK) {
                fuzz_fail("binding a rowid");
            }
            fuzz_db_bind(ip->fill[t], 2, &parameters[cells_rows[row]]);
            (void)fuzz_db_run(ip->fill[t]);
        }
    }
}

/* A copy of the value in column 0 of stmt's current row. */
static sqlite3_value *copy_column(sqlite3_stmt *stmt) {
    sqlite3_value *v = sqlite3_value_dup(sqlite3_column_value(stmt, 0));
    if (v == NULL) {
        fuzz_fail("out of memory for a value");
    }
    return v;
}

/* Runs stmt, with its parameters bound, for at most one row: returns the code of the first step,
** with *result a copy of the row's first column (NULL without a row). */
static int run_one(sqlite3_stmt *stmt, int in_place_codes, sqlite3_value **result) {
    int rc = in_place_codes ? fuzz_db_step_in_place(stmt) : fuzz_db_step(stmt);
    int last = rc;
    *result = NULL;
    if (rc == SQLITE_ROW) {
        *result = copy_column(stmt);
        last = in_place_codes ? fuzz_db_step_in_place(stmt) : fuzz_db_step(stmt);
        if (last != SQLITE_DONE) {
            fuzz_fail("%s gives more than a row (%d)", sqlite3_sql(stmt), last);
        }
    }
    fuzz_db_reset(stmt, last);
    return rc;
}

/* The cell of cells' row 1, or NULL when there is no such row. */
static sqlite3_value *read_cell(in_place *ip) {
    sqlite3_value *cell;
    if (run_one(ip->read_cell, 0, &cell) == SQLITE_ERROR) {
        fuzz_fail("reading a cell: %s", sqlite3_errmsg(sqlite3_db_handle(ip->read_cell)));
    }
    return cell;
}

/* Whether a and b (either NULL: no value) are the same value, of the same type. */
static int same_value(sqlite3_value *a, sqlite3_value *b) {
    if (a == NULL || b == NULL) {
        return a == b;
    }
    int type = sqlite3_value_type(a);
    if (type != sqlite3_value_type(b)) {
        return 0;
    }
    switch (type) {
    case SQLITE_NULL:
        return 1;
    case SQLITE_INTEGER:
        return sqlite3_value_int64(a) == sqlite3_value_int64(b);
    case SQLITE_FLOAT: {
        double x = sqlite3_value_double(a), y = sqlite3_value_double(b);
        return memcmp(&x, &y, sizeof x) == 0;
    }
    default: {
        const void *x =
            type == SQLITE_TEXT ? (const void *)sqlite3_value_text(a) : sqlite3_value_blob(a);
        const void *y =
            type == SQLITE_TEXT ? (const void *)sqlite3_value_text(b) : sqlite3_value_blob(b);
        int length = sqlite3_value_bytes(a);
        return length == sqlite3_value_bytes(b) && (length == 0 || memcmp(x, y, length) == 0);
    }
    }
}

/* Every cell of the tables, as bytes (from malloc; *size of them). */
static uint8_t *snapshot(in_place *ip, size_t *size) {
    uint8_t *bytes = NULL;
    size_t used = 0, capacity = 0;
    int rc;
    while ((rc = fuzz_db_step(ip->snapshot)) == SQLITE_ROW) {
        for (int column = 0; column < 4; column++) {
            int type = sqlite3_column_type(ip->snapshot, column);
            sqlite3_int64 number = sqlite3_column_int64(ip->snapshot, column);
            double real = sqlite3_column_double(ip->snapshot, column);
            const void *data = type == SQLITE_INTEGER ? (const void *)&number
                               : type == SQLITE_FLOAT ? (const void *)&real
                                                      : sqlite3_column_blob(ip->snapshot, column);
            int length = type == SQLITE_INTEGER || type == SQLITE_FLOAT
                             ? 8
                             : sqlite3_column_bytes(ip->snapshot, column);
            size_t need = used + 1 + sizeof length + (size_t)length;
            if (need > capacity) {
                capacity = 2 * need;
                bytes = realloc(bytes, capacity);
                if (bytes == NULL) {
                    fuzz_fail("out of memory for %zu bytes", capacity);
                }
            }
            bytes[used++] = (uint8_t)type;
            memcpy(bytes + used, &length, sizeof length);
            used += sizeof length;
            if (length > 0) {
                memcpy(bytes + used, data, (size_t)length);
            }
            used += (size_t)length;
        }
    }
    if (rc != SQLITE_DONE) {
        fuzz_fail("reading the cells: %s", sqlite3_errmsg(sqlite3_db_handle(ip->snapshot)));
    }
    fuzz_db_reset(ip->snapshot, rc);
    *size = used;
    return bytes;
}

/* Aborts unless every cell is as in the snapshot before (size bytes). */
static void check_unchanged(in_place *ip, const uint8_t *before, size_t size, const char *what) {
    size_t now_size;
    uint8_t *now = snapshot(ip, &now_size);
    if (now_size != size || (size > 0 && memcmp(now, before, size) != 0)) {
        fuzz_fail("%s changes a cell", what);
    }
    free(now);
}

/* A fuzz value of the text. */
static fuzz_value text_value(const char *text) {
    fuzz_value v = {FUZZ_TEXT, 0, 0.0, (const uint8_t *)text, strlen(text)};
    return v;
}

/* A fuzz value of the integer. */
static fuzz_value integer_value(int64_t i) {
    fuzz_value v = {FUZZ_INTEGER, i, 0.0, NULL, 0};
    return v;
}

/* An in-place call's TABLE, COLUMN and ROWID. */
typedef struct target {
    fuzz_value table, column, rowid;
} target;

/* The answer of a probe: 0 or 1, or -1 when it is neither. */
static int answer_of(sqlite3_value *v) {
    if (v == NULL || sqlite3_value_type(v) != SQLITE_INTEGER) {
        return -1;
    }
    sqlite3_int64 answer = sqlite3_value_int64(v);
    return answer == 0 || answer == 1 ? (int)answer : -1;
}

/* Calls the in-place function of op on target with key: returns the code, *result a copy of
** its answer, which must be NULL, 0 or 1 (rule 19 (in place)). */
static int call_in_place(in_place *ip, int op, const target *t, const fuzz_value *key,
                         sqlite3_value **result) {
    sqlite3_stmt *stmt = ip->call[op];
    fuzz_db_bind(stmt, 1, &t->table);
    fuzz_db_bind(stmt, 2, &t->column);
    fuzz_db_bind(stmt, 3, &t->rowid);
    fuzz_db_bind(stmt, 4, key);
    int rc = run_one(stmt, 1, result);
    if (rc == SQLITE_ROW && sqlite3_value_type(*result) != SQLITE_NULL && answer_of(*result) < 0) {
        fuzz_fail("%s answers %s, not NULL, 0 or 1", in_place_sql[op],
                  (const char *)sqlite3_value_text(*result));
    }
    return rc;
}

/* Calls the function of op on filter (not in place) with key: returns the code, *result a copy
** of its answer (NULL after an error). */
static int try_plain(in_place *ip, int op, sqlite3_value *filter, const fuzz_value *key,
                     sqlite3_value **result) {
    sqlite3_stmt *stmt = ip->plain[op];
    if (sqlite3_bind_value(stmt, 1, filter) != SQLITE_OK) {
        fuzz_fail("binding a filter");
    }
    fuzz_db_bind(stmt, 2, key);
    return run_one(stmt, 0, result);
}

/* Calls the function of op on filter (not in place) with key: returns its answer, aborting on
** an error or no row. */
static sqlite3_value *call_plain(in_place *ip, int op, sqlite3_value *filter,
                                 const fuzz_value *key) {
    sqlite3_value *result;
    if (try_plain(ip, op, filter, key, &result) != SQLITE_ROW) {
        fuzz_fail("%s on a filter an in-place function took: %s", plain_sql[op],
                  sqlite3_errmsg(sqlite3_db_handle(ip->plain[op])));
    }
    return result;
}

/* Whether the error of db is a cuckoo filter's "no room" (rule 21 (cuckoo)). */
static int no_room(sqlite3 *db) {
    return strstr(sqlite3_errmsg(db), ": no room for ") != NULL;
}

/* Aborts unless a bloom_add_in_place of key on the cell of old that failed with code rc (its
** error *in_place_full "no room", or not) failed so exactly when bloom_add of old with key has
** no room (or the database is read-only, which comes first). */
static void check_no_room(in_place *ip, sqlite3_value *old, const fuzz_value *key, int rc,
                          int in_place_full) {
    sqlite3_value *plain;
    sqlite3 *db = sqlite3_db_handle(ip->plain[ADD]);
    int plain_rc = try_plain(ip, ADD, old, key, &plain);
    int plain_full = plain_rc == SQLITE_ERROR && no_room(db);
    if (in_place_full ? !plain_full : plain_full && rc != SQLITE_READONLY) {
        fuzz_fail("bloom_add_in_place %s room for the key (code %d), bloom_add %s",
                  in_place_full ? "has no" : "does not say it has no", rc,
                  plain_full ? "has no room" : "has room");
    }
    sqlite3_value_free(plain);
}

/* The number of counters at 15 in the body of the counting filter v. */
static size_t saturated_counters(sqlite3_value *v) {
    const uint8_t *blob = sqlite3_value_blob(v);
    size_t count = 0;
    for (int i = 64; i < sqlite3_value_bytes(v); i++) {
        count += (blob[i] & 0x0F) == 0x0F;
        count += (blob[i] & 0xF0) == 0xF0;
    }
    return count;
}

/* The kind of the filter v (a BLOB an in-place function accepted). */
static const filter_kind *kind_of(sqlite3_value *v) {
    const filter_kind *kind = filter_kind_by_id(((const uint8_t *)sqlite3_value_blob(v))[6]);
    if (kind == NULL) {
        fuzz_fail("an in-place function accepted a filter of no kind");
    }
    return kind;
}

/* Whether the counting filter v's count of keys is below its maximum. */
static int keys_below_max(sqlite3_value *v) {
    static const uint8_t max[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    return memcmp((const uint8_t *)sqlite3_value_blob(v) + 40, max, sizeof max) != 0;
}

/* Aborts unless the cell holds expected; frees the cell read. */
static void check_cell(in_place *ip, sqlite3_value *expected, const char *what) {
    sqlite3_value *cell = read_cell(ip);
    if (!same_value(cell, expected)) {
        int at = 0;
        if (cell != NULL && expected != NULL && sqlite3_value_type(cell) == SQLITE_BLOB &&
            sqlite3_value_type(expected) == SQLITE_BLOB) {
            const uint8_t *a = sqlite3_value_blob(cell), *b = sqlite3_value_blob(expected);
            while (at < sqlite3_value_bytes(cell) && at < sqlite3_value_bytes(expected) &&
                   a[at] == b[at]) {
                at++;
            }
        }
        fuzz_fail("the cell after %s (from byte %d)", what, at);
    }
    sqlite3_value_free(cell);
}

/* The answers of the filter v (an in-place function took it) for the key of each row of rows,
** into answers (MAX_ROWS, -1 for NULL); returns how many. */
static int row_answers(in_place *ip, sqlite3_value *v, int *answers) {
    sqlite3_stmt *stmt = ip->probe_rows;
    int rc, rows = 0;
    if (sqlite3_bind_value(stmt, 1, v) != SQLITE_OK) {
        fuzz_fail("binding a filter");
    }
    while ((rc = fuzz_db_step(stmt)) == SQLITE_ROW && rows < MAX_ROWS) {
        answers[rows++] =
            sqlite3_column_type(stmt, 0) == SQLITE_NULL ? -1 : sqlite3_column_int(stmt, 0);
    }
    if (rc != SQLITE_DONE) {
        fuzz_fail("probing the rows' keys: %s", sqlite3_errmsg(sqlite3_db_handle(stmt)));
    }
    fuzz_db_reset(stmt, rc);
    return rows;
}

/* The slots in use of the cuckoo filter v (an in-place function took it). */
static uint64_t slots_used(sqlite3_value *v) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(sqlite3_value_blob(v), (uint64_t)sqlite3_value_bytes(v), &view, why) !=
            FILTER_OK ||
        view.kind->id != CUCKOO_KIND) {
        fuzz_fail("a cuckoo filter an in-place function took is refused: %s", why);
    }
    return cuckoo_slots_used(&view);
}

/* Aborts unless the cell, a cuckoo filter that key was added to and removed from in place,
** answers as old did for key and every key of the rows, with as many slots in use: the
** fingerprints the add moved stay in their two buckets (rule 21 (cuckoo)). */
static void check_same_answers(in_place *ip, sqlite3_value *old, const fuzz_value *key) {
    int before[MAX_ROWS], after[MAX_ROWS];
    sqlite3_value *cell = read_cell(ip);
    sqlite3_value *was = call_plain(ip, MIGHT_CONTAIN, old, key);
    sqlite3_value *now = call_plain(ip, MIGHT_CONTAIN, cell, key);
    int rows = row_answers(ip, old, before);
    if (answer_of(was) != answer_of(now) || row_answers(ip, cell, after) != rows ||
        memcmp(before, after, (size_t)rows * sizeof before[0]) != 0) {
        fuzz_fail("a key added to and removed from a cuckoo filter in place changes an answer");
    }
    if (slots_used(cell) != slots_used(old)) {
        fuzz_fail("a key added to and removed from a cuckoo filter in place changes the slots "
                  "in use");
    }
    sqlite3_value_free(cell);
    sqlite3_value_free(was);
    sqlite3_value_free(now);
}

/* The first round: the in-place functions on the cell of ?1 with key, against the functions
** on its value (see the opening comment). */
static void first_round(in_place *ip, const fuzz_value *key) {
    target t = {text_value("cells"), text_value("f"), integer_value(1)};
    sqlite3_value *old = read_cell(ip), *result, *plain, *now;
    int rc = call_in_place(ip, MIGHT_CONTAIN, &t, key, &result);
    check_cell(ip, old, "bloom_might_contain_in_place");
    if (rc == SQLITE_ROW && answer_of(result) >= 0) {
        plain = call_plain(ip, MIGHT_CONTAIN, old, key);
        if (answer_of(plain) != answer_of(result)) {
            fuzz_fail("bloom_might_contain_in_place answers %d, bloom_might_contain %d",
                      answer_of(result), answer_of(plain));
        }
        sqlite3_value_free(plain);
    }
    sqlite3_value_free(result);

    rc = call_in_place(ip, ADD, &t, key, &result);
    if (rc != SQLITE_ROW || answer_of(result) < 0) {
        int in_place_full = rc == SQLITE_ERROR && no_room(sqlite3_db_handle(ip->call[ADD]));
        check_cell(ip, old, "a bloom_add_in_place that failed or had a NULL key");
        if (rc != SQLITE_ROW && old != NULL) {
            check_no_room(ip, old, key, rc, in_place_full);
        }
        sqlite3_value_free(result);
        sqlite3_value_free(old);
        return;
    }
    plain = call_plain(ip, MIGHT_CONTAIN, old, key);
    if (answer_of(result) != (answer_of(plain) == 0)) {
        fuzz_fail("bloom_add_in_place answers %d, bloom_might_contain before answered %d",
                  answer_of(result), answer_of(plain));
    }
    sqlite3_value_free(plain);
    sqlite3_value_free(result);
    plain = call_plain(ip, ADD, old, key);
    check_cell(ip, plain, "bloom_add_in_place: it differs from bloom_add of the cell before");
    now = read_cell(ip);
    sqlite3_value_free(plain);
    plain = call_plain(ip, MIGHT_CONTAIN, now, key);
    rc = call_in_place(ip, MIGHT_CONTAIN, &t, key, &result);
    if (answer_of(plain) != 1 || rc != SQLITE_ROW || answer_of(result) != 1) {
        fuzz_fail("a key added in place probes %d, in place %d", answer_of(plain),
                  answer_of(result));
    }
    sqlite3_value_free(plain);
    sqlite3_value_free(result);

    rc = call_in_place(ip, REMOVE, &t, key, &result);
    if (kind_of(old)->remove_io == NULL) {
        if (rc == SQLITE_ROW) {
            fuzz_fail("bloom_remove_in_place removes from a '%s' filter", kind_of(old)->name);
        }
        check_cell(ip, now, "a bloom_remove_in_place that failed");
    } else {
        if (rc != SQLITE_ROW || answer_of(result) != 1) {
            fuzz_fail("bloom_remove_in_place of a key just added in place fails: %s",
                      sqlite3_errmsg(sqlite3_db_handle(ip->call[REMOVE])));
        }
        plain = call_plain(ip, REMOVE, now, key);
        check_cell(ip, plain,
                   "bloom_remove_in_place: it differs from bloom_remove of the cell before");
        sqlite3_value_free(plain);
        if (kind_of(old)->id == COUNTING_KIND && keys_below_max(old) &&
            saturated_counters(now) == saturated_counters(old)) {
            /* The cell before the add, its header as this code writes it (rule 19 (in
            ** place)): what the copying functions give for the add and the remove. */
            sqlite3_value *added = call_plain(ip, ADD, old, key);
            sqlite3_value *removed = call_plain(ip, REMOVE, added, key);
            check_cell(ip, removed,
                       "bloom_add_in_place and bloom_remove_in_place, no counter "
                       "saturated: it differs from the cell before the add");
            if (memcmp((const uint8_t *)sqlite3_value_blob(removed) + FILTER_HEADER_BYTES,
                       (const uint8_t *)sqlite3_value_blob(old) + FILTER_HEADER_BYTES,
                       (size_t)sqlite3_value_bytes(old) - FILTER_HEADER_BYTES) != 0) {
                fuzz_fail("adding and removing a key, no counter saturated, changes the "
                          "counters");
            }
            sqlite3_value_free(added);
            sqlite3_value_free(removed);
        }
        if (kind_of(old)->id == CUCKOO_KIND) {
            check_same_answers(ip, old, key);
        }
    }
    sqlite3_value_free(result);
    sqlite3_value_free(now);
    sqlite3_value_free(old);
}

/* Runs the sketch call i with the value v (NULL: none) and key bound: returns the code of its
** first step, *result a copy of its answer (NULL without a row). */
static int call_sketch(in_place *ip, int i, sqlite3_value *v, const fuzz_value *key,
                       sqlite3_value **result) {
    sqlite3_stmt *stmt = ip->sketch[i];
    if (v != NULL && sqlite3_bind_value(stmt, 1, v) != SQLITE_OK) {
        fuzz_fail("binding a sketch");
    }
    fuzz_db_bind(stmt, v != NULL ? 2 : 1, key);
    return run_one(stmt, i == COUNT_IN_PLACE || i == ADD_IN_PLACE, result);
}

/* Whether v is a count-min sketch the extension accepts. */
static int is_sketch(sqlite3_value *v) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    return v != NULL && sqlite3_value_type(v) == SQLITE_BLOB &&
           filter_open(sqlite3_value_blob(v), (uint64_t)sqlite3_value_bytes(v), &view, why) ==
               FILTER_OK &&
           view.kind->id == COUNTMIN_KIND;
}

/*
** The sketch round, when the cell of ?1 holds a count-min sketch (rule 25 (count-min in place)):
** cms_count_in_place answers as cms_count of the cell, and changes nothing; cms_add_in_place of
** 3 to key answers the estimate that cms_count gives of cms_add of 3 to the cell, the cell then
** being that copy byte for byte; or it fails, the cell unchanged, with the error "no room"
** exactly when cms_add has no room (but SQLITE_READONLY comes first); a NULL key changes nothing.
*/
static void sketch_round(in_place *ip, const fuzz_value *key) {
    sqlite3_value *old = read_cell(ip), *in_place_answer, *plain, *added, *now;
    sqlite3 *db = sqlite3_db_handle(ip->begin);
    if (!is_sketch(old)) {
        sqlite3_value_free(old);
        return;
    }
    int rc = call_sketch(ip, COUNT_IN_PLACE, NULL, key, &in_place_answer);
    check_cell(ip, old, "cms_count_in_place");
    /* Only an answer is compared: the call may fail before the function runs (a key over the
    ** length limit, regressions/sql-countmin-key-over-limit), and so would cms_count. */
    if (rc == SQLITE_ROW) {
        if (call_sketch(ip, CMS_COUNT, old, key, &plain) != SQLITE_ROW) {
            fuzz_fail("cms_count of a sketch cms_count_in_place took: %s", sqlite3_errmsg(db));
        }
        if (!same_value(in_place_answer, plain)) {
            fuzz_fail("cms_count_in_place answers %s, cms_count %s",
                      (const char *)sqlite3_value_text(in_place_answer),
                      (const char *)sqlite3_value_text(plain));
        }
        sqlite3_value_free(plain);
    }
    sqlite3_value_free(in_place_answer);

    rc = call_sketch(ip, ADD_IN_PLACE, NULL, key, &in_place_answer);
    int in_place_full = rc == SQLITE_ERROR && no_room(db);
    int plain_rc = call_sketch(ip, CMS_ADD, old, key, &added);
    int plain_full = plain_rc == SQLITE_ERROR && no_room(db);
    if (rc != SQLITE_ROW || sqlite3_value_type(in_place_answer) == SQLITE_NULL) {
        check_cell(ip, old, "a cms_add_in_place that failed or had a NULL key");
        if (rc != SQLITE_ROW &&
            (in_place_full ? !plain_full : plain_full && rc != SQLITE_READONLY)) {
            fuzz_fail("cms_add_in_place %s room for the count (code %d), cms_add %s",
                      in_place_full ? "has no" : "does not say it has no", rc,
                      plain_full ? "has no room" : "has room");
        }
    } else {
        if (plain_rc != SQLITE_ROW) {
            fuzz_fail("cms_add_in_place adds 3, cms_add fails: %s", sqlite3_errmsg(db));
        }
        check_cell(ip, added, "cms_add_in_place: it differs from cms_add of the cell before");
        now = read_cell(ip);
        if (call_sketch(ip, CMS_COUNT, now, key, &plain) != SQLITE_ROW ||
            !same_value(plain, in_place_answer)) {
            fuzz_fail("cms_add_in_place answers %s, cms_count after it %s",
                      (const char *)sqlite3_value_text(in_place_answer),
                      plain != NULL ? (const char *)sqlite3_value_text(plain) : "an error");
        }
        sqlite3_value_free(plain);
        sqlite3_value_free(now);
    }
    sqlite3_value_free(in_place_answer);
    sqlite3_value_free(added);
    sqlite3_value_free(old);
}

/* The target of the second round, chosen by the byte choice. */
static target choose_target(uint8_t choice) {
    static const char *const rowid_texts[2] = {"1", "x"};
    target t;
    const char *table = target_tables[choice & 7];
    t.table = table != NULL ? text_value(table) : integer_value(7);
    t.column = text_value(target_columns[(choice >> 3) & 3]);
    int rowid = (choice >> 5) % ROWID_CHOICES;
    static const int64_t rowids[4] = {1, 2, 3, 99};
    if (rowid < 4) {
        t.rowid = integer_value(rowids[rowid]);
    } else if (rowid < 6) {
        t.rowid.tag = FUZZ_REAL;
        t.rowid.real = rowid == 4 ? 1.0 : 1.5;
    } else {
        t.rowid = text_value(rowid_texts[rowid - 6]);
    }
    return t;
}

/* The second round: the three in-place functions on the chosen target; no cell changes when
** one fails or has a NULL key, nor by a probe. */
static void second_round(in_place *ip, const fuzz_value *key, uint8_t choice) {
    target t = choose_target(choice);
    for (int op = 0; op < OPERATIONS; op++) {
        size_t size;
        uint8_t *before = snapshot(ip, &size);
        sqlite3_value *result;
        int rc = call_in_place(ip, op, &t, key, &result);
        if (op == MIGHT_CONTAIN || rc != SQLITE_ROW || answer_of(result) < 0) {
            check_unchanged(ip, before, size, in_place_sql[op]);
        }
        sqlite3_value_free(result);
        free(before);
    }
}

/* Both rounds and the other in-place statements, with the configuration's query_only and
** rollback; after a rollback, every cell is as before. */
static void run_in_place(in_place *ip, uint8_t configuration, const fuzz_value *parameters,
                         uint8_t choice) {
    size_t size;
    uint8_t *before = snapshot(ip, &size);
    if (configuration & QUERY_ONLY) {
        /* Now, not prepared before: a flag pragma acts as it is prepared. It expires every
        ** statement, which the length limit may keep from preparing again: they are prepared
        ** anew under no limit. */
        sqlite3 *db = sqlite3_db_handle(ip->begin);
        int limit = sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
        fuzz_db_exec(db, "PRAGMA query_only = 1");
        in_place_finalize(ip);
        in_place_prepare(db, ip);
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, limit);
    }
    if (configuration & ROLLED_BACK) {
        run_own(ip->begin);
    }
    first_round(ip, &parameters[1]);
    sketch_round(ip, &parameters[1]);
    second_round(ip, &parameters[1], choice);
    for (size_t i = 0; i < sizeof ip->others / sizeof ip->others[0]; i++) {
        sqlite3_stmt *stmt = ip->others[i];
        for (int index = 1; index <= sqlite3_bind_parameter_count(stmt); index++) {
            fuzz_db_bind(stmt, index, &parameters[index - 1]);
        }
        (void)fuzz_db_run_in_place(stmt);
    }
    if (configuration & ROLLED_BACK) {
        run_own(ip->rollback);
        check_unchanged(ip, before, size, "a transaction rolled back");
    }
    free(before);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    enum { STATEMENTS = sizeof statements / sizeof statements[0] };
    fuzz_input in = {data, size};
    uint8_t configuration = fuzz_take_u8(&in);
    sqlite3 *db = fuzz_db_open(configuration % FUZZ_ENCODINGS, schema);
    /* Before any statement is prepared: setting it expires them. */
    if (sqlite3_set_authorizer(db, authorize, NULL) != SQLITE_OK) {
        fuzz_fail("cannot set the authorizer");
    }
    /* Prepared before the length limit, which also limits the names of result columns. */
    sqlite3_stmt *insert = fuzz_db_prepare(db, "INSERT INTO rows VALUES (?1, ?2, ?3, ?4)");
    sqlite3_stmt *build = fuzz_db_prepare(db, build_rows_sql);
    sqlite3_stmt *prepared[STATEMENTS];
    in_place ip;
    uint8_t *built;
    for (size_t i = 0; i < STATEMENTS; i++) {
        prepared[i] = fuzz_db_prepare(db, statements[i].sql);
    }
    in_place_prepare(db, &ip);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, length_limits[(configuration / 4) % 8]);
    fuzz_value parameters[PARAMETERS];
    for (int i = 0; i < PARAMETER_BUILT; i++) {
        parameters[i] = fuzz_take_value(&in);
    }
    insert_rows(insert, &in);
    fuzz_db_finalize(insert);
    parameters[PARAMETER_BUILT] = build_rows(build, &built);
    for (size_t i = 0; i < STATEMENTS; i++) {
        run_statement(prepared[i], i, parameters);
    }
    fill_tables(&ip, parameters);
    run_in_place(&ip, configuration, parameters, fuzz_take_u8(&in));
    in_place_finalize(&ip);
    free(built);
    fuzz_db_close(db);
    return 0;
}
