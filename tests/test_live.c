/*
** test_live.c: the bloom virtual table (rule 26 (live table)) on database
** files, as several connections, processes and SQLite's own copies see it.
**
** Usage: test_live EXTENSION SCRATCH [SQLITE3]
**
** SCRATCH is a directory (made if missing) for the database files the test
** creates; SQLITE3 the sqlite3 shell for .dump (default: sqlite3 on the PATH;
** that part is skipped, with a message, when it cannot run). A key "not
** there" is always one that probed 0 before it was added: a filter may
** answer 1 for a key never added. Checks
**  1. a second connection, in WAL and in rollback-journal mode, sees only
**     what another committed: keys added in an open transaction probe 0 there
**     until COMMIT, then 1, also after it probed (its cache refreshed at each
**     commit), and so do a named filter made, a key removed and a filter
**     dropped; two connections adding to the same chunk in turn lose no key;
**     in WAL mode a read transaction keeps its snapshot;
**  2. SIGKILL: a child process adds keys, one autocommit transaction each
**     (directly, or through a trigger that also adds to a scalable and a
**     counting filter and removes from the counting one) and some in explicit
**     transactions, and reports each key's index on a pipe once its COMMIT has
**     returned; killed after some commits, with varied delays, in WAL mode
**     (synchronous NORMAL, checkpoints every 5 pages, and FULL) and in DELETE
**     mode (FULL and NORMAL): every reported key probes 1, PRAGMA
**     integrity_check is ok, keys_added is at least the reported count, each
**     snapshot is the BLOB of bloom_build of the keys the table counts, in
**     order, and the ordinary table the trigger fills agrees with the filters;
**  3. VACUUM, VACUUM INTO, the backup API (also over a connection that had
**     cached other filters of the same name) and the shell's .dump restored by
**     the shell (with and without .load) and by sqlite3_exec: every filter
**     snapshots to the same bytes and answers the same; a defensive connection
**     cannot restore the dump (SQLite refuses to write sqlite_schema);
**  4. after many adds, removes and dropped filters, PRAGMA integrity_check
**     is ok, and (where SQLite has dbstat) no chunk row uses an overflow page
**     at page sizes 512, 1024, 4096 and 65536 and with reserved bytes, for
**     filters of 1,000,000 keys (blocked and standard) that hold 20,000, whose
**     snapshots are bloom_build's;
**  5. last_insert_rowid(): an INSERT into the table from a trigger leaves the
**     outer INSERT's rowid, the store's own writes (at COMMIT, RELEASE, a new
**     filter) never change it, and a direct INSERT gives the row's rowid (its
**     filter's id), as SQLite promises for a virtual table; an INSERT OR
**     IGNORE that is ignored changes neither it nor changes();
**  6. ROLLBACK, ROLLBACK TO (nested) and a failed statement undo adds,
**     removes, a scalable filter's growth, a new filter and a dropped one, for
**     the blocked, counting, scalable and cuckoo kinds: the keys probe 0 again,
**     the snapshot is byte for byte the one before, and what was kept commits
**     to bloom_build's BLOB of the keys kept;
**  7. an add, and a remove, on a connection right after the other connection
**     committed one (WAL and rollback-journal mode) reads fewer than 30
**     pages of a filter of 298 to 1,189 chunk rows, for every kind that
**     counts by steps and the scalable kind, whose stages hold its count, and
**     both connections then count every key.
*/
#define _GNU_SOURCE /* dl_iterate_phdr, for the sanitizer runtime the shell must preload */
#include <sqlite3.h>

#include "check.h"
#include "database.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *extension_path, *scratch_dir, *shell_path = "sqlite3";

/* ---- Connections, statements and BLOBs. */

/* The path of file name in the scratch directory (sqlite3_free it). */
static char *scratch_path(const char *name) {
    return sqlite3_mprintf("%s/%s", scratch_dir, name);
}

/* A connection to path with the extension loaded and a busy timeout; exits on failure. */
static sqlite3 *open_db(const char *path) {
    sqlite3 *db = NULL;
    char *err = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(db, extension_path, NULL, &err) != SQLITE_OK ||
        sqlite3_busy_timeout(db, 10000) != SQLITE_OK) {
        fprintf(stderr, "test_live: cannot open %s with %s: %s\n", path, extension_path,
                err ? err : sqlite3_errmsg(db));
        exit(2);
    }
    return db;
}

/* db_run_with's answer as a number (-1 when it is not one, printing it). */
static long long run_number(sqlite3 *db, const char *sql, const char *text, long long number) {
    const char *out = db_run_with(db, sql, text, number);
    char *end = NULL;
    long long value = strtoll(out, &end, 10);
    if (out[0] == '\0' || *end != '\0') {
        fprintf(stderr, "    not a number: \"%s\"\n    from %s\n", out, sql);
        return -1;
    }
    return value;
}

/* Bytes copied into the C heap. */
typedef struct bytes {
    unsigned char *data;
    size_t length;
} bytes;

/* Appends n bytes to b; exits when memory runs out. */
static void bytes_append(bytes *b, const void *data, size_t n) {
    unsigned char *grown = realloc(b->data, b->length + n + 1);
    if (grown == NULL) {
        fprintf(stderr, "test_live: out of memory in the test itself\n");
        exit(2);
    }
    b->data = grown;
    if (n > 0) {
        memcpy(b->data + b->length, data, n);
    }
    b->length += n;
}

static void bytes_free(bytes *b) {
    free(b->data);
    b->data = NULL;
    b->length = 0;
}

static int bytes_equal(const bytes *a, const bytes *b) {
    return a->length == b->length && (a->length == 0 || memcmp(a->data, b->data, a->length) == 0);
}

/* Appends each row of sql (?1, if any, bound to number) to b: its column 0 (a name) as text
** with its NUL (a lone NUL for NULL), the length of column 1 (a BLOB), its bytes; "error: ..."
** if it fails. */
static void bytes_append_rows(bytes *b, sqlite3 *db, const char *sql, long long number) {
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK && sqlite3_bind_parameter_count(stmt) >= 1) {
        sqlite3_bind_int64(stmt, 1, number);
    }
    while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(stmt, 0);
        unsigned long long length = (unsigned long long)sqlite3_column_bytes(stmt, 1);
        bytes_append(b, name != NULL ? name : "", name != NULL ? strlen(name) + 1 : 1);
        bytes_append(b, &length, sizeof length);
        bytes_append(b, sqlite3_column_blob(stmt, 1), (size_t)length);
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE) {
        const char *message = sqlite3_errmsg(db);
        bytes_append(b, "error: ", 7);
        bytes_append(b, message, strlen(message));
        fprintf(stderr, "    %s\n    error: %s\n", sql, message);
    }
    sqlite3_finalize(stmt);
}

/* The snapshots of table's filters (SELECT name, filter), as bytes_append_rows makes them. */
static bytes table_state(sqlite3 *db, const char *table) {
    bytes b = {NULL, 0};
    char *sql = sqlite3_mprintf("SELECT name, filter FROM \"%w\" ORDER BY rowid", table);
    bytes_append_rows(&b, db, sql, 0);
    sqlite3_free(sql);
    return b;
}

/* Whether table's snapshots are exactly b. */
static int state_is(sqlite3 *db, const char *table, const bytes *b) {
    bytes now = table_state(db, table);
    int same = bytes_equal(&now, b);
    bytes_free(&now);
    return same;
}

/* Whether the unnamed filter of table snapshots to the BLOB that sql (one row, one BLOB, ?1
** bound to number) builds. */
static int snapshot_is_built(sqlite3 *db, const char *table, const char *sql, long long number) {
    bytes built = {NULL, 0}, now = {NULL, 0};
    char *sql_now = sqlite3_mprintf("SELECT name, filter FROM \"%w\" WHERE name IS NULL", table);
    char *sql_built = sqlite3_mprintf("SELECT NULL, (%s)", sql);
    bytes_append_rows(&now, db, sql_now, 0);
    bytes_append_rows(&built, db, sql_built, number);
    int same = built.length > 16 && bytes_equal(&now, &built);
    if (!same) {
        fprintf(stderr, "    %s: snapshot of %zu bytes, built %zu bytes (%s, %lld)\n", table,
                now.length, built.length, sql, number);
    }
    sqlite3_free(sql_now);
    sqlite3_free(sql_built);
    bytes_free(&built);
    bytes_free(&now);
    return same;
}

/* How many filters of table might hold key, or -1. */
static long long probe(sqlite3 *db, const char *table, const char *key) {
    char *sql = sqlite3_mprintf("SELECT count(*) FROM \"%w\" WHERE key = ?1", table);
    long long answer = run_number(db, sql, key, 0);
    sqlite3_free(sql);
    return answer;
}

