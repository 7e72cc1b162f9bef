/*
** database.h: what the C tests that work on database files share: removing a database with
** its journals, running SQL that must succeed (a failed CHECK, with the message), and a
** statement's first value as text, or its error.
** Include after <sqlite3.h> and check.h.
*/
#ifndef BLOOM_DATABASE_H
#define BLOOM_DATABASE_H

#include <stdarg.h>
#include <stdio.h>

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

/* Steps stmt to its end when rc (its binds' result) is SQLITE_OK, writing the first column of
** its first row into out (size bytes): NULL, blob(N) or its text. Returns SQLITE_OK, or the
** error of the step that failed. */
static int step_to_end(sqlite3_stmt *stmt, int rc, char *out, size_t size) {
    int first = 1;
    while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (first) {
            int type = sqlite3_column_type(stmt, 0);
            if (type == SQLITE_NULL) {
                snprintf(out, size, "NULL");
            } else if (type == SQLITE_BLOB) {
                snprintf(out, size, "blob(%d)", sqlite3_column_bytes(stmt, 0));
            } else {
                snprintf(out, size, "%s", (const char *)sqlite3_column_text(stmt, 0));
            }
        }
        first = 0;
        rc = SQLITE_OK;
    }
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Runs sql with ?1 bound to text (when not NULL) and the next parameter, if there is one, to
** number, and returns, in a buffer that the next call reuses, column 0 of its first row
** ("NULL", "blob(N)" or the text), "" for no row, or "error RC: MESSAGE" (RC the primary
** result code). Steps to the end. */
static inline const char *db_run_with(sqlite3 *db, const char *sql, const char *text,
                                      long long number) {
    static char out[1024];
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    out[0] = '\0';
    if (rc == SQLITE_OK && text != NULL) {
        rc = sqlite3_bind_text(stmt, 1, text, -1, SQLITE_TRANSIENT);
    }
    int number_at = text != NULL ? 2 : 1;
    if (rc == SQLITE_OK && sqlite3_bind_parameter_count(stmt) >= number_at) {
        rc = sqlite3_bind_int64(stmt, number_at, number);
    }
    rc = step_to_end(stmt, rc, out, sizeof out);
    if (rc != SQLITE_OK) {
        snprintf(out, sizeof out, "error %d: %s", rc & 0xff, sqlite3_errmsg(db));
    }
    sqlite3_finalize(stmt);
    return out;
}

/* db_run_with without parameters. */
static inline const char *db_run(sqlite3 *db, const char *sql) {
    return db_run_with(db, sql, NULL, 0);
}

/* Runs sql, formatted as printf does, which must succeed. */
static inline void db_execf(sqlite3 *db, const char *format, ...) {
    va_list args;
    va_start(args, format);
    char *sql = sqlite3_vmprintf(format, args);
    va_end(args);
    exec(db, sql);
    sqlite3_free(sql);
}

#endif /* BLOOM_DATABASE_H */
