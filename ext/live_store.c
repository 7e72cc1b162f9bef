/*
** live_store.c: a live table's filters in its shadow tables. See live_store.h.
*/
#include "live_store.h"

#include "filter_kinds.h"
#include "little_endian.h"

#include <stdarg.h>
#include <string.h>

/* The version of this layout of the shadow tables, in %_config. */
enum { LIVE_STORAGE_VERSION = 1 };

/* A filter's chunks are rows f << 32 | c: c below 2^32, f below 2^31. */
enum { LIVE_CHUNK_BITS = 32 };
#define LIVE_FILTER_ID_MAX ((sqlite3_int64)0x7fffffff)

/* The longest filter a live table keeps: SQLite's longest BLOB (the most SQLITE_MAX_LENGTH
** can be), so that every filter is a BLOB too. Its chunks, of 64 bytes or more, then number
** fewer than 2^25: a chunk's index fits its row id, and 32 bits, with room to spare. */
#define LIVE_BYTES_MAX ((uint64_t)2147483647)
_Static_assert((LIVE_BYTES_MAX - 64) / 64 < ((uint64_t)1 << 25), "chunk indexes past 2^25");

/* The count an operation of a kind that counts by steps (count_by_steps) starts from: its
** step is then the difference, and the filter's count is not needed. */
#define LIVE_COUNT_FROM ((uint64_t)1)

/* The cache of chunks: at most this many bytes of chunks and of their records. */
#define LIVE_CACHE_BYTES ((uint64_t)32 << 20)

/* The statements the store runs, prepared once each. */
typedef enum live_statement {
    STMT_CHUNK_READ,
    STMT_CHUNK_WRITE,
    STMT_CHUNK_UPDATE,
    STMT_CHUNK_DELETE,
    STMT_CHUNK_KEYS,
    STMT_CHUNK_SCAN,
    STMT_CHUNKS_DROP,
    STMT_FILTERS_LIST,
    STMT_FILTER_INSERT,
    STMT_FILTER_UPDATE,
    STMT_FILTER_DELETE,
    STMT_DATA_VERSION,
    STMT_INSTANCE,
    STMT_COUNT
} live_statement;

/* Their text, naming the schema then the table ("%w"."%w_..."). */
static const char *const live_statement_sql[STMT_COUNT] = {
    [STMT_CHUNK_READ] = "SELECT keys, data FROM \"%w\".\"%w_chunks\" WHERE id = ?1",
    [STMT_CHUNK_WRITE] =
        "INSERT OR REPLACE INTO \"%w\".\"%w_chunks\"(id, keys, data) VALUES (?1, ?2, ?3)",
    [STMT_CHUNK_UPDATE] = "UPDATE \"%w\".\"%w_chunks\" SET keys = ?2, data = ?3 WHERE id = ?1",
    [STMT_CHUNK_DELETE] = "DELETE FROM \"%w\".\"%w_chunks\" WHERE id = ?1",
    [STMT_CHUNK_KEYS] = "SELECT keys FROM \"%w\".\"%w_chunks\" WHERE id BETWEEN ?1 AND ?2",
    [STMT_CHUNK_SCAN] = "SELECT id, keys, data FROM \"%w\".\"%w_chunks\" WHERE id BETWEEN ?1 "
                        "AND ?2 ORDER BY id",
    [STMT_CHUNKS_DROP] = "DELETE FROM \"%w\".\"%w_chunks\" WHERE id BETWEEN ?1 AND ?2",
    [STMT_FILTERS_LIST] =
        "SELECT id, name, header, bytes, chunk_bytes FROM \"%w\".\"%w_filters\" ORDER BY id",
    [STMT_FILTER_INSERT] = "INSERT INTO \"%w\".\"%w_filters\"(name, header, bytes, "
                           "chunk_bytes) VALUES (?1, ?2, ?3, ?4)",
    [STMT_FILTER_UPDATE] = "UPDATE \"%w\".\"%w_filters\" SET header = ?2, bytes = ?3 WHERE id = ?1",
    [STMT_FILTER_DELETE] = "DELETE FROM \"%w\".\"%w_filters\" WHERE id = ?1",
    [STMT_DATA_VERSION] = "PRAGMA \"%w\".data_version",
    [STMT_INSTANCE] = "SELECT value FROM \"%w\".\"%w_config\" WHERE key = 'instance'",
};

/* A chunk in the cache, in its filter's slots and in the store's list. */
typedef struct live_chunk {
    live_filter *filter;
    struct live_slot *slot; /* its slot in its filter's */
    uint32_t index;         /* its index in its filter */
    uint32_t at;            /* its place in the store's list */
    uint8_t *data;          /* its bytes (its filter's chunk_bytes), or NULL while they are all 0 */
    uint32_t used;          /* its length: the bytes of its filter in it, which its row holds */
    uint8_t dirty;          /* changed since it was written */
    uint8_t in_table;       /* it has a row */
} live_chunk;

/* A filter's chunk as the cache holds it, by its index: what an add or a probe needs, without
** reaching for the chunk's record. */
typedef struct live_slot {
    live_chunk *chunk;  /* NULL: not in the cache */
    uint8_t *bytes;     /* its data, NULL while they are all 0 */
    sqlite3_int64 keys; /* its part of the count */
    uint8_t recent;     /* used since the clock passed it */
    uint8_t ready;      /* changed since written, with its bytes and its whole length: a write
                           may go straight to the bytes */
} live_slot;

/* A cached chunk's place in the cache's index, by its row id: what a connection keeps grows
** with the chunks it holds, never with what a filter's row says of its length. */
typedef struct live_entry {
    sqlite3_int64 id; /* the chunk's row id; 0: a free place (filter ids start at 1) */
    live_slot slot;
} live_entry;

/* What a cached chunk costs the cache besides its bytes: its record and its places in the
** index (at most half full, so two). */
#define LIVE_CHUNK_RECORD_BYTES ((uint64_t)(sizeof(live_chunk) + 2 * sizeof(live_entry)))

/* A chunk made dirty: its filter's id and its index. */
typedef struct live_dirty {
    sqlite3_int64 filter;
    uint32_t index;
} live_dirty;

struct live_store {
    sqlite3 *db;
    char *schema;
    char *table;
    char *error;
    sqlite3_stmt *statements[STMT_COUNT];
    /* From %_config. */
    uint32_t chunk_bytes;
    sqlite3_int64 instance; /* drawn when the table was made (0 in a table made before) */
    live_template template;
    /* The filters, in the order of their ids, while loaded. */
    int loaded;
    live_filter **filters;
    size_t filter_count, filter_capacity;
    uint64_t generation;
    /* The chunks read and written, and their slots by row id (an open-addressed table,
    ** entry_mask + 1 places, NULL until the first chunk). */
    live_chunk **cached;
    uint32_t cached_count, cached_capacity;
    uint64_t cached_bytes;
    live_entry *entries;
    uint32_t entry_mask;
    uint32_t hand;     /* the clock's, in cached */
    live_dirty *dirty; /* the chunks made dirty since the last flush (some written since) */
    uint32_t dirty_count, dirty_capacity;
    int headers_changed; /* a filter's header row may need writing */
    /* What another connection may have changed. */
    int versions_known;
    unsigned int file_version;
    sqlite3_int64 pragma_version;
    /* The operation under way: its filter's count when it started, the chunk it wrote last. */
    uint64_t op_count;
    /* The bytes an operation that may fail halfway overwrote, to put back (live_op_undo). */
    int undo_on;
    uint8_t *undo;
    size_t undo_used, undo_capacity;
    uint8_t undo_header[FILTER_HEADER_BYTES];
    int op_wrote;
    uint32_t op_index;
};

/* ---- Errors and statements ---- */

/* Sets the store's error to the message of format and returns rc. */
static int live_fail(live_store *s, int rc, const char *format, ...) {
    va_list args;
    va_start(args, format);
    char *message = sqlite3_vmprintf(format, args);
    va_end(args);
    sqlite3_free(s->error);
    s->error = message;
    return message == NULL ? SQLITE_NOMEM : rc;
}

/* Sets the store's error to the connection's for rc, which a statement of the store returned. */
static int live_fail_sqlite(live_store *s, int rc) {
    return live_fail(s, rc, "%s: %s", s->table, sqlite3_errmsg(s->db));
}

char *live_store_take_error(live_store *s) {
    char *error = s->error;
    s->error = NULL;
    return error;
}

/* Prepares every statement of the store, which name its tables (when it opens, and after a
** rename): what an operation needs is there, whatever memory is left then. */
static int live_statements_prepare(live_store *s) {
    for (int i = 0; i < STMT_COUNT; i++) {
        char *sql = sqlite3_mprintf(live_statement_sql[i], s->schema, s->table);
        int rc = sql == NULL ? SQLITE_NOMEM
                             : sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                                  &s->statements[i], NULL);
        sqlite3_free(sql);
        if (rc != SQLITE_OK) {
            return rc == SQLITE_NOMEM ? rc : live_fail_sqlite(s, rc);
        }
    }
    return SQLITE_OK;
}