/* The keys_added of table's unnamed filter, or -1. */
static long long keys_added(sqlite3 *db, const char *table) {
    char *sql = sqlite3_mprintf("SELECT json_extract(bloom_info(filter), '$.keys_added') FROM "
                                "\"%w\" WHERE name IS NULL",
                                table);
    long long answer = run_number(db, sql, NULL, 0);
    sqlite3_free(sql);
    return answer;
}

/* How many of the keys 'k' || i, for i from 0 below count, table's filters might hold. */
static long long present_count(sqlite3 *db, const char *table, long long count) {
    char *sql = sqlite3_mprintf("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n "
                                "WHERE i + 1 < ?1) SELECT count(*) FROM n WHERE EXISTS (SELECT 1 "
                                "FROM \"%w\" WHERE key = 'k' || i)",
                                table);
    long long answer = count > 0 ? run_number(db, sql, NULL, count) : 0;
    sqlite3_free(sql);
    return answer;
}

/* A key as text. */
typedef struct key_text {
    char text[40];
} key_text;

/* Fills keys with count keys prefix || i, i from 0 up, that every filter of table (on each of
** the connections a and b, b may be NULL) probes as 0: keys certainly not there. */
static void pick_absent(sqlite3 *a, sqlite3 *b, const char *table, const char *prefix,
                        key_text *keys, int count) {
    int found = 0;
    for (int i = 0; found < count && i < 100000; i++) {
        snprintf(keys[found].text, sizeof keys[found].text, "%s%d", prefix, i);
        if (probe(a, table, keys[found].text) == 0 &&
            (b == NULL || probe(b, table, keys[found].text) == 0)) {
            found++;
        }
    }
    if (!CHECK(found == count)) {
        exit(1);
    }
}

/* Adds key to table's filter called name (NULL: the unnamed one). */
static void add_key(sqlite3 *db, const char *table, const char *name, const char *key) {
    char *sql = name == NULL
                    ? sqlite3_mprintf("INSERT INTO \"%w\"(key) VALUES (?1)", table)
                    : sqlite3_mprintf("INSERT INTO \"%w\"(name, key) VALUES (%Q, ?1)", table, name);
    CHECK_STR(db_run_with(db, sql, key, 0), "");
    sqlite3_free(sql);
}

/* PRAGMA integrity_check must say ok. */
static void check_integrity(sqlite3 *db, const char *what) {
    const char *answer = db_run(db, "PRAGMA integrity_check");
    if (!CHECK(strcmp(answer, "ok") == 0)) {
        fprintf(stderr, "    %s: integrity_check: %s\n", what, answer);
    }
}

/* ---- 1. A second connection sees what was committed. */

static void test_second_connection(const char *mode) {
    char *name = sqlite3_mprintf("second_%s.db", mode), *path = scratch_path(name);
    char *pragma = sqlite3_mprintf("PRAGMA journal_mode = %s", mode);
    int wal = strcmp(mode, "wal") == 0;
    remove_database(path);
    sqlite3 *a = open_db(path);
    CHECK_STR(db_run(a, pragma), mode);
    exec(a, "CREATE VIRTUAL TABLE seen USING bloom(kind = 'blocked', n = 100000, p = 0.01);"
            "CREATE VIRTUAL TABLE parts USING bloom(kind = 'counting', n = 1000, p = 0.01);"
            "CREATE VIRTUAL TABLE tiny USING bloom(kind = 'standard', n = 500, p = 0.01);"
            "INSERT INTO seen(key) WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n"
            " WHERE i + 1 < 500) SELECT 'k' || i FROM n;");
    sqlite3 *b = open_db(path);
    CHECK_STR(db_run(b, "PRAGMA journal_mode"), mode);
    CHECK_U64(present_count(b, "seen", 500), 500); /* B's cache holds chunks now */
    key_text keys[30];
    pick_absent(a, b, "seen", "new", keys, 30);
    bytes before = table_state(b, "seen");

    /* Added in A's open transaction: 1 to A, 0 to B until A commits. */
    exec(a, "BEGIN");
    for (int i = 0; i < 10; i++) {
        add_key(a, "seen", NULL, keys[i].text);
        CHECK_U64(probe(a, "seen", keys[i].text), 1);
    }
    for (int i = 0; i < 10; i++) {
        CHECK_U64(probe(b, "seen", keys[i].text), 0);
    }
    CHECK(state_is(b, "seen", &before));
    exec(a, "COMMIT");
    for (int i = 0; i < 10; i++) {
        CHECK_U64(probe(b, "seen", keys[i].text), 1);
    }
    bytes after = table_state(a, "seen");
    CHECK(state_is(b, "seen", &after));
    CHECK(!bytes_equal(&before, &after));

    /* Again, after B probed: its cache must not answer from before A's second commit. */
    exec(a, "BEGIN");
    for (int i = 10; i < 20; i++) {
        add_key(a, "seen", NULL, keys[i].text);
    }
    for (int i = 10; i < 20; i++) {
        CHECK_U64(probe(b, "seen", keys[i].text), 0);
    }
    CHECK(state_is(b, "seen", &after));
    exec(a, "COMMIT");
    for (int i = 0; i < 20; i++) {
        CHECK_U64(probe(b, "seen", keys[i].text), 1);
    }
    /* An autocommit add. */
    CHECK_U64(probe(b, "seen", keys[20].text), 0);
    add_key(a, "seen", NULL, keys[20].text);
    CHECK_U64(probe(b, "seen", keys[20].text), 1);
    CHECK_U64(keys_added(b, "seen"), 521);
    bytes_free(&after);
    after = table_state(a, "seen");
    CHECK(state_is(b, "seen", &after));

    /* A named filter made, a key removed, the filter dropped: each seen by B once committed. */
    CHECK_STR(db_run(b, "SELECT count(*) FROM parts"), "0");
    exec(a, "BEGIN");
    add_key(a, "parts", "p", keys[21].text);
    CHECK_STR(db_run(b, "SELECT count(*) FROM parts"), "0");
    CHECK_STR(db_run_with(b, "SELECT count(*) FROM parts WHERE key = ?1", keys[21].text, 0), "0");
    exec(a, "COMMIT");
    CHECK_STR(db_run_with(b, "SELECT name FROM parts WHERE key = ?1", keys[21].text, 0), "p");
    exec(a, "BEGIN");
    CHECK_STR(db_run_with(a, "DELETE FROM parts WHERE name = 'p' AND key = ?1", keys[21].text, 0),
              "");
    CHECK_STR(db_run_with(b, "SELECT name FROM parts WHERE key = ?1", keys[21].text, 0), "p");
    exec(a, "COMMIT");
    /* The filter held that key alone: empty now, it holds nothing. */
    CHECK_STR(db_run_with(b, "SELECT count(*) FROM parts WHERE key = ?1", keys[21].text, 0), "0");
    CHECK_STR(db_run(b, "SELECT count(*) || '|' || sum(json_extract(bloom_info(filter), "
                        "'$.keys_added')) FROM parts"),
              "1|0");
    exec(a, "DELETE FROM parts WHERE name = 'p'");
    CHECK_STR(db_run(b, "SELECT count(*) FROM parts"), "0");

    /* Both connections add to the same chunk (tiny's filter is one chunk) in turn: each add
    ** starts from the other's commit, so that no key is lost. */
    key_text turns[16];
    pick_absent(a, b, "tiny", "t", turns, 16);
    for (int i = 0; i < 8; i++) {
        add_key(i % 2 ? a : b, "tiny", NULL, turns[i].text);
    }
    for (int i = 0; i < 8; i++) {
        CHECK_U64(probe(a, "tiny", turns[i].text), 1);
        CHECK_U64(probe(b, "tiny", turns[i].text), 1);
    }
    CHECK_U64(keys_added(a, "tiny"), 8);
    CHECK_U64(keys_added(b, "tiny"), 8);
    /* And in explicit transactions, in turn. */
    for (int i = 8; i < 16; i++) {
        sqlite3 *writer = i % 2 ? a : b;
        exec(writer, "BEGIN IMMEDIATE");
        add_key(writer, "tiny", NULL, turns[i].text);
        exec(writer, "COMMIT");
    }
    for (int i = 0; i < 16; i++) {
        CHECK_U64(probe(a, "tiny", turns[i].text), 1);
        CHECK_U64(probe(b, "tiny", turns[i].text), 1);
    }
    CHECK_U64(keys_added(b, "tiny"), 16);
    exec(a, "CREATE TEMP TABLE turn_keys(i INTEGER PRIMARY KEY, k)");
    for (int i = 0; i < 16; i++) {
        CHECK_STR(db_run_with(a, "INSERT INTO turn_keys VALUES (?2, ?1)", turns[i].text, i), "");
    }
    CHECK(snapshot_is_built(a, "tiny",
                            "SELECT bloom_build(k, 500, 0.01) FROM (SELECT k FROM turn_keys "
                            "ORDER BY i)",
                            0));
    bytes tiny = table_state(a, "tiny");
    CHECK(state_is(b, "tiny", &tiny));
    bytes_free(&tiny);

    /* In WAL mode, a read transaction keeps its snapshot while A commits. */
    if (wal) {
        exec(b, "BEGIN");
        CHECK_U64(probe(b, "seen", keys[22].text), 0);
        add_key(a, "seen", NULL, keys[22].text);
        CHECK_U64(probe(a, "seen", keys[22].text), 1);
        CHECK_U64(probe(b, "seen", keys[22].text), 0);
        CHECK(state_is(b, "seen", &after));
        exec(b, "COMMIT");
        CHECK_U64(probe(b, "seen", keys[22].text), 1);
    }
    check_integrity(b, path);

    bytes_free(&before);
    bytes_free(&after);
    sqlite3_close(a);
    sqlite3_close(b);
    remove_database(path);
    sqlite3_free(pragma);
    sqlite3_free(name);
    sqlite3_free(path);
}

