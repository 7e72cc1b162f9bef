/*
** countmin_functions.c: the functions of the count-min sketch (rules 23
** (count-min sketch) to 25 (count-min in place)): cms_build, cms_empty,
** cms_count, cms_add, cms_union, cms_info, cms_add_in_place and
** cms_count_in_place. The functions every kind answers serve a sketch too:
** bloom_might_contain (an estimate above 0), bloom_add (a count of 1),
** bloom_union and bloom_info.
*/
#include "countmin_functions.h"

#include "countmin_core.h"
#include "filter_kinds.h"
#include "sql_args.h"
#include "sql_error.h"
#include "sql_filter.h"
#include "sql_stored.h"

#include <string.h>

/* read, what a reader of a filter argument found (the filter into f); but SQL_FILTER_ERROR,
** after setting the error of func, when f is a filter of another kind than a sketch. */
static int cms_sketch_only(sqlite3_context *ctx, const char *func, int read, const filter_view *f) {
    if (read == SQL_FILTER_READ && f->kind != &countmin_kind) {
        sql_errorf(ctx,
                   "%s: the filter is a '%s' filter, not a count-min sketch; build one with "
                   "cms_build",
                   func, f->kind->name);
        return SQL_FILTER_ERROR;
    }
    return read;
}

/* Reads a sketch argument: sql_read_filter_arg's results, with SQL_FILTER_ERROR for a filter of
** another kind. */
static int cms_read_sketch(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                           sqlite3_value *key, filter_view *f) {
    return cms_sketch_only(ctx, func, sql_read_filter_arg(ctx, func, v, key, f), f);
}

/* What read_count found. */
enum { COUNT_READ = 1, COUNT_NULL = 2 };

/* Reads a COUNT argument (rule 23 (count-min sketch)): a whole number from 0 to 2^63 - 1 into
** *count: COUNT_READ, COUNT_NULL, or 0 after setting the error. */
static int cms_read_count(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                          uint64_t *count) {
    double r = sqlite3_value_double(v);
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        return COUNT_NULL;
    case SQLITE_INTEGER:
        if (sqlite3_value_int64(v) >= 0) {
            *count = (uint64_t)sqlite3_value_int64(v);
            return COUNT_READ;
        }
        break;
    case SQLITE_FLOAT:
        if (r >= 0 && r < 9223372036854775808.0 && r == floor(r)) {
            *count = (uint64_t)r;
            return COUNT_READ;
        }
        break;
    }
    sql_error_value(ctx, func, "count must be a whole number from 0 to 9223372036854775807", v);
    return 0;
}

