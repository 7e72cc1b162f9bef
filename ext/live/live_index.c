/*
** live_index.c: a live table's index over its filters. See live_index.h.
*/
#include "live_index.h"

#include "filter_kinds.h"
#include "live_chunks.h"
#include "live_store.h"
#include "little_endian.h"
#include "sql_memory.h"

#include <stdlib.h>
#include <string.h>

/* The group of a class's head row, and the positions of a group's map and stale rows. */
#define LIVE_INDEX_HEAD ((uint64_t)0xFFFF)
#define LIVE_INDEX_MAP ((uint64_t)0xFFFFFFFF)
#define LIVE_INDEX_STALE ((uint64_t)0xFFFFFFFE)

/* The most positions of a class's filters, and the most classes: filters of other geometries
** are probed themselves. */
#define LIVE_INDEX_BITS_MAX ((uint64_t)0xFFFFFFF0)
enum { LIVE_INDEX_CLASSES_MAX = 64 };

/* A head row: a filter's header, its length (8 bytes), the columns and the columns a row holds
** (4 bytes each). */
enum { LIVE_INDEX_HEAD_BYTES = FILTER_HEADER_BYTES + 16 };

/* The rows a build or a check holds at once. */
#define LIVE_INDEX_PASS_BYTES ((uint64_t)16 << 20)

/* The columns a row of the index holds: a row of 64 KB, whose overflow pages a read handle
** follows in one move to the row, where rows of a page would each cost a move. */
#define LIVE_INDEX_GROUP_COLUMNS ((uint32_t)8 * 65536)

/* The bytes of a filter's body read at once while rows are made. */
enum { LIVE_INDEX_PIECE_BYTES = 4096 };

/* The row id of class, group and position. */
static sqlite3_int64 live_index_row(sqlite3_int64 class_id, uint64_t group, uint64_t position) {
    return -1 - (sqlite3_int64)(((uint64_t)class_id << 48) | (group << 32) | position);
}

/* The columns of group g of class c. */
static uint32_t live_index_group_columns(const live_index_class *c, uint64_t g) {
    uint64_t first = g * c->group_columns;
    return (uint32_t)(c->columns - first < c->group_columns ? c->columns - first
                                                            : c->group_columns);
}

/* The bytes of a row of group g of class c: a bit a column. */
static size_t live_index_row_bytes(const live_index_class *c, uint64_t g) {
    return (live_index_group_columns(c, g) + 7) / 8;
}

/* The groups of class c. */
static uint64_t live_index_groups(const live_index_class *c) {
    return ((uint64_t)c->columns + c->group_columns - 1) / c->group_columns;
}

/* The error of a row of the index that does not fit. */
static int live_index_corrupt(live_store *s, sqlite3_int64 id, const char *what) {
    return live_fail(s, SQLITE_CORRUPT_VTAB, "%s: corrupt index row %lld in %s_chunks: %s",
                     s->table, id, s->table, what);
}

/* ---- Rows ---- */

/* Reads row id into buf, which it fills (want bytes): 1 into *found when it exists, else 0 and
** buf all 0. SQLITE_OK, or SQLITE_CORRUPT_VTAB for a row of another length. */
static int live_index_read(live_store *s, sqlite3_int64 id, uint8_t *buf, size_t want, int *found) {
    sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNK_READ);
    sqlite3_bind_int64(stmt, 1, id);
    int step = sqlite3_step(stmt);
    *found = step == SQLITE_ROW;
    if (step == SQLITE_ROW) {
        if ((size_t)sqlite3_column_bytes(stmt, 1) != want) {
            sqlite3_reset(stmt);
            return live_index_corrupt(s, id, "of another length than its class says");
        }
        if (want > 0) {
            memcpy(buf, sqlite3_column_blob(stmt, 1), want);
        }
    } else if (want > 0) {
        memset(buf, 0, want);
    }
    return live_statement_done(s, stmt, step);
}

