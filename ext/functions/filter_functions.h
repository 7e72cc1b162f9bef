/*
** filter_functions.h: the functions every kind answers (filter_functions.c),
** for the extension to register.
*/
#ifndef FILTER_FUNCTIONS_H
#define FILTER_FUNCTIONS_H

#include "sql_function.h"

extern const sql_function filter_functions[];

#endif /* FILTER_FUNCTIONS_H */
