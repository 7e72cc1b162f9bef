/*
** live_rows.c: the statements on a live table's shadow tables, their errors, and a filter's
** chunks and count in parts. See live_rows.h.
*/
#include "live_rows.h"

#include "little_endian.h"

#include <stdarg.h>
#include <string.h>

/* Their text, naming the schema then the table ("%w"."%w_..."). */
static const char *const live_statement_sql[STMT_COUNT] = {
    [STMT_CHUNK_READ] = "SELECT keys, data FROM \"%w\".\"%w_chunks\" WHERE id = ?1",
    [STMT_CHUNK_WRITE] =
        "INSERT OR REPLACE INTO \"%w\".\"%w_chunks\"(id, keys, data) VALUES (?1, ?2, ?3)",
    [STMT_CHUNK_UPDATE] = "UPDATE \"%w\".\"%w_chunks\" SET keys = ?2, data = ?3 WHERE id = ?1",
    [STMT_CHUNK_DELETE] = "DELETE FROM \"%w\".\"%w_chunks\" WHERE id = ?1",
    [STMT_CHUNK_ALLOCATE] =
        "INSERT OR IGNORE INTO \"%w\".\"%w_chunks\"(id, keys, data) VALUES (?1, 0, zeroblob(?2))",
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
    [STMT_INDEX_DROP] = "DELETE FROM \"%w\".\"%w_chunks\" WHERE id < 0",
    [STMT_VERSION_WRITE] = "UPDATE \"%w\".\"%w_config\" SET value = ?1 WHERE key = 'version'",
};

/* Sets the store's error to the message of format and returns rc. */
int live_fail(live_store *s, int rc, const char *format, ...) {
    va_list args;
    va_start(args, format);
    char *message = sqlite3_vmprintf(format, args);
    va_end(args);
    sqlite3_free(s->error);
    s->error = message;
    return message == NULL ? SQLITE_NOMEM : rc;
}

/* Sets the store's error to the connection's for rc, which a statement of the store returned. */
int live_fail_sqlite(live_store *s, int rc) {
    return live_fail(s, rc, "%s: %s", s->table, sqlite3_errmsg(s->db));
}

char *live_store_take_error(live_store *s) {
    char *error = s->error;
    s->error = NULL;
    return error;
}

/* Prepares every statement of the store, which name its tables (when it opens, and after a
** rename): what an operation needs is there, whatever memory is left then. */
int live_statements_prepare(live_store *s) {
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
sqlite3_stmt *live_prepared(live_store *s, live_statement which) {
    return s->statements[which];
}

/* Ends a run of stmt that gave rc (SQLITE_DONE or SQLITE_ROW are success): SQLITE_OK or the
** error, set. */
int live_statement_done(live_store *s, sqlite3_stmt *stmt, int rc) {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : live_fail_sqlite(s, rc);
}

/* Runs stmt, a write, and ends it: SQLITE_OK or the error, set. The connection's last insert
** rowid stays the user's (the rowid stmt inserted into *rowid, if not NULL). */
int live_write(live_store *s, sqlite3_stmt *stmt, sqlite3_int64 *rowid) {
    sqlite3_int64 users = sqlite3_last_insert_rowid(s->db);
    int step = sqlite3_step(stmt);
    if (rowid != NULL) {
        *rowid = sqlite3_last_insert_rowid(s->db);
    }
    sqlite3_set_last_insert_rowid(s->db, users);
    return live_statement_done(s, stmt, step);
}

/* The number of chunks of f at its length (below 2^25: live_filter_make). */
uint64_t live_chunk_count(const live_filter *f) {
    return (f->view.bytes - FILTER_HEADER_BYTES + f->chunk_bytes - 1) / f->chunk_bytes;
}

/* The bytes of f in its chunk index: the chunk size, or less for its last chunk. */
uint32_t live_chunk_length(const live_filter *f, uint64_t index) {
    uint64_t in_filter = f->view.bytes - FILTER_HEADER_BYTES - index * f->chunk_bytes;
    return in_filter < f->chunk_bytes ? (uint32_t)in_filter : f->chunk_bytes;
}

uint32_t live_chunk_cached_bytes(const live_filter *f, uint64_t index) {
    return f->view.kind->grow_size != NULL ? f->chunk_bytes : live_chunk_length(f, index);
}

/* The result of a check of f that answered status (why its reason): SQLITE_OK, the store's
** error of a read, or SQLITE_CORRUPT_VTAB naming f. */
int live_filter_checked(live_filter *f, filter_status status, const char *why) {
    live_store *s = f->store;
    if (status == FILTER_IO_FAILED) {
        return s->error != NULL ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    return status == FILTER_OK
               ? SQLITE_OK
               : live_fail(s, SQLITE_CORRUPT_VTAB, "%s: corrupt filter %lld in %s_filters: %s",
                           s->table, f->id, s->table, why);
}

/* Adds a chunk's part of a count to *parts, their sum, which stops at the ends of 64 bits. */
void live_parts_add(sqlite3_int64 *parts, sqlite3_int64 part) {
    if (part > 0 && *parts > INT64_MAX - part) {
        *parts = INT64_MAX;
    } else if (part < 0 && *parts < INT64_MIN - part) {
        *parts = INT64_MIN;
    } else {
        *parts += part;
    }
}

/* f's count: its base plus the sum of its chunks' parts, stopped at 0 and at its kind's most
** (count_limit; 2^64 - 1). */
uint64_t live_count_total(const live_filter *f, sqlite3_int64 parts) {
    uint64_t below = parts < 0 ? (uint64_t)(-(parts + 1)) + 1 : 0; /* -parts, INT64_MIN too */
    uint64_t most =
        f->view.kind->count_limit != NULL ? f->view.kind->count_limit(&f->view) : UINT64_MAX;
    uint64_t total = parts >= 0        ? filter_add_counts(f->base, (uint64_t)parts)
                     : f->base > below ? f->base - below
                                       : 0;
    return total < most ? total : most;
}

/* f's count from its parts: its base and every chunk row's keys, into *count. */
int live_filter_count_parts(live_filter *f, uint64_t *count) {
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

live_filter *live_store_filter_at(const live_store *s, size_t i) {
    return i < s->filter_count ? s->filters[i] : NULL;
}

size_t live_store_position(const live_store *s, sqlite3_int64 id) {
    size_t low = 0, high = s->filter_count;
    if (high > 0 && id >= s->filters[0]->id) {
        /* Ids increase by 1 but where a filter was dropped: id's place is at most its distance
        ** from the first, and most often that (a search of 100,000 filters reads 17 of them, each
        ** a miss of the CPU's caches). */
        uint64_t most = (uint64_t)(id - s->filters[0]->id);
        if (most < high && s->filters[most]->id == id) {
            return (size_t)most;
        }
        high = most < high ? (size_t)most + 1 : high;
    }
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

void live_index_close_reader(live_store *s) {
    sqlite3_blob_close(s->index.reader);
    s->index.reader = NULL;
}

void live_index_forget_all(live_store *s) {
    live_index *x = &s->index;
    live_index_close_reader(s);
    for (size_t i = 0; i < x->class_count; i++) {
        sqlite3_free(x->classes[i].filters);
        sqlite3_free(x->classes[i].stale);
    }
    for (size_t i = 0; i < s->filter_count; i++) {
        s->filters[i]->index_class = NULL;
    }
    sqlite3_free(x->classes);
    sqlite3_free(x->unindexed);
    sqlite3_free(x->scratch);
    memset(x, 0, sizeof *x);
}
