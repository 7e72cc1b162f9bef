/*
** live_rows.h: what the rooms of a live table's store share (live_store, live_chunks): the
** records of the store, its filters and its cached chunks; the statements the store runs on its
** shadow tables (docs/format.md, section 7) and their errors; a filter's chunk row ids and
** lengths; and its count in parts.
*/
#ifndef LIVE_ROWS_H
#define LIVE_ROWS_H

#include "sql_api.h"

#include "filter.h"
#include "little_endian.h"

#include <stdint.h>

/* The versions of the layout of the shadow tables, in %_config: 2 once it has an index, which
** a reader of version 1 must not write without. */
enum { LIVE_STORAGE_VERSION = 1, LIVE_STORAGE_VERSION_INDEXED = 2 };

/* A filter's chunks are rows f << 32 | c: c below 2^32, f below 2^31. */
enum { LIVE_CHUNK_BITS = 32 };
#define LIVE_FILTER_ID_MAX ((sqlite3_int64)0x7fffffff)

/* The longest filter a live table keeps: SQLite's longest BLOB (the most SQLITE_MAX_LENGTH
** can be), so that every filter is a BLOB too. Its chunks, of 64 bytes or more, then number
** fewer than 2^25: a chunk's index fits its row id, and 32 bits, with room to spare. */
#define LIVE_BYTES_MAX ((uint64_t)2147483647)
_Static_assert((LIVE_BYTES_MAX - 64) / 64 < ((uint64_t)1 << 25), "chunk indexes past 2^25");

/* A filter of the store. */
typedef struct live_filter {
    sqlite3_int64 id;
    char *name; /* NULL: the table's unnamed filter */
    /* The header as the kinds see it (the view's bytes): its count whole once count_known. */
    uint8_t header[FILTER_HEADER_BYTES];
    uint8_t stored_header[FILTER_HEADER_BYTES]; /* as %_filters holds it */
    uint64_t base; /* the part of the count the header row holds (its count once written) */
    uint64_t stored_bytes;
    uint32_t chunk_bytes;
    int count_known;
    int body_checked; /* what it keeps past its header validated (live_filter_open) */
    filter_view view; /* of header; bytes the filter's length */
    struct live_store *store;
    uint32_t chunks_cached; /* how many of its chunks the store's cache holds */
    /* The slot of its chunk last_index, found last, while the store's entries_moved is
    ** last_moved: an add reads and writes a line of one chunk, each a search for its slot. */
    struct live_slot *last_slot;
    uint64_t last_index, last_moved;
    /* The class of the index whose column index_column holds its bits; NULL: none does (not
    ** indexed, or changed since: it is probed itself). */
    struct live_index_class *index_class;
    uint32_t index_column;
} live_filter;

typedef struct live_store live_store;

/* A class of a live table's index (live_index.h): filters of one geometry, a column each. */
typedef struct live_index_class {
    sqlite3_int64 id;                    /* from 1: its rows' ids */
    uint8_t header[FILTER_HEADER_BYTES]; /* of a filter of it: the view's, for keys and bits */
    filter_view view;
    uint64_t bits;          /* the positions of a filter's body */
    uint32_t columns;       /* its filters, at the time the index was made */
    size_t filter_capacity; /* of filters, while a build fills it */
    uint32_t group_columns; /* the columns a row holds */
    live_filter **filters;  /* by column: the filter whose bits it holds, NULL when none does */
    uint8_t *stale;         /* by column, a bit: its filter changed or went since */
} live_index_class;

/* A live table's index, as the store read it (live_index.h). */
typedef struct live_index {
    int read;    /* its rows read since the list of filters was */
    int present; /* the table has an index */
    live_index_class *classes;
    size_t class_count;
    /* The ids of filters that no column answers for, to be probed themselves (some may be
    ** gone), in the order of their ids when sorted is set. */
    sqlite3_int64 *unindexed;
    size_t unindexed_count, unindexed_capacity;
    int sorted;
    uint8_t *scratch; /* rows of lookups and maps */
    size_t scratch_bytes;
    /* A read handle on %_chunks.data, moved from row to row while a scan reads the index (a
    ** move costs far less than a statement or a handle opened anew); closed at its end. */
    sqlite3_blob *reader;
} live_index;

/* What a new filter of a table is made from: the first bytes of its empty filter (up to its
** last non-zero byte, at least the header) and its length. */
typedef struct live_template {
    uint8_t *head;
    uint64_t head_bytes;
    uint64_t bytes;
} live_template;

/* The statements the store runs, prepared once each. */
typedef enum live_statement {
    STMT_CHUNK_READ,
    STMT_CHUNK_WRITE,
    STMT_CHUNK_UPDATE,
    STMT_CHUNK_DELETE,
    STMT_CHUNK_ALLOCATE,
    STMT_CHUNK_KEYS,
    STMT_CHUNK_SCAN,
    STMT_CHUNKS_DROP,
    STMT_FILTERS_LIST,
    STMT_FILTER_INSERT,
    STMT_FILTER_UPDATE,
    STMT_FILTER_DELETE,
    STMT_DATA_VERSION,
    STMT_INSTANCE,
    STMT_INDEX_DROP,
    STMT_VERSION_WRITE,
    STMT_COUNT
} live_statement;

