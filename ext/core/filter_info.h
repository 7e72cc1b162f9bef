/*
** filter_info.h: the JSON text of bloom_info (rule 11 (info)), written by the
** core for every reader of the format: each kind writes its own fields (its
** info slot, filter.h) through these helpers into an info_sink, which only
** appends text. The SQL side's sink is an sqlite3_str
** (sql_json.c), the WebAssembly reader's a buffer (wasm_reader.c): both write
** the same fields in the same order from the same code.
*/
#ifndef FILTER_INFO_H
#define FILTER_INFO_H

#include "filter.h"

#include <stdint.h>

/* Where the text goes: a way to append it, and where in the JSON the next value is. Numbers
** are written here (real_text.h), so that every sink gets the same text. */
typedef struct info_sink {
    /* Appends text, NUL-terminated, as it is. */
    void (*text)(struct info_sink *sink, const char *text);
    /* Set by the helpers below: 1 right after an opening { or [, where the next value needs no
    ** comma before it. */
    int first;
} info_sink;

/* Writes the whole JSON object of bloom_info for f into sink: the prelude's fields, then the
** kind's (its info slot). O(what the kind's fields measure, at most the filter's bytes). */
void filter_info(const filter_view *f, info_sink *sink);

/* Each helper appends one field, "name":value, after a comma unless it is the first of its
** object. */

/* A count. */
void info_count(info_sink *sink, const char *name, uint64_t v);

/* A signed integer (a Spark filter's seed). */
void info_integer(info_sink *sink, const char *name, int64_t v);

/* A real with 15 significant digits, ties away from zero, as SQLite's %!.15g writes it:
** "0.01", "1.0", "1.0e-05". */
void info_real(info_sink *sink, const char *name, double v);

/* An estimate with one decimal, ties away from zero, or null when infinite (nothing to
** estimate from). */
void info_estimate(info_sink *sink, const char *name, double v);

/* A string, without escapes (the core's names need none), or null when v is NULL. */
void info_string(info_sink *sink, const char *name, const char *v);

/* true or false. */
void info_flag(info_sink *sink, const char *name, int v);

/* null. */
void info_null(info_sink *sink, const char *name);

/* "name":[ : a list, whose values info_object_begin opens. */
void info_list_begin(info_sink *sink, const char *name);

/* ] : the end of the list info_list_begin opened. */
void info_list_end(info_sink *sink);

/* { : an object in a list, after a comma unless it is the list's first. */
void info_object_begin(info_sink *sink);

/* } : the end of the object info_object_begin opened. */
void info_object_end(info_sink *sink);

#endif /* FILTER_INFO_H */
