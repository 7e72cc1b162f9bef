/*
** test_parquet.c: the Parquet split-block kind (parquet_core, docs/format.md section 4.7):
** sizing against its model and a simulation, the conversion of keys to each physical type,
** the blocks and bits of section 6's vectors against a model of the section, adds and probes
** in memory and through a filter_io, refused keys, validation, union, a filter made from a
** Parquet bitset, and its golden filters.
*/
#include "unit.h"

#include "little_endian.h"

#include <math.h>
#include <stdlib.h>

static void test_parquet_golden(const char *golden_dir);

/* The golden keys a Parquet filter holds: the TEXT and BLOB ones, its first a TEXT. */
static size_t parquet_golden_keys(key_hash *keys);

const kind_recipe parquet_recipe = {.kind = &parquet_kind,
                                    .golden_bytes = 96,
                                    .own_golden = test_parquet_golden,
                                    .golden_keys = parquet_golden_keys};

/* docs/format.md section 1: kind 7, of format version 2 and key hash 2; it adds in place, merges
** and refuses keys of another type, but neither removes nor grows. */
void test_parquet_kind(void) {
    CHECK(filter_kind_by_id(PARQUET_KIND) == &parquet_kind && PARQUET_KIND == 7);
    CHECK(parquet_kind.format_version == 2 && parquet_kind.key_hash == KEY_HASH_XXH64_PARQUET);
    CHECK_STR(parquet_kind.name, "parquet");
    CHECK_STR(key_hash_name(KEY_HASH_XXH64_PARQUET), "xxh64-parquet");
    CHECK(parquet_kind.hash_key != NULL && parquet_kind.value_type != NULL);
    CHECK(filter_kind_can(&parquet_kind, FILTER_ADDS_IN_PLACE) &&
          filter_kind_can(&parquet_kind, FILTER_MERGES));
    CHECK(!filter_kind_can(&parquet_kind, FILTER_REMOVES) &&
          !filter_kind_can(&parquet_kind, FILTER_GROWS));
    for (int type = 1; type <= 7; type++) {
        CHECK(parquet_type_named(parquet_type_name(type)) == type);
    }
    CHECK(parquet_type_name(0) == NULL && parquet_type_name(8) == NULL);
    CHECK(parquet_type_named("BOOLEAN") == -1 && parquet_type_named("int64") == -1);
    /* parquet_type_parse: the names in any case, a FIXED_LEN_BYTE_ARRAY's length too, as
    ** parquet_type_text writes them. */
    int type;
    uint32_t length;
    char text[FILTER_TYPE_TEXT_MAX];
    CHECK(parquet_type_parse("int64", &type, &length) && type == PARQUET_INT64 && length == 0);
    CHECK(parquet_type_parse("Fixed_Len_Byte_Array", &type, &length) &&
          type == PARQUET_FIXED_LEN_BYTE_ARRAY && length == 0);
    CHECK(parquet_type_parse("FIXED_LEN_BYTE_ARRAY(2147483647)", &type, &length) &&
          type == PARQUET_FIXED_LEN_BYTE_ARRAY && length == INT32_MAX);
    CHECK_STR(parquet_type_text(type, length, text), "FIXED_LEN_BYTE_ARRAY(2147483647)");
    static const char *const not_types[] = {"",
                                            "BOOLEAN",
                                            "INT8",
                                            "INT32 ",
                                            " INT32",
                                            "INT32(4)",
                                            "FIXED_LEN_BYTE_ARRAY(0)",
                                            "FIXED_LEN_BYTE_ARRAY(2147483648)",
                                            "FIXED_LEN_BYTE_ARRAY(16",
                                            "FIXED_LEN_BYTE_ARRAY(16))",
                                            "FIXED_LEN_BYTE_ARRAY()",
                                            "FIXED_LEN_BYTE_ARRAY(-1)",
                                            "FIXED_LEN_BYTE_ARRAY_AND_A_NAME_PAST_31_BYTES"};
    for (size_t i = 0; i < sizeof not_types / sizeof not_types[0]; i++) {
        if (!CHECK(!parquet_type_parse(not_types[i], &type, &length))) {
            fprintf(stderr, "    '%s'\n", not_types[i]);
        }
    }
}

/* Room for the filters of these tests. */
enum { PQ_BYTES_MAX = FILTER_HEADER_BYTES + 4096 * PARQUET_BLOCK_BYTES };

/* An empty filter of blocks blocks and type (n 1000, p 0.01) in blob; its length. */
static uint64_t pq_empty(uint8_t *blob, uint32_t blocks, parquet_type type, uint32_t length) {
    parquet_header h = {1000, 0.01, 0, blocks, length, type};
    memset(blob, 0, parquet_blob_bytes(blocks));
    parquet_write_header(blob, &h);
    return parquet_blob_bytes(blocks);
}

/* The view of a filter this file wrote. */
static filter_view pq_view(const uint8_t *blob, uint64_t bytes) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (!CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK)) {
        fprintf(stderr, "    %s\n", why);
    }
    return view;
}