/* Reads EPSILON or DELTA, named what: a REAL strictly between 0 and 1. 0 after setting the
** error. */
static int cms_read_bound(sqlite3_context *ctx, const char *func, const char *what,
                          sqlite3_value *v, double *out) {
    *out = sqlite3_value_double(v);
    if (sqlite3_value_type(v) == SQLITE_FLOAT && filter_check_rate(*out) == FILTER_OK) {
        return 1;
    }
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s must be between 0 and 1 (exclusive)", what);
    char *text = sqlite3_str_finish(s);
    if (text == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    sql_error_value(ctx, func, text, v);
    sqlite3_free(text);
    return 0;
}

/* Reads UPDATE: 'plain' or 'conservative', in any case, without a copy of it (sql_text_is).
** 0 after setting the error. */
static int cms_read_update(sqlite3_context *ctx, const char *func, sqlite3_value *v, int *update) {
    for (*update = COUNTMIN_PLAIN; countmin_update_name(*update) != NULL; (*update)++) {
        if (sql_text_is(v, countmin_update_name(*update))) {
            return 1;
        }
    }
    sql_error_value(ctx, func, "update must be 'plain' or 'conservative'", v);
    return 0;
}

/* The parameters of a sketch as its builders take them. */
typedef struct cms_parameters {
    double epsilon, delta;
    int update;
} cms_parameters;

/* Reads EPSILON, DELTA and, when update is not NULL, UPDATE into *out. 0 after setting the
** error. */
static int cms_read_parameters(sqlite3_context *ctx, const char *func, sqlite3_value *epsilon,
                               sqlite3_value *delta, sqlite3_value *update, cms_parameters *out) {
    out->update = COUNTMIN_PLAIN;
    return cms_read_bound(ctx, func, "epsilon", epsilon, &out->epsilon) &&
           cms_read_bound(ctx, func, "delta", delta, &out->delta) &&
           (update == NULL || cms_read_update(ctx, func, update, &out->update));
}

/* A new, empty sketch for the parameters, in memory from sqlite3_malloc64, into *blob and
** *bytes. 0 after setting the error (rule 13 (memory and limits)). */
static int cms_new_sketch(sqlite3_context *ctx, const char *func, const cms_parameters *sp,
                          uint8_t **blob, uint64_t *bytes) {
    countmin_header h;
    double bytes_needed;
    filter_status status = countmin_size(sp->epsilon, sp->delta, sp->update, &h, &bytes_needed);
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    if (status == FILTER_TOO_MANY_HASHES) {
        sql_errorf(ctx, "%s: delta = %!.15g needs a depth of more than %d rows", func, sp->delta,
                   COUNTMIN_DEPTH_MAX);
        return 0;
    }
    if (status != FILTER_OK || bytes_needed > (double)limit) {
        char bytes_text[40]; /* a tiny epsilon needs hundreds of digits: then in e notation */
        sqlite3_snprintf(sizeof bytes_text, bytes_text, bytes_needed < 1e20 ? "%.0f" : "%.3e",
                         bytes_needed);
        if (sql_errorf(ctx,
                       "%s: a sketch for epsilon = %!.15g and delta = %!.15g needs %s bytes, "
                       "more than the length limit of %d bytes",
                       func, sp->epsilon, sp->delta, bytes_text, limit)) {
            sqlite3_result_error_code(ctx, SQLITE_TOOBIG);
        }
        return 0;
    }
    *bytes = (uint64_t)bytes_needed;
    *blob = sqlite3_malloc64(*bytes);
    if (*blob == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    memset(*blob, 0, *bytes);
    countmin_write_header(*blob, &h);
    return 1;
}

/* Adds count to key in the sketch in blob (memory). 0 after setting the error of func. */
static int cms_add_count(sqlite3_context *ctx, const char *func, uint8_t *blob, key_hash key,
                         uint64_t count) {
    filter_view f = {&countmin_kind, 0, 0, 0, blob, 0}; /* countmin_add_io reads its header */
    filter_io io = filter_io_memory(blob);
    uint64_t estimate;
    if (countmin_add_io(&f, &io, key, count, &estimate) == FILTER_FULL) {
        sql_error_full(ctx, func, "the count", &countmin_kind);
        return 0;
    }
    return 1;
}

/* A view of the sketch in blob (bytes long), enough to hash keys for it and add to it. */
static filter_view cms_view(const uint8_t *blob, uint64_t bytes) {
    filter_view f = {&countmin_kind, 0, 0, countmin_kind.key_hash, blob, bytes};
    return f;
}

/* The state of cms_build, zeroed by SQLite before the first row. */
typedef struct cms_build_state {
    int failed; /* a row failed: xFinal only frees */
    cms_parameters parameters;
    uint8_t *blob; /* allocated on the first row */
    uint64_t bytes;
} cms_build_state;

/* Checks that the parameters of a row are those of the group's first row (rule 3
** (parameters)). 0 after setting the error, which shows both. */
static int cms_same_parameters(sqlite3_context *ctx, const cms_parameters *first,
                               const cms_parameters *now) {
    sqlite3_str *s;
    if (now->update != first->update) {
        sql_errorf(ctx,
                   "cms_build: update must be the same for all rows of a group, got '%s' after "
                   "'%s'",
                   countmin_update_name(now->update), countmin_update_name(first->update));
        return 0;
    }
    const char *which = now->epsilon != first->epsilon ? "epsilon"
                        : now->delta != first->delta   ? "delta"
                                                       : NULL;
    if (which == NULL) {
        return 1;
    }
    double got = which[0] == 'e' ? now->epsilon : now->delta;
    double after = which[0] == 'e' ? first->epsilon : first->delta;
    s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "cms_build: %s must be the same for all rows of a group, got ", which);
    sql_append_real(s, got, after);
    sqlite3_str_appendall(s, " after ");
    sql_append_real(s, after, got);
    sql_error_from_str(ctx, s);
    return 0;
}

/* Whether the EPSILON, DELTA and UPDATE (NULL without one) of a later row of a group are
** certainly its first row's, found with the fewest calls into SQLite: the same REALs and the
** first row's update in any case. 0 says only that the row must be read the long way, which
** gives an error for what differs. */
static int cms_build_same_as_first(const cms_parameters *first, sqlite3_value *epsilon,
                                   sqlite3_value *delta, sqlite3_value *update) {
    return sqlite3_value_type(epsilon) == SQLITE_FLOAT &&
           sqlite3_value_double(epsilon) == first->epsilon &&
           sqlite3_value_type(delta) == SQLITE_FLOAT &&
           sqlite3_value_double(delta) == first->delta &&
           (update == NULL || sql_text_is(update, countmin_update_name(first->update)));
}

/* Reads the EPSILON, DELTA and UPDATE of a row of cms_build (its first at argv[first]) and,
** on the group's first row, makes its sketch; on a later one, checks them against the first
** row's (rule 3 (parameters)). 0 after setting the error. */
static int cms_build_read_parameters(sqlite3_context *ctx, cms_build_state *st, int argc,
                                     sqlite3_value **argv, int first) {
    cms_parameters parameters;
    if (argc == 4 && sqlite3_value_type(argv[3]) == SQLITE_TEXT) { /* an update without a count */
        sqlite3_str *s =
            sql_error_start("cms_build", "delta must be between 0 and 1 (exclusive)", argv[3]);
        sqlite3_str_appendall(s, "; with an update the form is cms_build(key, count, epsilon, "
                                 "delta, update): cms_build(key, 1, epsilon, delta, update) "
                                 "counts each row once");
        sql_error_from_str(ctx, s);
        return 0;
    }
    if (!cms_read_parameters(ctx, "cms_build", argv[first], argv[first + 1],
                             argc == 5 ? argv[4] : NULL, &parameters)) {
        return 0;
    }
    if (st->blob != NULL) {
        return cms_same_parameters(ctx, &st->parameters, &parameters);
    }
    st->parameters = parameters;
    return cms_new_sketch(ctx, "cms_build", &parameters, &st->blob, &st->bytes);
}

/* cms_build(KEY [, COUNT], EPSILON, DELTA [, UPDATE]), one row: rule 23 (count-min sketch). */
static void cms_build_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    cms_build_state *st = sqlite3_aggregate_context(ctx, sizeof *st);
    key_hash key;
    uint64_t count = 1;
    int first = argc == 3 ? 1 : 2; /* EPSILON */
    if (st == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (st->failed) {
        return;
    }
    int ok =
        (st->blob != NULL && cms_build_same_as_first(&st->parameters, argv[first], argv[first + 1],
                                                     argc == 5 ? argv[4] : NULL)) ||
        cms_build_read_parameters(ctx, st, argc, argv, first);
    filter_view sketch = cms_view(st->blob, st->bytes);
    int key_read = ok ? sql_read_key(ctx, argv[0], &sketch, &key) : SQL_KEY_NULL;
    int count_read =
        ok && argc > 3 ? cms_read_count(ctx, "cms_build", argv[1], &count) : COUNT_READ;
    ok = ok && key_read != SQL_KEY_ERROR && count_read != 0;
    if (ok && key_read == SQL_KEY_READ && count_read == COUNT_READ) {
        ok = cms_add_count(ctx, "cms_build", st->blob, key, count);
    }
    st->failed = !ok;
}

/* cms_build: the sketch; NULL over zero rows. */
static void cms_build_final(sqlite3_context *ctx) {
    cms_build_state *st = sqlite3_aggregate_context(ctx, 0);
    if (st == NULL) {
        return;
    }
    if (!st->failed && st->blob != NULL) {
        sqlite3_result_blob64(ctx, st->blob, st->bytes, sqlite3_free);
    } else {
        sqlite3_free(st->blob);
    }
    st->blob = NULL;
}

/* cms_empty(EPSILON, DELTA [, UPDATE]): rule 23 (count-min sketch). */
static void cms_empty_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    cms_parameters parameters;
    uint8_t *blob;
    uint64_t bytes;
    if (cms_read_parameters(ctx, "cms_empty", argv[0], argv[1], argc > 2 ? argv[2] : NULL,
                            &parameters) &&
        cms_new_sketch(ctx, "cms_empty", &parameters, &blob, &bytes)) {
        sqlite3_result_blob64(ctx, blob, bytes, sqlite3_free);
    }
}