/* The statement which, reset and unbound (prepared when the store opened). */
static sqlite3_stmt *live_prepared(live_store *s, live_statement which) {
    return s->statements[which];
}

/* Ends a run of stmt that gave rc (SQLITE_DONE or SQLITE_ROW are success): SQLITE_OK or the
** error, set. */
static int live_statement_done(live_store *s, sqlite3_stmt *stmt, int rc) {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : live_fail_sqlite(s, rc);
}

/* Runs stmt, a write, and ends it: SQLITE_OK or the error, set. The connection's last insert
** rowid stays the user's (the rowid stmt inserted into *rowid, if not NULL). */
static int live_write(live_store *s, sqlite3_stmt *stmt, sqlite3_int64 *rowid) {
    sqlite3_int64 users = sqlite3_last_insert_rowid(s->db);
    int step = sqlite3_step(stmt);
    if (rowid != NULL) {
        *rowid = sqlite3_last_insert_rowid(s->db);
    }
    sqlite3_set_last_insert_rowid(s->db, users);
    return live_statement_done(s, stmt, step);
}

/* Runs each statement of script on the store's tables (each names them as "%w"."%w_...", the
** schema then the table), into *error on failure. */
static int live_exec(sqlite3 *db, const char *schema, const char *table, const char *const *script,
                     size_t count, char **error) {
    int rc = SQLITE_OK;
    for (size_t i = 0; rc == SQLITE_OK && i < count; i++) {
        char *sql = sqlite3_mprintf(script[i], schema, table);
        rc = sql == NULL ? SQLITE_NOMEM : sqlite3_exec(db, sql, NULL, NULL, error);
        sqlite3_free(sql);
    }
    return rc;
}

/* ---- Creating and opening ---- */

/* The largest multiple of 64 bytes whose row (id, keys, data) stays in one page of db's
** schema, with room for the reserved bytes of a page. */
static uint32_t live_chunk_bytes_for(sqlite3 *db, const char *schema) {
    sqlite3_stmt *stmt = NULL;
    int page = 4096;
    char *sql = sqlite3_mprintf("PRAGMA \"%w\".page_size", schema);
    if (sql != NULL && sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
        page = sqlite3_column_int(stmt, 0);
    }
    sqlite3_finalize(stmt);
    sqlite3_free(sql);
    int reserved = 0;
    if (sqlite3_file_control(db, schema, SQLITE_FCNTL_RESERVE_BYTES, &reserved) != SQLITE_OK) {
        reserved = 32; /* before SQLite 3.32: room for the usual checksums and ciphers */
    }
    /* A leaf cell holds usable - 35 bytes of payload: a record header of at most 6 bytes and
    ** an 8-byte integer besides the chunk (the rowid is not in the payload). */
    int room = page - reserved - 35 - 6 - 8;
    return room < 64 ? 64 : (uint32_t)(room / 64 * 64);
}

int live_store_create(sqlite3 *db, const char *schema, const char *table,
                      const live_template *template, char **error) {
    static const char *const tables[] = {
        "CREATE TABLE \"%w\".\"%w_config\"(key TEXT PRIMARY KEY, value) WITHOUT ROWID",
        "CREATE TABLE \"%w\".\"%w_filters\"(id INTEGER PRIMARY KEY, name TEXT UNIQUE, header "
        "BLOB NOT NULL, bytes INTEGER NOT NULL, chunk_bytes INTEGER NOT NULL)",
        "CREATE TABLE \"%w\".\"%w_chunks\"(id INTEGER PRIMARY KEY, keys INTEGER NOT NULL, data "
        "BLOB NOT NULL)"};
    int rc = live_exec(db, schema, table, tables, sizeof tables / sizeof tables[0], error);
    sqlite3_stmt *stmt = NULL;
    char *sql = sqlite3_mprintf("INSERT INTO \"%w\".\"%w_config\" VALUES ('version', ?1), "
                                "('chunk_bytes', ?2), ('template', ?3), ('template_bytes', ?4), "
                                "('instance', ?5)",
                                schema, table);
    sqlite3_int64 instance;
    sqlite3_randomness(sizeof instance, &instance);
    if (rc == SQLITE_OK && sql == NULL) {
        rc = SQLITE_NOMEM;
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    }
    if (rc == SQLITE_OK) {
        sqlite3_bind_int(stmt, 1, LIVE_STORAGE_VERSION);
        sqlite3_bind_int64(stmt, 2, live_chunk_bytes_for(db, schema));
        if (template->head_bytes > 0) {
            sqlite3_bind_blob64(stmt, 3, template->head, template->head_bytes, SQLITE_STATIC);
            sqlite3_bind_int64(stmt, 4, (sqlite3_int64) template->bytes);
        }
        sqlite3_bind_int64(stmt, 5, instance);
        rc = sqlite3_step(stmt) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
        if (rc != SQLITE_OK && error != NULL && *error == NULL) {
            *error = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        }
    }
    sqlite3_finalize(stmt);
    sqlite3_free(sql);
    return rc;
}

/* Reads %_config into the store. */
static int live_store_read_config(live_store *s) {
    sqlite3_stmt *stmt = NULL;
    char *sql = sqlite3_mprintf("SELECT key, value FROM \"%w\".\"%w_config\"", s->schema, s->table);
    int rc = sql == NULL ? SQLITE_NOMEM : sqlite3_prepare_v2(s->db, sql, -1, &stmt, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
        return rc == SQLITE_NOMEM ? rc : live_fail_sqlite(s, rc);
    }
    int version = 0, short_template = 0;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(stmt, 0);
        if (key == NULL) {
            continue;
        }
        if (strcmp(key, "version") == 0) {
            version = sqlite3_column_int(stmt, 1);
        } else if (strcmp(key, "chunk_bytes") == 0) {
            sqlite3_int64 bytes = sqlite3_column_int64(stmt, 1);
            s->chunk_bytes = bytes >= 64 && bytes <= 65536 && bytes % 64 == 0 ? (uint32_t)bytes : 0;
        } else if (strcmp(key, "template") == 0 && sqlite3_column_type(stmt, 1) == SQLITE_BLOB) {
            int bytes = sqlite3_column_bytes(stmt, 1);
            if (bytes < FILTER_HEADER_BYTES) {
                short_template = 1; /* refused below, nothing allocated */
                continue;
            }
            sqlite3_free(s->template.head); /* (a key twice, in a file that broke its index) */
            s->template.head = sqlite3_malloc64((uint64_t)bytes);
            s->template.head_bytes = 0;
            if (s->template.head == NULL) {
                rc = SQLITE_NOMEM;
                break;
            }
            memcpy(s->template.head, sqlite3_column_blob(stmt, 1), (size_t)bytes);
            s->template.head_bytes = (uint64_t)bytes;
        } else if (strcmp(key, "template_bytes") == 0) {
            s->template.bytes = (uint64_t)sqlite3_column_int64(stmt, 1);
        } else if (strcmp(key, "instance") == 0) {
            s->instance = sqlite3_column_int64(stmt, 1);
        }
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        return rc == SQLITE_NOMEM ? rc : live_fail_sqlite(s, rc);
    }
    if (version != LIVE_STORAGE_VERSION || s->chunk_bytes == 0 || short_template ||
        (s->template.head_bytes > 0 &&
         (s->template.head_bytes < FILTER_HEADER_BYTES ||
          s->template.bytes < s->template.head_bytes || s->template.bytes > LIVE_BYTES_MAX))) {
        return live_fail(s, SQLITE_CORRUPT_VTAB,
                         "%s: its table %s_config is not a live table's of version %d", s->table,
                         s->table, LIVE_STORAGE_VERSION);
    }
    return SQLITE_OK;
}

/* The data version of the store's file, which any commit changes, into *file, and the one of
** PRAGMA data_version, which the connection's own do not, into *pragma. */
static int live_store_versions(live_store *s, unsigned int *file, sqlite3_int64 *pragma) {
    sqlite3_stmt *stmt = live_prepared(s, STMT_DATA_VERSION);
    *file = 0;
    sqlite3_file_control(s->db, s->schema, SQLITE_FCNTL_DATA_VERSION, file);
    int step = sqlite3_step(stmt);
    *pragma = step == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
    return live_statement_done(s, stmt, step);
}

