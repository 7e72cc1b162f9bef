/*
** spark_functions.c: a 'spark' filter as the bytes Spark's BloomFilter.writeTo
** writes, and back (rule 32 (Spark filters)):
**
**   1. bloom_to_spark(FILTER) returns the bytes of a 'spark' filter as Spark
**      writes them, in its version: big-endian version, k, (seed,) the number
**      of words, then the 64-bit words; BloomFilter.readFrom reads them. NULL
**      for NULL; any other kind is an error.
**   2. bloom_from_spark(BYTES) returns the 'spark' filter of such bytes, of
**      version 1 or 2, any seed and k, n and p not known; NULL for a NULL BYTES.
**      The bytes must be one head and exactly the words it announces.
*/
#include "spark_functions.h"

#include "spark_core.h"
#include "sql_error.h"
#include "sql_filter.h"

/* bloom_to_spark(FILTER): rule 32 (Spark filters). */
static void bloom_to_spark_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    filter_view f;
    (void)argc;
    if (!sql_read_filter_of_kind(ctx, "bloom_to_spark", argv[0], &spark_kind, "Spark", &f)) {
        return;
    }
    spark_header h = spark_header_of(&f);
    uint64_t bytes = spark_bytes_length(&h);
    uint8_t *out = sqlite3_malloc64(bytes);
    if (out == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    spark_write_bytes(out, &f);
    sqlite3_result_blob64(ctx, out, bytes, sqlite3_free);
}

/* bloom_from_spark(BYTES): rule 32 (Spark filters). */
static void bloom_from_spark_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    spark_header h;
    char why[FILTER_WHY_MAX];
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        return;
    }
    const uint8_t *bytes;
    int n;
    if (!sql_read_foreign_bytes(ctx, "bloom_from_spark", argv[0],
                                "bytes must be a BLOB: the bytes of Spark's BloomFilter.writeTo",
                                &bytes, &n)) {
        return;
    }
    if (spark_read_bytes(bytes, (uint64_t)n, &h, why) != FILTER_OK) {
        sql_errorf(ctx, "bloom_from_spark: not a Spark Bloom filter: %s", why);
        return;
    }
    uint64_t blob_bytes = spark_blob_bytes(h.words);
    uint8_t *blob = sql_allocate_filter(ctx, "bloom_from_spark", blob_bytes);
    if (blob == NULL) {
        return;
    }
    spark_filter_from_bytes(blob, bytes, &h);
    sql_result_filter(ctx, blob, blob_bytes);
}

const sql_function spark_functions[] = {
    {.name = "bloom_to_spark", .nargs = 1, .func = bloom_to_spark_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_to_spark", "the form is bloom_to_spark(filter)"),
    {.name = "bloom_from_spark", .nargs = 1, .func = bloom_from_spark_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_from_spark", "the form is bloom_from_spark(bytes)"),
    {.name = NULL}, /* the end */
};
