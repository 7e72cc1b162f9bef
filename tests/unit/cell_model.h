/*
** cell_model.h: a model of docs/format.md written for these tests, against which the core is
** checked: a filter's body as m cells, one a byte. A Bloom filter's cells are its bits,
** saturating at 1; a counting filter's its counters, saturating at 15 (section 4.3). Adding a
** key raises each distinct cell c of its positions by t_c, the times the key has it, to at
** most the maximum; a union adds the cells, to at most the maximum. The positions are
** bloom_positions', which test_format_vectors and test_positions_closed_form check against
** the specification.
**
** A cuckoo filter (section 4.4) is modelled as its 4B slots instead, slot s of bucket i at
** 4 i + s, with its fingerprints, buckets, kicks and union written here from the section's
** words (with hash_reduce_portable as its reduce, which test_reduce checks).
**
** The kinds it models are those whose recipe (unit.h) has no test of its own golden fixtures.
*/
#ifndef BLOOM_CELL_MODEL_H
#define BLOOM_CELL_MODEL_H

#include "unit.h"

enum { MODEL_CELLS_MAX = 16384, MODEL_SLOTS_MAX = 4096 };

typedef struct cell_model {
    bloom_header positions; /* m, k and the layout of the positions */
    unsigned cell_bits, max;
    uint64_t keys;
    uint8_t cell[MODEL_CELLS_MAX];
    int cuckoo;       /* a cuckoo filter: the fields below, not the cells */
    uint64_t buckets; /* B */
    unsigned fp_bits; /* f */
    uint32_t slot[MODEL_SLOTS_MAX];
} cell_model;

/* Section 4.4's alt(i, fp) = (reduce(mix(fp), B) - i) mod B, for i < B. */
uint64_t model_alt(uint64_t buckets, uint64_t i, uint32_t fp);

/* A key's fingerprint and two buckets in the model's cuckoo filter. */
void model_place(const cell_model *mo, key_hash key, uint32_t *fp, uint64_t *i1, uint64_t *i2);

/* The model of the filter blob (bytes long), which must open; 0 if it cannot be modelled. */
int model_read(cell_model *out, const uint8_t *blob, uint64_t bytes);

/* 1 when the filter blob holds exactly the body and keys of the model. */
int model_matches(const cell_model *mo, const uint8_t *blob);

/* Writes the model's body and keys into the filter blob, its other header fields kept. */
void model_write(const cell_model *mo, uint8_t *blob);

/* The distinct positions of key and the times each is among its k: their count. */
uint32_t distinct_positions(const bloom_header *h, key_hash key, uint64_t *position,
                            unsigned *times);

/* 1 when key may be in the model's filter (all its cells above 0; its fingerprint in one of
** its buckets), 0 when it certainly is not. */
int model_contains(const cell_model *mo, key_hash key);

/* Adds key: 1, or 0 when a cuckoo filter has no room for it (the model unchanged). */
int model_add(cell_model *mo, key_hash key);

/* Removes key: 1, or 0 (nothing changed) when it is certainly not there. */
int model_remove(cell_model *mo, key_hash key);

/* The union of other into mo: 1, or 0 when a fingerprint of a cuckoo filter found no room
** (the model unchanged). */
int model_merge(cell_model *mo, const cell_model *other);

#endif /* BLOOM_CELL_MODEL_H */
