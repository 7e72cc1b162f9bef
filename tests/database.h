/*
** database.h: what the C tests that work on database files share: removing a database with
** its journals, running SQL that must succeed (a failed CHECK, with the message), and a
** statement's first value as text.
** Include after <sqlite3.h> and check.h.
*/
#ifndef BLOOM_DATABASE_H
#define BLOOM_DATABASE_H

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

#endif /* BLOOM_DATABASE_H */
