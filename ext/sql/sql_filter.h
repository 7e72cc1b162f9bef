/*
** sql_filter.h: what the functions every kind answers (filter_functions.c)
** lend to the functions of one kind (countmin_functions.c), which read and
** check their own arguments and so name themselves in messages: a probe's
** filter, a copy, a union, an info.
*/
#ifndef SQL_FILTER_H
#define SQL_FILTER_H

#include "sql_api.h"

#include "filter.h"

/* Reads the FILTER argument argv[0] of a probe func(FILTER, KEY), validated once per statement
** when it is a bound parameter (rule 8 (validation)): sql_read_filter_arg's results. */
int sql_read_probe_filter(sqlite3_context *ctx, const char *func, sqlite3_value **argv,
                          filter_view *f);

/* A copy of f, as this code writes its kind, in memory from sqlite3_malloc64, and in *copy a
** view of it. Returns NULL after setting a NOMEM error. */
uint8_t *sql_copy_filter(sqlite3_context *ctx, const filter_view *f, filter_view *copy);

/* Hands the filter blob (bytes long, from sqlite3_malloc64) to SQLite as the result. */
void sql_result_filter(sqlite3_context *ctx, uint8_t *blob, uint64_t bytes);

/* The result of func(A, B), a union (rule 10 (union)): a copy of the longer with the other
** merged in, or the error of two filters that cannot be merged. */
void sql_union_pair(sqlite3_context *ctx, const char *func, const filter_view *a,
                    const filter_view *b);

/* The state of a union aggregate, zeroed by SQLite before the first row. */
typedef struct union_state {
    int failed;       /* a row failed: xFinal only frees */
    uint8_t *blob;    /* the union so far, allocated on the first non-NULL filter */
    filter_view view; /* a view of blob */
} union_state;

/* The state of the union aggregate of ctx, or NULL after setting NOMEM. */
union_state *sql_union_state(sqlite3_context *ctx);

/* Merges f, a row's non-NULL filter, into the union so far; sets st->failed after setting the
** error of func. */
void sql_union_row(sqlite3_context *ctx, const char *func, union_state *st, const filter_view *f);

/* A union aggregate's xFinal: the union of every non-NULL filter, NULL if there is none. */
void sql_union_final(sqlite3_context *ctx);

/* The result of an info function (rule 11 (info)): f's prelude, then its kind's fields, as
** JSON. */
void sql_info_result(sqlite3_context *ctx, const filter_view *f);

#endif /* SQL_FILTER_H */
