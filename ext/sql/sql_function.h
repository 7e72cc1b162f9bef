/*
** sql_function.h: a table of SQL functions to register, as each file that
** implements some hands them to extension.c.
*/
#ifndef SQL_FUNCTION_H
#define SQL_FUNCTION_H

#include "sql_api.h"

#include <stddef.h>

/* What a function does besides computing its result from its arguments (rule 15 (flags)). */
enum {
    SQL_PURE = 0,          /* nothing: deterministic and innocuous */
    SQL_READS_TABLES = 1,  /* reads the table it names, in any schema: neither, so that an
                              untrusted schema cannot read another database through it */
    SQL_WRITES_TABLES = 2, /* writes the table it names: neither */
    SQL_WRITES_FILES = 3   /* writes the file it names: neither, and DIRECTONLY, so that no view
                              or trigger (which a database file brings) can call it */
};

typedef struct sql_function {
    const char *name; /* NULL ends a table */
    int nargs;        /* -1: every other number, answered by SQL_WRONG_ARGUMENTS */
    void (*func)(sqlite3_context *, int, sqlite3_value **); /* a scalar */
    void (*step)(sqlite3_context *, int, sqlite3_value **); /* or an aggregate */
    void (*final)(sqlite3_context *);
    const char *forms; /* nargs -1: what to call instead, for the message */
    int effects;       /* SQL_PURE, SQL_READS_TABLES, SQL_WRITES_TABLES or SQL_WRITES_FILES */
} sql_function;

/* The error of a call of a function with a number of arguments it has no form for (rule 14
** (errors)): "NAME: wrong number of arguments (N); FORMS". The table entry is the function's
** user data. As a scalar; as an aggregate, whose xFinal gives it over zero rows too. */
void sql_wrong_arguments(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void sql_wrong_arguments_step(sqlite3_context *ctx, int argc, sqlite3_value **argv);
void sql_wrong_arguments_final(sqlite3_context *ctx);

/* Table entries that answer every other number of arguments of a scalar or an aggregate. */
#define SQL_WRONG_ARGUMENTS(function_name, function_forms)                                         \
    {                                                                                              \
        .name = function_name, .nargs = -1, .func = sql_wrong_arguments, .forms = function_forms,  \
        .effects = SQL_PURE                                                                        \
    }
#define SQL_WRONG_ARGUMENTS_AGGREGATE(function_name, function_forms)                               \
    {                                                                                              \
        .name = function_name, .nargs = -1, .step = sql_wrong_arguments_step,                      \
        .final = sql_wrong_arguments_final, .forms = function_forms, .effects = SQL_PURE           \
    }

#endif /* SQL_FUNCTION_H */
