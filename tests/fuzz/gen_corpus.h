/*
** gen_corpus.h: what the files of gen_corpus share: a seed written as fuzz_input.h reads it,
** its values appended to a buffer, and the file it goes to (gen_corpus_seed.c); the writers of
** the corpora kept in files of their own.
*/
#ifndef BLOOM_GEN_CORPUS_H
#define BLOOM_GEN_CORPUS_H

#include "fuzz_input.h"

#include <stddef.h>
#include <stdint.h>

enum { MAX_SEED_BYTES = 16384 };

/* A seed being written. */
typedef struct seed {
    uint8_t bytes[MAX_SEED_BYTES];
    size_t size;
} seed;

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

/* Writes fuzz_shadow's seeds to DIR/fuzz_shadow (gen_corpus_shadow.c). */
void write_shadow_corpus(const char *dir);

#endif /* BLOOM_GEN_CORPUS_H */
