/*
** test_api.c: the extension as a C program loads it, through SQLite's C API.
**
** Usage: test_api EXTENSION VERSION GOLDEN_DIR
**
** Pins the exact list of functions the extension registers and their flags,
** what the flags of the count-min functions allow, bloom_version(), loading
** twice while a statement runs, the failure path of registration, loading by
** a path without its suffix, and the golden filters of every kind, built in UTF-8,
** UTF-16le and UTF-16be databases and compared byte for byte with the
** committed fixtures.
*/
#include <sqlite3.h>

#include "check.h"
#include "fixture.h"

#include <stdlib.h>

/* The keys of the golden filter (tests/golden/README.md), bound as typed C values so that
** no SQL literal parsing is involved. */
typedef struct golden_key {
    int type;
    sqlite3_int64 integer;
    double real;
    const char *bytes;
    int length;
} golden_key;

static const golden_key golden_keys[] = {
    {SQLITE_INTEGER, 0, 0, NULL, 0},
    {SQLITE_INTEGER, 1, 0, NULL, 0},
    {SQLITE_INTEGER, -1, 0, NULL, 0},
    {SQLITE_INTEGER, INT64_MAX, 0, NULL, 0},
    {SQLITE_INTEGER, INT64_MIN, 0, NULL, 0},
    {SQLITE_INTEGER, 42, 0, NULL, 0},
    {SQLITE_INTEGER, 42, 0, NULL, 0},
    {SQLITE_FLOAT, 0, 1.5, NULL, 0},
    {SQLITE_FLOAT, 0, -2.25, NULL, 0},
    {SQLITE_FLOAT, 0, 1e300, NULL, 0},
    {SQLITE_FLOAT, 0, 0.1, NULL, 0},
    {SQLITE_FLOAT, 0, 2.0, NULL, 0},
    {SQLITE_TEXT, 0, 0, "", 0},
    {SQLITE_TEXT, 0, 0, "hello", 5},
    {SQLITE_TEXT, 0, 0,
     "\xC3\xBCn\xC3\xAF"
     "c\xC3\xB6"
     "d\xC3\xA9",
     11},
    {SQLITE_TEXT, 0, 0, "\xF0\x9F\x99\x82", 4},
    {SQLITE_BLOB, 0, 0, "", 0},
    {SQLITE_BLOB, 0, 0, "", 1},
    {SQLITE_BLOB, 0, 0, "\xDE\xAD\xBE\xEF", 4},
    {SQLITE_NULL, 0, 0, NULL, 0},
};

/* Creates table keys(k) holding the golden keys. */
static void insert_golden_keys(sqlite3 *db) {
    sqlite3_stmt *insert = NULL;
    CHECK(sqlite3_exec(db, "CREATE TABLE keys(k)", NULL, NULL, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(db, "INSERT INTO keys VALUES (?1)", -1, &insert, NULL) == SQLITE_OK);
    for (size_t i = 0; i < sizeof golden_keys / sizeof golden_keys[0]; i++) {
        const golden_key *key = &golden_keys[i];
        switch (key->type) {
        case SQLITE_INTEGER:
            sqlite3_bind_int64(insert, 1, key->integer);
            break;
        case SQLITE_FLOAT:
            sqlite3_bind_double(insert, 1, key->real);
            break;
        case SQLITE_TEXT:
            sqlite3_bind_text(insert, 1, key->bytes, key->length, SQLITE_STATIC);
            break;
        case SQLITE_BLOB:
            sqlite3_bind_blob(insert, 1, key->bytes, key->length, SQLITE_STATIC);
            break;
        default:
            sqlite3_bind_null(insert, 1);
            break;
        }
        CHECK(sqlite3_step(insert) == SQLITE_DONE);
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
}

/* Opens an in-memory database with the given encoding (NULL: default) and the extension loaded. */
static sqlite3 *open_with_extension(const char *extension, const char *encoding) {
    sqlite3 *db = NULL;
    char *err = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "cannot open a database\n");
        exit(2);
    }
    if (encoding != NULL) {
        char *sql = sqlite3_mprintf("PRAGMA encoding = %Q", encoding);
        CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
        sqlite3_free(sql);
    }
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL);
    if (!CHECK(sqlite3_load_extension(db, extension, NULL, &err) == SQLITE_OK)) {
        fprintf(stderr, "    %s\n", err ? err : "?");
    }
    sqlite3_free(err);
    return db;
}

