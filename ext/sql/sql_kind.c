/*
** sql_kind.c: what every kind's SQL side shares: the hash of a key for a
** filter being built, its allocation and its growth. See sql_kind.h.
*/
#include "sql_kind.h"

#include "filter_kinds.h"
#include "sql_error.h"
#include "sql_memory.h"

#include <string.h>

key_hash sql_kind_hash_key(const build_state *st, const key_value *key) {
    filter_view f = {st->kind->kind, 0, 0, st->kind->kind->key_hash, st->blob, st->bytes};
    return filter_hash_key(&f, key);
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

const char *sql_kind_cannot_grow_reason(filter_status status) {
    switch (status) {
    case FILTER_TOO_MANY_HASHES:
        return "its next part would need more hash functions than a filter may have; build it "
               "with a larger p, or a larger n to put that off";
    case FILTER_TOO_BIG:
        return "its next part would be larger than any filter";
    default:
        return "it has as many parts as a filter may have; build it with a larger n";
    }
}

int sql_kind_grow(sqlite3_context *ctx, const char *func, uint8_t **blob, uint64_t *bytes) {
    filter_view f = {filter_kind_by_id((*blob)[FILTER_OFF_KIND]), 0, 0, 0, *blob, *bytes};
    uint64_t grown;
    filter_status status = f.kind->grow_size(&f, &grown);
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    if (status != FILTER_OK) {
        sql_errorf(ctx, "%s: the '%s' filter cannot grow: %s", func, f.kind->name,
                   sql_kind_cannot_grow_reason(status));
        return 0;
    }
    if (grown > (uint64_t)limit) {
        if (sql_errorf(ctx,
                       "%s: the '%s' filter would grow to %llu bytes, more than the length "
                       "limit of %d bytes",
                       func, f.kind->name, (unsigned long long)grown, limit)) {
            sqlite3_result_error_code(ctx, SQLITE_TOOBIG);
        }
        return 0;
    }
    uint8_t *larger = sqlite3_realloc64(*blob, grown);
    if (larger == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    filter_grow(f.kind, larger, *bytes, grown);
    *blob = larger;
    *bytes = grown;
    return 1;
}
