/*
** sql_kinds.c: the SQL side of every kind, in the order bloom_build lists
** them; the first is its default. A new kind adds one line (and its extern).
*/
#include "sql_kind.h"

extern const sql_kind bloom_standard_sql, bloom_blocked_sql; /* bloom_sql.c */

static const sql_kind *const sql_kinds[] = {
    &bloom_standard_sql,
    &bloom_blocked_sql,
};

const sql_kind *sql_kind_at(size_t i) {
    return i < sizeof sql_kinds / sizeof sql_kinds[0] ? sql_kinds[i] : NULL;
}

const sql_kind *sql_kind_of(const filter_kind *kind) {
    for (size_t i = 0; i < sizeof sql_kinds / sizeof sql_kinds[0]; i++) {
        if (sql_kinds[i]->kind == kind) {
            return sql_kinds[i];
        }
    }
    return NULL;
}
