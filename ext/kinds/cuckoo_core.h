/*
** cuckoo_core.h: the cuckoo filter kind (kind 4), without SQL.
**
** A table of buckets of 4 fingerprints (Fan, Andersen, Kaminsky, Mitzenmacher,
** "Cuckoo Filter: Practically Better Than Bloom", CoNEXT 2014). A key has a
** fingerprint of f bits and two candidate buckets; it is present when either
** holds its fingerprint. Adding may move other fingerprints to their other
** bucket (at most CUCKOO_MAX_KICKS moves), each choice derived from the key's
** hash, so the same keys in the same order give the same bytes. Removing
** clears one copy of the fingerprint. Header and body: docs/format.md,
** "Cuckoo filter". No SQLite header, no allocation, no state.
*/
#ifndef CUCKOO_CORE_H
#define CUCKOO_CORE_H

#include "filter.h"

#include <stdint.h>

enum {
    CUCKOO_KIND = 4,             /* the prelude's kind byte */
    CUCKOO_FORMAT_VERSION = 2,   /* the format version that defines it */
    CUCKOO_SLOTS = 4,            /* fingerprints a bucket holds */
    CUCKOO_FINGERPRINT_MAX = 32, /* most bits of a fingerprint */
    CUCKOO_MAX_KICKS = 500       /* most fingerprints an insertion moves before it gives up */
};

/* The share of its slots a cuckoo filter is sized to fill at n keys, before the slack. */
#define CUCKOO_LOAD 0.95

/* Buckets a cuckoo filter has beyond n keys at CUCKOO_LOAD, in square roots of that number. */
#define CUCKOO_SLACK 2.0

extern const filter_kind cuckoo_kind;

/* The fields of a cuckoo filter's header, decoded. */
typedef struct cuckoo_header {
    uint32_t fingerprint_bits; /* f, 1 to CUCKOO_FINGERPRINT_MAX */
    uint64_t buckets;          /* B, >= 1 */
    uint64_t n;                /* capacity: keys it was sized for */
    double p;                  /* target false-positive rate at capacity */
    uint64_t keys;             /* fingerprints held: keys added less keys removed */
} cuckoo_header;

/*
** Sizes a cuckoo filter for n keys at false-positive rate p: the fewest bits
** f whose rate at CUCKOO_LOAD, 2 CUCKOO_SLOTS CUCKOO_LOAD / (2^f - 1), is at
** most p, and B = ceil(b + CUCKOO_SLACK sqrt(b)) buckets, b = n / (CUCKOO_SLOTS
** CUCKOO_LOAD). FILTER_OK, or
** FILTER_BAD_ARGUMENT (n < 1, p outside (0, 1)), FILTER_TOO_MANY_HASHES (f
** above CUCKOO_FINGERPRINT_MAX), FILTER_TOO_BIG (over 2^61 bytes);
** *bytes_needed is the BLOB's size, also when too big.
*/
filter_status cuckoo_size(uint64_t n, double p, cuckoo_header *out, double *bytes_needed);

/* Total BLOB bytes of a cuckoo filter of header h (0 when it would not fit in 64 bits). */
uint64_t cuckoo_blob_bytes(const cuckoo_header *h);

/* Writes the 64-byte header of a cuckoo filter. */
void cuckoo_write_header(uint8_t *blob, const cuckoo_header *h);

/* The fields of a filter that filter_open accepted as a cuckoo filter. */
cuckoo_header cuckoo_header_of(const filter_view *f);

/* The slots of a cuckoo filter in use (non-zero fingerprints), counted in O(size). */
uint64_t cuckoo_slots_used(const filter_view *f);

/* The false-positive rate of a cuckoo filter of header h with slots_used of its slots in use:
** a probe compares its fingerprint with those of two buckets. */
double cuckoo_fp_rate(const cuckoo_header *h, uint64_t slots_used);

#endif /* CUCKOO_CORE_H */
