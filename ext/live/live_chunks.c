/*
** live_chunks.c: a live filter's bytes, through the cache of its chunk rows. See live_chunks.h.
*/
#include "live_chunks.h"

#include "filter_kinds.h"
#include "little_endian.h"
#include "sql_memory.h"

#include <string.h>

/* The count an operation of a kind that counts by steps (count_by_steps) starts from: its
** step is then the difference, and the filter's count is not needed. */
#define LIVE_COUNT_FROM ((uint64_t)1)

/* The cache of chunks: at most this many bytes of chunks and of their records. */
#define LIVE_CACHE_BYTES ((uint64_t)32 << 20)

/* ---- The cache of chunks ---- */

/* The row id of chunk c. */
static sqlite3_int64 live_chunk_id(const live_chunk *c) {
    return live_first_chunk(c->filter->id) + c->index;
}

/* The place in the index where the search for row id starts. */
static uint32_t live_entry_home(const live_store *s, sqlite3_int64 id) {
    return (uint32_t)(((uint64_t)id * 0x9e3779b97f4a7c15u) >> 32) & s->entry_mask;
}

/* The slot of f's chunk index, NULL when the cache does not hold that chunk. */
static inline live_slot *live_slot_of(live_filter *f, uint64_t index) {
    live_store *s = f->store;
    if (f->last_slot != NULL && f->last_index == index && f->last_moved == s->entries_moved) {
        return f->last_slot;
    }
    if (s->entries == NULL || index >= ((uint64_t)1 << LIVE_CHUNK_BITS)) {
        return NULL;
    }
    sqlite3_int64 id = live_first_chunk(f->id) + (sqlite3_int64)index;
    for (uint32_t at = live_entry_home(s, id);; at = (at + 1) & s->entry_mask) {
        if (s->entries[at].id == id) {
            f->last_slot = &s->entries[at].slot;
            f->last_index = index;
            f->last_moved = s->entries_moved;
            return f->last_slot;
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
    s->entries_moved++;
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
    s->entries_moved++;
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
    s->cached_bytes -= LIVE_CHUNK_RECORD_BYTES + (c->data != NULL ? c->room : 0);
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
        live_dirty *grown =
            sql_grown(s->dirty, &s->dirty_capacity, s->dirty_count + 1, sizeof *grown, 64);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        s->dirty = grown;
    }
    s->dirty[s->dirty_count].filter = c->filter->id;
    s->dirty[s->dirty_count++].index = c->index;
    c->dirty = 1;
    return SQLITE_OK;
}

/* Makes room in the store's list and index for one chunk more. */
static int live_chunk_room(live_store *s) {
    if (s->cached_count == s->cached_capacity) {
        live_chunk **grown =
            sql_grown(s->cached, &s->cached_capacity, s->cached_count + 1, sizeof *grown, 64);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        s->cached = grown;
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
        if ((c->data = sqlite3_malloc64(c->room)) == NULL) {
            sqlite3_reset(stmt);
            return SQLITE_NOMEM;
        }
        /* (a row past its place in the filter, which only a changed file holds: the rest
        ** dropped, as integrity_check reports it) */
        uint32_t kept = (uint32_t)bytes < c->room ? (uint32_t)bytes : c->room;
        c->used = kept;
        if (kept > 0) {
            memcpy(c->data, sqlite3_column_blob(stmt, 1), kept);
        }
        memset(c->data + kept, 0, c->room - kept);
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
    uint32_t room = live_chunk_cached_bytes(f, index);
    int rc = live_cache_make_room(s, LIVE_CHUNK_RECORD_BYTES + room);
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
    c->room = room;
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
    s->cached_bytes += LIVE_CHUNK_RECORD_BYTES + (c->data != NULL ? c->room : 0);
    f->chunks_cached++;
    *out = c;
    return SQLITE_OK;
}

/* Empties the cache of chunks, dropping what it did not write. */
void live_cache_clear(live_store *s) {
    while (s->cached_count > 0) {
        live_chunk_free(s, s->cached[s->cached_count - 1]); /* (the index keeps its places) */
    }
    s->dirty_count = 0;
}

/* Drops f's chunks from the cache. */
void live_cache_forget(live_store *s, const live_filter *f) {
    for (uint32_t i = s->cached_count; i-- > 0;) {
        if (s->cached[i]->filter == f) {
            live_chunk_free(s, s->cached[i]); /* the last, seen already, takes its place */
        }
    }
}

int live_chunks_flush(live_store *s) {
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
    return rc;
}

void live_chunks_free(live_store *s) {
    sqlite3_free(s->cached);
    sqlite3_free(s->entries);
    sqlite3_free(s->dirty);
    sqlite3_free(s->undo);
}

/* ---- Operations ---- */

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

/* Appends to the undo log the n bytes at offset, as they are at from: a record of the offset,
** the bytes and their length, last so that the log reads back from its end. */
static int live_undo_log(live_store *s, uint64_t offset, const uint8_t *from, uint32_t n) {
    size_t record = sizeof offset + n + sizeof n;
    if (s->undo_used + record > s->undo_capacity) {
        uint8_t *grown = sql_grown(s->undo, &s->undo_capacity, s->undo_used + record, 1, 256);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        s->undo = grown;
    }
    uint8_t *at = s->undo + s->undo_used;
    memcpy(at, &offset, sizeof offset);
    memcpy(at + sizeof offset, from, n);
    memcpy(at + sizeof offset + n, &n, sizeof n);
    s->undo_used += record;
    return SQLITE_OK;
}

/* filter_io's read and write of a live filter, into read_into or from write_from: the header in
** memory, the body by chunks. 0, or 1 when SQLite failed (the store holds the error). */
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
        if (live_chunk_get(s, f, index, &c) != SQLITE_OK || within + part > c->room) {
            return 1; /* (past the room: bytes past the filter's end, which no kind asks for) */
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
                if ((c->data = sqlite3_malloc64(c->room)) == NULL) {
                    return 1;
                }
                memset(c->data, 0, c->room);
                c->slot->bytes = c->data;
                s->cached_bytes += c->room;
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
static live_slot *live_slot_holding(live_filter *f, uint64_t offset, uint32_t n, uint32_t *within) {
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