/* ---- 2. SIGKILL: what was committed survives. */

typedef struct crash_config {
    const char *name, *journal_mode, *synchronous;
    int autocheckpoint; /* WAL pages between checkpoints */
} crash_config;

static const crash_config crash_configs[] = {
    {"wal_normal", "wal", "normal", 5},
    {"wal_full", "wal", "full", 1000},
    {"delete_full", "delete", "full", 0},
    {"delete_normal", "delete", "normal", 0},
};

/* The tables of a crash run: unit i adds 'k' || i to seen; an odd unit does it through the
** trigger on log, which also adds the key to grow (scalable) and cnt (counting), and when
** i % 4 = 3 removes 'k' || (i - 2) from cnt. */
static const char crash_schema[] =
    "CREATE TABLE log(i INTEGER PRIMARY KEY);"
    "CREATE VIRTUAL TABLE seen USING bloom(kind = 'blocked', n = 100000, p = 0.01);"
    "CREATE VIRTUAL TABLE grow USING bloom(kind = 'scalable', n = 16, p = 0.01);"
    "CREATE VIRTUAL TABLE cnt USING bloom(kind = 'counting', n = 10000, p = 0.01);"
    "CREATE TRIGGER log_added AFTER INSERT ON log BEGIN"
    "  INSERT INTO seen(key) VALUES ('k' || NEW.i);"
    "  INSERT INTO grow(key) VALUES ('k' || NEW.i);"
    "  INSERT INTO cnt(key) VALUES ('k' || NEW.i);"
    "  DELETE FROM cnt WHERE NEW.i % 4 = 3 AND key = 'k' || (NEW.i - 2);"
    "END;";

enum { CRASH_UNITS = 100000, CRASH_BLOCK = 8 };

/* Whether unit i is in an explicit transaction (of CRASH_BLOCK units). */
static int crash_in_block(int i) {
    return (i / CRASH_BLOCK) % 3 == 2;
}

/* Writes index to the pipe fd; exits on failure. */
static void report_index(int fd, int index) {
    if (write(fd, &index, sizeof index) != (ssize_t)sizeof index) {
        _exit(4);
    }
}

/* The child: adds the units in order, reporting each once its COMMIT returned; never
** returns (it is killed first). */
static void crash_child(const char *path, const crash_config *c, int fd) {
    sqlite3 *db = open_db(path);
    sqlite3_stmt *direct = NULL, *logged = NULL;
    char *setup = sqlite3_mprintf("PRAGMA synchronous = %s; PRAGMA wal_autocheckpoint = %d",
                                  c->synchronous, c->autocheckpoint);
    if (sqlite3_exec(db, setup, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO seen(key) VALUES ('k' || ?1)", -1, &direct, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO log(i) VALUES (?1)", -1, &logged, NULL) != SQLITE_OK) {
        fprintf(stderr, "test_live: crash child: %s\n", sqlite3_errmsg(db));
        _exit(3);
    }
    for (int i = 0; i < CRASH_UNITS; i++) {
        int block = crash_in_block(i);
        if (block && i % CRASH_BLOCK == 0 &&
            sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
            _exit(3);
        }
        sqlite3_stmt *stmt = i % 2 ? logged : direct;
        sqlite3_bind_int(stmt, 1, i);
        if (sqlite3_step(stmt) != SQLITE_DONE) {
            fprintf(stderr, "test_live: crash child, unit %d: %s\n", i, sqlite3_errmsg(db));
            _exit(3);
        }
        sqlite3_reset(stmt);
        if (!block) {
            report_index(fd, i);
        } else if (i % CRASH_BLOCK == CRASH_BLOCK - 1) {
            if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
                _exit(3);
            }
            for (int j = i - CRASH_BLOCK + 1; j <= i; j++) {
                report_index(fd, j);
            }
        }
    }
    _exit(0);
}

/* Reads an index from the pipe fd into *index: 0 at its end. */
static int read_index(int fd, int *index) {
    size_t got = 0;
    while (got < sizeof *index) {
        ssize_t n = read(fd, (char *)index + got, sizeof *index - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return 0;
        }
        got += (size_t)n;
    }
    return 1;
}

/* A subquery of the keys 'k' || i, as k, of the units i below ?1 that match where (a condition
** on i), in order. */
#define CRASH_KEYS(where)                                                                          \
    "(WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1) SELECT "    \
    "'k' || i AS k FROM n WHERE " where " ORDER BY i)"

/* The units whose keys cnt keeps: the odd ones but those that unit i + 2 removed, i % 4 = 1. */
#define CRASH_KEPT_IN_CNT "i % 2 AND NOT (i % 4 = 1 AND i + 2 < ?1)"

static const char crash_cnt_missing[] =
    "SELECT count(*) FROM " CRASH_KEYS(CRASH_KEPT_IN_CNT) " WHERE NOT EXISTS (SELECT 1 FROM cnt "
                                                          "WHERE key = k)";

/* Checks the database of a killed child that reported units 0 to reported - 1. */
static void check_after_crash(const char *path, const char *what, int reported) {
    sqlite3 *db = open_db(path);
    check_integrity(db, what);
    /* Units commit in order: the table counts them all, the reported ones and at most the
    ** block (or unit) whose COMMIT returned before the kill, but not its report. */
    long long units = keys_added(db, "seen");
    if (!CHECK(units >= reported && units <= reported + CRASH_BLOCK)) {
        fprintf(stderr, "    %s: %d units reported, seen counts %lld\n", what, reported, units);
    }
    printf("test_live: %s: %d commits reported, %lld made\n", what, reported, units);
    if (units < 2) {
        sqlite3_close(db);
        return;
    }
    CHECK_U64(present_count(db, "seen", reported), reported);
    CHECK(snapshot_is_built(
        db, "seen", "SELECT bloom_build(k, 100000, 0.01, 'blocked') FROM " CRASH_KEYS("1"), units));
    /* The odd units went through log in the same transactions as the filters' changes. */
    CHECK_U64(run_number(db, "SELECT count(*) FROM log", NULL, 0), units / 2);
    CHECK_U64(run_number(db, "SELECT coalesce(max(i), 0) < ?1 FROM log", NULL, units), 1);
    CHECK_U64(keys_added(db, "grow"), units / 2);
    CHECK(snapshot_is_built(db, "grow",
                            "SELECT bloom_build(k, 16, 0.01, 'scalable') FROM " CRASH_KEYS("i % 2"),
                            units));
    /* cnt: each key it keeps probes 1, and it is bloom_build's of them (counts, keys_added). */
    CHECK_U64(run_number(db, crash_cnt_missing, NULL, units), 0);
    CHECK(snapshot_is_built(
        db, "cnt",
        "SELECT bloom_build(k, 10000, 0.01, 'counting') FROM " CRASH_KEYS(CRASH_KEPT_IN_CNT),
        units));
    /* The database takes writes again. */
    add_key(db, "seen", NULL, "after the crash");
    add_key(db, "grow", NULL, "after the crash");
    CHECK_U64(probe(db, "seen", "after the crash"), 1);
    CHECK_U64(probe(db, "grow", "after the crash"), 1);
    CHECK_U64(keys_added(db, "seen"), (unsigned long long)units + 1);
    check_integrity(db, what);
    sqlite3_close(db);
}

