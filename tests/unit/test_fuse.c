/*
** test_fuse.c: the binary fuse kind (fuse_core, docs/format.md section 4.8): sizing, the keys
** sorted without repeats, builds of every size that hold every key at a rate that tracks 2^-f,
** the same bytes for the same set, validation, the probe through a filter_io, and its golden
** fixture.
*/
#include "unit.h"

#include <math.h>
#include <stdlib.h>

static void test_fuse_golden(const char *golden_dir);

const kind_recipe fuse_recipe = {
    .kind = &fuse_kind, .golden_bytes = 106, .own_golden = test_fuse_golden};

/* docs/format.md section 1: kind 8, of format version 2 and key hash 1; static: it is probed,
** also in place, and nothing else. */
void test_fuse_kind(void) {
    CHECK(filter_kind_by_id(FUSE_KIND) == &fuse_kind && FUSE_KIND == 8);
    CHECK(fuse_kind.format_version == 2 && fuse_kind.key_hash == KEY_HASH_XXH3_128);
    CHECK_STR(fuse_kind.name, "fuse");
    CHECK(filter_kind_can(&fuse_kind, FILTER_PROBES_IN_PLACE));
    CHECK(!filter_kind_can(&fuse_kind, FILTER_ADDS) &&
          !filter_kind_can(&fuse_kind, FILTER_ADDS_IN_PLACE) &&
          !filter_kind_can(&fuse_kind, FILTER_REMOVES) &&
          !filter_kind_can(&fuse_kind, FILTER_MERGES) &&
          !filter_kind_can(&fuse_kind, FILTER_GROWS));
    char why[FILTER_WHY_MAX];
    filter_kind_refusal(&fuse_kind, FILTER_REMOVES, why);
    CHECK_STR(why, "a 'fuse' filter cannot remove keys: it is built once from all its keys; build "
                   "it again, or build a 'counting' or 'cuckoo' filter to remove keys");
    filter_kind_refusal(&fuse_kind, FILTER_MERGES, why);
    CHECK_STR(why, "a 'fuse' filter cannot merge with another: it is built once from all its "
                   "keys; build it from both sets of keys, or build a 'standard', 'blocked', "
                   "'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to merge with "
                   "another");
}

