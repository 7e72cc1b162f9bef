/*
** test_static.c: the extension linked into a program that registers it itself
** (compiled with -DSQLITE_CORE, no bloom.so), through sqlite3_auto_extension.
**
** Usage: test_static VERSION
*/
#include "sqlite_bloom.h"

#include "../check.h"

/* Runs a one-row query and returns its first column as text (caller frees), or NULL. */
static char *first_value(sqlite3 *db, const char *sql) {
    sqlite3_stmt *stmt = NULL;
    char *value = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
        value = sqlite3_mprintf("%s", sqlite3_column_text(stmt, 0));
    } else {
        fprintf(stderr, "    %s: %s\n", sql, sqlite3_errmsg(db));
    }
    sqlite3_finalize(stmt);
    return value;
}

/* Checks that query sql on db returns expected. */
static void check_value(sqlite3 *db, const char *sql, const char *expected) {
    char *value = first_value(db, sql);
    CHECK_STR(value, expected);
    sqlite3_free(value);
}

int main(int argc, char **argv) {
    sqlite3 *db = NULL;
    if (argc != 2) {
        fprintf(stderr, "usage: %s VERSION\n", argv[0]);
        return 2;
    }
    /* Every connection opened from now on gets the functions, without loading anything. */
    CHECK(sqlite3_auto_extension((void (*)(void))sqlite3_bloom_init) == SQLITE_OK);
    for (int connection = 0; connection < 2; connection++) {
        CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
        check_value(db, "SELECT bloom_version()", argv[1]);
        check_value(db,
                    "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < "
                    "10000) SELECT sum(bloom_might_contain((SELECT bloom_build(i, 10000, 0.01) "
                    "FROM s), i)) FROM s",
                    "10000");
        check_value(db, "SELECT count(*) FROM pragma_function_list WHERE name LIKE 'bloom%'", "38");
        check_value(db,
                    "SELECT json_extract(bloom_info(bloom_build(1, 10, 0.01, 'blocked')), "
                    "'$.layout')",
                    "blocked");
        sqlite3_close(db);
    }
    /* Registering on one connection directly works too. */
    sqlite3_reset_auto_extension();
    CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
    char *error = NULL;
    CHECK(sqlite3_bloom_init(db, &error, NULL) == SQLITE_OK);
    CHECK(error == NULL);
    check_value(db, "SELECT bloom_might_contain(bloom_build('a', 10, 0.01), 'a')", "1");
    sqlite3_close(db);
    return check_report("test_static");
}