int live_store_open(sqlite3 *db, const char *schema, const char *table, live_store **out,
                    char **error) {
    live_store *s = sqlite3_malloc64(sizeof *s);
    *out = NULL;
    if (s == NULL) {
        return SQLITE_NOMEM;
    }
    memset(s, 0, sizeof *s);
    s->db = db;
    s->schema = sqlite3_mprintf("%s", schema);
    s->table = sqlite3_mprintf("%s", table);
    int rc = s->schema == NULL || s->table == NULL ? SQLITE_NOMEM : live_store_read_config(s);
    if (rc == SQLITE_OK) {
        rc = live_statements_prepare(s);
    }
    if (rc == SQLITE_OK) { /* what others commit from now on empties the caches */
        rc = live_store_versions(s, &s->file_version, &s->pragma_version);
        s->versions_known = rc == SQLITE_OK;
    }
    if (rc != SQLITE_OK) {
        *error = live_store_take_error(s);
        live_store_close(s);
        return rc;
    }
    *out = s;
    return SQLITE_OK;
}

int live_store_drop_tables(live_store *s) {
    char *error = NULL;
    static const char *const tables[] = {"DROP TABLE IF EXISTS \"%w\".\"%w_chunks\"",
                                         "DROP TABLE IF EXISTS \"%w\".\"%w_filters\"",
                                         "DROP TABLE IF EXISTS \"%w\".\"%w_config\""};
    int rc =
        live_exec(s->db, s->schema, s->table, tables, sizeof tables / sizeof tables[0], &error);
    if (rc != SQLITE_OK) {
        live_fail(s, rc, "%s: %s", s->table, error != NULL ? error : sqlite3_errstr(rc));
    }
    sqlite3_free(error);
    return rc;
}

/* Finalizes the store's statements, which name its tables. */
static void live_store_finalize(live_store *s) {
    for (int i = 0; i < STMT_COUNT; i++) {
        sqlite3_finalize(s->statements[i]);
        s->statements[i] = NULL;
    }
}

int live_store_rename(live_store *s, const char *new_name) {
    char *table = sqlite3_mprintf("%s", new_name), *error = NULL;
    if (table == NULL) {
        return SQLITE_NOMEM;
    }
    live_store_finalize(s);
    int rc = SQLITE_OK;
    static const char *const suffixes[] = {"config", "filters", "chunks"};
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char *sql = sqlite3_mprintf("ALTER TABLE \"%w\".\"%w_%s\" RENAME TO \"%w_%s\"", s->schema,
                                    s->table, suffixes[i], new_name, suffixes[i]);
        rc = sql == NULL ? SQLITE_NOMEM : sqlite3_exec(s->db, sql, NULL, NULL, &error);
        sqlite3_free(sql);
    }
    if (rc != SQLITE_OK) {
        live_fail(s, rc, "%s: %s", s->table, error != NULL ? error : sqlite3_errstr(rc));
        sqlite3_free(error);
        sqlite3_free(table);
        return rc;
    }
    sqlite3_free(s->table);
    s->table = table;
    return live_statements_prepare(s);
}

/* ---- The cache of chunks ---- */

/* The first row id of filter id's chunks, and the last. */
static sqlite3_int64 live_first_chunk(sqlite3_int64 id) {
    return id << LIVE_CHUNK_BITS;
}

static sqlite3_int64 live_last_chunk(sqlite3_int64 id) {
    return (id << LIVE_CHUNK_BITS) | (((sqlite3_int64)1 << LIVE_CHUNK_BITS) - 1);
}

/* The row id of chunk c. */
static sqlite3_int64 live_chunk_id(const live_chunk *c) {
    return live_first_chunk(c->filter->id) + c->index;
}

/* The number of chunks of f at its length (below 2^25: live_filter_make). */
static uint64_t live_chunk_count(const live_filter *f) {
    return (f->view.bytes - FILTER_HEADER_BYTES + f->chunk_bytes - 1) / f->chunk_bytes;
}

/* The bytes of f in its chunk index: the chunk size, or less for its last chunk. */
static uint32_t live_chunk_length(const live_filter *f, uint64_t index) {
    uint64_t in_filter = f->view.bytes - FILTER_HEADER_BYTES - index * f->chunk_bytes;
    return in_filter < f->chunk_bytes ? (uint32_t)in_filter : f->chunk_bytes;
}

/* The place in the index where the search for row id starts. */
static uint32_t live_entry_home(const live_store *s, sqlite3_int64 id) {
    return (uint32_t)(((uint64_t)id * 0x9e3779b97f4a7c15u) >> 32) & s->entry_mask;
}

/* The slot of f's chunk index, NULL when the cache does not hold that chunk. */
static live_slot *live_slot_of(const live_filter *f, uint64_t index) {
    live_store *s = f->store;
    if (s->entries == NULL || index >= ((uint64_t)1 << LIVE_CHUNK_BITS)) {
        return NULL;
    }
    sqlite3_int64 id = live_first_chunk(f->id) + (sqlite3_int64)index;
    for (uint32_t at = live_entry_home(s, id);; at = (at + 1) & s->entry_mask) {
        if (s->entries[at].id == id) {
            return &s->entries[at].slot;
        }
        if (s->entries[at].id == 0) {
            return NULL;
        }
    }
}

/* Puts entry e in the index's first free place from its home, telling its chunk. */
static void live_entry_place(live_store *s, const live_entry *e) {
    uint32_t at = live_entry_home(s, e->id);
    while (s->entries[at].id != 0) {
        at = (at + 1) & s->entry_mask;
    }
    s->entries[at] = *e;
    s->entries[at].slot.chunk->slot = &s->entries[at].slot;
}

/* Makes the index room for one chunk more, at most half full: SQLITE_OK or SQLITE_NOMEM. */
static int live_entries_reserve(live_store *s) {
    uint64_t places = s->entries == NULL ? 0 : (uint64_t)s->entry_mask + 1;
    if (((uint64_t)s->cached_count + 1) * 2 <= places) {
        return SQLITE_OK;
    }
    uint64_t grown_places = places == 0 ? 64 : places * 2;
    live_entry *grown = sqlite3_malloc64(grown_places * sizeof *grown);
    if (grown == NULL) {
        return SQLITE_NOMEM;
    }
    memset(grown, 0, grown_places * sizeof *grown);
    live_entry *old = s->entries;
    s->entries = grown;
    s->entry_mask = (uint32_t)(grown_places - 1);
    for (uint64_t i = 0; i < places; i++) {
        if (old[i].id != 0) {
            live_entry_place(s, &old[i]);
        }
    }
    sqlite3_free(old);
    return SQLITE_OK;
}

/* Takes slot out of the index, moving back the entries after it that searches would no
** longer find (and telling their chunks). */
static void live_entry_remove(live_store *s, live_slot *slot) {
    uint32_t hole =
        (uint32_t)((live_entry *)((uint8_t *)slot - offsetof(live_entry, slot)) - s->entries);
    for (uint32_t at = (hole + 1) & s->entry_mask; s->entries[at].id != 0;
         at = (at + 1) & s->entry_mask) {
        uint32_t home = live_entry_home(s, s->entries[at].id);
        if (((at - home) & s->entry_mask) >= ((at - hole) & s->entry_mask)) {
            s->entries[hole] = s->entries[at];
            s->entries[hole].slot.chunk->slot = &s->entries[hole].slot;
            hole = at;
        }
    }
    memset(&s->entries[hole], 0, sizeof s->entries[hole]);
}

/* Drops c from the cache, what it did not write with it. */
static void live_chunk_free(live_store *s, live_chunk *c) {
    live_chunk *last = s->cached[--s->cached_count];
    s->cached[c->at] = last;
    last->at = c->at;
    live_entry_remove(s, c->slot);
    c->filter->chunks_cached--;
    s->cached_bytes -= LIVE_CHUNK_RECORD_BYTES + (c->data != NULL ? c->filter->chunk_bytes : 0);
    sqlite3_free(c->data);
    sqlite3_free(c);
}

/* The statement which, given by name (STMT_CHUNK_WRITE or STMT_CHUNK_UPDATE), writes chunk c's
** row (id, keys, data), its parameters bound. */
static sqlite3_stmt *live_chunk_bind(live_store *s, live_statement name, live_chunk *c) {
    sqlite3_stmt *stmt = live_prepared(s, name);
    sqlite3_bind_int64(stmt, 1, live_chunk_id(c));
    sqlite3_bind_int64(stmt, 2, c->slot->keys);
    if (c->data != NULL) {
        sqlite3_bind_blob(stmt, 3, c->data, (int)c->used, SQLITE_STATIC);
    } else {
        sqlite3_bind_zeroblob(stmt, 3, (int)c->used);
    }
    return stmt;
}

