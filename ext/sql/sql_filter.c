/*
** sql_filter.c: what the functions every kind answers (filter_functions.c)
** lend to the functions of one kind (countmin_functions.c). See sql_filter.h.
*/
#include "sql_filter.h"

#include "filter_kinds.h"
#include "sql_args.h"
#include "sql_error.h"
#include "sql_json.h"

#include <string.h>

/*
** Reads the non-NULL FILTER argument of a probe, validated once per statement
** when it is a bound parameter (rule 8 (validation)): SQLite keeps auxdata on a
** constant argument for the whole statement, and a bound parameter cannot
** change while the statement runs, so the view of the first row serves every
** row. Its one allocation is made on the first row; without it, every row
** validates.
*/
int sql_read_probe_filter(sqlite3_context *ctx, const char *func, const char *noun,
                          sqlite3_value **argv, filter_view *f) {
    const filter_view *kept = sqlite3_get_auxdata(ctx, 0);
    if (kept != NULL && sqlite3_value_blob(argv[0]) == kept->blob) {
        *f = *kept;
        return SQL_FILTER_READ;
    }
    int read = sql_read_filter_arg(ctx, func, argv[0], argv[1], f);
    if (read == SQL_FILTER_NULL) {
        sql_errorf(ctx,
                   "%s: the %s is NULL, which holds no key: a subquery that found no row (is "
                   "the name it looks for right?) or a NULL cell (to skip those, test the column "
                   "IS NOT NULL first)",
                   func, noun);
        return SQL_FILTER_ERROR;
    }
    if (read == SQL_FILTER_READ && sqlite3_value_frombind(argv[0])) {
        filter_view *copy = sqlite3_malloc(sizeof *copy);
        if (copy != NULL) {
            *copy = *f;
            sqlite3_set_auxdata(ctx, 0, copy, sqlite3_free);
        }
    }
    return read;
}

