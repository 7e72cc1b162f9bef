/*
** counting_sql.c: the SQL side of the counting Bloom filter kind: its part of
** bloom_build (rules 1 (build) and 2 (sizing)) and of bloom_info (rule 11
** (info)). Adding, removing and probing go through its core (counting_core.h).
*/
#include "sql_api.h"

#include "bloom_sql.h"
#include "counting_core.h"
#include "sql_kind.h"

#include <math.h>

/* The state of bloom_build for a counting filter. */
typedef struct counting_build_state {
    build_state common;
    bloom_header header; /* once sized */
} counting_build_state;

/* Nothing to work out for p alone: sizing is the standard layout's. */
static void build_plan(sqlite3_context *ctx, build_state *common, int rate_argument) {
    (void)ctx;
    (void)common;
    (void)rate_argument;
}

/* Sizes the filter for n keys as a standard filter, a counter for each bit. */
static int build_size(sqlite3_context *ctx, build_state *common, uint64_t n) {
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
static filter_status build_add(build_state *common, key_hash key) {
    return filter_add(&counting_kind, common->blob, key);
}

/* Writes the header, with the keys added counted by the shared code. */
static void build_finish(build_state *common) {
    counting_build_state *st = (counting_build_state *)common;
    st->header.keys = common->keys;
    counting_write_header(common->blob, &st->header);
}

/* The fields of bloom_info: the Bloom fields, the nonzero counters as the bits set, and the
** saturated counters. O(m). */
static void info(sqlite3_str *json, const filter_view *f) {
    bloom_header h = bloom_header_of(f);
    h.layout = BLOOM_LAYOUT_STANDARD;
    counting_fill counters = counting_measure(&h, f->blob + FILTER_HEADER_BYTES);
    double in_use = (double)counters.nonzero / (double)h.m;
    bloom_fill fill = bloom_estimate(&h, counters.nonzero, pow(in_use, h.k));
    bloom_sql_info(json, f, &h, &fill, "counters_nonzero");
    sqlite3_str_appendf(json, ",\"counter_bits\":%d,\"counters_saturated\":%llu",
                        COUNTING_COUNTER_BITS, (unsigned long long)counters.saturated);
}

/* Each repeat of a key counts, so that it can be removed as often as it was added. */
const sql_kind counting_sql = {
    &counting_kind, sizeof(counting_build_state),
    build_plan,     build_size,
    build_add,      build_finish,
    info,           1,
    NULL,
};
