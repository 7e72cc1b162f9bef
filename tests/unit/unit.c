/*
** unit.c: the helpers the files of test_core share. See unit.h.
*/
#include "unit.h"

#include "../fixture.h"

#include <stdlib.h>

uint64_t model_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint64_t next_random(uint64_t *state) {
    return model_mix(*state += UINT64_C(0x9E3779B97F4A7C15));
}

int same_hash(key_hash a, key_hash b) {
    return a.h1 == b.h1 && a.h2 == b.h2;
}

key_hash mixed_key(int64_t i) {
    char text[32];
    int length = snprintf(text, sizeof text, "key %lld", (long long)i);
    switch ((i % 4 + 4) % 4) {
    case 0:
        return key_hash_integer(i * 7919);
    case 1:
        return key_hash_real((double)i + 0.25);
    case 2:
        return key_hash_text(text, (size_t)length);
    default:
        return key_hash_blob(text, (size_t)length);
    }
}

void store64(uint8_t *blob, size_t offset, uint64_t value) {
    for (int i = 0; i < 8; i++) {
        blob[offset + i] = (uint8_t)(value >> (8 * i));
    }
}

uint64_t load64(const uint8_t *blob, size_t offset) {
    uint64_t value = 0;
    for (int i = 7; i >= 0; i--) {
        value = value << 8 | blob[offset + i];
    }
    return value;
}

uint64_t keys_of(const uint8_t *blob) {
    return load64(blob, BLOOM_OFF_KEYS);
}

bloom_header header_of(uint64_t m, uint32_t k, int layout) {
    bloom_header h;
    memset(&h, 0, sizeof h);
    h.m = m;
    h.k = k;
    h.layout = (uint8_t)layout;
    return h;
}

size_t golden_keys(key_hash *keys) {
    static const char *texts[] = {"", "hello",
                                  "\xC3\xBCn\xC3\xAF"
                                  "c\xC3\xB6"
                                  "d\xC3\xA9",
                                  "\xF0\x9F\x99\x82"};
    static const uint8_t blob_deadbeef[] = {0xDE, 0xAD, 0xBE, 0xEF};
    static const int64_t integers[] = {0, 1, -1, INT64_MAX, INT64_MIN, 42, 42};
    static const double reals[] = {1.5, -2.25, 1e300, 0.1, 2.0};
    size_t nkeys = 0;
    for (size_t i = 0; i < sizeof integers / sizeof integers[0]; i++) {
        keys[nkeys++] = key_hash_integer(integers[i]);
    }
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        keys[nkeys++] = key_hash_real(reals[i]);
    }
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        keys[nkeys++] = key_hash_text(texts[i], strlen(texts[i]));
    }
    keys[nkeys++] = key_hash_blob(NULL, 0);
    keys[nkeys++] = key_hash_blob("", 1);
    keys[nkeys++] = key_hash_blob(blob_deadbeef, sizeof blob_deadbeef);
    return nkeys;
}

const char *golden_name(const filter_kind *kind, char *name) {
    snprintf(name, GOLDEN_NAME_MAX, "%s_v%u.hex", kind->name, kind->format_version);
    return name;
}

size_t read_golden_file(const char *golden_dir, const char *file, uint8_t *buf, size_t cap) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", golden_dir, file);
    return read_hex_file(path, buf, cap);
}

size_t read_golden(const char *golden_dir, const filter_kind *kind, uint8_t *buf, size_t cap) {
    char name[GOLDEN_NAME_MAX];
    return read_golden_file(golden_dir, golden_name(kind, name), buf, cap);
}

void print_built(const char *file, const uint8_t *built, uint64_t bytes) {
    fprintf(stderr, "    %s built: ", file);
    for (uint64_t b = 0; b < bytes; b++) {
        fprintf(stderr, "%02X", built[b]);
    }
    fprintf(stderr, "\n");
}

/* counted's read and write. */
static int counted_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    counted_io *io = state;
    if (io->calls++ == io->fail_at) {
        return 1;
    }
    memcpy(buf, io->blob + offset, n);
    return 0;
}

static int counted_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    counted_io *io = state;
    if (io->calls++ == io->fail_at) {
        return 1;
    }
    io->writes++;
    memcpy(io->blob + offset, buf, n);
    return 0;
}

filter_io counted(counted_io *state, uint8_t *blob, int fail_at) {
    filter_io io = {state, counted_read, counted_write};
    state->blob = blob;
    state->calls = state->writes = 0;
    state->fail_at = fail_at;
    return io;
}

void expect_invalid(const uint8_t *blob, uint64_t bytes, const char *expected) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    CHECK(filter_open(blob, bytes, &view, why) == FILTER_INVALID);
    CHECK_STR(why, expected);
}

void check_invalid(const uint8_t *valid, size_t len, size_t offset, uint8_t value,
                   const char *expected) {
    uint8_t blob[256];
    memcpy(blob, valid, len);
    if (offset < len) {
        blob[offset] = value;
    }
    expect_invalid(blob, len, expected);
}

void expect_invalid_at(uint8_t *blob, uint64_t bytes, size_t offset, uint64_t value, int width,
                       const char *expected) {
    uint8_t saved[8];
    memcpy(saved, blob + offset, (size_t)width);
    for (int i = 0; i < width; i++) {
        blob[offset + (size_t)i] = (uint8_t)(value >> (8 * i));
    }
    expect_invalid(blob, bytes, expected);
    memcpy(blob + offset, saved, (size_t)width);
}

