/*
** bloom_core.h: the pure C core of sqlite-bloom.
**
** Sizing, hashing of canonical key bytes to bit positions, set/test, and
** encoding, decoding and validation of the filter BLOB (format version 1,
** specified byte by byte in README.md). Nothing here includes a SQLite
** header, allocates memory or keeps state: callers own every buffer.
*/
#ifndef BLOOM_CORE_H
#define BLOOM_CORE_H

#include <stddef.h>
#include <stdint.h>

enum {
    BLOOM_HEADER_BYTES = 64,   /* bytes before the bit array */
    BLOOM_FORMAT_VERSION = 1,  /* format version this code writes and reads */
    BLOOM_LAYOUT_STANDARD = 1, /* one bit array, k positions anywhere in it */
    BLOOM_LAYOUT_BLOCKED = 2,  /* 512-bit lines, all k positions of a key in one line */
    BLOOM_LINE_BITS = 512,     /* bits in a line of the blocked layout (one cache line) */
    BLOOM_HASH_XXH3_128 = 1,   /* XXH3-128, enhanced double hashing, multiply-shift */
    BLOOM_K_MAX = 64,          /* most hash functions a filter may use */
    BLOOM_WHY_MAX = 160        /* buffer size for a validation message */
};

/* Largest BLOB the core will size, whatever the caller's own limit: 2^61 bytes, so that
** m, in bits, fits in 64 bits. */
#define BLOOM_MAX_BYTES 2305843009213693952.0

/* Highest false-positive rate the blocked layout is sized for, and the highest load
** (keys per line) its model is computed for: above what p = 0.5 needs. */
#define BLOOM_BLOCKED_P_MAX 0.5
#define BLOOM_BLOCKED_LOAD_MAX 400.0

typedef enum bloom_status {
    BLOOM_OK = 0,
    BLOOM_BAD_ARGUMENT,    /* sizing: n < 1, p not in (0, 1), or an unknown layout */
    BLOOM_RATE_TOO_HIGH,   /* sizing: the blocked layout needs p <= BLOOM_BLOCKED_P_MAX */
    BLOOM_TOO_MANY_HASHES, /* sizing: p needs more than BLOOM_K_MAX hash functions */
    BLOOM_TOO_BIG,         /* sizing: more than BLOOM_MAX_BYTES */
    BLOOM_INVALID          /* decoding: not a valid filter; the message says why */
} bloom_status;

/* The header fields of a filter, decoded. */
typedef struct bloom_header {
    uint8_t version;            /* format version of the writer */
    uint8_t min_reader_version; /* oldest reader version that can read it */
    uint8_t layout;             /* BLOOM_LAYOUT_* */
    uint8_t hash;               /* BLOOM_HASH_* */
    uint32_t k;                 /* hash functions (bit positions per key) */
    uint64_t m;                 /* bits in the bit array: a multiple of 64, of 512 if blocked */
    uint64_t n;                 /* capacity: distinct keys it was sized for */
    double p;                   /* target false-positive rate at capacity */
    uint64_t keys;              /* keys added, counting repeats */
} bloom_header;

/* The 128-bit hash of one canonical key; h1 and h2 drive the bit positions. */
typedef struct bloom_hash {
    uint64_t h1;
    uint64_t h2;
} bloom_hash;

/* Key type tags: the XXH3 seed of each SQL storage class (same numbers as SQLite's). */
enum { BLOOM_KEY_INTEGER = 1, BLOOM_KEY_REAL = 2, BLOOM_KEY_TEXT = 3, BLOOM_KEY_BLOB = 4 };

/*
** Sizes a filter of the given layout for n distinct keys at false-positive
** rate p and fills *out with a fresh header (no keys added). *bytes_needed
** receives the BLOB size the parameters call for (exact below 2^53), also
** when too big. The standard layout follows the classic formulas; the blocked
** layout takes the fewest lines whose model rate (bloom_blocked_fp_rate) is
** at most p, and the k that minimises that rate.
*/
bloom_status bloom_size(uint64_t n, double p, int layout, bloom_header *out, double *bytes_needed);

/*
** The blocked layout's design for a rate p: the largest load, in keys per
** 512-bit line, at which the best k has a model rate of at most p, and that k.
** It depends on p alone and is the costly part of sizing a blocked filter
** (0.2 ms at p = 1 %, about 100 ms at 1e-19): callers that size many filters
** at one p keep it and pass it to bloom_size_designed.
*/
typedef struct bloom_blocked_design {
    double p;    /* the rate it is for */
    double load; /* keys per line */
    uint32_t k;  /* bit positions per key */
} bloom_blocked_design;

/* Computes the design for p; BLOOM_RATE_TOO_HIGH above BLOOM_BLOCKED_P_MAX, BLOOM_BAD_ARGUMENT
** outside (0, 1). */
bloom_status bloom_design_blocked(double p, bloom_blocked_design *out);

