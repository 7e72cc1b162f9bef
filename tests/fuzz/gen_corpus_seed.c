/*
** gen_corpus_seed.c: a seed written as fuzz_input.h reads it (see gen_corpus.h).
*/
#include "gen_corpus.h"

#include "filter_kinds.h"

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

/* Makes f a filter of kind (a Bloom layout, or COUNTING_KIND) for n keys at rate p, with the
** INTEGER keys 0 .. keys - 1. */
void make_filter(filter *f, const char *name, int kind, uint64_t n, double p, uint64_t keys) {
    bloom_header h;
    double bytes_needed;
    int layout = kind == COUNTING_KIND ? BLOOM_LAYOUT_STANDARD : kind;
    if (bloom_size(n, p, layout, &h, &bytes_needed) != FILTER_OK ||
        (kind == COUNTING_KIND ? counting_blob_bytes(h.m) : bloom_blob_bytes(h.m)) >
            sizeof f->bytes) {
        fuzz_fail("cannot size %s", name);
    }
    f->name = name;
    if (kind == COUNTING_KIND) {
        f->size = counting_blob_bytes(h.m);
        memset(f->bytes, 0, f->size);
        h.layout = COUNTING_KIND;
        counting_write_header(f->bytes, &h);
        for (uint64_t key = 0; key < keys; key++) {
            filter_add(&counting_kind, f->bytes, key_hash_integer((int64_t)key));
        }
        return;
    }
    f->size = bloom_blob_bytes(h.m);
    memset(f->bytes, 0, f->size);
    h.keys = keys;
    bloom_write_header(f->bytes, &h);
    for (uint64_t key = 0; key < keys; key++) {
        bloom_set(f->bytes + FILTER_HEADER_BYTES, &h, key_hash_integer((int64_t)key));
    }
}

/* Writes v little-endian into width bytes at f's offset. */
void poke(filter *f, size_t offset, uint64_t v, int width) {
    for (int i = 0; i < width; i++) {
        f->bytes[offset + i] = (uint8_t)(v >> (8 * i));
    }
}

/* The m of f's header. */
uint64_t le_m(const filter *f) {
    uint64_t m = 0;
    for (int i = 0; i < 8; i++) {
        m |= (uint64_t)f->bytes[16 + i] << (8 * i);
    }
    return m;
}

/* Writes the double v into f's p field. */
void poke_p(filter *f, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    poke(f, 32, bits, 8);
}

/* The view of the valid filter f; aborts if it is refused. */
filter_view open_filter(const filter *f) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(f->bytes, f->size, &view, why) != FILTER_OK) {
        fuzz_fail("%s: %s", f->name, why);
    }
    return view;
}