/* ANDs row into acc (bytes of each), into *any whether a bit of acc is left set. */
static void live_index_and_row(uint8_t *acc, const uint8_t *row, size_t bytes, int *any) {
    uint64_t left = 0;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) { /* (memcpy: a BLOB has no alignment) */
        uint64_t a, r;
        memcpy(&a, acc + i, 8);
        memcpy(&r, row + i, 8);
        a &= r;
        left |= a;
        memcpy(acc + i, &a, 8);
    }
    for (; i < bytes; i++) {
        acc[i] &= row[i];
        left |= acc[i];
    }
    *any = left != 0;
}

/* Reads row id, bytes long, into buf through the index's read handle, moved to it or opened:
** 1 into *read, or 0 when the handle cannot (no such row, not a BLOB of that length: the
** statement says what), the handle closed. */
static void live_index_read_fast(live_store *s, sqlite3_int64 id, uint8_t *buf, size_t bytes,
                                 int *read) {
    live_index *x = &s->index;
    int rc = SQLITE_ERROR;
    if (x->reader != NULL && (rc = sqlite3_blob_reopen(x->reader, id)) != SQLITE_OK) {
        live_index_close_reader(s);
    }
    if (x->reader == NULL) {
        char *table = sqlite3_mprintf("%s_chunks", s->table);
        rc = table == NULL ? SQLITE_NOMEM
                           : sqlite3_blob_open(s->db, s->schema, table, "data", id, 0, &x->reader);
        sqlite3_free(table);
        if (rc != SQLITE_OK) {
            live_index_close_reader(s);
        }
    }
    *read = rc == SQLITE_OK && (size_t)sqlite3_blob_bytes(x->reader) == bytes &&
            sqlite3_blob_read(x->reader, buf, (int)bytes, 0) == SQLITE_OK;
    if (!*read) {
        live_index_close_reader(s);
    }
}

/* ANDs row id (bytes long; absent: all 0) into acc, or copies it there when first, 1 into *any
** when a bit of acc is left set; row is room for bytes. SQLITE_OK, or the error of the read. */
static int live_index_and(live_store *s, sqlite3_int64 id, uint8_t *acc, uint8_t *row, size_t bytes,
                          int first, int *any) {
    int read;
    live_index_read_fast(s, id, first ? acc : row, bytes, &read);
    if (read) {
        live_index_and_row(acc, first ? acc : row, bytes, any); /* (first: *any alone) */
        return SQLITE_OK;
    }
    if (first) {
        memset(acc, 0xFF, bytes); /* (what a failed read left in it) */
    }
    sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNK_READ);
    sqlite3_bind_int64(stmt, 1, id);
    int step = sqlite3_step(stmt);
    if (step == SQLITE_ROW) {
        if ((size_t)sqlite3_column_bytes(stmt, 1) != bytes) {
            sqlite3_reset(stmt);
            return live_index_corrupt(s, id, "of another length than its class says");
        }
        live_index_and_row(acc, sqlite3_column_blob(stmt, 1), bytes, any);
    } else {
        memset(acc, 0, bytes);
        *any = 0;
    }
    return live_statement_done(s, stmt, step);
}

/* Writes row id of data (bytes long). */
static int live_index_write(live_store *s, sqlite3_int64 id, const uint8_t *data, size_t bytes) {
    sqlite3_stmt *stmt = live_prepared(s, STMT_CHUNK_WRITE);
    sqlite3_bind_int64(stmt, 1, id);
    sqlite3_bind_int64(stmt, 2, 0);
    sqlite3_bind_blob64(stmt, 3, data, bytes, SQLITE_STATIC);
    return live_write(s, stmt, NULL);
}

/* The scratch memory of lookups, at least bytes, or NULL. */
static uint8_t *live_index_scratch(live_store *s, size_t bytes) {
    live_index *x = &s->index;
    if (x->scratch_bytes < bytes) {
        uint8_t *grown = sqlite3_realloc64(x->scratch, bytes);
        if (grown == NULL) {
            return NULL;
        }
        x->scratch = grown;
        x->scratch_bytes = bytes;
    }
    return x->scratch;
}

/* ---- Reading ---- */

/* Appends id to the filters no column answers for. */
static int live_index_note_unindexed(live_index *x, sqlite3_int64 id) {
    if (x->unindexed_count == x->unindexed_capacity) {
        sqlite3_int64 *grown = sql_grown(x->unindexed, &x->unindexed_capacity,
                                         x->unindexed_count + 1, sizeof *grown, 64);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        x->unindexed = grown;
    }
    x->sorted &= x->unindexed_count == 0 || x->unindexed[x->unindexed_count - 1] < id;
    x->unindexed[x->unindexed_count++] = id;
    return SQLITE_OK;
}

