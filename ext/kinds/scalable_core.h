/*
** scalable_core.h: the scalable Bloom filter kind (kind 5), without SQL.
**
** A scalable filter is a header and a list of stages, each a whole standard
** Bloom filter BLOB (kind 1, its own header and bits). Stage i is sized for
** n * growth^i keys at rate p * (1 - r) * r^i, so that the rates of all the
** stages, however many, add up to less than p: the compound false-positive
** rate stays at most p however many keys are added. A key goes into the last
** stage unless some stage may already hold it; when the last stage holds its
** capacity, the filter grows by a stage. Probing asks every stage. Header and
** body: docs/format.md, "Scalable Bloom filter". No SQLite header, no
** allocation, no state.
*/
#ifndef SCALABLE_CORE_H
#define SCALABLE_CORE_H

#include "bloom_core.h"
#include "filter.h"

#include <stdint.h>

enum {
    SCALABLE_KIND = 5,           /* the prelude's kind byte */
    SCALABLE_FORMAT_VERSION = 2, /* the format version that defines it */
    SCALABLE_STAGES_MAX = 64,    /* most stages a filter may have */
    SCALABLE_GROWTH = 2          /* each stage holds this many times the keys of the one before */
};

/* Each stage's rate is this many times the rate of the one before (docs/functions.md, "How a
** scalable filter grows", has the measurements that chose it and SCALABLE_GROWTH). */
#define SCALABLE_TIGHTENING 0.8

extern const filter_kind scalable_kind;

/* The header of a scalable filter, decoded. */
typedef struct scalable_header {
    uint8_t stage_layout; /* BLOOM_LAYOUT_* of every stage */
    uint8_t growth;       /* capacity of stage i + 1 over that of stage i */
    uint8_t stages;       /* stages in the body, 1 to SCALABLE_STAGES_MAX */
    uint64_t n;           /* capacity of the first stage */
    double p;             /* the compound rate every stage's rate adds up to */
    double tightening;    /* rate of stage i + 1 over that of stage i, r */
    uint64_t keys;        /* keys added that no stage may have held before */
} scalable_header;

/* One stage of a scalable filter in memory. */
typedef struct scalable_stage {
    bloom_header header;
    uint64_t offset; /* of its first byte in the scalable filter's BLOB */
    uint64_t bytes;  /* its BLOB's length, header included */
} scalable_stage;

/*
** Sizes a scalable filter of one stage for a first stage of n keys, at compound rate p, of
** stage layout stage_layout, growing by growth (>= 2) and tightening (strictly between 0 and
** 1): *out gets the header (no key added), *first the first stage's header and *bytes_needed
** the BLOB size, also when too big. The statuses of bloom_size. The SQL functions use
** SCALABLE_GROWTH and SCALABLE_TIGHTENING; a reader follows what the header says.
*/
filter_status scalable_size(uint64_t n, double p, int stage_layout, int growth, double tightening,
                            scalable_header *out, bloom_header *first, double *bytes_needed);

/* The capacity and rate of stage i of a filter with header h, into *n and *p; 0 when the
** capacity does not fit in 64 bits. */
int scalable_stage_target(const scalable_header *h, int i, uint64_t *n, double *p);

/* Writes the header of a scalable filter. */
void scalable_write_header(uint8_t *blob, const scalable_header *h);

/* The header of a filter that filter_open accepted as scalable. */
scalable_header scalable_header_of(const filter_view *f);

/* Stage i (from 0) of a scalable filter that filter_open accepted, at *stage, walking the
** stages before it. */
void scalable_stage_at(const filter_view *f, int i, scalable_stage *stage);

/* The rate of a filter whose stages have measured rates rates[0..stages-1]: one minus the
** chance that no stage answers "maybe". */
double scalable_compound_rate(const double *rates, int stages);

#endif /* SCALABLE_CORE_H */