void expect_reserved_invalid(uint8_t *blob, uint64_t bytes, size_t from, size_t to, uint8_t value) {
    for (size_t off = from; off < FILTER_HEADER_BYTES;
         off = off + 1 == to ? FILTER_OFF_RESERVED_TAIL : off + 1) {
        char expected[FILTER_WHY_MAX];
        snprintf(expected, sizeof expected, "corrupt filter: reserved byte %zu is 0x%02X, not 0",
                 off, value);
        expect_invalid_at(blob, bytes, off, value, 1, expected);
    }
}

filter_status open_header_view(const uint8_t *blob, uint64_t bytes, filter_view *view,
                               uint8_t *header) {
    char why[FILTER_WHY_MAX];
    filter_status status = filter_open(blob, bytes, view, why);
    memcpy(header, blob, FILTER_HEADER_BYTES);
    view->blob = header;
    return status;
}

size_t parse_hex(const char *s, uint8_t *out, size_t cap) {
    size_t len = 0;
    unsigned byte;
    while (len < cap && sscanf(s, "%2X", &byte) == 1) {
        out[len++] = (uint8_t)byte;
        s += 2;
    }
    return len;
}

char *trim(char *s) {
    size_t length = strlen(s);
    while (length > 0 && s[length - 1] == ' ') {
        s[--length] = '\0';
    }
    return s;
}

key_hash hash_of_literal(const char *key) {
    uint8_t bytes[64];
    if (key[0] == 'x') {
        return key_hash_blob(bytes, parse_hex(key + 2, bytes, sizeof bytes));
    }
    if (key[0] == '\'') {
        return key_hash_text(key + 1, strlen(key) - 2);
    }
    if (strpbrk(key, ".eE") != NULL) {
        return key_hash_real(strtod(key, NULL));
    }
    return key_hash_integer(strtoll(key, NULL, 10));
}

const char *positions_text(const bloom_header *h, key_hash key, char *buf) {
    uint64_t pos[BLOOM_K_MAX];
    size_t used = 0;
    bloom_positions(h, key, pos);
    buf[0] = '\0';
    for (uint32_t i = 0; i < h->k && used < 120; i++) {
        used += (size_t)snprintf(buf + used, 128 - used, "%s%llu", i ? " " : "",
                                 (unsigned long long)pos[i]);
    }
    return buf;
}

int format_section_rows(const char *format_path, const char *section,
                        int (*row)(const char *line, void *context), void *context) {
    FILE *f = fopen(format_path, "r");
    char line[512], begin[64], end[64];
    int inside = 0, rows = 0;
    if (!CHECK(f != NULL)) {
        return 0;
    }
    snprintf(begin, sizeof begin, "<!-- %s:begin -->", section);
    snprintf(end, sizeof end, "<!-- %s:end -->", section);
    while (fgets(line, sizeof line, f) != NULL) {
        if (strstr(line, begin) != NULL) {
            inside = 1;
        } else if (strstr(line, end) != NULL) {
            inside = 0;
        } else if (inside) {
            rows += row(line, context);
        }
    }
    fclose(f);
    return rows;
}

/* Where format_section_bytes writes: out, cap bytes, len of them written. */
typedef struct section_bytes {
    uint8_t *out;
    size_t cap, len;
} section_bytes;

/* format_section_bytes's row: the bytes of a line that begins with a hex digit. */
static int section_bytes_row(const char *line, void *context) {
    section_bytes *bytes = context;
    if (line[0] == '\0' || strchr("0123456789ABCDEF", line[0]) == NULL) {
        return 0;
    }
    for (const char *s = line; *s != '\0' && *s != '\n' && bytes->len < bytes->cap; s++) {
        if (*s != ' ') {
            bytes->len += parse_hex(s, bytes->out + bytes->len, 1);
            s++;
        }
    }
    return 1;
}

size_t format_section_bytes(const char *format_path, const char *section, uint8_t *out,
                            size_t cap) {
    section_bytes bytes = {out, cap, 0};
    format_section_rows(format_path, section, section_bytes_row, &bytes);
    return bytes.len;
}

/* The recipes, made from kind_list.h as the table of kinds is: the kind of id i's at i - 1. */
#define UNIT_RECIPE_ENTRY(id, name) &name##_recipe,
static const kind_recipe *const recipes[FILTER_KIND_COUNT] = {FILTER_KINDS(UNIT_RECIPE_ENTRY)};

const kind_recipe *recipe_of(const filter_kind *kind) {
    return recipes[kind->id - 1];
}

size_t make_filter(const filter_kind *kind, uint64_t m, uint32_t k, uint64_t n, double p,
                   uint8_t *blob, size_t cap) {
    const kind_recipe *r = recipe_of(kind);
    bloom_header h = {kind->id, k, m, n, p, 0};
    uint64_t body_bits = r->cell_bits ? m * r->cell_bits : m * 4 * k;
    size_t bytes = FILTER_HEADER_BYTES + (size_t)((body_bits + 7) / 8);
    if (r->own_golden != NULL || bytes > cap) {
        return 0;
    }
    memset(blob, 0, bytes);
    r->write_header(blob, &h);
    return bytes;
}

size_t make_sized(const filter_kind *kind, uint64_t n, double p, uint8_t *blob, size_t cap) {
    const kind_recipe *r = recipe_of(kind);
    bloom_header h;
    double bytes;
    filter_status status =
        r->size != NULL ? r->size(n, p, &h.m, &h.k) : bloom_size(n, p, r->positions, &h, &bytes);
    return status != FILTER_OK ? 0 : make_filter(kind, h.m, h.k, n, p, blob, cap);
}
