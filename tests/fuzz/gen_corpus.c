/*
** gen_corpus.c: writes the seed corpora of the fuzz targets.
**
** Usage: gen_corpus DIR, where DIR holds the directories fuzz_core, fuzz_sql and
** fuzz_roundtrip. check_corpus.cmake runs it to check (or update) the committed
** corpus/: every file there is written by this program, nothing is edited by hand.
**
** fuzz_core gets filter BLOBs: valid ones of both layouts (empty, with keys,
** full, at k's cap, of a newer writer) and one BLOB for every validation rule
** it breaks. fuzz_sql gets each of those as its first filter, with keys and
** build parameters of every kind. fuzz_roundtrip gets keys of every type under
** every form of bloom_build, with corruptions.
*/
#include "bloom_core.h"
#include "fuzz_input.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SEED_BYTES = 8192 };

/* A seed being written. */
typedef struct seed {
    uint8_t bytes[MAX_SEED_BYTES];
    size_t size;
} seed;

/* A filter BLOB, valid or not, and its name. */
typedef struct filter {
    const char *name;
    uint8_t bytes[2048];
    size_t size;
} filter;

/* Appends length bytes to s; aborts if they do not fit. */
static void put_bytes(seed *s, const void *bytes, size_t length) {
    if (length > sizeof s->bytes - s->size) {
        fuzz_fail("a seed is larger than %d bytes", MAX_SEED_BYTES);
    }
    memcpy(s->bytes + s->size, bytes, length);
    s->size += length;
}

/* Appends one byte. */
static void put_u8(seed *s, unsigned v) {
    uint8_t byte = (uint8_t)v;
    put_bytes(s, &byte, 1);
}

/* Appends v as 2 bytes, little-endian. */
static void put_u16(seed *s, unsigned v) {
    put_u8(s, v & 0xFF);
    put_u8(s, (v >> 8) & 0xFF);
}

/* Appends one corruption of fuzz_roundtrip's input: a flip of mask at offset (modulo the
** filter's length). */
static void put_flip(seed *s, unsigned offset, unsigned mask) {
    put_u8(s, 0);
    put_u16(s, offset);
    put_u8(s, mask);
}

/* Appends v as 8 bytes, little-endian. */
static void put_u64(seed *s, uint64_t v) {
    for (int shift = 0; shift < 64; shift += 8) {
        put_u8(s, (unsigned)(v >> shift) & 0xFF);
    }
}

/* Appends a value of a string tag (FUZZ_TEXT, FUZZ_TEXT16, FUZZ_BLOB). */
static void put_string(seed *s, fuzz_value_tag tag, const void *bytes, size_t length) {
    put_u8(s, tag);
    put_u16(s, (unsigned)length);
    put_bytes(s, bytes, length);
}

/* Appends a TEXT value. */
static void put_text(seed *s, const char *text) {
    put_string(s, FUZZ_TEXT, text, strlen(text));
}

/* Appends an INTEGER value, or an integral REAL one with tag FUZZ_INTEGRAL_REAL. */
static void put_integer(seed *s, fuzz_value_tag tag, int64_t v) {
    put_u8(s, tag);
    put_u64(s, (uint64_t)v);
}

/* Appends a REAL value. */
static void put_real(seed *s, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u8(s, FUZZ_REAL);
    put_u64(s, bits);
}

/* Appends the special REAL of index i (see fuzz_special_real). */
static void put_special_real(seed *s, unsigned i) {
    put_u8(s, FUZZ_SPECIAL_REAL);
    put_u8(s, i);
}

/* Appends a NULL value. */
static void put_null(seed *s) {
    put_u8(s, FUZZ_NULL);
}

