/*
** spark_core.h: Apache Spark's Bloom filter kind (kind 9), without SQL.
**
** The filter of org.apache.spark.util.sketch.BloomFilter, versions 1 and 2
** of its bytes: a bit array of W 64-bit words in which a key sets k bits, at
** positions made from two hashes of Spark's Murmur3_x86_32 (h1 with the
** filter's seed, h2 with h1 as seed), by 32-bit arithmetic in version 1 (which
** reaches no bit past 2^31) and 64-bit in version 2. Keys are Spark's: an
** INTEGER is a long, a TEXT a string (its UTF-8 bytes), a BLOB a byte array;
** a REAL is no key (Spark's put refuses a double). Its body is the word array
** as a little-endian bit array; Spark's own bytes (big-endian, writeTo's) are
** made and read here too. Header and body: docs/format.md, "Spark Bloom
** filter". No SQLite header, no allocation, no state.
*/
#ifndef SPARK_CORE_H
#define SPARK_CORE_H

#include "filter.h"

#include <stdint.h>

enum {
    SPARK_KIND = 9,              /* the prelude's kind byte */
    SPARK_FORMAT_VERSION = 3,    /* the format version that defines it */
    SPARK_WORDS_MAX = INT32_MAX, /* Spark's word count is a signed 32-bit integer */
    /* Most words version 1 reaches: its positions are below 2^31. */
    SPARK_V1_WORDS_MAX = 1 << 25,
    SPARK_V1_HEAD_BYTES = 12, /* Spark's bytes before the words: version, k, W */
    SPARK_V2_HEAD_BYTES = 16  /* version, k, seed, W */
};

extern const filter_kind spark_kind;

/* The fields of a Spark filter's header, decoded. */
typedef struct spark_header {
    uint64_t n;     /* capacity it was sized for; 0 when not known (read from Spark's bytes) */
    double p;       /* its target rate at n; 0 when not known */
    uint64_t keys;  /* keys added here, counting repeats */
    uint32_t words; /* W, 1 to SPARK_WORDS_MAX: 64 W bits */
    uint32_t k;     /* hash functions, 1 to INT32_MAX and at most the bits, 64 W */
    uint32_t seed;  /* Spark's int seed, as its 32 bits; 0 in version 1 */
    int version;    /* Spark's version of the bytes and positions, 1 or 2 */
} spark_header;

/* Sizes a filter of version (1 or 2) for n keys at rate p as Spark's BloomFilter.create(n, p):
** m = (long)(-n ln p / (ln 2)^2) bits, k = max(1, round(m / n ln 2)), W = ceil(m / 64) words,
** into *words and *k. FILTER_OK, FILTER_BAD_ARGUMENT (n < 1, p outside (0, 1), or m = 0, which
** Spark refuses too) or FILTER_TOO_BIG (more words than the version reaches); *bytes_needed is
** the BLOB's size, also when too big. */
filter_status spark_size(uint64_t n, double p, int version, uint32_t *words, uint32_t *k,
                         double *bytes_needed);

/* Total BLOB bytes of a filter of that many words. */
uint64_t spark_blob_bytes(uint32_t words);

/* Writes the 64-byte header of a Spark filter. */
void spark_write_header(uint8_t *blob, const spark_header *h);

/* The fields of a filter that filter_open accepted as a Spark filter. */
spark_header spark_header_of(const filter_view *f);

/* The hash of key as Spark hashes it with seed (h1, then h2 seeded by h1), or, for a REAL,
** a hash that is no key's (spark_key_is_value answers 0). */
key_hash spark_hash(const key_value *key, uint32_t seed);

/* Whether key, hashed by spark_hash, is a key Spark takes: 0 for a REAL. */
int spark_key_is_value(key_hash key);

/* Sets the k bits of key (a value) in the body (the word array) of a filter of header h. */
void spark_set(uint8_t *body, const spark_header *h, key_hash key);

/* Whether every one of the k bits of key (a value) is set in the body of a filter of header h. */
int spark_test(const uint8_t *body, const spark_header *h, key_hash key);

/* The k bit positions of key (a value) in a filter of header h, into out[0 .. k - 1], as
** Spark's version computes them: for tests and readers (k at most the caller's room). */
void spark_positions(const spark_header *h, key_hash key, uint64_t *out);

/* The length of Spark's bytes (writeTo's) of the filter of header h: 12 + 8 W in version 1,
** 16 + 8 W in version 2. */
uint64_t spark_bytes_length(const spark_header *h);

/* Writes Spark's bytes of f (spark_bytes_length long) to out: big-endian version, k, (seed,)
** W, then the words. */
void spark_write_bytes(uint8_t *out, const filter_view *f);

/* Reads the head of Spark's bytes (length of them) into *h (n, p and keys 0), checking that
** they are version 1 or 2, 1 <= k <= 64 W (no more hash functions than bits, which Spark's
** create never makes), 1 <= W and exactly W words follow: FILTER_OK, or FILTER_INVALID with
** why. */
filter_status spark_read_bytes(const uint8_t *bytes, uint64_t length, spark_header *h, char *why);

/* Writes into blob (spark_blob_bytes(h->words) long) the filter of Spark's bytes, which
** spark_read_bytes read into *h. */
void spark_filter_from_bytes(uint8_t *blob, const uint8_t *bytes, const spark_header *h);

/* The bits set in the body of f, into *bits_set. O(size). */
uint64_t spark_bits_set(const filter_view *f);

#endif /* SPARK_CORE_H */