/* One crash run: a child killed delay_us after it reported target units. */
static void test_crash_run(const crash_config *c, int target, int delay_us) {
    char *name = sqlite3_mprintf("crash_%s.db", c->name), *path = scratch_path(name);
    char *what = sqlite3_mprintf("%s, killed %d us after %d commits", c->name, delay_us, target);
    remove_database(path);
    sqlite3 *db = open_db(path);
    db_execf(db, "PRAGMA journal_mode = %s", c->journal_mode);
    exec(db, crash_schema);
    sqlite3_close(db);

    int fds[2];
    if (pipe(fds) != 0) {
        perror("test_live: pipe");
        exit(2);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("test_live: fork");
        exit(2);
    }
    if (pid == 0) {
        close(fds[0]);
        crash_child(path, c, fds[1]);
    }
    close(fds[1]);
    int reported = 0, in_order = 1, index;
    while (reported < target && read_index(fds[0], &index)) {
        in_order &= index == reported++;
    }
    if (delay_us > 0) {
        struct timespec pause = {0, (long)delay_us * 1000};
        nanosleep(&pause, NULL);
    }
    kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    while (read_index(fds[0], &index)) {
        in_order &= index == reported++;
    }
    close(fds[0]);
    if (!CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && reported >= target &&
               in_order)) {
        fprintf(stderr, "    %s: status %d, %d reported\n", what, status, reported);
    }
    check_after_crash(path, what, reported);
    remove_database(path);
    sqlite3_free(what);
    sqlite3_free(name);
    sqlite3_free(path);
}

static void test_crash(void) {
    static const struct {
        int target, delay_us;
    } runs[] = {{2, 0}, {23, 700}, {61, 2500}, {140, 40}};
    for (size_t c = 0; c < sizeof crash_configs / sizeof crash_configs[0]; c++) {
        /* The slow configurations (fsyncs at each commit) run fewer units, and fewer times. */
        int full = strcmp(crash_configs[c].synchronous, "full") == 0;
        for (size_t r = 0; r < sizeof runs / sizeof runs[0] - (size_t)full; r++) {
            test_crash_run(&crash_configs[c], full ? runs[r].target / 2 + 2 : runs[r].target,
                           runs[r].delay_us + (int)(c * 130));
        }
    }
}

/* ---- 3. VACUUM, the backup API and .dump keep every filter. */

static const char *const copy_tables[] = {"seen", "parts", "grow", "ck", "hits", "loaded"};

static const char copy_schema[] =
    "CREATE TABLE numbers(i INTEGER PRIMARY KEY);"
    "INSERT INTO numbers WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n"
    " WHERE i + 1 < 4000) SELECT i FROM n;"
    "CREATE VIRTUAL TABLE seen USING bloom(kind = 'blocked', n = 100000, p = 0.01);"
    "CREATE VIRTUAL TABLE parts USING bloom(kind = 'counting', n = 1000, p = 0.01);"
    "CREATE VIRTUAL TABLE grow USING bloom(kind = 'scalable', n = 100, p = 0.01);"
    "CREATE VIRTUAL TABLE ck USING bloom(kind = 'cuckoo', n = 2000, p = 0.01);"
    "CREATE VIRTUAL TABLE hits USING bloom(kind = 'countmin', epsilon = 0.01, delta = 0.01);"
    "CREATE VIRTUAL TABLE loaded USING bloom;"
    "INSERT INTO seen(key) SELECT 'k' || i FROM numbers WHERE i < 3000;"
    "INSERT INTO parts(name, key) SELECT 'p' || (i % 3), 'k' || i FROM numbers WHERE i < 1500;"
    "DELETE FROM parts WHERE name = 'p1' AND key IN (SELECT 'k' || i FROM numbers"
    " WHERE i < 600 AND i % 3 = 1);"
    "INSERT INTO parts(name) VALUES ('empty');"
    "INSERT INTO grow(key) SELECT 'k' || i FROM numbers WHERE i < 1000;"
    "INSERT INTO ck(key) SELECT 'k' || i FROM numbers WHERE i < 1000;"
    "DELETE FROM ck WHERE key IN (SELECT 'k' || i FROM numbers WHERE i < 100);"
    "INSERT INTO hits(key, count) SELECT 'k' || (i % 50), i FROM numbers WHERE i < 500;"
    "INSERT INTO loaded(name, filter) SELECT 'std', bloom_build('k' || i, 2000, 0.01)"
    " FROM numbers WHERE i < 700;"
    "INSERT INTO loaded(name, key) VALUES ('std', 'k3999');";

/* Every filter of the copy tables: their snapshots, as table_state makes them. */
static bytes copy_state(sqlite3 *db) {
    bytes all = {NULL, 0};
    for (size_t i = 0; i < sizeof copy_tables / sizeof copy_tables[0]; i++) {
        bytes one = table_state(db, copy_tables[i]);
        bytes_append(&all, copy_tables[i], strlen(copy_tables[i]) + 1);
        bytes_append(&all, one.data, one.length);
        bytes_free(&one);
    }
    return all;
}

/* What the copy tables answer for the keys 'k' || i, i below 4000: per table, the number of
** (filter, key) rows found, the sum of their i and of the counts (sqlite3_free it). */
static char *copy_answers(sqlite3 *db) {
    char *all = sqlite3_mprintf("");
    for (size_t i = 0; i < sizeof copy_tables / sizeof copy_tables[0] && all != NULL; i++) {
        char *sql = sqlite3_mprintf(
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 4000) "
            "SELECT count(*) || ',' || total(i) || ',' || total(t.count) || ',' || "
            "group_concat(DISTINCT coalesce(t.name, '-')) FROM n JOIN \"%w\" AS t ON t.key = 'k' "
            "|| i",
            copy_tables[i]);
        char *next = sqlite3_mprintf("%s%s: %s\n", all, copy_tables[i], db_run(db, sql));
        sqlite3_free(sql);
        sqlite3_free(all);
        all = next;
    }
    return all;
}

/* Whether the database at path holds the filters of state and answers, on a new connection;
** then adds a key, which it must take. */
static int copy_is(const char *path, const bytes *state, const char *answers) {
    sqlite3 *db = open_db(path);
    bytes now = copy_state(db);
    char *now_answers = copy_answers(db);
    int same = bytes_equal(&now, state) && strcmp(now_answers, answers) == 0;
    if (!same) {
        fprintf(stderr, "    %s: %zu bytes of filters (expected %zu), answers\n%s    expected\n%s",
                path, now.length, state->length, now_answers, answers);
    }
    check_integrity(db, path);
    add_key(db, "seen", NULL, "after the copy");
    add_key(db, "grow", NULL, "after the copy");
    CHECK_U64(probe(db, "seen", "after the copy"), 1);
    CHECK_U64(probe(db, "grow", "after the copy"), 1);
    bytes_free(&now);
    sqlite3_free(now_answers);
    sqlite3_close(db);
    return same;
}

/* dl_iterate_phdr's callback: keeps the name of the AddressSanitizer runtime in *data. */
static int find_sanitizer_runtime(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    if (info->dlpi_name != NULL && strstr(info->dlpi_name, "libasan.so") != NULL) {
        *(const char **)data = info->dlpi_name;
        return 1;
    }
    return 0;
}

/* The path of the AddressSanitizer runtime this program loaded, or NULL (not built with it, or
** linked statically): the shell, not instrumented, must preload it to load the instrumented
** extension. */
static const char *sanitizer_runtime(void) {
    const char *runtime = NULL;
    dl_iterate_phdr(find_sanitizer_runtime, &runtime);
    return runtime;
}

