/*
** key_hash.h: how a SQL value becomes the 128-bit hash every filter kind
** works from. Keys follow SQL equality without affinity: an INTEGER and a
** REAL of the same value are one key, TEXT is its UTF-8 bytes, a BLOB its
** bytes, and the storage classes never equal each other. Each value becomes a
** type tag and canonical bytes (docs/format.md, "Keys"), hashed by XXH3-128
** with the tag as seed. No SQLite header, no allocation.
*/
#ifndef KEY_HASH_H
#define KEY_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The key hash of a filter, the prelude's hash byte: XXH3-128 of a key's canonical bytes (every
** kind but two), XXH64 of its Parquet plain encoding (the Parquet kind, which hashes a key by
** its own hash_key: parquet_core.h), or Spark's Murmur3_x86_32 of a long, a string's UTF-8 bytes
** or a byte array (the Spark kind, likewise: spark_core.h). */
enum { KEY_HASH_XXH3_128 = 1, KEY_HASH_XXH64_PARQUET = 2, KEY_HASH_MURMUR3_SPARK = 3 };

/* Type tags, the XXH3 seed of each SQL storage class (the same numbers as SQLite's). */
enum { KEY_TAG_INTEGER = 1, KEY_TAG_REAL = 2, KEY_TAG_TEXT = 3, KEY_TAG_BLOB = 4 };

/* The 128-bit hash of one key: the low (h1) and high (h2) halves of XXH3-128. */
typedef struct key_hash {
    uint64_t h1;
    uint64_t h2;
} key_hash;

/* A key before it is hashed: a SQL value's storage class (its type tag) and its value. A key
** is read before the filter it goes to is known, and hashed by that filter's hash once it is
** (key_hash_value, or the kind's own hash_key). */
typedef struct key_value {
    int type;          /* KEY_TAG_* */
    int64_t integer;   /* KEY_TAG_INTEGER */
    double real;       /* KEY_TAG_REAL */
    const void *bytes; /* KEY_TAG_TEXT (UTF-8) and KEY_TAG_BLOB */
    size_t length;     /* of bytes */
} key_value;

/* Whether this code knows the key hash of that prelude byte. */
static inline int key_hash_is_known(int hash) {
    return hash == KEY_HASH_XXH3_128 || hash == KEY_HASH_XXH64_PARQUET ||
           hash == KEY_HASH_MURMUR3_SPARK;
}

/* The name of a key hash this code knows, as bloom_info shows it ("xxh3-128"). */
const char *key_hash_name(int hash);

/* Hash of an INTEGER key. */
key_hash key_hash_integer(int64_t v);

/* Hash of a REAL key: an integral value in int64 range hashes as that INTEGER. */
key_hash key_hash_real(double v);

/* Hash of a TEXT key given as its UTF-8 bytes. */
key_hash key_hash_text(const void *utf8, size_t bytes);

/* Hash of a BLOB key. */
key_hash key_hash_blob(const void *data, size_t bytes);

/* XXH64, seed 0, of bytes: the hash of a Parquet value's plain encoding. */
uint64_t key_hash_xxh64(const void *data, size_t bytes);

/* Spark's Murmur3_x86_32 (org.apache.spark.util.sketch) of bytes with seed: 4-byte blocks
** little-endian as Murmur3's, but each of the 0 to 3 tail bytes sign-extended and mixed in as
** a block of its own (docs/format.md, 4.9). Equal to MurmurHash3_x86_32 when bytes % 4 == 0. */
uint32_t key_hash_spark_bytes(const void *data, size_t bytes, uint32_t seed);

/* Spark's Murmur3_x86_32 of a long: MurmurHash3_x86_32 of its 8 little-endian bytes. */
uint32_t key_hash_spark_long(int64_t v, uint32_t seed);

/* Hash of key by XXH3-128 (KEY_HASH_XXH3_128): by its type, as above. Inline, so that a caller
** that has just read the key's type needs no second dispatch on it. The Parquet kind's keys
** hash by its hash_key. */
static inline key_hash key_hash_value(int hash, const key_value *key) {
    (void)hash; /* the one hash hashed here */
    switch (key->type) {
    case KEY_TAG_INTEGER:
        return key_hash_integer(key->integer);
    case KEY_TAG_REAL:
        return key_hash_real(key->real);
    case KEY_TAG_TEXT:
        return key_hash_text(key->bytes, key->length);
    default:
        return key_hash_blob(key->bytes, key->length);
    }
}

#endif /* KEY_HASH_H */
