/*
** live_store.c: a live table's filters in its shadow tables. See live_store.h.
*/
#include "live_store.h"

#include "filter_kinds.h"
#include "live_chunks.h"
#include "little_endian.h"
#include "sql_memory.h"

#include <string.h>

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
    if ((version != LIVE_STORAGE_VERSION && version != LIVE_STORAGE_VERSION_INDEXED) ||
        s->chunk_bytes == 0 || short_template ||
        (s->template.head_bytes > 0 &&
         (s->template.head_bytes < FILTER_HEADER_BYTES ||
          s->template.bytes < s->template.head_bytes || s->template.bytes > LIVE_BYTES_MAX))) {
        return live_fail(s, SQLITE_CORRUPT_VTAB,
                         "%s: its table %s_config is not a live table's of version %d or %d",
                         s->table, s->table, LIVE_STORAGE_VERSION, LIVE_STORAGE_VERSION_INDEXED);
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

/* Frees f. */
static void live_filter_free(live_filter *f) {
    if (f != NULL) {
        sqlite3_free(f->name);
        sqlite3_free(f);
    }
}

/* ---- The filters by name ---- */

/* The place where the search for name (NULL: the unnamed filter) starts: FNV-1a of its bytes. */
static size_t live_name_home(const live_store *s, const char *name) {
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)name; p != NULL && *p != '\0'; p++) {
        h = (h ^ *p) * 0x100000001b3u;
    }
    return (size_t)(h ^ (h >> 32)) & s->named_mask;
}

/* Whether f is called name. */
static int live_name_is(const live_filter *f, const char *name) {
    return name == NULL ? f->name == NULL : f->name != NULL && strcmp(f->name, name) == 0;
}

/* Puts f in the table by name, which has room. */
static void live_name_place(live_store *s, live_filter *f) {
    size_t at = live_name_home(s, f->name);
    while (s->named[at] != NULL) {
        at = (at + 1) & s->named_mask;
    }
    s->named[at] = f;
    s->named_count++;
}

/* Makes the table by name room for one filter more, at most half full (placing them all again
** when it grows). SQLITE_OK or SQLITE_NOMEM. */
static int live_names_reserve(live_store *s) {
    size_t places = s->named == NULL ? 0 : s->named_mask + 1;
    if ((s->named_count + 1) * 2 <= places) {
        return SQLITE_OK;
    }
    size_t grown_places = places == 0 ? 64 : places * 2;
    live_filter **grown = sqlite3_malloc64(grown_places * sizeof *grown);
    if (grown == NULL) {
        return SQLITE_NOMEM;
    }
    memset(grown, 0, grown_places * sizeof *grown);
    live_filter **old = s->named;
    s->named = grown;
    s->named_mask = grown_places - 1;
    s->named_count = 0;
    for (size_t i = 0; i < places; i++) {
        if (old[i] != NULL) {
            live_name_place(s, old[i]);
        }
    }
    sqlite3_free(old);
    return SQLITE_OK;
}

/* Takes f out of the table by name, moving back the entries after it that searches would no
** longer find. */
static void live_name_remove(live_store *s, const live_filter *f) {
    size_t hole = live_name_home(s, f->name);
    while (s->named[hole] != f) {
        hole = (hole + 1) & s->named_mask;
    }
    for (size_t at = (hole + 1) & s->named_mask; s->named[at] != NULL;
         at = (at + 1) & s->named_mask) {
        size_t home = live_name_home(s, s->named[at]->name);
        if (((at - home) & s->named_mask) >= ((at - hole) & s->named_mask)) {
            s->named[hole] = s->named[at];
            hole = at;
        }
    }
    s->named[hole] = NULL;
    s->named_count--;
}

live_filter *live_store_find(const live_store *s, const char *name) {
    live_filter *found = NULL; /* of two of one name (a file that broke its index), the first */
    for (size_t at = s->named == NULL ? 0 : live_name_home(s, name);
         s->named != NULL && s->named[at] != NULL; at = (at + 1) & s->named_mask) {
        if (live_name_is(s->named[at], name) && (found == NULL || s->named[at]->id < found->id)) {
            found = s->named[at];
        }
    }
    return found;
}

/* ---- The list of filters ---- */

/* Forgets the list of filters, and with them the cache. */
static void live_filters_clear(live_store *s) {
    live_cache_clear(s);
    for (size_t i = 0; i < s->filter_count; i++) {
        live_filter_free(s->filters[i]);
    }
    sqlite3_free(s->filters);
    s->filters = NULL;
    s->filter_count = s->filter_capacity = 0;
    sqlite3_free(s->named);
    s->named = NULL;
    s->named_mask = s->named_count = 0;
    live_index_forget_all(s);
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
    live_chunks_free(s);
    sqlite3_free(s->template.head);
    sqlite3_free(s->schema);
    sqlite3_free(s->table);
    sqlite3_free(s->error);
    sqlite3_free(s);
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

/* Appends f to the list (its id above every other's) and to the table by name. */
static int live_filters_append(live_store *s, live_filter *f) {
    if (s->filter_count == s->filter_capacity) {
        live_filter **grown =
            sql_grown(s->filters, &s->filter_capacity, s->filter_count + 1, sizeof *grown, 16);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        s->filters = grown;
    }
    if (live_names_reserve(s) != SQLITE_OK) {
        return SQLITE_NOMEM;
    }
    live_name_place(s, f);
    s->filters[s->filter_count++] = f;
    s->generation++;
    return SQLITE_OK;
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

const char *live_store_template_refusal(const live_store *s, const key_value *key, char *type) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (s->template.head_bytes == 0 ||
        filter_open_header(s->template.head, s->template.bytes, &view, why) != FILTER_OK ||
        view.kind->probe_advice == NULL ||
        view.kind->probe_advice(&view, filter_hash_key(&view, key)) == NULL) {
        return NULL;
    }
    return view.kind->value_type(&view, type);
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

int live_store_allocate(live_store *s, live_filter *f) {
    int rc = live_store_flush(s);
    if (rc == SQLITE_OK) {
        live_cache_forget(s, f); /* its rows' places change: read again */
    }
    sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNK_ALLOCATE);
    for (uint64_t c = 0; rc == SQLITE_OK && c < live_chunk_count(f); c++) {
        sqlite3_bind_int64(stmt, 1, live_first_chunk(f->id) + (sqlite3_int64)c);
        sqlite3_bind_int64(stmt, 2, live_chunk_length(f, c));
        rc = live_write(s, stmt, NULL);
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
    live_name_remove(s, f);
    size_t at = live_store_position(s, f->id);
    memmove(s->filters + at, s->filters + at + 1, (s->filter_count - at - 1) * sizeof *s->filters);
    s->filter_count--;
    s->generation++;
    live_filter_free(f);
    return SQLITE_OK;
}

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
    int rc = live_chunks_flush(s);
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

int live_store_tables_not_ours(live_store *s, int *not_ours) {
    sqlite3_stmt *stmt = live_prepared(s, STMT_INSTANCE);
    int step = sqlite3_step(stmt); /* SQLITE_ERROR: its tables are gone */
    *not_ours = step == SQLITE_ERROR || step == SQLITE_DONE ||
                (step == SQLITE_ROW && sqlite3_column_int64(stmt, 0) != s->instance);
    if (*not_ours) {
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
    if (id < 0) {
        return SQLITE_OK; /* a row of the index, which checks its own (live_index_integrity) */
    }
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
