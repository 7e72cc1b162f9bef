/*
** fuzz_shadow.c: libFuzzer target for a live table (rule 26 (live table)) whose shadow tables'
** rows are hostile, as a crafted database file holds them: between the first connection's
** statements on the table, a second one writes any value into any column of any row of
** t_config, t_filters and t_chunks, 8 bytes into a filter's header, or adds and deletes rows.
**
** Input (see fuzz_shadow.h for the constants, fuzz_input.h for values):
**   1 byte   configuration: the kind (modulo the kinds a live table takes, in the order of the
**            table of kinds), pages of 512 or 4,096 bytes, SQLITE_LIMIT_LENGTH 100,000 or
**            1,000,000, and whether the index is made (INSERT INTO t(t) VALUES ('optimize'))
**            once the keys are in, so that its rows in t_chunks, at negative ids, are changed
**            too
**   then up to MAX_OPS operations, each an opcode byte and its operands (fuzz_shadow.h); the
**            first connection may also be closed and opened again, to read the rows anew as a
**            program that opens a crafted file does
** The table, on a memdb that both connections share: CREATE VIRTUAL TABLE t USING bloom(kind =
** K, n = 40, p = 0.01) (a sketch: epsilon and delta 0.01), the keys 1 to 20 added to the filters
** NULL and 'a', and 1 to 45 to 'b' (a scalable filter grows; a cuckoo filter may refuse them
** all).
**
** What makes it fail: a crash, a sanitizer report or a leak; a result code of the first
** connection other than SQLITE_ROW, SQLITE_DONE, SQLITE_ERROR, SQLITE_CORRUPT (rows the table
** refuses), SQLITE_CONSTRAINT, SQLITE_FULL and SQLITE_TOOBIG; of the second, other than those,
** SQLITE_MISMATCH, SQLITE_BUSY and SQLITE_LOCKED; the first connection unable to run SELECT 1
** after a statement failed; SQLite's memory in use rising more than MEMORY_BOUND above what it
** was once the table was made: what a live table allocates follows the rows it reads and its
** cache, never what a row says of a filter's length.
**
** FUZZ_SHADOW_TRACE set prints each statement with its values and its result.
*/
#include "../test_kinds.h"
#include "filter_kinds.h"
#include "fuzz_db.h"
#include "fuzz_shadow.h"
#include "sqlite_bloom.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPS = 48, SQL_BYTES = 512 };

/* The chunk cache (32 MB), a snapshot within the length limit, and room. */
#define MEMORY_BOUND ((sqlite3_int64)64 << 20)

static const char database_uri[] = "file:/fuzz_shadow?vfs=memdb";

/* The shadow tables: their names' suffixes, keys and columns. */
static const struct {
    const char *suffix;
    const char *key;
    int columns;
    const char *column[5];
} shadow_tables[SHADOW_TABLES] = {
    [SHADOW_CONFIG] = {"config", "key", 2, {"key", "value"}},
    [SHADOW_FILTERS] = {"filters", "id", 5, {"id", "name", "header", "bytes", "chunk_bytes"}},
    [SHADOW_CHUNKS] = {"chunks", "id", 3, {"id", "keys", "data"}},
};

/* The names of filters an operand chooses from. */
static const char *const names[SHADOW_NAMES] = {NULL, "a", "b", "c"};

/* The run: the two connections and the most memory allowed in use. */
typedef struct harness {
    sqlite3 *db;     /* the live table's */
    sqlite3 *writer; /* the hostile writer of its shadow tables */
    int limit;       /* the first connection's length limit */
    sqlite3_int64 memory_bound;
} harness;

/* The kind of the configuration: the (choice modulo their count)-th that adds in place. */
static const filter_kind *chosen_kind(unsigned choice) {
    const filter_kind *kind;
    size_t count = 0;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        count += filter_kind_can(kind, FILTER_ADDS_IN_PLACE);
    }
    choice %= (unsigned)count;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        if (filter_kind_can(kind, FILTER_ADDS_IN_PLACE) && choice-- == 0) {
            return kind;
        }
    }
    return NULL;
}

