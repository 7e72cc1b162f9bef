/*
** live_store.h: where a live table (the bloom virtual table, live_table.c)
** keeps its filters: in its shadow tables, each filter's body in rows that
** fit one database page, so that an operation reads and writes a fixed
** number of rows whatever the filter's size (docs/format.md, section 7).
**
**   %_config   (key TEXT PRIMARY KEY, value) WITHOUT ROWID: the storage's
**              version, the chunk size, the template of a new filter
**   %_filters  (id INTEGER PRIMARY KEY, name TEXT UNIQUE, header BLOB,
**              bytes INTEGER, chunk_bytes INTEGER): a row per filter, its
**              64-byte header with the count of what was added at its base
**   %_chunks   (id INTEGER PRIMARY KEY, keys INTEGER, data BLOB): chunk c of
**              filter f at id f << 32 | c, the bytes from 64 + c * chunk_bytes;
**              a chunk of zeros that counts nothing has no row; keys is the
**              part of the count that the writes to the chunk added
**
** A filter's count is its header's plus the keys of its chunks: an add
** writes the row of the chunk it changed and no other. A kind that counts
** by steps (count_by_steps) adds and removes without the count, which a
** snapshot sums; a scalable filter's is read from its stages (count_io), a
** sketch's summed at its first operation. The store keeps the chunks it
** read, and the writes of a transaction until xSync, xSavepoint or xRelease
** (live_store_flush) or xRollback and xRollbackTo (live_store_discard); what
** another connection commits empties it.
*/
#ifndef LIVE_STORE_H
#define LIVE_STORE_H

#include "sql_api.h"

#include "filter.h"

#include <stdint.h>

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
} live_filter;

typedef struct live_store live_store;

/* What a new filter of a table is made from: the first bytes of its empty filter (up to its
** last non-zero byte, at least the header) and its length. */
typedef struct live_template {
    uint8_t *head;
    uint64_t head_bytes;
    uint64_t bytes;
} live_template;

/* Creates the shadow tables of table in schema (xCreate), with the template (head_bytes 0: a
** table of loaded filters alone). SQLITE_OK, or an error with its message in *error. */
int live_store_create(sqlite3 *db, const char *schema, const char *table,
                      const live_template *template, char **error);

/* Opens the store of table (xCreate, xConnect) into *out. SQLITE_OK, or an error with its
** message in *error. */
int live_store_open(sqlite3 *db, const char *schema, const char *table, live_store **out,
                    char **error);

/* Frees the store, dropping what it did not write. */
void live_store_close(live_store *s);

/* Drops the shadow tables (xDestroy). */
int live_store_drop_tables(live_store *s);

/* Renames the shadow tables for the table's new name (xRename). */
int live_store_rename(live_store *s, const char *new_name);

/* The message of the store's last error, or NULL; the caller takes it. */
char *live_store_take_error(live_store *s);

/* ---- Transactions ---- */

/* Empties the caches if another connection committed since they were read (at a cursor's
** first filter and at xBegin). */
int live_store_check(live_store *s);

/* Writes what the transaction changed (xSync, xSavepoint, xRelease). */
int live_store_flush(live_store *s);

/* Drops what the transaction changed and every cache (xRollback, xRollbackTo). */
void live_store_discard(live_store *s);

/* Whether the store holds changes it has not written. */
int live_store_has_changes(const live_store *s);

/* Whether the shadow tables are no longer those the store was opened on, into *forsaken: gone,
** or another table's (their %_config's instance is not the store's), as after a ROLLBACK TO
** that undid the making of its table. Then what the store held is dropped. */
int live_store_forsaken(live_store *s, int *forsaken);

/* Notes the store's own commit, after which its caches stay good (xCommit). */
void live_store_committed(live_store *s);

/* Checks the store's rows (xIntegrity): every filter's, and every chunk's against its filter;
** unless quick, what each filter's kind keeps past its header (validate_body) too. SQLITE_OK
** with *report NULL when all is well, or the first problem found in *report (the caller frees
** it); another code when the check itself failed (out of memory, a read). */
int live_store_integrity(live_store *s, int quick, char **report);

/* ---- Filters ---- */

/* Reads the list of filters if the cache lost it. */
int live_store_load(live_store *s);

/* Bumped whenever the list changes: a cursor that saw another finds its place again. */
uint64_t live_store_generation(const live_store *s);

/* The i-th filter in the order of their ids (after live_store_load), NULL past the last. */
live_filter *live_store_filter_at(const live_store *s, size_t i);

/* The index of the first filter whose id is at least id. */
size_t live_store_position(const live_store *s, sqlite3_int64 id);

/* The filter called name (NULL: the unnamed one), or NULL (after live_store_load). */
live_filter *live_store_find(const live_store *s, const char *name);

/* Whether the table has a template, to make filters from. */
int live_store_has_template(const live_store *s);

/* The kind of the table's new filters (its template's), NULL when it has no template. */
const filter_kind *live_store_template_kind(const live_store *s);

/* Makes a filter called name from the template, into *out. */
int live_store_add_empty(live_store *s, const char *name, live_filter **out);

/* Makes a filter called name from blob, which filter_open accepted (bytes long). */
int live_store_add_blob(live_store *s, const char *name, const uint8_t *blob, uint64_t bytes,
                        live_filter **out);

/* Drops the filter f, its rows and its chunks. */
int live_store_remove(live_store *s, live_filter *f);

/* ---- Operations on a filter ---- */

/* Makes f ready for its operations: the first time, validates what its kind keeps past its
** header (validate_body) through the store. */
int live_filter_open(live_filter *f);

/* The filter_io of f: its header in memory, its chunks through the cache. Its reads and writes
** fail (1) only when SQLite does: the store then holds the error. */
filter_io live_filter_io(live_filter *f);

/* Makes f's count whole (the header's and the chunks'), which an operation that counts needs. */
int live_filter_count(live_filter *f);

/* Asks the memory for the lines of f's cached chunks that the count keys touch, and for those
** chunks' records, so that adding the keys one after the other waits for memory once rather
** than once a key. */
void live_filter_prefetch(live_filter *f, const key_hash *keys, int count);

/* Starts an operation that may change f's count: its count made whole. */
int live_op_begin(live_filter *f);

/* Keeps what the operation on f overwrites from now on, for live_op_undo: for an add that may
** find no room after it moved other keys (a cuckoo filter's kicks). */
void live_op_keep_undo(live_filter *f);

/* Puts back what the operation overwrote since live_op_keep_undo, its header too; 0, or
** nonzero when a write failed (what is put back is then partial). */
int live_op_undo(live_filter *f);

/* Ends it: what it added to the count goes to the chunk it wrote last, or the header. */
void live_op_end(live_filter *f);

/* Lengthens f to bytes, its new bytes reading as 0, before its kind's grow_io writes them. */
void live_filter_lengthen(live_filter *f, uint64_t bytes);

/* The whole filter f as a BLOB from sqlite3_malloc64, into *out (f->view.bytes long). */
int live_filter_snapshot(live_filter *f, uint8_t **out);

#endif /* LIVE_STORE_H */