/* The geometry of f into geometry, or 0 when the index cannot answer for it (a kind that does
** not probe by bits, a body of no bits or too many). */
static int live_index_geometry(const live_filter *f, uint8_t *geometry) {
    const filter_kind *kind = f->view.kind;
    uint64_t bits = (f->view.bytes - FILTER_HEADER_BYTES) * 8;
    if (kind->probe_bits == NULL || kind->geometry == NULL || bits == 0 ||
        bits > LIVE_INDEX_BITS_MAX) {
        return 0;
    }
    kind->geometry(&f->view, geometry);
    return 1;
}

/* Whether f is of class c: its kind, geometry and length. */
static int live_index_fits(const live_index_class *c, const live_filter *f) {
    uint8_t a[FILTER_GEOMETRY_BYTES], b[FILTER_GEOMETRY_BYTES];
    if (f->view.bytes != c->view.bytes || f->view.kind != c->view.kind ||
        !live_index_geometry(f, a)) {
        return 0;
    }
    c->view.kind->geometry(&c->view, b);
    return memcmp(a, b, sizeof a) == 0;
}

/* Reads class id's head row into c: 0 into *found when it has none (the classes end). */
static int live_index_read_head(live_store *s, sqlite3_int64 id, live_index_class *c, int *found) {
    uint8_t head[LIVE_INDEX_HEAD_BYTES];
    char why[FILTER_WHY_MAX];
    sqlite3_int64 row = live_index_row(id, LIVE_INDEX_HEAD, 0);
    int rc = live_index_read(s, row, head, sizeof head, found);
    if (rc != SQLITE_OK || !*found) {
        return rc;
    }
    memset(c, 0, sizeof *c);
    c->id = id;
    memcpy(c->header, head, FILTER_HEADER_BYTES);
    uint64_t bytes = le_load64(head + FILTER_HEADER_BYTES);
    c->columns = le_load32(head + FILTER_HEADER_BYTES + 8);
    c->group_columns = le_load32(head + FILTER_HEADER_BYTES + 12);
    if (id > LIVE_INDEX_CLASSES_MAX || bytes <= FILTER_HEADER_BYTES || bytes > LIVE_BYTES_MAX ||
        c->columns == 0 || c->group_columns == 0 || c->group_columns % 8 != 0 ||
        c->group_columns > 8 * 65536) {
        return live_index_corrupt(s, row, "not the head of a class");
    }
    if (filter_open_header(c->header, bytes, &c->view, why) != FILTER_OK ||
        c->view.kind->probe_bits == NULL || c->view.kind->geometry == NULL) {
        return live_index_corrupt(s, row, "its filter's header is not of a kind it can index");
    }
    c->bits = (bytes - FILTER_HEADER_BYTES) * 8;
    return c->bits <= LIVE_INDEX_BITS_MAX ? SQLITE_OK
                                          : live_index_corrupt(s, row, "a filter too long");
}

/* Reads class c's map and stale rows, and gives each column that answers its filter. Memory
** grows with the rows read, not with the columns a head row claims. */
static int live_index_read_columns(live_store *s, live_index_class *c) {
    size_t capacity = 0;
    int rc = SQLITE_OK, found;
    for (uint64_t g = 0; rc == SQLITE_OK && g < live_index_groups(c); g++) {
        uint32_t columns = live_index_group_columns(c, g);
        size_t first = (size_t)(g * c->group_columns);
        live_filter **grown =
            sql_grown(c->filters, &capacity, first + columns, sizeof *grown, columns);
        uint8_t *map = grown != NULL ? live_index_scratch(s, 4 * (size_t)columns) : NULL;
        if (grown != NULL) {
            c->filters = grown;
        }
        if (map == NULL) {
            return SQLITE_NOMEM;
        }
        rc = live_index_read(s, live_index_row(c->id, g, LIVE_INDEX_MAP), map, 4 * columns, &found);
        if (rc == SQLITE_OK && !found) {
            rc = live_index_corrupt(s, live_index_row(c->id, g, LIVE_INDEX_MAP),
                                    "a group's map of filters is missing");
        }
        for (uint32_t j = 0; rc == SQLITE_OK && j < columns; j++) {
            sqlite3_int64 id = le_load32(map + 4 * (size_t)j);
            live_filter *f = live_store_filter_at(s, live_store_position(s, id));
            c->filters[first + j] = f != NULL && f->id == id ? f : NULL;
        }
    }
    if (rc == SQLITE_OK && (c->stale = sqlite3_malloc64(((uint64_t)c->columns + 7) / 8)) == NULL) {
        rc = SQLITE_NOMEM;
    }
    for (uint64_t g = 0; rc == SQLITE_OK && g < live_index_groups(c); g++) {
        rc = live_index_read(s, live_index_row(c->id, g, LIVE_INDEX_STALE),
                             c->stale + g * c->group_columns / 8, live_index_row_bytes(c, g),
                             &found);
    }
    return rc;
}

