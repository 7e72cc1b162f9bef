/*
** in_place_functions.c: the functions that add, remove and probe a filter
** where it is stored, in a table's cell, without reading or writing the
** whole BLOB: bloom_add_in_place, bloom_remove_in_place and
** bloom_might_contain_in_place (rule 19 (in place)), through the filter's kind
** (its _io operations) and sql_stored.h.
*/
#include "sql_api.h"

#include "sql_args.h"
#include "sql_error.h"
#include "sql_function.h"
#include "sql_stored.h"

/* The KEY argument of the in-place functions, after TABLE, COLUMN and ROWID. */
enum { KEY_ARGUMENT = 3 };

/* Sets the error of a filter operation that failed on s with status. */
static void operation_error(stored_filter *s, sqlite3_value *key, filter_status status) {
    if (status == FILTER_ABSENT) {
        sql_error_not_removed(s->ctx, s->func, key);
    } else if (status == FILTER_FULL) {
        sql_error_full(s->ctx, s->func, "the key", s->view.kind);
    } else {
        stored_io_error(s);
    }
}

/* The writers: add or remove KEY where func's filter is stored, and set the result, 1, or for an
** add, 1 when the key was certainly not in the filter before and 0 when it may have been; NULL
** for a NULL key. */
static void write_in_place(sqlite3_context *ctx, sqlite3_value **argv, const char *func,
                           int removing) {
    stored_filter s;
    key_hash key;
    int read = sql_read_key(ctx, argv[KEY_ARGUMENT], &key), result = 1;
    if (read != SQL_KEY_HASHED || !stored_open(ctx, func, argv, 1, &s)) {
        return;
    }
    filter_io io = stored_io(&s);
    const filter_kind *kind = s.view.kind;
    if (removing && kind->remove_io == NULL) {
        sql_error_cannot_remove(ctx, func, kind);
    } else {
        filter_status status = removing ? kind->remove_io(&s.view, &io, key)
                                        : kind->add_io(&s.view, &io, key, &result);
        if (status == FILTER_FULL && kind->grow_size != NULL) {
            if (stored_add_growing(&s, key)) {
                sqlite3_result_int(ctx, 1);
            }
        } else if (status != FILTER_OK) {
            operation_error(&s, argv[KEY_ARGUMENT], status);
        } else if (stored_commit(&s)) {
            sqlite3_result_int(ctx, result);
        }
    }
    stored_close(&s);
}

/* bloom_add_in_place(TABLE, COLUMN, ROWID, KEY): rule 19 (in place). */
static void add_in_place_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    write_in_place(ctx, argv, "bloom_add_in_place", 0);
}

/* bloom_remove_in_place(TABLE, COLUMN, ROWID, KEY): rules 19 (in place) and 20 (remove). */
static void remove_in_place_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    write_in_place(ctx, argv, "bloom_remove_in_place", 1);
}

/* bloom_might_contain_in_place(TABLE, COLUMN, ROWID, KEY): rule 19 (in place). As
** bloom_might_contain; NULL for a NULL key. */
static void might_contain_in_place_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    stored_filter s;
    key_hash key;
    int answer = 0;
    int read = sql_read_key(ctx, argv[KEY_ARGUMENT], &key);
    if (read != SQL_KEY_HASHED || !stored_open(ctx, "bloom_might_contain_in_place", argv, 0, &s)) {
        return;
    }
    filter_io io = stored_io(&s);
    if (s.view.kind->might_contain_io(&s.view, &io, key, &answer) != FILTER_OK) {
        stored_io_error(&s);
    } else {
        sqlite3_result_int(ctx, answer);
    }
    stored_close(&s);
}

const sql_function in_place_functions[] = {
    {"bloom_add_in_place", 4, add_in_place_func, NULL, NULL, NULL, SQL_WRITES_TABLES},
    SQL_WRONG_ARGUMENTS("bloom_add_in_place",
                        "the form is bloom_add_in_place(table, column, rowid, key)"),
    {"bloom_remove_in_place", 4, remove_in_place_func, NULL, NULL, NULL, SQL_WRITES_TABLES},
    SQL_WRONG_ARGUMENTS("bloom_remove_in_place",
                        "the form is bloom_remove_in_place(table, column, rowid, key)"),
    {"bloom_might_contain_in_place", 4, might_contain_in_place_func, NULL, NULL, NULL,
     SQL_READS_TABLES},
    SQL_WRONG_ARGUMENTS("bloom_might_contain_in_place",
                        "the form is bloom_might_contain_in_place(table, column, rowid, key)"),
    {NULL, 0, NULL, NULL, NULL, NULL, 0},
};