/* Writes chunk c to its row: deleted when it is all 0 and counts nothing. */
static int live_chunk_write(live_store *s, live_chunk *c) {
    int zeros = c->data == NULL;
    if (!zeros) {
        zeros = c->used == 0 || (c->data[0] == 0 && memcmp(c->data, c->data + 1, c->used - 1) == 0);
    }
    int rc;
    if (zeros && c->slot->keys == 0) {
        if (!c->in_table) {
            c->dirty = 0;
            c->slot->ready = 0;
            return SQLITE_OK;
        }
        sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNK_DELETE);
        sqlite3_bind_int64(stmt, 1, live_chunk_id(c));
        rc = live_write(s, stmt, NULL);
        c->in_table = rc == SQLITE_OK ? 0 : c->in_table;
    } else {
        /* A row of the same length is rewritten where it lies; a row it had is updated, else
        ** (or when the update finds none) written anew. */
        rc = SQLITE_OK;
        int written = 0;
        if (c->in_table) {
            rc = live_write(s, live_chunk_bind(s, STMT_CHUNK_UPDATE, c), NULL);
            written = rc == SQLITE_OK && sqlite3_changes(s->db) == 1;
        }
        if (rc == SQLITE_OK && !written) {
            rc = live_write(s, live_chunk_bind(s, STMT_CHUNK_WRITE, c), NULL);
        }
        c->in_table = rc == SQLITE_OK ? 1 : c->in_table;
    }
    c->dirty = rc == SQLITE_OK ? 0 : c->dirty;
    c->slot->ready = c->dirty;
    return rc;
}

/* Makes room for bytes more of chunks: evicts chunks by the clock, writing a changed one
** first. */
static int live_cache_make_room(live_store *s, uint64_t bytes) {
    while (s->cached_count > 0 && s->cached_bytes + bytes > LIVE_CACHE_BYTES) {
        s->hand = s->hand < s->cached_count ? s->hand : 0;
        live_chunk *c = s->cached[s->hand];
        if (c->slot->recent) {
            c->slot->recent = 0;
            s->hand++;
            continue;
        }
        if (c->dirty) {
            int rc = live_chunk_write(s, c);
            if (rc != SQLITE_OK) {
                return rc;
            }
        }
        live_chunk_free(s, c); /* the last takes its place, which the clock looks at next */
    }
    return SQLITE_OK;
}

/* Marks c changed, to be written by the next flush. */
static int live_chunk_mark_dirty(live_store *s, live_chunk *c) {
    if (c->dirty) {
        return SQLITE_OK;
    }
    if (s->dirty_count == s->dirty_capacity) {
        uint32_t capacity = s->dirty_capacity == 0 ? 64 : s->dirty_capacity * 2;
        live_dirty *grown = sqlite3_realloc64(s->dirty, capacity * sizeof *grown);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        s->dirty = grown;
        s->dirty_capacity = capacity;
    }
    s->dirty[s->dirty_count].filter = c->filter->id;
    s->dirty[s->dirty_count++].index = c->index;
    c->dirty = 1;
    return SQLITE_OK;
}

/* Makes room in the store's list and index for one chunk more. */
static int live_chunk_room(live_store *s) {
    if (s->cached_count == s->cached_capacity) {
        uint32_t capacity = s->cached_capacity == 0 ? 64 : s->cached_capacity * 2;
        live_chunk **grown = sqlite3_realloc64(s->cached, capacity * sizeof *grown);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        s->cached = grown;
        s->cached_capacity = capacity;
    }
    return live_entries_reserve(s);
}

/* Reads chunk c's row, if it has one, into c, and its part of the count into *keys. */
static int live_chunk_read(live_store *s, live_chunk *c, sqlite3_int64 *keys) {
    sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNK_READ);
    uint32_t room = c->filter->chunk_bytes;
    sqlite3_bind_int64(stmt, 1, live_chunk_id(c));
    int step = sqlite3_step(stmt);
    *keys = 0;
    if (step == SQLITE_ROW) {
        int bytes = sqlite3_column_bytes(stmt, 1);
        *keys = sqlite3_column_int64(stmt, 0);
        c->in_table = 1;
        c->used = (uint32_t)bytes;
        if (bytes > (int)room) {
            sqlite3_reset(stmt);
            return live_fail(s, SQLITE_CORRUPT_VTAB,
                             "%s: corrupt chunk %lld: %d bytes, more than %u", s->table,
                             live_chunk_id(c), bytes, room);
        }
        if ((c->data = sqlite3_malloc64(room)) == NULL) {
            sqlite3_reset(stmt);
            return SQLITE_NOMEM;
        }
        if (bytes > 0) {
            memcpy(c->data, sqlite3_column_blob(stmt, 1), (size_t)bytes);
        }
        memset(c->data + bytes, 0, room - (uint32_t)bytes);
    }
    return live_statement_done(s, stmt, step);
}

/* f's chunk index (below its chunk count) from the cache, read from its row if need be, into
** *out (valid until the cache next changes). */
static int live_chunk_get(live_store *s, live_filter *f, uint64_t index, live_chunk **out) {
    live_slot *slot = live_slot_of(f, index);
    if (slot != NULL) {
        *out = slot->chunk;
        slot->recent = 1;
        return SQLITE_OK;
    }
    int rc = live_cache_make_room(s, LIVE_CHUNK_RECORD_BYTES + f->chunk_bytes);
    if (rc == SQLITE_OK) {
        rc = live_chunk_room(s);
    }
    live_chunk *c = rc == SQLITE_OK ? sqlite3_malloc64(sizeof *c) : NULL;
    if (c == NULL) {
        return rc != SQLITE_OK ? rc : SQLITE_NOMEM;
    }
    memset(c, 0, sizeof *c);
    c->filter = f;
    c->index = (uint32_t)index;
    live_entry entry = {.id = live_chunk_id(c), .slot = {.chunk = c, .recent = 1}};
    if ((rc = live_chunk_read(s, c, &entry.slot.keys)) != SQLITE_OK) {
        sqlite3_free(c->data);
        sqlite3_free(c);
        return rc;
    }
    entry.slot.bytes = c->data;
    live_entry_place(s, &entry); /* (room made above) */
    c->at = s->cached_count;
    s->cached[s->cached_count++] = c;
    s->cached_bytes += LIVE_CHUNK_RECORD_BYTES + (c->data != NULL ? f->chunk_bytes : 0);
    f->chunks_cached++;
    *out = c;
    return SQLITE_OK;
}

/* Empties the cache of chunks, dropping what it did not write. */
static void live_cache_clear(live_store *s) {
    while (s->cached_count > 0) {
        live_chunk_free(s, s->cached[s->cached_count - 1]); /* (the index keeps its places) */
    }
    s->dirty_count = 0;
}

/* Drops f's chunks from the cache. */
static void live_cache_forget(live_store *s, const live_filter *f) {
    for (uint32_t i = s->cached_count; i-- > 0;) {
        if (s->cached[i]->filter == f) {
            live_chunk_free(s, s->cached[i]); /* the last, seen already, takes its place */
        }
    }
}

/* ---- The filters ---- */

/* Frees f. */
static void live_filter_free(live_filter *f) {
    if (f != NULL) {
        sqlite3_free(f->name);
        sqlite3_free(f);
    }
}

/* Forgets the list of filters, and with them the cache. */
static void live_filters_clear(live_store *s) {
    live_cache_clear(s);
    for (size_t i = 0; i < s->filter_count; i++) {
        live_filter_free(s->filters[i]);
    }
    sqlite3_free(s->filters);
    s->filters = NULL;
    s->filter_count = s->filter_capacity = 0;
    s->loaded = 0;
    s->headers_changed = 0; /* nothing left to write */
    s->generation++;
}

void live_store_close(live_store *s) {
    if (s == NULL) {
        return;
    }
    live_store_finalize(s);
    live_filters_clear(s);
    sqlite3_free(s->cached);
    sqlite3_free(s->entries);
    sqlite3_free(s->dirty);
    sqlite3_free(s->undo);
    sqlite3_free(s->template.head);
    sqlite3_free(s->schema);
    sqlite3_free(s->table);
    sqlite3_free(s->error);
    sqlite3_free(s);
}

/* The count at f's header's count offset. */
static uint64_t live_header_count(const live_filter *f, const uint8_t *header) {
    return le_load64(header + f->view.kind->count_offset);
}