/* A chunk in the cache, in its filter's slots and in the store's list. */
typedef struct live_chunk {
    live_filter *filter;
    struct live_slot *slot; /* its slot in its filter's */
    uint32_t index;         /* its index in its filter */
    uint32_t at;            /* its place in the store's list */
    uint8_t *data;          /* its bytes (room of them), or NULL while they are all 0 */
    uint32_t room;          /* the bytes of data: live_chunk_cached_bytes' */
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
    /* The filters by name, an open-addressed table of named_mask + 1 places (NULL: none yet),
    ** at most half full: live_store_find in a few compares whatever the count of filters. */
    live_filter **named;
    size_t named_mask, named_count;
    live_index index;
    uint64_t generation;
    /* The chunks read and written, and their slots by row id (an open-addressed table,
    ** entry_mask + 1 places, NULL until the first chunk). */
    live_chunk **cached;
    uint32_t cached_count;
    size_t cached_capacity;
    uint64_t cached_bytes;
    live_entry *entries;
    uint32_t entry_mask;
    uint64_t entries_moved; /* how often entries moved (a filter's last slot found is then stale) */
    uint32_t hand;          /* the clock's, in cached */
    live_dirty *dirty;      /* the chunks made dirty since the last flush (some written since) */
    uint32_t dirty_count;
    size_t dirty_capacity;
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

/* Sets the store's error to the message of format and returns rc. */
int live_fail(live_store *s, int rc, const char *format, ...);

/* Sets the store's error to the connection's for rc, which a statement of the store returned. */
int live_fail_sqlite(live_store *s, int rc);

/* Prepares every statement of the store, which name its tables (when it opens, and after a
** rename): what an operation needs is there, whatever memory is left then. */
int live_statements_prepare(live_store *s);

/* The statement which, reset and unbound (prepared when the store opened). */
sqlite3_stmt *live_prepared(live_store *s, live_statement which);

/* Ends a run of stmt that gave rc (SQLITE_DONE or SQLITE_ROW are success): SQLITE_OK or the
** error, set. */
int live_statement_done(live_store *s, sqlite3_stmt *stmt, int rc);

/* Runs stmt, a write, and ends it: SQLITE_OK or the error, set. The connection's last insert
** rowid stays the user's (the rowid stmt inserted into *rowid, if not NULL). */
int live_write(live_store *s, sqlite3_stmt *stmt, sqlite3_int64 *rowid);

/* The first row id of filter id's chunks, and the last (inline: an add or a probe asks for
** them at every line it reads). */
static inline sqlite3_int64 live_first_chunk(sqlite3_int64 id) {
    return id << LIVE_CHUNK_BITS;
}

static inline sqlite3_int64 live_last_chunk(sqlite3_int64 id) {
    return (id << LIVE_CHUNK_BITS) | (((sqlite3_int64)1 << LIVE_CHUNK_BITS) - 1);
}

/* The number of chunks of f at its length (below 2^25: live_filter_make). */
uint64_t live_chunk_count(const live_filter *f);

/* The bytes of f in its chunk index: the chunk size, or less for its last chunk. */
uint32_t live_chunk_length(const live_filter *f, uint64_t index);

/* The bytes the cache holds for f's chunk index: its length, or for a kind whose filters grow
** (a chunk's length with them) the chunk size. */
uint32_t live_chunk_cached_bytes(const live_filter *f, uint64_t index);

/* The count at f's header's count offset. */
static inline uint64_t live_header_count(const live_filter *f, const uint8_t *header) {
    return le_load64(header + f->view.kind->count_offset);
}

/* The result of a check of f that answered status (why its reason): SQLITE_OK, the store's
** error of a read, or SQLITE_CORRUPT_VTAB naming f. */
int live_filter_checked(live_filter *f, filter_status status, const char *why);

/* Adds a chunk's part of a count to *parts, their sum, which stops at the ends of 64 bits. */
void live_parts_add(sqlite3_int64 *parts, sqlite3_int64 part);

/* f's count: its base plus the sum of its chunks' parts, stopped at 0 and at its kind's most
** (count_limit; 2^64 - 1). */
uint64_t live_count_total(const live_filter *f, sqlite3_int64 parts);

/* f's count from its parts: its base and every chunk row's keys, into *count. */
int live_filter_count_parts(live_filter *f, uint64_t *count);

/* The i-th filter in the order of their ids (after live_store_load), NULL past the last. */
live_filter *live_store_filter_at(const live_store *s, size_t i);

/* The index of the first filter whose id is at least id. */
size_t live_store_position(const live_store *s, sqlite3_int64 id);

/* Forgets what the store read of its index: no filter has a column. */
void live_index_forget_all(live_store *s);

/* Closes the index's read handle, if it has one open. */
void live_index_close_reader(live_store *s);

#endif /* LIVE_ROWS_H */
