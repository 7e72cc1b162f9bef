/*
** parquet_files.h: bloom_parquet_filters(path), the Bloom filters of a Parquet file as rows
** (rule 29 (Parquet files)).
*/
#ifndef PARQUET_FILES_H
#define PARQUET_FILES_H

#include "sql_api.h"

/* Registers the table-valued function bloom_parquet_filters on db: SQLITE_OK or SQLite's
** error. */
int parquet_files_register(sqlite3 *db);

#endif /* PARQUET_FILES_H */
