/*
** countmin_sql.h: the SQL side of the count-min sketch kind (countmin_sql.c), for the table of
** the kinds' SQL sides (sql_kind_table.c).
*/
#ifndef COUNTMIN_SQL_H
#define COUNTMIN_SQL_H

#include "sql_kind.h"

extern const sql_kind countmin_sql;

#endif /* COUNTMIN_SQL_H */
