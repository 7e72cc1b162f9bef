/*
** in_place_functions.h: the functions on a filter where it is stored
** (in_place_functions.c), for the extension to register.
*/
#ifndef IN_PLACE_FUNCTIONS_H
#define IN_PLACE_FUNCTIONS_H

#include "sql_function.h"

extern const sql_function in_place_functions[];

#endif /* IN_PLACE_FUNCTIONS_H */
