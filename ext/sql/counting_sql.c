/*
** counting_sql.c: the SQL side of the counting Bloom filter kind: its part of
** bloom_build (rules 1 (build) and 2 (sizing)). Adding, removing, probing and
** bloom_info's fields go through its core (counting_core.h).
*/
#include "counting_sql.h"

#include "bloom_sql.h"
#include "counting_core.h"
#include "filter_kinds.h"

/* The state of bloom_build for a counting filter. */
typedef struct counting_build_state {
    build_state common;
    bloom_header header; /* once sized */
} counting_build_state;

/* Sizes the filter for n keys as a standard filter, a counter for each bit. */
static int counting_sql_build_size(sqlite3_context *ctx, build_state *common, uint64_t n) {
    counting_build_state *st = (counting_build_state *)common;
    if (!bloom_sql_size(ctx, common, n, BLOOM_LAYOUT_STANDARD, NULL, COUNTING_COUNTER_BITS,
                        &st->header)) {
        return 0;
    }
    st->header.layout = COUNTING_KIND;
    counting_write_header(common->blob, &st->header);
    return 1;
}

/* Counts key in the filter. */
static filter_status counting_sql_build_add(build_state *common, key_hash key) {
    return filter_add(&counting_kind, common->blob, key);
}

/* Writes the header, with the keys added counted by the shared code. */
static void counting_sql_build_finish(build_state *common) {
    counting_build_state *st = (counting_build_state *)common;
    st->header.keys = common->keys;
    counting_write_header(common->blob, &st->header);
}

/* Each repeat of a key counts, so that it can be removed as often as it was added. */
const sql_kind counting_sql = {
    .kind = &counting_kind,
    .build_state_bytes = sizeof(counting_build_state),
    .build_size = counting_sql_build_size,
    .build_add = counting_sql_build_add,
    .build_finish = counting_sql_build_finish,
    .counts_repeats = 1,
};