/* The largest load (keys a block) whose model rate is at most p, by bisection. */
static double pq_load_for(double p) {
    double low = 0.0, high = 1000.0;
    for (int i = 0; i < 200; i++) {
        double middle = (low + high) / 2.0;
        *(parquet_fp_rate(middle) <= p ? &low : &high) = middle;
    }
    return low;
}

/* Section 4.7's sizing: the fewest blocks whose model rate is at most p, rounded up to a power of
** two. The model is the Parquet specification's, whose table gives 10.5 bits a key at 1 % and
** 16.9 at 0.1 %. */
void test_parquet_sizing(void) {
    uint32_t blocks;
    double bytes;
    CHECK(fabs(256.0 / pq_load_for(0.01) - 10.5) < 0.05);
    CHECK(fabs(256.0 / pq_load_for(0.001) - 16.9) < 0.05);
    static const struct {
        uint64_t n;
        double p;
    } cases[] = {{1000000, 0.01}, {1000000, 0.001}, {5000, 0.01}, {123456789, 0.2}, {3, 1e-9}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t n = cases[i].n;
        double p = cases[i].p;
        CHECK(parquet_size(n, p, &blocks, &bytes) == FILTER_OK);
        CHECK((blocks & (blocks - 1)) == 0 && bytes == 64.0 + 32.0 * blocks);
        CHECK(parquet_fp_rate((double)n / blocks) <= p);
        CHECK(blocks == 1 || parquet_fp_rate((double)n / (blocks / 2)) > p);
    }
    CHECK(parquet_size(5000, 0.01, &blocks, &bytes) == FILTER_OK && blocks * 32 == 8192);
    CHECK(parquet_size(20, 0.01, &blocks, &bytes) == FILTER_OK && blocks == 1);
    CHECK(parquet_size(0, 0.01, &blocks, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(parquet_size(10, 1.0, &blocks, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(parquet_size(UINT64_C(1) << 40, 0.01, &blocks, &bytes) == FILTER_TOO_BIG &&
          bytes > 64.0 + 32.0 * PARQUET_SIZED_BLOCKS_MAX);
    CHECK(parquet_size(100000000, 0.01, &blocks, &bytes) == FILTER_OK && blocks == 1 << 22);
    CHECK(parquet_size(200000000, 0.01, &blocks, &bytes) == FILTER_TOO_BIG);
    CHECK(parquet_size(UINT64_MAX, 0.05, &blocks, &bytes) == FILTER_TOO_BIG && bytes > 1e19);
    CHECK(parquet_size(1, 1e-40, &blocks, &bytes) == FILTER_TOO_BIG && bytes > 1e9);
    /* The model's rate rises with the load, from 0. */
    CHECK(parquet_fp_rate(0.0) == 0.0);
    double previous = 0.0;
    for (double load = 0.5; load < 200; load *= 1.5) {
        double rate = parquet_fp_rate(load);
        CHECK(rate > previous && rate < 1.0);
        previous = rate;
    }
}

/* The model's rate against a simulation: 24 keys a block on average (1 %), random hashes. */
void test_parquet_model_rate(void) {
    static uint8_t blob[PQ_BYTES_MAX];
    uint64_t seed = 7, bytes = pq_empty(blob, 2048, PARQUET_INT64, 0);
    uint64_t keys = 2048 * 24, probes = 400000, hits = 0;
    for (uint64_t i = 0; i < keys; i++) {
        key_hash h = {next_random(&seed), PARQUET_INT64};
        CHECK(filter_add(&parquet_kind, blob, h) == FILTER_OK || (i = keys));
    }
    filter_view view = pq_view(blob, bytes);
    for (uint64_t i = 0; i < probes; i++) {
        key_hash h = {next_random(&seed), PARQUET_INT64};
        hits += (uint64_t)parquet_kind.might_contain(&view, h);
    }
    double rate = (double)hits / (double)probes, model = parquet_fp_rate(24.0);
    CHECK(fabs(rate - model) < 5.0 * sqrt(model / (double)probes));
    uint64_t set;
    double estimate;
    parquet_fill(&view, &set, &estimate);
    CHECK(fabs(estimate - rate) < 5.0 * sqrt(model / (double)probes));
    CHECK(set > 0 && set <= 2048 * 256);
}

/* A key written as a SQL literal (42, 1.5, 'text', x'hex'), into *key (its bytes in buf). */
static void pq_literal(const char *text, key_value *key, uint8_t *buf) {
    memset(key, 0, sizeof *key);
    if (text[0] == '\'') {
        key->type = KEY_TAG_TEXT;
        key->bytes = text + 1;
        key->length = strlen(text) - 2;
    } else if (text[0] == 'x') {
        key->type = KEY_TAG_BLOB;
        key->bytes = buf;
        key->length = parse_hex(text + 2, buf, 64);
    } else if (strpbrk(text, ".e") != NULL) {
        key->type = KEY_TAG_REAL;
        key->real = strtod(text, NULL);
    } else {
        key->type = KEY_TAG_INTEGER;
        key->integer = strtoll(text, NULL, 10);
    }
}

/* Section 4.7 written from its words: the block of h among z, and the bit in word j. */
static uint64_t pq_model_block(uint64_t h, uint64_t z) {
    return ((h >> 32) * z) >> 32;
}

static unsigned pq_model_bit(uint64_t h, int j) {
    static const uint32_t salt[8] = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
                                     0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};
    return (unsigned)(((uint32_t)h * salt[j]) >> 27);
}

/* Checks a row of the kind-7 vectors of docs/format.md section 6: the hash of the key as a
** value of the type, and its block and bits in a filter of 5 blocks, through the model and the
** core. Returns 1 if it was a row. */
static int check_parquet_row(const char *line, void *context) {
    char key_text[64], type_text[32], encoding[64], hash_text[32], bits_text[64];
    unsigned block;
    (void)context;
    if (sscanf(line, "| `%63[^`]` | %31[A-Z_0-9] | %63[^|]| `%31[0-9A-F]` | %u | %63[0-9 ] |",
               key_text, type_text, encoding, hash_text, &block, bits_text) != 6) {
        return 0;
    }
    uint8_t blob[FILTER_HEADER_BYTES + 5 * PARQUET_BLOCK_BYTES], buf[64], plain[64];
    key_value key;
    pq_literal(key_text, &key, buf);
    int type = parquet_type_named(type_text);
    uint64_t bytes = pq_empty(blob, 5, (parquet_type)type, 0);
    filter_view view = pq_view(blob, bytes);
    key_hash h = filter_hash_key(&view, &key);
    uint64_t expected = strtoull(hash_text, NULL, 16);
    size_t plain_bytes = parse_hex(encoding + 1, plain, sizeof plain);
    CHECK(key_hash_xxh64(plain, plain_bytes) == expected);
    if (!CHECK(h.h1 == expected && parquet_key_is_value(h))) {
        fprintf(stderr, "    %s as %s\n", key_text, type_text);
    }
    char bits[64];
    int used = 0;
    for (int j = 0; j < 8; j++) {
        used += snprintf(bits + used, sizeof bits - (size_t)used, "%s%u", j ? " " : "",
                         pq_model_bit(expected, j));
    }
    CHECK_STR(bits, trim(bits_text));
    CHECK_U64(pq_model_block(expected, 5), block);
    /* The core sets those bits, and only those (but a zero's other bits), in that block. */
    CHECK(filter_add(&parquet_kind, blob, h) == FILTER_OK);
    uint8_t *words = blob + FILTER_HEADER_BYTES + block * PARQUET_BLOCK_BYTES;
    for (int j = 0; j < 8 && !(key.type == KEY_TAG_REAL && key.real == 0.0); j++) {
        CHECK(le_load32(words + 4 * j) == UINT32_C(1) << pq_model_bit(expected, j));
    }
    CHECK(parquet_kind.might_contain(&view, h) == 1);
    return 1;
}

void test_parquet_format_vectors(const char *format_path) {
    CHECK(format_section_rows(format_path, "parquet-vectors", check_parquet_row, NULL) == 11);
}

/* The hash of key in a filter of type (and length), as its kind's hash_key gives it. */
static key_hash pq_hash(parquet_type type, uint32_t length, key_value key) {
    uint8_t blob[FILTER_HEADER_BYTES + PARQUET_BLOCK_BYTES];
    uint64_t bytes = pq_empty(blob, 1, type, length);
    filter_view view = pq_view(blob, bytes);
    return filter_hash_key(&view, &key);
}

static key_value pq_integer(int64_t v) {
    key_value key = {KEY_TAG_INTEGER, v, 0.0, NULL, 0};
    return key;
}

static key_value pq_real(double v) {
    key_value key = {KEY_TAG_REAL, 0, v, NULL, 0};
    return key;
}

static key_value pq_bytes(int type, const char *bytes, size_t length) {
    key_value key = {type, 0, 0.0, bytes, length};
    return key;
}

/* XXH64 of n little-endian bytes of v. */
static uint64_t pq_plain(uint64_t v, int n) {
    uint8_t bytes[8];
    le_store64(bytes, v);
    return key_hash_xxh64(bytes, (size_t)n);
}

/* Whether key is a value of type whose hash is hash. */
static int pq_is(parquet_type type, uint32_t length, key_value key, uint64_t hash) {
    key_hash h = pq_hash(type, length, key);
    return parquet_key_is_value(h) && h.h1 == hash;
}

/* Whether no value of type equals key. */
static int pq_not_a_value(parquet_type type, uint32_t length, key_value key) {
    return !parquet_key_is_value(pq_hash(type, length, key));
}

/* Section 4.7's table of keys: what each type takes, and as which value. */
void test_parquet_keys(void) {
    uint32_t one_and_half_float = 0x3FC00000;
    CHECK(key_hash_xxh64("", 0) == UINT64_C(0xEF46DB3751D8E999));
    /* INT32: [-2^31, 2^32) as its low 32 bits, integral REALs too. */
    CHECK(pq_is(PARQUET_INT32, 0, pq_integer(5), pq_plain(5, 4)));
    CHECK(pq_is(PARQUET_INT32, 0, pq_real(5.0), pq_plain(5, 4)));
    CHECK(pq_is(PARQUET_INT32, 0, pq_integer(-1), pq_plain(UINT64_MAX, 4)));
    CHECK(pq_is(PARQUET_INT32, 0, pq_integer(4294967295), pq_plain(UINT64_MAX, 4)));
    CHECK(pq_is(PARQUET_INT32, 0, pq_integer(INT32_MIN), pq_plain(0x80000000, 4)));
    CHECK(pq_not_a_value(PARQUET_INT32, 0, pq_integer(4294967296)));
    CHECK(pq_not_a_value(PARQUET_INT32, 0, pq_integer((int64_t)INT32_MIN - 1)));
    CHECK(pq_not_a_value(PARQUET_INT32, 0, pq_real(1.5)));
    CHECK(pq_not_a_value(PARQUET_INT32, 0, pq_real(18446744073709549568.0))); /* 2^64 - 2^11 */
    CHECK(pq_not_a_value(PARQUET_INT32, 0, pq_real(4294967296.0)));
    CHECK(pq_is(PARQUET_INT32, 0, pq_real(4294967295.0), pq_plain(UINT64_MAX, 4)));
    CHECK(pq_is(PARQUET_INT32, 0, pq_real(-2147483648.0), pq_plain(0x80000000, 4)));
    CHECK(pq_not_a_value(PARQUET_INT32, 0, pq_real(-2147483649.0)));
    CHECK(pq_not_a_value(PARQUET_INT32, 0, pq_bytes(KEY_TAG_TEXT, "5", 1)));
    /* INT64: integers, integral REALs up to 2^64. */
    CHECK(pq_is(PARQUET_INT64, 0, pq_integer(-1), pq_plain(UINT64_MAX, 8)));
    CHECK(pq_is(PARQUET_INT64, 0, pq_real(-1.0), pq_plain(UINT64_MAX, 8)));
    CHECK(pq_is(PARQUET_INT64, 0, pq_real(-0.0), pq_plain(0, 8)));
    CHECK(pq_is(PARQUET_INT64, 0, pq_real(9223372036854775808.0), pq_plain(UINT64_C(1) << 63, 8)));
    CHECK(pq_not_a_value(PARQUET_INT64, 0, pq_real(18446744073709551616.0)));
    CHECK(pq_not_a_value(PARQUET_INT64, 0, pq_real(0.5)));
    CHECK(pq_not_a_value(PARQUET_INT64, 0, pq_bytes(KEY_TAG_BLOB, "\1", 1)));
    /* DOUBLE: REALs, and INTEGERs a binary64 holds. */
    CHECK(pq_is(PARQUET_DOUBLE, 0, pq_integer(2), pq_plain(le_double_bits(2.0), 8)));
    CHECK(pq_is(PARQUET_DOUBLE, 0, pq_integer(INT64_C(1) << 53),
                pq_plain(le_double_bits(9007199254740992.0), 8)));
    CHECK(pq_not_a_value(PARQUET_DOUBLE, 0, pq_integer((INT64_C(1) << 53) + 1)));
    CHECK(pq_not_a_value(PARQUET_DOUBLE, 0, pq_integer(INT64_MAX)));
    CHECK(pq_is(PARQUET_DOUBLE, 0, pq_integer(INT64_MIN), pq_plain(le_double_bits(-0x1p63), 8)));
    CHECK(pq_not_a_value(PARQUET_DOUBLE, 0, pq_bytes(KEY_TAG_TEXT, "2", 1)));
    /* FLOAT: what a binary32 holds exactly. */
    CHECK(pq_is(PARQUET_FLOAT, 0, pq_real(1.5), pq_plain(one_and_half_float, 4)));
    CHECK(pq_is(PARQUET_FLOAT, 0, pq_integer(16777216), pq_plain(0x4B800000, 4)));
    CHECK(pq_not_a_value(PARQUET_FLOAT, 0, pq_integer(16777217)));
    CHECK(pq_not_a_value(PARQUET_FLOAT, 0, pq_real(0.1)));
    CHECK(pq_not_a_value(PARQUET_FLOAT, 0, pq_real(1e300)));
    CHECK(pq_is(PARQUET_FLOAT, 0, pq_real(INFINITY), pq_plain(0x7F800000, 4)));
    CHECK(pq_is(PARQUET_FLOAT, 0, pq_real(-INFINITY), pq_plain(0xFF800000, 4)));
    CHECK(pq_is(PARQUET_DOUBLE, 0, pq_real(INFINITY), pq_plain(le_double_bits(INFINITY), 8)));
    /* Both zeros are one key: hashed as 0.0. */
    CHECK(pq_is(PARQUET_DOUBLE, 0, pq_real(-0.0), pq_plain(0, 8)));
    CHECK(pq_is(PARQUET_FLOAT, 0, pq_integer(0), pq_plain(0, 4)));
    /* BYTE_ARRAY: TEXT and BLOB alike; FIXED_LEN_BYTE_ARRAY and INT96 of their length. */
    CHECK(pq_is(PARQUET_BYTE_ARRAY, 0, pq_bytes(KEY_TAG_TEXT, "hello", 5),
                key_hash_xxh64("hello", 5)));
    CHECK(pq_is(PARQUET_BYTE_ARRAY, 0, pq_bytes(KEY_TAG_BLOB, "hello", 5),
                key_hash_xxh64("hello", 5)));
    CHECK(pq_not_a_value(PARQUET_BYTE_ARRAY, 0, pq_integer(5)));
    CHECK(pq_is(PARQUET_FIXED_LEN_BYTE_ARRAY, 4, pq_bytes(KEY_TAG_BLOB, "abcd", 4),
                key_hash_xxh64("abcd", 4)));
    CHECK(pq_not_a_value(PARQUET_FIXED_LEN_BYTE_ARRAY, 4, pq_bytes(KEY_TAG_BLOB, "abc", 3)));
    CHECK(pq_is(PARQUET_FIXED_LEN_BYTE_ARRAY, 0, pq_bytes(KEY_TAG_BLOB, "abc", 3),
                key_hash_xxh64("abc", 3)));
    CHECK(pq_is(PARQUET_INT96, 0, pq_bytes(KEY_TAG_BLOB, "0123456789ab", 12),
                key_hash_xxh64("0123456789ab", 12)));
    CHECK(pq_not_a_value(PARQUET_INT96, 0, pq_bytes(KEY_TAG_BLOB, "0123", 4)));
    /* A filter with no type yet: each key as its storage class's type. */
    CHECK(pq_is(PARQUET_UNTYPED, 0, pq_integer(5), pq_plain(5, 8)));
    CHECK(pq_is(PARQUET_UNTYPED, 0, pq_real(1.5), pq_plain(le_double_bits(1.5), 8)));
    CHECK(pq_is(PARQUET_UNTYPED, 0, pq_bytes(KEY_TAG_BLOB, "x", 1), key_hash_xxh64("x", 1)));
    parquet_type type = PARQUET_UNTYPED;
    key_value text = pq_bytes(KEY_TAG_TEXT, "x", 1);
    CHECK(parquet_key_is_value(parquet_hash_typed(&type, 0, &text)) && type == PARQUET_BYTE_ARRAY);
}

/* Adds and probes: a key of the type is found, with a zero's two encodings; a key of another
** type is refused, the filter unchanged; an untyped filter takes its first key's type, and
** answers 0 before it has one. */
void test_parquet_adds(void) {
    uint8_t blob[FILTER_HEADER_BYTES + 4 * PARQUET_BLOCK_BYTES], before[sizeof blob];
    uint64_t bytes = pq_empty(blob, 4, PARQUET_UNTYPED, 0);
    filter_view view = pq_view(blob, bytes);
    key_hash five = filter_hash_key(&view, &(key_value){KEY_TAG_INTEGER, 5, 0, NULL, 0});
    CHECK(parquet_kind.might_contain(&view, five) == 0);
    char type[FILTER_TYPE_TEXT_MAX];
    CHECK_STR(parquet_kind.value_type(&view, type), "no type yet");
    CHECK(filter_add(&parquet_kind, blob, five) == FILTER_OK);
    view = pq_view(blob, bytes);
    CHECK_STR(parquet_kind.value_type(&view, type), "INT64");
    CHECK(parquet_kind.might_contain(&view, five) == 1);
    CHECK(load64(blob, 24) == 1);
    key_value half = pq_real(0.5), five_real = pq_real(5.0), text = pq_bytes(KEY_TAG_TEXT, "a", 1);
    CHECK(parquet_kind.might_contain(&view, filter_hash_key(&view, &five_real)) == 1);
    memcpy(before, blob, bytes);
    CHECK(filter_add(&parquet_kind, blob, filter_hash_key(&view, &half)) == FILTER_REFUSED);
    CHECK(filter_add(&parquet_kind, blob, filter_hash_key(&view, &text)) == FILTER_REFUSED);
    CHECK(memcmp(before, blob, bytes) == 0);
    CHECK(parquet_kind.might_contain(&view, filter_hash_key(&view, &text)) == 0);
    /* A hash made for another type is refused by a typed filter. */
    key_hash as_double = pq_hash(PARQUET_DOUBLE, 0, five_real);
    CHECK(filter_add(&parquet_kind, blob, as_double) == FILTER_REFUSED);
    CHECK(parquet_kind.might_contain(&view, as_double) == 0);
    /* Zeros: either finds the other, also when the filter holds the other's bits alone. */
    bytes = pq_empty(blob, 4, PARQUET_DOUBLE, 0);
    view = pq_view(blob, bytes);
    key_value zero = pq_real(0.0), negative_zero = pq_real(-0.0);
    CHECK(filter_add(&parquet_kind, blob, filter_hash_key(&view, &negative_zero)) == FILTER_OK);
    CHECK(parquet_kind.might_contain(&view, filter_hash_key(&view, &zero)) == 1);
    uint8_t minus_zero[8];
    le_store64(minus_zero, le_double_bits(-0.0));
    bytes = pq_empty(blob, 4, PARQUET_DOUBLE, 0);
    key_hash only_minus = {key_hash_xxh64(minus_zero, 8), PARQUET_DOUBLE};
    CHECK(filter_add(&parquet_kind, blob, only_minus) == FILTER_OK); /* as a Parquet writer */
    CHECK(parquet_kind.might_contain(&view, filter_hash_key(&view, &zero)) == 1);
    int bits = 0;
    for (uint64_t i = FILTER_HEADER_BYTES; i < bytes; i++) {
        bits += __builtin_popcount(blob[i]);
    }
    CHECK(bits <= 8);
    /* Through io, a zero found by the other zero's bits was not absent; its own bits are set. */
    uint8_t header[FILTER_HEADER_BYTES];
    filter_view io_view;
    int was_absent = -1;
    CHECK(open_header_view(blob, bytes, &io_view, header) == FILTER_OK);
    filter_io io = filter_io_memory(blob);
    CHECK(parquet_kind.add_io(&io_view, &io, filter_hash_key(&view, &zero), &was_absent) ==
              FILTER_OK &&
          was_absent == 0);
    CHECK(parquet_kind.add_io(&io_view, &io, filter_hash_key(&view, &half), &was_absent) ==
              FILTER_OK &&
          was_absent == 1);
}

/* The _io operations give the bytes and answers of those in memory, a key's type written to an
** untyped filter through io; each failing read or write is FILTER_IO_FAILED. */
void test_parquet_io(void) {
    uint8_t a[FILTER_HEADER_BYTES + 64 * PARQUET_BLOCK_BYTES], b[sizeof a], header[64];
    uint64_t bytes = pq_empty(a, 64, PARQUET_UNTYPED, 0);
    memcpy(b, a, bytes);
    int wrong = 0, absent = 0;
    for (int64_t i = 0; i < 3000; i++) {
        filter_view va = pq_view(a, bytes), vb;
        key_value probe = pq_integer(-i), add = pq_integer(i / 2);
        filter_io io = filter_io_memory(b);
        int answer = -1, was_absent = -1;
        wrong += open_header_view(b, bytes, &vb, header) != FILTER_OK;
        key_hash hp = filter_hash_key(&va, &probe), ha = filter_hash_key(&va, &add);
        wrong += !same_hash(hp, filter_hash_key(&vb, &probe));
        wrong += parquet_kind.might_contain_io(&vb, &io, hp, &answer) != FILTER_OK;
        wrong += answer != parquet_kind.might_contain(&va, hp);
        int before = parquet_kind.might_contain(&va, ha);
        absent += !before;
        wrong += filter_add(&parquet_kind, a, ha) != FILTER_OK;
        wrong += parquet_kind.add_io(&vb, &io, ha, &was_absent) != FILTER_OK;
        wrong += was_absent != !before || memcmp(a, b, bytes) != 0;
    }
    CHECK_U64(wrong, 0);
    CHECK(absent > 1000 && a[40] == PARQUET_INT64);
    /* A refused key writes nothing through io. */
    counted_io state;
    filter_view view;
    key_value text = pq_bytes(KEY_TAG_TEXT, "t", 1);
    CHECK(open_header_view(b, bytes, &view, header) == FILTER_OK);
    filter_io io = counted(&state, b, -1);
    int was_absent;
    CHECK(parquet_kind.add_io(&view, &io, filter_hash_key(&view, &text), &was_absent) ==
          FILTER_REFUSED);
    CHECK(state.writes == 0);
    /* Each call failing in turn. */
    int failed = 0, calls = 0;
    for (int fail_at = 0; fail_at < 8; fail_at++) {
        key_value key = pq_integer(77);
        pq_empty(b, 64, PARQUET_UNTYPED, 0); /* the caller drops what a failed add wrote */
        CHECK(open_header_view(b, bytes, &view, header) == FILTER_OK);
        io = counted(&state, b, fail_at);
        filter_status status =
            parquet_kind.add_io(&view, &io, filter_hash_key(&view, &key), &was_absent);
        failed += status == FILTER_IO_FAILED;
        if (status == FILTER_OK) {
            calls = state.calls;
            break;
        }
    }
    if (!CHECK(calls == 4 && failed == 4)) { /* read the block, write it, the type, the count */
        fprintf(stderr, "    %d calls, %d failed\n", calls, failed);
    }
}

/* Section 5's checks of kind 7, in order. */
void test_parquet_validation(void) {
    uint8_t valid[FILTER_HEADER_BYTES + 2 * PARQUET_BLOCK_BYTES];
    uint64_t bytes = pq_empty(valid, 2, PARQUET_INT64, 0);
    pq_view(valid, bytes);
    expect_invalid_at(valid, bytes, 32, 0, 4, "corrupt filter: 0 blocks, not 1 to 67108863");
    expect_invalid_at(valid, bytes, 32, 67108864, 4,
                      "corrupt filter: 67108864 blocks, not 1 to 67108863");
    expect_invalid_at(valid, bytes, 32, 1, 4,
                      "corrupt filter: 1 blocks need 96 bytes, the BLOB has 128");
    expect_invalid(valid, bytes - 1, "corrupt filter: 2 blocks need 128 bytes, the BLOB has 127");
    expect_invalid_at(valid, bytes, 40, 8, 1,
                      "corrupt filter: physical type 8, not one of 1 to 7 (INT32 to "
                      "FIXED_LEN_BYTE_ARRAY) or 0");
    expect_invalid_at(valid, bytes, 36, 4, 4,
                      "corrupt filter: INT64 values of 4 bytes: only FIXED_LEN_BYTE_ARRAY has a "
                      "length");
    valid[40] = 0;
    expect_invalid_at(valid, bytes, 36, 4, 4,
                      "corrupt filter: untyped values of 4 bytes: only FIXED_LEN_BYTE_ARRAY has a "
                      "length");
    valid[40] = PARQUET_FIXED_LEN_BYTE_ARRAY;
    le_store32(valid + 36, 16);
    pq_view(valid, bytes);
    valid[40] = PARQUET_INT64;
    le_store32(valid + 36, 0);
    expect_invalid_at(valid, bytes, 8, 0, 8, "corrupt filter: capacity n = 0");
    expect_invalid_at(valid, bytes, 16, le_double_bits(2.0), 8,
                      "corrupt filter: p = 2 is not between 0 and 1");
    store64(valid, 8, 0);
    store64(valid, 16, 0);
    pq_view(valid, bytes); /* n and p not known */
    expect_reserved_invalid(valid, bytes, 41, 48, 0x01);
    /* The kind's hash is its own. */
    valid[7] = KEY_HASH_XXH3_128;
    expect_invalid(valid, bytes, "corrupt filter: kind 7 hashes its keys by hash 2, not 1");
}

/* Union: the same blocks and type (or none on one side); words ORed, counts summed. */
void test_parquet_merge(void) {
    uint8_t a[FILTER_HEADER_BYTES + 4 * PARQUET_BLOCK_BYTES], b[sizeof a], c[sizeof a];
    char why[FILTER_WHY_MAX];
    uint64_t bytes = pq_empty(a, 4, PARQUET_UNTYPED, 0);
    pq_empty(b, 4, PARQUET_INT32, 0);
    filter_view vb = pq_view(b, bytes);
    for (int64_t i = 0; i < 30; i++) {
        key_value key = pq_integer(i);
        CHECK(filter_add(&parquet_kind, b, filter_hash_key(&vb, &key)) == FILTER_OK);
    }
    filter_view va = pq_view(a, bytes);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_OK);
    CHECK(parquet_kind.merge(a, &vb) == FILTER_OK);
    CHECK(memcmp(a + FILTER_HEADER_BYTES, b + FILTER_HEADER_BYTES, bytes - 64) == 0);
    CHECK(a[40] == PARQUET_INT32 && load64(a, 24) == 30);
    pq_empty(c, 4, PARQUET_INT64, 0);
    filter_view vc = pq_view(c, bytes);
    CHECK(filter_compatible(&vb, &vc, why) == FILTER_INVALID);
    CHECK_STR(why,
              "incompatible filters: values of INT32 and of INT64; a union holds the values of "
              "one Parquet column");
    char type[FILTER_TYPE_TEXT_MAX];
    CHECK_STR(parquet_type_text(PARQUET_FIXED_LEN_BYTE_ARRAY, 4294967295u, type),
              "FIXED_LEN_BYTE_ARRAY(4294967295)");
    CHECK_STR(parquet_type_text(PARQUET_FIXED_LEN_BYTE_ARRAY, 0, type), "FIXED_LEN_BYTE_ARRAY");
    uint8_t d[FILTER_HEADER_BYTES + 2 * PARQUET_BLOCK_BYTES];
    filter_view vd = pq_view(d, pq_empty(d, 2, PARQUET_INT32, 0));
    CHECK(filter_compatible(&vb, &vd, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: 4 blocks and 2 blocks; build both with the same n and p");
}

/* The vector code of blocks answers and writes as the portable code, on random blocks of every
** fill; where the CPU has none, the portable code is the one the kind uses. */
void test_parquet_vector_code(void) {
    uint64_t seed = 11;
    int wrong = 0, vector = parquet_has_vector_code(), found = 0;
    printf("test_parquet_vector_code: %s\n",
           vector ? "vector and portable code compared" : "no vector code on this CPU");
    for (int i = 0; i < 200000; i++) {
        uint8_t block[32], portable[32], by_vector[32];
        uint64_t fill = next_random(&seed), h = next_random(&seed);
        for (int j = 0; j < 32; j++) {
            block[j] =
                (uint8_t)(next_random(&seed) | (fill >> (j % 8 * 8) & (i % 4 == 0 ? 0xFF : 0)));
        }
        int answer = parquet_block_test_by(block, h, 0);
        found += answer;
        wrong += vector && parquet_block_test_by(block, h, 1) != answer;
        memcpy(portable, block, 32);
        memcpy(by_vector, block, 32);
        parquet_block_set_by(portable, h, 0);
        parquet_block_set_by(by_vector, h, vector);
        wrong += memcmp(portable, by_vector, 32) != 0;
        wrong += parquet_block_test_by(portable, h, 0) != 1;
        wrong += vector && parquet_block_test_by(portable, h, 1) != 1;
    }
    CHECK_U64(wrong, 0);
    CHECK(found > 1000 && found < 200000); /* both answers were compared */
}

/* A filter from a Parquet bitset: its bytes after the header, n and p not known. */
void test_parquet_from_bitset(void) {
    uint8_t bitset[64], blob[FILTER_HEADER_BYTES + 64];
    char why[FILTER_WHY_MAX];
    for (int i = 0; i < 64; i++) {
        bitset[i] = (uint8_t)(i * 37);
    }
    CHECK(parquet_check_bitset(64, PARQUET_BYTE_ARRAY, 0, why) == FILTER_OK);
    parquet_filter_from_bitset(blob, bitset, 64, PARQUET_BYTE_ARRAY, 0);
    filter_view view = pq_view(blob, sizeof blob);
    parquet_header h = parquet_header_of(&view);
    CHECK(h.blocks == 2 && h.n == 0 && h.p == 0.0 && h.keys == 0 && h.type == PARQUET_BYTE_ARRAY);
    CHECK(memcmp(blob + FILTER_HEADER_BYTES, bitset, 64) == 0);
    CHECK(parquet_check_bitset(48, PARQUET_INT32, 0, why) == FILTER_INVALID);
    CHECK_STR(why, "a bitset of 48 bytes, not a multiple of 32 from 32 to 2147483616");
    CHECK(parquet_check_bitset(0, PARQUET_INT32, 0, why) == FILTER_INVALID);
    CHECK(parquet_check_bitset(32, PARQUET_UNTYPED, 0, why) == FILTER_INVALID);
    CHECK_STR(why, "no physical type");
    CHECK(parquet_check_bitset(32, 0x10, 0, why) == FILTER_INVALID);
    CHECK(parquet_check_bitset(32, PARQUET_INT32, 4, why) == FILTER_INVALID);
    CHECK(parquet_check_bitset(32, PARQUET_FIXED_LEN_BYTE_ARRAY, 16, why) == FILTER_OK);
}

/* The keys of key_texts hashed for an untyped filter, as bloom_build hashes a group: the first
** key gives the type. */
static size_t parquet_golden_keys(key_hash *keys) {
    static const char *texts[] = {"", "hello",
                                  "\xC3\xBCn\xC3\xAF"
                                  "c\xC3\xB6"
                                  "d\xC3\xA9",
                                  "\xF0\x9F\x99\x82"};
    static const uint8_t deadbeef[] = {0xDE, 0xAD, 0xBE, 0xEF};
    parquet_type type = PARQUET_UNTYPED;
    size_t count = 0;
    for (size_t i = 0; i < 4; i++) {
        key_value key = pq_bytes(KEY_TAG_TEXT, texts[i], strlen(texts[i]));
        keys[count++] = parquet_hash_typed(&type, 0, &key);
    }
    key_value blobs[] = {pq_bytes(KEY_TAG_BLOB, NULL, 0), pq_bytes(KEY_TAG_BLOB, "", 1),
                         pq_bytes(KEY_TAG_BLOB, (const char *)deadbeef, 4)};
    for (size_t i = 0; i < 3; i++) {
        keys[count++] = parquet_hash_typed(&type, 0, &blobs[i]);
    }
    return count;
}

/* tests/golden/README.md: parquet_v2.hex, the TEXT and BLOB golden keys (BYTE_ARRAY), and
** parquet_int64_v2.hex, the INTEGER ones (INT64), each bloom_build(k, 20, 0.01, 'parquet'). */
static void test_parquet_golden(const char *golden_dir) {
    static const int64_t integers[] = {0, 1, -1, INT64_MAX, INT64_MIN, 42, 42};
    key_hash keys[2][16];
    size_t counts[2] = {parquet_golden_keys(keys[0]), 7};
    for (size_t i = 0; i < counts[1]; i++) {
        keys[1][i] = pq_hash(PARQUET_INT64, 0, pq_integer(integers[i]));
    }
    static const char *files[] = {"parquet_v2.hex", "parquet_int64_v2.hex"};
    for (int f = 0; f < 2; f++) {
        uint8_t built[128], golden[128];
        parquet_header h = {20, 0.01, 0, 0, 0, PARQUET_UNTYPED};
        double bytes_needed;
        CHECK(parquet_size(20, 0.01, &h.blocks, &bytes_needed) == FILTER_OK && h.blocks == 1);
        parquet_write_header(built, &h);
        memset(built + FILTER_HEADER_BYTES, 0, PARQUET_BLOCK_BYTES);
        for (size_t i = 0; i < counts[f]; i++) {
            CHECK(filter_add(&parquet_kind, built, keys[f][i]) == FILTER_OK);
        }
        size_t golden_len = read_golden_file(golden_dir, files[f], golden, sizeof golden);
        CHECK_U64(golden_len, 96);
        if (!CHECK(golden_len == 96 && memcmp(golden, built, golden_len) == 0)) {
            print_built(files[f], built, 96);
            continue;
        }
        filter_view view = pq_view(golden, golden_len);
        parquet_header g = parquet_header_of(&view);
        CHECK(g.type == (f == 0 ? PARQUET_BYTE_ARRAY : PARQUET_INT64) && g.keys == counts[f]);
        for (size_t i = 0; i < counts[f]; i++) {
            CHECK(parquet_kind.might_contain(&view, keys[f][i]) == 1);
        }
    }
}
