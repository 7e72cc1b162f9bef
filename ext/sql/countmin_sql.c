/*
** countmin_sql.c: the SQL side of the count-min sketch kind: what bloom_build
** says of it (rule 23 (count-min sketch)). Its own functions, cms_*, are
** countmin_functions.c; its fields of bloom_info, its core's.
*/
#include "countmin_sql.h"

#include "countmin_core.h"

/* bloom_build cannot build a sketch: cms_build does. */
const sql_kind countmin_sql = {
    .kind = &countmin_kind,
    .build_state_bytes = sizeof(build_state),
    .build_instead = "cms_build(key [, count], epsilon, delta)",
    .other_names = (const char *const[]){"count-min", "cms", NULL},
    .table_arguments =
        &(const sql_table_arguments){.names = {"epsilon", "delta", "update"},
                                     .required = 2,
                                     .filters = "count-min sketches",
                                     .filter = "count-min sketch",
                                     .listed = "epsilon and delta (and update)",
                                     .empty_sql = "SELECT cms_empty(?1, ?2, coalesce(?3, 'plain'))",
                                     .empty_function = "cms_empty"},
};