/* bloom_size, with for the blocked layout a design computed for the same p (computed here when
** design is NULL or for another p). */
bloom_status bloom_size_designed(uint64_t n, double p, int layout,
                                 const bloom_blocked_design *design, bloom_header *out,
                                 double *bytes_needed);

/*
** False-positive rate of the blocked layout with k bit positions per key
** (1 to 64) and keys_per_line keys per 512-bit line on average (0 to
** BLOOM_BLOCKED_LOAD_MAX; NAN outside): the chance that a probe's k positions,
** drawn with replacement in a line holding a Poisson number of keys, are all
** set. Exact for that model, occupancy variance included.
*/
double bloom_blocked_fp_rate(double keys_per_line, uint32_t k);

/* Total BLOB bytes for a filter of m bits: header plus ceil(m / 64) words. */
uint64_t bloom_blob_bytes(uint64_t m);

/* Writes the 64-byte header, little-endian, reserved bytes zero. */
void bloom_write_header(uint8_t *blob, const bloom_header *h);

/*
** Validates blob (len bytes) as a filter this code can read and decodes its
** header. Reads only the header, in O(1). On failure returns BLOOM_INVALID and
** writes the reason, without a function name, to why (BLOOM_WHY_MAX bytes).
*/
bloom_status bloom_read_header(const uint8_t *blob, uint64_t len, bloom_header *out, char *why);

/* Hash of an INTEGER key. */
bloom_hash bloom_hash_integer(int64_t v);

/* Hash of a REAL key: an integral value in int64 range hashes as that INTEGER. */
bloom_hash bloom_hash_real(double v);

/* Hash of a TEXT key given as its UTF-8 bytes. */
bloom_hash bloom_hash_text(const void *utf8, size_t bytes);

/* Hash of a BLOB key. */
bloom_hash bloom_hash_blob(const void *data, size_t bytes);

/* Writes the k bit positions of key in a filter with header h to out[0..k-1]. */
void bloom_positions(const bloom_header *h, bloom_hash key, uint64_t *out);

/* Sets the k bits of key in the bit array bits of a filter with header h. */
void bloom_set(uint8_t *bits, const bloom_header *h, bloom_hash key);

/* Returns 1 when all k bits of key are set (possibly present), 0 otherwise. */
int bloom_test(const uint8_t *bits, const bloom_header *h, bloom_hash key);

/* What the fill of a filter tells: bits set, and the estimates derived from them. */
typedef struct bloom_fill {
    uint64_t bits_set;        /* X */
    double fill_ratio;        /* X / m */
    double estimated_keys;    /* distinct keys, -m/k ln(1 - X/m); INFINITY when X = m */
    double estimated_keys_se; /* its standard error; INFINITY when X = m */
    double estimated_fp_rate; /* (X / m)^k */
    int over_capacity;        /* more than n keys added, and the estimate above n + 4 se */
} bloom_fill;

/* Counts the bits set in a filter of header h and computes the estimates, in O(m). */
bloom_fill bloom_measure(const bloom_header *h, const uint8_t *bits);

/*
** Checks that filters a and b can be merged: same layout, hash, m and k. On
** failure returns BLOOM_INVALID and writes which parameter differs to why.
*/
bloom_status bloom_check_compatible(const bloom_header *a, const bloom_header *b, char *why);

/* ORs the m-bit array src into dst. */
void bloom_merge(uint8_t *dst, const uint8_t *src, uint64_t m);

/* a + b, or UINT64_MAX when the sum does not fit: for counts of keys added. */
uint64_t bloom_add_counts(uint64_t a, uint64_t b);

/*
** A set of key hashes, in caller-owned memory: capacity slots (a power of
** two), open addressing with linear probing. An all-zero slot is empty, so
** the all-zero hash is kept out of the slots: see bloom_hash_set_insert.
*/
typedef struct bloom_hash_set {
    bloom_hash *slots;
    uint64_t capacity;
    uint64_t count; /* hashes in the slots */
    int has_zero;   /* whether the all-zero hash was inserted */
} bloom_hash_set;

/* Inserts h unless present; the caller keeps count < capacity. Returns 1 if h was new. */
int bloom_hash_set_insert(bloom_hash_set *set, bloom_hash h);

/* Number of distinct hashes inserted, the all-zero one included. */
uint64_t bloom_hash_set_size(const bloom_hash_set *set);

/* Moves every hash of from into to, which must be empty and larger than from's count. */
void bloom_hash_set_move(const bloom_hash_set *from, bloom_hash_set *to);

/* Sets the bits of every hash in set in the bit array of a filter with header h. */
void bloom_set_all(uint8_t *bits, const bloom_header *h, const bloom_hash_set *set);

/* Bit position of the 64-bit value x in [0, m): floor(x * m / 2^64). */
uint64_t bloom_reduce(uint64_t x, uint64_t m);

/* The same as bloom_reduce without a 128-bit integer type (used where there is none). */
uint64_t bloom_reduce_portable(uint64_t x, uint64_t m);

#endif /* BLOOM_CORE_H */
