/*
** spark_functions.h: the functions between Spark's Bloom filter bytes and the 'spark' kind,
** bloom_to_spark and bloom_from_spark (spark_functions.c), for the extension to register.
*/
#ifndef SPARK_FUNCTIONS_H
#define SPARK_FUNCTIONS_H

#include "sql_function.h"

extern const sql_function spark_functions[];

#endif /* SPARK_FUNCTIONS_H */