/* Opens a connection to the shared database with the length limit and the extension. */
static sqlite3 *open_connection(int limit) {
    sqlite3 *db = NULL;
    char *error = NULL;
    int rc = sqlite3_open_v2(database_uri, &db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI, NULL);
    if (rc != SQLITE_OK) {
        fuzz_fail("sqlite3_open_v2: %s", db != NULL ? sqlite3_errmsg(db) : "no memory");
    }
    fuzz_db_exec(db, "PRAGMA journal_mode = MEMORY");
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, limit);
    rc = sqlite3_bloom_init(db, &error, NULL);
    if (rc != SQLITE_OK) {
        fuzz_fail("sqlite3_bloom_init: %s", error != NULL ? error : sqlite3_errstr(rc));
    }
    return db;
}

/* Whether rc, a step's result code on the table's connection (writer: the other), is one the
** target allows. */
static int allowed(int rc, int writer) {
    switch (rc & 0xff) {
    case SQLITE_ROW:
    case SQLITE_DONE:
    case SQLITE_ERROR:
    case SQLITE_CORRUPT:
    case SQLITE_CONSTRAINT:
    case SQLITE_FULL:
    case SQLITE_TOOBIG:
        return 1;
    case SQLITE_MISMATCH:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return writer;
    default:
        return 0;
    }
}

/* Runs stmt to its end and finalizes it, checking each result code and then memory in use;
** with FUZZ_SHADOW_TRACE set, prints it with its values and its result. */
static void run(harness *h, sqlite3_stmt *stmt, int writer) {
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    }
    if (getenv("FUZZ_SHADOW_TRACE") != NULL) {
        char *sql = sqlite3_expanded_sql(stmt);
        fprintf(stderr, "%s%.300s -- %d %s\n", writer ? "  writer: " : "", sql ? sql : "?", rc,
                rc == SQLITE_DONE ? "" : sqlite3_errmsg(sqlite3_db_handle(stmt)));
        sqlite3_free(sql);
    }
    if (!allowed(rc, writer)) {
        fuzz_fail("%s: result code %d (%s): %s", sqlite3_sql(stmt), rc, sqlite3_errstr(rc),
                  sqlite3_errmsg(sqlite3_db_handle(stmt)));
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE && !writer) {
        sqlite3_stmt *alive = fuzz_db_prepare(h->db, "SELECT 1");
        if (sqlite3_step(alive) != SQLITE_ROW) {
            fuzz_fail("SELECT 1 fails after an error: %s", sqlite3_errmsg(h->db));
        }
        fuzz_db_finalize(alive);
    }
    sqlite3_int64 highest = sqlite3_memory_highwater(1);
    if (highest > h->memory_bound) {
        fuzz_fail("%lld bytes in use at once, more than %lld", (long long)highest,
                  (long long)h->memory_bound);
    }
}

/* Prepares the text of format on the writer: NULL when SQLite refuses it as the target allows
** (the first connection holds a transaction). */
static sqlite3_stmt *prepare_write(harness *h, const char *format, ...) {
    char sql[SQL_BYTES];
    va_list args;
    va_start(args, format);
    vsnprintf(sql, sizeof sql, format, args);
    va_end(args);
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(h->writer, sql, -1, &stmt, NULL);
    if (rc != SQLITE_OK && !allowed(rc, 1)) {
        fuzz_fail("cannot prepare %s: %s", sql, sqlite3_errmsg(h->writer));
    }
    return stmt;
}

/* Binds name i (modulo SHADOW_NAMES) to parameter index. */
static void bind_name(sqlite3_stmt *stmt, int index, unsigned i) {
    const char *name = names[i % SHADOW_NAMES];
    if (name != NULL) {
        sqlite3_bind_text(stmt, index, name, -1, SQLITE_STATIC);
    }
}

