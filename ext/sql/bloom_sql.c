/*
** bloom_sql.c: the SQL side of the standard and blocked Bloom kinds: their
** part of bloom_build (rules 1 (build) and 2 (sizing)).
*/
#include "sql_api.h"

#include "bloom_sql.h"

#include "bloom_core.h"
#include "bloom_model.h"
#include "sql_error.h"
#include "sql_kind.h"

/* The state of bloom_build for a Bloom filter. */
typedef struct bloom_build_state {
    build_state common;
    bloom_blocked_design design; /* blocked: the design for p (p 0 until known) */
    bloom_header header;         /* once sized */
    int pending_count;           /* keys whose bits wait to be set, in pending */
    key_hash pending[BLOOM_BATCH_KEYS];
} bloom_build_state;

/* The layout of a Bloom build state. */
static int bloom_sql_layout_of(const build_state *st) {
    return st->kind->kind->id;
}

/*
** The blocked layout's design for p, the costly part of sizing it, depends
** on p alone. It is kept as auxdata on the P argument, which SQLite keeps for
** the whole statement in an aggregate's xStep, so the groups of a GROUP BY
** compute it once. (Not from xFinal: SQLite calls that without a statement to
** keep auxdata with.) A p it cannot serve is left to sizing, which says why.
*/
static void bloom_sql_build_plan(sqlite3_context *ctx, build_state *common, int rate_argument) {
    bloom_build_state *st = (bloom_build_state *)common;
    if (bloom_sql_layout_of(common) != BLOOM_LAYOUT_BLOCKED) {
        return;
    }
    const bloom_blocked_design *kept =
        rate_argument >= 0 ? sqlite3_get_auxdata(ctx, rate_argument) : NULL;
    if (kept != NULL && kept->p == common->p) {
        st->design = *kept;
        return;
    }
    if (bloom_design_blocked(common->p, &st->design) != FILTER_OK) {
        return;
    }
    bloom_blocked_design *copy = rate_argument >= 0 ? sqlite3_malloc(sizeof *copy) : NULL;
    if (copy != NULL) { /* without it, each group computes its own */
        *copy = st->design;
        sqlite3_set_auxdata(ctx, rate_argument, copy, sqlite3_free);
    }
}

int bloom_sql_size(sqlite3_context *ctx, build_state *common, uint64_t n, int layout,
                   const bloom_blocked_design *design, unsigned position_bits,
                   bloom_header *header) {
    double p = common->p, bytes_needed;
    filter_status status = bloom_size_designed(n, p, layout, design, header, &bytes_needed);
    if (status == FILTER_TOO_MANY_HASHES) {
        sql_errorf(ctx, "%s: p = %!.15g needs %u hash functions, more than %d", common->func, p,
                   (unsigned)header->k, BLOOM_K_MAX);
        return 0;
    }
    if (status == FILTER_RATE_TOO_HIGH) {
        sql_errorf(ctx, "%s: the blocked layout needs p <= %!.15g, got %!.15g", common->func,
                   BLOOM_BLOCKED_P_MAX, p);
        return 0;
    }
    /* What is left is FILTER_TOO_BIG: the reading of N and P lets no FILTER_BAD_ARGUMENT by. */
    bytes_needed = FILTER_HEADER_BYTES + (bytes_needed - FILTER_HEADER_BYTES) * position_bits;
    return sql_kind_allocate(ctx, common, n, bytes_needed, status == FILTER_OK);
}

/* Sizes the filter for n keys and allocates it, empty. Returns 0 after setting the error. */
static int bloom_sql_build_size(sqlite3_context *ctx, build_state *common, uint64_t n) {
    bloom_build_state *st = (bloom_build_state *)common;
    return bloom_sql_size(ctx, common, n, bloom_sql_layout_of(common), &st->design, 1, &st->header);
}

/* Sets the bits of the keys that wait for it, together (bloom_set_batch). */
static void bloom_sql_set_pending(bloom_build_state *st) {
    bloom_set_batch(st->common.blob + FILTER_HEADER_BYTES, &st->header, st->pending,
                    st->pending_count);
    st->pending_count = 0;
}

/* Filters from this size on, larger than a core's cache, have their bits set a batch of keys
** at a time: below it, computing the positions twice costs more than the misses it hides
** (callgrind: +117 instructions a key; a 10M-key filter builds twice as fast). */
#define BATCHED_FILTER_BYTES (UINT64_C(2) << 20)

/* Sets the bits of key in the filter, in a large filter a batch of keys at a time. */
static filter_status bloom_sql_build_add(build_state *common, key_hash key) {
    bloom_build_state *st = (bloom_build_state *)common;
    if (common->bytes < BATCHED_FILTER_BYTES) {
        bloom_set(common->blob + FILTER_HEADER_BYTES, &st->header, key);
        return FILTER_OK;
    }
    st->pending[st->pending_count++] = key;
    if (st->pending_count == BLOOM_BATCH_KEYS) {
        bloom_sql_set_pending(st);
    }
    return FILTER_OK;
}

/* Sets the bits of the last keys and writes the header, with the keys added counted by the
** shared code. */
static void bloom_sql_build_finish(build_state *common) {
    bloom_build_state *st = (bloom_build_state *)common;
    bloom_sql_set_pending(st);
    st->header.keys = common->keys;
    bloom_write_header(common->blob, &st->header);
}

/* The SQL side of a Bloom kind: both share every function, which ask the state its layout. */
#define BLOOM_SQL_KIND(core)                                                                       \
    {                                                                                              \
        .kind = &core, .build_state_bytes = sizeof(bloom_build_state),                             \
        .build_plan = bloom_sql_build_plan, .build_size = bloom_sql_build_size,                    \
        .build_add = bloom_sql_build_add, .build_finish = bloom_sql_build_finish                   \
    }

const sql_kind bloom_standard_sql = BLOOM_SQL_KIND(bloom_standard_kind);
const sql_kind bloom_blocked_sql = BLOOM_SQL_KIND(bloom_blocked_kind);
