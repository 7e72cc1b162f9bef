/*
** sql_kind_table.c: the table of the kinds' SQL sides, made from kind_list.h. See
** sql_kind_table.h.
*/
#include "sql_kind_table.h"

#include "bloom_sql.h"
#include "counting_sql.h"
#include "countmin_sql.h"
#include "cuckoo_sql.h"
#include "fuse_sql.h"
#include "kind_list.h"
#include "parquet_sql.h"
#include "scalable_sql.h"
#include "spark_sql.h"
#include "sql_args.h"

/* The table, in the order of the kinds' ids: each kind's NAME_sql. */
#define SQL_KIND_ENTRY(id, name) &name##_sql,
static const sql_kind *const sql_kinds[] = {FILTER_KINDS(SQL_KIND_ENTRY)};

const sql_kind *sql_kind_at(size_t i) {
    return i < sizeof sql_kinds / sizeof sql_kinds[0] ? sql_kinds[i] : NULL;
}

const sql_kind *sql_kind_other_named(sqlite3_value *v) {
    const sql_kind *kind;
    for (size_t i = 0; (kind = sql_kind_at(i)) != NULL; i++) {
        for (const char *const *name = kind->other_names; name != NULL && *name != NULL; name++) {
            if (sql_text_is(v, *name)) {
                return kind;
            }
        }
    }
    return NULL;
}

const sql_kind *sql_kind_of(const filter_kind *kind) {
    return sql_kind_at((size_t)kind->id - 1);
}