/* Writes length bytes to DIR/target/name; aborts on failure. */
static void write_file(const char *dir, const char *target, const char *name, const void *bytes,
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

/* Makes f a filter of layout for n keys at rate p, with the INTEGER keys 0 .. keys - 1. */
static void make_filter(filter *f, const char *name, int layout, uint64_t n, double p,
                        uint64_t keys) {
    bloom_header h;
    double bytes_needed;
    if (bloom_size(n, p, layout, &h, &bytes_needed) != FILTER_OK ||
        bloom_blob_bytes(h.m) > sizeof f->bytes) {
        fuzz_fail("cannot size %s", name);
    }
    f->name = name;
    f->size = bloom_blob_bytes(h.m);
    memset(f->bytes, 0, f->size);
    h.keys = keys;
    bloom_write_header(f->bytes, &h);
    for (uint64_t key = 0; key < keys; key++) {
        bloom_set(f->bytes + FILTER_HEADER_BYTES, &h, key_hash_integer((int64_t)key));
    }
}

/* Writes v little-endian into width bytes at f's offset. */
static void poke(filter *f, size_t offset, uint64_t v, int width) {
    for (int i = 0; i < width; i++) {
        f->bytes[offset + i] = (uint8_t)(v >> (8 * i));
    }
}

/* Writes the double v into f's p field. */
static void poke_p(filter *f, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    poke(f, 32, bits, 8);
}

/* The filters of the corpora: first the valid ones, then one per broken rule. Returns how
** many it wrote to filters (room for 64). */
static size_t make_filters(filter *filters) {
    size_t count = 0;
    filter base;
    make_filter(&filters[count++], "standard_empty", BLOOM_LAYOUT_STANDARD, 100, 0.01, 0);
    make_filter(&filters[count++], "standard_100_keys", BLOOM_LAYOUT_STANDARD, 100, 0.01, 100);
    make_filter(&filters[count++], "blocked_empty", BLOOM_LAYOUT_BLOCKED, 100, 0.01, 0);
    make_filter(&filters[count++], "blocked_100_keys", BLOOM_LAYOUT_BLOCKED, 100, 0.01, 100);
    make_filter(&filters[count++], "standard_k_63", BLOOM_LAYOUT_STANDARD, 10, 1e-19, 10);
    make_filter(&filters[count++], "blocked_p_1e-19", BLOOM_LAYOUT_BLOCKED, 10, 1e-19, 10);
    make_filter(&filters[count++], "blocked_p_half", BLOOM_LAYOUT_BLOCKED, 50, 0.5, 50);
    make_filter(&filters[count], "standard_full", BLOOM_LAYOUT_STANDARD, 10, 0.1, 0);
    memset(filters[count].bytes + FILTER_HEADER_BYTES, 0xFF,
           filters[count].size - FILTER_HEADER_BYTES);
    poke(&filters[count++], 40, 1000, 8);
    make_filter(&filters[count], "keys_added_max", BLOOM_LAYOUT_STANDARD, 10, 0.01, 10);
    poke(&filters[count++], 40, UINT64_MAX, 8);
    make_filter(&filters[count], "newer_writer_reserved", BLOOM_LAYOUT_STANDARD, 100, 0.01, 50);
    filters[count].bytes[4] = 2; /* format version 2, readable by version 1 */
    filters[count].bytes[12] = 0xAB;
    filters[count++].bytes[63] = 0xCD;

    /* One broken rule each, on a small valid filter. */
    make_filter(&base, "base", BLOOM_LAYOUT_STANDARD, 10, 0.01, 10);
    static const struct {
        const char *name;
        size_t offset; /* field to overwrite */
        int width;     /* its width in bytes; 0 for a change of length to value */
        uint64_t value;
    } broken[] = {
        {"too_short_0", 0, 0, 0},
        {"too_short_1", 0, 0, 1},
        {"too_short_63", 0, 0, 63},
        {"bad_magic", 0, 1, 's'},
        {"version_0", 4, 1, 0},
        {"min_reader_0", 5, 1, 0},
        {"newer_reader", 4, 2, 0x0202},
        {"layout_0", 6, 1, 0},
        {"layout_3", 6, 1, 3},
        {"hash_9", 7, 1, 9},
        {"k_0", 8, 4, 0},
        {"k_65", 8, 4, 65},
        {"k_huge", 8, 4, 0xFFFFFFFF},
        {"m_0", 16, 8, 0},
        {"m_193", 16, 8, 193},
        {"m_huge", 16, 8, UINT64_C(0x8000000000000000)},
        {"m_max", 16, 8, UINT64_MAX - 63},
        {"length_plus_1", 0, 0, 1},
        {"length_minus_8", 0, 0, 8},
        {"blocked_m_not_512", 6, 1, BLOOM_LAYOUT_BLOCKED},
        {"n_0", 24, 8, 0},
        {"reserved_12", 12, 1, 1},
        {"reserved_15", 15, 1, 0x80},
        {"reserved_48", 48, 1, 1},
        {"reserved_63", 63, 1, 0xFF},
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = broken[i].name;
        if (broken[i].width > 0) {
            poke(f, broken[i].offset, broken[i].value, broken[i].width);
        } else if (strncmp(f->name, "too_short", 9) == 0) {
            f->size = broken[i].value;
        } else if (strcmp(f->name, "length_plus_1") == 0) {
            f->bytes[f->size++] = 0;
        } else {
            f->size -= broken[i].value;
        }
    }
    static const struct {
        const char *name;
        double p;
    } bad_rates[] = {{"p_0", 0.0},
                     {"p_1", 1.0},
                     {"p_negative", -0.01},
                     {"p_nan", NAN},
                     {"p_infinite", INFINITY}};
    for (size_t i = 0; i < sizeof bad_rates / sizeof bad_rates[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = bad_rates[i].name;
        poke_p(f, bad_rates[i].p);
    }
    return count;
}

/* Appends a row of the table rows of fuzz_sql: the INTEGER key, n, p and the layout. */
static void put_row(seed *s, int64_t key, int64_t n, double p, const char *layout) {
    put_integer(s, FUZZ_INTEGER, key);
    put_integer(s, FUZZ_INTEGER, n);
    put_real(s, p);
    put_text(s, layout);
}

/* fuzz_sql: each filter as ?1, with a key it holds, a valid ?3 and two rows; then seeds for
** the other paths: encodings, keys and build parameters of every kind, length limits. */
static void write_sql_corpus(const char *dir, const filter *filters, size_t count) {
    const filter *standard = &filters[1], *blocked = &filters[3];
    seed s;
    for (size_t i = 0; i < count; i++) {
        s.size = 0;
        put_u8(&s, 0);
        put_string(&s, FUZZ_BLOB, filters[i].bytes, filters[i].size);
        put_integer(&s, FUZZ_INTEGER, 5);
        put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
        put_u8(&s, 2);
        put_row(&s, 1, 100, 0.01, i % 2 ? "blocked" : "standard");
        put_row(&s, 2, 100, 0.01, i % 2 ? "blocked" : "standard");
        write_file(dir, "fuzz_sql", filters[i].name, s.bytes, s.size);
    }

    /* UTF-16le, blocked filters, TEXT keys, auto-sized builds ('BLOCKED' in capitals). */
    s.size = 0;
    put_u8(&s, 1);
    put_string(&s, FUZZ_BLOB, blocked->bytes, blocked->size);
    put_text(&s, "h\xC3\xA9llo");
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_u8(&s, 3);
    for (int row = 0; row < 3; row++) {
        put_text(&s, row == 0 ? "" : row == 1 ? "\xFF\xFE not UTF-8" : "'quoted'");
        put_null(&s);
        put_real(&s, 0.001);
        put_text(&s, "BLOCKED");
    }
    write_file(dir, "fuzz_sql", "utf16le_text_auto_sized", s.bytes, s.size);

    /* UTF-16be, keys of the other types; n as an integral REAL. */
    s.size = 0;
    put_u8(&s, 2);
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_string(&s, FUZZ_TEXT16, "h\0i\0", 4);
    put_string(&s, FUZZ_BLOB, blocked->bytes, blocked->size);
    put_u8(&s, 4);
    put_special_real(&s, 0); /* -0.0 */
    put_integer(&s, FUZZ_INTEGRAL_REAL, 1000);
    put_real(&s, 1e-6);
    put_text(&s, "standard");
    put_string(&s, FUZZ_BLOB, "\0\1\2", 3);
    put_integer(&s, FUZZ_INTEGRAL_REAL, 1000);
    put_real(&s, 1e-6);
    put_text(&s, "standard");
    put_u8(&s, FUZZ_ZEROBLOB);
    put_u16(&s, 17);
    put_integer(&s, FUZZ_INTEGRAL_REAL, 1000);
    put_real(&s, 1e-6);
    put_text(&s, "standard");
    put_special_real(&s, 8); /* 2^53 */
    put_integer(&s, FUZZ_INTEGRAL_REAL, 1000);
    put_real(&s, 1e-6);
    put_text(&s, "standard");
    write_file(dir, "fuzz_sql", "utf16be_key_types", s.bytes, s.size);

    /* Build parameters out of range or changing between rows, one per row. */
    s.size = 0;
    put_u8(&s, 0);
    put_null(&s);
    put_integer(&s, FUZZ_INTEGER, 7);
    put_string(&s, FUZZ_BLOB, blocked->bytes, blocked->size);
    put_u8(&s, 8);
    put_row(&s, 1, 0, 0.01, "standard");                   /* n = 0 */
    put_row(&s, 2, -1, 0.01, "standard");                  /* n < 0 */
    put_row(&s, 3, INT64_MAX, 0.01, "standard");           /* too big */
    put_row(&s, 4, 100, 1e-20, "standard");                /* k > 64 */
    put_row(&s, 5, 100, 0.6, "blocked");                   /* p > 0.5 for blocked */
    put_row(&s, 6, 100, 0.01, "cuckoo");                   /* unknown layout */
    put_row(&s, 7, 100, 0.01, "standard");                 /* valid */
    put_row(&s, 8, 100, nextafter(0.01, 1.0), "standard"); /* a p that differs */
    write_file(dir, "fuzz_sql", "bad_build_parameters", s.bytes, s.size);

    /* Valid parameters, but the layout changes between rows. */
    s.size = 0;
    put_u8(&s, 0);
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_integer(&s, FUZZ_INTEGER, 1);
    put_string(&s, FUZZ_BLOB, blocked->bytes, blocked->size);
    put_u8(&s, 2);
    put_row(&s, 1, 100, 0.01, "standard");
    put_row(&s, 2, 100, 0.01, "blocked");
    write_file(dir, "fuzz_sql", "layout_changes", s.bytes, s.size);

    /* A 40-byte length limit: messages cut, filters too big. */
    s.size = 0;
    put_u8(&s, 3 * 4);
    put_text(&s, "a text filter \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9 cut");
    put_integer(&s, FUZZ_INTEGER, 5);
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_u8(&s, 1);
    put_row(&s, 1, 100, 0.01, "standard");
    write_file(dir, "fuzz_sql", "length_limit_40", s.bytes, s.size);

    /* Incompatible filters to merge. */
    s.size = 0;
    put_u8(&s, 0);
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_integer(&s, FUZZ_INTEGER, 5);
    put_string(&s, FUZZ_BLOB, filters[4].bytes, filters[4].size);
    put_u8(&s, 0);
    write_file(dir, "fuzz_sql", "union_incompatible", s.bytes, s.size);
}

/* The 2 bytes of fuzz_roundtrip's p that give the rate closest to p, for a call of
** bloom_build that takes p down to bottom (see fuzz_roundtrip.c). */
static unsigned rate_bytes(double p, double bottom) {
    return (unsigned)lround(65535.0 * log10(p / 0.5) / log10(bottom / 0.5));
}

/* Appends keys of every type to s, for fuzz_roundtrip. */
static void put_keys_of_every_type(seed *s) {
    static const int64_t integers[] = {0, 1, -1, INT64_MIN, INT64_MAX, 9007199254740993};
    put_u8(s, 23);
    for (size_t i = 0; i < sizeof integers / sizeof integers[0]; i++) {
        put_integer(s, FUZZ_INTEGER, integers[i]);
    }
    put_integer(s, FUZZ_INTEGRAL_REAL, 42);
    put_integer(s, FUZZ_INTEGRAL_REAL, INT64_MIN);
    put_special_real(s, 0);  /* -0.0 */
    put_special_real(s, 10); /* 2^63 */
    put_special_real(s, 15); /* NaN, bound as NULL */
    put_real(s, 1.5);
    put_real(s, 1e300);
    put_text(s, "hello");
    put_text(s, "");
    put_text(s, "\xC3\xBC");
    put_text(s, "\xC0\xAF not UTF-8");
    put_string(s, FUZZ_TEXT16, "h\0\xFC\0", 4);
    put_string(s, FUZZ_BLOB, "hello", 5);
    put_string(s, FUZZ_BLOB, "", 0);
    put_u8(s, FUZZ_ZEROBLOB);
    put_u16(s, 5);
    put_null(s);
    put_integer(s, FUZZ_INTEGER, 5); /* a repeated key */
}

/* fuzz_roundtrip: every call of bloom_build, both layouts, the three encodings, small and
** large rates, with corruptions of the bits only, of the header, and of the length. */
static void write_roundtrip_corpus(const char *dir) {
    static const struct {
        const char *name;
        unsigned configuration, n;
        double p;
        unsigned groups;
        int corruption; /* 0 none, 1 bits only, 2 header, 3 truncated, 4 extended */
    } seeds[] = {
        {"key_only", 0 * 4, 0, 0.01, 1, 1},
        {"n_p", 1 * 4, 100, 0.01, 2, 2},
        {"n_p_standard_utf16le", 2 * 4 + 1, 100, 0.001, 3, 3},
        {"n_p_blocked", 3 * 4, 100, 0.01, 4, 4},
        {"n_p_blocked_utf16be", 3 * 4 + 2, 30, 0.1, 2, 1},
        {"auto_sized_blocked", 3 * 4, 0, 0.01, 1, 2},
        {"integral_real_n", 2 * 4 + 16, 50, 0.05, 2, 0},
        {"tiny_p_standard", 2 * 4, 20, 2e-19, 3, 1},
        {"tiny_p_blocked", 3 * 4, 20, 1e-6, 3, 2},
        {"large_p_blocked", 3 * 4, 20, 0.5, 2, 3},
    };
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        seed s = {.size = 0};
        put_u8(&s, seeds[i].configuration);
        put_u16(&s, seeds[i].n);
        int blocked = (seeds[i].configuration / 4) % 4 == 3;
        put_u16(&s, rate_bytes(seeds[i].p, 0.5 * pow(10.0, blocked ? -5.7 : -18.5)));
        put_u8(&s, seeds[i].groups - 1);
        put_keys_of_every_type(&s);
        switch (seeds[i].corruption) {
        case 1: /* two flips in the bit array */
            put_u8(&s, 2);
            put_flip(&s, 64, 0xFF);
            put_flip(&s, 65535, 0x10);
            break;
        case 2: /* a flip of k */
            put_u8(&s, 1);
            put_flip(&s, 8, 0x40);
            break;
        case 3: /* truncated into the header */
            put_u8(&s, 1);
            put_u8(&s, 1);
            put_u16(&s, 40);
            break;
        case 4: /* one byte more */
            put_u8(&s, 1);
            put_u8(&s, 2);
            put_u8(&s, 0);
            break;
        default:
            put_u8(&s, 0);
            break;
        }
        write_file(dir, "fuzz_roundtrip", seeds[i].name, s.bytes, s.size);
    }
}

int main(int argc, char **argv) {
    static filter filters[64];
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    size_t count = make_filters(filters);
    for (size_t i = 0; i < count; i++) {
        write_file(argv[1], "fuzz_core", filters[i].name, filters[i].bytes, filters[i].size);
    }
    write_sql_corpus(argv[1], filters, count);
    write_roundtrip_corpus(argv[1]);
    return 0;
}