/* The condition that picks a table's row by its place, ?1, in the order of its key. */
static const char row_at[] =
    "%s = (SELECT %s FROM t_%s ORDER BY %s LIMIT 1 OFFSET ?1 %% max(1, (SELECT count(*) FROM "
    "t_%s)))";

/* One of the writer's operations on the shadow tables. */
static void write_shadow(harness *h, unsigned op, fuzz_input *in) {
    unsigned table = op == SHADOW_PUT64 ? SHADOW_FILTERS : fuzz_take_u8(in) % SHADOW_TABLES;
    const char *suffix = shadow_tables[table].suffix, *key = shadow_tables[table].key;
    int columns = shadow_tables[table].columns;
    char where[SQL_BYTES];
    snprintf(where, sizeof where, row_at, key, key, suffix, key, suffix);
    fuzz_value values[5];
    const uint8_t *bytes = NULL;
    size_t length = 0;
    unsigned row = 0, field = 0;
    sqlite3_stmt *stmt;
    if (op == SHADOW_SET) {
        row = fuzz_take_u8(in);
        const char *column = shadow_tables[table].column[fuzz_take_u8(in) % columns];
        values[0] = fuzz_take_value(in);
        stmt = prepare_write(h, "UPDATE t_%s SET %s = ?2 WHERE %s", suffix, column, where);
    } else if (op == SHADOW_PUT64) {
        row = fuzz_take_u8(in);
        field = fuzz_take_u8(in) % 7;
        length = fuzz_take_bytes(in, 8, &bytes);
        stmt = prepare_write(h,
                             "UPDATE t_filters SET header = substr(header, 1, ?2) || ?3 || "
                             "substr(header, ?2 + 9) WHERE %s",
                             where);
    } else if (op == SHADOW_INSERT) {
        for (int i = 0; i < columns; i++) {
            values[i] = fuzz_take_value(in);
        }
        stmt = prepare_write(h, "INSERT OR REPLACE INTO t_%s VALUES (?1, ?2%s)", suffix,
                             columns == 2   ? ""
                             : columns == 3 ? ", ?3"
                                            : ", ?3, ?4, ?5");
    } else {
        row = fuzz_take_u8(in);
        stmt = prepare_write(h, "DELETE FROM t_%s WHERE %s", suffix, where);
    }
    if (stmt == NULL) {
        return;
    }
    if (op == SHADOW_INSERT) {
        for (int i = 0; i < columns; i++) {
            fuzz_db_bind(stmt, i + 1, &values[i]);
        }
    } else {
        sqlite3_bind_int(stmt, 1, (int)row);
    }
    if (op == SHADOW_SET) {
        fuzz_db_bind(stmt, 2, &values[0]);
    } else if (op == SHADOW_PUT64) {
        sqlite3_bind_int(stmt, 2, 8 + 8 * (int)field);
        fuzz_db_bind_blob(stmt, 3, bytes, length);
    }
    run(h, stmt, 1);
}

/* Prepares sql, a statement on the live table, on h's first connection: NULL when SQLite
** refuses it as the target allows (the table cannot be connected: its rows are refused). */
static sqlite3_stmt *prepare_on_table(harness *h, const char *sql) {
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(h->db, sql, -1, &stmt, NULL);
    if (rc != SQLITE_OK && !allowed(rc, 0)) {
        fuzz_fail("cannot prepare %s: %s", sql, sqlite3_errmsg(h->db));
    }
    return stmt;
}

