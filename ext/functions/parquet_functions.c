/*
** parquet_functions.c: a 'parquet' filter as the bytes a Parquet file stores,
** and back (rule 28 (Parquet bytes)):
**
**   1. bloom_to_parquet(FILTER) returns the BloomFilterHeader (Thrift compact:
**      numBytes, BLOCK, XXHASH, UNCOMPRESSED) and the bitset of a 'parquet'
**      filter: what a Parquet writer stores at a column chunk's
**      bloom_filter_offset. NULL for NULL; any other kind is an error.
**   2. bloom_from_parquet(BYTES, PHYSICAL_TYPE) returns the 'parquet' filter of
**      such bytes, for a column of that physical type ('INT32', ..., and
**      'FIXED_LEN_BYTE_ARRAY(L)'), n and p not known; NULL for a NULL BYTES. The
**      bytes must be one header and exactly the bitset it announces.
*/
#include "parquet_functions.h"

#include "filter_kinds.h"
#include "parquet_core.h"
#include "parquet_footer.h"
#include "sql_error.h"
#include "sql_filter.h"

#include <string.h>

_Static_assert((int)PARQUET_WHY_MAX == (int)FILTER_WHY_MAX, "one buffer holds either message");

/* bloom_to_parquet(FILTER): rule 28 (Parquet bytes). */
static void bloom_to_parquet_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    filter_view f;
    (void)argc;
    if (!sql_read_filter_of_kind(ctx, "bloom_to_parquet", argv[0], &parquet_kind, "Parquet", &f)) {
        return;
    }
    uint8_t header[PARQUET_BLOOM_HEADER_MAX];
    uint64_t bitset = f.bytes - FILTER_HEADER_BYTES;
    size_t header_bytes = parquet_bloom_header_write(header, (uint32_t)bitset);
    uint8_t *out = sqlite3_malloc64(header_bytes + bitset);
    if (out == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    memcpy(out, header, header_bytes);
    memcpy(out + header_bytes, f.blob + FILTER_HEADER_BYTES, bitset);
    sqlite3_result_blob64(ctx, out, header_bytes + bitset, sqlite3_free);
}

/* Reads PHYSICAL_TYPE (parquet_type_parse) into *type and *length. 0 after setting the error. */
static int parquet_read_type(sqlite3_context *ctx, sqlite3_value *v, int *type, uint32_t *length) {
    const char *text = (const char *)sqlite3_value_text(v);
    if (sqlite3_value_type(v) == SQLITE_TEXT && text != NULL &&
        parquet_type_parse(text, type, length)) {
        return 1;
    }
    sql_error_value(ctx, "bloom_from_parquet",
                    "physical_type must be 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', "
                    "'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY' or 'FIXED_LEN_BYTE_ARRAY(length)'",
                    v);
    return 0;
}

/* bloom_from_parquet(BYTES, PHYSICAL_TYPE): rule 28 (Parquet bytes). */
static void bloom_from_parquet_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    int type;
    uint32_t length;
    parquet_bloom_header header;
    char why[FILTER_WHY_MAX]; /* as long as PARQUET_WHY_MAX */
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
        !parquet_read_type(ctx, argv[1], &type, &length)) {
        return;
    }
    const uint8_t *bytes;
    int n;
    if (!sql_read_foreign_bytes(ctx, "bloom_from_parquet", argv[0],
                                "bytes must be a BLOB: a Parquet Bloom filter's header and bitset",
                                &bytes, &n)) {
        return;
    }
    parquet_status status = parquet_bloom_header_read(bytes, (size_t)n, &header, why);
    if (status == PARQUET_TRUNCATED) {
        sql_errorf(
            ctx,
            "bloom_from_parquet: not a Parquet Bloom filter: its %d bytes end inside the header",
            n);
        return;
    }
    if (status != PARQUET_OK) {
        sql_errorf(ctx, "bloom_from_parquet: not a Parquet Bloom filter: %s", why);
        return;
    }
    uint64_t bitset = (uint64_t)n - header.header_bytes;
    if (bitset != header.num_bytes) {
        sql_errorf(ctx,
                   "bloom_from_parquet: the header announces a bitset of %lu bytes, and %llu bytes "
                   "follow it",
                   (unsigned long)header.num_bytes, (unsigned long long)bitset);
        return;
    }
    if (parquet_check_bitset(bitset, type, length, why) != FILTER_OK) {
        sql_errorf(ctx, "bloom_from_parquet: %s", why);
        return;
    }
    uint64_t blob_bytes = FILTER_HEADER_BYTES + bitset;
    uint8_t *blob = sql_allocate_filter(ctx, "bloom_from_parquet", blob_bytes);
    if (blob == NULL) {
        return;
    }
    parquet_filter_from_bitset(blob, bytes + header.header_bytes, bitset, type, length);
    sql_result_filter(ctx, blob, blob_bytes);
}

const sql_function parquet_functions[] = {
    {.name = "bloom_to_parquet", .nargs = 1, .func = bloom_to_parquet_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_to_parquet", "the form is bloom_to_parquet(filter)"),
    {.name = "bloom_from_parquet",
     .nargs = 2,
     .func = bloom_from_parquet_func,
     .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_from_parquet",
                        "the form is bloom_from_parquet(bytes, physical_type)"),
    {.name = NULL}, /* the end */
};