/* Gives the filters of c's clean columns their column (a filter of another geometry, or one
** that another column holds already, none). */
static void live_index_assign(live_index_class *c) {
    for (uint32_t j = 0; j < c->columns; j++) {
        live_filter *f = c->filters[j];
        int stale = (c->stale[j / 8] >> (j % 8)) & 1;
        if (f == NULL || stale || f->index_class != NULL || !live_index_fits(c, f)) {
            c->filters[j] = NULL;
            continue;
        }
        f->index_class = c;
        f->index_column = j;
    }
}

int live_index_load(live_store *s) {
    live_index *x = &s->index;
    int rc = live_store_load(s), found = 1;
    if (rc != SQLITE_OK || x->read) {
        return rc;
    }
    live_index_forget_all(s);
    for (sqlite3_int64 id = 1; rc == SQLITE_OK; id++) {
        live_index_class c;
        rc = live_index_read_head(s, id, &c, &found);
        if (rc != SQLITE_OK || !found) {
            break;
        }
        size_t capacity = x->class_count;
        live_index_class *grown =
            sql_grown(x->classes, &capacity, x->class_count + 1, sizeof *grown, 4);
        if (grown == NULL) {
            rc = SQLITE_NOMEM;
            break;
        }
        x->classes = grown;
        x->classes[x->class_count++] = c;
        rc = live_index_read_columns(s, &x->classes[x->class_count - 1]);
    }
    for (size_t i = 0; rc == SQLITE_OK && i < x->class_count; i++) {
        x->classes[i].view.blob = x->classes[i].header; /* the array moved as it grew */
        live_index_assign(&x->classes[i]);
    }
    x->sorted = 1;
    for (size_t i = 0; rc == SQLITE_OK && x->class_count > 0 && i < s->filter_count; i++) {
        if (s->filters[i]->index_class == NULL) { /* (none needed without an index) */
            rc = live_index_note_unindexed(x, s->filters[i]->id);
        }
    }
    if (rc != SQLITE_OK) {
        live_index_forget_all(s);
        return rc;
    }
    x->present = x->class_count > 0;
    x->read = 1;
    return SQLITE_OK;
}

int live_index_present(const live_store *s) {
    return s->index.present;
}

int live_index_forget(live_store *s, live_filter *f) {
    if (s->index.read && f->index_class == NULL) {
        return SQLITE_OK; /* (an add's common case: nothing to forget) */
    }
    int rc = live_index_load(s);
    live_index_class *c = f->index_class;
    if (rc != SQLITE_OK || c == NULL) {
        return rc;
    }
    uint32_t j = f->index_column;
    uint64_t g = j / c->group_columns;
    c->stale[j / 8] |= (uint8_t)(1u << (j % 8));
    rc = live_index_write(s, live_index_row(c->id, g, LIVE_INDEX_STALE),
                          c->stale + g * c->group_columns / 8, live_index_row_bytes(c, g));
    if (rc == SQLITE_OK) {
        rc = live_index_note_unindexed(&s->index, f->id);
    }
    if (rc != SQLITE_OK) {
        c->stale[j / 8] &= (uint8_t) ~(1u << (j % 8));
        return rc;
    }
    c->filters[j] = NULL;
    f->index_class = NULL;
    return SQLITE_OK;
}

