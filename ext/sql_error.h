/*
** sql_error.h: error messages that name the function and show the offending
** value (docs/functions.md, rule 14 (errors)). Messages are built with
** sqlite3_str_new(NULL), which the length limit does not cap, and cut to the
** connection's SQLITE_LIMIT_LENGTH when set as the error.
*/
#ifndef SQL_ERROR_H
#define SQL_ERROR_H

#include "sql_api.h"

/* Appends v the way messages show a value: NULL, 42, 1.5, 'text' (quoted, at most 40
** characters, control characters and bytes that are not UTF-8 as \xNN), a BLOB of N bytes. */
void sql_append_value(sqlite3_str *s, sqlite3_value *v);

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

/* Sets the error of ctx to "FUNC: WHAT, got VALUE". */
void sql_error_value(sqlite3_context *ctx, const char *func, const char *what, sqlite3_value *v);

#endif /* SQL_ERROR_H */
