/*
** fuzz_core_spark.c: the oracle of Spark's Bloom filter kind (9), from
** docs/format.md 4.9 and section 5's table for kind 9: its validation, its
** model (the k positions of Spark's version 1 or 2 from a key's two hashes,
** a REAL refused, merge ORing the words), and the checks of spark_core's own
** functions: Spark's bytes written and read back to the same filter.
**
** The kind's operations take a key_hash that its hash_key made: Spark's h1 in the low 32 bits
** of h1 and h2 in its high 32 bits, h2's bit 0 set for a REAL. That encoding is spark_core.c's,
** not the format's: the model reads those bits and nothing else of spark_core.c.
*/
#include "fuzz_core.h"

#include <stdlib.h>
#include <string.h>

/* Offsets of the Spark kind's header fields (format.md 4.9). */
enum {
    SP_OFF_N = 8,
    SP_OFF_P = 16,
    SP_OFF_KEYS = 24,
    SP_OFF_WORDS = 32,
    SP_OFF_K = 36,
    SP_OFF_SEED = 40,
    SP_OFF_VERSION = 44,
    SP_OFF_RESERVED = 45
};

/* The fields of a Spark filter, read from its bytes. */
typedef struct spark_fields {
    uint64_t n;
    double p;
    uint64_t keys;
    uint32_t words, k, seed;
    unsigned version;
} spark_fields;

static spark_fields spark_fields_of(const uint8_t *blob) {
    spark_fields s;
    s.n = little_endian(blob + SP_OFF_N, 8);
    s.p = double_at(blob + SP_OFF_P);
    s.keys = little_endian(blob + SP_OFF_KEYS, 8);
    s.words = (uint32_t)little_endian(blob + SP_OFF_WORDS, 4);
    s.k = (uint32_t)little_endian(blob + SP_OFF_K, 4);
    s.seed = (uint32_t)little_endian(blob + SP_OFF_SEED, 4);
    s.version = blob[SP_OFF_VERSION];
    return s;
}

static int spark_is_reserved(size_t offset) {
    return offset >= SP_OFF_RESERVED;
}

static int spark_valid(const uint8_t *blob, size_t size, char *why) {
    spark_fields s = spark_fields_of(blob);
    if (s.version != 1 && s.version != 2) {
        return refuse(why, "corrupt filter: Spark version %u, not 1 or 2", s.version);
    }
    if (s.k < 1 || s.k > 0x7FFFFFFFu) {
        return refuse(why, "corrupt filter: %ld hash functions, not 1 to 2147483647",
                      (long)(int32_t)s.k);
    }
    if (s.words < 1 || s.words > 0x7FFFFFFFu) {
        return refuse(why, "corrupt filter: %ld words, not 1 to 2147483647",
                      (long)(int32_t)s.words);
    }
    if (s.k > 64 * (uint64_t)s.words) {
        return refuse(why, "corrupt filter: %lu hash functions for %llu bits: more than the bits",
                      (unsigned long)s.k, (unsigned long long)(64 * (uint64_t)s.words));
    }
    if (s.version == 1 && s.seed != 0) {
        return refuse(why, "corrupt filter: seed %ld in version 1, which has none",
                      (long)(int32_t)s.seed);
    }
    uint64_t length = FILTER_HEADER_BYTES + 8 * (uint64_t)s.words;
    if (size != length) {
        return refuse(why, "corrupt filter: %lu words need %llu bytes, the BLOB has %zu",
                      (unsigned long)s.words, (unsigned long long)length, size);
    }
    if (!(s.n == 0 && s.p == 0.0) && !n_p_ok(s.n, s.p, why)) {
        return 0;
    }
    return reserved_ok(blob, spark_is_reserved, why);
}

static void spark_encode_header(uint8_t *out, const uint8_t *blob) {
    spark_fields s = spark_fields_of(blob);
    spark_header h = {s.n, s.p, s.keys, s.words, s.k, s.seed, (int)s.version};
    spark_write_header(out, &h);
}

/* ---- The model: positions and bits ---- */

/* Position i (0 .. k - 1) of the key of hashes h1 and h2 (Java ints) in a filter of the version
** and 64 W bits (4.9): version 1, c = h1 + (i + 1) h2 in 32 bits, ~c if negative; version 2,
** C = h1 (2^31 - 1) + (i + 1) h2 in 64 bits, ~C if negative; then modulo the bits. */
static uint64_t spark_position(unsigned version, int32_t h1, int32_t h2, uint64_t i,
                               uint64_t bits) {
    if (version == 1) {
        uint32_t c = (uint32_t)h1 + (uint32_t)(i + 1) * (uint32_t)h2;
        int32_t v = (int32_t)c;
        return (uint64_t)(v < 0 ? -(int64_t)v - 1 : v) % bits;
    }
    uint64_t c = (uint64_t)(int64_t)h1 * 2147483647u + (i + 1) * (uint64_t)(int64_t)h2;
    int64_t v = (int64_t)c;
    return (uint64_t)(v < 0 ? -(v + 1) : v) % bits;
}

/* Probe (4.9): 0 for a REAL; else whether the k bits are set. */
static int spark_probe(const uint8_t *blob, key_hash key) {
    spark_fields s = spark_fields_of(blob);
    if (key.h2 & 1) {
        return 0;
    }
    int32_t h1 = (int32_t)(uint32_t)key.h1, h2 = (int32_t)(uint32_t)(key.h1 >> 32);
    for (uint64_t i = 0; i < s.k; i++) {
        if (!bit_is_set(blob + FILTER_HEADER_BYTES,
                        spark_position(s.version, h1, h2, i, 64 * (uint64_t)s.words))) {
            return 0;
        }
    }
    return 1;
}