/* Runs the sqlite3 shell on database path (with .load of the extension when load is set) and
** argument (NULL: none), its standard input from input and output to output (either NULL: the
** test's own); its exit status, or 127 when it cannot run. */
static int run_shell(const char *path, int load, const char *argument, const char *input,
                     const char *output) {
    char *load_command = sqlite3_mprintf(".load %s", extension_path);
    const char *args[10];
    int n = 0;
    args[n++] = shell_path;
    args[n++] = "-batch";
    args[n++] = "-bail";
    args[n++] = "-init";
    args[n++] = "/dev/null";
    if (load) {
        args[n++] = "-cmd";
        args[n++] = load_command;
    }
    args[n++] = path;
    if (argument != NULL) {
        args[n++] = argument;
    }
    args[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int in = input != NULL ? open(input, O_RDONLY) : -1;
        int out = output != NULL ? open(output, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
        if ((input != NULL && (in < 0 || dup2(in, 0) < 0)) ||
            (output != NULL && (out < 0 || dup2(out, 1) < 0))) {
            _exit(126);
        }
        const char *runtime = sanitizer_runtime();
        if (runtime != NULL) {
            setenv("LD_PRELOAD", runtime, 1);
            setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
        }
        setenv("LC_ALL", "C", 1);
        execvp(shell_path, (char *const *)args);
        _exit(127);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    sqlite3_free(load_command);
    return pid < 0 ? 127 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Whether file path contains text. */
static int file_contains(const char *path, const char *text) {
    FILE *f = fopen(path, "rb");
    bytes b = {NULL, 0};
    char buffer[65536];
    size_t n;
    while (f != NULL && (n = fread(buffer, 1, sizeof buffer, f)) > 0) {
        bytes_append(&b, buffer, n);
    }
    if (f != NULL) {
        fclose(f);
    }
    bytes_append(&b, "", 1);
    int found = strstr((const char *)b.data, text) != NULL;
    bytes_free(&b);
    return found;
}

/* Reads file path into a string (free it). */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    bytes b = {NULL, 0};
    char buffer[65536];
    size_t n;
    while (f != NULL && (n = fread(buffer, 1, sizeof buffer, f)) > 0) {
        bytes_append(&b, buffer, n);
    }
    if (f != NULL) {
        fclose(f);
    }
    bytes_append(&b, "", 1);
    return (char *)b.data;
}

/* .dump by the shell, restored by the shell (with and without .load) and by sqlite3_exec. */
static void test_dump(const char *source, const bytes *state, const char *answers) {
    char *dump = scratch_path("copy.dump.sql");
    remove(dump);
    int status = run_shell(source, 1, ".dump", NULL, dump);
    if (status == 127) {
        printf("test_live: %s cannot run: .dump and its restore not checked\n", shell_path);
        sqlite3_free(dump);
        return;
    }
    CHECK_U64(status, 0);
    /* The virtual tables go into sqlite_schema directly, their shadow tables as tables. */
    CHECK(file_contains(dump, "PRAGMA writable_schema=ON;"));
    CHECK(file_contains(dump, "INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)"
                              "VALUES('table','seen','seen',0,'CREATE VIRTUAL TABLE seen USING "
                              "bloom(kind = ''blocked'', n = 100000, p = 0.01)');"));
    CHECK(file_contains(dump, "INSERT INTO seen_chunks VALUES("));

    static const struct {
        const char *file;
        int load;
    } shells[] = {{"copy.restored_loaded.db", 1}, {"copy.restored_plain.db", 0}};
    for (size_t i = 0; i < sizeof shells / sizeof shells[0]; i++) {
        char *path = scratch_path(shells[i].file);
        remove_database(path);
        CHECK_U64(run_shell(path, shells[i].load, NULL, dump, NULL), 0);
        CHECK(copy_is(path, state, answers));
        remove_database(path);
        sqlite3_free(path);
    }

    /* Through sqlite3_exec: the same, once a new connection reads the schema. The dump names
    ** sqlite_schema, which SQLite knows from 3.33 on. */
    char *text = read_file(dump), *path = scratch_path("copy.restored_exec.db"), *err = NULL;
    if (sqlite3_libversion_number() < 3033000) {
        printf("the restore through sqlite3_exec: not run, SQLite before 3.33 has no "
               "sqlite_schema\n");
        free(text);
        remove(dump);
        sqlite3_free(path);
        sqlite3_free(dump);
        return;
    }
    remove_database(path);
    sqlite3 *db = open_db(path);
    CHECK_U64(sqlite3_exec(db, text, NULL, NULL, &err), SQLITE_OK);
    sqlite3_free(err);
    err = NULL;
    /* The connection that restored does not know the virtual tables (the rows were written to
    ** sqlite_schema behind its back) until its schema is read again. */
    CHECK_STR(db_run(db, "SELECT count(*) FROM seen WHERE key = 'k1'"),
              "error 1: no such table: seen");
    exec(db, "PRAGMA writable_schema = RESET");
    CHECK_STR(db_run(db, "SELECT count(*) FROM seen WHERE key = 'k1'"), "1");
    sqlite3_close(db);
    CHECK(copy_is(path, state, answers));
    remove_database(path);

    /* A defensive connection cannot: PRAGMA writable_schema does nothing there, and the
    ** INSERT INTO sqlite_schema fails (the shadow tables would be made as plain tables). */
    db = open_db(path);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    CHECK_U64(sqlite3_exec(db, text, NULL, NULL, &err), SQLITE_ERROR);
    CHECK_STR(err, "table sqlite_master may not be modified");
    sqlite3_free(err);
    exec(db, "ROLLBACK");
    CHECK_STR(db_run(db, "SELECT count(*) FROM sqlite_schema"), "0");
    sqlite3_close(db);
    remove_database(path);

    free(text);
    remove(dump);
    sqlite3_free(path);
    sqlite3_free(dump);
}

static void test_copies(void) {
    char *source = scratch_path("copy.db"), *target = scratch_path("copy.backup.db");
    char *into = scratch_path("copy.into.db");
    remove_database(source);
    remove_database(target);
    remove_database(into);
    sqlite3 *db = open_db(source);
    exec(db, copy_schema);
    bytes state = copy_state(db);
    char *answers = copy_answers(db);
    CHECK(state.length > 150000);
    CHECK(strstr(answers, "seen: 3") != NULL); /* 3000 keys and a few false positives */

    /* VACUUM rewrites every table: the same bytes, the same answers. */
    exec(db, "VACUUM");
    bytes now = copy_state(db);
    CHECK(bytes_equal(&now, &state));
    bytes_free(&now);
    check_integrity(db, "after VACUUM");
    char *into_sql = sqlite3_mprintf("VACUUM INTO %Q", into);
    exec(db, into_sql);
    sqlite3_free(into_sql);
    CHECK(copy_is(source, &state, answers)); /* (which adds a key to the source) */
    CHECK(copy_is(into, &state, answers));
    bytes_free(&state);
    sqlite3_free(answers);
    state = copy_state(db);
    answers = copy_answers(db);

    /* The backup API, into a file whose connections had other filters of the same names
    ** cached: they read the copy's after it. */
    sqlite3 *other = open_db(target);
    exec(other, "CREATE VIRTUAL TABLE seen USING bloom(kind = 'blocked', n = 100000, p = 0.01);"
                "INSERT INTO seen(key) VALUES ('other'), ('k1')");
    CHECK_U64(probe(other, "seen", "k1"), 1);
    CHECK_U64(probe(other, "seen", "k2"), 0);
    sqlite3 *target_db = open_db(target);
    CHECK_U64(probe(target_db, "seen", "k2"), 0);
    sqlite3_backup *backup = sqlite3_backup_init(target_db, "main", db, "main");
    CHECK(backup != NULL);
    CHECK_U64(sqlite3_backup_step(backup, 7), SQLITE_OK); /* in steps */
    CHECK_U64(sqlite3_backup_step(backup, -1), SQLITE_DONE);
    CHECK_U64(sqlite3_backup_finish(backup), SQLITE_OK);
    CHECK_U64(probe(target_db, "seen", "k2"), 1);
    CHECK_U64(probe(other, "seen", "k2"), 1);
    bytes copied = copy_state(target_db), seen_copied = table_state(other, "seen");
    bytes seen_source = table_state(db, "seen");
    CHECK(bytes_equal(&copied, &state));
    CHECK(bytes_equal(&seen_copied, &seen_source));
    char *target_answers = copy_answers(target_db);
    CHECK_STR(target_answers, answers);
    sqlite3_free(target_answers);
    bytes_free(&copied);
    bytes_free(&seen_copied);
    bytes_free(&seen_source);
    sqlite3_close(other);
    sqlite3_close(target_db);
    CHECK(copy_is(target, &state, answers));

    sqlite3_close(db);
    test_dump(source, &state, answers);

    bytes_free(&state);
    sqlite3_free(answers);
    remove_database(source);
    remove_database(target);
    remove_database(into);
    sqlite3_free(source);
    sqlite3_free(target);
    sqlite3_free(into);
}

/* ---- 4. Integrity and chunk rows within a page. */

/* Whether SQLite has the dbstat virtual table. */
static int has_dbstat(sqlite3 *db) {
    return strncmp(db_run(db, "SELECT count(*) FROM dbstat"), "error", 5) != 0;
}

static void test_pages_at(int page_size, int reserved, int *dbstat_seen) {
#ifndef SQLITE_FCNTL_RESERVE_BYTES
    if (reserved > 0) {
        printf("page size %d, %d reserved: not run, SQLite before 3.32 cannot reserve bytes\n",
               page_size, reserved);
        return;
    }
#endif
    char *name = sqlite3_mprintf("pages_%d_%d.db", page_size, reserved);
    char *path = scratch_path(name);
    char *what = sqlite3_mprintf("page size %d, %d reserved", page_size, reserved);
    remove_database(path);
    sqlite3 *db = open_db(path);
    db_execf(db, "PRAGMA page_size = %d", page_size);
    exec(db, "PRAGMA synchronous = OFF");
#ifdef SQLITE_FCNTL_RESERVE_BYTES
    if (reserved > 0) {
        int bytes_reserved = reserved;
        CHECK_U64(sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &bytes_reserved),
                  SQLITE_OK);
    }
#endif
    exec(db, "CREATE TABLE numbers(i INTEGER PRIMARY KEY);"
             "INSERT INTO numbers WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n"
             " WHERE i + 1 < 20000) SELECT i FROM n;"
             "CREATE VIRTUAL TABLE seen USING bloom(kind = 'blocked', n = 1000000, p = 0.01);"
             "CREATE VIRTUAL TABLE std USING bloom(kind = 'standard', n = 1000000, p = 0.01);"
             "CREATE VIRTUAL TABLE parts USING bloom(kind = 'counting', n = 20000, p = 0.01);"
             "CREATE VIRTUAL TABLE ck USING bloom(kind = 'cuckoo', n = 20000, p = 0.01);"
             "INSERT INTO seen(key) SELECT 'k' || i FROM numbers;"
             "INSERT INTO std(key) SELECT 'k' || i FROM numbers;"
             "INSERT INTO parts(name, key) SELECT 'p' || (i % 4), 'k' || i FROM numbers"
             " WHERE i < 8000;"
             "DELETE FROM parts WHERE name = 'p1' AND key IN (SELECT 'k' || i FROM numbers"
             " WHERE i < 8000 AND i % 8 = 1);"
             "DELETE FROM parts WHERE name = 'p3';"
             "INSERT INTO ck(key) SELECT 'k' || i FROM numbers WHERE i < 10000;"
             "DELETE FROM ck WHERE key IN (SELECT 'k' || i FROM numbers WHERE i % 2 = 0 AND"
             " i < 10000);"
             "INSERT INTO parts(name, key) SELECT 'p3', 'k' || i FROM numbers WHERE i < 100;");
    CHECK_U64(run_number(db, "PRAGMA page_size", NULL, 0), page_size);
    check_integrity(db, what);
    CHECK_U64(present_count(db, "seen", 20000), 20000);
    CHECK_U64(present_count(db, "std", 20000), 20000);
    CHECK(snapshot_is_built(
        db, "seen", "SELECT bloom_build('k' || i, 1000000, 0.01, 'blocked') FROM numbers", 0));
    CHECK(snapshot_is_built(db, "std", "SELECT bloom_build('k' || i, 1000000, 0.01) FROM numbers",
                            0));
    CHECK_STR(db_run(db, "SELECT count(*) FROM numbers WHERE i < 10000 AND i % 2 = 1 AND NOT EXISTS"
                         " (SELECT 1 FROM ck WHERE key = 'k' || i)"),
              "0");
    /* No chunk is longer than its table's chunk size, which leaves room in a page for the rest
    ** of its row and the page's reserved bytes. */
    static const char *const tables[] = {"seen", "std", "parts", "ck"};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        char *sql = sqlite3_mprintf(
            "SELECT count(*) > 0 AND max(length(data)) <= (SELECT value FROM \"%w_config\" WHERE "
            "key = 'chunk_bytes') AND (SELECT value FROM \"%w_config\" WHERE key = "
            "'chunk_bytes') <= %d - %d - 49 FROM \"%w_chunks\"",
            tables[i], tables[i], page_size, reserved, tables[i]);
        CHECK_STR(db_run(db, sql), "1");
        sqlite3_free(sql);
    }
    if (has_dbstat(db)) {
        *dbstat_seen = 1;
        const char *sql = "SELECT sum(pagetype = 'overflow'), sum(pagetype = 'leaf') > 0 FROM "
                          "dbstat WHERE name IN ('seen_chunks', 'std_chunks', 'parts_chunks', "
                          "'ck_chunks') GROUP BY name";
        sqlite3_stmt *stmt = NULL;
        int rows = 0;
        CHECK_U64(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            rows++;
            if (!CHECK(sqlite3_column_int(stmt, 0) == 0 && sqlite3_column_int(stmt, 1) == 1)) {
                fprintf(stderr, "    %s: %d overflow pages\n", what, sqlite3_column_int(stmt, 0));
            }
        }
        sqlite3_finalize(stmt);
        CHECK_U64(rows, 4);
    }
    sqlite3_close(db);
    remove_database(path);
    sqlite3_free(what);
    sqlite3_free(name);
    sqlite3_free(path);
}

