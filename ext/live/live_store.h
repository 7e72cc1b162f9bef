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

#include "live_rows.h"

#include <stdint.h>

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

/* Whether the shadow tables are no longer those the store was opened on, into *not_ours: gone,
** or another table's (their %_config's instance is not the store's), as after a ROLLBACK TO
** that undid the making of its table. Then what the store held is dropped. */
int live_store_tables_not_ours(live_store *s, int *not_ours);

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

/* The filter called name (NULL: the unnamed one), or NULL (after live_store_load). */
live_filter *live_store_find(const live_store *s, const char *name);

/* Whether the table has a template, to make filters from. */
int live_store_has_template(const live_store *s);

/* The kind of the table's new filters (its template's), NULL when it has no template. */
const filter_kind *live_store_template_kind(const live_store *s);

/* Whether a new filter made from the template would refuse key, the kind's probe_advice saying
** so of its hash (a REAL in a 'spark' filter), so that it need not be made: then the kind's
** value_type of it (in type, FILTER_TYPE_TEXT_MAX bytes, or a constant), else NULL. */
const char *live_store_template_refusal(const live_store *s, const key_value *key, char *type);

/* Makes a filter called name from the template, into *out. */
int live_store_add_empty(live_store *s, const char *name, live_filter **out);

/* Gives each chunk of f at its length that has no row a row of zeros, in the order of their ids
** (the transaction's changes written first), so that its adds rewrite rows where they lie
** rather than make them where the B-tree has no room: the cost of a fresh filter's first adds,
** paid at once. Its bytes and answers stay as they were. */
int live_store_allocate(live_store *s, live_filter *f);

/* Makes a filter called name from blob, which filter_open accepted (bytes long). */
int live_store_add_blob(live_store *s, const char *name, const uint8_t *blob, uint64_t bytes,
                        live_filter **out);

/* Drops the filter f, its rows and its chunks. */
int live_store_remove(live_store *s, live_filter *f);

#endif /* LIVE_STORE_H */
