/*
** key_hash.c: canonical key bytes by SQL type, hashed by XXH3-128; and the
** two hashes of kinds that hash as another system does (XXH64 for Parquet's,
** Spark's Murmur3_x86_32). See key_hash.h and docs/format.md, "Keys".
*/
#include "key_hash.h"

#include "little_endian.h"

/* xxHash compiled into this object: bloom.so needs no libxxhash at run time. */
#define XXH_INLINE_ALL
#include <xxhash.h>

/* XXH3's output is frozen from xxHash 0.8.0 on; earlier versions hash differently. */
#if XXH_VERSION_NUMBER < 800
#error "sqlite-bloom needs xxHash 0.8.0 or later"
#endif

const char *key_hash_name(int hash) {
    return hash == KEY_HASH_XXH64_PARQUET   ? "xxh64-parquet"
           : hash == KEY_HASH_MURMUR3_SPARK ? "murmur3-spark"
                                            : "xxh3-128";
}

uint64_t key_hash_xxh64(const void *data, size_t bytes) {
    return XXH64(data, bytes, 0);
}

/* Murmur3's step of one 32-bit block k into the state h. */
static uint32_t key_hash_murmur3_block(uint32_t h, uint32_t k) {
    k *= UINT32_C(0xcc9e2d51);
    k = (k << 15) | (k >> 17);
    k *= UINT32_C(0x1b873593);
    h ^= k;
    h = (h << 13) | (h >> 19);
    return h * 5 + UINT32_C(0xe6546b64);
}

/* Murmur3's finalization of the state h after length bytes. */
static uint32_t key_hash_murmur3_final(uint32_t h, uint32_t length) {
    h ^= length;
    h ^= h >> 16;
    h *= UINT32_C(0x85ebca6b);
    h ^= h >> 13;
    h *= UINT32_C(0xc2b2ae35);
    return h ^ (h >> 16);
}

uint32_t key_hash_spark_bytes(const void *data, size_t bytes, uint32_t seed) {
    const uint8_t *b = data;
    size_t aligned = bytes - bytes % 4;
    uint32_t h = seed;
    for (size_t i = 0; i < aligned; i += 4) {
        h = key_hash_murmur3_block(h, le_load32(b + i));
    }
    for (size_t i = aligned; i < bytes; i++) { /* Spark's tail: a signed byte, a block */
        h = key_hash_murmur3_block(h, (uint32_t)(int32_t)(int8_t)b[i]);
    }
    return key_hash_murmur3_final(h, (uint32_t)bytes); /* Java's int length: at most 2^31 - 1 */
}

uint32_t key_hash_spark_long(int64_t v, uint32_t seed) {
    uint32_t h = key_hash_murmur3_block(seed, (uint32_t)(uint64_t)v);
    h = key_hash_murmur3_block(h, (uint32_t)((uint64_t)v >> 32));
    return key_hash_murmur3_final(h, 8);
}

/* The hash of canonical key bytes, seeded with the key's type tag. */
static key_hash key_hash_bytes(const void *data, size_t bytes, uint64_t type_tag) {
    XXH128_hash_t h = XXH3_128bits_withSeed(data, bytes, type_tag);
    key_hash out = {h.low64, h.high64};
    return out;
}

key_hash key_hash_integer(int64_t v) {
    uint8_t bytes[8];
    le_store64(bytes, (uint64_t)v);
    return key_hash_bytes(bytes, sizeof bytes, KEY_TAG_INTEGER);
}

key_hash key_hash_real(double v) {
    /* [-2^63, 2^63) is exactly the range of doubles that convert to int64. */
    if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) {
        int64_t i = (int64_t)v;
        if ((double)i == v) {
            return key_hash_integer(i);
        }
    }
    uint8_t bytes[8];
    le_store64(bytes, v != v ? UINT64_C(0x7FF8000000000000) : le_double_bits(v));
    return key_hash_bytes(bytes, sizeof bytes, KEY_TAG_REAL);
}

key_hash key_hash_text(const void *utf8, size_t bytes) {
    return key_hash_bytes(utf8, bytes, KEY_TAG_TEXT);
}

key_hash key_hash_blob(const void *data, size_t bytes) {
    return key_hash_bytes(data, bytes, KEY_TAG_BLOB);
}