/* Makes a filter of the store from a row's fields, validated: header, length, chunk size. */
static int live_filter_make(live_store *s, sqlite3_int64 id, const char *name,
                            const uint8_t *header, int header_bytes, sqlite3_int64 bytes,
                            sqlite3_int64 chunk_bytes, live_filter **out) {
    char why[FILTER_WHY_MAX];
    live_filter *f = sqlite3_malloc64(sizeof *f);
    *out = NULL;
    if (f == NULL) {
        return SQLITE_NOMEM;
    }
    memset(f, 0, sizeof *f);
    f->store = s;
    f->id = id;
    if (name != NULL && (f->name = sqlite3_mprintf("%s", name)) == NULL) {
        live_filter_free(f);
        return SQLITE_NOMEM;
    }
    if (header_bytes != FILTER_HEADER_BYTES || bytes < FILTER_HEADER_BYTES || chunk_bytes < 64 ||
        chunk_bytes > 65536 || chunk_bytes % 64 != 0 || id < 1 || id > LIVE_FILTER_ID_MAX) {
        live_filter_free(f);
        return live_fail(s, SQLITE_CORRUPT_VTAB, "%s: corrupt filter %lld in %s_filters", s->table,
                         id, s->table);
    }
    if ((uint64_t)bytes > LIVE_BYTES_MAX) {
        live_filter_free(f);
        return live_fail(s, SQLITE_CORRUPT_VTAB,
                         "%s: corrupt filter %lld in %s_filters: %lld bytes, more than SQLite's "
                         "longest BLOB (%llu)",
                         s->table, id, s->table, bytes, (unsigned long long)LIVE_BYTES_MAX);
    }
    memcpy(f->header, header, FILTER_HEADER_BYTES);
    memcpy(f->stored_header, header, FILTER_HEADER_BYTES);
    f->stored_bytes = (uint64_t)bytes;
    f->chunk_bytes = (uint32_t)chunk_bytes;
    if (filter_open_header(f->header, (uint64_t)bytes, &f->view, why) != FILTER_OK) {
        live_filter_free(f);
        return live_fail(s, SQLITE_CORRUPT_VTAB, "%s: corrupt filter %lld in %s_filters: %s",
                         s->table, id, s->table, why);
    }
    f->base = live_header_count(f, header);
    *out = f;
    return SQLITE_OK;
}

/* Appends f to the list (its id above every other's). */
static int live_filters_append(live_store *s, live_filter *f) {
    if (s->filter_count == s->filter_capacity) {
        size_t capacity = s->filter_capacity == 0 ? 16 : s->filter_capacity * 2;
        live_filter **grown = sqlite3_realloc64(s->filters, capacity * sizeof *grown);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        s->filters = grown;
        s->filter_capacity = capacity;
    }
    s->filters[s->filter_count++] = f;
    s->generation++;
    return SQLITE_OK;
}

/* The result of a check of f that answered status (why its reason): SQLITE_OK, the store's
** error of a read, or SQLITE_CORRUPT_VTAB naming f. */
static int live_filter_checked(live_filter *f, filter_status status, const char *why) {
    live_store *s = f->store;
    if (status == FILTER_IO_FAILED) {
        return s->error != NULL ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    return status == FILTER_OK
               ? SQLITE_OK
               : live_fail(s, SQLITE_CORRUPT_VTAB, "%s: corrupt filter %lld in %s_filters: %s",
                           s->table, f->id, s->table, why);
}

int live_filter_open(live_filter *f) {
    char why[FILTER_WHY_MAX];
    if (f->body_checked || f->view.kind->validate_body == NULL) {
        return SQLITE_OK;
    }
    int rc = live_filter_count(f); /* the header's count, which the body's must match */
    if (rc != SQLITE_OK) {
        return rc;
    }
    filter_io io = live_filter_io(f);
    rc = live_filter_checked(f, f->view.kind->validate_body(&f->view, &io, why), why);
    f->body_checked = rc == SQLITE_OK;
    return rc;
}

int live_store_load(live_store *s) {
    if (s->loaded) {
        return SQLITE_OK;
    }
    live_filters_clear(s);
    sqlite3_stmt *stmt = live_prepared(s, STMT_FILTERS_LIST);
    int rc = SQLITE_OK, step;
    while (rc == SQLITE_OK && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
        live_filter *f;
        sqlite3_int64 id = sqlite3_column_int64(stmt, 0);
        if (s->filter_count > 0 && id <= s->filters[s->filter_count - 1]->id) {
            rc = live_fail(s, SQLITE_CORRUPT_VTAB, "%s: corrupt %s_filters: ids out of order",
                           s->table, s->table);
            break;
        }
        rc = live_filter_make(s, id, (const char *)sqlite3_column_text(stmt, 1),
                              sqlite3_column_blob(stmt, 2), sqlite3_column_bytes(stmt, 2),
                              sqlite3_column_int64(stmt, 3), sqlite3_column_int64(stmt, 4), &f);
        if (rc == SQLITE_OK && (rc = live_filters_append(s, f)) != SQLITE_OK) {
            live_filter_free(f);
        }
    }
    if (rc != SQLITE_OK) {
        sqlite3_reset(stmt);
    } else {
        rc = live_statement_done(s, stmt, step);
    }
    s->loaded = rc == SQLITE_OK;
    if (rc != SQLITE_OK) {
        live_filters_clear(s);
    }
    return rc;
}

uint64_t live_store_generation(const live_store *s) {
    return s->generation;
}

live_filter *live_store_filter_at(const live_store *s, size_t i) {
    return i < s->filter_count ? s->filters[i] : NULL;
}

size_t live_store_position(const live_store *s, sqlite3_int64 id) {
    size_t low = 0, high = s->filter_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (s->filters[middle]->id < id) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low;
}

live_filter *live_store_find(const live_store *s, const char *name) {
    for (size_t i = 0; i < s->filter_count; i++) {
        const char *other = s->filters[i]->name;
        if (name == NULL ? other == NULL : other != NULL && strcmp(name, other) == 0) {
            return s->filters[i];
        }
    }
    return NULL;
}

int live_store_has_template(const live_store *s) {
    return s->template.head_bytes > 0;
}

const filter_kind *live_store_template_kind(const live_store *s) {
    return s->template.head_bytes > 0 ? filter_kind_by_id(s->template.head[6]) : NULL;
}

/* Inserts the row of a new filter called name with header, bytes long, and makes it, into
** *out. */
static int live_store_insert(live_store *s, const char *name, const uint8_t *header, uint64_t bytes,
                             live_filter **out) {
    sqlite3_stmt *stmt = live_prepared(s, STMT_FILTER_INSERT);
    int rc = live_store_load(s);
    if (rc != SQLITE_OK) {
        return rc;
    }
    if (name != NULL) {
        sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    }
    sqlite3_bind_blob(stmt, 2, header, FILTER_HEADER_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, (sqlite3_int64)bytes);
    sqlite3_bind_int64(stmt, 4, s->chunk_bytes);
    sqlite3_int64 id;
    rc = live_write(s, stmt, &id);
    if (rc != SQLITE_OK) {
        return rc;
    }
    if (id > LIVE_FILTER_ID_MAX) {
        return live_fail(s, SQLITE_ERROR, "%s: no more filter ids: the largest is %lld", s->table,
                         LIVE_FILTER_ID_MAX);
    }
    rc = live_filter_make(s, id, name, header, FILTER_HEADER_BYTES, (sqlite3_int64)bytes,
                          s->chunk_bytes, out);
    if (rc == SQLITE_OK && (rc = live_filters_append(s, *out)) != SQLITE_OK) {
        live_filter_free(*out);
        *out = NULL;
    }
    return rc;
}

int live_store_add_empty(live_store *s, const char *name, live_filter **out) {
    int rc = live_store_insert(s, name, s->template.head, s->template.bytes, out);
    if (rc != SQLITE_OK || s->template.head_bytes == FILTER_HEADER_BYTES) {
        return rc;
    }
    /* The rest of the head (a scalable filter's first stage header), through the cache. */
    filter_io io = live_filter_io(*out);
    (*out)->count_known = 1;
    if (io.write(io.state, FILTER_HEADER_BYTES, s->template.head + FILTER_HEADER_BYTES,
                 (uint32_t)(s->template.head_bytes - FILTER_HEADER_BYTES)) != 0) {
        return s->error != NULL ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

/* Writes the rows of f's chunks that blob (f's bytes) has non-zero bytes in, counting
** nothing. */
static int live_store_write_body(live_store *s, live_filter *f, const uint8_t *blob) {
    uint64_t body = f->view.bytes - FILTER_HEADER_BYTES;
    sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNK_WRITE);
    int rc = SQLITE_OK;
    for (uint64_t c = 0; rc == SQLITE_OK && c * f->chunk_bytes < body; c++) {
        const uint8_t *data = blob + FILTER_HEADER_BYTES + c * f->chunk_bytes;
        uint32_t bytes = live_chunk_length(f, c);
        if (data[0] == 0 && memcmp(data, data + 1, (size_t)bytes - 1) == 0) {
            continue;
        }
        sqlite3_bind_int64(stmt, 1, live_first_chunk(f->id) + (sqlite3_int64)c);
        sqlite3_bind_int64(stmt, 2, 0);
        sqlite3_bind_blob(stmt, 3, data, (int)bytes, SQLITE_STATIC);
        rc = live_write(s, stmt, NULL);
    }
    return rc;
}

int live_store_add_blob(live_store *s, const char *name, const uint8_t *blob, uint64_t bytes,
                        live_filter **out) {
    uint8_t header[FILTER_HEADER_BYTES];
    filter_view view;
    char why[FILTER_WHY_MAX];
    /* The header as this code writes the kind (its reserved bytes 0), as filter_copy does. */
    filter_open(blob, bytes, &view, why);
    view.kind->write_header(header, &view);
    int rc = live_store_insert(s, name, header, bytes, out);
    if (rc == SQLITE_OK) {
        rc = live_store_write_body(s, *out, blob);
    }
    if (rc == SQLITE_OK) {
        (*out)->count_known = 1;
    }
    return rc;
}

int live_store_remove(live_store *s, live_filter *f) {
    sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNKS_DROP);
    sqlite3_bind_int64(stmt, 1, live_first_chunk(f->id));
    sqlite3_bind_int64(stmt, 2, live_last_chunk(f->id));
    int rc = live_write(s, stmt, NULL);
    if (rc == SQLITE_OK) {
        stmt = live_prepared(s, STMT_FILTER_DELETE);
        sqlite3_bind_int64(stmt, 1, f->id);
        rc = live_write(s, stmt, NULL);
    }
    if (rc != SQLITE_OK) {
        return rc;
    }
    live_cache_forget(s, f);
    size_t at = live_store_position(s, f->id);
    memmove(s->filters + at, s->filters + at + 1, (s->filter_count - at - 1) * sizeof *s->filters);
    s->filter_count--;
    s->generation++;
    live_filter_free(f);
    return SQLITE_OK;
}

/* ---- Transactions ---- */

int live_store_check(live_store *s) {
    unsigned int file = 0;
    if (s->versions_known &&
        sqlite3_file_control(s->db, s->schema, SQLITE_FCNTL_DATA_VERSION, &file) == SQLITE_OK &&
        file == s->file_version) {
        return SQLITE_OK; /* nothing committed since */
    }
    sqlite3_int64 pragma;
    int rc = live_store_versions(s, &file, &pragma);
    if (rc != SQLITE_OK) {
        return rc;
    }
    if ((!s->versions_known || pragma != s->pragma_version) && s->dirty_count == 0 &&
        !s->headers_changed) {
        live_filters_clear(s); /* another connection committed (none can while this one writes) */
    }
    s->versions_known = 1;
    s->file_version = file;
    s->pragma_version = pragma;
    return SQLITE_OK;
}

/* Writes f's header row if its header (its count at its base) or its length changed. */
static int live_filter_write_header(live_store *s, live_filter *f) {
    uint8_t header[FILTER_HEADER_BYTES];
    memcpy(header, f->header, sizeof header);
    le_store64(header + f->view.kind->count_offset, f->base);
    if (memcmp(header, f->stored_header, FILTER_HEADER_BYTES) == 0 &&
        f->view.bytes == f->stored_bytes) {
        return SQLITE_OK;
    }
    sqlite3_stmt *stmt = live_prepared(s, STMT_FILTER_UPDATE);
    sqlite3_bind_int64(stmt, 1, f->id);
    sqlite3_bind_blob(stmt, 2, header, FILTER_HEADER_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, (sqlite3_int64)f->view.bytes);
    int rc = live_write(s, stmt, NULL);
    if (rc == SQLITE_OK) {
        memcpy(f->stored_header, header, sizeof header);
        f->stored_bytes = f->view.bytes;
    }
    return rc;
}

int live_store_flush(live_store *s) {
    int rc = SQLITE_OK;
    for (uint32_t i = 0; rc == SQLITE_OK && i < s->dirty_count; i++) {
        live_filter *f = live_store_filter_at(s, live_store_position(s, s->dirty[i].filter));
        uint32_t index = s->dirty[i].index;
        const live_slot *slot =
            f != NULL && f->id == s->dirty[i].filter ? live_slot_of(f, index) : NULL;
        live_chunk *c = slot != NULL ? slot->chunk : NULL;
        if (c != NULL && c->dirty) {
            rc = live_chunk_write(s, c);
        }
    }
    if (rc == SQLITE_OK) {
        s->dirty_count = 0;
    }
    for (size_t i = 0; rc == SQLITE_OK && s->headers_changed && i < s->filter_count; i++) {
        rc = live_filter_write_header(s, s->filters[i]);
    }
    s->headers_changed = rc == SQLITE_OK ? 0 : s->headers_changed;
    return rc;
}

void live_store_discard(live_store *s) {
    live_filters_clear(s);
}

int live_store_has_changes(const live_store *s) {
    return s->dirty_count > 0 || s->headers_changed;
}

int live_store_forsaken(live_store *s, int *forsaken) {
    sqlite3_stmt *stmt = live_prepared(s, STMT_INSTANCE);
    int step = sqlite3_step(stmt); /* SQLITE_ERROR: its tables are gone */
    *forsaken = step == SQLITE_ERROR || step == SQLITE_DONE ||
                (step == SQLITE_ROW && sqlite3_column_int64(stmt, 0) != s->instance);
    if (*forsaken) {
        sqlite3_reset(stmt);
        live_filters_clear(s);
        return SQLITE_OK;
    }
    return live_statement_done(s, stmt, step);
}

void live_store_committed(live_store *s) {
    unsigned int file;
    if (sqlite3_file_control(s->db, s->schema, SQLITE_FCNTL_DATA_VERSION, &file) == SQLITE_OK) {
        s->file_version = file;
    }
}

/* ---- Counts ---- */

/* Adds a chunk's part of a count to *parts, their sum, which stops at the ends of 64 bits. */
static void live_parts_add(sqlite3_int64 *parts, sqlite3_int64 part) {
    if (part > 0 && *parts > INT64_MAX - part) {
        *parts = INT64_MAX;
    } else if (part < 0 && *parts < INT64_MIN - part) {
        *parts = INT64_MIN;
    } else {
        *parts += part;
    }
}

/* f's count: its base plus the sum of its chunks' parts, stopped at 0 and at its kind's most
** (count_most; 2^64 - 1). */
static uint64_t live_count_total(const live_filter *f, sqlite3_int64 parts) {
    uint64_t below = parts < 0 ? (uint64_t)(-(parts + 1)) + 1 : 0; /* -parts, INT64_MIN too */
    uint64_t most =
        f->view.kind->count_most != NULL ? f->view.kind->count_most(&f->view) : UINT64_MAX;
    uint64_t total = parts >= 0        ? filter_add_counts(f->base, (uint64_t)parts)
                     : f->base > below ? f->base - below
                                       : 0;
    return total < most ? total : most;
}

/* f's count from its parts: its base and every chunk row's keys, into *count. */
static int live_filter_count_parts(live_filter *f, uint64_t *count) {
    live_store *s = f->store;
    sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNK_KEYS);
    int step;
    sqlite3_bind_int64(stmt, 1, live_first_chunk(f->id));
    sqlite3_bind_int64(stmt, 2, live_last_chunk(f->id));
    sqlite3_int64 parts = 0;
    while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
        live_parts_add(&parts, sqlite3_column_int64(stmt, 0));
    }
    *count = live_count_total(f, parts);
    return live_statement_done(s, stmt, step);
}