/* Runs a query and returns its rows, one per line with columns joined by '|'; caller frees. */
static char *query_rows(sqlite3 *db, const char *sql) {
    sqlite3_stmt *stmt = NULL;
    sqlite3_str *out = sqlite3_str_new(db);
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        sqlite3_str_appendf(out, "error: %s", sqlite3_errmsg(db));
    }
    while (stmt != NULL && sqlite3_step(stmt) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(stmt); i++) {
            sqlite3_str_appendf(out, "%s%s", i ? "|" : "", sqlite3_column_text(stmt, i));
        }
        sqlite3_str_appendall(out, "\n");
    }
    sqlite3_finalize(stmt);
    return sqlite3_str_finish(out);
}

/* The extension adds exactly these functions to a connection, with these flags. */
static void test_registered_functions(const char *extension) {
    static const char *list = "SELECT name, type, enc, narg, flags FROM pragma_function_list "
                              "ORDER BY name, narg, type, enc, flags";
    sqlite3 *db = NULL;
    char *err = NULL;
    CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
    char *before = query_rows(db, list);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL);
    CHECK(sqlite3_load_extension(db, extension, NULL, &err) == SQLITE_OK);
    sqlite3_free(err);
    char *after = query_rows(db, list);

    /* Every line of before is still in after; the lines after adds are these. */
    sqlite3_str *added = sqlite3_str_new(db);
    for (char *line = after; *line != '\0';) {
        char *end = strchr(line, '\n');
        size_t len = (size_t)(end - line) + 1;
        int found = 0;
        for (char *b = before; *b != '\0' && !found; b = strchr(b, '\n') + 1) {
            found = strncmp(b, line, len) == 0;
        }
        if (!found) {
            sqlite3_str_append(added, line, (int)len);
        }
        line = end + 1;
    }
    char *added_lines = sqlite3_str_finish(added);
    /* 2099200 = SQLITE_DETERMINISTIC (0x800) | SQLITE_INNOCUOUS (0x200000); the in-place
    ** functions neither (0), those that write (bloom_add_in_place, bloom_remove_in_place,
    ** cms_add_in_place) and those that read a table they name, in any schema
    ** (bloom_might_contain_in_place, cms_count_in_place) alike (rule 15 (flags));
    ** bloom_parquet_write, which writes a file, SQLITE_DIRECTONLY (0x80000 = 524288) alone. */
    /* -1: every other number of arguments, whose error lists the forms. */
    CHECK_STR(added_lines, "bloom_add|s|utf8|-1|2099200\n"
                           "bloom_add|s|utf8|2|2099200\n"
                           "bloom_add_in_place|s|utf8|-1|2099200\n"
                           "bloom_add_in_place|s|utf8|4|0\n"
                           "bloom_build|a|utf8|-1|2099200\n"
                           "bloom_build|a|utf8|1|2099200\n"
                           "bloom_build|a|utf8|3|2099200\n"
                           "bloom_build|a|utf8|4|2099200\n"
                           "bloom_empty|s|utf8|-1|2099200\n"
                           "bloom_empty|s|utf8|2|2099200\n"
                           "bloom_empty|s|utf8|3|2099200\n"
                           "bloom_from_parquet|s|utf8|-1|2099200\n"
                           "bloom_from_parquet|s|utf8|2|2099200\n"
                           "bloom_from_spark|s|utf8|-1|2099200\n"
                           "bloom_from_spark|s|utf8|1|2099200\n"
                           "bloom_handle|s|utf8|-1|2099200\n"
                           "bloom_handle|s|utf8|1|2099200\n"
                           "bloom_info|s|utf8|-1|2099200\n"
                           "bloom_info|s|utf8|1|2099200\n"
                           "bloom_might_contain|s|utf8|-1|2099200\n"
                           "bloom_might_contain|s|utf8|2|2099200\n"
                           "bloom_might_contain_in_place|s|utf8|-1|2099200\n"
                           "bloom_might_contain_in_place|s|utf8|4|0\n"
                           "bloom_parquet_write|a|utf8|-1|2099200\n"
                           "bloom_parquet_write|a|utf8|5|524288\n"
                           "bloom_remove|s|utf8|-1|2099200\n"
                           "bloom_remove|s|utf8|2|2099200\n"
                           "bloom_remove_in_place|s|utf8|-1|2099200\n"
                           "bloom_remove_in_place|s|utf8|4|0\n"
                           "bloom_to_parquet|s|utf8|-1|2099200\n"
                           "bloom_to_parquet|s|utf8|1|2099200\n"
                           "bloom_to_spark|s|utf8|-1|2099200\n"
                           "bloom_to_spark|s|utf8|1|2099200\n"
                           "bloom_union|s|utf8|-1|2099200\n"
                           "bloom_union|a|utf8|1|2099200\n"
                           "bloom_union|s|utf8|2|2099200\n"
                           "bloom_version|s|utf8|-1|2099200\n"
                           "bloom_version|s|utf8|0|2099200\n"
                           "cms_add|s|utf8|-1|2099200\n"
                           "cms_add|s|utf8|2|2099200\n"
                           "cms_add|s|utf8|3|2099200\n"
                           "cms_add_in_place|s|utf8|-1|2099200\n"
                           "cms_add_in_place|s|utf8|4|0\n"
                           "cms_add_in_place|s|utf8|5|0\n"
                           "cms_build|a|utf8|-1|2099200\n"
                           "cms_build|a|utf8|3|2099200\n"
                           "cms_build|a|utf8|4|2099200\n"
                           "cms_build|a|utf8|5|2099200\n"
                           "cms_count|s|utf8|-1|2099200\n"
                           "cms_count|s|utf8|2|2099200\n"
                           "cms_count_in_place|s|utf8|-1|2099200\n"
                           "cms_count_in_place|s|utf8|4|0\n"
                           "cms_empty|s|utf8|-1|2099200\n"
                           "cms_empty|s|utf8|2|2099200\n"
                           "cms_empty|s|utf8|3|2099200\n"
                           "cms_info|s|utf8|-1|2099200\n"
                           "cms_info|s|utf8|1|2099200\n"
                           "cms_union|s|utf8|-1|2099200\n"
                           "cms_union|a|utf8|1|2099200\n"
                           "cms_union|s|utf8|2|2099200\n");
    CHECK(strlen(after) > strlen(before));
    sqlite3_free(before);
    sqlite3_free(after);
    sqlite3_free(added_lines);
    sqlite3_close(db);
}

