/*
** cuckoo_sql.c: the SQL side of the cuckoo filter kind: its part of
** bloom_build (rules 1 (build) and 2 (sizing)). Adding, removing, probing and
** bloom_info's fields go through its core (cuckoo_core.h).
*/
#include "cuckoo_sql.h"

#include "cuckoo_core.h"
#include "filter_kinds.h"
#include "sql_error.h"

/* The state of bloom_build for a cuckoo filter. */
typedef struct cuckoo_build_state {
    build_state common;
    cuckoo_header header; /* once sized */
} cuckoo_build_state;

/* The smallest p a cuckoo filter serves: 2 CUCKOO_SLOTS CUCKOO_LOAD / (2^32 - 1). */
#define CUCKOO_P_MIN (2.0 * CUCKOO_SLOTS * CUCKOO_LOAD / 4294967295.0)

/* Sizes the filter for n keys and allocates it, empty. Returns 0 after setting the error. */
static int cuckoo_sql_build_size(sqlite3_context *ctx, build_state *common, uint64_t n) {
    cuckoo_build_state *st = (cuckoo_build_state *)common;
    double bytes_needed;
    filter_status status = cuckoo_size(n, common->p, &st->header, &bytes_needed);
    if (status == FILTER_TOO_MANY_HASHES) {
        sql_errorf(ctx,
                   "%s: a 'cuckoo' filter needs p >= %!.3g (fingerprints of at most %d bits), "
                   "got %!.15g",
                   common->func, CUCKOO_P_MIN, CUCKOO_FINGERPRINT_MAX, common->p);
        return 0;
    }
    if (!sql_kind_allocate(ctx, common, n, bytes_needed, status == FILTER_OK)) {
        return 0;
    }
    cuckoo_write_header(common->blob, &st->header);
    return 1;
}

/* Adds key to the filter; FILTER_FULL when it has no room. */
static filter_status cuckoo_sql_build_add(build_state *common, key_hash key) {
    return filter_add(&cuckoo_kind, common->blob, key);
}

/* Writes the header, with the keys held. */
static void cuckoo_sql_build_finish(build_state *common) {
    cuckoo_build_state *st = (cuckoo_build_state *)common;
    st->header.keys = common->keys;
    cuckoo_write_header(common->blob, &st->header);
}

/* Each repeat of a key is held, so that it can be removed as often as it was added. */
const sql_kind cuckoo_sql = {
    .kind = &cuckoo_kind,
    .build_state_bytes = sizeof(cuckoo_build_state),
    .build_size = cuckoo_sql_build_size,
    .build_add = cuckoo_sql_build_add,
    .build_finish = cuckoo_sql_build_finish,
    .counts_repeats = 1,
};