/* cms_count(SKETCH, KEY): rule 24 (count). NULL for a NULL sketch or key. */
static void cms_count_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    filter_view f;
    key_hash key;
    int read = cms_sketch_only(ctx, "cms_count",
                               sql_read_probe_filter(ctx, "cms_count", "sketch", argv, &f), &f);
    if (read == SQL_FILTER_READ && sql_read_key(ctx, argv[1], &f, &key) == SQL_KEY_READ) {
        sqlite3_result_int64(ctx, (sqlite3_int64)countmin_estimate(&f, key));
    }
}

/* cms_add(SKETCH, KEY [, COUNT]): rule 23 (count-min sketch). A copy of SKETCH with COUNT (1)
** added to KEY; SKETCH itself for a NULL key or count. */
static void cms_add_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    filter_view f;
    key_hash key;
    uint64_t count = 1;
    if (cms_read_sketch(ctx, "cms_add", argv[0], argv[1], &f) != SQL_FILTER_READ) {
        return;
    }
    int key_read = sql_read_key(ctx, argv[1], &f, &key);
    int count_read = argc > 2 ? cms_read_count(ctx, "cms_add", argv[2], &count) : COUNT_READ;
    if (key_read == SQL_KEY_ERROR || count_read == 0) {
        return;
    }
    uint8_t *blob = sqlite3_malloc64(f.bytes);
    if (blob == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    filter_copy(blob, &f);
    if (key_read == SQL_KEY_NULL || count_read == COUNT_NULL ||
        cms_add_count(ctx, "cms_add", blob, key, count)) {
        sqlite3_result_blob64(ctx, blob, f.bytes, sqlite3_free);
    } else {
        sqlite3_free(blob);
    }
}

