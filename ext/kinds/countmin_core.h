/*
** countmin_core.h: the count-min sketch kind (kind 6), without SQL.
**
** depth rows of width 64-bit counters. A key adds its count to one counter in
** each row (its columns are the positions a standard Bloom filter of k = depth
** and m = width gives it), and its estimate is the least of those counters:
** never below its true count, and with probability at least 1 - delta at
** most epsilon * total above it, for width = ceil(e / epsilon) and depth =
** ceil(ln(1 / delta)) (Cormode and Muthukrishnan, 2005). The conservative
** update (Estan and Varghese, 2002) raises each counter only to the new
** estimate, which lowers the error. The total of all counts is at most
** 2^63 - 1, SQLite's largest INTEGER, so no counter can overflow. Header and
** body: docs/format.md, "Count-min sketch". No SQLite header, no allocation.
*/
#ifndef COUNTMIN_CORE_H
#define COUNTMIN_CORE_H

#include "filter.h"

#include <stdint.h>

enum {
    COUNTMIN_KIND = 6,           /* the prelude's kind byte */
    COUNTMIN_FORMAT_VERSION = 2, /* the format version that defines it */
    COUNTMIN_DEPTH_MAX = 64,     /* most rows: delta down to e^-64 */
    COUNTMIN_COUNTER_BITS = 64   /* bits of a counter */
};

/* How adding raises the counters of a key. */
typedef enum countmin_update {
    COUNTMIN_PLAIN = 0,       /* each by the count */
    COUNTMIN_CONSERVATIVE = 1 /* each to at least the old estimate plus the count */
} countmin_update;

/* The largest total of the counts added: SQLite's largest INTEGER. */
#define COUNTMIN_TOTAL_MAX UINT64_C(9223372036854775807)

extern const filter_kind countmin_kind;

/* The header of a count-min sketch, decoded. */
typedef struct countmin_header {
    uint64_t width; /* counters in a row */
    uint32_t depth; /* rows */
    uint8_t update; /* countmin_update */
    double epsilon; /* the error bound, a share of the total, it was sized for */
    double delta;   /* the chance the error passes that bound */
    uint64_t total; /* the sum of every count added */
} countmin_header;

/* The name of an update as the SQL functions spell it, or NULL. */
const char *countmin_update_name(int update);

/*
** Sizes a sketch for epsilon and delta (each strictly between 0 and 1): *out gets a fresh
** header (total 0) and *bytes_needed the BLOB size, also when too big. FILTER_BAD_ARGUMENT
** for epsilon, delta or update outside their ranges, FILTER_TOO_MANY_HASHES for a depth past
** COUNTMIN_DEPTH_MAX (out->depth says which), FILTER_TOO_BIG past the core's largest BLOB.
*/
filter_status countmin_size(double epsilon, double delta, int update, countmin_header *out,
                            double *bytes_needed);

/* Writes the header of a sketch. */
void countmin_write_header(uint8_t *blob, const countmin_header *h);

/* The header of a sketch that filter_open accepted. */
countmin_header countmin_header_of(const filter_view *f);

/* The estimated count of key in a sketch that filter_open accepted. */
uint64_t countmin_estimate(const filter_view *f, key_hash key);

/* countmin_estimate, through io (f's blob may hold the header alone). */
filter_status countmin_estimate_io(const filter_view *f, filter_io *io, key_hash key,
                                   uint64_t *estimate);

/* Adds count to key through io and to the total; *estimate gets the key's estimate after.
** FILTER_FULL, writing nothing, when the total would pass COUNTMIN_TOTAL_MAX. */
filter_status countmin_add_io(const filter_view *f, filter_io *io, key_hash key, uint64_t count,
                              uint64_t *estimate);

#endif /* COUNTMIN_CORE_H */