/* ---- Integrity ---- */

/* Checks that at most one filter has no name. SQLITE_CORRUPT_VTAB with the error set when
** two have none. */
static int live_integrity_names(live_store *s) {
    const live_filter *unnamed = NULL;
    for (size_t i = 0; i < s->filter_count; i++) {
        if (s->filters[i]->name != NULL) {
            continue;
        }
        if (unnamed != NULL) {
            return live_fail(s, SQLITE_CORRUPT_VTAB,
                             "%s: corrupt filters %lld and %lld in %s_filters: both have no name",
                             s->table, unnamed->id, s->filters[i]->id, s->table);
        }
        unnamed = s->filters[i];
    }
    return SQLITE_OK;
}

/* Checks a row of %_chunks, id with keys of type keys_type and data of data_type (SQLite's
** datatype codes), bytes long, against the filters: of one of them, within its length and no
** longer than its place in it. SQLITE_CORRUPT_VTAB with the error set when it is not. */
static int live_integrity_chunk(live_store *s, sqlite3_int64 id, int keys_type, int data_type,
                                sqlite3_int64 bytes) {
    const live_filter *f = live_store_filter_at(s, live_store_position(s, id >> LIVE_CHUNK_BITS));
    uint32_t index = (uint32_t)(id & (((sqlite3_int64)1 << LIVE_CHUNK_BITS) - 1));
    if (f == NULL || f->id != id >> LIVE_CHUNK_BITS) {
        return live_fail(s, SQLITE_CORRUPT_VTAB,
                         "%s: corrupt chunk %lld in %s_chunks: of no filter (no filter %lld)",
                         s->table, id, s->table, id >> LIVE_CHUNK_BITS);
    }
    if (index >= live_chunk_count(f)) {
        return live_fail(s, SQLITE_CORRUPT_VTAB,
                         "%s: corrupt chunk %lld in %s_chunks: filter %lld has %llu chunks",
                         s->table, id, s->table, f->id, (unsigned long long)live_chunk_count(f));
    }
    uint32_t room = live_chunk_length(f, index);
    static const char *const type_names[] = {"", "INTEGER", "REAL", "TEXT", "BLOB", "NULL"};
    if (keys_type != SQLITE_INTEGER || data_type != SQLITE_BLOB) {
        int keys_right = keys_type == SQLITE_INTEGER;
        return live_fail(
            s, SQLITE_CORRUPT_VTAB, "%s: corrupt chunk %lld in %s_chunks: %s must be %s, not %s",
            s->table, id, s->table, keys_right ? "data" : "keys",
            keys_right ? "a BLOB" : "an INTEGER", type_names[keys_right ? data_type : keys_type]);
    }
    if ((uint64_t)bytes > room) {
        return live_fail(s, SQLITE_CORRUPT_VTAB,
                         "%s: corrupt chunk %lld in %s_chunks: %lld bytes, more than the %u "
                         "of its place in filter %lld",
                         s->table, id, s->table, bytes, room, f->id);
    }
    return SQLITE_OK;
}

