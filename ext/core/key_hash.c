/*
** key_hash.c: canonical key bytes by SQL type, hashed by XXH3-128.
** See key_hash.h and docs/format.md, "Keys".
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
    return hash == KEY_HASH_XXH64_PARQUET ? "xxh64-parquet" : "xxh3-128";
}

uint64_t key_hash_xxh64(const void *data, size_t bytes) {
    return XXH64(data, bytes, 0);
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