int live_index_added(live_store *s, live_filter *f) {
    return s->index.present ? live_index_note_unindexed(&s->index, f->id) : SQLITE_OK;
}

/* ---- Lookups ---- */

/* Appends a candidate. */
static int live_candidates_add(live_candidates *c, sqlite3_int64 id, int known) {
    if (c->count == c->capacity) {
        live_candidate *grown = sql_grown(c->items, &c->capacity, c->count + 1, sizeof *grown, 64);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        c->items = grown;
    }
    c->items[c->count].id = id;
    c->items[c->count++].known = known;
    return SQLITE_OK;
}

void live_candidates_free(live_candidates *c) {
    sqlite3_free(c->items);
    memset(c, 0, sizeof *c);
}

/* The columns of group g of class c that might hold the key of bits pb into acc (their row's
** bytes): for some way, every one of its rows' bits set. */
static int live_index_match(live_store *s, const live_index_class *c, uint64_t g,
                            const filter_probe_bits *pb, uint8_t *acc, uint8_t *way, uint8_t *row) {
    size_t bytes = live_index_row_bytes(c, g);
    int rc = SQLITE_OK;
    for (int w = 0; rc == SQLITE_OK && w < pb->ways; w++) {
        int any = 1; /* (the first way ANDs into acc itself) */
        for (int i = 0; rc == SQLITE_OK && any && i < pb->count[w]; i++) {
            rc = live_index_and(s, live_index_row(c->id, g, pb->position[w][i]), w == 0 ? acc : way,
                                row, bytes, i == 0, &any);
        }
        for (size_t b = 0; w > 0 && any && b < bytes; b++) {
            acc[b] |= way[b];
        }
    }
    return rc;
}

/* Orders candidates by id, a probed one first. */
static int live_candidate_order(const void *a, const void *b) {
    const live_candidate *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id ? 1 : x->known - y->known;
}

/* Orders ids. */
static int live_id_order(const void *a, const void *b) {
    sqlite3_int64 x = *(const sqlite3_int64 *)a, y = *(const sqlite3_int64 *)b;
    return x < y ? -1 : x > y;
}

int live_index_candidates(live_store *s, const key_value *key, live_candidates *out) {
    live_index *x = &s->index;
    int rc = live_index_load(s);
    out->count = 0;
    for (size_t i = 0; rc == SQLITE_OK && i < x->class_count; i++) {
        const live_index_class *c = &x->classes[i];
        filter_probe_bits pb;
        c->view.kind->probe_bits(&c->view, filter_hash_key(&c->view, key), &pb);
        size_t bytes = (c->group_columns + 7) / 8;
        uint8_t *acc = live_index_scratch(s, 3 * bytes);
        if (acc == NULL) {
            return SQLITE_NOMEM;
        }
        for (uint64_t g = 0; rc == SQLITE_OK && pb.ways > 0 && g < live_index_groups(c); g++) {
            rc = live_index_match(s, c, g, &pb, acc, acc + bytes, acc + 2 * bytes);
            uint32_t columns = live_index_group_columns(c, g);
            for (uint32_t b = 0; rc == SQLITE_OK && b < (columns + 7) / 8; b += 8) {
                uint64_t v = 0; /* 8 bytes at a time: most are 0 */
                memcpy(&v, acc + b, (columns + 7) / 8 - b < 8 ? (columns + 7) / 8 - b : 8);
                for (; rc == SQLITE_OK && v != 0; v &= v - 1) {
                    uint32_t j = b * 8 + (uint32_t)__builtin_ctzll(v);
                    const live_filter *f =
                        j < columns ? c->filters[g * c->group_columns + j] : NULL;
                    rc = f != NULL ? live_candidates_add(out, f->id, 1) : SQLITE_OK;
                }
            }
        }
    }
    if (rc == SQLITE_OK && !x->sorted) {
        if (x->unindexed_count > 1) {
            qsort(x->unindexed, x->unindexed_count, sizeof *x->unindexed, live_id_order);
        }
        x->sorted = 1;
    }
    for (size_t i = 0; rc == SQLITE_OK && i < x->unindexed_count; i++) {
        if (i == 0 || x->unindexed[i] != x->unindexed[i - 1]) {
            rc = live_candidates_add(out, x->unindexed[i], 0);
        }
    }
    if (rc == SQLITE_OK && out->count > 1) {
        qsort(out->items, out->count, sizeof *out->items, live_candidate_order);
    }
    return rc;
}

