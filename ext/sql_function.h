/*
** sql_function.h: a table of SQL functions to register, as each file that
** implements some hands them to extension.c.
*/
#ifndef SQL_FUNCTION_H
#define SQL_FUNCTION_H

#include "sql_api.h"

#include <stddef.h>

typedef struct sql_function {
    const char *name; /* NULL ends a table */
    int nargs;
    void (*func)(sqlite3_context *, int, sqlite3_value **); /* a scalar */
    void (*step)(sqlite3_context *, int, sqlite3_value **); /* or an aggregate */
    void (*final)(sqlite3_context *);
} sql_function;

/* The functions every kind answers (filter_functions.c). */
extern const sql_function filter_functions[];

#endif /* SQL_FUNCTION_H */
