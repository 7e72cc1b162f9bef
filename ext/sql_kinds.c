/*
** sql_kinds.c: the SQL side of every kind, in the order bloom_build lists
** them; the first is its default. A new kind adds one line (and its extern).
*/
#include "sql_kind.h"

#include "sql_error.h"
#include "sql_memory.h"

#include <string.h>

extern const sql_kind bloom_standard_sql, bloom_blocked_sql; /* bloom_sql.c */
extern const sql_kind counting_sql;                          /* counting_sql.c */
extern const sql_kind cuckoo_sql;                            /* cuckoo_sql.c */

static const sql_kind *const sql_kinds[] = {
    &bloom_standard_sql,
    &bloom_blocked_sql,
    &counting_sql,
    &cuckoo_sql,
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

int sql_kind_allocate(sqlite3_context *ctx, build_state *st, uint64_t n, double bytes_needed,
                      int fits) {
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    if (!fits || bytes_needed > (double)limit) {
        if (sql_errorf(ctx,
                       "%s: a filter for n = %llu at p = %!.15g needs %.0f bytes, "
                       "more than the length limit of %d bytes",
                       st->func, (unsigned long long)n, st->p, bytes_needed, limit)) {
            sqlite3_result_error_code(ctx, SQLITE_TOOBIG);
        }
        return 0;
    }
    st->bytes = (uint64_t)bytes_needed;
    st->blob = sqlite3_malloc64(st->bytes);
    if (st->blob == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    sql_advise_huge_pages(st->blob, st->bytes);
    memset(st->blob, 0, st->bytes);
    return 1;
}
