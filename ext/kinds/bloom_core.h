/*
** bloom_core.h: the Bloom filter kinds, standard and blocked, without SQL.
**
** Sizing, a key's bit positions, set and test, the header after the prelude,
** validation, fill measurement and merging (docs/format.md, "Bloom filters").
** Kind 1, standard: one bit array, k positions anywhere in it. Kind 2,
** blocked: 512-bit lines, all k positions of a key in one line. Nothing here
** includes a SQLite header, allocates memory or keeps state.
*/
#ifndef BLOOM_CORE_H
#define BLOOM_CORE_H

#include "bloom_model.h"
#include "filter.h"
#include "key_hash.h"

#include <stddef.h>
#include <stdint.h>

enum {
    BLOOM_LAYOUT_STANDARD = 1, /* kind 1: one bit array, k positions anywhere in it */
    BLOOM_LAYOUT_BLOCKED = 2,  /* kind 2: BLOOM_LINE_BITS lines, all k positions of a key in one */
    BLOOM_FORMAT_VERSION = 1   /* the format version that defines both kinds */
};

/* Offsets of the Bloom fields in the header, after the 8-byte prelude. */
enum {
    BLOOM_OFF_K = 8,
    BLOOM_OFF_RESERVED_A = 12, /* 4 bytes (a counting filter's first is its counter width) */
    BLOOM_OFF_M = 16,
    BLOOM_OFF_N = 24,
    BLOOM_OFF_P = 32,
    BLOOM_OFF_KEYS = 40,
    BLOOM_OFF_RESERVED_B = 48 /* 16 bytes, up to the bit array */
};

extern const filter_kind bloom_standard_kind; /* kind 1 */
extern const filter_kind bloom_blocked_kind;  /* kind 2 */

/* The kind of a Bloom layout (BLOOM_LAYOUT_*). */
const filter_kind *bloom_kind_of_layout(int layout);

/* The Bloom fields of a filter's header, decoded. */
typedef struct bloom_header {
    uint8_t layout; /* BLOOM_LAYOUT_*: the kind */
    uint32_t k;     /* hash functions (bit positions per key) */
    uint64_t m;     /* bits in the bit array: a multiple of 64, of 512 if blocked */
    uint64_t n;     /* capacity: distinct keys it was sized for */
    double p;       /* target false-positive rate at capacity */
    uint64_t keys;  /* keys added, counting repeats */
} bloom_header;

/*
** Checks a false-positive rate for a layout: FILTER_BAD_ARGUMENT outside
** (0, 1) or for an unknown layout, FILTER_RATE_TOO_HIGH above
** BLOOM_BLOCKED_P_MAX in the blocked layout. The one check of p.
*/
filter_status bloom_check_rate(double p, int layout);

/*
** Sizes a filter of the given layout for n distinct keys at false-positive
** rate p and fills *out with a fresh header (no keys added). *bytes_needed
** receives the BLOB size the parameters call for (exact below 2^53), also
** when too big; out->k the hash functions p needs, also when too many. The
** standard layout follows the classic formulas; the blocked layout takes the
** fewest lines whose model rate (bloom_blocked_fp_rate) is at most p, and the
** k that minimises that rate.
*/
filter_status bloom_size(uint64_t n, double p, int layout, bloom_header *out, double *bytes_needed);

/* bloom_size, with for the blocked layout a design computed for the same p (computed here when
** design is NULL or for another p). */
filter_status bloom_size_designed(uint64_t n, double p, int layout,
                                  const bloom_blocked_design *design, bloom_header *out,
                                  double *bytes_needed);

/* Total BLOB bytes for a filter of m bits: header plus ceil(m / 64) words. */
uint64_t bloom_blob_bytes(uint64_t m);

/* Writes the 64-byte header of a filter: the prelude of its layout's kind, then the Bloom
** fields, little-endian, reserved bytes zero. */
void bloom_write_header(uint8_t *blob, const bloom_header *h);

/* The Bloom fields of a filter that filter_open accepted as standard or blocked. */
bloom_header bloom_header_of(const filter_view *f);

/* The bit array of a filter: the bytes after the header. */
static inline const uint8_t *bloom_bits(const filter_view *f) {
    return f->blob + FILTER_HEADER_BYTES;
}

/* Writes the k bit positions of key in a filter with header h to out[0..k-1] (for the standard
** layout, hash_positions). */
void bloom_positions(const bloom_header *h, key_hash key, uint64_t *out);

/* Sets the k bits of key in the bit array bits of a filter with header h. */
void bloom_set(uint8_t *bits, const bloom_header *h, key_hash key);

/* Most keys bloom_set_batch takes at once. */
enum { BLOOM_BATCH_KEYS = 32 };

/* Sets the bits of count keys (at most BLOOM_BATCH_KEYS) as bloom_set does: their positions
** first, each prefetched, then the bits, so that a filter larger than the caches waits for
** memory once a batch rather than once a position. */
void bloom_set_batch(uint8_t *bits, const bloom_header *h, const key_hash *keys, int count);

/* Returns 1 when all k bits of key are set (possibly present), 0 otherwise. */
int bloom_test(const uint8_t *bits, const bloom_header *h, key_hash key);

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

/* The estimates of a filter of header h with bits_set positions in use, whose measured
** false-positive rate is fp_rate (for a filter of one segment, (bits_set / m)^k). */
bloom_fill bloom_estimate(const bloom_header *h, uint64_t bits_set, double fp_rate);

struct info_sink;

/* Appends the Bloom fields of bloom_info (filter_info.h) for a filter f of header h and fill:
** positions names the count of positions in use ("bits_set", "counters_nonzero"). */
void bloom_info_fields(const filter_view *f, const bloom_header *h, const bloom_fill *fill,
                       const char *positions, struct info_sink *sink);

/*
** Checks that filters a and b of the same layout can be merged: the same m and
** k. On failure returns FILTER_INVALID and writes to why, in the terms they
** were built with (n and p), that they differ.
*/
filter_status bloom_check_compatible(const bloom_header *a, const bloom_header *b, char *why);

/* ORs the m-bit array src into dst. */
void bloom_merge(uint8_t *dst, const uint8_t *src, uint64_t m);

#endif /* BLOOM_CORE_H */