/* One of the first connection's statements on the live table. */
static void use_table(harness *h, unsigned op, fuzz_input *in) {
    static const char *const sql[SHADOW_OPS] = {
        [SHADOW_PROBE] = "SELECT name, key, count FROM t WHERE key = ?2",
        [SHADOW_PROBE_AT] = "SELECT name, key, count FROM t WHERE name IS ?1 AND key = ?2",
        [SHADOW_ADD] = "INSERT INTO t(name, key) VALUES (?1, ?2)",
        [SHADOW_REMOVE] = "DELETE FROM t WHERE key = ?2",
        [SHADOW_SNAPSHOT] = "SELECT name, length(filter), count FROM t",
        [SHADOW_CHECK] = "PRAGMA integrity_check",
        [SHADOW_LOAD] = "INSERT OR REPLACE INTO t(name, filter) VALUES (?1, ?2)",
        [SHADOW_DROP] = "DELETE FROM t WHERE name IS ?1",
        [SHADOW_BEGIN] = "BEGIN",
        [SHADOW_COMMIT] = "COMMIT",
        [SHADOW_ROLLBACK] = "ROLLBACK",
    };
    unsigned name = 0;
    fuzz_value key = {.tag = FUZZ_NULL};
    if (op == SHADOW_PROBE_AT || op == SHADOW_ADD || op == SHADOW_LOAD || op == SHADOW_DROP) {
        name = fuzz_take_u8(in);
    }
    if (strstr(sql[op], "?2") != NULL) {
        key = fuzz_take_value(in);
    }
    sqlite3_stmt *stmt = prepare_on_table(h, sql[op]);
    if (stmt == NULL) {
        return;
    }
    bind_name(stmt, 1, name);
    if (sqlite3_bind_parameter_count(stmt) >= 2) {
        fuzz_db_bind(stmt, 2, &key);
    }
    run(h, stmt, 0);
    if (op == SHADOW_CHECK && (stmt = prepare_on_table(h, "PRAGMA quick_check")) != NULL) {
        run(h, stmt, 0);
    }
}

/* Makes the table of kind on h's first connection, with its keys, and its index if indexed. */
static void make_table(harness *h, const filter_kind *kind, int indexed) {
    char sql[SQL_BYTES];
    if (test_kind_of(kind)->builder == BUILT_BY_CMS_BUILD) {
        snprintf(sql, sizeof sql,
                 "CREATE VIRTUAL TABLE t USING bloom(kind = '%s', epsilon = 0.01, delta = 0.01)",
                 kind->name);
    } else {
        snprintf(sql, sizeof sql,
                 "CREATE VIRTUAL TABLE t USING bloom(kind = '%s', n = 40, p = 0.01)", kind->name);
    }
    fuzz_db_exec(h->db, sql);
    fuzz_db_exec(h->db,
                 "WITH RECURSIVE k(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM k WHERE v < 20) "
                 "INSERT INTO t(name, key) SELECT name, v FROM k, (SELECT NULL AS name "
                 "UNION ALL SELECT 'a')");
    run(h,
        fuzz_db_prepare(h->db, "WITH RECURSIVE k(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM k "
                               "WHERE v < 45) INSERT INTO t(name, key) SELECT 'b', v FROM k"),
        0);
    if (indexed) {
        run(h, fuzz_db_prepare(h->db, "INSERT INTO t(t) VALUES ('optimize')"), 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    uint8_t config = fuzz_take_u8(&in);
    harness h;
    h.memory_bound = INT64_MAX;
    h.limit = config & SHADOW_SMALL_LIMIT ? 100000 : 1000000;
    h.db = open_connection(h.limit);
    fuzz_db_exec(h.db, config & SHADOW_SMALL_PAGES ? "PRAGMA page_size = 512"
                                                   : "PRAGMA page_size = 4096");
    make_table(&h, chosen_kind(config & SHADOW_KIND_MASK), (config & SHADOW_INDEXED) != 0);
    h.writer = open_connection(1000000);
    h.memory_bound = sqlite3_memory_used() + MEMORY_BOUND;
    sqlite3_memory_highwater(1);
    for (int i = 0; i < MAX_OPS && in.size > 0; i++) {
        unsigned op = fuzz_take_u8(&in) % SHADOW_OPS;
        if (op <= SHADOW_DELETE) {
            write_shadow(&h, op, &in);
        } else if (op == SHADOW_REOPEN) {
            fuzz_db_close(h.db);
            h.db = open_connection(h.limit);
        } else {
            use_table(&h, op, &in);
        }
    }
    fuzz_db_close(h.writer); /* the last close frees the database */
    fuzz_db_close(h.db);
    return 0;
}
