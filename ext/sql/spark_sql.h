/*
** spark_sql.h: the SQL side of Spark's Bloom filter kind (spark_sql.c), for the table of the
** kinds' SQL sides (sql_kind_table.c).
*/
#ifndef SPARK_SQL_H
#define SPARK_SQL_H

#include "sql_kind.h"

extern const sql_kind spark_sql;

#endif /* SPARK_SQL_H */