/* VACUUM to a smaller page size: the chunks keep their size (and now overflow), and the
** filters their bytes and answers. */
static void test_page_size_changed(void) {
    char *path = scratch_path("pages_changed.db");
    remove_database(path);
    sqlite3 *db = open_db(path);
    exec(db, "PRAGMA page_size = 4096; PRAGMA synchronous = OFF;"
             "CREATE TABLE numbers(i INTEGER PRIMARY KEY);"
             "INSERT INTO numbers WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n"
             " WHERE i + 1 < 5000) SELECT i FROM n;"
             "CREATE VIRTUAL TABLE seen USING bloom(kind = 'blocked', n = 100000, p = 0.01);"
             "INSERT INTO seen(key) SELECT 'k' || i FROM numbers WHERE i < 4000;"
             "PRAGMA page_size = 1024; VACUUM;"
             "INSERT INTO seen(key) SELECT 'k' || i FROM numbers WHERE i >= 4000;");
    CHECK_U64(run_number(db, "PRAGMA page_size", NULL, 0), 1024);
    check_integrity(db, path);
    CHECK(snapshot_is_built(
        db, "seen", "SELECT bloom_build('k' || i, 100000, 0.01, 'blocked') FROM numbers", 0));
    CHECK_U64(present_count(db, "seen", 5000), 5000);
    sqlite3_close(db);
    remove_database(path);
    sqlite3_free(path);
}

static void test_pages(void) {
    static const struct {
        int page_size, reserved;
    } cases[] = {{512, 0}, {1024, 0}, {4096, 0}, {65536, 0}, {512, 32}, {4096, 64}};
    int dbstat_seen = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_pages_at(cases[i].page_size, cases[i].reserved, &dbstat_seen);
    }
    if (!dbstat_seen) {
        printf("test_live: this SQLite has no dbstat table: overflow pages not checked\n");
    }
    test_page_size_changed();
}

/* ---- 5. last_insert_rowid(). */

/* The connection's last insert rowid, by the C API; SELECT last_insert_rowid() must agree. */
static long long last_rowid(sqlite3 *db) {
    long long api = (long long)sqlite3_last_insert_rowid(db);
    CHECK_U64(run_number(db, "SELECT last_insert_rowid()", NULL, 0), api);
    return api;
}

static void test_last_insert_rowid(void) {
    char *path = scratch_path("rowid.db");
    remove_database(path);
    sqlite3 *db = open_db(path);
    exec(db, "CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT);"
             "CREATE VIRTUAL TABLE seen USING bloom(kind = 'blocked', n = 1000, p = 0.01);"
             "CREATE VIRTUAL TABLE grow USING bloom(kind = 'scalable', n = 2, p = 0.01);"
             "CREATE TRIGGER users_seen AFTER INSERT ON users BEGIN"
             "  INSERT INTO seen(key) VALUES (NEW.email);"
             "  INSERT INTO grow(key) VALUES (NEW.email);"
             "  INSERT INTO grow(name, key) VALUES (NEW.email, NEW.email);"
             "END;");
    /* Through the trigger (a new filter and a scalable filter's growth on the way): the
    ** users row's rowid, in autocommit and through COMMIT, RELEASE and ROLLBACK TO. */
    exec(db, "INSERT INTO users VALUES (42, 'a@x')");
    CHECK_U64(last_rowid(db), 42);
    CHECK_U64(probe(db, "seen", "a@x"), 1);
    exec(db, "BEGIN");
    exec(db, "INSERT INTO users VALUES (43, 'b@x')");
    CHECK_U64(last_rowid(db), 43);
    CHECK_U64(probe(db, "seen", "b@x"), 1);
    CHECK_U64(last_rowid(db), 43);
    exec(db, "SAVEPOINT s");
    exec(db, "INSERT INTO users VALUES (44, 'c@x'), (45, 'd@x')");
    CHECK_U64(last_rowid(db), 45);
    exec(db, "RELEASE s");
    CHECK_U64(last_rowid(db), 45);
    exec(db, "SAVEPOINT t; INSERT INTO users VALUES (46, 'e@x')");
    CHECK_U64(last_rowid(db), 46);
    exec(db, "ROLLBACK TO t; RELEASE t");
    exec(db, "COMMIT");
    CHECK_U64(last_rowid(db), 46); /* (ROLLBACK TO does not restore it, for any table) */
    CHECK_STR(db_run(db,
                     "SELECT group_concat(quote(name)) FROM grow WHERE key = 'd@x' AND (name IS "
                     "NULL OR name = 'd@x')"),
              "NULL,'d@x'");
    CHECK_STR(db_run(db, "SELECT json_extract(bloom_info(filter), '$.stage_count') FROM grow WHERE "
                         "name IS NULL"),
              "2");

    /* Directly: the rowid of the row inserted, its filter's id, as for any virtual table. */
    exec(db, "INSERT INTO users(id) VALUES (50)");
    CHECK_U64(last_rowid(db), 50);
    exec(db, "INSERT INTO seen(key) VALUES ('direct')");
    CHECK_U64(last_rowid(db), 1);
    exec(db, "INSERT INTO users(id) VALUES (51)");
    exec(db, "INSERT INTO seen(name, key) VALUES ('second', 'direct')");
    CHECK_U64(last_rowid(db), 2);
    exec(db, "INSERT INTO users(id) VALUES (52)");
    exec(db, "BEGIN; INSERT INTO seen(name, key) VALUES ('second', 'again')");
    CHECK_U64(last_rowid(db), 2);
    exec(db, "INSERT INTO users(id) VALUES (53); COMMIT");
    CHECK_U64(last_rowid(db), 53);
    exec(db, "INSERT INTO grow(key) SELECT 'g' || id FROM users");
    CHECK_U64(last_rowid(db), 1);

    /* An INSERT OR IGNORE that is ignored (a filter of that name exists) is no successful
    ** INSERT: SQLite promises it leaves last_insert_rowid() as it was, and it counts no change,
    ** as for an ordinary table. (With SQLITE_VTAB_CONSTRAINT_SUPPORT, xUpdate returning
    ** SQLITE_CONSTRAINT under OR IGNORE has SQLite skip the row so.) */
    exec(db, "INSERT INTO seen(name, filter) VALUES ('loaded', bloom_empty(10, 0.01))");
    exec(db, "INSERT INTO users(id) VALUES (60)");
    CHECK_U64(last_rowid(db), 60);
    exec(db, "INSERT OR IGNORE INTO users(id) VALUES (60)");
    CHECK_U64(last_rowid(db), 60);
    CHECK_U64(sqlite3_changes(db), 0);
    exec(db, "INSERT OR IGNORE INTO seen(name, filter) VALUES ('loaded', bloom_empty(10, 0.01))");
    CHECK_U64(last_rowid(db), 60);
    CHECK_U64(sqlite3_changes(db), 0);

    check_integrity(db, path);
    sqlite3_close(db);
    remove_database(path);
    sqlite3_free(path);
}

