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

/* The key hash of a filter, the prelude's hash byte. */
enum { KEY_HASH_XXH3_128 = 1 };

/* Type tags, the XXH3 seed of each SQL storage class (the same numbers as SQLite's). */
enum { KEY_TAG_INTEGER = 1, KEY_TAG_REAL = 2, KEY_TAG_TEXT = 3, KEY_TAG_BLOB = 4 };

/* The 128-bit hash of one key: the low (h1) and high (h2) halves of XXH3-128. */
typedef struct key_hash {
    uint64_t h1;
    uint64_t h2;
} key_hash;

/* Whether this code knows the key hash of that prelude byte. */
static inline int key_hash_is_known(int hash) {
    return hash == KEY_HASH_XXH3_128;
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

#endif /* KEY_HASH_H */
