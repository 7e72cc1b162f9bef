/*
** live_changes.h: what INSERT and DELETE do to a live table (rule 26 (live table)): keys added
** (a batch of them at a time) and removed, filters made, loaded and dropped, commands; and the
** errors the module reports.
*/
#ifndef LIVE_CHANGES_H
#define LIVE_CHANGES_H

#include "live_module.h"

#include "filter_kinds.h"

/* Sets the table's error to the message of format and returns rc. */
int live_error(live_table *t, int rc, const char *format, ...);

/* Sets the table's error to the store's, for rc. */
int live_store_error(live_table *t, int rc);

/* The error of an operation that failed with FILTER_IO_FAILED. */
int live_io_error(live_table *t);

/* Sets the error of value v for what ("name must be TEXT"), as the functions show values. */
int live_value_error(live_table *t, const char *what, sqlite3_value *v);

/* The message of a kind's refusal of ability. */
int live_refusal(live_table *t, const filter_kind *kind, filter_ability ability);

/* Forgets the tokens of rows found by key. */
void live_tokens_clear(live_table *t);

/* Reads a name value into *name (NULL: the unnamed filter): TEXT, or a number as its text. */
int live_read_name(live_table *t, sqlite3_value *v, const char **name);

/* The filter of id, or NULL. */
live_filter *live_filter_by_id(live_table *t, sqlite3_int64 id);

/* Adds the keys waiting in the batch to their filter, their lines asked for first. A failure
** loses keys of statements that succeeded: the transaction can then only roll back. */
int live_batch_drain(live_table *t);

/* DELETE of the row rowid: a key from its filter, or a whole filter. */
int live_delete(live_table *t, sqlite3_int64 rowid);

/* INSERT: point 2 of the header comment. */
int live_insert(live_table *t, sqlite3_value **argv, sqlite3_int64 *rowid);

#endif /* LIVE_CHANGES_H */