/* ---- 6. ROLLBACK and ROLLBACK TO undo. */

/* Records key as added to the filter, in order, in the temp table added. */
static void note_added(sqlite3 *db, const char *key) {
    CHECK_STR(db_run_with(db, "INSERT INTO added(k) VALUES (?1)", key, 0), "");
}

/* Adds keys[from..to) to table's unnamed filter, each probing 1 after. */
static void add_keys(sqlite3 *db, const char *table, const key_text *keys, int from, int to) {
    for (int i = from; i < to; i++) {
        add_key(db, table, NULL, keys[i].text);
        CHECK_U64(probe(db, table, keys[i].text), 1);
    }
}

/* How many of keys[from..to) the table's filters might hold. */
static int count_present(sqlite3 *db, const char *table, const key_text *keys, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
        n += probe(db, table, keys[i].text) > 0;
    }
    return n;
}

static void test_rollback_kind(sqlite3 *db, const char *kind, int n) {
    char *table = sqlite3_mprintf("r_%s", kind);
    int removes = strcmp(kind, "counting") == 0 || strcmp(kind, "cuckoo") == 0;
    db_execf(db, "CREATE VIRTUAL TABLE \"%w\" USING bloom(kind = %Q, n = %d, p = 0.01)", table,
             kind, n);
    exec(db,
         "DROP TABLE IF EXISTS temp.added; CREATE TEMP TABLE added(seq INTEGER PRIMARY KEY, k)");
    key_text base[40];
    for (int i = 0; i < 40; i++) {
        snprintf(base[i].text, sizeof base[i].text, "base%d", i);
        add_key(db, table, NULL, base[i].text);
        note_added(db, base[i].text);
    }
    char *stages = sqlite3_mprintf(
        "SELECT json_extract(bloom_info(filter), '$.stage_count') FROM \"%w\" WHERE name IS NULL",
        table);
    char *count_filters = sqlite3_mprintf("SELECT count(*) FROM \"%w\"", table);
    char *remove_sql = sqlite3_mprintf("DELETE FROM \"%w\" WHERE name IS NULL AND key = ?1", table);
    char *drop_sql = sqlite3_mprintf("DELETE FROM \"%w\" WHERE name IS NULL", table);
    char *fail_sql =
        sqlite3_mprintf("INSERT INTO \"%w\"(name, key) SELECT CASE WHEN value = 3 THEN x'00' END, "
                        "?1 || value FROM (SELECT 1 AS value UNION ALL SELECT 2 UNION ALL SELECT 3 "
                        "UNION ALL SELECT 4)",
                        table);
    char *stages_before = sqlite3_mprintf("%s", db_run(db, stages));
    bytes s0 = table_state(db, table);
    key_text fresh[60];
    pick_absent(db, NULL, table, "fresh", fresh, 60);

    /* ROLLBACK: adds (a scalable filter growing), removes, a new filter, all undone. */
    exec(db, "BEGIN");
    add_keys(db, table, fresh, 0, 60);
    if (removes) {
        for (int i = 0; i < 10; i++) {
            CHECK_STR(db_run_with(db, remove_sql, base[i].text, 0), "");
        }
        CHECK(count_present(db, table, base, 0, 10) < 10);
    }
    add_key(db, table, "extra", fresh[0].text);
    CHECK_STR(db_run(db, count_filters), "2");
    if (strcmp(kind, "scalable") == 0) {
        CHECK(strcmp(db_run(db, stages), stages_before) != 0);
    }
    CHECK(!state_is(db, table, &s0));
    exec(db, "ROLLBACK");
    CHECK_U64(count_present(db, table, fresh, 0, 60), 0);
    CHECK_U64(count_present(db, table, base, 0, 40), 40);
    CHECK_STR(db_run(db, stages), stages_before);
    CHECK_STR(db_run(db, count_filters), "1");
    CHECK(state_is(db, table, &s0));

    /* A dropped filter comes back. */
    exec(db, "BEGIN");
    CHECK_STR(db_run(db, drop_sql), "");
    CHECK_STR(db_run(db, count_filters), "0");
    exec(db, "ROLLBACK");
    CHECK(state_is(db, table, &s0));

    /* A savepoint that opens the transaction, before the table takes part in it. */
    exec(db, "SAVEPOINT early");
    add_keys(db, table, fresh, 0, 20);
    add_key(db, table, "extra", fresh[0].text);
    exec(db, "ROLLBACK TO early");
    CHECK_U64(count_present(db, table, fresh, 0, 20), 0);
    CHECK(state_is(db, table, &s0));
    exec(db, "RELEASE early");
    CHECK(sqlite3_get_autocommit(db));
    CHECK(state_is(db, table, &s0));

    /* ROLLBACK TO: what follows the savepoint undone, what precedes it kept; nested. */
    exec(db, "BEGIN");
    add_keys(db, table, fresh, 0, 5);
    for (int i = 0; i < 5; i++) {
        note_added(db, fresh[i].text);
    }
    bytes s1 = table_state(db, table);
    char *stages_s1 = sqlite3_mprintf("%s", db_run(db, stages));
    key_text later[40];
    pick_absent(db, NULL, table, "later", later, 40);
    exec(db, "SAVEPOINT sp");
    add_keys(db, table, later, 0, 40);
    if (removes) {
        for (int i = 10; i < 20; i++) {
            CHECK_STR(db_run_with(db, remove_sql, base[i].text, 0), "");
        }
        CHECK_STR(db_run_with(db, remove_sql, fresh[0].text, 0), "");
    }
    add_key(db, table, "extra", later[0].text);
    exec(db, "ROLLBACK TO sp");
    CHECK_U64(count_present(db, table, later, 0, 40), 0);
    CHECK_U64(count_present(db, table, fresh, 0, 5), 5);
    CHECK_U64(count_present(db, table, base, 0, 40), 40);
    CHECK_STR(db_run(db, stages), stages_s1);
    CHECK(state_is(db, table, &s1));
    /* Nested: a, then b; ROLLBACK TO b keeps a's; ROLLBACK TO a undoes both. */
    exec(db, "SAVEPOINT a");
    add_keys(db, table, later, 0, 10);
    bytes sa = table_state(db, table);
    exec(db, "SAVEPOINT b");
    add_keys(db, table, later, 10, 30);
    if (removes) {
        CHECK_STR(db_run_with(db, remove_sql, later[0].text, 0), "");
    }
    exec(db, "ROLLBACK TO b");
    CHECK(state_is(db, table, &sa));
    CHECK_U64(count_present(db, table, later, 0, 10), 10);
    exec(db, "ROLLBACK TO a");
    CHECK(state_is(db, table, &s1));
    CHECK_U64(count_present(db, table, later, 0, 30), 0);
    exec(db, "RELEASE a; RELEASE sp");
    CHECK(state_is(db, table, &s1));
    /* A statement that fails on its third row undoes its first two, not the transaction. */
    add_keys(db, table, later, 39, 40);
    note_added(db, later[39].text);
    bytes s2 = table_state(db, table);
    char *failed = sqlite3_mprintf("error 1: %s: name must be TEXT, got a BLOB of 1 byte", table);
    CHECK_STR(db_run_with(db, fail_sql, "failed", 0), failed);
    CHECK(state_is(db, table, &s2));
    exec(db, "COMMIT");
    CHECK(state_is(db, table, &s2));

    /* In autocommit, the failed statement leaves nothing either. */
    CHECK_STR(db_run_with(db, fail_sql, "failed", 0), failed);
    sqlite3_free(failed);
    CHECK(state_is(db, table, &s2));

    /* What was kept is bloom_build's BLOB of the keys kept, in order; a new connection reads
    ** the same. */
    char *build = sqlite3_mprintf(
        "SELECT bloom_build(k, %d, 0.01, %Q) FROM (SELECT k FROM added ORDER BY seq)", n, kind);
    CHECK(snapshot_is_built(db, table, build, 0));
    sqlite3 *other = open_db(sqlite3_db_filename(db, "main"));
    CHECK(state_is(other, table, &s2));
    sqlite3_close(other);

    sqlite3_free(build);
    bytes_free(&s0);
    bytes_free(&s1);
    bytes_free(&s2);
    bytes_free(&sa);
    sqlite3_free(stages_s1);
    sqlite3_free(stages_before);
    sqlite3_free(fail_sql);
    sqlite3_free(drop_sql);
    sqlite3_free(remove_sql);
    sqlite3_free(count_filters);
    sqlite3_free(stages);
    sqlite3_free(table);
}

