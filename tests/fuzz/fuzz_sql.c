/*
** fuzz_sql.c: libFuzzer target for every SQL function of the extension, with
** fuzzed values bound to statements on an in-memory database.
**
** Input (see fuzz_input.h for values):
**   1 byte   configuration: modulo 3, the database's text encoding; divided by 4, modulo 8,
**            the SQLITE_LIMIT_LENGTH (0: 1 MB, which bounds every filter bloom_build makes;
**            others small, to cut error messages and refuse long values)
**   3 values ?1 (a filter), ?2 (a key), ?3 (another filter); ?4 is built from the rows
**   1 byte   modulo 9, the number of rows of the table rows(key, n, p, layout)
**   4 values per row: its key, n, p and layout, for bloom_build
**
** Any result or error is fine, but for the statements marked as probes: every column of
** every row they return is NULL or 1 (a key added probes 1, bloom_info is valid JSON).
** The statements are prepared before the length limit is set: it also limits SQL text.
*/
#include "fuzz_db.h"

#include <stdlib.h>
#include <string.h>

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
    {"SELECT bloom_union(f) FROM (SELECT bloom_build(key, n, p, layout) AS f FROM rows "
     "GROUP BY rowid % 2)",
     0},
    {"SELECT bloom_might_contain(?4, key) FROM rows", 1},
    {"SELECT json_valid(i) FROM (SELECT bloom_info(?4) AS i) WHERE i IS NOT NULL", 1},
    {"SELECT bloom_add(?4, ?2), bloom_union(?4, ?1), bloom_union(?4, ?4)", 0},
    {"SELECT bloom_union(key), bloom_union(n), bloom_union(layout) FROM rows", 0},
    {"SELECT bloom_might_contain(key, n), bloom_add(key, p), bloom_info(layout) FROM rows", 0},
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    enum { STATEMENTS = sizeof statements / sizeof statements[0] };
    fuzz_input in = {data, size};
    uint8_t configuration = fuzz_take_u8(&in);
    sqlite3 *db =
        fuzz_db_open(configuration % FUZZ_ENCODINGS, "CREATE TABLE rows(key, n, p, layout)");
    /* Prepared before the length limit, which also limits the names of result columns. */
    sqlite3_stmt *insert = fuzz_db_prepare(db, "INSERT INTO rows VALUES (?1, ?2, ?3, ?4)");
    sqlite3_stmt *build = fuzz_db_prepare(db, build_rows_sql);
    sqlite3_stmt *prepared[STATEMENTS];
    uint8_t *built;
    for (size_t i = 0; i < STATEMENTS; i++) {
        prepared[i] = fuzz_db_prepare(db, statements[i].sql);
    }
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
    free(built);
    fuzz_db_close(db);
    return 0;
}
