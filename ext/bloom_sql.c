/*
** bloom_sql.c: the SQL side of the standard and blocked Bloom kinds: their
** part of bloom_build (rules 1 (build) and 2 (sizing)) and of bloom_info
** (rule 11 (info)).
*/
#include "sql_api.h"

#include "bloom_core.h"
#include "bloom_model.h"
#include "sql_error.h"
#include "sql_json.h"
#include "sql_kind.h"
#include "sql_memory.h"

#include <string.h>

/* The state of bloom_build for a Bloom filter. */
typedef struct bloom_build_state {
    build_state common;
    bloom_blocked_design design; /* blocked: the design for p (p 0 until known) */
    bloom_header header;         /* once sized */
    int pending_count;           /* keys whose bits wait to be set, in pending */
    key_hash pending[BLOOM_BATCH_KEYS];
} bloom_build_state;

/* The layout of a Bloom build state. */
static int layout_of(const build_state *st) {
    return st->kind->kind->id;
}

/*
** The blocked layout's design for p, the costly part of sizing it, depends
** on p alone. It is kept as auxdata on the P argument, which SQLite keeps for
** the whole statement in an aggregate's xStep, so the groups of a GROUP BY
** compute it once. (Not from xFinal: SQLite calls that without a statement to
** keep auxdata with.) A p it cannot serve is left to sizing, which says why.
*/
static void build_plan(sqlite3_context *ctx, build_state *common, int rate_argument) {
    bloom_build_state *st = (bloom_build_state *)common;
    if (layout_of(common) != BLOOM_LAYOUT_BLOCKED) {
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

/* Sizes the filter for n keys and allocates it, empty. Returns 0 after setting the error. */
static int build_size(sqlite3_context *ctx, build_state *common, uint64_t n) {
    bloom_build_state *st = (bloom_build_state *)common;
    double p = common->p, bytes_needed;
    filter_status status =
        bloom_size_designed(n, p, layout_of(common), &st->design, &st->header, &bytes_needed);
    if (status == FILTER_TOO_MANY_HASHES) {
        sql_errorf(ctx, "%s: p = %!.15g needs %u hash functions, more than %d", common->func, p,
                   (unsigned)st->header.k, BLOOM_K_MAX);
        return 0;
    }
    if (status == FILTER_RATE_TOO_HIGH) {
        sql_errorf(ctx, "%s: the blocked layout needs p <= %!.15g, got %!.15g", common->func,
                   BLOOM_BLOCKED_P_MAX, p);
        return 0;
    }
    /* What is left is FILTER_TOO_BIG: the reading of N and P lets no FILTER_BAD_ARGUMENT by. */
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    if (status != FILTER_OK || bytes_needed > (double)limit) {
        if (sql_errorf(ctx,
                       "%s: a filter for n = %llu at p = %!.15g needs %.0f bytes, "
                       "more than the length limit of %d bytes",
                       common->func, (unsigned long long)n, p, bytes_needed, limit)) {
            sqlite3_result_error_code(ctx, SQLITE_TOOBIG);
        }
        return 0;
    }
    common->bytes = bloom_blob_bytes(st->header.m);
    common->blob = sqlite3_malloc64(common->bytes);
    if (common->blob == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    sql_advise_huge_pages(common->blob, common->bytes);
    memset(common->blob, 0, common->bytes);
    return 1;
}

/* Sets the bits of the keys that wait for it, together (bloom_set_batch). */
static void set_pending(bloom_build_state *st) {
    bloom_set_batch(st->common.blob + FILTER_HEADER_BYTES, &st->header, st->pending,
                    st->pending_count);
    st->pending_count = 0;
}

/* Filters from this size on, larger than a core's cache, have their bits set a batch of keys
** at a time: below it, computing the positions twice costs more than the misses it hides
** (callgrind: +117 instructions a key; a 10M-key filter builds twice as fast). */
#define BATCHED_FILTER_BYTES (UINT64_C(2) << 20)

/* Sets the bits of key in the filter, in a large filter a batch of keys at a time. */
static void build_add(build_state *common, key_hash key) {
    bloom_build_state *st = (bloom_build_state *)common;
    if (common->bytes < BATCHED_FILTER_BYTES) {
        bloom_set(common->blob + FILTER_HEADER_BYTES, &st->header, key);
        return;
    }
    st->pending[st->pending_count++] = key;
    if (st->pending_count == BLOOM_BATCH_KEYS) {
        set_pending(st);
    }
}

/* Sets the bits of the last keys and writes the header, with the keys added counted by the
** shared code. */
static void build_finish(build_state *common) {
    bloom_build_state *st = (bloom_build_state *)common;
    set_pending(st);
    st->header.keys = common->keys;
    bloom_write_header(common->blob, &st->header);
}

/* The Bloom fields of bloom_info: the header, then what the fill tells. O(m). */
static void info(sqlite3_str *json, const filter_view *f) {
    bloom_header h = bloom_header_of(f);
    bloom_fill fill = bloom_measure(&h, bloom_bits(f));
    sqlite3_str_appendf(json,
                        ",\"k\":%u,\"m\":%llu,\"bytes\":%llu,\"n\":%llu,\"p\":%!.15g,"
                        "\"keys_added\":%llu,\"bits_set\":%llu,\"fill_ratio\":%!.15g,"
                        "\"estimated_keys\":",
                        (unsigned)h.k, (unsigned long long)h.m, (unsigned long long)f->bytes,
                        (unsigned long long)h.n, h.p, (unsigned long long)h.keys,
                        (unsigned long long)fill.bits_set, fill.fill_ratio);
    sql_json_number(json, "%.1f", fill.estimated_keys);
    sqlite3_str_appendall(json, ",\"estimated_keys_error\":");
    sql_json_number(json, "%.1f", fill.estimated_keys_se);
    sqlite3_str_appendf(json, ",\"estimated_fp_rate\":%!.15g,\"over_capacity\":%s",
                        fill.estimated_fp_rate, fill.over_capacity ? "true" : "false");
}

/* The SQL side of a Bloom kind: both share every function, which ask the state its layout. */
#define BLOOM_SQL_KIND(core)                                                                       \
    { &core, sizeof(bloom_build_state), build_plan, build_size, build_add, build_finish, info }

const sql_kind bloom_standard_sql = BLOOM_SQL_KIND(bloom_standard_kind);
const sql_kind bloom_blocked_sql = BLOOM_SQL_KIND(bloom_blocked_kind);