/* cms_union(A, B): rule 23 (count-min sketch), as bloom_union. */
static void cms_union_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    sql_union_of_two(ctx, "cms_union", cms_read_sketch, argv);
}

/* cms_union(SKETCH), one row: rule 23 (count-min sketch), as bloom_union. */
static void cms_union_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    sql_union_step(ctx, "cms_union", cms_read_sketch, argv[0]);
}

/* cms_info(SKETCH): rule 11 (info), for a sketch. */
static void cms_info_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    filter_view f;
    if (cms_read_sketch(ctx, "cms_info", argv[0], NULL, &f) == SQL_FILTER_READ) {
        sql_info_result(ctx, &f);
    }
}

/* The arguments of the in-place functions after TABLE, COLUMN and ROWID. */
enum { KEY_ARGUMENT = 3, COUNT_ARGUMENT = 4 };

/* Opens the sketch of an in-place function (rule 19 (in place)) once KEY and COUNT are read:
** 1, or 0 after setting the error (s then needs no close). */
static int cms_open_stored_sketch(sqlite3_context *ctx, const char *func, sqlite3_value **argv,
                                  int writable, stored_filter *s) {
    if (!stored_open(ctx, func, argv, writable, s)) {
        return 0;
    }
    if (s->view.kind != &countmin_kind) {
        sql_errorf(ctx, "%s: %s holds a '%s' filter, not a count-min sketch", func, s->where,
                   s->view.kind->name);
        stored_close(s);
        return 0;
    }
    return 1;
}

