/*
** fuse_sql.h: the SQL side of the binary fuse kind (fuse_sql.c), for the table of the
** kinds' SQL sides (sql_kind_table.c).
*/
#ifndef FUSE_SQL_H
#define FUSE_SQL_H

#include "sql_kind.h"

extern const sql_kind fuse_sql;

#endif /* FUSE_SQL_H */
