/*
** sql_function.c: the error of a call with a number of arguments that no form
** of the function takes (rule 14 (errors)). See sql_function.h.
*/
#include "sql_function.h"

#include "sql_error.h"

/* Sets the error of a call with argc arguments (-1: not known) of the function whose table
** entry is the user data of ctx. */
static void sql_function_wrong_arguments(sqlite3_context *ctx, int argc) {
    const sql_function *f = sqlite3_user_data(ctx);
    if (argc >= 0) {
        sql_errorf(ctx, "%s: wrong number of arguments (%d); %s", f->name, argc, f->forms);
    } else {
        sql_errorf(ctx, "%s: wrong number of arguments; %s", f->name, f->forms);
    }
}

void sql_wrong_arguments(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argv;
    sql_function_wrong_arguments(ctx, argc);
}

void sql_wrong_arguments_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argv;
    sqlite3_aggregate_context(ctx, 1); /* xFinal then knows there was a row */
    sql_function_wrong_arguments(ctx, argc);
}

void sql_wrong_arguments_final(sqlite3_context *ctx) {
    if (sqlite3_aggregate_context(ctx, 0) == NULL) {
        sql_function_wrong_arguments(ctx, -1);
    }
}