/* Section 4.8's sizing: f the fewest bits with 2^-f <= p; segments of 2^s slots; about 1.13 f
** bits a key at a million keys; the errors. */
void test_fuse_sizing(void) {
    static const struct {
        double p;
        uint32_t f;
    } widths[] = {{0.5, 1},       {0.4999, 2},       {0.01, 7},
                  {0.0078125, 7}, {0.0078124, 8},    {0.004, 8},
                  {1e-4, 14},     {1.0 / 65536, 16}, {1.0 / 4294967296.0, 32}};
    fuse_header h;
    double bytes;
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        CHECK(fuse_size(1000, 1000, widths[i].p, &h, &bytes) == FILTER_OK);
        CHECK_U64(h.fingerprint_bits, widths[i].f);
    }
    CHECK(fuse_size(1000, 1000, 1.0 / 4294967296.0 * 0.99, &h, &bytes) == FILTER_TOO_MANY_HASHES);
    CHECK(fuse_size(10, 0, 0.01, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(fuse_size(10, 10, 1.0, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(fuse_size(UINT64_C(4000000000), 1, 0.01, &h, &bytes) == FILTER_TOO_BIG && bytes > 0);
    /* A million keys: segments of 2^13 slots, 136 of them and 2 more; 7.91 and 9.04 bits a key
    ** at 1 % and 0.4 % (issue's goals: 8.2 and 9.15). */
    CHECK(fuse_size(1000000, 1000000, 0.01, &h, &bytes) == FILTER_OK);
    CHECK(h.segment_bits == 13 && h.segments == 136 && fuse_slots(&h) == 138 * 8192);
    CHECK_U64(fuse_blob_bytes(&h), (uint64_t)bytes);
    CHECK(8 * bytes / 1e6 < 7.92);
    CHECK(fuse_size(1000000, 1000000, 0.004, &h, &bytes) == FILTER_OK && 8 * bytes / 1e6 < 9.05);
    /* 0 and 1 keys are sized as 2: one segment of 4 slots, and 2 more. */
    for (uint64_t keys = 0; keys <= 2; keys++) {
        CHECK(fuse_size(keys, 1, 0.01, &h, &bytes) == FILTER_OK);
        CHECK(h.segment_bits == 2 && h.segments == 1 && fuse_slots(&h) == 12);
    }
    /* The segments stop growing at 2^18 slots. */
    CHECK(fuse_size(UINT64_C(1000000000), 1, 0.01, &h, &bytes) == FILTER_OK &&
          h.segment_bits == 18);
}

/* fuse_distinct_keys sorts and drops repeats, whatever the order. */
void test_fuse_distinct(void) {
    enum { COUNT = 5000 };
    static uint64_t keys[COUNT], buffer[COUNT];
    uint64_t state = 7;
    for (uint64_t i = 0; i < COUNT; i++) {
        keys[i] = i % 3 == 0 ? next_random(&state) : keys[i / 2]; /* repeats */
    }
    keys[10] = 0;
    keys[11] = UINT64_MAX;
    uint64_t distinct = fuse_distinct_keys(keys, COUNT, buffer);
    int sorted = 1;
    for (uint64_t i = 1; i < distinct; i++) {
        sorted &= keys[i - 1] < keys[i];
    }
    CHECK(sorted && keys[0] == 0 && keys[distinct - 1] == UINT64_MAX);
    CHECK(distinct > COUNT / 3 && distinct < COUNT / 2 + 3);
    CHECK_U64(fuse_distinct_keys(keys, 0, buffer), 0);
}

/* A filter built by the core from h1 values keys[0 .. count), which are made distinct first;
** malloc'd (NULL if the build failed), its length into *bytes, its header into *h. */
static uint8_t *fuse_make(uint64_t *keys, uint64_t count, uint64_t n, double p, fuse_header *h,
                          uint64_t *bytes) {
    uint64_t *buffer = malloc((count + 1) * sizeof *buffer);
    double bytes_needed;
    uint64_t distinct = fuse_distinct_keys(keys, count, buffer);
    free(buffer);
    if (fuse_size(distinct, n, p, h, &bytes_needed) != FILTER_OK) {
        return NULL;
    }
    uint64_t slots = fuse_slots(h);
    fuse_scratch scratch = {malloc(slots * 8), malloc(slots * 4), malloc(slots)};
    *bytes = (uint64_t)bytes_needed;
    uint8_t *blob = calloc(1, *bytes);
    if (fuse_build(blob, h, keys, &scratch) != FILTER_OK) {
        free(blob);
        blob = NULL;
    }
    free(scratch.hashes);
    free(scratch.order);
    free(scratch.counts);
    return blob;
}

/* The key hash whose h1 is h1 (the kind reads no other half). */
static key_hash fuse_key(uint64_t h1) {
    key_hash key = {h1, 0};
    return key;
}

/* Builds of 0 to 300 keys and of larger sets, at several widths: each holds every key, is
** valid, and used a seed among the first few; the rate of 200,000 absent keys tracks 2^-f. */
void test_fuse_builds(void) {
    enum { KEYS_MAX = 200000 };
    static uint64_t keys[KEYS_MAX], copy[KEYS_MAX];
    static const uint64_t sizes[] = {1000, 4096, 20000, KEYS_MAX};
    static const double rates[] = {0.5, 0.01, 0.004, 1e-4};
    uint64_t state = 11, seeds_max = 0, missing = 0, built = 0, invalid = 0, retried = 0;
    for (uint64_t count = 0; count < 300 + sizeof sizes / sizeof sizes[0]; count++) {
        uint64_t size = count < 300 ? count : sizes[count - 300];
        double p = rates[count % 4];
        for (uint64_t i = 0; i < size; i++) {
            keys[i] = next_random(&state);
        }
        memcpy(copy, keys, size * sizeof *keys);
        fuse_header h;
        uint64_t bytes;
        uint8_t *blob = fuse_make(copy, size, size > 0 ? size : 1, p, &h, &bytes);
        if (!CHECK(blob != NULL)) {
            continue;
        }
        filter_view view;
        char why[FILTER_WHY_MAX];
        invalid += filter_open(blob, bytes, &view, why) != FILTER_OK;
        built++;
        retried += h.seed != 0; /* its keys were put back after a seed that failed */
        seeds_max = h.seed / UINT64_C(0x9E3779B97F4A7C15) > seeds_max
                        ? h.seed / UINT64_C(0x9E3779B97F4A7C15)
                        : seeds_max;
        for (uint64_t i = 0; i < size; i++) {
            missing += fuse_kind.might_contain(&view, fuse_key(keys[i])) != 1;
        }
        if (size == KEYS_MAX) {
            uint64_t hits = 0, probes = 200000;
            for (uint64_t i = 0; i < probes; i++) {
                hits += fuse_kind.might_contain(&view, fuse_key(next_random(&state)));
            }
            double rate = (double)hits / (double)probes,
                   expected = ldexp(1.0, -(int)h.fingerprint_bits);
            double sigma = sqrt(expected * (1 - expected) / (double)probes);
            if (!CHECK(fabs(rate - expected) < 5 * sigma)) {
                fprintf(stderr, "    %llu keys at f = %u: rate %g, not %g\n",
                        (unsigned long long)size, (unsigned)h.fingerprint_bits, rate, expected);
            }
        }
        free(blob);
    }
    CHECK_U64(missing, 0);
    CHECK_U64(invalid, 0);
    CHECK_U64(built, 304);
    if (!CHECK(retried >= 5)) {
        fprintf(stderr, "    %llu builds took a second seed\n", (unsigned long long)retried);
    }
    if (!CHECK(seeds_max < 16)) {
        fprintf(stderr, "    a build needed seed %llu\n", (unsigned long long)seeds_max);
    }
}

/* The same set of keys in another order, with repeats, gives the same bytes; another set, other
** bytes. */
void test_fuse_same_set_same_bytes(void) {
    enum { COUNT = 3000 };
    static uint64_t keys[2 * COUNT], first[COUNT];
    uint64_t state = 5, bytes[3];
    fuse_header h;
    uint8_t *blobs[3];
    for (uint64_t i = 0; i < COUNT; i++) {
        keys[i] = next_random(&state);
    }
    memcpy(first, keys, sizeof first);
    blobs[0] = fuse_make(keys, COUNT, COUNT, 0.01, &h, &bytes[0]);
    for (uint64_t i = 0; i < COUNT; i++) { /* each twice */
        keys[2 * i] = keys[2 * i + 1] = first[i];
    }
    for (uint64_t i = 0; i < 2 * COUNT; i++) { /* then shuffled */
        uint64_t j = next_random(&state) % (2 * COUNT), swap = keys[i];
        keys[i] = keys[j];
        keys[j] = swap;
    }
    blobs[1] = fuse_make(keys, 2 * COUNT, COUNT, 0.01, &h, &bytes[1]);
    CHECK_U64(h.keys, COUNT);
    keys[0] ^= 1; /* one key changed */
    blobs[2] = fuse_make(keys, COUNT, COUNT, 0.01, &h, &bytes[2]);
    CHECK(blobs[0] && blobs[1] && blobs[2] && bytes[0] == bytes[1] && bytes[1] == bytes[2]);
    CHECK(memcmp(blobs[0], blobs[1], bytes[0]) == 0);
    CHECK(memcmp(blobs[0], blobs[2], bytes[0]) != 0);
    for (int i = 0; i < 3; i++) {
        free(blobs[i]);
    }
}

/* An empty filter answers 0 for every key; one key, 1 for it. */
void test_fuse_empty_and_one(void) {
    uint64_t key = 42, bytes;
    fuse_header h;
    filter_view view;
    char why[FILTER_WHY_MAX];
    uint8_t *empty = fuse_make(&key, 0, 1, 0.5, &h, &bytes);
    CHECK(empty != NULL && filter_open(empty, bytes, &view, why) == FILTER_OK && h.keys == 0);
    uint64_t hits = 0, state = 1;
    for (int i = 0; i < 1000; i++) {
        hits += fuse_kind.might_contain(&view, fuse_key(next_random(&state)));
    }
    CHECK_U64(hits, 0);
    uint8_t *one = fuse_make(&key, 1, 1, 0.5, &h, &bytes);
    CHECK(one != NULL && filter_open(one, bytes, &view, why) == FILTER_OK && h.keys == 1);
    CHECK(fuse_kind.might_contain(&view, fuse_key(42)) == 1);
    free(empty);
    free(one);
}

/* Section 5's checks of a fuse header, each with its message. */
void test_fuse_validation(void) {
    uint64_t keys[100], state = 3, bytes;
    for (int i = 0; i < 100; i++) {
        keys[i] = next_random(&state);
    }
    fuse_header h;
    uint8_t *blob = fuse_make(keys, 100, 100, 0.01, &h, &bytes);
    if (!CHECK(blob != NULL && bytes <= 256)) {
        free(blob);
        return;
    }
    char expected[FILTER_WHY_MAX];
    check_invalid(blob, bytes, 8, 0, "corrupt filter: fingerprints of 0 bits, not 1 to 32");
    check_invalid(blob, bytes, 8, 33, "corrupt filter: fingerprints of 33 bits, not 1 to 32");
    check_invalid(blob, bytes, 9, 4, "corrupt filter: 4 slots a key, not 3");
    check_invalid(blob, bytes, 10, 19, "corrupt filter: segments of 2^19 slots, above 2^18");
    expect_invalid_at(blob, bytes, 12, 0, 4, "corrupt filter: 0 segments of 2^6 slots");
    snprintf(expected, sizeof expected,
             "corrupt filter: %llu slots of 7-bit fingerprints need %llu bytes, the BLOB has "
             "%llu",
             (unsigned long long)fuse_slots(&h), (unsigned long long)bytes,
             (unsigned long long)bytes - 1);
    expect_invalid(blob, bytes - 1, expected);
    expect_invalid_at(blob, bytes, 24, 0, 8, "corrupt filter: capacity n = 0");
    snprintf(expected, sizeof expected, "corrupt filter: %llu keys in %llu slots",
             (unsigned long long)fuse_slots(&h) + 1, (unsigned long long)fuse_slots(&h));
    expect_invalid_at(blob, bytes, 40, fuse_slots(&h) + 1, 8, expected);
    expect_reserved_invalid(blob, bytes, 11, 12, 1);
    free(blob);
}

/* might_contain_io answers as might_contain, reading a field's bytes a slot; a failed read is
** FILTER_IO_FAILED. */
void test_fuse_io(void) {
    enum { COUNT = 2000 };
    static uint64_t keys[COUNT];
    uint64_t state = 9, bytes;
    for (int i = 0; i < COUNT; i++) {
        keys[i] = next_random(&state);
    }
    static const double rates[] = {0.5, 0.01, 0.004, 1e-4, 1.0 / 4294967296.0};
    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
        fuse_header h;
        uint8_t *blob = fuse_make(keys, COUNT, COUNT, rates[r], &h, &bytes);
        filter_view view, header_view;
        char why[FILTER_WHY_MAX];
        uint8_t header[FILTER_HEADER_BYTES];
        if (!CHECK(blob != NULL && filter_open(blob, bytes, &view, why) == FILTER_OK &&
                   open_header_view(blob, bytes, &header_view, header) == FILTER_OK)) {
            free(blob);
            continue;
        }
        int wrong = 0, reads = 0;
        for (int i = 0; i < 4000; i++) {
            key_hash key = fuse_key(i < COUNT ? keys[i] : next_random(&state));
            counted_io state_io;
            filter_io io = counted(&state_io, blob, -1);
            int answer = -1;
            wrong += fuse_kind.might_contain_io(&header_view, &io, key, &answer) != FILTER_OK;
            wrong += answer != fuse_kind.might_contain(&view, key);
            reads += state_io.calls;
            io = counted(&state_io, blob, i % 3);
            wrong +=
                fuse_kind.might_contain_io(&header_view, &io, key, &answer) != FILTER_IO_FAILED;
        }
        CHECK(wrong == 0 && reads == 3 * 4000);
        free(blob);
    }
}

/* The golden fuse filter, bloom_build(k, 20, 0.01, 'fuse') over the golden keys (tests/golden):
** 18 distinct keys, 48 slots of 7 bits, 106 bytes; it holds each key. */
static void test_fuse_golden(const char *golden_dir) {
    key_hash keys[32];
    uint64_t h1s[32], bytes;
    size_t count = golden_keys(keys);
    for (size_t i = 0; i < count; i++) {
        h1s[i] = keys[i].h1;
    }
    fuse_header h;
    uint8_t *built = fuse_make(h1s, count, 20, 0.01, &h, &bytes);
    uint8_t golden[256];
    if (!CHECK(built != NULL && bytes == 106 && h.keys == 18 && fuse_slots(&h) == 48)) {
        free(built);
        return;
    }
    size_t golden_len = read_golden(golden_dir, &fuse_kind, golden, sizeof golden);
    CHECK_U64(golden_len, 106);
    if (!CHECK(golden_len == bytes && memcmp(golden, built, bytes) == 0)) {
        print_built("fuse_v2.hex", built, bytes);
    }
    filter_view view;
    char why[FILTER_WHY_MAX];
    CHECK(filter_open(built, bytes, &view, why) == FILTER_OK);
    for (size_t i = 0; i < count; i++) {
        CHECK(fuse_kind.might_contain(&view, keys[i]) == 1);
    }
    free(built);
}

/* Section 4.8 written from its words, for section 6's vectors: reduce(x, r) = floor(r x / 2^64),
** for r < 2^32 (A is), in 32-bit halves. */
static uint64_t fuse_model_reduce(uint64_t x, uint64_t r) {
    return ((x >> 32) * r + (((x & UINT64_C(0xFFFFFFFF)) * r) >> 32)) >> 32;
}

/* The f-bit field of slot j of a body: its bit t is bit j f + t of the body (4.4's packing). */
static uint32_t fuse_model_slot(const uint8_t *body, uint32_t f, uint64_t j) {
    uint32_t value = 0;
    for (uint32_t t = 0; t < f; t++) {
        uint64_t u = j * f + t;
        value |= (uint32_t)((body[u / 8] >> (u % 8)) & 1) << t;
    }
    return value;
}

/* The golden filter the kind-8 vectors follow keys through. */
typedef struct fuse_vectors {
    const uint8_t *blob;
    filter_view view;
    fuse_header h;
} fuse_vectors;

/* Checks a row of the kind-8 vectors of docs/format.md section 6: the key's h1, mixed hash,
** fingerprint and slots by the model of section 4.8, the values of those slots, and the probe by
** the model and the core. Returns 1 if it was a row. */
static int check_fuse_row(const char *line, void *context) {
    const fuse_vectors *v = context;
    char key_text[64], h1_text[17], h_text[17];
    unsigned fp, values[3];
    unsigned long long slots[3];
    int probe;
    if (sscanf(
            line,
            "| `%63[^`]` | `%16[0-9A-F]` | `%16[0-9A-F]` | %u | %llu %llu %llu | %u %u %u | %d |",
            key_text, h1_text, h_text, &fp, &slots[0], &slots[1], &slots[2], &values[0], &values[1],
            &values[2], &probe) != 11) {
        return 0;
    }
    key_hash key = hash_of_literal(key_text);
    uint32_t f = v->h.fingerprint_bits;
    uint64_t length = UINT64_C(1) << v->h.segment_bits;
    uint64_t h = model_mix(key.h1 + v->h.seed);
    uint64_t j0 = fuse_model_reduce(h, v->h.segments * length);
    uint64_t j[3] = {j0, (j0 + length) ^ ((h >> 18) & (length - 1)),
                     (j0 + 2 * length) ^ (h & (length - 1))};
    uint64_t mask = (UINT64_C(1) << f) - 1;
    if (!CHECK(key.h1 == strtoull(h1_text, NULL, 16) && h == strtoull(h_text, NULL, 16))) {
        fprintf(stderr, "    %s\n", key_text);
    }
    CHECK_U64((h ^ (h >> 32)) & mask, fp);
    uint32_t xor = 0;
    for (int i = 0; i < 3; i++) {
        CHECK_U64(j[i], slots[i]);
        CHECK_U64(j[i] / length, j0 / length + (uint64_t)i); /* three consecutive segments */
        uint32_t value = fuse_model_slot(v->blob + FILTER_HEADER_BYTES, f, j[i]);
        CHECK_U64(value, values[i]);
        xor ^= value;
    }
    CHECK_U64(xor == fp, (uint64_t)probe);
    if (!CHECK(fuse_kind.might_contain(&v->view, key) == probe)) {
        fprintf(stderr, "    %s\n", key_text);
    }
    return 1;
}

/* Section 6's kind-8 vectors, through the golden filter rebuilt from the golden keys (f = 7,
** s = 4, S = 1, seed 0, as the text above the table says). */
void test_fuse_format_vectors(const char *format_path) {
    key_hash keys[32];
    uint64_t h1s[32], bytes;
    size_t count = golden_keys(keys);
    for (size_t i = 0; i < count; i++) {
        h1s[i] = keys[i].h1;
    }
    fuse_vectors v;
    char why[FILTER_WHY_MAX];
    uint8_t *blob = fuse_make(h1s, count, 20, 0.01, &v.h, &bytes);
    if (!CHECK(blob != NULL && filter_open(blob, bytes, &v.view, why) == FILTER_OK)) {
        free(blob);
        return;
    }
    v.blob = blob;
    v.h = fuse_header_of(&v.view);
    CHECK(v.h.fingerprint_bits == 7 && v.h.segment_bits == 4 && v.h.segments == 1 &&
          v.h.seed == 0 && fuse_slots(&v.h) == 48);
    CHECK_U64(format_section_rows(format_path, "fuse-vectors", check_fuse_row, &v), 8);
    free(blob);
}
