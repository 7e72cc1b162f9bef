/*
** live_chunks.h: a live filter's bytes (live_store.h): its chunk rows in a per-connection cache
** of LIVE_CACHE_BYTES (clock eviction) indexed by row id, which holds a transaction's writes
** until the store flushes them; the filter_io over it that the kinds' _io operations run on; and
** an operation's count and what it overwrote.
*/
#ifndef LIVE_CHUNKS_H
#define LIVE_CHUNKS_H

#include "live_rows.h"

#include "filter.h"

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

/* ---- For the store ---- */

/* Empties the cache of chunks, dropping what it did not write. */
void live_cache_clear(live_store *s);

/* Drops f's chunks from the cache. */
void live_cache_forget(live_store *s, const live_filter *f);

/* Writes the chunks the transaction changed (live_store_flush). */
int live_chunks_flush(live_store *s);

/* Frees what the cache keeps for the store's life (live_store_close), once it is empty. */
void live_chunks_free(live_store *s);

#endif /* LIVE_CHUNKS_H */
