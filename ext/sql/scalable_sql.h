/*
** scalable_sql.h: the SQL side of the scalable kind (scalable_sql.c), for the table of the
** kinds' SQL sides (sql_kind_table.c).
*/
#ifndef SCALABLE_SQL_H
#define SCALABLE_SQL_H

#include "sql_kind.h"

extern const sql_kind scalable_sql;

#endif /* SCALABLE_SQL_H */