uint8_t *sql_copy_filter(sqlite3_context *ctx, const filter_view *f, filter_view *copy) {
    uint8_t *blob = sqlite3_malloc64(f->bytes);
    if (blob == NULL) {
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    filter_copy(blob, f);
    *copy = *f;
    copy->blob = blob;
    copy->version = copy->min_reader_version = f->kind->format_version;
    return blob;
}

int sql_read_filter_of_kind(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                            const filter_kind *kind, const char *noun, filter_view *f) {
    if (sql_read_filter_arg(ctx, func, v, NULL, f) != SQL_FILTER_READ) {
        return 0; /* NULL, or the error set */
    }
    if (f->kind != kind) {
        sql_errorf(ctx,
                   "%s: the filter is a '%s' filter, not a %s one; build one with "
                   "bloom_build(key, n, p, '%s')",
                   func, f->kind->name, noun, kind->name);
        return 0;
    }
    return 1;
}

int sql_read_foreign_bytes(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                           const char *what, const uint8_t **bytes, int *length) {
    if (sqlite3_value_type(v) != SQLITE_BLOB) {
        sql_error_value(ctx, func, what, v);
        return 0;
    }
    *bytes = sqlite3_value_blob(v);
    *length = sqlite3_value_bytes(v);
    if (*bytes == NULL && *length > 0) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    return 1;
}

uint8_t *sql_allocate_filter(sqlite3_context *ctx, const char *func, uint64_t bytes) {
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    if (bytes > (uint64_t)limit) {
        if (sql_errorf(ctx,
                       "%s: the filter would have %llu bytes, more than the length limit of %d "
                       "bytes",
                       func, (unsigned long long)bytes, limit)) {
            sqlite3_result_error_code(ctx, SQLITE_TOOBIG);
        }
        return NULL;
    }
    uint8_t *blob = sqlite3_malloc64(bytes);
    if (blob == NULL) {
        sqlite3_result_error_nomem(ctx);
    }
    return blob;
}

void sql_result_filter(sqlite3_context *ctx, uint8_t *blob, uint64_t bytes) {
    sqlite3_result_blob64(ctx, blob, bytes, sqlite3_free);
}

/* Checks that b can be merged into a (rule 10 (union)); sets the error of func otherwise. */
static int sql_filter_compatible(sqlite3_context *ctx, const char *func, const filter_view *a,
                                 const filter_view *b) {
    char why[FILTER_WHY_MAX];
    if (filter_compatible(a, b, why) != FILTER_OK) {
        sql_errorf(ctx, "%s: %s", func, why);
        return 0;
    }
    return 1;
}

/* Merges b into a copy of a, or a into a copy of b when b is the longer (filter_kind's
** merge): the copy, or NULL after setting the error of func. */
static uint8_t *sql_filter_merged_copy(sqlite3_context *ctx, const char *func, const filter_view *a,
                                       const filter_view *b, filter_view *copy) {
    if (b->bytes > a->bytes) {
        const filter_view *longer = b;
        b = a;
        a = longer;
    }
    uint8_t *blob = sql_copy_filter(ctx, a, copy);
    if (blob != NULL && filter_merge(blob, b) != FILTER_OK) { /* FILTER_FULL */
        sqlite3_free(blob);
        sql_error_full(ctx, func, "the union", a->kind);
        return NULL;
    }
    return blob;
}

/* The result of func(A, B), a union: a copy of the longer with the other merged in, or the error
** of two filters that cannot be merged. */
static void sql_union_pair(sqlite3_context *ctx, const char *func, const filter_view *a,
                           const filter_view *b) {
    filter_view copy;
    if (!sql_filter_compatible(ctx, func, a, b)) {
        return;
    }
    uint8_t *blob = sql_filter_merged_copy(ctx, func, a, b, &copy);
    if (blob != NULL) {
        sql_result_filter(ctx, blob, copy.bytes);
    }
}

/* The state of a union aggregate, zeroed by SQLite before the first row. */
typedef struct union_state {
    int failed;       /* a row failed: xFinal only frees */
    uint8_t *blob;    /* the union so far, allocated on the first non-NULL filter */
    filter_view view; /* a view of blob */
} union_state;

/* The state of the union aggregate of ctx, or NULL after setting NOMEM. */
static union_state *sql_union_state(sqlite3_context *ctx) {
    union_state *st = sqlite3_aggregate_context(ctx, sizeof *st);
    if (st == NULL) {
        sqlite3_result_error_nomem(ctx);
    }
    return st;
}

/* Merges f, a row's non-NULL filter, into the union so far; sets st->failed after setting the
** error of func. */
static void sql_union_row(sqlite3_context *ctx, const char *func, union_state *st,
                          const filter_view *f) {
    filter_view copy;
    /* A kind that does not merge is refused also alone (rule 30 (static filters)). */
    if (!filter_kind_can(f->kind, FILTER_MERGES)) {
        sql_error_cannot(ctx, func, f->kind, FILTER_MERGES);
        st->failed = 1;
    } else if (st->blob != NULL && !sql_filter_compatible(ctx, func, &st->view, f)) {
        st->failed = 1;
    } else if (st->blob == NULL) {
        st->blob = sql_copy_filter(ctx, f, &st->view);
        st->failed = st->blob == NULL;
    } else if (f->bytes > st->view.bytes) {
        uint8_t *blob = sql_filter_merged_copy(ctx, func, &st->view, f, &copy);
        sqlite3_free(st->blob);
        st->blob = blob;
        st->view = copy;
        st->failed = blob == NULL;
    } else if (filter_merge(st->blob, f) != FILTER_OK) {
        sql_error_full(ctx, func, "the union", st->view.kind);
        st->failed = 1;
    }
}

void sql_union_of_two(sqlite3_context *ctx, const char *func, sql_filter_reader read,
                      sqlite3_value **argv) {
    filter_view a, b;
    if (read(ctx, func, argv[0], NULL, &a) == SQL_FILTER_READ &&
        read(ctx, func, argv[1], NULL, &b) == SQL_FILTER_READ) {
        sql_union_pair(ctx, func, &a, &b);
    }
}

void sql_union_step(sqlite3_context *ctx, const char *func, sql_filter_reader read,
                    sqlite3_value *v) {
    union_state *st = sql_union_state(ctx);
    filter_view f;
    if (st != NULL && !st->failed) {
        int found = read(ctx, func, v, NULL, &f);
        if (found == SQL_FILTER_READ) {
            sql_union_row(ctx, func, st, &f);
        }
        st->failed = found == SQL_FILTER_ERROR || st->failed;
    }
}

void sql_union_final(sqlite3_context *ctx) {
    union_state *st = sqlite3_aggregate_context(ctx, 0);
    if (st == NULL) {
        return;
    }
    if (!st->failed && st->blob != NULL) {
        sql_result_filter(ctx, st->blob, st->view.bytes);
    } else {
        sqlite3_free(st->blob);
    }
    st->blob = NULL;
}

void sql_info_result(sqlite3_context *ctx, const filter_view *f) {
    sqlite3_str *json = sqlite3_str_new(sqlite3_context_db_handle(ctx));
    sql_json_info(json, f);
    sql_result_json(ctx, json);
}