/* What the flags of the count-min functions allow (rule 15 (flags)): the deterministic ones in a
** generated column, an index expression and a CHECK constraint; the in-place ones, which read
** tables, in none of them. (trusted_schema = OFF: tests/test_in_place.c.) */
static void test_countmin_flags(const char *extension) {
    sqlite3 *db = open_with_extension(extension, NULL);
    char *err = NULL;
    if (!CHECK(
            sqlite3_exec(db,
                         "CREATE TABLE t(s BLOB CHECK (json_extract(cms_info(s), '$.total') < 10),"
                         "  c AS (cms_count(s, 'x')), d AS (bloom_might_contain(s, 'x')));"
                         "CREATE INDEX t_y ON t(cms_count(s, 'y'));"
                         "INSERT INTO t(s) VALUES (cms_add(cms_empty(0.1, 0.1), 'x', 3));",
                         NULL, NULL, &err) == SQLITE_OK)) {
        fprintf(stderr, "    %s\n", err ? err : "?");
    }
    sqlite3_free(err);
    char *rows = query_rows(db, "SELECT c, d FROM t");
    CHECK_STR(rows, "3|1\n");
    sqlite3_free(rows);
    /* query_rows gives no row (NULL) for a step that fails; the message stays. */
    rows = query_rows(db, "INSERT INTO t(s) VALUES (cms_add(cms_empty(0.1, 0.1), 'x', 30))");
    CHECK(rows == NULL);
    CHECK_U64(sqlite3_extended_errcode(db), SQLITE_CONSTRAINT_CHECK);
    CHECK_STR(sqlite3_errmsg(db),
              "CHECK constraint failed: json_extract(cms_info(s), '$.total') < 10");
    static const struct {
        const char *sql, *message;
    } refused[] = {
        {"CREATE INDEX t_in_place ON t(cms_count_in_place('t', 's', 1, 'x'))",
         "error: non-deterministic functions prohibited in index expressions"},
        {"CREATE TABLE g(s BLOB, c AS (cms_add_in_place('g', 's', 1, 'x')))",
         "error: non-deterministic functions prohibited in generated columns"},
        {"CREATE TABLE g(s BLOB, c AS (cms_count_in_place('g', 's', 1, 'x')))",
         "error: non-deterministic functions prohibited in generated columns"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        rows = query_rows(db, refused[i].sql);
        CHECK_STR(rows, refused[i].message);
        sqlite3_free(rows);
    }
    sqlite3_close(db);
}

/* bloom_version() is the project version CMake knows; loading works without the suffix. */
static void test_version_and_loading(const char *extension, const char *version) {
    char *without_suffix = sqlite3_mprintf("%s", extension);
    char *dot = strrchr(without_suffix, '.');
    if (dot != NULL && strchr(dot, '/') == NULL) {
        *dot = '\0';
    }
    sqlite3 *db = open_with_extension(without_suffix, NULL);
    char *rows = query_rows(db, "SELECT bloom_version(), typeof(bloom_version())");
    char *expected = sqlite3_mprintf("%s|text\n", version);
    CHECK_STR(rows, expected);
    sqlite3_free(rows);
    sqlite3_free(expected);
    sqlite3_free(without_suffix);
    sqlite3_close(db);
}

/* Loading again on a connection that has this version's functions succeeds, also while a
** statement runs (rule 16 (loading)): from C, and as SQL from inside a statement. */
static void test_loading_twice(const char *extension) {
    sqlite3 *db = open_with_extension(extension, NULL);
    sqlite3_stmt *running = NULL, *again = NULL;
    char *err = NULL;
    CHECK(sqlite3_prepare_v2(db, "SELECT bloom_version() FROM (SELECT 1 UNION ALL SELECT 2)", -1,
                             &running, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(running) == SQLITE_ROW);
    if (!CHECK(sqlite3_load_extension(db, extension, NULL, &err) == SQLITE_OK)) {
        fprintf(stderr, "    %s\n", err ? err : "?");
    }
    sqlite3_free(err);
    char *sql = sqlite3_mprintf("SELECT load_extension(%Q)", extension);
    sqlite3_enable_load_extension(db, 1); /* the SQL function, besides the C API */
    CHECK(sqlite3_prepare_v2(db, sql, -1, &again, NULL) == SQLITE_OK);
    if (!CHECK(sqlite3_step(again) == SQLITE_ROW)) {
        fprintf(stderr, "    %s\n", sqlite3_errmsg(db));
    }
    CHECK(sqlite3_step(again) == SQLITE_DONE);
    CHECK(sqlite3_step(running) == SQLITE_ROW);
    sqlite3_finalize(again);
    sqlite3_finalize(running);
    char *rows = query_rows(db, "SELECT bloom_might_contain(bloom_build(1, 10, 0.01), 1)");
    CHECK_STR(rows, "1\n");
    sqlite3_free(rows);
    sqlite3_free(sql);
    sqlite3_close(db);
}

/* A bloom_version() of another version: the registration below cannot replace it. */
static void other_version(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, "0.0.0", -1, SQLITE_STATIC);
}

/* Every sqlite3_create_function return code is checked: one SQLite refuses fails the load
** (rule 16 (loading)), here a function of another version in use by a running statement. */
static void test_registration_failure(const char *extension) {
    sqlite3 *db = NULL;
    sqlite3_stmt *running = NULL;
    char *err = NULL;
    CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL);
    CHECK(sqlite3_create_function(db, "bloom_version", 0, SQLITE_UTF8, NULL, other_version, NULL,
                                  NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(db, "SELECT bloom_version() FROM (SELECT 1 UNION ALL SELECT 2)", -1,
                             &running, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(running) == SQLITE_ROW);
    CHECK(sqlite3_load_extension(db, extension, NULL, &err) != SQLITE_OK);
    CHECK_STR(err, "error during initialization: bloom: cannot register bloom_version(): unable "
                   "to delete/modify user-function due to active statements");
    sqlite3_free(err);
    sqlite3_finalize(running);
    sqlite3_close(db);
}

/* The golden filters, one for each kind, are the same bytes in every database encoding, and
** their keys probe 1; those of a kind that removes keys come back to the empty filter once
** each key is removed as often as it was added. */
static void test_golden(const char *extension, const char *golden_dir) {
    static const char *encodings[] = {NULL, "UTF-16le", "UTF-16be"};
    static const struct {
        const char *file, *build;
        size_t bytes;
        const char *empty;                 /* the empty filter, for a kind that removes keys */
        const char *answers_sql, *answers; /* a query of the fixture (?1), its values in order */
        int held; /* the golden keys it holds, of the 19: all, but a Parquet filter's, of its type
                   */
        const char *probed; /* the SQL types of the keys a probe takes: NULL, every one; a
                            ** Parquet filter's, its own (another is an error: rule 27
                            ** (Parquet filters)) */
    } fixtures[] = {
        {"standard_v1.hex", "SELECT bloom_build(k, 20, 0.01) FROM keys", 88, NULL, NULL, NULL, 19,
         NULL},
        {"blocked_v1.hex", "SELECT bloom_build(k, 20, 0.01, 'blocked') FROM keys", 128, NULL, NULL,
         NULL, 19, NULL},
        {"counting_v2.hex", "SELECT bloom_build(k, 20, 0.01, 'counting') FROM keys", 160,
         "bloom_empty(20, 0.01, 'counting')", NULL, NULL, 19, NULL},
        /* A cuckoo filter's bytes depend on the order of the adds: the rows in the README's
        ** order, which is their rowid order. */
        {"cuckoo_v2.hex",
         "SELECT bloom_build(k, 20, 0.01, 'cuckoo') FROM (SELECT k FROM keys ORDER BY rowid)", 114,
         "bloom_empty(20, 0.01, 'cuckoo')", NULL, NULL, 19, NULL},
        /* A scalable filter's bytes, and a conservative sketch's, depend on the order of the adds
        ** too. The scalable filter: 3 stages, 18 keys (42 once), adding 42 again changes nothing,
        ** and a key it does not hold. The sketches: the README's estimates of the 19 keys. */
        {"scalable_v2.hex",
         "SELECT bloom_build(k, 3, 0.01, 'scalable') FROM (SELECT k FROM keys ORDER BY rowid)", 304,
         NULL,
         "SELECT json_extract(i, '$.stage_count'), json_extract(i, '$.keys_added'), "
         "json_extract(i, '$.capacity'), bloom_add(?1, 42) = ?1, bloom_might_contain(?1, 'absent') "
         "FROM (SELECT bloom_info(?1) AS i)",
         "3 18 21 1 0", 19, NULL},
        {"countmin_v2.hex",
         "SELECT cms_build(k, rowid, 0.5, 0.1) FROM (SELECT rowid, k FROM keys ORDER BY rowid)",
         208, NULL, "SELECT cms_count(?1, k) FROM keys WHERE k IS NOT NULL ORDER BY rowid",
         "1 6 6 25 33 14 14 18 37 18 33 12 25 57 37 42 33 34 25", 19, NULL},
        {"countmin_conservative_v2.hex",
         "SELECT cms_build(k, rowid, 0.5, 0.1, 'conservative') FROM (SELECT rowid, k FROM keys "
         "ORDER BY rowid)",
         208, NULL, "SELECT cms_count(?1, k) FROM keys WHERE k IS NOT NULL ORDER BY rowid",
         "1 3 3 13 27 14 14 12 18 18 28 12 13 27 18 28 28 29 23", 19, NULL},
        /* Parquet filters hold the values of one type: of the 19 keys, the TEXT and BLOB ones
        ** (BYTE_ARRAY), or the INTEGER ones (INT64). A number probed in the first, a TEXT or
        ** BLOB in the second, is an error (tests/sql/parquet.sql); a REAL that is no INT64 is
        ** certainly absent. */
        {"parquet_v2.hex",
         "SELECT bloom_build(k, 20, 0.01, 'parquet') FROM keys WHERE typeof(k) IN ('text', "
         "'blob')",
         96, NULL,
         "SELECT bloom_might_contain(?1, k) FROM keys WHERE typeof(k) IN ('text', 'blob') ORDER "
         "BY rowid",
         "1 1 1 1 1 1 1", 7, "text blob"},
        {"parquet_int64_v2.hex",
         "SELECT bloom_build(k, 20, 0.01, 'parquet') FROM keys WHERE typeof(k) = 'integer'", 96,
         NULL,
         "SELECT bloom_might_contain(?1, k) FROM keys WHERE typeof(k) IN ('integer', 'real') "
         "ORDER BY rowid",
         "1 1 1 1 1 1 1 0 0 0 0 0", 7, "integer real"},
        /* A binary fuse filter's bytes depend on the set of keys alone: the rows backwards, each
        ** twice; 18 distinct keys. */
        {"fuse_v2.hex",
         "SELECT bloom_build(k, 20, 0.01, 'fuse') FROM (SELECT k FROM keys UNION ALL SELECT k "
         "FROM keys ORDER BY 1 DESC)",
         106, NULL,
         "SELECT json_extract(i, '$.keys_added'), json_extract(i, '$.fingerprint_bits'), "
         "json_extract(i, '$.slots') FROM (SELECT bloom_info(?1) AS i)",
         "18 7 48", 19, NULL},
        /* A Spark filter holds Spark's keys: the INTEGER, TEXT and BLOB ones (a REAL is an
        ** error, tests/sql/spark.sql); its bytes as Spark writes them. */
        {"spark_v3.hex",
         "SELECT bloom_build(k, 20, 0.01, 'spark') FROM keys WHERE typeof(k) <> 'real'", 88, NULL,
         "SELECT json_extract(i, '$.keys_added'), json_extract(i, '$.k'), json_extract(i, "
         "'$.seed'), hex(bloom_to_spark(?1)) FROM (SELECT bloom_info(?1) AS i)",
         "14 7 0 000000020000000700000000000000030043121122100B810F592C54958C7025C87314081866A1C5",
         14, "integer text blob"},
    };
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        uint8_t golden[512];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", golden_dir, fixtures[f].file);
        size_t golden_len = read_hex_file(path, golden, sizeof golden);
        CHECK_U64(golden_len, fixtures[f].bytes);
        for (size_t e = 0; e < sizeof encodings / sizeof encodings[0]; e++) {
            sqlite3 *db = open_with_extension(extension, encodings[e]);
            sqlite3_stmt *stmt = NULL;
            insert_golden_keys(db);
            CHECK(sqlite3_prepare_v2(db, fixtures[f].build, -1, &stmt, NULL) == SQLITE_OK);
            CHECK(sqlite3_step(stmt) == SQLITE_ROW);
            int bytes = sqlite3_column_bytes(stmt, 0);
            const void *blob = sqlite3_column_blob(stmt, 0);
            CHECK_U64(bytes, golden_len);
            if (!CHECK(bytes == (int)golden_len && memcmp(blob, golden, golden_len) == 0)) {
                fprintf(stderr, "    %s, encoding %s\n", fixtures[f].file,
                        encodings[e] ? encodings[e] : "UTF-8");
            }
            sqlite3_finalize(stmt);

            /* The committed fixture, bound as a parameter, holds every key. */
            CHECK(sqlite3_prepare_v2(db,
                                     "SELECT count(*), sum(CASE WHEN ?2 IS NULL OR instr(?2, "
                                     "typeof(k)) THEN bloom_might_contain(?1, k) END) FROM keys "
                                     "WHERE k IS NOT NULL",
                                     -1, &stmt, NULL) == SQLITE_OK);
            sqlite3_bind_blob(stmt, 1, golden, (int)golden_len, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 2, fixtures[f].probed, -1, SQLITE_STATIC);
            CHECK(sqlite3_step(stmt) == SQLITE_ROW);
            CHECK_U64(sqlite3_column_int(stmt, 0), 19);
            CHECK_U64(sqlite3_column_int(stmt, 1), fixtures[f].held);
            sqlite3_finalize(stmt);

            /* What the committed fixture answers, as tests/golden/README.md says. */
            if (fixtures[f].answers_sql != NULL) {
                sqlite3_str *got = sqlite3_str_new(db);
                CHECK(sqlite3_prepare_v2(db, fixtures[f].answers_sql, -1, &stmt, NULL) ==
                      SQLITE_OK);
                sqlite3_bind_blob(stmt, 1, golden, (int)golden_len, SQLITE_STATIC);
                while (sqlite3_step(stmt) == SQLITE_ROW) {
                    for (int c = 0; c < sqlite3_column_count(stmt); c++) {
                        sqlite3_str_appendf(got, "%s%s", sqlite3_str_length(got) ? " " : "",
                                            (const char *)sqlite3_column_text(stmt, c));
                    }
                }
                sqlite3_finalize(stmt);
                char *answers = sqlite3_str_finish(got);
                if (!CHECK(answers != NULL && strcmp(answers, fixtures[f].answers) == 0)) {
                    fprintf(stderr, "    %s: got \"%s\", expected \"%s\"\n", fixtures[f].file,
                            answers ? answers : "(null)", fixtures[f].answers);
                }
                sqlite3_free(answers);
            }

            /* Every row removed from the committed fixture, in order (the NULL row leaves it
            ** as it is, 42 goes twice): the empty filter. */
            if (fixtures[f].empty != NULL) {
                char *sql = sqlite3_mprintf(
                    "WITH RECURSIVE r(i, f) AS (SELECT 0, ?1 UNION ALL "
                    "SELECT i + 1, bloom_remove(f, (SELECT k FROM keys WHERE rowid = i + 1)) "
                    "FROM r WHERE i < (SELECT max(rowid) FROM keys)) "
                    "SELECT count(*), f IS %s FROM (SELECT f FROM r ORDER BY i DESC LIMIT 1)",
                    fixtures[f].empty);
                CHECK(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK);
                sqlite3_bind_blob(stmt, 1, golden, (int)golden_len, SQLITE_STATIC);
                if (!CHECK(sqlite3_step(stmt) == SQLITE_ROW)) {
                    fprintf(stderr, "    %s\n", sqlite3_errmsg(db));
                }
                CHECK_U64(sqlite3_column_int(stmt, 0), 1);
                CHECK_U64(sqlite3_column_int(stmt, 1), 1);
                sqlite3_finalize(stmt);
                sqlite3_free(sql);
            }
            sqlite3_close(db);
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s EXTENSION VERSION GOLDEN_DIR\n", argv[0]);
        return 2;
    }
    test_registered_functions(argv[1]);
    test_countmin_flags(argv[1]);
    test_version_and_loading(argv[1], argv[2]);
    test_loading_twice(argv[1]);
    test_registration_failure(argv[1]);
    test_golden(argv[1], argv[3]);
    return check_report("test_api");
}
