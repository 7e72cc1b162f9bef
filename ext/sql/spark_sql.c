/*
** spark_sql.c: the SQL side of Spark's Bloom filter kind: its part of
** bloom_build (rules 1 (build) and 2 (sizing)), the version named with the
** kind ('spark v1'; 'spark' alone is version 2, seed 0, as Spark's
** BloomFilter.create(n, p) makes it), and the refusal of a REAL key (rule 32
** (Spark filters)). Probing, adding and bloom_info's fields go through its
** core (spark_core.h).
*/
#include "spark_sql.h"

#include "spark_core.h"
#include "sql_error.h"

/* The state of bloom_build for a Spark filter. */
typedef struct spark_build_state {
    build_state common;
    spark_header header; /* its version from the kind argument; the rest once sized */
} spark_build_state;

/* Sizes the filter for n keys as Spark's create does and allocates it, zeroed (build_finish
** writes its header). Returns 0 after setting the error. */
static int spark_sql_build_size(sqlite3_context *ctx, build_state *common, uint64_t n) {
    spark_build_state *st = (spark_build_state *)common;
    double bytes_needed;
    filter_status status = spark_size(n, common->p, st->header.version, &st->header.words,
                                      &st->header.k, &bytes_needed);
    if (status == FILTER_BAD_ARGUMENT) {
        sql_errorf(ctx,
                   "%s: a 'spark' filter for n = %llu at p = %!.15g has no bit (Spark's create "
                   "refuses it too): give a smaller p",
                   common->func, (unsigned long long)n, common->p);
        return 0;
    }
    if (status == FILTER_TOO_BIG && st->header.version == 1) {
        sql_errorf(ctx,
                   "%s: a 'spark v1' filter for n = %llu at p = %!.15g needs %.0f bits, more "
                   "than the 2^31 that version 1 reaches: build 'spark' (version 2, read by "
                   "Spark 4.1 and later)",
                   common->func, (unsigned long long)n, common->p,
                   (bytes_needed - FILTER_HEADER_BYTES) * 8);
        return 0;
    }
    if (!sql_kind_allocate(ctx, common, n, bytes_needed, status == FILTER_OK)) {
        return 0;
    }
    st->header.n = n;
    st->header.p = common->p;
    return 1;
}

/* The hash of a key as Spark's: 0 after setting the error of a REAL, which Spark's put
** refuses. */
static int spark_sql_build_hash(sqlite3_context *ctx, build_state *common, sqlite3_value *value,
                                const key_value *key, key_hash *out) {
    *out = spark_hash(key, 0); /* a built filter's seed is Spark's default, 0 */
    if (!spark_key_is_value(*out)) {
        char type[FILTER_TYPE_TEXT_MAX];
        sql_error_refused(ctx, common->func, value, spark_kind.value_type(NULL, type));
        return 0;
    }
    return 1;
}

/* The kind's read_variant: 'v1' or 'v2' (in any case), Spark's version. */
static int spark_sql_read_variant(const char *text, uint64_t *variant) {
    if ((text[0] == 'v' || text[0] == 'V') && (text[1] == '1' || text[1] == '2') &&
        text[2] == '\0') {
        *variant = (uint64_t)(text[1] - '0');
        return 1;
    }
    return 0;
}

/* The kind's build_plan: the version the kind argument names, else 2. */
static void spark_sql_build_plan(sqlite3_context *ctx, build_state *common, int rate_argument) {
    spark_build_state *st = (spark_build_state *)common;
    (void)ctx;
    (void)rate_argument;
    st->header.version = common->variant == 1 ? 1 : 2;
}

/* Sets the k bits of key. */
static filter_status spark_sql_build_add(build_state *common, key_hash key) {
    spark_build_state *st = (spark_build_state *)common;
    spark_set(common->blob + FILTER_HEADER_BYTES, &st->header, key);
    return FILTER_OK;
}

/* Writes the header, with the keys added counting repeats. */
static void spark_sql_build_finish(build_state *common) {
    spark_build_state *st = (spark_build_state *)common;
    st->header.keys = common->keys;
    spark_write_header(common->blob, &st->header);
}

const sql_kind spark_sql = {
    .kind = &spark_kind,
    .build_state_bytes = sizeof(spark_build_state),
    .build_plan = spark_sql_build_plan,
    .read_variant = spark_sql_read_variant,
    .variant_help = "Spark's version: 'spark v1' (Spark 3.x and 4.0 read it) or 'spark v2' "
                    "('spark' alone)",
    .build_size = spark_sql_build_size,
    .build_hash = spark_sql_build_hash,
    .build_add = spark_sql_build_add,
    .build_finish = spark_sql_build_finish,
};
