/*
** parquet_sql.c: the SQL side of the Parquet split-block kind: its part of
** bloom_build (rules 1 (build) and 2 (sizing)), a build's type named with the
** kind ('parquet INT32') or taken from its first key (rule 27 (Parquet
** filters)). Probing, adding and bloom_info's fields go through its core
** (parquet_core.h).
*/
#include "parquet_sql.h"

#include "filter_kinds.h"
#include "parquet_core.h"
#include "sql_error.h"

/* The state of bloom_build for a Parquet filter. */
typedef struct parquet_build_state {
    build_state common;
    parquet_header header; /* its type from the first key; the rest once sized */
    int pending_count;     /* keys whose bits wait to be set, in pending */
    key_hash pending[PARQUET_BATCH_KEYS];
} parquet_build_state;

/* Sizes the filter for n keys and allocates it, zeroed (build_finish writes its header). Returns
** 0 after setting the error. */
static int parquet_sql_build_size(sqlite3_context *ctx, build_state *common, uint64_t n) {
    parquet_build_state *st = (parquet_build_state *)common;
    double bytes_needed;
    filter_status status = parquet_size(n, common->p, &st->header.blocks, &bytes_needed);
    if (status == FILTER_TOO_BIG) {
        char bitset[32]; /* exact up to 2^53, with 4 digits past 10^15 */
        double bitset_bytes = bytes_needed - FILTER_HEADER_BYTES;
        sqlite3_snprintf(sizeof bitset, bitset, bitset_bytes < 1e15 ? "%.0f" : "%!.4g",
                         bitset_bytes);
        sql_errorf(ctx,
                   "%s: a 'parquet' filter for n = %llu at p = %!.15g needs a bitset of %s "
                   "bytes, more than the %d that Parquet readers take",
                   common->func, (unsigned long long)n, common->p, bitset,
                   PARQUET_SIZED_BLOCKS_MAX * PARQUET_BLOCK_BYTES);
        return 0;
    }
    if (!sql_kind_allocate(ctx, common, n, bytes_needed, status == FILTER_OK)) {
        return 0;
    }
    st->header.n = n;
    st->header.p = common->p;
    return 1;
}

/* The hash of a key as a value of the build's type, which the first key gives it. Returns 0
** after setting the error of a key no value of that type equals. */
static int parquet_sql_build_hash(sqlite3_context *ctx, build_state *common, sqlite3_value *value,
                                  const key_value *key, key_hash *out) {
    parquet_build_state *st = (parquet_build_state *)common;
    *out = parquet_hash_typed(&st->header.type, st->header.type_length, key);
    if (!parquet_key_is_value(*out)) {
        char type[FILTER_TYPE_TEXT_MAX];
        sql_error_refused(ctx, common->func, value,
                          parquet_type_text(st->header.type, st->header.type_length, type));
        return 0;
    }
    return 1;
}

/* The kind's read_variant: a physical type's name (parquet_type_parse), as its type and its
** length, type | length << 8. */
static int parquet_sql_read_variant(const char *text, uint64_t *variant) {
    int type;
    uint32_t length;
    if (!parquet_type_parse(text, &type, &length)) {
        return 0;
    }
    *variant = (uint64_t)type | (uint64_t)length << 8;
    return 1;
}

/* The kind's build_plan: the type the kind argument names, if any, before the first key. */
static void parquet_sql_build_plan(sqlite3_context *ctx, build_state *common, int rate_argument) {
    parquet_build_state *st = (parquet_build_state *)common;
    (void)ctx;
    (void)rate_argument;
    st->header.type = (parquet_type)(common->variant & 0xFF);
    st->header.type_length = (uint32_t)(common->variant >> 8);
}

/* Sets the bits of the keys that wait. */
static void parquet_sql_set_pending(parquet_build_state *st) {
    parquet_set_keys(st->common.blob + FILTER_HEADER_BYTES, st->header.blocks, st->pending,
                     st->pending_count);
    st->pending_count = 0;
}

/* Adds key, which build_hash hashed as a value of the filter's type: its bits are set with
** those of the keys that come with it, their blocks asked for together; build_finish sets the
** last ones, then writes the type and the count with the header. */
static filter_status parquet_sql_build_add(build_state *common, key_hash key) {
    parquet_build_state *st = (parquet_build_state *)common;
    st->pending[st->pending_count++] = key;
    if (st->pending_count == PARQUET_BATCH_KEYS) {
        parquet_sql_set_pending(st);
    }
    return FILTER_OK;
}

/* Sets the bits of the keys that wait, and writes the header, with the type of the keys and
** the keys added counting repeats. */
static void parquet_sql_build_finish(build_state *common) {
    parquet_build_state *st = (parquet_build_state *)common;
    parquet_sql_set_pending(st);
    st->header.keys = common->keys;
    parquet_write_header(common->blob, &st->header);
}

const sql_kind parquet_sql = {
    .kind = &parquet_kind,
    .build_state_bytes = sizeof(parquet_build_state),
    .build_plan = parquet_sql_build_plan,
    .read_variant = parquet_sql_read_variant,
    .variant_help = "a physical type: 'parquet INT32', 'parquet INT64', 'parquet INT96', "
                    "'parquet FLOAT', 'parquet DOUBLE', 'parquet BYTE_ARRAY', "
                    "'parquet FIXED_LEN_BYTE_ARRAY' or 'parquet FIXED_LEN_BYTE_ARRAY(length)'",
    .build_size = parquet_sql_build_size,
    .build_hash = parquet_sql_build_hash,
    .build_add = parquet_sql_build_add,
    .build_finish = parquet_sql_build_finish,
};