/* cms_add_in_place(TABLE, COLUMN, ROWID, KEY [, COUNT]): rule 25 (count-min in place). The key's
** estimate after adding; NULL for a NULL key or count. */
static void cms_add_in_place_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    const char *func = "cms_add_in_place";
    stored_filter s;
    key_value key;
    uint64_t count = 1, estimate;
    int key_read = sql_read_key_value(ctx, argv[KEY_ARGUMENT], &key);
    int count_read = argc > COUNT_ARGUMENT ? cms_read_count(ctx, func, argv[COUNT_ARGUMENT], &count)
                                           : COUNT_READ;
    if (key_read != SQL_KEY_READ || count_read != COUNT_READ ||
        !cms_open_stored_sketch(ctx, func, argv, 1, &s)) {
        return;
    }
    filter_io io = stored_io(&s);
    filter_status status =
        countmin_add_io(&s.view, &io, filter_hash_key(&s.view, &key), count, &estimate);
    if (status == FILTER_FULL) {
        sql_error_full(ctx, func, "the count", &countmin_kind);
    } else if (status != FILTER_OK) {
        stored_io_error(&s);
    } else if (stored_commit(&s)) {
        sqlite3_result_int64(ctx, (sqlite3_int64)estimate);
    }
    stored_close(&s);
}

/* cms_count_in_place(TABLE, COLUMN, ROWID, KEY): rule 25 (count-min in place). */
static void cms_count_in_place_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    stored_filter s;
    key_value key;
    uint64_t estimate;
    if (sql_read_key_value(ctx, argv[KEY_ARGUMENT], &key) != SQL_KEY_READ ||
        !cms_open_stored_sketch(ctx, "cms_count_in_place", argv, 0, &s)) {
        return;
    }
    filter_io io = stored_io(&s);
    if (countmin_estimate_io(&s.view, &io, filter_hash_key(&s.view, &key), &estimate) !=
        FILTER_OK) {
        stored_io_error(&s);
    } else {
        sqlite3_result_int64(ctx, (sqlite3_int64)estimate);
    }
    stored_close(&s);
}

const sql_function countmin_functions[] = {
    {.name = "cms_build",
     .nargs = 3,
     .step = cms_build_step,
     .final = cms_build_final,
     .effects = SQL_PURE},
    {.name = "cms_build",
     .nargs = 4,
     .step = cms_build_step,
     .final = cms_build_final,
     .effects = SQL_PURE},
    {.name = "cms_build",
     .nargs = 5,
     .step = cms_build_step,
     .final = cms_build_final,
     .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS_AGGREGATE("cms_build", "the forms are cms_build(key, epsilon, delta), "
                                               "cms_build(key, count, epsilon, delta) and "
                                               "cms_build(key, count, epsilon, delta, update)"),
    {.name = "cms_empty", .nargs = 2, .func = cms_empty_func, .effects = SQL_PURE},
    {.name = "cms_empty", .nargs = 3, .func = cms_empty_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("cms_empty", "the forms are cms_empty(epsilon, delta) and "
                                     "cms_empty(epsilon, delta, update)"),
    {.name = "cms_count", .nargs = 2, .func = cms_count_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("cms_count", "the form is cms_count(sketch, key)"),
    {.name = "cms_add", .nargs = 2, .func = cms_add_func, .effects = SQL_PURE},
    {.name = "cms_add", .nargs = 3, .func = cms_add_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("cms_add",
                        "the forms are cms_add(sketch, key) and cms_add(sketch, key, count)"),
    {.name = "cms_union", .nargs = 2, .func = cms_union_func, .effects = SQL_PURE},
    {.name = "cms_union",
     .nargs = 1,
     .step = cms_union_step,
     .final = sql_union_final,
     .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("cms_union", "the forms are cms_union(a, b), a scalar, and "
                                     "cms_union(sketch), an aggregate"),
    {.name = "cms_info", .nargs = 1, .func = cms_info_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("cms_info", "the form is cms_info(sketch)"),
    {.name = "cms_add_in_place",
     .nargs = 4,
     .func = cms_add_in_place_func,
     .effects = SQL_WRITES_TABLES},
    {.name = "cms_add_in_place",
     .nargs = 5,
     .func = cms_add_in_place_func,
     .effects = SQL_WRITES_TABLES},
    SQL_WRONG_ARGUMENTS("cms_add_in_place",
                        "the forms are cms_add_in_place(table, column, rowid, key) and "
                        "cms_add_in_place(table, column, rowid, key, count)"),
    {.name = "cms_count_in_place",
     .nargs = 4,
     .func = cms_count_in_place_func,
     .effects = SQL_READS_TABLES},
    SQL_WRONG_ARGUMENTS("cms_count_in_place",
                        "the form is cms_count_in_place(table, column, rowid, key)"),
    {.name = NULL}, /* the end */
};