/* Checks every row of %_chunks (live_integrity_chunk), stopping at the first that fails. */
static int live_integrity_chunks(live_store *s) {
    sqlite3_stmt *stmt = NULL;
    char *sql =
        sqlite3_mprintf("SELECT id, keys, data FROM \"%w\".\"%w_chunks\"", s->schema, s->table);
    int rc = sql == NULL ? SQLITE_NOMEM : sqlite3_prepare_v2(s->db, sql, -1, &stmt, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
        rc = live_fail_sqlite(s, rc);
    }
    while (rc == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        rc = live_integrity_chunk(s, sqlite3_column_int64(stmt, 0), sqlite3_column_type(stmt, 1),
                                  sqlite3_column_type(stmt, 2), sqlite3_column_bytes(stmt, 2));
    }
    int done = sqlite3_finalize(stmt);
    if (rc == SQLITE_OK && done != SQLITE_OK) {
        rc = done == SQLITE_NOMEM ? done : live_fail_sqlite(s, done);
    }
    return rc;
}

/* Checks that the parts of the count of f, whose kind's body holds its count (count_io), add up
** to it. SQLITE_CORRUPT_VTAB with the error set when they do not. */
static int live_integrity_parts(live_filter *f) {
    uint64_t parts, count = le_load64(f->header + f->view.kind->count_offset);
    if (f->view.kind->count_io == NULL) {
        return SQLITE_OK;
    }
    int rc = live_filter_count_parts(f, &parts);
    if (rc != SQLITE_OK || parts == count) {
        return rc;
    }
    return live_fail(f->store, SQLITE_CORRUPT_VTAB,
                     "%s: corrupt filter %lld in %s_filters: %llu keys added, but its stages "
                     "hold %llu",
                     f->store->table, f->id, f->store->table, (unsigned long long)parts,
                     (unsigned long long)count);
}

int live_store_integrity(live_store *s, int quick, char **report) {
    *report = NULL;
    int rc = live_store_check(s);
    if (rc == SQLITE_OK && s->dirty_count == 0 && !s->headers_changed) {
        s->loaded = 0; /* the rows read again, as they are now; else they are behind the cache */
    }
    if (rc == SQLITE_OK) {
        rc = live_store_load(s);
    }
    if (rc == SQLITE_OK) {
        rc = live_integrity_names(s);
    }
    if (rc == SQLITE_OK) {
        rc = live_integrity_chunks(s);
    }
    for (size_t i = 0; rc == SQLITE_OK && !quick && i < s->filter_count; i++) {
        s->filters[i]->body_checked = 0; /* checked again, as its rows are now */
        rc = live_filter_open(s->filters[i]);
        if (rc == SQLITE_OK && s->dirty_count == 0 && !s->headers_changed) {
            rc = live_integrity_parts(s->filters[i]);
        }
    }
    if (rc == SQLITE_CORRUPT_VTAB) {
        *report = live_store_take_error(s);
        rc = *report != NULL ? SQLITE_OK : SQLITE_NOMEM;
    }
    return rc;
}

/* ---- Operations ---- */

/* filter_io's read and write of a live filter: the header in memory, the body by chunks. */
/* Appends to the undo log the n bytes at offset, as they are at from: a record of the offset,
** the bytes and their length, last so that the log reads back from its end. */
static int live_undo_log(live_store *s, uint64_t offset, const uint8_t *from, uint32_t n) {
    size_t record = sizeof offset + n + sizeof n;
    if (s->undo_used + record > s->undo_capacity) {
        size_t capacity = (s->undo_used + record) * 2;
        uint8_t *grown = sqlite3_realloc64(s->undo, capacity);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        s->undo = grown;
        s->undo_capacity = capacity;
    }
    uint8_t *at = s->undo + s->undo_used;
    memcpy(at, &offset, sizeof offset);
    memcpy(at + sizeof offset, from, n);
    memcpy(at + sizeof offset + n, &n, sizeof n);
    s->undo_used += record;
    return SQLITE_OK;
}

static int live_io_access(live_filter *f, uint64_t offset, uint8_t *read_into,
                          const uint8_t *write_from, uint32_t n) {
    live_store *s = f->store;
    if (offset + n > f->view.bytes) {
        live_fail(s, SQLITE_CORRUPT_VTAB, "%s: a read past the end of filter %lld", s->table,
                  f->id);
        return 1;
    }
    while (n > 0) {
        if (offset < FILTER_HEADER_BYTES) {
            uint32_t part = FILTER_HEADER_BYTES - (uint32_t)offset < n
                                ? FILTER_HEADER_BYTES - (uint32_t)offset
                                : n;
            if (read_into != NULL) {
                memcpy(read_into, f->header + offset, part);
            } else {
                memcpy(f->header + offset, write_from, part);
            }
            offset += part;
            n -= part;
            read_into = read_into != NULL ? read_into + part : NULL;
            write_from = write_from != NULL ? write_from + part : NULL;
            continue;
        }
        uint64_t body = offset - FILTER_HEADER_BYTES, index = body / f->chunk_bytes;
        uint32_t within = (uint32_t)(body % f->chunk_bytes);
        uint32_t part = f->chunk_bytes - within < n ? f->chunk_bytes - within : n;
        live_chunk *c;
        if (live_chunk_get(s, f, index, &c) != SQLITE_OK) {
            return 1;
        }
        uint32_t length = live_chunk_length(f, index); /* which may have grown with f */
        if (c->used < length) {
            c->used = length;
        }
        if (read_into != NULL) {
            if (c->data != NULL) {
                memcpy(read_into, c->data + within, part);
            } else {
                memset(read_into, 0, part);
            }
            read_into += part;
        } else {
            if (c->data == NULL) {
                if ((c->data = sqlite3_malloc64(f->chunk_bytes)) == NULL) {
                    return 1;
                }
                memset(c->data, 0, f->chunk_bytes);
                c->slot->bytes = c->data;
                s->cached_bytes += f->chunk_bytes;
            }
            if (live_chunk_mark_dirty(s, c) != SQLITE_OK ||
                (s->undo_on && live_undo_log(s, offset, c->data + within, part) != SQLITE_OK)) {
                return 1;
            }
            memcpy(c->data + within, write_from, part);
            c->slot->ready = 1;
            s->op_wrote = 1;
            s->op_index = (uint32_t)index;
            write_from += part;
        }
        offset += part;
        n -= part;
    }
    return 0;
}

/* The slot of the cached chunk that holds all of f's n bytes at offset, their place in it in
** *within; NULL when they are not all in one chunk of the body, or it is not cached. */
static live_slot *live_slot_holding(const live_filter *f, uint64_t offset, uint32_t n,
                                    uint32_t *within) {
    if (offset < FILTER_HEADER_BYTES || offset + n > f->view.bytes) {
        return NULL;
    }
    uint64_t body = offset - FILTER_HEADER_BYTES;
    *within = (uint32_t)(body % f->chunk_bytes);
    return *within + n <= f->chunk_bytes ? live_slot_of(f, body / f->chunk_bytes) : NULL;
}

static int live_io_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    live_filter *f = state;
    uint32_t within;
    live_slot *slot = live_slot_holding(f, offset, n, &within);
    if (slot == NULL) {
        return live_io_access(f, offset, buf, NULL, n);
    }
    slot->recent = 1; /* a read of a line, from the cache */
    if (slot->bytes != NULL) {
        memcpy(buf, slot->bytes + within, n);
    } else {
        memset(buf, 0, n);
    }
    return 0;
}

static int live_io_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    live_filter *f = state;
    uint32_t within;
    live_slot *slot = live_slot_holding(f, offset, n, &within);
    if (slot == NULL || !slot->ready || f->store->undo_on) {
        return live_io_access(f, offset, NULL, buf, n);
    }
    memcpy(slot->bytes + within, buf, n); /* a chunk already changed */
    slot->recent = 1;
    f->store->op_wrote = 1;
    f->store->op_index = slot->chunk->index;
    return 0;
}

