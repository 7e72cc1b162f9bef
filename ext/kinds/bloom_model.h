/*
** bloom_model.h: the false-positive model of the blocked layout, and the
** design (keys per line and k) that sizing derives from it for a rate p. It
** lies below the Bloom kinds (bloom_core.h), which size by it. No SQLite
** header, no allocation.
*/
#ifndef BLOOM_MODEL_H
#define BLOOM_MODEL_H

#include "filter.h"

#include <stdint.h>

enum {
    BLOOM_LINE_BITS = 512, /* bits in a line of the blocked layout (one cache line) */
    BLOOM_K_MAX = 64       /* most hash functions a filter may use */
};

/* Highest false-positive rate the blocked layout is sized for. */
#define BLOOM_BLOCKED_P_MAX 0.5

/* The highest load (keys per 512-bit line) the model is computed for: above what p = 0.5
** needs. */
#define BLOOM_BLOCKED_LOAD_MAX 400.0

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

/* Computes the design for p: FILTER_BAD_ARGUMENT outside (0, 1), FILTER_RATE_TOO_HIGH above
** BLOOM_BLOCKED_P_MAX, and FILTER_TOO_MANY_HASHES when p is so low that no filter could be
** sized for it (the classic k above BLOOM_K_MAX + 1). */
filter_status bloom_design_blocked(double p, bloom_blocked_design *out);

/*
** False-positive rate of the blocked layout with k bit positions per key
** (1 to 64) and keys_per_line keys per 512-bit line on average (0 to
** BLOOM_BLOCKED_LOAD_MAX; NAN outside): the chance that a probe's k positions,
** drawn with replacement in a line holding a Poisson number of keys, are all
** set. Exact for that model, occupancy variance included.
*/
double bloom_blocked_fp_rate(double keys_per_line, uint32_t k);

#endif /* BLOOM_MODEL_H */
