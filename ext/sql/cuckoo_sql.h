/*
** cuckoo_sql.h: the SQL side of the cuckoo kind (cuckoo_sql.c), for the table of the
** kinds' SQL sides (sql_kind_table.c).
*/
#ifndef CUCKOO_SQL_H
#define CUCKOO_SQL_H

#include "sql_kind.h"

extern const sql_kind cuckoo_sql;

#endif /* CUCKOO_SQL_H */
