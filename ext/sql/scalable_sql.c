/*
** scalable_sql.c: the SQL side of the scalable Bloom filter kind: its part of
** bloom_build (rules 1 (build) and 2 (sizing)). Adding, growing, probing and
** bloom_info's fields go through its core (scalable_core.h) and the shared
** functions.
*/
#include "scalable_sql.h"

#include "bloom_core.h"
#include "filter_kinds.h"
#include "scalable_core.h"
#include "sql_error.h"

/* Sizes the filter with one stage for n keys and allocates it, empty. Returns 0 after setting
** the error. */
static int scalable_sql_build_size(sqlite3_context *ctx, build_state *common, uint64_t n) {
    scalable_header h;
    bloom_header first;
    double bytes_needed;
    filter_status status = scalable_size(n, common->p, BLOOM_LAYOUT_STANDARD, SCALABLE_GROWTH,
                                         SCALABLE_TIGHTENING, &h, &first, &bytes_needed);
    if (status == FILTER_TOO_MANY_HASHES) {
        sql_errorf(ctx,
                   "%s: p = %!.15g needs a first stage of rate %!.15g, which needs %u hash "
                   "functions, more than %d",
                   common->func, common->p, first.p, (unsigned)first.k, BLOOM_K_MAX);
        return 0;
    }
    if (!sql_kind_allocate(ctx, common, n, bytes_needed, status == FILTER_OK)) {
        return 0;
    }
    scalable_write_header(common->blob, &h);
    bloom_write_header(common->blob + FILTER_HEADER_BYTES, &first);
    return 1;
}

/* Adds key; FILTER_FULL when the last stage holds its capacity (the shared code grows it). */
static filter_status scalable_sql_build_add(build_state *common, key_hash key) {
    return filter_add(&scalable_kind, common->blob, key);
}

/* Repeats are not held (a key any stage may hold is not added again): it can be sized at the
** end. Adding keeps the header's count of keys: nothing to finish. */
const sql_kind scalable_sql = {
    .kind = &scalable_kind,
    .build_state_bytes = sizeof(build_state),
    .build_size = scalable_sql_build_size,
    .build_add = scalable_sql_build_add,
};
