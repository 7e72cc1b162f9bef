/*
** fuse_core.h: the binary fuse filter kind (kind 8), without SQL.
**
** A static filter (Graf and Lemire, "Binary Fuse Filters: Fast and Smaller
** Than Xor Filters", 2022): an array of A fingerprints of f bits, in segments
** of L = 2^s slots, built once from its whole set of keys so that each key's
** fingerprint is the XOR of the three slots its hash picks, one in each of
** three consecutive segments. A key not in the set matches with chance 2^-f,
** in about 1.13 f bits a key. It is built by peeling: repeatedly taking a
** slot that one remaining key alone uses, which fails for a small share of
** seeds (the next seed is then tried). The same set of keys, in any order and
** with any repeats, gives the same bytes. Nothing is added, removed or merged
** after. Header and body: docs/format.md, "Binary fuse filter". No SQLite
** header, no allocation (the caller lends the scratch memory), no state.
*/
#ifndef FUSE_CORE_H
#define FUSE_CORE_H

#include "filter.h"

#include <stdint.h>

enum {
    FUSE_KIND = 8,              /* the prelude's kind byte */
    FUSE_FORMAT_VERSION = 2,    /* the format version that defines it */
    FUSE_ARITY = 3,             /* slots a key's fingerprint is spread over */
    FUSE_FINGERPRINT_MAX = 32,  /* most bits of a fingerprint */
    FUSE_SEGMENT_BITS_MAX = 18, /* a segment has at most 2^18 slots */
    FUSE_SEEDS = 64             /* seeds a build tries before it gives up */
};

/* The most slots a filter has: its slots are counted in 32 bits while it is built. */
#define FUSE_SLOTS_MAX UINT64_C(4294967295)

extern const filter_kind fuse_kind;

/* The fields of a binary fuse filter's header, decoded. */
typedef struct fuse_header {
    uint32_t fingerprint_bits; /* f, 1 to FUSE_FINGERPRINT_MAX */
    uint32_t segment_bits;     /* s: a segment has L = 2^s slots */
    uint32_t segments;         /* S >= 1: the array has A = (S + 2) L slots */
    uint64_t seed;             /* mixed into each key's hash */
    uint64_t n;                /* capacity: keys it was asked to hold (or those it holds) */
    double p;                  /* target false-positive rate */
    uint64_t keys;             /* distinct keys it holds */
} fuse_header;

/*
** Sizes a binary fuse filter that holds keys distinct keys, for a capacity n
** at false-positive rate p: f the fewest bits with 2^-f <= p, the segments
** from keys (docs/format.md, "Binary fuse filter", sizing), seed 0. FILTER_OK,
** or FILTER_BAD_ARGUMENT (n < 1, p outside (0, 1)), FILTER_TOO_MANY_HASHES (f
** above FUSE_FINGERPRINT_MAX), FILTER_TOO_BIG (more than FUSE_SLOTS_MAX
** slots); *bytes_needed is the BLOB's size, also when too big.
*/
filter_status fuse_size(uint64_t keys, uint64_t n, double p, fuse_header *out,
                        double *bytes_needed);

/* The slots A of a filter of header h. */
uint64_t fuse_slots(const fuse_header *h);

/* Total BLOB bytes of a filter of header h: 64 + ceil(A f / 8). */
uint64_t fuse_blob_bytes(const fuse_header *h);

/* Writes the 64-byte header of a binary fuse filter. */
void fuse_write_header(uint8_t *blob, const fuse_header *h);

/* The fields of a filter that filter_open accepted as a binary fuse filter. */
fuse_header fuse_header_of(const filter_view *f);

/* Sorts keys[0 .. count) in increasing order and drops repeats, with buffer (count values) as
** scratch; returns the number of distinct keys, now keys[0 .. that). */
uint64_t fuse_distinct_keys(uint64_t *keys, uint64_t count, uint64_t *buffer);

/* The memory a build lends the core, each array of fuse_slots(h) entries. */
typedef struct fuse_scratch {
    uint64_t *hashes; /* per slot: the XOR of the hashes of the keys that use it */
    uint32_t *order;  /* the slots keys were peeled from, in order; at its end, those to peel */
    uint8_t *counts;  /* per slot: how many keys use it */
} fuse_scratch;

/*
** Builds the filter in blob (fuse_blob_bytes(h) bytes, its body zero), which
** fuse_size sized for h->keys keys, from keys[0 .. h->keys), the first 64 bits
** (h1) of their key hashes, distinct (fuse_distinct_keys), which it reorders
** (their slots are filled in the order of their places): tries the seeds
** 0, 1, ... (each as section 4.8 makes it) until one peels, then writes the
** header with that seed. FILTER_OK, or FILTER_FULL when FUSE_SEEDS seeds
** failed (the body is then not a filter).
*/
filter_status fuse_build(uint8_t *blob, fuse_header *h, uint64_t *keys,
                         const fuse_scratch *scratch);

#endif /* FUSE_CORE_H */
