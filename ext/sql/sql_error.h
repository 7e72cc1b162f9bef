/*
** sql_error.h: error messages that name the function and show the offending
** value (docs/functions.md, rule 14 (errors)). Messages are built with
** sqlite3_str_new(NULL), which the length limit does not cap, and cut to the
** connection's SQLITE_LIMIT_LENGTH when set as the error.
*/
#ifndef SQL_ERROR_H
#define SQL_ERROR_H

#include "sql_api.h"

#include "filter.h"
#include "filter_kinds.h"

/* Appends v the way messages show a value: NULL, 42, 1.5, 'text' (quoted, at most 40
** characters, control characters and bytes that are not UTF-8 as \xNN), a BLOB of N bytes. */
void sql_append_value(sqlite3_str *s, sqlite3_value *v);

/* Appends the bytes of a text, t[0, bytes), quoted as messages show a TEXT value: its first 40
** characters, then ... if cut, with control characters and bytes that are not UTF-8 as \xNN, so
** a message never carries raw bytes. */
void sql_append_text(sqlite3_str *s, const unsigned char *t, int bytes);

/* Appends REAL v: 15 significant digits as SQLite shows them, or 17 when 15 would show a
** fractional v as a whole number, or v as the same text as other. */
void sql_append_real(sqlite3_str *s, double v, double other);

/* Makes the text built in s the error of ctx and frees s: cut to the connection's
** SQLITE_LIMIT_LENGTH at a character boundary; NOMEM if building it failed. Returns 1 when the
** error is the text. */
int sql_error_from_str(sqlite3_context *ctx, sqlite3_str *s);

/* Sets the error of ctx to a formatted message (sqlite3_str_appendf's format); returns as
** sql_error_from_str. */
int sql_errorf(sqlite3_context *ctx, const char *format, ...);

/* Starts the message "FUNC: WHAT, got VALUE", for the caller to add to and hand to
** sql_error_from_str. */
sqlite3_str *sql_error_start(const char *func, const char *what, sqlite3_value *v);

/* Sets the error of ctx to "FUNC: WHAT, got VALUE". */
void sql_error_value(sqlite3_context *ctx, const char *func, const char *what, sqlite3_value *v);

/*
** Sets the error of ctx for a FILTER argument v of func that is not a filter:
** "FUNC: WHY", or "FUNC: the filter must be a BLOB, got V" when why is NULL
** (v is not a BLOB); then what to do when that is plain: KEY, the other
** argument (or NULL), is a filter, so the two were swapped; or v is TEXT
** holding a filter's bytes or its hex.
*/
void sql_error_not_a_filter(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                            sqlite3_value *key, const char *why);

/* Sets the error of asking what ability names of a filter of a kind that cannot do it (rule 14
** (errors)): "FUNC: a 'K' filter cannot ...; build a ... filter to ...". */
void sql_error_cannot(sqlite3_context *ctx, const char *func, const filter_kind *kind,
                      filter_ability ability);

/* The message of sql_error_full, from sqlite3_malloc (NULL: out of memory). */
char *sql_full_message(const char *func, const char *what, const filter_kind *kind);

/* Sets the error of a filter of kind with no room for what ("the key", "a key", "the
** union"): a cuckoo filter, full (rule 21 (cuckoo)). */
void sql_error_full(sqlite3_context *ctx, const char *func, const char *what,
                    const filter_kind *kind);

/* Sets the error of removing KEY, certainly not in the filter: nothing was removed. */
void sql_error_not_removed(sqlite3_context *ctx, const char *func, sqlite3_value *key);

/* The message of a key that f cannot take (FILTER_REFUSED: not a value of the type f holds),
** from sqlite3_malloc (NULL: out of memory). type is f's kind's value_type of f. */
char *sql_refused_message(const char *func, sqlite3_value *key, const char *type);

/* Sets the error of sql_refused_message, or NOMEM. */
void sql_error_refused(sqlite3_context *ctx, const char *func, sqlite3_value *key,
                       const char *type);

/* Sets the error of a probe by key that filter_probe_refused refused, why its text:
** "FUNC: the key KEY WHY". */
void sql_error_probe_refused(sqlite3_context *ctx, const char *func, sqlite3_value *key,
                             const char *why);

#endif /* SQL_ERROR_H */
