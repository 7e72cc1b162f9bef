/*
** counting_core.h: the counting Bloom filter kind (kind 3), without SQL.
**
** A standard Bloom filter whose bits are 4-bit counters: the same sizing and
** the same k positions as the standard layout, so the same false-positive
** rate, in 4 times the bytes. Adding a key increments its counters, removing
** it decrements them; a counter that reaches 15 saturates and is never
** decremented again. Header and body: docs/format.md, "Counting Bloom
** filter". No SQLite header, no allocation, no state.
*/
#ifndef COUNTING_CORE_H
#define COUNTING_CORE_H

#include "bloom_core.h"
#include "filter.h"

#include <stdint.h>

enum {
    COUNTING_KIND = 3,           /* the prelude's kind byte */
    COUNTING_FORMAT_VERSION = 2, /* the format version that defines it */
    COUNTING_COUNTER_BITS = 4,   /* bits of a counter */
    COUNTING_COUNTER_MAX = 15    /* a counter's saturated value */
};

extern const filter_kind counting_kind;

/* Total BLOB bytes for a counting filter of m counters: header plus m / 2 bytes. */
uint64_t counting_blob_bytes(uint64_t m);

/* Writes the header of a counting filter: the Bloom fields of h, its counter width. */
void counting_write_header(uint8_t *blob, const bloom_header *h);

/* Counter i of the counters of a counting filter. */
static inline unsigned counting_counter(const uint8_t *counters, uint64_t i) {
    return (counters[i >> 1] >> ((i & 1) * 4)) & 0xF;
}

/* What the counters of a counting filter hold. */
typedef struct counting_fill {
    uint64_t nonzero;   /* counters above 0: the bits a standard filter would have set */
    uint64_t saturated; /* counters at COUNTING_COUNTER_MAX */
} counting_fill;

/* Counts the counters of a counting filter with header h, in O(m). */
counting_fill counting_measure(const bloom_header *h, const uint8_t *counters);

#endif /* COUNTING_CORE_H */
