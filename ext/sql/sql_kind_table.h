/*
** sql_kind_table.h: the table of the kinds' SQL sides, made from the same list as
** the table of kinds (kind_list.h), in the same order: the first is
** bloom_build's default.
*/
#ifndef SQL_KIND_TABLE_H
#define SQL_KIND_TABLE_H

#include "sql_kind.h"

#include <stddef.h>

/* The SQL side of a kind of the table of kinds. */
const sql_kind *sql_kind_of(const filter_kind *kind);

/* The i-th kind's SQL side, from 0 (the default), or NULL past the end. */
const sql_kind *sql_kind_at(size_t i);

/* The kind one of whose other names (sql_kind's other_names) the TEXT v is, in any case, or
** NULL. */
const sql_kind *sql_kind_other_named(sqlite3_value *v);

#endif /* SQL_KIND_TABLE_H */
