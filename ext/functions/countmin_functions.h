/*
** countmin_functions.h: the functions of the count-min sketch, cms_*
** (countmin_functions.c), for the extension to register.
*/
#ifndef COUNTMIN_FUNCTIONS_H
#define COUNTMIN_FUNCTIONS_H

#include "sql_function.h"

extern const sql_function countmin_functions[];

#endif /* COUNTMIN_FUNCTIONS_H */