filter_io live_filter_io(live_filter *f) {
    filter_io io = {f, live_io_read, live_io_write};
    return io;
}

/* The reads of a probe that only asks for its lines: the header as it is, the body's bytes as
** ones (so that the probe goes on to every line), and a cached chunk's line prefetched. */
static int live_prefetch_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    live_filter *f = state;
    if (offset < FILTER_HEADER_BYTES) {
        return live_io_access(f, offset, buf, NULL, n);
    }
    uint64_t body = offset - FILTER_HEADER_BYTES, index = body / f->chunk_bytes;
    uint32_t within = (uint32_t)(body % f->chunk_bytes);
    const live_slot *slot = live_slot_of(f, index);
    if (offset + n <= f->view.bytes && slot != NULL && slot->bytes != NULL && n > 0) {
        /* Its first and last byte: a chunk's bytes are not aligned to the CPU's lines, so a
        ** line of the filter lies across two of them. */
        __builtin_prefetch(slot->bytes + within);
        if (within + n <= f->chunk_bytes) {
            __builtin_prefetch(slot->bytes + within + n - 1);
        }
    }
    memset(buf, 0xff, n);
    return 0;
}

/* A write of a probe that only asks for its lines: none is expected. */
static int live_prefetch_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    (void)state;
    (void)offset;
    (void)buf;
    (void)n;
    return 1;
}

void live_filter_prefetch(live_filter *f, const key_hash *keys, int count) {
    filter_io io = {f, live_prefetch_read, live_prefetch_write};
    int answer;
    for (int i = 0; i < count; i++) {
        f->view.kind->might_contain_io(&f->view, &io, keys[i], &answer);
    }
}

int live_filter_count(live_filter *f) {
    char why[FILTER_WHY_MAX];
    uint64_t count = 0;
    int rc = SQLITE_OK;
    if (f->count_known) {
        return SQLITE_OK;
    }
    if (f->view.kind->count_io != NULL) { /* the body's own count: a few reads */
        filter_io io = live_filter_io(f);
        rc = live_filter_checked(f, f->view.kind->count_io(&f->view, &io, &count, why), why);
    } else {
        rc = live_filter_count_parts(f, &count);
    }
    if (rc == SQLITE_OK) {
        le_store64(f->header + f->view.kind->count_offset, count);
        f->count_known = 1;
    }
    return rc;
}

void live_op_keep_undo(live_filter *f) {
    live_store *s = f->store;
    memcpy(s->undo_header, f->header, FILTER_HEADER_BYTES);
    s->undo_used = 0;
    s->undo_on = 1;
}

int live_op_undo(live_filter *f) {
    live_store *s = f->store;
    int failed = 0;
    s->undo_on = 0;
    while (s->undo_used > 0 && !failed) {
        uint32_t n;
        uint64_t offset;
        memcpy(&n, s->undo + s->undo_used - sizeof n, sizeof n);
        s->undo_used -= sizeof offset + n + sizeof n;
        memcpy(&offset, s->undo + s->undo_used, sizeof offset);
        failed = live_io_access(f, offset, NULL, s->undo + s->undo_used + sizeof offset, n);
    }
    memcpy(f->header, s->undo_header, FILTER_HEADER_BYTES);
    s->undo_used = 0;
    return failed;
}

int live_op_begin(live_filter *f) {
    int rc = live_filter_open(f);
    if (f->view.kind->count_by_steps) {
        le_store64(f->header + f->view.kind->count_offset, LIVE_COUNT_FROM); /* not read */
        f->count_known = 0;
    } else if (rc == SQLITE_OK) {
        rc = live_filter_count(f);
    }
    f->store->op_count = live_header_count(f, f->header);
    f->store->op_wrote = 0;
    return rc;
}

void live_op_end(live_filter *f) {
    live_store *s = f->store;
    s->undo_on = 0;
    s->undo_used = 0;
    sqlite3_int64 delta = (sqlite3_int64)(live_header_count(f, f->header) - s->op_count);
    live_chunk *c = NULL;
    s->headers_changed |= f->view.bytes != f->stored_bytes ||
                          memcmp(f->header, f->stored_header, f->view.kind->count_offset) != 0 ||
                          memcmp(f->header + f->view.kind->count_offset + 8,
                                 f->stored_header + f->view.kind->count_offset + 8,
                                 FILTER_HEADER_BYTES - f->view.kind->count_offset - 8) != 0;
    if (delta == 0) {
        return;
    }
    live_slot *slot = s->op_wrote ? live_slot_of(f, s->op_index) : NULL;
    if (slot != NULL && slot->ready) {
        live_parts_add(&slot->keys, delta); /* a chunk already changed */
        return;
    }
    if (s->op_wrote && live_chunk_get(s, f, s->op_index, &c) == SQLITE_OK &&
        live_chunk_mark_dirty(s, c) == SQLITE_OK) {
        live_parts_add(&c->slot->keys, delta);
        return;
    }
    f->base += (uint64_t)delta; /* no chunk written (or it cannot be had): the header's part */
    s->headers_changed = 1;
}

void live_filter_lengthen(live_filter *f, uint64_t bytes) {
    live_store *s = f->store;
    f->view.bytes = bytes;
    for (uint32_t i = 0; i < s->cached_count; i++) {
        if (s->cached[i]->filter == f) {
            s->cached[i]->slot->ready = 0; /* a chunk's length in the filter may have grown */
        }
    }
}

int live_filter_snapshot(live_filter *f, uint8_t **out) {
    live_store *s = f->store;
    sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNK_SCAN);
    uint64_t bytes = f->view.bytes;
    sqlite3_int64 parts = 0;
    uint8_t *blob = sqlite3_malloc64(bytes);
    int rc, step;
    *out = NULL;
    if (blob == NULL) {
        return SQLITE_NOMEM;
    }
    uint64_t written = FILTER_HEADER_BYTES; /* the bytes before this are the rows' or zeros */
    sqlite3_bind_int64(stmt, 1, live_first_chunk(f->id));
    sqlite3_bind_int64(stmt, 2, live_last_chunk(f->id));
    /* Every chunk in the cache: the rows have nothing newer. */
    step = f->chunks_cached == live_chunk_count(f) ? SQLITE_DONE : SQLITE_ROW;
    while (step == SQLITE_ROW && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
        sqlite3_int64 id = sqlite3_column_int64(stmt, 0);
        uint64_t at =
            FILTER_HEADER_BYTES + (uint64_t)(id - live_first_chunk(f->id)) * f->chunk_bytes;
        int length = sqlite3_column_bytes(stmt, 2);
        uint64_t index = (uint64_t)(id - live_first_chunk(f->id));
        if (live_slot_of(f, index) != NULL) {
            continue; /* the cache's is newer */
        }
        if (length > (int)f->chunk_bytes || at + (uint64_t)length > bytes) {
            sqlite3_reset(stmt);
            sqlite3_free(blob);
            return live_fail(s, SQLITE_CORRUPT_VTAB, "%s: corrupt chunk %lld of filter %lld",
                             s->table, id, f->id);
        }
        memset(blob + written, 0, (size_t)(at - written)); /* chunks without rows: zeros */
        if (length > 0) {
            memcpy(blob + at, sqlite3_column_blob(stmt, 2), (size_t)length);
        }
        written = at + (uint64_t)length;
        live_parts_add(&parts, sqlite3_column_int64(stmt, 1));
    }
    rc = live_statement_done(s, stmt, step);
    memset(blob + written, 0, (size_t)(bytes - written));
    for (uint32_t i = 0; rc == SQLITE_OK && i < s->cached_count; i++) {
        const live_chunk *c = s->cached[i];
        uint64_t at = FILTER_HEADER_BYTES + (uint64_t)c->index * f->chunk_bytes;
        if (c->filter != f || at >= bytes) {
            continue;
        }
        uint64_t length = bytes - at < c->used ? bytes - at : c->used;
        if (c->data != NULL) {
            memcpy(blob + at, c->data, (size_t)length);
        }
        live_parts_add(&parts, c->slot->keys);
    }
    if (rc != SQLITE_OK) {
        sqlite3_free(blob);
        return rc;
    }
    memcpy(blob, f->header, FILTER_HEADER_BYTES);
    le_store64(blob + f->view.kind->count_offset, live_count_total(f, parts));
    char why[FILTER_WHY_MAX];
    filter_view view; /* the count of the parts, as the body has it (a scalable filter's stages) */
    rc = live_filter_checked(f, filter_open(blob, bytes, &view, why), why);
    if (rc != SQLITE_OK) {
        sqlite3_free(blob);
        return rc;
    }
    *out = blob;
    return SQLITE_OK;
}