/* ---- Building and checking ---- */

/* What a build does with the rows of a pass it made, and its state. */
typedef int (*live_index_rows_sink)(live_store *s, const live_index_class *c, uint64_t g,
                                    uint64_t first, uint64_t count, const uint8_t *rows,
                                    void *state);

/* Makes the rows of group g of class c from its columns' filters (those of c->filters; a NULL
** column's bits all 0), a pass of positions at a time, and hands each pass to sink. */
static int live_index_transpose(live_store *s, const live_index_class *c, uint64_t g,
                                live_index_rows_sink sink, void *state) {
    size_t bytes = live_index_row_bytes(c, g);
    uint32_t columns = live_index_group_columns(c, g);
    uint64_t pass = LIVE_INDEX_PASS_BYTES / bytes / 64 * 64;
    pass = pass < 64 ? 64 : pass > c->bits ? c->bits : pass;
    uint8_t *rows = sqlite3_malloc64(pass * bytes), piece[LIVE_INDEX_PIECE_BYTES];
    int rc = rows == NULL ? SQLITE_NOMEM : SQLITE_OK;
    for (uint64_t first = 0; rc == SQLITE_OK && first < c->bits; first += pass) {
        uint64_t count = c->bits - first < pass ? c->bits - first : pass;
        memset(rows, 0, count * bytes);
        for (uint32_t j = 0; rc == SQLITE_OK && j < columns; j++) {
            live_filter *f = c->filters[g * c->group_columns + j];
            filter_io io = f != NULL ? live_filter_io(f) : (filter_io){0};
            for (uint64_t at = 0; f != NULL && rc == SQLITE_OK && at < count / 8;
                 at += sizeof piece) {
                uint32_t n =
                    (uint32_t)(count / 8 - at < sizeof piece ? count / 8 - at : sizeof piece);
                if (io.read(io.state, FILTER_HEADER_BYTES + first / 8 + at, piece, n) != 0) {
                    rc = s->error != NULL ? SQLITE_ERROR : SQLITE_NOMEM;
                    break;
                }
                for (uint32_t b = 0; b < n; b++) {
                    for (unsigned v = piece[b]; v != 0; v &= v - 1) {
                        uint64_t position = (at + b) * 8 + (uint64_t)__builtin_ctz(v);
                        rows[position * bytes + j / 8] |= (uint8_t)(1u << (j % 8));
                    }
                }
            }
        }
        if (rc == SQLITE_OK) {
            rc = sink(s, c, g, first, count, rows, state);
        }
    }
    sqlite3_free(rows);
    return rc;
}

/* A build's sink: writes each row that has a bit set. */
static int live_index_write_rows(live_store *s, const live_index_class *c, uint64_t g,
                                 uint64_t first, uint64_t count, const uint8_t *rows, void *state) {
    size_t bytes = live_index_row_bytes(c, g);
    int rc = SQLITE_OK;
    (void)state;
    for (uint64_t r = 0; rc == SQLITE_OK && r < count; r++) {
        const uint8_t *row = rows + r * bytes;
        int any = 0;
        for (size_t b = 0; b < bytes && !any; b++) {
            any = row[b] != 0;
        }
        if (any) {
            rc = live_index_write(s, live_index_row(c->id, g, first + r), row, bytes);
        }
    }
    return rc;
}

