/*
** instructions.c: one probe query over 100,000 rows, for callgrind to count its instructions
** (exact and repeatable, unlike times on a shared machine). Run by instructions.sh.
**
** Usage: valgrind --tool=callgrind --instr-atstart=no bloom_instructions EXTENSION KEYS LAYOUT
*FUNCTION
**
** KEYS is the number of keys in the filter (1 to KEYS), LAYOUT the kind bloom_build builds
** (standard, blocked, fuse), FUNCTION bloom_might_contain, noop (a two-argument function
** returning 0: SQLite's cost of a call) or twin (the design of the other SQLite Bloom extension,
** twin.h).
** Only the query over the 100,000 rows of keys 1 to 100,000 is counted.
*/
#include <sqlite3.h>
#include <valgrind/callgrind.h>

#include "twin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* noop(filter, key): returns 0. */
static void noop_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    sqlite3_result_int(ctx, 0);
}

/* Exits with the message of db. */
static void die(sqlite3 *db, const char *what) {
    fprintf(stderr, "bloom_instructions: %s: %s\n", what, sqlite3_errmsg(db));
    exit(2);
}

int main(int argc, char **argv) {
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;
    char *err = NULL, *sql;
    if (argc != 5) {
        fprintf(stderr, "usage: %s EXTENSION KEYS LAYOUT FUNCTION\n", argv[0]);
        return 2;
    }
    if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(db, argv[1], NULL, &err) != SQLITE_OK ||
        sqlite3_create_function(db, "noop", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                noop_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(db, "twin", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                twin_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(
            db,
            "CREATE TABLE keys(x INTEGER); INSERT INTO keys WITH RECURSIVE s(i) AS (SELECT "
            "1 UNION ALL SELECT i + 1 FROM s WHERE i < 100000) SELECT i FROM s",
            NULL, NULL, NULL) != SQLITE_OK) {
        die(db, err ? err : "start");
    }
    sql =
        sqlite3_mprintf("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < "
                        "%s) SELECT bloom_build(i, %s, 0.01, %Q) FROM s",
                        argv[2], argv[2], argv[3]);
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK ||
        sqlite3_step(stmt) != SQLITE_ROW) {
        die(db, "build");
    }
    int bytes = sqlite3_column_bytes(stmt, 0);
    void *filter = malloc((size_t)bytes);
    if (filter == NULL) {
        die(db, "out of memory");
    }
    memcpy(filter, sqlite3_column_blob(stmt, 0), (size_t)bytes);
    sqlite3_finalize(stmt);
    sqlite3_free(sql);
    sql = sqlite3_mprintf("SELECT sum(%s(?1, x)) FROM keys", argv[4]);
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(db, "probe");
    }
    sqlite3_bind_blob(stmt, 1, filter, bytes, SQLITE_STATIC);
    CALLGRIND_START_INSTRUMENTATION;
    int rc = sqlite3_step(stmt);
    CALLGRIND_STOP_INSTRUMENTATION;
    if (rc != SQLITE_ROW) {
        die(db, "probe");
    }
    sqlite3_finalize(stmt);
    sqlite3_free(sql);
    free(filter);
    sqlite3_close(db);
    return 0;
}
