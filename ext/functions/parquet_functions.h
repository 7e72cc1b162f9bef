/*
** parquet_functions.h: the functions between Parquet's Bloom filters and the 'parquet' kind,
** bloom_to_parquet and bloom_from_parquet (parquet_functions.c), for the extension to register.
*/
#ifndef PARQUET_FUNCTIONS_H
#define PARQUET_FUNCTIONS_H

#include "sql_function.h"

extern const sql_function parquet_functions[];

#endif /* PARQUET_FUNCTIONS_H */
