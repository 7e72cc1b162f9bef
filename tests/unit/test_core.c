/*
** test_core.c: unit tests of the pure C core, without SQLite.
**
** Usage: test_core GOLDEN_DIR FORMAT
**
** FORMAT is docs/format.md, whose test vectors are checked here.
*/
#include "bloom_core.h"
#include "bloom_model.h"
#include "key_set.h"
#include "../check.h"
#include "../fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* splitmix64: a small deterministic generator for test keys. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A header with just what positions need: m bits, k and the layout. */
static bloom_header header_of(uint64_t m, uint32_t k, int layout) {
    bloom_header h;
    memset(&h, 0, sizeof h);
    h.m = m;
    h.k = k;
    h.layout = (uint8_t)layout;
    return h;
}

static int same_hash(key_hash a, key_hash b) {
    return a.h1 == b.h1 && a.h2 == b.h2;
}

/* The sizing formulas, computed independently in long double. */
static void expected_sizing(uint64_t n, double p, uint64_t *m, uint32_t *k) {
    long double ln2 = logl(2.0L);
    long double formula_bits = ceill(-(long double)n * logl((long double)p) / (ln2 * ln2));
    long double rounded_k = roundl(formula_bits / (long double)n * ln2);
    *k = rounded_k < 1 ? 1 : (uint32_t)rounded_k;
    *m = (uint64_t)ceill(formula_bits / 64) * 64;
}

static void test_sizing_formulas(void) {
    static const uint64_t ns[] = {1, 2, 3, 7, 10, 100, 1000, 12345, 1000000, 1000000000};
    static const double ps[] = {0.5, 0.3, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-6, 1e-9, 1e-12};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
            bloom_header h;
            double bytes;
            uint64_t m;
            uint32_t k;
            CHECK(bloom_size(ns[i], ps[j], BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
            expected_sizing(ns[i], ps[j], &m, &k);
            CHECK_U64(h.m, m);
            CHECK_U64(h.k, k);
            CHECK_U64(h.n, ns[i]);
            CHECK(h.p == ps[j]);
            CHECK_U64(h.keys, 0);
            CHECK(bytes == (double)bloom_blob_bytes(h.m));
            CHECK_U64(bloom_blob_bytes(h.m), 64 + h.m / 8);
        }
    }
}

