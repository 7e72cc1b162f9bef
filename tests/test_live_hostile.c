/*
** test_live_hostile.c: a live table (rule 26 (live table)) in a database file that someone else
** wrote, and defensive mode however the extension is loaded.
**
** Usage: test_live_hostile EXTENSION SCRATCH
**
** Checks
**  1. crafted files, written as a red team wrote them to crash 0.2.0, opened afresh: a filter
**     whose row claims 2^32 - 1 chunks (a Bloom filter's m to match) and one of 2^32 + 3, a
**     scalable filter that claims as many: every probe, add, snapshot and check is an error
**     that names the filter and its length, never a crash; eight filters that claim the
**     longest BLOB SQLite allows, in chunks of 64 bytes, probed: SQLite's memory in use rises
**     by less than 4 MB (0.2.0: 1 GB); a chunk whose count is the largest INTEGER, then an add
**     and a snapshot; a chunk whose bytes are x'', snapshot: its bytes read as zeros;
**  2. defensive mode guards the shadow tables of a live table whose schema the connection
**     read before it loaded the extension (PRAGMA journal_mode = WAL first, as the red team
**     did): the UPDATE that zeroed a chunk is refused, the key still probes 1 and (SQLite 3.37
**     and later) PRAGMA table_list calls the tables shadow tables; writable_schema, when on,
**     stays on; a load inside a transaction, or while a statement runs, is refused with a
**     message that says how to load, and leaves no function behind, after which a load outside
**     them succeeds; a database without a live table loads inside a transaction.
*/
#include <sqlite3.h>

#include "check.h"
#include "database.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

static const char *extension_path, *scratch_dir;

/* The chunk size of a table on pages of 4,096 bytes, and the longest BLOB SQLite allows. */
#define CHUNK_BYTES 4032LL
#define LONGEST_BLOB 2147483647LL

/* A connection to the file name in the scratch directory, the extension loaded when load is
** set (defensive mode first when defensive is); exits on failure. */
static sqlite3 *open_db(const char *name, int load, int defensive) {
    sqlite3 *db = NULL;
    char *err = NULL, *path = sqlite3_mprintf("%s/%s", scratch_dir, name);
    if (sqlite3_open(path, &db) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, defensive, NULL) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        (load && sqlite3_load_extension(db, extension_path, NULL, &err) != SQLITE_OK)) {
        fprintf(stderr, "test_live_hostile: cannot open %s with %s: %s\n", path, extension_path,
                err ? err : sqlite3_errmsg(db));
        exit(2);
    }
    sqlite3_free(path);
    return db;
}

/* Removes the file name of the scratch directory and its journals. */
static void remove_scratch(const char *name) {
    char *path = sqlite3_mprintf("%s/%s", scratch_dir, name);
    remove_database(path);
    sqlite3_free(path);
}

/* Whether out, an answer of db_run, is an error whose message contains text. */
static int is_error_with(const char *out, const char *text) {
    return strncmp(out, "error ", 6) == 0 && strstr(out, text) != NULL;
}

/* ---- 1. Crafted files. */

/* Makes the file name with a live table t of kind (n = 100, p = 0.01) holding the keys 1 to
** 50 in the filters NULL, 'a' ... up to filters of them. */
static void make_table(const char *name, const char *kind, int filters) {
    remove_scratch(name);
    sqlite3 *db = open_db(name, 1, 0);
    db_execf(db, "CREATE VIRTUAL TABLE t USING bloom(kind = '%s', n = 100, p = 0.01)", kind);
    db_execf(db,
             "WITH RECURSIVE k(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM k WHERE v < 50), "
             "f(i, name) AS (SELECT 0, NULL UNION ALL SELECT i + 1, char(97 + i) FROM f WHERE "
             "i + 1 < %d) INSERT INTO t(name, key) SELECT name, v FROM f, k",
             filters);
    sqlite3_close(db);
}

