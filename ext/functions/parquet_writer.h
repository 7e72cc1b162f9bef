/*
** parquet_writer.h: bloom_parquet_write, 'parquet' filters written into a copy of a Parquet file
** (parquet_writer.c), for the extension to register.
*/
#ifndef PARQUET_WRITER_H
#define PARQUET_WRITER_H

#include "sql_function.h"

extern const sql_function parquet_writer_functions[];

#endif /* PARQUET_WRITER_H */
