/*
** in_place_functions.c: the functions that add, remove and probe a filter
** where it is stored, in a table's cell, without reading or writing the
** whole BLOB: bloom_add_in_place, bloom_remove_in_place and
** bloom_might_contain_in_place (rule 19 (in place)), through the filter's kind
** (its _io operations) and sql_stored.h.
*/
#include "in_place_functions.h"

#include "filter_kinds.h"
#include "sql_args.h"
#include "sql_error.h"
#include "sql_stored.h"

/* The KEY argument of the in-place functions, after TABLE, COLUMN and ROWID. */
enum { KEY_ARGUMENT = 3 };

/* Sets the error of a filter operation that failed on s with status. */
static void in_place_operation_error(stored_filter *s, sqlite3_value *key, filter_status status) {
    if (status == FILTER_ABSENT) {
        sql_error_not_removed(s->ctx, s->func, key);
    } else if (status == FILTER_REFUSED) {
        char type[FILTER_TYPE_TEXT_MAX];
        sql_error_refused(s->ctx, s->func, key, s->view.kind->value_type(&s->view, type));
    } else if (status == FILTER_FULL) {
        sql_error_full(s->ctx, s->func, "the key", s->view.kind);
    } else {
        stored_io_error(s);
    }
}

/* The writers: add or remove KEY where func's filter is stored, and set the result, 1, or for an
** add, 1 when the key was certainly not in the filter before and 0 when it may have been; NULL
** for a NULL key. */
static void in_place_write(sqlite3_context *ctx, sqlite3_value **argv, const char *func,
                           int removing) {
    stored_filter s;
    key_value value;
    int result = 1;
    if (sql_read_key_value(ctx, argv[KEY_ARGUMENT], &value) != SQL_KEY_READ ||
        !stored_open(ctx, func, argv, 1, &s)) {
        return;
    }
    filter_io io = stored_io(&s);
    const filter_kind *kind = s.view.kind;
    key_hash key = filter_hash_key(&s.view, &value);
    filter_ability ability = removing ? FILTER_REMOVES : FILTER_ADDS_IN_PLACE;
    if (!filter_kind_can(kind, ability)) {
        sql_error_cannot(ctx, func, kind, ability);
    } else {
        filter_status status = removing ? kind->remove_io(&s.view, &io, key)
                                        : kind->add_io(&s.view, &io, key, &result);
        if (status == FILTER_FULL && filter_kind_can(kind, FILTER_GROWS)) {
            if (stored_add_growing(&s, key)) {
                sqlite3_result_int(ctx, 1);
            }
        } else if (status != FILTER_OK) {
            in_place_operation_error(&s, argv[KEY_ARGUMENT], status);
        } else if (stored_commit(&s)) {
            sqlite3_result_int(ctx, result);
        }
    }
    stored_close(&s);
}

/* bloom_add_in_place(TABLE, COLUMN, ROWID, KEY): rule 19 (in place). */
static void bloom_add_in_place_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    in_place_write(ctx, argv, "bloom_add_in_place", 0);
}

/* bloom_remove_in_place(TABLE, COLUMN, ROWID, KEY): rules 19 (in place) and 20 (remove). */
static void bloom_remove_in_place_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    in_place_write(ctx, argv, "bloom_remove_in_place", 1);
}

/* bloom_might_contain_in_place(TABLE, COLUMN, ROWID, KEY): rule 19 (in place). As
** bloom_might_contain; NULL for a NULL key. */
static void bloom_might_contain_in_place_func(sqlite3_context *ctx, int argc,
                                              sqlite3_value **argv) {
    (void)argc;
    stored_filter s;
    key_value value;
    key_hash key;
    int answer = 0;
    char why[FILTER_REFUSAL_MAX];
    const char *func = "bloom_might_contain_in_place";
    if (sql_read_key_value(ctx, argv[KEY_ARGUMENT], &value) != SQL_KEY_READ ||
        !stored_open(ctx, func, argv, 0, &s)) {
        return;
    }
    filter_io io = stored_io(&s);
    if (!filter_kind_can(s.view.kind, FILTER_PROBES_IN_PLACE)) {
        sql_error_cannot(ctx, func, s.view.kind, FILTER_PROBES_IN_PLACE);
    } else if (s.view.kind->might_contain_io(&s.view, &io, key = filter_hash_key(&s.view, &value),
                                             &answer) != FILTER_OK) {
        stored_io_error(&s);
    } else if (!answer && filter_probe_refused(&s.view, key, value.type, why)) {
        sql_error_probe_refused(ctx, func, argv[KEY_ARGUMENT], why);
    } else {
        sqlite3_result_int(ctx, answer);
    }
    stored_close(&s);
}

const sql_function in_place_functions[] = {
    {.name = "bloom_add_in_place",
     .nargs = 4,
     .func = bloom_add_in_place_func,
     .effects = SQL_WRITES_TABLES},
    SQL_WRONG_ARGUMENTS("bloom_add_in_place",
                        "the form is bloom_add_in_place(table, column, rowid, key)"),
    {.name = "bloom_remove_in_place",
     .nargs = 4,
     .func = bloom_remove_in_place_func,
     .effects = SQL_WRITES_TABLES},
    SQL_WRONG_ARGUMENTS("bloom_remove_in_place",
                        "the form is bloom_remove_in_place(table, column, rowid, key)"),
    {.name = "bloom_might_contain_in_place",
     .nargs = 4,
     .func = bloom_might_contain_in_place_func,
     .effects = SQL_READS_TABLES},
    SQL_WRONG_ARGUMENTS("bloom_might_contain_in_place",
                        "the form is bloom_might_contain_in_place(table, column, rowid, key)"),
    {.name = NULL}, /* the end */
};