/* Writes class c's map rows and head row. */
static int live_index_write_class(live_store *s, const live_index_class *c) {
    int rc = SQLITE_OK;
    for (uint64_t g = 0; rc == SQLITE_OK && g < live_index_groups(c); g++) {
        uint32_t columns = live_index_group_columns(c, g);
        uint8_t *map = live_index_scratch(s, 4 * (size_t)columns);
        if (map == NULL) {
            return SQLITE_NOMEM;
        }
        for (uint32_t j = 0; j < columns; j++) {
            le_store32(map + 4 * (size_t)j, (uint32_t)c->filters[g * c->group_columns + j]->id);
        }
        rc = live_index_write(s, live_index_row(c->id, g, LIVE_INDEX_MAP), map, 4 * columns);
    }
    uint8_t head[LIVE_INDEX_HEAD_BYTES];
    memcpy(head, c->header, FILTER_HEADER_BYTES);
    le_store64(head + FILTER_HEADER_BYTES, c->view.bytes);
    le_store32(head + FILTER_HEADER_BYTES + 8, c->columns);
    le_store32(head + FILTER_HEADER_BYTES + 12, c->group_columns);
    return rc != SQLITE_OK
               ? rc
               : live_index_write(s, live_index_row(c->id, LIVE_INDEX_HEAD, 0), head, sizeof head);
}

/* Sorts f into classes (the index's in memory, their columns in the order of the filters):
** into the class of its geometry, or a new one while there are fewer than the most. */
static int live_index_classify(live_store *s, live_filter *f, uint32_t group_columns) {
    live_index *x = &s->index;
    uint8_t geometry[FILTER_GEOMETRY_BYTES];
    if (!live_index_geometry(f, geometry)) {
        return SQLITE_OK;
    }
    size_t i = 0;
    while (i < x->class_count && !live_index_fits(&x->classes[i], f)) {
        i++;
    }
    if (i == x->class_count) {
        size_t capacity = x->class_count;
        if (x->class_count == LIVE_INDEX_CLASSES_MAX) {
            return SQLITE_OK; /* probed itself */
        }
        live_index_class *grown =
            sql_grown(x->classes, &capacity, x->class_count + 1, sizeof *grown, 4);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        x->classes = grown;
        live_index_class *c = &x->classes[x->class_count++];
        memset(c, 0, sizeof *c);
        c->id = (sqlite3_int64)x->class_count;
        memcpy(c->header, f->header, FILTER_HEADER_BYTES);
        c->view = f->view;
        c->bits = (f->view.bytes - FILTER_HEADER_BYTES) * 8;
        c->group_columns = group_columns;
    }
    for (size_t k = 0; k < x->class_count; k++) {
        x->classes[k].view.blob = x->classes[k].header; /* the array moved as it grew */
    }
    live_index_class *c = &x->classes[i];
    if (c->columns == c->filter_capacity) {
        live_filter **grown =
            sql_grown(c->filters, &c->filter_capacity, c->columns + 1, sizeof *grown, 64);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        c->filters = grown;
    }
    c->filters[c->columns++] = f;
    return SQLITE_OK;
}

int live_index_build(live_store *s) {
    int rc = live_store_load(s);
    live_index *x = &s->index;
    if (rc != SQLITE_OK) {
        return rc;
    }
    live_index_forget_all(s);
    rc = live_write(s, live_prepared(s, STMT_INDEX_DROP), NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < s->filter_count; i++) {
        rc = live_filter_open(s->filters[i]);
        if (rc == SQLITE_OK) {
            rc = live_index_classify(s, s->filters[i], LIVE_INDEX_GROUP_COLUMNS);
        }
    }
    for (size_t i = 0; rc == SQLITE_OK && i < x->class_count; i++) {
        live_index_class *c = &x->classes[i];
        for (uint64_t g = 0; rc == SQLITE_OK && g < live_index_groups(c); g++) {
            rc = live_index_transpose(s, c, g, live_index_write_rows, NULL);
        }
        if (rc == SQLITE_OK) {
            rc = live_index_write_class(s, c);
        }
    }
    if (rc == SQLITE_OK && x->class_count > 0) {
        sqlite3_stmt *stmt = live_prepared(s, STMT_VERSION_WRITE);
        sqlite3_bind_int(stmt, 1, LIVE_STORAGE_VERSION_INDEXED);
        rc = live_write(s, stmt, NULL);
    }
    live_index_forget_all(s); /* read again, as the rows now say */
    return rc == SQLITE_OK ? live_index_load(s) : rc;
}

