/*
** gen_corpus_seed.c: a seed written as fuzz_input.h reads it (see gen_corpus.h).
*/
#include "gen_corpus.h"

#include <stdio.h>
#include <string.h>

/* Appends length bytes to s; aborts if they do not fit. */
void put_bytes(seed *s, const void *bytes, size_t length) {
    if (length > sizeof s->bytes - s->size) {
        fuzz_fail("a seed is larger than %d bytes", MAX_SEED_BYTES);
    }
    memcpy(s->bytes + s->size, bytes, length);
    s->size += length;
}

/* Appends one byte. */
void put_u8(seed *s, unsigned v) {
    uint8_t byte = (uint8_t)v;
    put_bytes(s, &byte, 1);
}

/* Appends v as 2 bytes, little-endian. */
void put_u16(seed *s, unsigned v) {
    put_u8(s, v & 0xFF);
    put_u8(s, (v >> 8) & 0xFF);
}

/* Appends v as 8 bytes, little-endian. */
void put_u64(seed *s, uint64_t v) {
    for (int shift = 0; shift < 64; shift += 8) {
        put_u8(s, (unsigned)(v >> shift) & 0xFF);
    }
}

/* Appends a value of a string tag (FUZZ_TEXT, FUZZ_TEXT16, FUZZ_BLOB). */
void put_string(seed *s, fuzz_value_tag tag, const void *bytes, size_t length) {
    put_u8(s, tag);
    put_u16(s, (unsigned)length);
    put_bytes(s, bytes, length);
}

/* Appends a TEXT value. */
void put_text(seed *s, const char *text) {
    put_string(s, FUZZ_TEXT, text, strlen(text));
}

/* Appends an INTEGER value, or an integral REAL one with tag FUZZ_INTEGRAL_REAL. */
void put_integer(seed *s, fuzz_value_tag tag, int64_t v) {
    put_u8(s, tag);
    put_u64(s, (uint64_t)v);
}

/* Appends the 8 bytes of v's bits, little-endian. */
void put_real_bits(seed *s, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(s, bits);
}

/* Appends a REAL value. */
void put_real(seed *s, double v) {
    put_u8(s, FUZZ_REAL);
    put_real_bits(s, v);
}

/* Appends the special REAL of index i (see fuzz_special_real). */
void put_special_real(seed *s, unsigned i) {
    put_u8(s, FUZZ_SPECIAL_REAL);
    put_u8(s, i);
}

/* Appends a NULL value. */
void put_null(seed *s) {
    put_u8(s, FUZZ_NULL);
}

/* Writes length bytes to DIR/target/name; aborts on failure. */
void write_file(const char *dir, const char *target, const char *name, const void *bytes,
                size_t length) {
    char path[1024];
    if (snprintf(path, sizeof path, "%s/%s/%s", dir, target, name) >= (int)sizeof path) {
        fuzz_fail("path too long: %s/%s/%s", dir, target, name);
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(bytes, 1, length, f) != length || fclose(f) != 0) {
        fuzz_fail("cannot write %s", path);
    }
}
