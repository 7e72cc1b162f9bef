/*
** counting_sql.h: the SQL side of the counting kind (counting_sql.c), for the table of the
** kinds' SQL sides (sql_kind_table.c).
*/
#ifndef COUNTING_SQL_H
#define COUNTING_SQL_H

#include "sql_kind.h"

extern const sql_kind counting_sql;

#endif /* COUNTING_SQL_H */