/* A check's sink: each row as its clean columns' filters make it (state: the class's mask of
** clean columns of the group, a row's bytes). */
static int live_index_compare_rows(live_store *s, const live_index_class *c, uint64_t g,
                                   uint64_t first, uint64_t count, const uint8_t *rows,
                                   void *state) {
    const uint8_t *clean = state;
    size_t bytes = live_index_row_bytes(c, g);
    uint8_t *stored = live_index_scratch(s, bytes);
    int rc = stored == NULL ? SQLITE_NOMEM : SQLITE_OK, found;
    for (uint64_t r = 0; rc == SQLITE_OK && r < count; r++) {
        sqlite3_int64 id = live_index_row(c->id, g, first + r);
        rc = live_index_read(s, id, stored, bytes, &found);
        for (size_t b = 0; rc == SQLITE_OK && b < bytes; b++) {
            if ((stored[b] & clean[b]) != rows[r * bytes + b]) {
                rc = live_index_corrupt(s, id, "its bits are not its filters'");
            }
        }
    }
    return rc;
}

/* The bytes of the row of group g and position of class c (a row that exists). */
static uint64_t live_index_bytes_at(const live_index_class *c, uint64_t g, uint64_t position) {
    if (g == LIVE_INDEX_HEAD) {
        return LIVE_INDEX_HEAD_BYTES;
    }
    return position == LIVE_INDEX_MAP ? (uint64_t)4 * live_index_group_columns(c, g)
                                      : live_index_row_bytes(c, g);
}

/* Checks that every row at a negative id is one of a class, group and position that exist, of
** the length they give. */
static int live_index_check_rows(live_store *s) {
    live_index *x = &s->index;
    sqlite3_stmt *stmt = NULL;
    char *sql = sqlite3_mprintf("SELECT id, length(data) FROM \"%w\".\"%w_chunks\" WHERE id < 0",
                                s->schema, s->table);
    int rc = sql == NULL ? SQLITE_NOMEM : sqlite3_prepare_v2(s->db, sql, -1, &stmt, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
        rc = live_fail_sqlite(s, rc);
    }
    while (rc == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        sqlite3_int64 id = sqlite3_column_int64(stmt, 0);
        uint64_t v = (uint64_t)(-1 - id), class_id = v >> 48, group = (v >> 32) & 0xFFFF;
        uint64_t position = v & 0xFFFFFFFF;
        const live_index_class *c =
            class_id >= 1 && class_id <= x->class_count ? &x->classes[class_id - 1] : NULL;
        int fits = c != NULL && (group == LIVE_INDEX_HEAD
                                     ? position == 0
                                     : group < live_index_groups(c) &&
                                           (position < c->bits || position == LIVE_INDEX_MAP ||
                                            position == LIVE_INDEX_STALE));
        if (!fits) {
            rc = live_index_corrupt(s, id, "of no class, group or position of the index");
        } else if ((uint64_t)sqlite3_column_int64(stmt, 1) !=
                   live_index_bytes_at(c, group, position)) {
            rc = live_index_corrupt(s, id, "of another length than its class says");
        }
    }
    int done = sqlite3_finalize(stmt);
    if (rc == SQLITE_OK && done != SQLITE_OK) {
        rc = done == SQLITE_NOMEM ? done : live_fail_sqlite(s, done);
    }
    return rc;
}

int live_index_integrity(live_store *s, int quick) {
    live_index *x = &s->index;
    x->read = 0; /* read again, as the rows are now */
    int rc = live_index_load(s);
    if (rc == SQLITE_OK) {
        rc = live_index_check_rows(s);
    }
    for (size_t i = 0; rc == SQLITE_OK && !quick && i < x->class_count; i++) {
        const live_index_class *c = &x->classes[i];
        for (uint64_t g = 0; rc == SQLITE_OK && g < live_index_groups(c); g++) {
            size_t bytes = live_index_row_bytes(c, g);
            uint8_t *clean = sqlite3_malloc64(bytes);
            if (clean == NULL) {
                return SQLITE_NOMEM;
            }
            memset(clean, 0, bytes);
            for (uint32_t j = 0; j < live_index_group_columns(c, g); j++) {
                if (c->filters[g * c->group_columns + j] != NULL) {
                    clean[j / 8] |= (uint8_t)(1u << (j % 8));
                }
            }
            rc = live_index_transpose(s, c, g, live_index_compare_rows, clean);
            sqlite3_free(clean);
        }
    }
    return rc;
}
