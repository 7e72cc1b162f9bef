/*
** gen_corpus.h: what the files of gen_corpus share: a seed written as fuzz_input.h reads it,
** its values appended to a buffer, and the file it goes to (gen_corpus_seed.c); the writers of
** the corpora kept in files of their own.
*/
#ifndef BLOOM_GEN_CORPUS_H
#define BLOOM_GEN_CORPUS_H

#include "fuzz_input.h"
#include "kind_list.h"

#include <stddef.h>
#include <stdint.h>

enum { MAX_SEED_BYTES = 16384 };

/* A seed being written. */
typedef struct seed {
    uint8_t bytes[MAX_SEED_BYTES];
    size_t size;
} seed;

/* A filter BLOB, valid or not, and its name. */
typedef struct filter {
    const char *name;
    uint8_t bytes[5120]; /* a scalable filter of 64 one-word stages: 4,672 */
    size_t size;
} filter;

/* Room for the filters of the corpora. */
enum { MAX_FILTERS = 288 };

/* Appends length bytes to s; aborts if they do not fit. */
void put_bytes(seed *s, const void *bytes, size_t length);

/* Appends one byte. */
void put_u8(seed *s, unsigned v);

/* Appends v as 2 bytes, little-endian. */
void put_u16(seed *s, unsigned v);

/* Appends v as 8 bytes, little-endian. */
void put_u64(seed *s, uint64_t v);

/* Appends a value of a string tag (FUZZ_TEXT, FUZZ_TEXT16, FUZZ_BLOB). */
void put_string(seed *s, fuzz_value_tag tag, const void *bytes, size_t length);

/* Appends a TEXT value. */
void put_text(seed *s, const char *text);

/* Appends an INTEGER value, or an integral REAL one with tag FUZZ_INTEGRAL_REAL. */
void put_integer(seed *s, fuzz_value_tag tag, int64_t v);

/* Appends the 8 bytes of v's bits, little-endian. */
void put_real_bits(seed *s, double v);

/* Appends a REAL value. */
void put_real(seed *s, double v);

/* Appends the special REAL of index i (see fuzz_special_real). */
void put_special_real(seed *s, unsigned i);

/* Appends a NULL value. */
void put_null(seed *s);

/* Writes length bytes to DIR/target/name; aborts on failure. */
void write_file(const char *dir, const char *target, const char *name, const void *bytes,
                size_t length);

/* Makes f a filter of kind (a Bloom layout, or COUNTING_KIND) for n keys at rate p, with the
** INTEGER keys 0 .. keys - 1. */
void make_filter(filter *f, const char *name, int kind, uint64_t n, double p, uint64_t keys);

/* Writes v little-endian into width bytes at f's offset. */
void poke(filter *f, size_t offset, uint64_t v, int width);

/* The m of f's header. */
uint64_t le_m(const filter *f);

/* Writes the double v into f's p field. */
void poke_p(filter *f, double v);

/* The view of the valid filter f; aborts if it is refused. */
filter_view open_filter(const filter *f);

/* Each kind's seed filters, written into filters from index 0: their count. A kind of
** kind_list.h without its gen_corpus_<kind>.c does not link. */
#define GEN_SEEDS_DECLARE(id, name) size_t name##_seed_filters(filter *filters);
FILTER_KINDS(GEN_SEEDS_DECLARE)

/* Writes fuzz_shadow's seeds to DIR/fuzz_shadow (gen_corpus_shadow.c). */
void write_shadow_corpus(const char *dir);

#endif /* BLOOM_GEN_CORPUS_H */