/* Add (4.9): FILTER_REFUSED, nothing written, for a REAL; else the k bits and keys added + 1
** (kept at 2^64 - 1). */
static filter_status spark_add(uint8_t *blob, key_hash key, int *was_absent) {
    spark_fields s = spark_fields_of(blob);
    *was_absent = !spark_probe(blob, key);
    if (key.h2 & 1) {
        return FILTER_REFUSED;
    }
    int32_t h1 = (int32_t)(uint32_t)key.h1, h2 = (int32_t)(uint32_t)(key.h1 >> 32);
    for (uint64_t i = 0; i < s.k; i++) {
        uint64_t pos = spark_position(s.version, h1, h2, i, 64 * (uint64_t)s.words);
        blob[FILTER_HEADER_BYTES + pos / 8] |= (uint8_t)(1u << (pos % 8));
    }
    store_u64(blob + SP_OFF_KEYS, saturating_sum(s.keys, 1));
    return FILTER_OK;
}

/* Union (4.9): the same version, W, k and seed. */
static int spark_compatible(const uint8_t *a, const uint8_t *b) {
    spark_fields x = spark_fields_of(a), y = spark_fields_of(b);
    return x.version == y.version && x.words == y.words && x.k == y.k && x.seed == y.seed;
}

/* Union (4.9): words ORed, keys added summed; the rest of the first's header. */
static filter_status spark_merge(uint8_t *dst, const uint8_t *src) {
    spark_fields a = spark_fields_of(dst), b = spark_fields_of(src);
    for (uint64_t i = 0; i < 8 * (uint64_t)a.words; i++) {
        dst[FILTER_HEADER_BYTES + i] |= src[FILTER_HEADER_BYTES + i];
    }
    store_u64(dst + SP_OFF_KEYS, saturating_sum(a.keys, b.keys));
    return FILTER_OK;
}

/* ---- spark_core's own functions ---- */

/* Spark's bytes of f (4.9): big-endian version, k, the seed in version 2, W, then each word
** big-endian; read back, the same filter with n, p and keys added 0. And the hash of an INTEGER
** and a BLOB key is Spark's with the filter's seed. */
static void spark_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    spark_fields s = spark_fields_of(f->blob);
    spark_header h = spark_header_of(f), read;
    uint64_t head = s.version == 1 ? 12 : 16, length = head + 8 * (uint64_t)s.words;
    char why[FILTER_WHY_MAX];
    (void)keys;
    (void)count;
    if (spark_bytes_length(&h) != length) {
        fuzz_fail("Spark's bytes of %u words are %llu long", s.words,
                  (unsigned long long)spark_bytes_length(&h));
    }
    uint8_t *out = malloc(length), *back = malloc(f->bytes);
    if (out == NULL || back == NULL) {
        fuzz_fail("out of memory");
    }
    spark_write_bytes(out, f);
    uint32_t fields[4] = {s.version, s.k, s.seed, s.words};
    for (unsigned i = 0, at = 0; i < 4; i++) {
        if (i == 2 && s.version == 1) {
            continue;
        }
        uint32_t v = (uint32_t)out[at] << 24 | (uint32_t)out[at + 1] << 16 |
                     (uint32_t)out[at + 2] << 8 | out[at + 3];
        if (v != fields[i]) {
            fuzz_fail("Spark's bytes: field %u is %lu, not %lu", i, (unsigned long)v,
                      (unsigned long)fields[i]);
        }
        at += 4;
    }
    for (uint64_t i = 0; i < 8 * (uint64_t)s.words; i++) {
        if (out[head + i] != f->blob[FILTER_HEADER_BYTES + (i & ~UINT64_C(7)) + 7 - (i & 7)]) {
            fuzz_fail("Spark's bytes: byte %llu of the words", (unsigned long long)i);
        }
    }
    if (spark_read_bytes(out, length, &read, why) != FILTER_OK) {
        fuzz_fail("Spark's bytes of an accepted filter refused: %s", why);
    }
    spark_filter_from_bytes(back, out, &read);
    spark_fields r = spark_fields_of(back);
    if (memcmp(back + FILTER_HEADER_BYTES, f->blob + FILTER_HEADER_BYTES,
               f->bytes - FILTER_HEADER_BYTES) != 0 ||
        r.n != 0 || r.p != 0.0 || r.keys != 0 || r.words != s.words || r.k != s.k ||
        r.seed != s.seed || r.version != s.version) {
        fuzz_fail("Spark's bytes read back to another filter");
    }
    if (length > 0 && spark_read_bytes(out, length - 1, &read, why) != FILTER_INVALID) {
        fuzz_fail("Spark's bytes one byte short accepted");
    }
    free(out);
    free(back);
    key_value integer = {KEY_TAG_INTEGER, (int64_t)s.keys, 0.0, NULL, 0};
    key_hash k = filter_hash_key(f, &integer);
    uint32_t h1 = key_hash_spark_long(integer.integer, s.seed);
    if (k.h1 != (h1 | (uint64_t)key_hash_spark_long(integer.integer, h1) << 32) || k.h2 != 0) {
        fuzz_fail("the hash of an INTEGER is not Spark's with seed %lu", (unsigned long)s.seed);
    }
}

const kind_oracle spark_oracle = {.id = SPARK_KIND,
                                  .is_reserved = spark_is_reserved,
                                  .valid = spark_valid,
                                  .compatible = spark_compatible,
                                  .encode_header = spark_encode_header,
                                  .probe = spark_probe,
                                  .add = spark_add,
                                  .merge = spark_merge,
                                  .check_own = spark_check_own};