static void test_rollback(const char *mode) {
    char *name = sqlite3_mprintf("rollback_%s.db", mode), *path = scratch_path(name);
    remove_database(path);
    sqlite3 *db = open_db(path);
    db_execf(db, "PRAGMA journal_mode = %s", mode);
    exec(db, "PRAGMA synchronous = OFF"); /* (no fsync: what is undone is not about the disk) */
    test_rollback_kind(db, "blocked", 1000);
    test_rollback_kind(db, "counting", 1000);
    test_rollback_kind(db, "scalable", 20);
    test_rollback_kind(db, "cuckoo", 1000);
    check_integrity(db, path);
    sqlite3_close(db);
    remove_database(path);
    sqlite3_free(name);
    sqlite3_free(path);
}

/* What the authorizer of test_authorizer saw and denies. */
typedef struct authorizer_log {
    int inserts, deletes, reads; /* of seen, by the application's statements */
    int deny;                    /* the action it denies on seen (0: none) */
} authorizer_log;

/* An authorizer that counts the inserts into, deletes from and reads of seen, and denies the
** action of log->deny on it. */
static int log_seen(void *arg, int action, const char *a, const char *b, const char *schema,
                    const char *trigger) {
    authorizer_log *log = arg;
    (void)b;
    (void)schema;
    (void)trigger;
    if (a == NULL || strcmp(a, "seen") != 0) {
        return SQLITE_OK;
    }
    log->inserts += action == SQLITE_INSERT;
    log->deletes += action == SQLITE_DELETE;
    log->reads += action == SQLITE_READ;
    return action == log->deny ? SQLITE_DENY : SQLITE_OK;
}

/* An authorizer sees the live table's inserts, deletes and reads as on any table, and what it
** denies is refused; the store's own statements on its shadow tables are not the
** application's, and a policy on seen does not stop them. */
static void test_authorizer(void) {
    sqlite3 *db = open_db(":memory:");
    authorizer_log log = {0, 0, 0, 0};
    exec(db, "CREATE VIRTUAL TABLE seen USING bloom(kind = 'counting', n = 1000, p = 0.01)");
    sqlite3_set_authorizer(db, log_seen, &log);
    exec(db, "INSERT INTO seen(key) VALUES ('a'), ('b')");
    CHECK_U64(log.inserts, 1);
    CHECK_STR(db_run(db, "SELECT count(*) FROM seen WHERE key = 'a'"), "1");
    CHECK(log.reads > 0);
    exec(db, "DELETE FROM seen WHERE key = 'a'");
    CHECK_U64(log.deletes, 1);
    log.deny = SQLITE_INSERT;
    CHECK_STR(db_run(db, "INSERT INTO seen(key) VALUES ('c')"), "error 23: not authorized");
    log.deny = SQLITE_DELETE;
    CHECK_STR(db_run(db, "DELETE FROM seen WHERE key = 'b'"), "error 23: not authorized");
    log.deny = SQLITE_READ;
    CHECK_STR(db_run(db, "SELECT count(*) FROM seen WHERE key = 'b'"),
              "error 23: access to seen.key is prohibited");
    log.deny = 0;
    CHECK_STR(db_run(db, "SELECT count(*) FROM seen WHERE key = 'b'"), "1");
    CHECK_STR(db_run(db, "SELECT count(*) FROM seen WHERE key = 'c'"), "0");
    sqlite3_set_authorizer(db, NULL, NULL);
    sqlite3_close(db);
}

/* The pages db read from its database or WAL since the last call (SQLITE_DBSTATUS_CACHE_MISS). */
static int pages_read(sqlite3 *db) {
    int current = 0, highwater = 0;
    CHECK(sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_MISS, &current, &highwater, 1) == SQLITE_OK);
    return current;
}

/* An add (and for the kinds that remove, a remove) on a connection, right after the other
** connection committed one, reads a few pages, not every chunk's: the count stays in the chunks'
** parts until a snapshot sums them (a scalable filter's, read from its stages). Then both
** connections count every key. */
static void test_reads_after_commit_kind(const char *mode, const char *kind, int removes) {
    char *path = scratch_path("reads.db");
    remove(path);
    sqlite3 *db[2] = {open_db(path), open_db(path)};
    db_execf(db[0],
             "PRAGMA journal_mode = %s; CREATE VIRTUAL TABLE big USING bloom(kind = '%s', n = "
             "1000000, p = 0.01); INSERT INTO big(filter) SELECT bloom_build('f' || i, 1000000, "
             "0.01, '%s') FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
             "WHERE i < 50000) SELECT i FROM n)",
             mode, kind, kind);
    long long chunks = run_number(db[0], "SELECT count(*) FROM big_chunks", NULL, 0);
    CHECK(chunks >= 250); /* every chunk has a row: a scan would read them all */
    long long expected = keys_added(db[0], "big");
    int most = 0;
    for (int i = 0; i < 20; i++) {
        char key[32];
        snprintf(key, sizeof key, "new%d", i);
        pages_read(db[i % 2]);
        /* a scalable filter counts a key it may hold already as nothing (the probe's reads
        ** count with the add's) */
        expected += strcmp(kind, "scalable") != 0 || probe(db[i % 2], "big", key) == 0;
        expected -= removes && i % 4 == 3;
        add_key(db[i % 2], "big", NULL, key);
        int pages = pages_read(db[i % 2]);
        most = pages > most ? pages : most;
        if (removes && i % 4 == 3) {
            snprintf(key, sizeof key, "new%d", i - 1); /* added by the other connection */
            CHECK_STR(db_run_with(db[i % 2], "DELETE FROM big WHERE key = ?1", key, 0), "");
            pages = pages_read(db[i % 2]);
            most = pages > most ? pages : most;
        }
    }
    if (!CHECK(most < 30)) {
        fprintf(stderr, "    %s, %s: an operation read %d pages, of %lld chunk rows\n", mode, kind,
                most, chunks);
    }
    CHECK_U64(keys_added(db[0], "big"), expected);
    CHECK_U64(keys_added(db[1], "big"), expected);
    check_integrity(db[1], kind);
    sqlite3_close(db[0]);
    sqlite3_close(db[1]);
    remove(path);
    sqlite3_free(path);
}

static void test_reads_after_commit(const char *mode) {
    test_reads_after_commit_kind(mode, "blocked", 0);
    test_reads_after_commit_kind(mode, "standard", 0);
    test_reads_after_commit_kind(mode, "parquet", 0);
    test_reads_after_commit_kind(mode, "counting", 1);
    test_reads_after_commit_kind(mode, "cuckoo", 1);
    test_reads_after_commit_kind(mode, "scalable", 0);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s EXTENSION SCRATCH [SQLITE3]\n", argv[0]);
        return 2;
    }
    extension_path = argv[1];
    scratch_dir = argv[2];
    shell_path = argc == 4 ? argv[3] : shell_path;
    if (mkdir(scratch_dir, 0755) != 0 && errno != EEXIST) {
        perror("test_live: cannot make the scratch directory");
        return 2;
    }
    test_second_connection("wal");
    test_second_connection("delete");
    test_crash();
    test_copies();
    test_pages();
    test_last_insert_rowid();
    test_rollback("delete");
    test_rollback("wal");
    test_authorizer();
    test_reads_after_commit("wal");
    test_reads_after_commit("delete");
    CHECK_U64(sqlite3_memory_used(), 0);
    return check_report("test_live");
}
