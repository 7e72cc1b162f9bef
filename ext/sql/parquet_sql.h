/*
** parquet_sql.h: the SQL side of the Parquet split-block kind (parquet_sql.c), for the table of
** the kinds' SQL sides (sql_kind_table.c).
*/
#ifndef PARQUET_SQL_H
#define PARQUET_SQL_H

#include "sql_kind.h"

extern const sql_kind parquet_sql;

#endif /* PARQUET_SQL_H */
