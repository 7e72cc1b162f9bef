/*
** live_schema.c: that SQLite knows a live table's shadow tables as such. See live_schema.h.
*/
#include "live_schema.h"

#include <stddef.h>

int live_schema_was_read(sqlite3 *db) {
    int used = 0, highest = 0;
    return sqlite3_db_status(db, SQLITE_DBSTATUS_SCHEMA_USED, &used, &highest, 0) == SQLITE_OK &&
           used > 0;
}

/* Whether a statement of db has started and not ended. */
static int live_schema_statement_runs(sqlite3 *db) {
    for (sqlite3_stmt *stmt = sqlite3_next_stmt(db, NULL); stmt != NULL;
         stmt = sqlite3_next_stmt(db, stmt)) {
        if (sqlite3_stmt_busy(stmt)) {
            return 1;
        }
    }
    return 0;
}

/* The first live table of schema, as "schema.table" into *found (sqlite3_free it), or NULL
** when there is none: a virtual table beside a table of its name and "_chunks". */
static int live_schema_find_in(sqlite3 *db, const char *schema, char **found) {
    sqlite3_stmt *stmt = NULL;
    char *sql = sqlite3_mprintf("SELECT a.name FROM \"%w\".sqlite_master AS a JOIN \"%w\"."
                                "sqlite_master AS b ON b.type = 'table' AND b.name = a.name || "
                                "'_chunks' WHERE a.type = 'table' AND a.sql LIKE "
                                "'CREATE VIRTUAL TABLE%%' LIMIT 1",
                                schema, schema);
    int rc = sql == NULL ? SQLITE_NOMEM : sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    sqlite3_free(sql);
    int step = rc == SQLITE_OK ? sqlite3_step(stmt) : rc;
    if (step == SQLITE_ROW) {
        *found = sqlite3_mprintf("%s.%s", schema, (const char *)sqlite3_column_text(stmt, 0));
        rc = *found == NULL ? SQLITE_NOMEM : SQLITE_OK;
    } else {
        rc = step == SQLITE_DONE ? SQLITE_OK : step;
    }
    sqlite3_finalize(stmt);
    return rc;
}

/* The first live table of db's schemas (live_schema_find_in) into *found, or NULL. */
static int live_schema_find(sqlite3 *db, char **found) {
    sqlite3_stmt *schemas = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA database_list", -1, &schemas, NULL), step = 0;
    *found = NULL;
    while (rc == SQLITE_OK && *found == NULL && (step = sqlite3_step(schemas)) == SQLITE_ROW) {
        rc = live_schema_find_in(db, (const char *)sqlite3_column_text(schemas, 1), found);
    }
    if (rc == SQLITE_OK && *found == NULL && step != SQLITE_DONE) {
        rc = step;
    }
    sqlite3_finalize(schemas);
    return rc;
}

int live_schema_check(sqlite3 *db, int read, int registered, int *again, char **error) {
    char *table = NULL;
    *again = 0;
    if (!read || registered) {
        return SQLITE_OK; /* SQLite marks the shadow tables as it reads the schema */
    }
    int rc = live_schema_find(db, &table);
    if (rc != SQLITE_OK) {
        *error = sqlite3_mprintf("bloom: cannot read the schema: %s", sqlite3_errmsg(db));
        return rc;
    }
    if (table == NULL) {
        return SQLITE_OK;
    }
    if (sqlite3_get_autocommit(db) && !live_schema_statement_runs(db)) {
        *again = 1;
    } else {
        *error = sqlite3_mprintf(
            "bloom: cannot load now: this connection read the schema of the live table %s, "
            "whose shadow tables defensive mode would then not guard, and SQLite cannot read it "
            "again while %s; load the extension before the first statement, or when no "
            "statement runs and no transaction is open",
            table, sqlite3_get_autocommit(db) ? "a statement runs" : "a transaction is open");
        rc = SQLITE_ERROR;
    }
    sqlite3_free(table);
    return rc;
}

int live_schema_read_again(sqlite3 *db, char **error) {
    int writable = 0;
    sqlite3_db_config(db, SQLITE_DBCONFIG_WRITABLE_SCHEMA, -1, &writable);
    int rc = sqlite3_exec(db, "PRAGMA writable_schema = RESET", NULL, NULL, NULL);
    if (writable) {
        sqlite3_db_config(db, SQLITE_DBCONFIG_WRITABLE_SCHEMA, 1, NULL);
    }
    if (rc == SQLITE_OK && live_schema_was_read(db)) {
        /* A SQLite that knows no RESET (3.31): a change of schema undone drops every schema. */
        rc = sqlite3_exec(db,
                          "SAVEPOINT bloom_schema_again; CREATE TEMP TABLE bloom_schema_again(x); "
                          "ROLLBACK TO bloom_schema_again; RELEASE bloom_schema_again",
                          NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK && live_schema_was_read(db)) {
        *error = sqlite3_mprintf("bloom: cannot have SQLite read the schema again");
        return SQLITE_ERROR;
    }
    if (rc != SQLITE_OK) {
        *error = sqlite3_mprintf("bloom: cannot read the schema again: %s", sqlite3_errmsg(db));
    }
    return rc;
}
