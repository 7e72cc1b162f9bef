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
** when it is a bound parameter (rule 8 (validation)): SQL_FILTER_READ, or SQL_FILTER_ERROR
** after setting the error, also for a NULL FILTER (rule 7 (probe)), which noun ("filter",
** "sketch") names. */
int sql_read_probe_filter(sqlite3_context *ctx, const char *func, const char *noun,
                          sqlite3_value **argv, filter_view *f);

/* A copy of f, as this code writes its kind, in memory from sqlite3_malloc64, and in *copy a
** view of it. Returns NULL after setting a NOMEM error. */
uint8_t *sql_copy_filter(sqlite3_context *ctx, const filter_view *f, filter_view *copy);

/* Memory from sqlite3_malloc64 for a filter of bytes bytes that func makes from foreign bytes
** (bloom_from_parquet's, bloom_from_spark's). Returns NULL after setting the error: TOOBIG past
** SQLITE_LIMIT_LENGTH, or NOMEM. */
uint8_t *sql_allocate_filter(sqlite3_context *ctx, const char *func, uint64_t bytes);

/* Reads func's filter argument v into *f when it is a filter of kind (called noun in the
** message): 1, else 0 after setting the error (a NULL filter's, or of a filter of another kind,
** saying to build one with bloom_build(key, n, p, 'NAME')). For the converters to a foreign
** format (bloom_to_parquet, bloom_to_spark). */
int sql_read_filter_of_kind(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                            const filter_kind *kind, const char *noun, filter_view *f);

/* Reads func's argument v, a foreign format's bytes (what: what they must be), into *bytes and
** *length: 1, else 0 after setting the error (not a BLOB, or NOMEM). v is not NULL. For the
** converters from a foreign format (bloom_from_parquet, bloom_from_spark). */
int sql_read_foreign_bytes(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                           const char *what, const uint8_t **bytes, int *length);

/* Hands the filter blob (bytes long, from sqlite3_malloc64) to SQLite as the result. */
void sql_result_filter(sqlite3_context *ctx, uint8_t *blob, uint64_t bytes);

/* A reader of a function's filter argument v (with its key, or NULL) into *f: sql_read_filter_arg,
** or one that takes fewer kinds; sql_read_filter_arg's results. */
typedef int (*sql_filter_reader)(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                                 sqlite3_value *key, filter_view *f);

/* func(A, B), a union (rule 10 (union)), its arguments read by read: a copy of the longer with
** the other merged in, or the error of two filters that cannot be merged. */
void sql_union_of_two(sqlite3_context *ctx, const char *func, sql_filter_reader read,
                      sqlite3_value **argv);

/* func(FILTER), a union aggregate's step for a row's v, read by read: merged into the union so
** far (a NULL adds nothing); after an error, the rows that follow do nothing. */
void sql_union_step(sqlite3_context *ctx, const char *func, sql_filter_reader read,
                    sqlite3_value *v);

/* A union aggregate's xFinal: the union of every non-NULL filter, NULL if there is none. */
void sql_union_final(sqlite3_context *ctx);

/* The result of an info function (rule 11 (info)): f's prelude, then its kind's fields, as
** JSON. */
void sql_info_result(sqlite3_context *ctx, const filter_view *f);

#endif /* SQL_FILTER_H */