static void test_sizing_anchors(void) {
    bloom_header h;
    double bytes;
    /* 1000 keys at 1 %: 9585.06 bits by the formula, so 9586, then 150 words. */
    CHECK(bloom_size(1000, 0.01, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
    CHECK_U64(h.k, 7);
    CHECK_U64(h.m, 9600);
    CHECK(bytes == 1264.0);
    /* 1M keys: 9.59 bits per key at 1 %, 4.79 at 10 %, 14.38 at 0.1 %. */
    CHECK(bloom_size(1000000, 0.01, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
    CHECK_U64(h.k, 7);
    CHECK_U64(h.m, 9585088);
    CHECK(bloom_size(1000000, 0.1, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
    CHECK_U64(h.k, 3);
    CHECK_U64(h.m, 4792576);
    CHECK(bloom_size(1000000, 0.001, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
    CHECK_U64(h.k, 10);
    CHECK_U64(h.m, 14377600);
    /* One key: m rounds up to one word, k comes from the formula's 10 bits. */
    CHECK(bloom_size(1, 0.01, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
    CHECK_U64(h.m, 64);
    CHECK_U64(h.k, 7);
    /* A rate close to 1 still gets one hash function and one word. */
    CHECK(bloom_size(1, 0.999999, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
    CHECK_U64(h.k, 1);
    CHECK_U64(h.m, 64);
}

static void test_sizing_errors(void) {
    bloom_header h;
    double bytes;
    CHECK(bloom_size(0, 0.01, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(bloom_size(10, 0.0, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(bloom_size(10, 1.0, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(bloom_size(10, -0.5, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(bloom_size(10, NAN, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(bloom_size(10, INFINITY, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_BAD_ARGUMENT);
    /* k is capped at 64: 1e-19 needs 63, 1e-20 needs 66. */
    CHECK(bloom_size(10, 1e-19, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
    CHECK_U64(h.k, 63);
    CHECK(bloom_size(10, 1e-20, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_TOO_MANY_HASHES);
    CHECK_U64(h.k, 66);
    CHECK(bloom_size(10, 1e-30, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_TOO_MANY_HASHES);
    CHECK_U64(h.k, 100);
    CHECK(bloom_size(10, 4.9406564584124654e-324, BLOOM_LAYOUT_STANDARD, &h, &bytes) ==
          FILTER_TOO_MANY_HASHES);
    CHECK_U64(h.k, 1074);
    /* More than 2^61 bytes (m would not fit in 64 bits): too big for the core, and the size is
    ** still reported. Just below 2^61 bytes is still sized, in both layouts. */
    CHECK(bloom_size(UINT64_C(2900000000000000000), 0.01, BLOOM_LAYOUT_STANDARD, &h, &bytes) ==
          FILTER_TOO_BIG);
    CHECK(bytes > 3.4e18 && bytes < 3.5e18);
    CHECK(bloom_size(INT64_MAX, 0.3, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_TOO_BIG);
    CHECK(bloom_size(INT64_MAX, 0.3, BLOOM_LAYOUT_BLOCKED, &h, &bytes) == FILTER_TOO_BIG);
    CHECK(bloom_size(UINT64_C(1900000000000000000), 0.01, BLOOM_LAYOUT_STANDARD, &h, &bytes) ==
          FILTER_OK);
    CHECK(h.m / 8 + 64 == bytes && h.m > UINT64_C(1) << 63);
    CHECK(bloom_size(UINT64_C(1) << 62, 0.01, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_TOO_BIG);
    CHECK(bytes > 5.5e18 && bytes < 5.6e18);
    CHECK(bloom_size(UINT64_MAX, 0.1, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_TOO_BIG);
}

/* A header with every field distinct, for the codec tests. */
static bloom_header sample_header(void) {
    bloom_header h = {BLOOM_LAYOUT_STANDARD, 7, 192, 20, 0.01, 0};
    h.keys = UINT64_C(0x0102030405060708);
    return h;
}

/* Opens blob as a filter and decodes its Bloom header: filter_open's status. */
static filter_status open_bloom(const uint8_t *blob, uint64_t len, filter_view *view,
                                bloom_header *h, char *why) {
    filter_status status = filter_open(blob, len, view, why);
    if (status == FILTER_OK) {
        *h = bloom_header_of(view);
    }
    return status;
}

static void test_header_bytes(void) {
    uint8_t blob[64 + 24] = {0};
    bloom_header h = sample_header();
    static const uint8_t expected[64] = {
        'S',  'Q',  'B',  'F',  1,    1,    1,    1,    /* magic, versions, layout, hash */
        7,    0,    0,    0,    0,    0,    0,    0,    /* k, reserved */
        0xC0, 0,    0,    0,    0,    0,    0,    0,    /* m = 192 */
        20,   0,    0,    0,    0,    0,    0,    0,    /* n = 20 */
        0x7B, 0x14, 0xAE, 0x47, 0xE1, 0x7A, 0x84, 0x3F, /* p = 0.01 */
        8,    7,    6,    5,    4,    3,    2,    1,    /* keys */
    };
    bloom_write_header(blob, &h);
    CHECK(memcmp(blob, expected, sizeof expected) == 0);

    filter_view view;
    bloom_header back;
    char why[FILTER_WHY_MAX];
    CHECK(open_bloom(blob, sizeof blob, &view, &back, why) == FILTER_OK);
    CHECK_STR(why, "");
    CHECK(view.kind == &bloom_standard_kind && view.blob == blob && view.bytes == sizeof blob);
    CHECK(view.version == 1 && view.min_reader_version == 1 && view.hash == KEY_HASH_XXH3_128);
    CHECK(back.layout == h.layout && back.k == h.k && back.m == h.m && back.n == h.n &&
          back.p == h.p && back.keys == h.keys);
}

/* Reads a mutated copy of a valid 88-byte filter and checks the message. */
static void check_invalid(const uint8_t *valid, size_t len, size_t offset, uint8_t value,
                          const char *expected) {
    uint8_t blob[256];
    filter_view view;
    char why[FILTER_WHY_MAX];
    memcpy(blob, valid, len);
    if (offset < len) {
        blob[offset] = value;
    }
    CHECK(filter_open(blob, len, &view, why) == FILTER_INVALID);
    CHECK_STR(why, expected);
}

static void test_validation(void) {
    uint8_t valid[88] = {0};
    bloom_header h = sample_header();
    bloom_write_header(valid, &h);
    char why[FILTER_WHY_MAX];
    filter_view view;
    bloom_header back;

    check_invalid(valid, 0, 99, 0,
                  "not a Bloom filter: length 0 is shorter than the 64-byte header");
    check_invalid(valid, 63, 99, 0,
                  "not a Bloom filter: length 63 is shorter than the 64-byte header");
    check_invalid(valid, 88, 0, 's',
                  "not a Bloom filter: magic is x'73514246', not x'53514246' (SQBF)");
    check_invalid(valid, 88, 5, 2,
                  "corrupt filter: format version 1 with minimum reader version 2");
    check_invalid(valid, 88, 5, 0,
                  "corrupt filter: format version 1 with minimum reader version 0");
    check_invalid(valid, 88, 4, 0,
                  "corrupt filter: format version 0 with minimum reader version 1");
    check_invalid(valid, 88, 6, 3, "corrupt filter: unknown kind 3");
    check_invalid(valid, 88, 6, 0, "corrupt filter: unknown kind 0");
    check_invalid(valid, 88, 6, 2,
                  "corrupt filter: m = 192 bits is not a positive multiple of 512");
    check_invalid(valid, 88, 7, 0, "corrupt filter: unknown hash 0");
    check_invalid(valid, 88, 8, 0, "corrupt filter: k = 0 is outside 1..64");
    check_invalid(valid, 88, 8, 65, "corrupt filter: k = 65 is outside 1..64");
    check_invalid(valid, 88, 11, 1, "corrupt filter: k = 16777223 is outside 1..64");
    check_invalid(valid, 88, 16, 0, "corrupt filter: m = 0 bits is not a positive multiple of 64");
    check_invalid(valid, 88, 16, 0xC1,
                  "corrupt filter: m = 193 bits is not a positive multiple of 64");
    check_invalid(valid, 88, 16, 0x80,
                  "corrupt filter: m = 128 bits needs 80 bytes, the BLOB has 88");
    check_invalid(valid, 87, 99, 0, "corrupt filter: m = 192 bits needs 88 bytes, the BLOB has 87");
    check_invalid(valid, 88, 23, 0x80,
                  "corrupt filter: m = 9223372036854776000 bits needs 1152921504606847064 bytes, "
                  "the BLOB has 88");
    check_invalid(valid, 88, 24, 0, "corrupt filter: capacity n = 0");
    check_invalid(valid, 88, 39, 0xBF, "corrupt filter: p = -0.01 is not between 0 and 1");
    check_invalid(valid, 88, 39, 0x40, "corrupt filter: p = 655.36 is not between 0 and 1");
    uint8_t not_a_number[88];
    memcpy(not_a_number, valid, sizeof not_a_number);
    not_a_number[38] = 0xF8;
    not_a_number[39] = 0x7F;
    CHECK(filter_open(not_a_number, sizeof not_a_number, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: p = NaN is not between 0 and 1");
    uint8_t newer_format[88];
    memcpy(newer_format, valid, sizeof newer_format);
    newer_format[4] = newer_format[5] = 2;
    CHECK(filter_open(newer_format, sizeof newer_format, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "filter format version 2 needs a reader of version 2 or later; this one reads "
                   "version 1");
    /* A kind added by a later format version is written with that version as its minimum
    ** reader version: this reader refuses it as newer before looking at the kind. */
    newer_format[6] = 9;
    newer_format[8] = 0xEE;
    CHECK(filter_open(newer_format, sizeof newer_format, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "filter format version 2 needs a reader of version 2 or later; this one reads "
                   "version 1");
    for (size_t off = 12; off < 64; off++) {
        if (off == 16) {
            off = 48; /* skip m, n, p and keys */
        }
        char expected[FILTER_WHY_MAX];
        snprintf(expected, sizeof expected, "corrupt filter: reserved byte %zu is 0x01, not 0",
                 off);
        check_invalid(valid, 88, off, 1, expected);
    }

    /* A newer writer that version-1 readers may read owns the reserved bytes. */
    uint8_t newer[88];
    memcpy(newer, valid, sizeof newer);
    newer[4] = 2;
    newer[12] = 0xAA;
    newer[63] = 0x55;
    CHECK(open_bloom(newer, sizeof newer, &view, &back, why) == FILTER_OK);
    CHECK_U64(view.version, 2);
    CHECK_U64(back.k, 7);
}

static void test_key_canonicalisation(void) {
    /* Numbers compare by value: integral REALs in int64 range hash as INTEGERs. */
    CHECK(same_hash(key_hash_real(1.0), key_hash_integer(1)));
    CHECK(same_hash(key_hash_real(-0.0), key_hash_integer(0)));
    CHECK(same_hash(key_hash_real(0.0), key_hash_integer(0)));
    CHECK(same_hash(key_hash_real(-1e15), key_hash_integer(-1000000000000000)));
    CHECK(same_hash(key_hash_real(9007199254740992.0), key_hash_integer(9007199254740992)));
    CHECK(!same_hash(key_hash_real(9007199254740992.0), key_hash_integer(9007199254740993)));
    CHECK(same_hash(key_hash_real(-9223372036854775808.0), key_hash_integer(INT64_MIN)));
    /* 2^63 is no INTEGER: it keeps its REAL identity. */
    CHECK(!same_hash(key_hash_real(9223372036854775808.0), key_hash_integer(INT64_MAX)));
    CHECK(!same_hash(key_hash_real(9223372036854775808.0), key_hash_integer(INT64_MIN)));
    CHECK(!same_hash(key_hash_real(1.5), key_hash_integer(1)));
    CHECK(!same_hash(key_hash_real(1.5), key_hash_real(-1.5)));
    CHECK(same_hash(key_hash_real(NAN), key_hash_real(-NAN)));
    CHECK(!same_hash(key_hash_real(INFINITY), key_hash_real(-INFINITY)));
    /* TEXT, BLOB and numbers are distinct, even with the same bytes. */
    CHECK(!same_hash(key_hash_text("abc", 3), key_hash_blob("abc", 3)));
    CHECK(!same_hash(key_hash_text("", 0), key_hash_blob("", 0)));
    CHECK(!same_hash(key_hash_text("", 0), key_hash_blob(NULL, 0)));
    CHECK(same_hash(key_hash_blob("", 0), key_hash_blob(NULL, 0)));
    static const uint8_t one_le[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    CHECK(!same_hash(key_hash_blob(one_le, 8), key_hash_integer(1)));
    CHECK(!same_hash(key_hash_text("1", 1), key_hash_integer(1)));
    /* Embedded NULs are part of the key. */
    CHECK(!same_hash(key_hash_text("a", 1), key_hash_text("a\0", 2)));
}

static void test_reduce(void) {
    uint64_t state = 1;
    static const uint64_t edges[] = {
        0, 1, 2, 63, 64, UINT32_MAX, UINT64_C(1) << 32, UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        for (size_t j = 0; j < sizeof edges / sizeof edges[0]; j++) {
            CHECK_U64(bloom_reduce(edges[i], edges[j]), bloom_reduce_portable(edges[i], edges[j]));
        }
    }
    CHECK_U64(bloom_reduce(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1);
    CHECK_U64(bloom_reduce(UINT64_C(1) << 63, 1000), 500);
    int mismatches = 0, out_of_range = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t x = next_random(&state), m = next_random(&state) >> (i % 64);
        uint64_t r = bloom_reduce(x, m);
        mismatches += r != bloom_reduce_portable(x, m);
        out_of_range += m != 0 && r >= m;
    }
    CHECK_U64(mismatches, 0);
    CHECK_U64(out_of_range, 0);
}

/* The positions follow the closed form the format spec gives. */
static void test_positions_closed_form(void) {
    uint64_t state = 7;
    for (int key = 0; key < 10000; key++) {
        key_hash h = {next_random(&state), next_random(&state)};
        if (key == 0) {
            h.h2 = 0; /* the step is forced odd: still k distinct inputs */
        }
        uint64_t m = (next_random(&state) >> 20) + 1;
        uint64_t pos[BLOOM_K_MAX];
        bloom_header hdr = header_of(m, BLOOM_K_MAX, BLOOM_LAYOUT_STANDARD);
        bloom_positions(&hdr, h, pos);
        for (uint64_t i = 0; i < BLOOM_K_MAX; i++) {
            uint64_t mixed = h.h1 + i * (h.h2 | 1) - UINT64_C(0x9E3779B97F4A7C15);
            CHECK_U64(pos[i], bloom_reduce_portable(next_random(&mixed), m));
        }
    }
}

/*
** Small filters at small p: the measured rate follows the fill model
** (X/m)^k within 5 standard deviations. Plain double hashing fails this by
** 8x at n = 10, p = 1e-4, and by 6x at n = 1000, p = 1e-6.
*/
static void test_small_filters_track_the_model(void) {
    static const struct {
        uint64_t n;
        double p;
        uint64_t probes;
    } cases[] = {{10, 1e-4, 10000000}, {1000, 1e-6, 100000000}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bloom_header h;
        double bytes;
        CHECK(bloom_size(cases[c].n, cases[c].p, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
        uint8_t *bits = calloc(h.m / 8, 1);
        if (!CHECK(bits != NULL)) {
            return;
        }
        for (uint64_t i = 0; i < cases[c].n; i++) {
            bloom_set(bits, &h, key_hash_integer((int64_t)i));
        }
        uint64_t set = 0, hits = 0;
        for (uint64_t i = 0; i < h.m; i++) {
            set += (bits[i / 8] >> (i % 8)) & 1;
        }
        for (uint64_t i = 0; i < cases[c].probes; i++) {
            hits += bloom_test(bits, &h, key_hash_integer(-1 - (int64_t)i));
        }
        double expected = (double)cases[c].probes * pow((double)set / (double)h.m, h.k);
        double sigma = sqrt(expected);
        if (!CHECK(fabs((double)hits - expected) < 5 * sigma + 1)) {
            fprintf(stderr, "    n = %llu, p = %g: %llu hits, model %.1f\n",
                    (unsigned long long)cases[c].n, cases[c].p, (unsigned long long)hits, expected);
        }
        free(bits);
    }
}

/*
** Positions use the whole 64-bit range: over filters of 2^40 bits and of
** 8e9 bits (SQLite's largest BLOB), 1M positions spread evenly over 256
** equal slices (chi-square with 255 degrees of freedom, bound at 6 sigma).
*/
static void test_positions_wide(void) {
    static const uint64_t ms[] = {UINT64_C(1) << 40, UINT64_C(8000000000)};
    for (size_t t = 0; t < sizeof ms / sizeof ms[0]; t++) {
        static uint32_t slices[256];
        memset(slices, 0, sizeof slices);
        uint64_t above_2_32 = 0, total = 0;
        for (uint32_t key = 0; key < 125000; key++) {
            uint64_t pos[8];
            bloom_header hdr = header_of(ms[t], 8, BLOOM_LAYOUT_STANDARD);
            bloom_positions(&hdr, key_hash_integer(key), pos);
            for (int i = 0; i < 8; i++) {
                slices[bloom_reduce(pos[i] * (UINT64_MAX / ms[t]), 256)]++;
                above_2_32 += pos[i] >= (UINT64_C(1) << 32);
                total++;
            }
        }
        double expected = (double)total / 256, chi2 = 0;
        for (int s = 0; s < 256; s++) {
            chi2 += (slices[s] - expected) * (slices[s] - expected) / expected;
        }
        CHECK(chi2 < 255 + 6 * sqrt(2 * 255.0));
        double share_above = (double)above_2_32 / (double)total;
        double expected_above = 1 - 4294967296.0 / (double)ms[t];
        CHECK(fabs(share_above - expected_above) < 0.005);
    }
}

/* A fresh filter has nothing; every key set tests present; many random keys never miss. */
static void test_no_false_negatives(void) {
    bloom_header h;
    double bytes;
    CHECK(bloom_size(200000, 0.01, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
    uint8_t *bits = calloc(h.m / 8, 1);
    CHECK(bits != NULL);
    if (bits == NULL) {
        return;
    }
    uint64_t state = 42;
    int present_before = 0;
    for (int i = 0; i < 1000; i++) {
        present_before += bloom_test(bits, &h, key_hash_integer((int64_t)next_random(&state)));
    }
    CHECK_U64(present_before, 0);

    /* 1M keys of every kind, far beyond capacity, then each tested again. */
    enum { KEYS = 1000000 };
    uint8_t key[48];
    int misses = 0;
    for (int pass = 0; pass < 2; pass++) {
        state = 12345;
        for (int i = 0; i < KEYS; i++) {
            uint64_t r = next_random(&state);
            size_t len = (size_t)(r % sizeof key);
            for (size_t b = 0; b < len; b++) {
                key[b] = (uint8_t)(next_random(&state) >> 56);
            }
            key_hash kh;
            switch (r >> 62) {
            case 0:
                kh = key_hash_integer((int64_t)next_random(&state));
                break;
            case 1:
                kh = key_hash_real((double)(int64_t)next_random(&state) / 1024.0);
                break;
            case 2:
                kh = key_hash_text(key, len);
                break;
            default:
                kh = key_hash_blob(key, len);
                break;
            }
            if (pass == 0) {
                bloom_set(bits, &h, kh);
            } else {
                misses += !bloom_test(bits, &h, kh);
            }
        }
    }
    CHECK_U64(misses, 0);
    free(bits);
}

/* The golden filters of tests/golden/README.md, built through the core API alone: the same
** keys in each layout, compared with GOLDEN_DIR/<layout>_v1.hex. */
static void test_golden(const char *golden_dir) {
    static const char *texts[] = {"", "hello",
                                  "\xC3\xBCn\xC3\xAF"
                                  "c\xC3\xB6"
                                  "d\xC3\xA9",
                                  "\xF0\x9F\x99\x82"};
    static const uint8_t blob_deadbeef[] = {0xDE, 0xAD, 0xBE, 0xEF};
    static const int64_t integers[] = {0, 1, -1, INT64_MAX, INT64_MIN, 42, 42};
    static const double reals[] = {1.5, -2.25, 1e300, 0.1, 2.0};
    static const struct {
        int layout;
        const char *file;
        size_t bytes;
    } fixtures[] = {{BLOOM_LAYOUT_STANDARD, "standard_v1.hex", 88},
                    {BLOOM_LAYOUT_BLOCKED, "blocked_v1.hex", 128}};
    key_hash keys[32];
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
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        bloom_header h;
        double bytes;
        uint8_t built[256] = {0}, golden[256];
        char path[4096];
        CHECK(bloom_size(20, 0.01, fixtures[f].layout, &h, &bytes) == FILTER_OK);
        CHECK_U64(bloom_blob_bytes(h.m), fixtures[f].bytes);
        for (size_t i = 0; i < nkeys; i++) {
            bloom_set(built + FILTER_HEADER_BYTES, &h, keys[i]);
            h.keys++;
        }
        bloom_write_header(built, &h);
        snprintf(path, sizeof path, "%s/%s", golden_dir, fixtures[f].file);
        size_t golden_len = read_hex_file(path, golden, sizeof golden);
        CHECK_U64(golden_len, fixtures[f].bytes);
        if (!CHECK(golden_len == fixtures[f].bytes && memcmp(golden, built, golden_len) == 0)) {
            fprintf(stderr, "    %s built: ", fixtures[f].file);
            for (size_t i = 0; i < fixtures[f].bytes; i++) {
                fprintf(stderr, "%02X", built[i]);
            }
            fprintf(stderr, "\n");
        }
    }
}

static void test_measure(void) {
    bloom_header h;
    double bytes;
    CHECK(bloom_size(1000, 0.01, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK);
    uint8_t bits[1200] = {0};
    bloom_fill f = bloom_measure(&h, bits);
    CHECK_U64(f.bits_set, 0);
    CHECK(f.fill_ratio == 0 && f.estimated_keys == 0 && f.estimated_fp_rate == 0);
    CHECK(!f.over_capacity);
    /* Half the bits: the estimate is m/k ln 2, the rate 2^-k. */
    memset(bits, 0x55, sizeof bits);
    h.keys = 2000;
    f = bloom_measure(&h, bits);
    CHECK_U64(f.bits_set, 4800);
    CHECK(fabs(f.estimated_keys - log(0.5) / (7 * log1p(-1.0 / 9600))) < 1e-9);
    CHECK(fabs(f.estimated_fp_rate - 1.0 / 128) < 1e-15);
    CHECK(!f.over_capacity); /* 950.6 distinct keys estimated for n = 1000 */
    /* Every bit set: no finite estimate, over capacity once more keys than n were added. */
    memset(bits, 0xFF, sizeof bits);
    f = bloom_measure(&h, bits);
    CHECK(isinf(f.estimated_keys) && isinf(f.estimated_keys_se));
    CHECK(f.estimated_fp_rate == 1.0 && f.over_capacity);
    h.keys = 1000;
    CHECK(!bloom_measure(&h, bits).over_capacity);
    /* One 64-bit segment with k = 64: a key sets more than half the bits, and the error has
    ** no term for pairs of segments (whose logarithm would not exist). */
    bloom_header one = header_of(64, 64, BLOOM_LAYOUT_STANDARD);
    uint8_t word[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F};
    f = bloom_measure(&one, word);
    CHECK_U64(f.bits_set, 60);
    CHECK(isfinite(f.estimated_keys_se) && f.estimated_keys_se > 0.3);
}

static void test_compatibility_and_merge(void) {
    bloom_header a = sample_header(), b = sample_header();
    char why[FILTER_WHY_MAX];
    CHECK(bloom_check_compatible(&a, &b, why) == FILTER_OK);
    b.n = 99;
    b.p = 0.5;
    CHECK(bloom_check_compatible(&a, &b, why) == FILTER_OK);
    b = sample_header();
    b.m = 256;
    CHECK(bloom_check_compatible(&a, &b, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: one built for n = 20 at p = 0.01 (192 bits, k = 7), the "
                   "other for n = 20 at p = 0.01 (256 bits, k = 7); build both with the same n, p "
                   "and layout");
    b = sample_header();
    b.k = 8;
    b.n = 18446744073709551615u;
    b.p = 1.23456789012346e-19;
    CHECK(bloom_check_compatible(&a, &b, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: one built for n = 20 at p = 0.01 (192 bits, k = 7), the "
                   "other for n = 18446744073709551615 at p = 1.23456789012346e-19 (192 bits, k = "
                   "8); build both with the same n, p and layout");

    uint8_t dst[24] = {0x01, 0x80}, src[24] = {0x02, 0x80};
    src[23] = 0xF0;
    bloom_merge(dst, src, 192);
    CHECK(dst[0] == 0x03 && dst[1] == 0x80 && dst[23] == 0xF0 && dst[2] == 0);
    CHECK_U64(bloom_add_counts(2, 3), 5);
    CHECK_U64(bloom_add_counts(UINT64_MAX - 1, 1), UINT64_MAX);
    CHECK_U64(bloom_add_counts(UINT64_MAX, UINT64_MAX), UINT64_MAX);
}

static void test_hash_set(void) {
    key_hash slots[8] = {{0, 0}}, bigger[16] = {{0, 0}};
    key_set set = {slots, 8, 0, 0}, grown = {bigger, 16, 0, 0};
    key_hash a = {1, 2}, b = {9, 2}, zero = {0, 0}, same_slot = {1, 3};
    CHECK(key_set_insert(&set, a) == 1);
    CHECK(key_set_insert(&set, a) == 0);
    CHECK(key_set_insert(&set, b) == 1); /* same first slot as a: probes on */
    CHECK(key_set_insert(&set, same_slot) == 1);
    CHECK(key_set_insert(&set, zero) == 1);
    CHECK(key_set_insert(&set, zero) == 0);
    CHECK_U64(set.count, 3);
    CHECK_U64(key_set_size(&set), 4);
    key_set_move(&set, &grown);
    CHECK_U64(key_set_size(&grown), 4);
    CHECK(key_set_insert(&grown, b) == 0 && key_set_insert(&grown, zero) == 0);

    /* Iteration gives each hash once, the all-zero one last. */
    key_hash seen[8];
    uint64_t cursor = 0, count = 0;
    while (count < 8 && key_set_next(&grown, &cursor, &seen[count])) {
        count++;
    }
    CHECK_U64(count, 4);
    CHECK(count == 4 && same_hash(seen[3], zero));
    for (uint64_t i = 0; i < count; i++) {
        int matches = same_hash(seen[i], a) + same_hash(seen[i], b) +
                      same_hash(seen[i], same_slot) + same_hash(seen[i], zero);
        CHECK(matches == 1);
    }
    CHECK(!key_set_next(&grown, &cursor, &seen[0]));
    key_set empty = {bigger, 0, 0, 0};
    cursor = 0;
    CHECK(!key_set_next(&empty, &cursor, &seen[0]));
}

/* The kind table: distinct ids and names, each found by its id, none readable only by a
** newer reader. */
static void test_kind_table(void) {
    size_t count = 0;
    for (const filter_kind *kind; (kind = filter_kind_at(count)) != NULL; count++) {
        CHECK(filter_kind_by_id(kind->id) == kind);
        CHECK(kind->format_version >= 1 && kind->format_version <= FILTER_FORMAT_VERSION);
        for (size_t other = 0; other < count; other++) {
            CHECK(filter_kind_at(other)->id != kind->id);
            CHECK(strcmp(filter_kind_at(other)->name, kind->name) != 0);
        }
    }
    CHECK_U64(count, 2);
    CHECK(filter_kind_by_id(BLOOM_LAYOUT_STANDARD) == &bloom_standard_kind);
    CHECK(filter_kind_by_id(BLOOM_LAYOUT_BLOCKED) == &bloom_blocked_kind);
    CHECK(filter_kind_by_id(0) == NULL && filter_kind_by_id(3) == NULL);
    CHECK(filter_check_rate(0.5) == FILTER_OK && filter_check_rate(1e-300) == FILTER_OK);
    CHECK(filter_check_rate(0) == FILTER_BAD_ARGUMENT &&
          filter_check_rate(1) == FILTER_BAD_ARGUMENT);
    CHECK(filter_check_rate(NAN) == FILTER_BAD_ARGUMENT);
    CHECK(bloom_check_rate(0.9, BLOOM_LAYOUT_STANDARD) == FILTER_OK);
    CHECK(bloom_check_rate(0.9, BLOOM_LAYOUT_BLOCKED) == FILTER_RATE_TOO_HIGH);
    CHECK(bloom_check_rate(0.5, BLOOM_LAYOUT_BLOCKED) == FILTER_OK);
    CHECK(bloom_check_rate(0.1, 3) == FILTER_BAD_ARGUMENT);
    CHECK(bloom_check_rate(-0.1, BLOOM_LAYOUT_BLOCKED) == FILTER_BAD_ARGUMENT);
}

/* What the shared code asks of a kind, on the golden filters of both layouts: copy, add,
** compatible and merge, through the kind table. */
static void test_kind_operations(const char *golden_dir) {
    static const char *files[] = {"standard_v1.hex", "blocked_v1.hex"};
    uint8_t golden[2][256], copy[256], newer[256];
    filter_view views[2], view;
    char path[4096], why[FILTER_WHY_MAX];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", golden_dir, files[i]);
        size_t bytes = read_hex_file(path, golden[i], sizeof golden[i]);
        if (!CHECK(filter_open(golden[i], bytes, &views[i], why) == FILTER_OK)) {
            return;
        }
        const filter_kind *kind = views[i].kind;
        bloom_header h = bloom_header_of(&views[i]);
        CHECK(kind->might_contain(&views[i], key_hash_integer(42)) == 1);
        CHECK(kind->might_contain(&views[i], key_hash_text("hello", 5)) == 1);
        /* copy: the same bytes; a newer writer's extra header bytes dropped. */
        kind->copy(copy, &views[i]);
        CHECK(memcmp(copy, golden[i], bytes) == 0);
        memcpy(newer, golden[i], bytes);
        newer[4] = 2;
        newer[50] = 0x77;
        CHECK(filter_open(newer, bytes, &view, why) == FILTER_OK);
        kind->copy(copy, &view);
        CHECK(memcmp(copy, golden[i], bytes) == 0);
        /* add: the key's bits and one more key, as bloom_set does. */
        key_hash absent = key_hash_text("absent", 6);
        kind->add(copy, absent);
        CHECK(filter_open(copy, bytes, &view, why) == FILTER_OK);
        CHECK(kind->might_contain(&view, absent) == 1);
        CHECK_U64(bloom_header_of(&view).keys, h.keys + 1);
        memcpy(newer, golden[i], bytes);
        bloom_set(newer + FILTER_HEADER_BYTES, &h, absent);
        CHECK(memcmp(copy + FILTER_HEADER_BYTES, newer + FILTER_HEADER_BYTES, bytes - 64) == 0);
        /* merge: bits ORed, keys summed; the golden filter is a subset of the copy. */
        CHECK(kind->compatible(&views[i], &view, why) == FILTER_OK);
        kind->merge(copy, &views[i]);
        CHECK(filter_open(copy, bytes, &view, why) == FILTER_OK);
        CHECK_U64(bloom_header_of(&view).keys, 2 * h.keys + 1);
        CHECK(memcmp(copy + FILTER_HEADER_BYTES, newer + FILTER_HEADER_BYTES, bytes - 64) == 0);
    }
    CHECK(views[0].kind->compatible(&views[0], &views[1], why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: a 'standard' filter and a 'blocked' one; build both "
                   "with the same n, p and layout");
    CHECK(views[1].kind->compatible(&views[1], &views[0], why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: a 'blocked' filter and a 'standard' one; build both "
                   "with the same n, p and layout");
    view = views[0];
    view.hash = 3; /* no such hash yet: a view made by hand */
    CHECK(views[0].kind->compatible(&views[0], &view, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: hash 1 and hash 3");
}

/* Blocked positions: all in the line reduce(h1, m/512), at the top 9 bits of (h2|1) C^i. */
static void test_blocked_positions(void) {
    uint64_t state = 99;
    for (int key = 0; key < 10000; key++) {
        key_hash h = {next_random(&state), next_random(&state)};
        uint64_t lines = (next_random(&state) >> 40) + 1;
        bloom_header hdr = header_of(lines * 512, BLOOM_K_MAX, BLOOM_LAYOUT_BLOCKED);
        uint64_t pos[BLOOM_K_MAX], x = h.h2 | 1;
        uint64_t line = bloom_reduce_portable(h.h1, lines);
        bloom_positions(&hdr, h, pos);
        for (int i = 0; i < BLOOM_K_MAX; i++) {
            CHECK_U64(pos[i], line * 512 + (x >> 55));
            x *= UINT64_C(0x9E3779B97F4A7C15);
        }
    }
}

/* The blocked model against closed forms: with j ~ Poisson(l) keys of k draws each and
** q = 1 - 1/512, E[q^(k j)] = exp(-l (1 - q^k)), which gives the rate for k = 1 and 2. */
static void test_blocked_model_closed_form(void) {
    static const double loads[] = {0.5, 1, 10, 51.7, 100, 355};
    const double b = 512, q1 = 1 - 1 / b, q2 = 1 - 2 / b;
    for (size_t i = 0; i < sizeof loads / sizeof loads[0]; i++) {
        double l = loads[i];
        double one = 1 - exp(-l * (1 - q1));
        double clear_one = exp(-l * (1 - q1 * q1)), clear_both = exp(-l * (1 - q2 * q2));
        double two = (1 / b) * (1 - clear_one) + (1 - 1 / b) * (1 - 2 * clear_one + clear_both);
        CHECK(fabs(bloom_blocked_fp_rate(l, 1) / one - 1) < 1e-10);
        CHECK(fabs(bloom_blocked_fp_rate(l, 2) / two - 1) < 1e-10);
    }
    CHECK(bloom_blocked_fp_rate(0, 6) == 0);
    CHECK(isnan(bloom_blocked_fp_rate(-1, 6)) && isnan(bloom_blocked_fp_rate(401, 6)));
    CHECK(isnan(bloom_blocked_fp_rate(10, 0)) && isnan(bloom_blocked_fp_rate(10, 65)));
}

/* Blocked sizing: the model meets p with the chosen lines, and one line fewer would miss it
** whatever k; about 9.9 bits a key at 1 % and 15.5 at 0.1 %. */
static void test_blocked_sizing(void) {
    static const uint64_t ns[] = {1, 20, 1000, 54321, 1000000, 1000000000};
    static const double ps[] = {0.5, 0.1, 0.01, 0.001, 1e-4, 1e-6, 1e-9};
    /* The smallest rates, down to what 64 hash functions allow: the model still meets p. */
    static const double tiny[] = {1e-12, 1e-15, 1e-19};
    for (size_t j = 0; j < sizeof tiny / sizeof tiny[0]; j++) {
        bloom_header h;
        bloom_blocked_design design;
        double bytes;
        CHECK(bloom_design_blocked(tiny[j], &design) == FILTER_OK && design.p == tiny[j]);
        CHECK(design.k >= 1 && design.k <= BLOOM_K_MAX);
        CHECK(bloom_size_designed(1000, tiny[j], BLOOM_LAYOUT_BLOCKED, &design, &h, &bytes) ==
              FILTER_OK);
        CHECK(bloom_blocked_fp_rate(1000.0 / (double)(h.m / 512), h.k) <= tiny[j]);
    }
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
            bloom_header h;
            double bytes;
            CHECK(bloom_size(ns[i], ps[j], BLOOM_LAYOUT_BLOCKED, &h, &bytes) == FILTER_OK);
            CHECK(h.layout == BLOOM_LAYOUT_BLOCKED && h.m % 512 == 0);
            double lines = (double)(h.m / 512);
            CHECK(bloom_blocked_fp_rate((double)ns[i] / lines, h.k) <= ps[j]);
            if (lines > 1) {
                /* The rate is unimodal in k: a minimum inside a window around the chosen k
                ** is the minimum over every k. */
                double fewer = (double)ns[i] / (lines - 1), best = 2;
                uint32_t first = h.k > 6 ? h.k - 6 : 1, last = h.k + 6 < 64 ? h.k + 6 : 64;
                uint32_t best_k = first;
                for (uint32_t k = first; k <= last; k++) {
                    double rate = bloom_blocked_fp_rate(fewer, k);
                    if (rate < best) {
                        best = rate;
                        best_k = k;
                    }
                }
                CHECK((best_k > first || first == 1) && (best_k < last || last == 64));
                if (!CHECK(best > ps[j])) {
                    fprintf(stderr, "    n = %llu, p = %g: %g lines would do\n",
                            (unsigned long long)ns[i], ps[j], lines - 1);
                }
            }
        }
    }
    static const struct {
        double p;
        uint32_t k;
        double bits_low, bits_high;
    } anchors[] = {
        {0.1, 3, 4.8, 4.9}, {0.01, 6, 9.9, 9.95}, {0.001, 9, 15.5, 15.6}, {1e-4, 12, 22.0, 22.1}};
    for (size_t a = 0; a < sizeof anchors / sizeof anchors[0]; a++) {
        bloom_header h;
        double bytes;
        CHECK(bloom_size(1000000, anchors[a].p, BLOOM_LAYOUT_BLOCKED, &h, &bytes) == FILTER_OK);
        double bits_per_key = (double)h.m / 1000000;
        CHECK_U64(h.k, anchors[a].k);
        if (!CHECK(bits_per_key >= anchors[a].bits_low && bits_per_key <= anchors[a].bits_high)) {
            fprintf(stderr, "    p = %g: %.3f bits a key\n", anchors[a].p, bits_per_key);
        }
    }
    bloom_header h;
    double bytes;
    CHECK(bloom_size(10, 0.6, BLOOM_LAYOUT_BLOCKED, &h, &bytes) == FILTER_RATE_TOO_HIGH);
    CHECK(bloom_size(10, 1e-20, BLOOM_LAYOUT_BLOCKED, &h, &bytes) == FILTER_TOO_MANY_HASHES);
    CHECK(bloom_size(10, 0.01, 3, &h, &bytes) == FILTER_BAD_ARGUMENT);
}

/* Built blocked filters: the measured rate follows the model of its sizing and its own fill,
** and the fill's estimate of distinct keys is unbiased with the spread it claims. */
static void test_blocked_filters(void) {
    static const double ps[] = {0.1, 0.01, 0.001};
    for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
        const uint64_t n = 200000, probes = 4000000;
        bloom_header h;
        double bytes;
        CHECK(bloom_size(n, ps[j], BLOOM_LAYOUT_BLOCKED, &h, &bytes) == FILTER_OK);
        uint8_t *bits = calloc(h.m / 8, 1);
        if (!CHECK(bits != NULL)) {
            return;
        }
        uint64_t hits = 0, misses = 0;
        for (uint64_t i = 0; i < n; i++) {
            bloom_set(bits, &h, key_hash_integer((int64_t)i));
        }
        for (uint64_t i = 0; i < n; i++) {
            misses += !bloom_test(bits, &h, key_hash_integer((int64_t)i));
        }
        for (uint64_t i = 0; i < probes; i++) {
            hits += bloom_test(bits, &h, key_hash_integer(-1 - (int64_t)i));
        }
        h.keys = n;
        bloom_fill f = bloom_measure(&h, bits);
        double model = bloom_blocked_fp_rate((double)n / (double)(h.m / 512), h.k);
        double sigma = sqrt((double)probes * model);
        CHECK_U64(misses, 0);
        if (!CHECK(fabs((double)hits - (double)probes * f.estimated_fp_rate) < 5 * sigma &&
                   fabs((double)hits - (double)probes * model) <
                       5 * sigma + 0.02 * probes * model)) {
            fprintf(stderr, "    p = %g: %llu hits, fill %.1f, model %.1f\n", ps[j],
                    (unsigned long long)hits, probes * f.estimated_fp_rate, probes * model);
        }
        free(bits);
    }

    /* 300 filters of 2,000 keys: estimates centred on 2,000, spread as their standard error. */
    bloom_header h;
    double bytes, sum = 0, sum_squares = 0, se = 0;
    const int filters = 300;
    CHECK(bloom_size(2000, 0.01, BLOOM_LAYOUT_BLOCKED, &h, &bytes) == FILTER_OK);
    uint8_t *bits = malloc(h.m / 8);
    if (!CHECK(bits != NULL)) {
        return;
    }
    for (int t = 0; t < filters; t++) {
        memset(bits, 0, h.m / 8);
        for (int64_t i = 0; i < 2000; i++) {
            bloom_set(bits, &h, key_hash_integer(t * 2000 + i));
        }
        bloom_fill f = bloom_measure(&h, bits);
        sum += f.estimated_keys;
        sum_squares += f.estimated_keys * f.estimated_keys;
        se += f.estimated_keys_se / filters;
    }
    double mean = sum / filters, sd = sqrt(sum_squares / filters - mean * mean);
    if (!CHECK(fabs(mean - 2000) < 4 * se / sqrt(filters) && fabs(sd / se - 1) < 0.15)) {
        fprintf(stderr, "    mean %.2f, sd %.2f, standard error %.2f\n", mean, sd, se);
    }
    free(bits);
}

/* Parses hex digits of s (up to a '`' or the end) into out; returns the byte count. */
static size_t parse_hex(const char *s, uint8_t *out, size_t cap) {
    size_t len = 0;
    unsigned byte;
    while (len < cap && sscanf(s, "%2X", &byte) == 1) {
        out[len++] = (uint8_t)byte;
        s += 2;
    }
    return len;
}

/* The positions of key in a filter with header h, as "1 2 3", into buf (128 bytes). */
static const char *positions_text(const bloom_header *h, key_hash key, char *buf) {
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

/* s without its trailing spaces. */
static char *trim(char *s) {
    size_t length = strlen(s);
    while (length > 0 && s[length - 1] == ' ') {
        s[--length] = '\0';
    }
    return s;
}

/* The hash of a key written as a SQL literal (42, 1.5, 'text', x'hex'), as SQL would type it. */
static key_hash hash_of_literal(const char *key) {
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

/* Checks one row of the format's test-vector table; returns 1 if it was a vector row. */
static int check_vector_row(const char *row) {
    char key[64], bytes_hex[128], positions[128], blocked_positions[128];
    unsigned tag;
    unsigned long long h1, h2;
    bytes_hex[0] = '\0';
    if (sscanf(row,
               "| `%63[^`]` | %u | `%127[0-9A-F]` | `%llX` | `%llX` | %127[0-9 ] | %127[0-9 ] |",
               key, &tag, bytes_hex, &h1, &h2, positions, blocked_positions) != 7 &&
        sscanf(row, "| `%63[^`]` | %u | `` | `%llX` | `%llX` | %127[0-9 ] | %127[0-9 ] |", key,
               &tag, &h1, &h2, positions, blocked_positions) != 6) {
        return 0;
    }
    uint8_t bytes[64];
    size_t len = parse_hex(bytes_hex, bytes, sizeof bytes);
    key_hash h = {0, 0};
    int64_t integer = 0;
    double real = 0;
    for (size_t i = 0; i < 8 && i < len; i++) {
        integer |= (int64_t)((uint64_t)bytes[i] << (8 * i));
    }
    memcpy(&real, &integer, sizeof real);
    switch (tag) {
    case KEY_TAG_INTEGER:
        h = key_hash_integer(integer);
        break;
    case KEY_TAG_REAL:
        h = key_hash_real(real);
        break;
    case KEY_TAG_TEXT:
        h = key_hash_text(bytes, len);
        break;
    default:
        h = key_hash_blob(bytes, len);
        break;
    }
    CHECK_U64(h.h1, h1);
    CHECK_U64(h.h2, h2);
    /* The key column says which SQL value has these canonical bytes. */
    if (!CHECK(same_hash(hash_of_literal(key), h))) {
        fprintf(stderr, "    key %s does not have the canonical bytes of its row\n", key);
    }
    bloom_header standard = header_of(1024, 7, BLOOM_LAYOUT_STANDARD);
    bloom_header blocked = header_of(1024, 6, BLOOM_LAYOUT_BLOCKED);
    char computed[128];
    CHECK_STR(positions_text(&standard, h, computed), trim(positions));
    CHECK_STR(positions_text(&blocked, h, computed), trim(blocked_positions));
    return 1;
}

/* The test vectors of docs/format.md match the code. */
static void test_format_vectors(const char *format_path) {
    FILE *f = fopen(format_path, "r");
    char line[512];
    int inside = 0, rows = 0;
    if (!CHECK(f != NULL)) {
        return;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        if (strstr(line, "<!-- test-vectors:begin -->") != NULL) {
            inside = 1;
        } else if (strstr(line, "<!-- test-vectors:end -->") != NULL) {
            inside = 0;
        } else if (inside) {
            rows += check_vector_row(line);
        }
    }
    fclose(f);
    CHECK_U64(rows, 9);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s GOLDEN_DIR FORMAT\n", argv[0]);
        return 2;
    }
    test_sizing_formulas();
    test_sizing_anchors();
    test_sizing_errors();
    test_header_bytes();
    test_validation();
    test_key_canonicalisation();
    test_reduce();
    test_positions_closed_form();
    test_positions_wide();
    test_small_filters_track_the_model();
    test_no_false_negatives();
    test_golden(argv[1]);
    test_format_vectors(argv[2]);
    test_measure();
    test_blocked_positions();
    test_blocked_model_closed_form();
    test_blocked_sizing();
    test_blocked_filters();
    test_compatibility_and_merge();
    test_hash_set();
    test_kind_table();
    test_kind_operations(argv[1]);
    return check_report("test_core");
}