/* Has every filter of the file name claim body bytes past its header in chunks of chunk_bytes,
** its m (a Bloom filter's, 8 bytes at offset 16 of its header) to match when set_m. */
static void claim(const char *name, long long body, long long chunk_bytes, int set_m) {
    sqlite3 *db = open_db(name, 0, 0);
    sqlite3_stmt *read = NULL, *write = NULL;
    CHECK(sqlite3_prepare_v2(db, "SELECT id, header FROM t_filters", -1, &read, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(db,
                             "UPDATE t_filters SET header = ?2, bytes = ?3, chunk_bytes = ?4 "
                             "WHERE id = ?1",
                             -1, &write, NULL) == SQLITE_OK);
    while (sqlite3_step(read) == SQLITE_ROW) {
        unsigned char header[64];
        CHECK(sqlite3_column_bytes(read, 1) == (int)sizeof header);
        memcpy(header, sqlite3_column_blob(read, 1), sizeof header);
        for (int i = 0; set_m && i < 8; i++) {
            header[16 + i] = (unsigned char)((unsigned long long)(body * 8) >> (8 * i));
        }
        sqlite3_bind_int64(write, 1, sqlite3_column_int64(read, 0));
        sqlite3_bind_blob(write, 2, header, sizeof header, SQLITE_TRANSIENT);
        sqlite3_bind_int64(write, 3, 64 + body);
        sqlite3_bind_int64(write, 4, chunk_bytes);
        CHECK(sqlite3_step(write) == SQLITE_DONE);
        sqlite3_reset(write);
    }
    sqlite3_finalize(read);
    sqlite3_finalize(write);
    sqlite3_close(db);
}

/* What reads or changes a filter, each of which a filter too long must refuse. */
static const char *const statements[] = {
    "SELECT count(*) FROM t WHERE key = 1",
    "SELECT name FROM t WHERE name IS NULL AND key = 2",
    "INSERT INTO t(key) VALUES (5)",
    "SELECT length(filter) FROM t",
    "SELECT count FROM t",
    "DELETE FROM t WHERE key = 1",
};

/* Filters whose rows claim more chunks than 32 bits count: every statement an error that names
** the length, PRAGMA integrity_check a report of it where SQLite asks the table (3.44). */
static void test_too_long(const char *kind, int set_m, long long chunks) {
    make_table("long.db", kind, 1);
    claim("long.db", chunks * CHUNK_BYTES, CHUNK_BYTES, set_m);
    sqlite3 *db = open_db("long.db", 1, 0);
    for (size_t i = 0; i < sizeof statements / sizeof statements[0]; i++) {
        const char *out = db_run(db, statements[i]);
        if (!CHECK(is_error_with(out, "more than SQLite's longest BLOB (2147483647)"))) {
            fprintf(stderr, "    %s, %lld chunks: %s\n    %s\n", kind, chunks, statements[i], out);
        }
    }
    const char *check = db_run(db, "PRAGMA integrity_check");
    CHECK(sqlite3_libversion_number() >= 3044000 ? strstr(check, "longest BLOB") != NULL
                                                 : strcmp(check, "ok") == 0);
    sqlite3_close(db);
}

/* Eight filters that claim the longest BLOB in chunks of 64 bytes, probed: what the table
** allocates follows the rows it reads. */
static void test_longest_claims(void) {
    make_table("many.db", "blocked", 8);
    claim("many.db", (LONGEST_BLOB - 64) / 64 * 64, 64, 1);
    sqlite3 *db = open_db("many.db", 1, 0);
    sqlite3_int64 before = sqlite3_memory_used();
    sqlite3_memory_highwater(1);
    for (int key = 1; key <= 20; key++) {
        char sql[64];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM t WHERE key = %d", key);
        const char *out = db_run(db, sql);
        CHECK(strncmp(out, "error", 5) != 0);
    }
    sqlite3_int64 rise = sqlite3_memory_highwater(0) - before;
    if (!CHECK(rise < 4 << 20)) {
        fprintf(stderr, "    probes of 8 filters claiming 2 GB each: %lld bytes more in use\n",
                (long long)rise);
    }
    CHECK(is_error_with(db_run(db, "SELECT length(filter) FROM t"), "too big"));
    sqlite3_close(db);
}

/* A chunk whose count is the largest INTEGER, and one whose bytes are x''. */
static void test_odd_chunks(void) {
    make_table("chunks.db", "blocked", 1);
    sqlite3 *db = open_db("chunks.db", 0, 0);
    exec(db, "UPDATE t_chunks SET keys = 9223372036854775807 WHERE id = (SELECT min(id) FROM "
             "t_chunks)");
    sqlite3_close(db);
    db = open_db("chunks.db", 1, 0);
    CHECK_STR(db_run(db, "INSERT INTO t(key) VALUES (777)"), "");
    CHECK_STR(db_run(db, "SELECT count(*) FROM t WHERE key = 777"), "1");
    CHECK_STR(
        db_run(db, "SELECT json_extract(bloom_info(filter), '$.keys_added') >= 9.2e18 FROM t"),
        "1");
    sqlite3_close(db);
    db = open_db("chunks.db", 0, 0);
    exec(db, "UPDATE t_chunks SET data = x'' WHERE id = (SELECT max(id) FROM t_chunks)");
    sqlite3_close(db);
    db = open_db("chunks.db", 1, 0);
    CHECK_STR(db_run(db, "SELECT length(filter) = (SELECT bytes FROM t_filters) FROM t"), "1");
    sqlite3_close(db);
}

/* ---- 2. Defensive mode, however the extension is loaded. */

/* Whether db, defensive, refuses SQL that zeroes t's chunks, and t still holds the key 1. */
static void check_guarded(sqlite3 *db, const char *how) {
    const char *out = db_run(db, "UPDATE t_chunks SET data = zeroblob(length(data))");
    if (!CHECK(is_error_with(out, "t_chunks may not be modified"))) {
        fprintf(stderr, "    %s: %s\n", how, out);
    }
    CHECK_STR(db_run(db, "SELECT count(*) FROM t WHERE key = 1"), "1");
    if (sqlite3_libversion_number() >= 3037000) {
        CHECK_STR(db_run(db, "SELECT group_concat(type) FROM pragma_table_list WHERE name IN "
                             "('t_config', 't_filters', 't_chunks')"),
                  "shadow,shadow,shadow");
    }
}

/* Loads the extension into db: SQLITE_OK, or the error with its message in *message (from
** sqlite3_malloc: sqlite3_free it). */
static int load(sqlite3 *db, char **message) {
    *message = NULL;
    return sqlite3_load_extension(db, extension_path, NULL, message);
}

static void test_defensive(void) {
    char *message;
    make_table("defensive.db", "standard", 1);

    /* The schema read first, as PRAGMA journal_mode does. */
    sqlite3 *db = open_db("defensive.db", 0, 1);
    exec(db, "PRAGMA journal_mode = WAL");
    CHECK(load(db, &message) == SQLITE_OK);
    check_guarded(db, "schema read by PRAGMA journal_mode");
    sqlite3_close(db);

    /* writable_schema on: read again, and still on. */
    db = open_db("defensive.db", 0, 0);
    int writable = 0;
    sqlite3_db_config(db, SQLITE_DBCONFIG_WRITABLE_SCHEMA, 1, NULL);
    exec(db, "SELECT count(*) FROM sqlite_master");
    CHECK(load(db, &message) == SQLITE_OK);
    sqlite3_db_config(db, SQLITE_DBCONFIG_WRITABLE_SCHEMA, -1, &writable);
    CHECK(writable == 1);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    check_guarded(db, "schema read with writable_schema on");
    sqlite3_close(db);

    /* In a transaction: refused, nothing left behind; after it, loaded. */
    db = open_db("defensive.db", 0, 1);
    exec(db, "BEGIN; SELECT count(*) FROM sqlite_master");
    CHECK(load(db, &message) == SQLITE_ERROR);
    CHECK(message != NULL && strstr(message, "live table main.t") != NULL &&
          strstr(message, "while a transaction is open; load the extension before the first "
                          "statement") != NULL);
    sqlite3_free(message);
    CHECK(is_error_with(db_run(db, "SELECT bloom_version()"), "no such function"));
    exec(db, "COMMIT");
    CHECK(load(db, &message) == SQLITE_OK);
    check_guarded(db, "loaded after a transaction");
    sqlite3_close(db);

    /* While a statement runs: refused; after it, loaded. */
    db = open_db("defensive.db", 0, 1);
    sqlite3_stmt *running = NULL;
    CHECK(sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master", -1, &running, NULL) ==
          SQLITE_OK);
    CHECK(sqlite3_step(running) == SQLITE_ROW);
    CHECK(load(db, &message) == SQLITE_ERROR);
    CHECK(message != NULL && strstr(message, "while a statement runs") != NULL);
    sqlite3_free(message);
    sqlite3_finalize(running);
    CHECK(load(db, &message) == SQLITE_OK);
    check_guarded(db, "loaded after a statement");
    sqlite3_close(db);

    /* A database without a live table loads in a transaction. */
    remove_scratch("plain.db");
    db = open_db("plain.db", 0, 1);
    exec(db, "CREATE TABLE p(x); BEGIN; SELECT count(*) FROM p");
    CHECK(load(db, &message) == SQLITE_OK);
    CHECK_STR(db_run(db, "SELECT bloom_version() IS NOT NULL"), "1");
    exec(db, "COMMIT");
    sqlite3_close(db);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s EXTENSION SCRATCH\n", argv[0]);
        return 2;
    }
    extension_path = argv[1];
    scratch_dir = argv[2];
    if (mkdir(scratch_dir, 0755) != 0 && errno != EEXIST) {
        perror("test_live_hostile: cannot make the scratch directory");
        return 2;
    }
    test_too_long("blocked", 1, (1LL << 32) - 1);
    test_too_long("standard", 1, (1LL << 32) + 3);
    test_too_long("scalable", 0, (1LL << 32) - 1);
    test_longest_claims();
    test_odd_chunks();
    test_defensive();
    CHECK_U64(sqlite3_memory_used(), 0);
    return check_report("test_live_hostile");
}
