/*
** test_core.c: unit tests of the pure C core, without SQLite.
**
** Usage: test_core GOLDEN_DIR FORMAT
**
** FORMAT is docs/format.md, whose test vectors are checked here.
*/
#include "filter_kinds.h"
#include "hash_math.h"
#include "bloom_core.h"
#include "bloom_model.h"
#include "counting_core.h"
#include "countmin_core.h"
#include "cuckoo_core.h"
#include "key_set.h"
#include "scalable_core.h"
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
    check_invalid(valid, 88, 6, 255, "corrupt filter: unknown kind 255");
    check_invalid(valid, 88, 6, 9, "corrupt filter: unknown kind 9");
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
    newer_format[4] = newer_format[5] = 3;
    CHECK(filter_open(newer_format, sizeof newer_format, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "filter format version 3 needs a reader of version 3 or later; this one reads "
                   "version 2");
    /* A kind added by a later format version is written with that version as its minimum
    ** reader version: this reader refuses it as newer before looking at the kind. */
    newer_format[6] = 9;
    newer_format[8] = 0xEE;
    CHECK(filter_open(newer_format, sizeof newer_format, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "filter format version 3 needs a reader of version 3 or later; this one reads "
                   "version 2");
    for (size_t off = 12; off < 64; off++) {
        if (off == 16) {
            off = 48; /* skip m, n, p and keys */
        }
        char expected[FILTER_WHY_MAX];
        snprintf(expected, sizeof expected, "corrupt filter: reserved byte %zu is 0x01, not 0",
                 off);
        check_invalid(valid, 88, off, 1, expected);
    }

    /* A newer writer that this reader may read owns the reserved bytes; a writer of this
    ** reader's version does not. */
    uint8_t newer[88];
    memcpy(newer, valid, sizeof newer);
    newer[4] = 2;
    newer[12] = 0xAA;
    CHECK(filter_open(newer, sizeof newer, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: reserved byte 12 is 0xAA, not 0");
    newer[4] = 3;
    newer[63] = 0x55;
    CHECK(open_bloom(newer, sizeof newer, &view, &back, why) == FILTER_OK);
    CHECK_U64(view.version, 3);
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
            CHECK_U64(hash_reduce(edges[i], edges[j]), hash_reduce_portable(edges[i], edges[j]));
        }
    }
    CHECK_U64(hash_reduce(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1);
    CHECK_U64(hash_reduce(UINT64_C(1) << 63, 1000), 500);
    int mismatches = 0, out_of_range = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t x = next_random(&state), m = next_random(&state) >> (i % 64);
        uint64_t r = hash_reduce(x, m);
        mismatches += r != hash_reduce_portable(x, m);
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
            CHECK_U64(pos[i], hash_reduce_portable(next_random(&mixed), m));
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
                slices[hash_reduce(pos[i] * (UINT64_MAX / ms[t]), 256)]++;
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

/* The header of a cuckoo filter from a recipe's fields: m buckets of 4 slots, k-bit
** fingerprints. */
static void cuckoo_recipe_header(uint8_t *blob, const bloom_header *h) {
    cuckoo_header c = {h->k, h->m, h->n, h->p, h->keys};
    cuckoo_write_header(blob, &c);
}

/* The golden tests of the kinds that the cell model below does not model (they have their own
** models, further down). */
static void test_scalable_golden(const char *golden_dir);
static void test_countmin_golden(const char *golden_dir);

/* How the tests make a filter of each kind of the kind table: the layout whose sizing and
** positions it has, the bits of a cell of its body (a bit, or a counter; 0 for the cuckoo
** kind, whose m is its buckets and k its fingerprint bits), its header writer, and the length
** of its golden fixture (tests/golden/README.md). A kind outside the cell model has, instead
** of the first three, the test of its golden fixtures, and tests of its own for the rest. */
typedef struct kind_recipe {
    const filter_kind *kind;
    int positions;
    unsigned cell_bits;
    void (*write_header)(uint8_t *blob, const bloom_header *h);
    size_t golden_bytes;
    void (*own_golden)(const char *golden_dir);
} kind_recipe;

static const kind_recipe recipes[] = {
    {&bloom_standard_kind, BLOOM_LAYOUT_STANDARD, 1, bloom_write_header, 88, NULL},
    {&bloom_blocked_kind, BLOOM_LAYOUT_BLOCKED, 1, bloom_write_header, 128, NULL},
    {&counting_kind, BLOOM_LAYOUT_STANDARD, COUNTING_COUNTER_BITS, counting_write_header, 160,
     NULL},
    {&cuckoo_kind, 0, 0, cuckoo_recipe_header, 114, NULL},
    {&scalable_kind, 0, 0, NULL, 304, test_scalable_golden},
    {&countmin_kind, 0, 0, NULL, 208, test_countmin_golden},
};

/* The recipe of kind, or NULL (a kind the tests do not know yet: a failed check). */
static const kind_recipe *recipe_of(const filter_kind *kind) {
    for (size_t i = 0; i < sizeof recipes / sizeof recipes[0]; i++) {
        if (recipes[i].kind == kind) {
            return &recipes[i];
        }
    }
    return NULL;
}

/* Writes an empty filter of kind with m cells, k, n and p into blob (cap bytes); returns its
** length, 64 + m cells of the kind's bits (a cuckoo filter: 64 + ceil(4 m k / 8)), or 0 if it
** does not fit. */
static size_t make_filter(const filter_kind *kind, uint64_t m, uint32_t k, uint64_t n, double p,
                          uint8_t *blob, size_t cap) {
    const kind_recipe *r = recipe_of(kind);
    bloom_header h = {kind->id, k, m, n, p, 0};
    uint64_t body_bits = r == NULL ? 0 : r->cell_bits ? m * r->cell_bits : m * 4 * k;
    size_t bytes = FILTER_HEADER_BYTES + (size_t)((body_bits + 7) / 8);
    if (r == NULL || r->own_golden != NULL || bytes > cap) {
        return 0;
    }
    memset(blob, 0, bytes);
    r->write_header(blob, &h);
    return bytes;
}

/* make_filter with the m and k that bloom_build gives kind for n and p. */
static size_t make_sized(const filter_kind *kind, uint64_t n, double p, uint8_t *blob, size_t cap) {
    const kind_recipe *r = recipe_of(kind);
    bloom_header h;
    cuckoo_header c;
    double bytes;
    if (kind == &cuckoo_kind) {
        return cuckoo_size(n, p, &c, &bytes) != FILTER_OK
                   ? 0
                   : make_filter(kind, c.buckets, c.fingerprint_bits, n, p, blob, cap);
    }
    if (r == NULL || bloom_size(n, p, r->positions, &h, &bytes) != FILTER_OK) {
        return 0;
    }
    return make_filter(kind, h.m, h.k, n, p, blob, cap);
}

/* Reads the golden fixture of kind, GOLDEN_DIR/<name>_v<format version>.hex; its length. */
static size_t read_golden(const char *golden_dir, const filter_kind *kind, uint8_t *buf,
                          size_t cap) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s_v%u.hex", golden_dir, kind->name, kind->format_version);
    return read_hex_file(path, buf, cap);
}

/* The 19 non-NULL keys of tests/golden/README.md, in its order, into keys (32); their count. */
static size_t golden_keys(key_hash *keys) {
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

/*
** A model of docs/format.md written for these tests, against which the core is checked: a
** filter's body as m cells, one a byte. A Bloom filter's cells are its bits, saturating at 1; a
** counting filter's its counters, saturating at 15 (section 4.3). Adding a key raises each
** distinct cell c of its positions by t_c, the times the key has it, to at most the maximum;
** a union adds the cells, to at most the maximum. The positions are bloom_positions', which
** test_format_vectors and test_positions_closed_form check against the specification.
**
** A cuckoo filter (section 4.4) is modelled as its 4B slots instead, slot s of bucket i at
** 4 i + s, with its fingerprints, buckets, kicks and union written here from the section's
** words (with hash_reduce_portable as its reduce, which test_reduce checks).
*/
enum { MODEL_CELLS_MAX = 16384, MODEL_SLOTS_MAX = 4096, MODEL_KICKS = 500 };
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

/* Writes value's 8 little-endian bytes at offset. */
static void store64(uint8_t *blob, size_t offset, uint64_t value) {
    for (int i = 0; i < 8; i++) {
        blob[offset + i] = (uint8_t)(value >> (8 * i));
    }
}

/* The 8 little-endian bytes at offset. */
static uint64_t load64(const uint8_t *blob, size_t offset) {
    uint64_t value = 0;
    for (int i = 7; i >= 0; i--) {
        value = value << 8 | blob[offset + i];
    }
    return value;
}

/* The filter's count of keys (offset 40, in every kind). */
static uint64_t keys_of(const uint8_t *blob) {
    return load64(blob, BLOOM_OFF_KEYS);
}

/* Section 4.4: mix, the splitmix64 finalizer of section 4.1. */
static uint64_t model_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* alt(i, fp) = (reduce(mix(fp), B) - i) mod B, for i < B. */
static uint64_t model_alt(uint64_t buckets, uint64_t i, uint32_t fp) {
    uint64_t g = hash_reduce_portable(model_mix(fp), buckets);
    return g >= i ? g - i : buckets - (i - g);
}

/* fp = reduce(h2, 2^f - 1) + 1. */
static uint32_t model_fingerprint(unsigned fp_bits, key_hash key) {
    return (uint32_t)(hash_reduce_portable(key.h2, (UINT64_C(1) << fp_bits) - 1) + 1);
}

/* Puts fp in the first empty slot (lowest s) of bucket b; 0 when b has none. */
static int model_put(cell_model *mo, uint64_t b, uint32_t fp) {
    for (unsigned s = 0; s < 4; s++) {
        if (mo->slot[4 * b + s] == 0) {
            mo->slot[4 * b + s] = fp;
            return 1;
        }
    }
    return 0;
}

/* Section 4.4's add of fp whose first bucket is i1, with the kicks' seed: 1 when it found
** room, else 0 and the slots as they were. */
static int model_insert(cell_model *mo, uint64_t i1, uint32_t fp, uint64_t seed) {
    static uint32_t before[MODEL_SLOTS_MAX];
    uint64_t i2 = model_alt(mo->buckets, i1, fp);
    if (model_put(mo, i1, fp) || model_put(mo, i2, fp)) {
        return 1;
    }
    memcpy(before, mo->slot, (size_t)(4 * mo->buckets) * sizeof before[0]);
    uint64_t b = (model_mix(seed) & 1) ? i2 : i1;
    for (uint64_t kick = 0; kick < MODEL_KICKS; kick++) {
        unsigned s = (unsigned)(model_mix(seed + kick + 1) >> 62);
        uint32_t evicted = mo->slot[4 * b + s];
        mo->slot[4 * b + s] = fp;
        fp = evicted;
        b = model_alt(mo->buckets, b, fp);
        if (model_put(mo, b, fp)) {
            return 1;
        }
    }
    memcpy(mo->slot, before, (size_t)(4 * mo->buckets) * sizeof before[0]);
    return 0;
}

/* A key's fingerprint and two buckets in the model's cuckoo filter. */
static void model_place(const cell_model *mo, key_hash key, uint32_t *fp, uint64_t *i1,
                        uint64_t *i2) {
    *fp = model_fingerprint(mo->fp_bits, key);
    *i1 = hash_reduce_portable(key.h1, mo->buckets);
    *i2 = model_alt(mo->buckets, *i1, *fp);
}

/* The model of a cuckoo filter's header and slots: bit t of slot j is bit j f + t of the body,
** bit u of the body bit u mod 8 of byte 64 + u div 8. */
static int model_read_cuckoo(cell_model *out, const uint8_t *blob) {
    out->cuckoo = 1;
    out->fp_bits = blob[8];
    out->buckets = load64(blob, 16);
    out->keys = keys_of(blob);
    if (out->buckets > MODEL_SLOTS_MAX / 4) {
        return 0;
    }
    for (uint64_t j = 0; j < 4 * out->buckets; j++) {
        uint32_t fp = 0;
        for (unsigned t = 0; t < out->fp_bits; t++) {
            uint64_t u = j * out->fp_bits + t;
            fp |= (uint32_t)((blob[FILTER_HEADER_BYTES + u / 8] >> (u % 8)) & 1) << t;
        }
        out->slot[j] = fp;
    }
    return 1;
}

/* The model of the filter blob (bytes long), which must open; 0 if it cannot be modelled. */
static int model_read(cell_model *out, const uint8_t *blob, uint64_t bytes) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(blob, bytes, &view, why) != FILTER_OK || recipe_of(view.kind) == NULL ||
        recipe_of(view.kind)->own_golden != NULL) {
        return 0;
    }
    if (view.kind == &cuckoo_kind) {
        return model_read_cuckoo(out, blob);
    }
    out->cuckoo = 0;
    const kind_recipe *r = recipe_of(view.kind);
    bloom_header h = bloom_header_of(&view);
    if (h.m > MODEL_CELLS_MAX) {
        return 0;
    }
    out->positions = header_of(h.m, h.k, r->positions);
    out->cell_bits = r->cell_bits;
    out->max = (1u << r->cell_bits) - 1;
    out->keys = h.keys;
    for (uint64_t j = 0; j < h.m; j++) {
        uint64_t bit = j * r->cell_bits;
        out->cell[j] = (uint8_t)((blob[FILTER_HEADER_BYTES + bit / 8] >> (bit % 8)) & out->max);
    }
    return 1;
}

/* Writes the model's body (cells or slots, the bits after the last slot 0) into body; its
** length in bytes. */
static uint64_t model_body(const cell_model *mo, uint8_t *body) {
    uint64_t body_bytes;
    if (mo->cuckoo) {
        body_bytes = (4 * mo->buckets * mo->fp_bits + 7) / 8;
        memset(body, 0, body_bytes);
        for (uint64_t j = 0; j < 4 * mo->buckets; j++) {
            for (unsigned t = 0; t < mo->fp_bits; t++) {
                uint64_t u = j * mo->fp_bits + t;
                body[u / 8] |= (uint8_t)(((mo->slot[j] >> t) & 1) << (u % 8));
            }
        }
        return body_bytes;
    }
    body_bytes = mo->positions.m * mo->cell_bits / 8;
    memset(body, 0, body_bytes);
    for (uint64_t j = 0; j < mo->positions.m; j++) {
        uint64_t bit = j * mo->cell_bits;
        body[bit / 8] |= (uint8_t)(mo->cell[j] << (bit % 8));
    }
    return body_bytes;
}

/* 1 when the filter blob holds exactly the body and keys of the model. */
static int model_matches(const cell_model *mo, const uint8_t *blob) {
    static uint8_t body[MODEL_SLOTS_MAX * 32 / 8];
    uint64_t body_bytes = model_body(mo, body);
    return memcmp(blob + FILTER_HEADER_BYTES, body, body_bytes) == 0 && keys_of(blob) == mo->keys;
}

/* Writes the model's body and keys into the filter blob, its other header fields kept. */
static void model_write(const cell_model *mo, uint8_t *blob) {
    model_body(mo, blob + FILTER_HEADER_BYTES);
    store64(blob, BLOOM_OFF_KEYS, mo->keys);
}

/* The distinct positions of key and the times each is among its k: their count. */
static uint32_t distinct_positions(const bloom_header *h, key_hash key, uint64_t *position,
                                   unsigned *times) {
    uint64_t all[BLOOM_K_MAX];
    uint32_t count = 0;
    bloom_positions(h, key, all);
    for (uint32_t i = 0; i < h->k; i++) {
        uint32_t j = 0;
        while (j < count && position[j] != all[i]) {
            j++;
        }
        if (j == count) {
            position[count] = all[i];
            times[count++] = 0;
        }
        times[j]++;
    }
    return count;
}

static int model_contains(const cell_model *mo, key_hash key) {
    uint64_t position[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    if (mo->cuckoo) { /* section 4.4, probe: a slot of i1 or of i2 holds fp */
        uint32_t fp;
        uint64_t i1, i2;
        model_place(mo, key, &fp, &i1, &i2);
        for (unsigned s = 0; s < 4; s++) {
            if (mo->slot[4 * i1 + s] == fp || mo->slot[4 * i2 + s] == fp) {
                return 1;
            }
        }
        return 0;
    }
    uint32_t count = distinct_positions(&mo->positions, key, position, times);
    for (uint32_t j = 0; j < count; j++) {
        if (mo->cell[position[j]] == 0) {
            return 0;
        }
    }
    return 1;
}

/* Adds key: 1, or 0 when a cuckoo filter has no room for it (the model unchanged). */
static int model_add(cell_model *mo, key_hash key) {
    uint64_t position[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    if (mo->cuckoo) { /* section 4.4, add: with seed = h1; keys + 1, kept at 4B */
        uint32_t fp;
        uint64_t i1, i2;
        model_place(mo, key, &fp, &i1, &i2);
        if (!model_insert(mo, i1, fp, key.h1)) {
            return 0;
        }
        mo->keys = mo->keys < 4 * mo->buckets ? mo->keys + 1 : 4 * mo->buckets;
        return 1;
    }
    uint32_t count = distinct_positions(&mo->positions, key, position, times);
    for (uint32_t j = 0; j < count; j++) {
        unsigned v = mo->cell[position[j]] + times[j];
        mo->cell[position[j]] = (uint8_t)(v > mo->max ? mo->max : v);
    }
    mo->keys = mo->keys == UINT64_MAX ? UINT64_MAX : mo->keys + 1;
    return 1;
}

/* Section 4.3's remove: 0 (nothing changed) when a cell is below the times the key has it.
** Section 4.4's: the first slot of i1 holding fp, else of i2, emptied; 0 when none holds it. */
static int model_remove(cell_model *mo, key_hash key) {
    uint64_t position[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    if (mo->cuckoo) {
        uint32_t fp;
        uint64_t bucket[2];
        model_place(mo, key, &fp, &bucket[0], &bucket[1]);
        for (int b = 0; b < 2; b++) {
            for (unsigned s = 0; s < 4; s++) {
                if (mo->slot[4 * bucket[b] + s] == fp) {
                    mo->slot[4 * bucket[b] + s] = 0;
                    mo->keys = mo->keys == 0 ? 0 : mo->keys - 1;
                    return 1;
                }
            }
        }
        return 0;
    }
    uint32_t count = distinct_positions(&mo->positions, key, position, times);
    for (uint32_t j = 0; j < count; j++) {
        if (mo->cell[position[j]] < times[j]) {
            return 0;
        }
    }
    for (uint32_t j = 0; j < count; j++) {
        if (mo->cell[position[j]] != mo->max) {
            mo->cell[position[j]] = (uint8_t)(mo->cell[position[j]] - times[j]);
        }
    }
    mo->keys = mo->keys == 0 ? 0 : mo->keys - 1;
    return 1;
}

/* The union of other into mo: 1, or 0 when a fingerprint of a cuckoo filter found no room
** (the model unchanged). Section 4.4: each non-empty slot s of bucket i of the second, in
** order, added from bucket i with seed = mix(i) XOR fp XOR s; keys summed, kept at 4B. */
static int model_merge(cell_model *mo, const cell_model *other) {
    if (mo->cuckoo) {
        static cell_model before;
        before = *mo;
        for (uint64_t j = 0; j < 4 * other->buckets; j++) {
            uint32_t fp = other->slot[j];
            uint64_t i = j / 4;
            if (fp != 0 && !model_insert(mo, i, fp, model_mix(i) ^ fp ^ (j % 4))) {
                *mo = before;
                return 0;
            }
        }
        uint64_t keys = filter_add_counts(mo->keys, other->keys);
        mo->keys = keys < 4 * mo->buckets ? keys : 4 * mo->buckets;
        return 1;
    }
    for (uint64_t j = 0; j < mo->positions.m; j++) {
        unsigned v = mo->cell[j] + other->cell[j];
        mo->cell[j] = (uint8_t)(v > mo->max ? mo->max : v);
    }
    mo->keys = filter_add_counts(mo->keys, other->keys);
    return 1;
}

/* The golden filters of tests/golden/README.md, one for each kind of the kind table, built
** through the core API alone (the kind's add on an empty filter sized as bloom_build sizes
** it), compared with GOLDEN_DIR/<kind>_v<format version>.hex and with the model. */
static void test_golden(const char *golden_dir) {
    key_hash keys[32];
    size_t nkeys = golden_keys(keys);
    static cell_model expected;
    CHECK_U64(nkeys, 19);
    for (size_t i = 0; filter_kind_at(i) != NULL; i++) {
        const filter_kind *kind = filter_kind_at(i);
        const kind_recipe *r = recipe_of(kind);
        uint8_t built[256], golden[256];
        if (!CHECK(r != NULL)) {
            fprintf(stderr, "    no recipe (nor golden fixture) for kind %s\n", kind->name);
            continue;
        }
        if (r->own_golden != NULL) {
            r->own_golden(golden_dir);
            continue;
        }
        size_t bytes = make_sized(kind, 20, 0.01, built, sizeof built);
        filter_view view;
        char why[FILTER_WHY_MAX];
        CHECK_U64(bytes, r->golden_bytes);
        CHECK(filter_open(built, bytes, &view, why) == FILTER_OK && view.kind == kind);
        CHECK(model_read(&expected, built, bytes));
        for (size_t k = 0; k < nkeys; k++) {
            filter_add(kind, built, keys[k]);
            model_add(&expected, keys[k]);
        }
        CHECK(model_matches(&expected, built));
        size_t golden_len = read_golden(golden_dir, kind, golden, sizeof golden);
        CHECK_U64(golden_len, r->golden_bytes);
        if (!CHECK(golden_len == bytes && memcmp(golden, built, golden_len) == 0)) {
            fprintf(stderr, "    %s_v%u.hex built: ", kind->name, kind->format_version);
            for (size_t b = 0; b < bytes; b++) {
                fprintf(stderr, "%02X", built[b]);
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
    CHECK_U64(filter_add_counts(2, 3), 5);
    CHECK_U64(filter_add_counts(UINT64_MAX - 1, 1), UINT64_MAX);
    CHECK_U64(filter_add_counts(UINT64_MAX, UINT64_MAX), UINT64_MAX);
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
    CHECK(count >= 4); /* a kind without its tests fails test_golden: no recipe */
    CHECK(filter_kind_by_id(BLOOM_LAYOUT_STANDARD) == &bloom_standard_kind);
    CHECK(filter_kind_by_id(BLOOM_LAYOUT_BLOCKED) == &bloom_blocked_kind);
    CHECK(filter_kind_by_id(COUNTING_KIND) == &counting_kind);
    CHECK(filter_kind_by_id(CUCKOO_KIND) == &cuckoo_kind && CUCKOO_KIND == 4);
    CHECK(filter_kind_by_id(0) == NULL && filter_kind_by_id((int)count + 1) == NULL);
    CHECK(filter_kind_at(count) == NULL && filter_kind_by_id(255) == NULL);
    /* docs/format.md section 1: kinds 1 and 2 are format version 1, kind 3 version 2, the
    ** newest this reads. */
    CHECK(bloom_standard_kind.format_version == 1 && bloom_blocked_kind.format_version == 1);
    CHECK(counting_kind.format_version == 2 && FILTER_FORMAT_VERSION == 2);
    CHECK_STR(counting_kind.name, "counting");
    CHECK(cuckoo_kind.format_version == 2); /* section 1: kind 4, format version 2 */
    CHECK_STR(cuckoo_kind.name, "cuckoo");
    /* Section 1: kinds 5 and 6, format version 2. */
    CHECK(filter_kind_by_id(SCALABLE_KIND) == &scalable_kind && SCALABLE_KIND == 5);
    CHECK(filter_kind_by_id(COUNTMIN_KIND) == &countmin_kind && COUNTMIN_KIND == 6);
    CHECK(scalable_kind.format_version == 2 && countmin_kind.format_version == 2);
    CHECK_STR(scalable_kind.name, "scalable");
    CHECK_STR(countmin_kind.name, "countmin");
    /* The scalable kind grows and reads its stages' headers; neither removes keys. */
    CHECK(scalable_kind.validate_body != NULL && scalable_kind.grow_size != NULL);
    CHECK(scalable_kind.grow != NULL && scalable_kind.remove_io == NULL);
    CHECK(countmin_kind.validate_body == NULL && countmin_kind.grow_size == NULL);
    CHECK(countmin_kind.remove_io == NULL);
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

/* What the shared code asks of a kind, on the golden filter of every kind of the kind table
** that has a recipe (test_golden fails for one without): probe, copy, add, compatible and
** merge, through the kind table, against the model. */
static void test_kind_operations(const char *golden_dir) {
    enum { KINDS_MAX = 8 };
    static uint8_t golden[KINDS_MAX][512];
    static cell_model expected, other;
    uint8_t copy[512], newer[512];
    filter_view views[KINDS_MAX], view;
    char why[FILTER_WHY_MAX], message[FILTER_WHY_MAX];
    key_hash keys[32];
    size_t nkeys = golden_keys(keys), count = 0;
    for (size_t i = 0; count < KINDS_MAX && filter_kind_at(i) != NULL; i++) {
        const filter_kind *kind = filter_kind_at(i);
        if (recipe_of(kind) == NULL) {
            continue;
        }
        size_t bytes = read_golden(golden_dir, kind, golden[count], sizeof golden[count]);
        if (!CHECK(filter_open(golden[count], bytes, &views[count], why) == FILTER_OK &&
                   views[count].kind == kind)) {
            fprintf(stderr, "    %s: %s\n", kind->name, why);
            return;
        }
        uint64_t added = keys_of(golden[count]);
        size_t present = 0;
        for (size_t k = 0; k < nkeys; k++) {
            present += kind->might_contain(&views[count], keys[k]) == 1;
        }
        CHECK_U64(present, nkeys);
        /* copy: the same bytes; a newer writer's extra header bytes dropped. */
        filter_copy(copy, &views[count]);
        CHECK(memcmp(copy, golden[count], bytes) == 0);
        memcpy(newer, golden[count], bytes);
        newer[4] = FILTER_FORMAT_VERSION + 1;
        newer[50] = 0x77;
        CHECK(filter_open(newer, bytes, &view, why) == FILTER_OK);
        filter_copy(copy, &view);
        CHECK(memcmp(copy, golden[count], bytes) == 0);
        if (recipe_of(kind)->own_golden != NULL) {
            count++; /* the rest is the model's: such a kind has tests of its own */
            continue;
        }
        /* add: the key's cells (its fingerprint) and one more key, as the model says. */
        key_hash absent = key_hash_text("absent", 6);
        CHECK(model_read(&expected, golden[count], bytes));
        CHECK(kind->might_contain(&views[count], absent) == model_contains(&expected, absent));
        CHECK(filter_add(kind, copy, absent) == FILTER_OK);
        CHECK(model_add(&expected, absent));
        CHECK(model_matches(&expected, copy));
        CHECK(filter_open(copy, bytes, &view, why) == FILTER_OK);
        CHECK(kind->might_contain(&view, absent) == 1);
        CHECK_U64(keys_of(copy), added + 1);
        /* merge: cells added (ORed for bits), keys summed, the n and p of the first. The
        ** golden cuckoo filter's 20 and 19 fingerprints do not fit its 40 slots: FILTER_FULL,
        ** as the model finds (what merge wrote is dropped). */
        CHECK(filter_compatible(&views[count], &view, why) == FILTER_OK);
        CHECK(model_read(&other, golden[count], bytes));
        int fits = model_merge(&expected, &other);
        CHECK(fits == (kind != &cuckoo_kind));
        CHECK(kind->merge(copy, &views[count]) == (fits ? FILTER_OK : FILTER_FULL));
        if (fits) {
            CHECK(model_matches(&expected, copy));
            CHECK(filter_open(copy, bytes, &view, why) == FILTER_OK);
            CHECK_U64(keys_of(copy), 2 * added + 1);
            CHECK(memcmp(copy, golden[count], BLOOM_OFF_KEYS) == 0);
        }
        count++;
    }
    CHECK(count >= 6);
    /* Filters of two kinds never merge, whichever comes first. */
    for (size_t a = 0; a < count; a++) {
        for (size_t b = 0; b < count; b++) {
            if (a == b) {
                continue;
            }
            snprintf(message, sizeof message,
                     "incompatible filters: a '%s' filter and a '%s' one; build both with the "
                     "same n, p and layout",
                     views[a].kind->name, views[b].kind->name);
            CHECK(filter_compatible(&views[a], &views[b], why) == FILTER_INVALID);
            CHECK_STR(why, message);
        }
    }
    for (size_t a = 0; a < count; a++) {
        view = views[a];
        view.hash = 3; /* no such hash yet: a view made by hand */
        CHECK(filter_compatible(&views[a], &view, why) == FILTER_INVALID);
        CHECK_STR(why, "incompatible filters: hash 1 and hash 3");
    }
}

/* Blocked positions: all in the line reduce(h1, m/512), at the top 9 bits of (h2|1) C^i. */
static void test_blocked_positions(void) {
    uint64_t state = 99;
    for (int key = 0; key < 10000; key++) {
        key_hash h = {next_random(&state), next_random(&state)};
        uint64_t lines = (next_random(&state) >> 40) + 1;
        bloom_header hdr = header_of(lines * 512, BLOOM_K_MAX, BLOOM_LAYOUT_BLOCKED);
        uint64_t pos[BLOOM_K_MAX], x = h.h2 | 1;
        uint64_t line = hash_reduce_portable(h.h1, lines);
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

/* ---- The counting kind (docs/format.md section 4.3) ---------------------------------- */

/* A filter_io over a BLOB in memory that counts its calls and writes, and fails the call
** numbered fail_at (from 0; -1: none). */
typedef struct counted_io {
    uint8_t *blob;
    int calls, writes, fail_at;
} counted_io;

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

static filter_io counted(counted_io *state, uint8_t *blob, int fail_at) {
    filter_io io = {state, counted_read, counted_write};
    state->blob = blob;
    state->calls = state->writes = 0;
    state->fail_at = fail_at;
    return io;
}

/* Removes key from the filter in blob through filter_io_memory: remove_io's status. */
static filter_status counting_remove(uint8_t *blob, uint64_t bytes, key_hash key) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    filter_io io = filter_io_memory(blob);
    if (filter_open(blob, bytes, &view, why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    return view.kind->remove_io(&view, &io, key);
}

/* The first integer key from `from` on with a position that k positions in m share with
** another, and a counter they share t times (t >= at_least); -1 if none below 1000000. */
static int64_t coinciding_key(uint64_t m, uint32_t k, int64_t from, unsigned at_least,
                              uint64_t *shared, unsigned *times) {
    bloom_header h = header_of(m, k, BLOOM_LAYOUT_STANDARD);
    for (int64_t i = from; i < 1000000; i++) {
        uint64_t position[BLOOM_K_MAX];
        unsigned t[BLOOM_K_MAX];
        uint32_t count = distinct_positions(&h, key_hash_integer(i), position, t);
        for (uint32_t j = 0; j < count; j++) {
            if (t[j] >= at_least) {
                *shared = position[j];
                *times = t[j];
                return i;
            }
        }
    }
    return -1;
}

/* Adding keys, some twice, then removing each as often as it was added, in another order,
** gives back the bytes of the empty filter, its count of keys 0. */
static void test_counting_add_remove(void) {
    enum { BYTES_MAX = 8192 };
    static uint8_t empty[BYTES_MAX], blob[BYTES_MAX];
    static cell_model expected;
    key_hash keys[700];
    size_t nkeys = golden_keys(keys);
    size_t bytes = make_sized(&counting_kind, 1000, 0.01, empty, sizeof empty);
    if (!CHECK(bytes == 64 + 9600 / 2)) {
        return;
    }
    for (int64_t i = 0; nkeys < 600; i++) {
        keys[nkeys++] = key_hash_integer(i * 1000003);
    }
    for (size_t i = 0; i < 100; i++) {
        keys[nkeys++] = keys[i * 5]; /* 100 keys twice, the 42 of the golden keys three times */
    }
    memcpy(blob, empty, bytes);
    CHECK(model_read(&expected, blob, bytes));
    for (size_t i = 0; i < nkeys; i++) {
        filter_add(&counting_kind, blob, keys[i]);
        model_add(&expected, keys[i]);
    }
    CHECK(model_matches(&expected, blob));
    CHECK_U64(keys_of(blob), nkeys);
    filter_view view;
    char why[FILTER_WHY_MAX];
    CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK);
    bloom_header h = bloom_header_of(&view);
    h.layout = BLOOM_LAYOUT_STANDARD;
    counting_fill fill = counting_measure(&h, blob + FILTER_HEADER_BYTES);
    CHECK_U64(fill.saturated, 0); /* what this test needs: no counter at 15 */
    CHECK(fill.nonzero > 3000 && fill.nonzero < 5000);
    size_t present = 0, removed = 0;
    for (size_t i = 0; i < nkeys; i++) {
        present += counting_kind.might_contain(&view, keys[i]);
    }
    CHECK_U64(present, nkeys);
    for (size_t i = nkeys; i-- > 0;) {
        removed += counting_remove(blob, bytes, keys[(i * 3) % nkeys]) == FILTER_OK;
    }
    CHECK_U64(removed, nkeys);
    CHECK(memcmp(blob, empty, bytes) == 0);
    /* Every counter is 0 again: any key is certainly not there. */
    CHECK(counting_remove(blob, bytes, keys[0]) == FILTER_ABSENT);
    CHECK(memcmp(blob, empty, bytes) == 0);
}

/* A key two of whose positions are one counter raises it by 2 and lowers it by 2, and is
** refused (nothing written) when that counter holds less than 2; the same for 3. */
static void test_counting_coinciding_positions(void) {
    uint8_t empty[96], blob[96];
    CHECK_U64(make_filter(&counting_kind, 64, 7, 1, 0.5, empty, sizeof empty), 96);
    for (unsigned at_least = 2; at_least <= 3; at_least++) {
        uint64_t shared = 0;
        unsigned times = 0;
        int64_t found = coinciding_key(64, 7, 0, at_least, &shared, &times);
        if (!CHECK(found >= 0)) {
            continue;
        }
        key_hash key = key_hash_integer(found);
        bloom_header h = header_of(64, 7, BLOOM_LAYOUT_STANDARD);
        uint64_t position[BLOOM_K_MAX];
        unsigned t[BLOOM_K_MAX];
        uint32_t count = distinct_positions(&h, key, position, t);
        CHECK(count < 7 && times >= at_least);

        filter_view view;
        char why[FILTER_WHY_MAX];
        counted_io state;
        int was_absent = -1, answer = -1;
        memcpy(blob, empty, sizeof blob);
        CHECK(filter_open(blob, sizeof blob, &view, why) == FILTER_OK);
        filter_io io = counted(&state, blob, -1);
        CHECK(counting_kind.add_io(&view, &io, key, &was_absent) == FILTER_OK);
        CHECK(was_absent == 1);
        /* Each distinct counter holds the times the key has it; no other counter is touched. */
        uint64_t total = 0;
        for (uint64_t c = 0; c < 64; c++) {
            total += counting_counter(blob + FILTER_HEADER_BYTES, c);
        }
        CHECK_U64(total, 7);
        CHECK_U64(counting_counter(blob + FILTER_HEADER_BYTES, shared), times);
        for (uint32_t j = 0; j < count; j++) {
            CHECK_U64(counting_counter(blob + FILTER_HEADER_BYTES, position[j]), t[j]);
        }
        CHECK(counting_kind.might_contain_io(&view, &io, key, &answer) == FILTER_OK && answer);
        CHECK(counting_kind.remove_io(&view, &io, key) == FILTER_OK);
        CHECK(memcmp(blob + FILTER_HEADER_BYTES, empty + FILTER_HEADER_BYTES, 32) == 0);
        CHECK_U64(keys_of(blob), 0);

        /* Every counter of the key at 1: it probes 1, but the shared counter holds it less
        ** than `times` times, so it was never added: FILTER_ABSENT, and nothing written. */
        for (uint32_t j = 0; j < count; j++) {
            blob[FILTER_HEADER_BYTES + position[j] / 2] |= (uint8_t)(1u << (position[j] % 2 * 4));
        }
        uint8_t before[96];
        memcpy(before, blob, sizeof blob);
        CHECK(counting_kind.might_contain(&view, key) == 1);
        io = counted(&state, blob, -1);
        CHECK(counting_kind.remove_io(&view, &io, key) == FILTER_ABSENT);
        CHECK_U64(state.writes, 0);
        CHECK(memcmp(blob, before, sizeof blob) == 0);

        /* The shared counter at 14: adding saturates it at 15 (not 14 + times). */
        memset(blob + FILTER_HEADER_BYTES, 0, 32);
        blob[FILTER_HEADER_BYTES + shared / 2] = (uint8_t)(14u << (shared % 2 * 4));
        filter_add(&counting_kind, blob, key);
        CHECK_U64(counting_counter(blob + FILTER_HEADER_BYTES, shared), 15);
        for (uint32_t j = 0; j < count; j++) {
            if (position[j] != shared) {
                CHECK_U64(counting_counter(blob + FILTER_HEADER_BYTES, position[j]), t[j]);
            }
        }
    }
}

/* A key added 20 times holds its counters at 15; removing it 20 times (and more) never fails
** and leaves them at 15, the count of keys going down to 0 and staying there. A key never
** added is FILTER_ABSENT, and nothing is written. */
static void test_counting_saturation(void) {
    uint8_t blob[1024];
    size_t bytes = make_sized(&counting_kind, 100, 0.01, blob, sizeof blob);
    key_hash key = key_hash_text("hello", 5);
    filter_view view;
    char why[FILTER_WHY_MAX];
    counted_io state;
    if (!CHECK(bytes == 64 + 960 / 2 && filter_open(blob, bytes, &view, why) == FILTER_OK)) {
        return;
    }
    bloom_header h = bloom_header_of(&view);
    h.layout = BLOOM_LAYOUT_STANDARD;
    uint64_t position[BLOOM_K_MAX];
    unsigned t[BLOOM_K_MAX];
    uint32_t count = distinct_positions(&h, key, position, t);
    for (int i = 0; i < 20; i++) {
        filter_add(&counting_kind, blob, key);
    }
    CHECK_U64(keys_of(blob), 20);
    counting_fill fill = counting_measure(&h, blob + FILTER_HEADER_BYTES);
    CHECK_U64(fill.nonzero, count);
    CHECK_U64(fill.saturated, count);
    for (uint32_t j = 0; j < count; j++) {
        CHECK_U64(counting_counter(blob + FILTER_HEADER_BYTES, position[j]), 15);
    }
    int failures = 0;
    for (int i = 0; i < 25; i++) {
        CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK);
        filter_io io = counted(&state, blob, -1);
        failures += counting_kind.remove_io(&view, &io, key) != FILTER_OK;
        if (i == 19) {
            CHECK_U64(keys_of(blob), 0);
        }
    }
    CHECK_U64(failures, 0);
    CHECK_U64(keys_of(blob), 0); /* kept at 0 */
    fill = counting_measure(&h, blob + FILTER_HEADER_BYTES);
    CHECK_U64(fill.nonzero, count);
    CHECK_U64(fill.saturated, count);
    CHECK(counting_kind.might_contain(&view, key) == 1);

    /* A key that probes 0: certainly not there. */
    int64_t other = 0;
    while (counting_kind.might_contain(&view, key_hash_integer(other))) {
        other++;
    }
    uint8_t before[1024];
    memcpy(before, blob, bytes);
    filter_io io = counted(&state, blob, -1);
    CHECK(counting_kind.remove_io(&view, &io, key_hash_integer(other)) == FILTER_ABSENT);
    CHECK_U64(state.writes, 0);
    CHECK(memcmp(before, blob, bytes) == 0);

    /* The count of keys is kept at 2^64 - 1 by an add. */
    memset(blob + BLOOM_OFF_KEYS, 0xFF, 8);
    filter_add(&counting_kind, blob, key_hash_integer(other));
    CHECK_U64(keys_of(blob), UINT64_MAX);
}

/* Union: counters added, each kept at 15; keys summed (kept at 2^64 - 1); the n and p of the
** first; and only with the same m and k. */
static void test_counting_merge(void) {
    uint8_t a[160], b[160], expected[160];
    filter_view view;
    char why[FILTER_WHY_MAX];
    uint64_t state = 3;
    CHECK_U64(make_filter(&counting_kind, 192, 7, 20, 0.01, a, sizeof a), 160);
    CHECK_U64(make_filter(&counting_kind, 192, 7, 99, 0.5, b, sizeof b), 160);
    /* Random counters: every nibble of both bodies, so every sum from 0 to 30. */
    int wrong = 0;
    for (int round = 0; round < 200; round++) {
        for (int i = FILTER_HEADER_BYTES; i < 160; i++) {
            a[i] = (uint8_t)next_random(&state);
            b[i] = (uint8_t)next_random(&state);
        }
        memcpy(expected, a, sizeof a);
        for (uint64_t c = 0; c < 192; c++) {
            unsigned sum = counting_counter(a + 64, c) + counting_counter(b + 64, c);
            sum = sum > 15 ? 15 : sum;
            expected[64 + c / 2] =
                (uint8_t)((expected[64 + c / 2] & ~(0xFu << (c % 2 * 4))) | sum << (c % 2 * 4));
        }
        /* Counts of keys: below 2^63, near 2^64 - 1 (the sum kept there or not), small. */
        uint64_t ka = next_random(&state), kb = next_random(&state);
        switch (round % 3) {
        case 0:
            ka >>= 1;
            kb >>= 1;
            break;
        case 1:
            ka = UINT64_MAX - ka % 100;
            kb %= 1000;
            break;
        default:
            ka %= 1000;
            kb %= 1000;
            break;
        }
        for (int i = 0; i < 8; i++) {
            a[BLOOM_OFF_KEYS + i] = (uint8_t)(ka >> (8 * i));
            b[BLOOM_OFF_KEYS + i] = (uint8_t)(kb >> (8 * i));
        }
        CHECK(filter_open(a, sizeof a, &view, why) == FILTER_OK);
        filter_view other;
        CHECK(filter_open(b, sizeof b, &other, why) == FILTER_OK);
        CHECK(counting_kind.compatible(&view, &other, why) == FILTER_OK);
        counting_kind.merge(a, &other);
        wrong += memcmp(a + 64, expected + 64, 96) != 0;
        wrong += keys_of(a) != (ka + kb < ka ? UINT64_MAX : ka + kb);
        wrong += memcmp(a, expected, BLOOM_OFF_KEYS) != 0; /* n = 20, p = 0.01 kept */
    }
    CHECK_U64(wrong, 0);

    /* A key added 10 times to each: 15 after the union, not 20. */
    CHECK_U64(make_filter(&counting_kind, 192, 7, 20, 0.01, a, sizeof a), 160);
    CHECK_U64(make_filter(&counting_kind, 192, 7, 20, 0.01, b, sizeof b), 160);
    key_hash key = key_hash_integer(42);
    for (int i = 0; i < 10; i++) {
        filter_add(&counting_kind, a, key);
        filter_add(&counting_kind, b, key);
    }
    CHECK(filter_open(b, sizeof b, &view, why) == FILTER_OK);
    counting_kind.merge(a, &view);
    bloom_header h = header_of(192, 7, BLOOM_LAYOUT_STANDARD);
    uint64_t position[BLOOM_K_MAX];
    unsigned t[BLOOM_K_MAX];
    uint32_t count = distinct_positions(&h, key, position, t);
    CHECK_U64(counting_measure(&h, a + 64).saturated, count);
    CHECK_U64(keys_of(a), 20);

    /* Another m or k: refused, in the terms they were built with. */
    uint8_t c[192];
    filter_view first;
    CHECK_U64(make_filter(&counting_kind, 256, 7, 20, 0.01, c, sizeof c), 192);
    CHECK(filter_open(a, sizeof a, &first, why) == FILTER_OK);
    CHECK(filter_open(c, sizeof c, &view, why) == FILTER_OK);
    CHECK(counting_kind.compatible(&first, &view, why) == FILTER_INVALID);
    CHECK(strstr(why, "incompatible filters: ") == why);
    CHECK_U64(make_filter(&counting_kind, 192, 6, 20, 0.01, c, sizeof c), 160);
    CHECK(filter_open(c, 160, &view, why) == FILTER_OK);
    CHECK(counting_kind.compatible(&first, &view, why) == FILTER_INVALID);
    CHECK(strstr(why, "incompatible filters: ") == why);
}

/* docs/format.md section 5, the checks of kind 3, row by row with the table's messages, and
** the container's checks on a counting filter. */
static void test_counting_validation(void) {
    uint8_t valid[128] = {0}, blob[128];
    filter_view view;
    char why[FILTER_WHY_MAX];
    CHECK_U64(make_filter(&counting_kind, 64, 7, 20, 0.01, valid, sizeof valid), 96);
    CHECK(filter_open(valid, 96, &view, why) == FILTER_OK && view.kind == &counting_kind);
    CHECK(view.version == 2 && view.min_reader_version == 2 && valid[6] == 3 && valid[12] == 4);

    /* The table of section 5 for kind 3, its examples verbatim. */
    check_invalid(valid, 96, 8, 65, "corrupt filter: k = 65 is outside 1..64");
    check_invalid(valid, 96, 12, 8, "corrupt filter: counters of 8 bits, not 4");
    check_invalid(valid, 96, 16, 100,
                  "corrupt filter: m = 100 counters is not a positive multiple of 64");
    check_invalid(valid, 97, 99, 0,
                  "corrupt filter: m = 64 counters need 96 bytes, the BLOB has 97");
    check_invalid(valid, 96, 24, 0, "corrupt filter: capacity n = 0");
    memcpy(blob, valid, 96);
    store64(blob, 32, UINT64_C(0x4000000000000000)); /* 2.0 */
    CHECK(filter_open(blob, 96, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: p = 2 is not between 0 and 1");
    check_invalid(valid, 96, 13, 1, "corrupt filter: reserved byte 13 is 0x01, not 0");

    /* Around them. */
    check_invalid(valid, 96, 8, 0, "corrupt filter: k = 0 is outside 1..64");
    check_invalid(valid, 96, 12, 0, "corrupt filter: counters of 0 bits, not 4");
    check_invalid(valid, 96, 12, 1, "corrupt filter: counters of 1 bits, not 4");
    check_invalid(valid, 96, 16, 0,
                  "corrupt filter: m = 0 counters is not a positive multiple of 64");
    check_invalid(valid, 96, 16, 128,
                  "corrupt filter: m = 128 counters need 128 bytes, the BLOB has 96");
    check_invalid(valid, 95, 99, 0,
                  "corrupt filter: m = 64 counters need 96 bytes, the BLOB has 95");
    check_invalid(valid, 64 + 8, 99, 0,
                  "corrupt filter: m = 64 counters need 96 bytes, the BLOB has 72");
    check_invalid(valid, 96, 39, 0xBF, "corrupt filter: p = -0.01 is not between 0 and 1");
    memcpy(blob, valid, 96);
    store64(blob, 32, UINT64_C(0x7FF8000000000000));
    CHECK(filter_open(blob, 96, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: p = NaN is not between 0 and 1");
    memcpy(blob, valid, 96);
    store64(blob, 16, UINT64_C(0xFFFFFFFFFFFFFFC0)); /* m/2 does not overflow the length */
    CHECK(filter_open(blob, 96, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: m = 18446744073709551552 counters need 9223372036854775840 "
                   "bytes, the BLOB has 96");
    for (size_t off = 13; off < 64; off++) {
        if (off == 16) {
            off = 48; /* skip m, n, p and keys */
        }
        char expected[FILTER_WHY_MAX];
        snprintf(expected, sizeof expected, "corrupt filter: reserved byte %zu is 0xA5, not 0",
                 off);
        check_invalid(valid, 96, off, 0xA5, expected);
    }
    /* The first failing check is the error. */
    memcpy(blob, valid, 96);
    blob[8] = 65;
    blob[12] = 8;
    blob[16] = 100;
    CHECK(filter_open(blob, 97, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: k = 65 is outside 1..64");
    blob[8] = 7;
    CHECK(filter_open(blob, 97, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: counters of 8 bits, not 4");
    blob[12] = 4;
    CHECK(filter_open(blob, 97, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: m = 100 counters is not a positive multiple of 64");

    /* The container: versions, as section 5's first table; a kind in a BLOB of a format
    ** version older than the one that defines it is corrupt, whatever its header. */
    memcpy(blob, valid, 96);
    blob[4] = blob[5] = 1;
    CHECK(filter_open(blob, 96, &view, why) == FILTER_INVALID);
    CHECK_STR(
        why,
        "corrupt filter: kind 3 is of format version 2, read by readers of version 2 and later, "
        "not 1");
    blob[7] = 9; /* checked before the hash */
    CHECK(filter_open(blob, 96, &view, why) == FILTER_INVALID);
    CHECK_STR(
        why,
        "corrupt filter: kind 3 is of format version 2, read by readers of version 2 and later, "
        "not 1");
    uint8_t standard[88];
    CHECK_U64(make_filter(&bloom_standard_kind, 192, 7, 20, 0.01, standard, sizeof standard), 88);
    check_invalid(
        standard, 88, 6, 3,
        "corrupt filter: kind 3 is of format version 2, read by readers of version 2 and later, "
        "not 1");
    check_invalid(valid, 96, 4, 1,
                  "corrupt filter: format version 1 with minimum reader version 2");
    check_invalid(valid, 96, 5, 3,
                  "corrupt filter: format version 2 with minimum reader version 3");
    memcpy(blob, valid, 96);
    blob[4] = blob[5] = 3;
    CHECK(filter_open(blob, 96, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "filter format version 3 needs a reader of version 3 or later; this one reads "
                   "version 2");
    /* A newer writer (version 3, readable by version 2) owns the reserved bytes, not the
    ** counter width. */
    memcpy(blob, valid, 96);
    blob[4] = 3;
    blob[13] = blob[15] = blob[48] = blob[63] = 0xA5;
    CHECK(filter_open(blob, 96, &view, why) == FILTER_OK);
    blob[12] = 8;
    CHECK(filter_open(blob, 96, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: counters of 8 bits, not 4");
}

/* Random adds and removes on small filters (coinciding positions and saturation common),
** through the kind's add, add_io and remove_io, against the model after every step. */
static void test_counting_model(void) {
    static const struct {
        uint64_t m;
        uint32_t k;
    } shapes[] = {{64, 7}, {64, 30}, {128, 3}, {640, 13}};
    static cell_model expected;
    uint64_t state = 17;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        uint8_t blob[64 + 320];
        size_t bytes =
            make_filter(&counting_kind, shapes[s].m, shapes[s].k, 5, 0.1, blob, sizeof blob);
        if (!CHECK(bytes == 64 + shapes[s].m / 2 && model_read(&expected, blob, bytes))) {
            continue;
        }
        int wrong = 0, removed = 0, refused = 0;
        for (int step = 0; step < 20000; step++) {
            uint64_t r = next_random(&state);
            key_hash key = key_hash_integer((int64_t)(r % 12));
            filter_view view;
            char why[FILTER_WHY_MAX];
            filter_io io = filter_io_memory(blob);
            int was_absent = -1;
            wrong += filter_open(blob, bytes, &view, why) != FILTER_OK;
            wrong += counting_kind.might_contain(&view, key) != model_contains(&expected, key);
            switch ((r >> 32) % 5) {
            case 0:
                filter_add(&counting_kind, blob, key);
                model_add(&expected, key);
                break;
            case 1:
                wrong += counting_kind.add_io(&view, &io, key, &was_absent) != FILTER_OK;
                wrong += was_absent != !model_contains(&expected, key);
                model_add(&expected, key);
                break;
            default: {
                int present = model_remove(&expected, key);
                filter_status status = counting_kind.remove_io(&view, &io, key);
                wrong += status != (present ? FILTER_OK : FILTER_ABSENT);
                removed += present;
                refused += !present;
                break;
            }
            }
            wrong += !model_matches(&expected, blob);
        }
        CHECK_U64(wrong, 0);
        CHECK(removed > 1000 && refused > 1000);
    }
}

/* The _io operations of every kind, through filter_io_memory with a view of the header alone,
** give the answers and bytes of the operations in memory; a failing read or write is
** FILTER_IO_FAILED. The cuckoo filter, sized for 1000 keys, is given 1500: the last adds find
** no room, FILTER_FULL both ways, and the caller drops what they wrote. */
static void test_io_matches_memory(void) {
    enum { BYTES_MAX = 8192 };
    static uint8_t a[BYTES_MAX], b[BYTES_MAX], before_add[BYTES_MAX];
    static cell_model expected;
    for (size_t i = 0; filter_kind_at(i) != NULL; i++) {
        const filter_kind *kind = filter_kind_at(i);
        uint8_t header[FILTER_HEADER_BYTES];
        filter_view va, vb;
        char why[FILTER_WHY_MAX];
        if (recipe_of(kind) == NULL || recipe_of(kind)->own_golden != NULL) {
            continue; /* a kind without a recipe fails test_golden; the others have their own */
        }
        size_t bytes = make_sized(kind, 1000, 0.01, a, sizeof a);
        if (!CHECK(bytes > 0 && kind->might_contain_io != NULL && kind->add_io != NULL)) {
            continue;
        }
        /* Of the kinds of the model, the counting and cuckoo kinds remove keys. */
        CHECK((kind->remove_io != NULL) == (kind == &counting_kind || kind == &cuckoo_kind));
        memcpy(b, a, bytes);
        CHECK(model_read(&expected, a, bytes));
        int wrong = 0, absent = 0, full = 0;
        for (int64_t key = 0; key < 1500; key++) {
            key_hash probe = key_hash_integer(-key), add = key_hash_integer(key / 2);
            filter_io io = filter_io_memory(b);
            int answer = -1, was_absent = -1;
            wrong += filter_open(a, bytes, &va, why) != FILTER_OK;
            wrong += filter_open(b, bytes, &vb, why) != FILTER_OK;
            memcpy(header, b, sizeof header);
            vb.blob = header; /* the _io operations read the header of the view alone */
            wrong += kind->might_contain_io(&vb, &io, probe, &answer) != FILTER_OK;
            wrong += answer != kind->might_contain(&va, probe);
            int before = kind->might_contain(&va, add);
            absent += !before;
            memcpy(before_add, a, bytes);
            int fits = model_add(&expected, add);
            filter_status want = fits ? FILTER_OK : FILTER_FULL;
            wrong += filter_add(kind, a, add) != want;
            wrong += kind->add_io(&vb, &io, add, &was_absent) != want;
            if (!fits) {
                memcpy(a, before_add, bytes); /* the caller drops the writes */
                memcpy(b, before_add, bytes);
                full++;
            }
            wrong += was_absent != !before;
            wrong += memcmp(a, b, bytes) != 0;
        }
        wrong += !model_matches(&expected, a);
        CHECK(kind == &cuckoo_kind ? full > 50 : full == 0);
        if (kind->remove_io != NULL) {
            for (int64_t key = 1500; key-- > 0;) {
                key_hash remove = key_hash_integer(key % 3 == 0 ? -key : key / 2);
                filter_io io = filter_io_memory(b);
                wrong += filter_open(b, bytes, &vb, why) != FILTER_OK;
                memcpy(header, b, sizeof header);
                vb.blob = header;
                int present = model_remove(&expected, remove);
                wrong += kind->remove_io(&vb, &io, remove) != (present ? FILTER_OK : FILTER_ABSENT);
            }
            wrong += !model_matches(&expected, b);
            memcpy(a, b, bytes); /* what follows adds to a filter with room */
        }
        CHECK_U64(wrong, 0);
        CHECK(absent > 300);

        /* Each read or write failing in turn: FILTER_IO_FAILED, until none fails. */
        counted_io state;
        key_hash key = key_hash_text("io", 2);
        int failed = 0, calls = 0;
        filter_status status = FILTER_IO_FAILED;
        for (int fail_at = 0; status == FILTER_IO_FAILED && fail_at < 200; fail_at++) {
            int was_absent;
            memcpy(b, a, bytes);
            filter_io io = counted(&state, b, fail_at);
            CHECK(filter_open(a, bytes, &va, why) == FILTER_OK);
            status = kind->add_io(&va, &io, key, &was_absent);
            failed += status == FILTER_IO_FAILED;
            calls = state.calls;
        }
        CHECK(status == FILTER_OK && failed > 0 && failed == calls);
        if (kind->remove_io != NULL) {
            memcpy(a, b, bytes); /* the key added */
            status = FILTER_IO_FAILED;
            failed = 0;
            for (int fail_at = 0; status == FILTER_IO_FAILED && fail_at < 200; fail_at++) {
                memcpy(b, a, bytes);
                filter_io io = counted(&state, b, fail_at);
                CHECK(filter_open(a, bytes, &va, why) == FILTER_OK);
                status = kind->remove_io(&va, &io, key);
                failed += status == FILTER_IO_FAILED;
                calls = state.calls;
            }
            CHECK(status == FILTER_OK && failed > 0 && failed == calls);
        }
        int answer;
        filter_io io = counted(&state, b, 0);
        CHECK(kind->might_contain_io(&va, &io, key, &answer) == FILTER_IO_FAILED);
    }
}

/* The golden counting filter against the golden standard one: its counters above 0 are the
** bits set there, its counters sum to k for each key added (none saturated), and 42, added
** twice, can be removed twice. */
static void test_counting_golden(const char *golden_dir) {
    uint8_t counting[256], standard[256];
    size_t counting_len = read_golden(golden_dir, &counting_kind, counting, sizeof counting);
    size_t standard_len = read_golden(golden_dir, &bloom_standard_kind, standard, sizeof standard);
    if (!CHECK(counting_len == 160 && standard_len == 88)) {
        return;
    }
    /* The same k, m, n, p and keys; then the body. */
    CHECK(memcmp(counting + 8, standard + 8, 4) == 0);
    CHECK(memcmp(counting + 16, standard + 16, 32) == 0);
    uint64_t mismatches = 0, sum = 0;
    for (uint64_t j = 0; j < 192; j++) {
        unsigned c = counting_counter(counting + 64, j);
        mismatches += (c != 0) != ((standard[64 + j / 8] >> (j % 8)) & 1);
        sum += c;
    }
    CHECK_U64(mismatches, 0);
    CHECK_U64(sum, 19 * 7);
    CHECK(counting_remove(counting, counting_len, key_hash_integer(42)) == FILTER_OK);
    CHECK(counting_remove(counting, counting_len, key_hash_integer(42)) == FILTER_OK);
    CHECK_U64(keys_of(counting), 17);
}

/* ---- The cuckoo kind (docs/format.md section 4.4) ------------------------------------ */

/* Room for a cuckoo filter of up to 1024 buckets of 32-bit fingerprints. */
enum { CUCKOO_BYTES_MAX = FILTER_HEADER_BYTES + 1024 * 4 * 32 / 8 };

/* An empty cuckoo filter of B buckets and f-bit fingerprints (n = 20, p = 0.01) in blob, and
** its model: its length, or 0. */
static size_t cuckoo_empty(uint64_t buckets, unsigned fp_bits, uint8_t *blob, cell_model *mo) {
    size_t bytes = make_filter(&cuckoo_kind, buckets, fp_bits, 20, 0.01, blob, CUCKOO_BYTES_MAX);
    return bytes > 0 && model_read(mo, blob, bytes) ? bytes : 0;
}

/* The kind's add of key to a copy of the filter in blob (bytes long), the copy kept only on
** FILTER_OK, as the core's callers do (on FILTER_FULL, what the add wrote is dropped). */
static filter_status cuckoo_add_copy(uint8_t *blob, size_t bytes, key_hash key) {
    static uint8_t copy[CUCKOO_BYTES_MAX];
    memcpy(copy, blob, bytes);
    filter_status status = filter_add(&cuckoo_kind, copy, key);
    if (status == FILTER_OK) {
        memcpy(blob, copy, bytes);
    }
    return status;
}

/* The kind's remove_io of key through a counted filter_io over blob (bytes long): its status,
** and in *writes how many writes it made. */
static filter_status cuckoo_remove_counted(uint8_t *blob, size_t bytes, key_hash key, int *writes) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    counted_io state;
    if (filter_open(blob, bytes, &view, why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    filter_io io = counted(&state, blob, -1);
    filter_status status = cuckoo_kind.remove_io(&view, &io, key);
    *writes = state.writes;
    return status;
}

/* The fingerprints of a model's bucket equal to fp. */
static unsigned copies_in(const cell_model *mo, uint64_t bucket, uint32_t fp) {
    unsigned copies = 0;
    for (unsigned s = 0; s < 4; s++) {
        copies += mo->slot[4 * bucket + s] == fp;
    }
    return copies;
}

/* Section 4.4's sizing (informative, but bloom_build's): f is the fewest bits with
** 2 * 4 * 0.95 / (2^f - 1) <= p, and B = ceil(b + 2 sqrt(b)), b = n / (4 * 0.95), computed
** here in long double; the sizing's errors. */
static void test_cuckoo_sizing(void) {
    uint64_t state = 41;
    cuckoo_header h;
    double bytes;
    int wrong = 0, sized = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t n = 1 + next_random(&state) % (i % 2 ? 1000 : UINT64_C(1) << 40);
        double p = pow(10.0, -9.0 * (double)(next_random(&state) >> 11) / 9007199254740992.0);
        if (p >= 1.0 || p < 1.77e-9) {
            continue;
        }
        uint32_t f = 1;
        while (7.6L / (ldexpl(1.0L, (int)f) - 1.0L) > (long double)p) {
            f++;
        }
        long double b = (long double)n / 3.8L;
        uint64_t buckets = (uint64_t)ceill(b + 2.0L * sqrtl(b));
        wrong += cuckoo_size(n, p, &h, &bytes) != FILTER_OK;
        wrong += h.fingerprint_bits != f || h.buckets != buckets || h.n != n || h.p != p;
        wrong += h.keys != 0;
        wrong += bytes != (double)(64 + (4 * buckets * f + 7) / 8);
        wrong += cuckoo_blob_bytes(&h) != 64 + (4 * buckets * f + 7) / 8;
        sized++;
    }
    CHECK_U64(wrong, 0);
    CHECK(sized > 19000);
    /* The golden fixture's n and p: 10 buckets, 10 bits (tests/golden/README.md). */
    CHECK(cuckoo_size(20, 0.01, &h, &bytes) == FILTER_OK && bytes == 114);
    CHECK(h.buckets == 10 && h.fingerprint_bits == 10);
    /* Fingerprints of at most 32 bits: p >= 7.6 / (2^32 - 1), about 1.7695e-9. */
    double p_min = 7.6 / 4294967295.0;
    CHECK(cuckoo_size(20, p_min, &h, &bytes) == FILTER_OK && h.fingerprint_bits == 32);
    CHECK(cuckoo_size(20, nextafter(p_min, 0), &h, &bytes) == FILTER_TOO_MANY_HASHES);
    CHECK(cuckoo_size(20, 1e-300, &h, &bytes) == FILTER_TOO_MANY_HASHES);
    CHECK(cuckoo_size(20, 0.999, &h, &bytes) == FILTER_OK && h.fingerprint_bits == 4);
    CHECK(cuckoo_size(0, 0.01, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(cuckoo_size(20, 0.0, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(cuckoo_size(20, 1.0, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(cuckoo_size(20, NAN, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(cuckoo_size(20, -0.5, &h, &bytes) == FILTER_BAD_ARGUMENT);
    /* More than 2^61 bytes: too big for the core, the size still reported. */
    CHECK(cuckoo_size(UINT64_C(1) << 62, 0.5, &h, &bytes) == FILTER_TOO_BIG);
    CHECK(bytes > 2.9e18 && bytes < 3.1e18);
    CHECK(cuckoo_size(UINT64_MAX, 0.01, &h, &bytes) == FILTER_TOO_BIG);
    CHECK(cuckoo_size(UINT64_C(1) << 60, 0.5, &h, &bytes) == FILTER_OK && h.fingerprint_bits == 5);
    CHECK(cuckoo_size(UINT64_C(1) << 50, 0.5, &h, &bytes) == FILTER_OK);
    CHECK(bytes == (double)cuckoo_blob_bytes(&h) && bytes > 7e14); /* exact below 2^53 */
    /* cuckoo_blob_bytes: 64 + ceil(4 B f / 8), or 0 when that does not fit in 64 bits. */
    cuckoo_header big = {1, UINT64_C(1) << 40, 1, 0.5, 0};
    CHECK_U64(cuckoo_blob_bytes(&big), 64 + (UINT64_C(1) << 39));
    big.buckets = UINT64_MAX; /* 4 B f overflows, the length does not */
    CHECK_U64(cuckoo_blob_bytes(&big), 64 + (UINT64_C(1) << 63));
    big.buckets = 3;
    CHECK_U64(cuckoo_blob_bytes(&big), 64 + 2);
    big.fingerprint_bits = 3;
    CHECK_U64(cuckoo_blob_bytes(&big), 64 + 5); /* 36 bits: 4.5 bytes, rounded up */
    big.fingerprint_bits = 2;
    big.buckets = UINT64_MAX;
    CHECK_U64(cuckoo_blob_bytes(&big), 0);
    big.fingerprint_bits = 32;
    big.buckets = (UINT64_C(1) << 60) - 9;
    CHECK_U64(cuckoo_blob_bytes(&big), UINT64_MAX - 79);
    big.buckets = UINT64_C(1) << 60;
    CHECK_U64(cuckoo_blob_bytes(&big), 0);
}

/* docs/format.md section 5, the checks of kind 4, row by row with the table's messages, the
** first failing check the error; and the container's checks on a cuckoo filter. */
static void test_cuckoo_validation(void) {
    static uint8_t large[1385];
    uint8_t valid[128], blob[128];
    filter_view view;
    char why[FILTER_WHY_MAX];
    CHECK_U64(make_filter(&cuckoo_kind, 10, 10, 20, 0.01, valid, sizeof valid), 114);
    CHECK(filter_open(valid, 114, &view, why) == FILTER_OK && view.kind == &cuckoo_kind);
    CHECK(view.version == 2 && view.min_reader_version == 2 && valid[6] == 4 && valid[7] == 1);
    CHECK(valid[8] == 10 && valid[9] == 4 && load64(valid, 16) == 10 && load64(valid, 24) == 20);

    /* The table of section 5 for kind 4, its examples verbatim. */
    check_invalid(valid, 114, 8, 33, "corrupt filter: fingerprints of 33 bits, not 1 to 32");
    check_invalid(valid, 114, 9, 8, "corrupt filter: buckets of 8 slots, not 4");
    check_invalid(valid, 114, 16, 0, "corrupt filter: 0 buckets");
    memset(large, 0, sizeof large);
    CHECK_U64(make_filter(&cuckoo_kind, 264, 10, 20, 0.01, large, sizeof large), 1384);
    CHECK(filter_open(large, 1384, &view, why) == FILTER_OK);
    CHECK(filter_open(large, 1385, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: 264 buckets of 10-bit fingerprints need 1384 bytes, the BLOB "
                   "has 1385");
    check_invalid(valid, 114, 24, 0, "corrupt filter: capacity n = 0");
    memcpy(blob, valid, 114);
    store64(blob, 32, UINT64_C(0x4000000000000000)); /* 2.0 */
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: p = 2 is not between 0 and 1");
    CHECK_U64(make_filter(&cuckoo_kind, 264, 1, 20, 0.01, large, sizeof large), 64 + 132);
    store64(large, 40, 1057);
    CHECK(filter_open(large, 64 + 132, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: 1057 keys in 1056 slots");
    store64(large, 40, 1056); /* every slot: the most keys */
    CHECK(filter_open(large, 64 + 132, &view, why) == FILTER_OK);
    check_invalid(valid, 114, 10, 1, "corrupt filter: reserved byte 10 is 0x01, not 0");

    /* Around them. */
    check_invalid(valid, 114, 8, 0, "corrupt filter: fingerprints of 0 bits, not 1 to 32");
    check_invalid(valid, 114, 8, 255, "corrupt filter: fingerprints of 255 bits, not 1 to 32");
    check_invalid(valid, 114, 9, 0, "corrupt filter: buckets of 0 slots, not 4");
    check_invalid(valid, 114, 9, 3, "corrupt filter: buckets of 3 slots, not 4");
    check_invalid(valid, 114, 9, 5, "corrupt filter: buckets of 5 slots, not 4");
    check_invalid(valid, 114, 16, 9,
                  "corrupt filter: 9 buckets of 10-bit fingerprints need 109 bytes, the BLOB has "
                  "114");
    check_invalid(valid, 113, 200, 0,
                  "corrupt filter: 10 buckets of 10-bit fingerprints need 114 bytes, the BLOB has "
                  "113");
    check_invalid(valid, 115, 200, 0,
                  "corrupt filter: 10 buckets of 10-bit fingerprints need 114 bytes, the BLOB has "
                  "115");
    /* f odd: 4 B f / 8 rounded up (10 buckets of 3 bits: 15 bytes; 9 buckets: 13.5, so 14). */
    check_invalid(valid, 114, 8, 3,
                  "corrupt filter: 10 buckets of 3-bit fingerprints need 79 bytes, the BLOB has "
                  "114");
    memcpy(blob, valid, 114);
    blob[8] = 3;
    blob[16] = 9;
    CHECK(filter_open(blob, 78, &view, why) == FILTER_OK);
    CHECK(filter_open(blob, 77, &view, why) == FILTER_INVALID);
    CHECK_STR(why,
              "corrupt filter: 9 buckets of 3-bit fingerprints need 78 bytes, the BLOB has 77");
    /* A B whose length does not fit in 64 bits: "0 buckets"'s row; one whose length fits, the
    ** length's row, though 4 B f does not fit. (Within a few bytes of 2^64 - 1 the extension
    ** still takes the first for the second: tests/reader pins those, in
    ** Validation.test_cuckoo_length_edge.) */
    memcpy(blob, valid, 114);
    store64(blob, 16, UINT64_MAX);
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: 18446744073709551615 buckets");
    blob[8] = 1;
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: 18446744073709551615 buckets of 1-bit fingerprints need "
                   "9223372036854775872 bytes, the BLOB has 114");
    blob[8] = 32;
    store64(blob, 16, UINT64_C(1) << 60);
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: 1152921504606846976 buckets");
    store64(blob, 16, (UINT64_C(1) << 60) - 9);
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: 1152921504606846967 buckets of 32-bit fingerprints need "
                   "18446744073709551536 bytes, the BLOB has 114");
    check_invalid(valid, 114, 39, 0xBF, "corrupt filter: p = -0.01 is not between 0 and 1");
    memcpy(blob, valid, 114);
    store64(blob, 32, UINT64_C(0x7FF0000000000000));
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: p = Inf is not between 0 and 1");
    memcpy(blob, valid, 114);
    store64(blob, 40, UINT64_MAX);
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: 18446744073709551615 keys in 40 slots");
    store64(blob, 40, 40);
    CHECK(filter_open(blob, 114, &view, why) == FILTER_OK);
    store64(blob, 40, 41);
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: 41 keys in 40 slots");
    for (size_t off = 10; off < 64; off++) {
        if (off == 16) {
            off = 48; /* skip B, n, p and keys */
        }
        char expected[FILTER_WHY_MAX];
        snprintf(expected, sizeof expected, "corrupt filter: reserved byte %zu is 0xA5, not 0",
                 off);
        check_invalid(valid, 114, off, 0xA5, expected);
    }
    /* The first failing check is the error, in the table's order. */
    memcpy(blob, valid, 114);
    blob[8] = 33;
    blob[9] = 8;
    store64(blob, 16, 0);
    store64(blob, 24, 0);
    store64(blob, 32, UINT64_C(0x4000000000000000));
    store64(blob, 40, 1);
    blob[10] = 1;
    static const char *const order[] = {
        "corrupt filter: fingerprints of 33 bits, not 1 to 32",
        "corrupt filter: buckets of 8 slots, not 4",
        "corrupt filter: 0 buckets",
        "corrupt filter: 10 buckets of 10-bit fingerprints need 114 bytes, the BLOB has 115",
        "corrupt filter: capacity n = 0",
        "corrupt filter: p = 2 is not between 0 and 1",
        "corrupt filter: 41 keys in 40 slots",
        "corrupt filter: reserved byte 10 is 0x01, not 0",
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        CHECK(filter_open(blob, i == 3 ? 115 : 114, &view, why) == FILTER_INVALID);
        CHECK_STR(why, order[i]);
        switch (i) { /* mend the field that failed */
        case 0:
            blob[8] = 10;
            break;
        case 1:
            blob[9] = 4;
            break;
        case 2:
            store64(blob, 16, 10);
            break;
        case 3:
            break; /* the length */
        case 4:
            store64(blob, 24, 20);
            break;
        case 5:
            store64(blob, 32, load64(valid, 32));
            store64(blob, 40, 41);
            break;
        case 6:
            store64(blob, 40, 0);
            break;
        default:
            blob[10] = 0;
            break;
        }
    }
    CHECK(filter_open(blob, 114, &view, why) == FILTER_OK);

    /* The container: kind 4 is of format version 2. */
    memcpy(blob, valid, 114);
    blob[4] = blob[5] = 1;
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(
        why,
        "corrupt filter: kind 4 is of format version 2, read by readers of version 2 and later, "
        "not 1");
    memcpy(blob, valid, 114);
    blob[4] = blob[5] = 3;
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "filter format version 3 needs a reader of version 3 or later; this one reads "
                   "version 2");
    /* A newer writer (version 3, readable by version 2) owns the reserved bytes, not f or the
    ** slots per bucket; a copy writes them 0 again, as version 2. */
    memcpy(blob, valid, 114);
    blob[4] = 3;
    blob[10] = blob[15] = blob[48] = blob[63] = 0xA5;
    CHECK(filter_open(blob, 114, &view, why) == FILTER_OK);
    uint8_t copy[128];
    filter_copy(copy, &view);
    CHECK(memcmp(copy, valid, 114) == 0);
    blob[9] = 8;
    CHECK(filter_open(blob, 114, &view, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: buckets of 8 slots, not 4");
}

/* alt(alt(i, fp), fp) = i, in the model for B up to 2^64 - 1, and in the core: a fingerprint of
** a union's second filter in bucket i, whose bucket i is full in the first, lands in the first
** empty slot of alt(i, fp), and one in bucket alt(i, fp) lands back in i. With B = 1 every
** fingerprint has one bucket: once it is full, the union finds no room. */
static void test_cuckoo_alt(void) {
    static uint8_t into[CUCKOO_BYTES_MAX], from[CUCKOO_BYTES_MAX];
    static cell_model mi, mf;
    static const uint64_t sizes[] = {
        1, 2, 3, 7, 64, 1000, UINT64_C(1) << 32, UINT64_MAX - 1, UINT64_MAX};
    static const unsigned widths[] = {1, 2, 5, 8, 13, 16, 31, 32};
    uint64_t state = 43;
    int wrong = 0, moved = 0, same = 0, full = 0;
    for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++) {
        uint64_t buckets = sizes[b];
        for (int n = 0; n < 20000; n++) {
            uint64_t i = next_random(&state) % buckets;
            uint32_t fp = (uint32_t)(next_random(&state) >> 32);
            fp = fp == 0 ? 1 : fp;
            uint64_t j = model_alt(buckets, i, fp);
            wrong += j >= buckets || model_alt(buckets, j, fp) != i;
        }
    }
    CHECK_U64(wrong, 0);
    for (size_t b = 0; b < 6; b++) {
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
            uint64_t buckets = sizes[b];
            unsigned f = widths[w];
            for (int n = 0; n < 30; n++) {
                uint64_t i = next_random(&state) % buckets;
                uint32_t fp = (uint32_t)(1 + next_random(&state) % ((UINT64_C(1) << f) - 1));
                uint64_t j = model_alt(buckets, i, fp);
                for (int back = 0; back < 2; back++) {
                    uint64_t at = back ? j : i, to = back ? i : j;
                    size_t bytes = cuckoo_empty(buckets, f, into, &mi);
                    if (!CHECK(bytes > 0 && cuckoo_empty(buckets, f, from, &mf) == bytes)) {
                        return;
                    }
                    for (unsigned s = 0; s < 4; s++) {
                        mi.slot[4 * at + s] = 1; /* bucket at full */
                    }
                    mi.keys = 4;
                    mf.slot[4 * at + 2] = fp;
                    mf.keys = 1;
                    model_write(&mi, into);
                    model_write(&mf, from);
                    filter_view view;
                    char why[FILTER_WHY_MAX];
                    CHECK(filter_open(from, bytes, &view, why) == FILTER_OK);
                    filter_status status = cuckoo_kind.merge(into, &view);
                    int fits = model_merge(&mi, &mf);
                    wrong += status != (fits ? FILTER_OK : FILTER_FULL);
                    wrong += fits && !model_matches(&mi, into);
                    if (to == at) { /* alt(i, fp) = i: fingerprints kicked from bucket i */
                        wrong += buckets == 1 && fits; /* nowhere else to go */
                        full += !fits;
                        same++;
                        continue;
                    }
                    CHECK(model_read(&mi, into, bytes));
                    wrong += status != FILTER_OK || mi.slot[4 * to] != fp || mi.keys != 5;
                    moved++;
                }
            }
        }
    }
    CHECK_U64(wrong, 0);
    CHECK(moved > 1000 && same > 100 && full >= 2 * 30 * 8);
}

/* Random adds (in memory and through add_io) and removes (through remove_io) on small cuckoo
** filters, filled to near full so that adds move fingerprints and some find no room, against
** the model after every step. A failed add's writes are dropped (the add runs on a copy);
** removing a key that is not there writes nothing. */
static void test_cuckoo_model(void) {
    static const struct {
        uint64_t buckets;
        unsigned fp_bits;
    } shapes[] = {{1, 8},   {2, 1},   {2, 4},  {3, 7},  {5, 12},  {8, 16},
                  {10, 31}, {16, 32}, {33, 5}, {64, 9}, {200, 10}};
    static uint8_t blob[CUCKOO_BYTES_MAX], copy[CUCKOO_BYTES_MAX];
    static cell_model expected;
    uint64_t state = 47;
    int kicked = 0, failed = 0, removed = 0, refused = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        uint64_t buckets = shapes[sh].buckets, keys = 5 * buckets + 4;
        size_t bytes = cuckoo_empty(buckets, shapes[sh].fp_bits, blob, &expected);
        if (!CHECK(bytes > 0)) {
            continue;
        }
        int wrong = 0;
        for (int step = 0; step < 6000; step++) {
            uint64_t r = next_random(&state);
            key_hash key = key_hash_integer((int64_t)(r % keys));
            filter_view view;
            char why[FILTER_WHY_MAX];
            int was_absent = -1, answer = -1;
            wrong += filter_open(blob, bytes, &view, why) != FILTER_OK;
            int present = model_contains(&expected, key);
            wrong += cuckoo_kind.might_contain(&view, key) != present;
            if ((r >> 32) % 8 < 5) { /* adds outnumber removes: the filter fills up */
                uint32_t fp;
                uint64_t i1, i2;
                model_place(&expected, key, &fp, &i1, &i2);
                int both_full =
                    copies_in(&expected, i1, 0) == 0 && copies_in(&expected, i2, 0) == 0;
                int fits = model_add(&expected, key);
                filter_status status;
                if ((r >> 40) & 1) {
                    status = cuckoo_add_copy(blob, bytes, key);
                } else { /* add_io on a copy, kept on FILTER_OK */
                    memcpy(copy, blob, bytes);
                    filter_io io = filter_io_memory(copy);
                    status = cuckoo_kind.add_io(&view, &io, key, &was_absent);
                    wrong += was_absent != !present;
                    if (status == FILTER_OK) {
                        memcpy(blob, copy, bytes);
                    }
                }
                wrong += status != (fits ? FILTER_OK : FILTER_FULL);
                kicked += fits && both_full;
                failed += !fits;
            } else {
                int writes = -1;
                int there = model_remove(&expected, key);
                filter_status status = cuckoo_remove_counted(blob, bytes, key, &writes);
                wrong += status != (there ? FILTER_OK : FILTER_ABSENT);
                wrong += !there && writes != 0;
                removed += there;
                refused += !there;
            }
            wrong += !model_matches(&expected, blob);
            filter_io io = filter_io_memory(blob);
            wrong += cuckoo_kind.might_contain_io(&view, &io, key, &answer) != FILTER_OK;
            wrong += answer != model_contains(&expected, key);
        }
        if (wrong != 0) {
            fprintf(stderr, "    %d wrong, B = %llu, f = %u\n", wrong, (unsigned long long)buckets,
                    shapes[sh].fp_bits);
        }
        CHECK_U64(wrong, 0);
    }
    CHECK(kicked > 1000 && failed > 1000 && removed > 5000 && refused > 1000);
}

/* A key's two buckets hold it 8 times and a 9th add fails; 4 times when they are one bucket.
** Removing it as often as it was added empties the filter; once more is FILTER_ABSENT. */
static void test_cuckoo_repeats(void) {
    static uint8_t blob[CUCKOO_BYTES_MAX], empty[CUCKOO_BYTES_MAX];
    static cell_model mo;
    for (uint64_t buckets = 1; buckets <= 12; buckets += 11) {
        size_t bytes = cuckoo_empty(buckets, 12, empty, &mo);
        int found[2] = {0, 0};
        for (int64_t k = 0; k < 100000 && !(found[0] && found[1]); k++) {
            key_hash key = key_hash_integer(k);
            uint32_t fp;
            uint64_t i1, i2;
            model_place(&mo, key, &fp, &i1, &i2);
            int one = i1 == i2;
            if (found[one]) {
                continue;
            }
            found[one] = 1;
            unsigned copies = one ? 4 : 8;
            memcpy(blob, empty, bytes);
            int wrong = 0, writes = -1;
            for (unsigned c = 0; c < copies; c++) {
                wrong += cuckoo_add_copy(blob, bytes, key) != FILTER_OK;
            }
            CHECK(model_read(&mo, blob, bytes));
            CHECK_U64(copies_in(&mo, i1, fp) + (one ? 0 : copies_in(&mo, i2, fp)), copies);
            CHECK_U64(keys_of(blob), copies);
            uint8_t before[CUCKOO_BYTES_MAX];
            memcpy(before, blob, bytes);
            CHECK(cuckoo_add_copy(blob, bytes, key) == FILTER_FULL);
            CHECK(memcmp(before, blob, bytes) == 0);
            for (unsigned c = 0; c < copies; c++) {
                wrong += cuckoo_remove_counted(blob, bytes, key, &writes) != FILTER_OK;
            }
            CHECK_U64(wrong, 0);
            CHECK(memcmp(blob, empty, bytes) == 0);
            CHECK(cuckoo_remove_counted(blob, bytes, key, &writes) == FILTER_ABSENT);
            CHECK_U64(writes, 0);
        }
        CHECK(found[1] && found[0] == (buckets > 1)); /* B = 1: one bucket for every key */
    }
    /* A full filter: B = 1 holds 4 keys, and refuses a 5th, whichever it is. */
    size_t bytes = cuckoo_empty(1, 16, blob, &mo);
    for (int64_t k = 0; k < 4; k++) {
        CHECK(cuckoo_add_copy(blob, bytes, key_hash_integer(k)) == FILTER_OK);
    }
    for (int64_t k = 4; k < 40; k++) {
        CHECK(cuckoo_add_copy(blob, bytes, key_hash_integer(k)) == FILTER_FULL);
    }
    CHECK_U64(keys_of(blob), 4);
    CHECK(model_read(&mo, blob, bytes) && copies_in(&mo, 0, 0) == 0);

    /* Keys as a header written by hand may hold them, against the slots: a remove keeps them
    ** at 0, an add at 4B. */
    bytes = cuckoo_empty(2, 16, blob, &mo);
    int writes;
    key_hash key = key_hash_text("kept", 4);
    CHECK(cuckoo_add_copy(blob, bytes, key) == FILTER_OK && keys_of(blob) == 1);
    store64(blob, BLOOM_OFF_KEYS, 0);
    CHECK(cuckoo_remove_counted(blob, bytes, key, &writes) == FILTER_OK);
    CHECK_U64(keys_of(blob), 0);
    CHECK(model_read(&mo, blob, bytes) && mo.keys == 0);
    CHECK_U64(copies_in(&mo, 0, 0) + copies_in(&mo, 1, 0), 8);
    store64(blob, BLOOM_OFF_KEYS, 8);
    CHECK(cuckoo_add_copy(blob, bytes, key) == FILTER_OK);
    CHECK_U64(keys_of(blob), 8);
}

/* Union against the model: random slots in both filters (so that fingerprints move, and some
** unions do not fit), keys summed and kept at 4B, the header of the first; FILTER_FULL when
** the model finds no room. Only filters of the same B and f are compatible. */
static void test_cuckoo_merge(void) {
    static const struct {
        uint64_t buckets;
        unsigned fp_bits;
    } shapes[] = {{1, 3}, {2, 1}, {3, 8}, {5, 13}, {10, 32}, {40, 6}, {150, 17}};
    static uint8_t a[CUCKOO_BYTES_MAX], b[CUCKOO_BYTES_MAX];
    static cell_model ma, mb;
    uint64_t state = 53;
    int wrong = 0, merged = 0, full = 0, kept = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        uint64_t buckets = shapes[sh].buckets, slots = 4 * buckets;
        unsigned f = shapes[sh].fp_bits;
        for (int round = 0; round < 300; round++) {
            size_t bytes = make_filter(&cuckoo_kind, buckets, f, 20, 0.01, a, sizeof a);
            make_filter(&cuckoo_kind, buckets, f, 99, 0.5, b, sizeof b);
            CHECK(model_read(&ma, a, bytes) && model_read(&mb, b, bytes));
            unsigned fill_a = (unsigned)(next_random(&state) % 101);
            unsigned fill_b = (unsigned)(next_random(&state) % 101);
            for (uint64_t j = 0; j < slots; j++) {
                uint64_t r = next_random(&state);
                uint32_t fp = (uint32_t)(1 + (r >> 8) % ((UINT64_C(1) << f) - 1));
                ma.slot[j] = r % 100 < fill_a ? fp : 0;
                mb.slot[j] = (r >> 60) * 7 % 100 < fill_b ? fp ^ ((uint32_t)j & 1 && f > 1) : 0;
            }
            ma.keys = next_random(&state) % (slots + 1);
            mb.keys = round % 4 == 0 ? slots : next_random(&state) % (slots + 1);
            model_write(&ma, a);
            model_write(&mb, b);
            filter_view va, vb;
            char why[FILTER_WHY_MAX];
            wrong += filter_open(a, bytes, &va, why) != FILTER_OK;
            wrong += filter_open(b, bytes, &vb, why) != FILTER_OK;
            wrong += cuckoo_kind.compatible(&va, &vb, why) != FILTER_OK;
            uint8_t header[FILTER_HEADER_BYTES];
            memcpy(header, a, sizeof header);
            uint64_t sum = ma.keys + mb.keys;
            int fits = model_merge(&ma, &mb);
            filter_status status = cuckoo_kind.merge(a, &vb);
            wrong += status != (fits ? FILTER_OK : FILTER_FULL);
            if (fits) {
                wrong += !model_matches(&ma, a);
                wrong += keys_of(a) != (sum < slots ? sum : slots);
                wrong += memcmp(a, header, BLOOM_OFF_KEYS) != 0; /* n = 20, p = 0.01 */
                kept += sum > slots;
                merged++;
            }
            full += !fits;
        }
    }
    CHECK_U64(wrong, 0);
    CHECK(merged > 500 && full > 300 && kept > 50);

    /* Another B or f: refused, in the terms they were built with. */
    filter_view first, other;
    char why[FILTER_WHY_MAX];
    size_t bytes = make_filter(&cuckoo_kind, 10, 10, 20, 0.01, a, sizeof a);
    CHECK(filter_open(a, bytes, &first, why) == FILTER_OK);
    bytes = make_filter(&cuckoo_kind, 11, 10, 22, 0.01, b, sizeof b);
    CHECK(filter_open(b, bytes, &other, why) == FILTER_OK);
    CHECK(cuckoo_kind.compatible(&first, &other, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: one built for n = 20 at p = 0.01 (10 buckets, 10-bit "
                   "fingerprints), the other for n = 22 at p = 0.01 (11 buckets, 10-bit "
                   "fingerprints); build both with the same n, p and layout");
    bytes = make_filter(&cuckoo_kind, 10, 11, 20, 0.005, b, sizeof b);
    CHECK(filter_open(b, bytes, &other, why) == FILTER_OK);
    CHECK(cuckoo_kind.compatible(&first, &other, why) == FILTER_INVALID);
    CHECK(strstr(why, "(10 buckets, 11-bit fingerprints)") != NULL);
    bytes = make_filter(&cuckoo_kind, 10, 10, 7, 0.3, b, sizeof b); /* n, p do not matter */
    CHECK(filter_open(b, bytes, &other, why) == FILTER_OK);
    CHECK(cuckoo_kind.compatible(&first, &other, why) == FILTER_OK);
}

/* The golden cuckoo filter: its keys probe 1, 42's fingerprint is in its first bucket twice,
** and removing every key, in order, leaves the empty filter with no keys. */
static void test_cuckoo_golden(const char *golden_dir) {
    static cell_model mo;
    uint8_t golden[256], empty[256];
    key_hash keys[32];
    size_t nkeys = golden_keys(keys);
    size_t bytes = read_golden(golden_dir, &cuckoo_kind, golden, sizeof golden);
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (!CHECK(bytes == 114 && filter_open(golden, bytes, &view, why) == FILTER_OK &&
               model_read(&mo, golden, bytes))) {
        return;
    }
    CHECK(mo.buckets == 10 && mo.fp_bits == 10 && mo.keys == 19);
    CHECK(cuckoo_slots_used(&view) == 19);
    uint32_t fp;
    uint64_t i1, i2;
    model_place(&mo, key_hash_integer(42), &fp, &i1, &i2);
    CHECK_U64(copies_in(&mo, i1, fp), 2);
    CHECK_U64(copies_in(&mo, 5, 0), 0); /* bucket 5 is full (tests/golden/README.md) */
    int wrong = 0, writes;
    for (size_t k = 0; k < nkeys; k++) {
        wrong += cuckoo_kind.might_contain(&view, keys[k]) != 1;
    }
    for (size_t k = 0; k < nkeys; k++) {
        wrong += cuckoo_remove_counted(golden, bytes, keys[k], &writes) != FILTER_OK;
    }
    CHECK_U64(wrong, 0);
    CHECK_U64(make_sized(&cuckoo_kind, 20, 0.01, empty, sizeof empty), 114);
    CHECK(memcmp(golden, empty, bytes) == 0);
}

/* bloom_info's figures of section 4.4: the slots in use, and the rate
** 1 - (1 - 1/(2^f - 1))^(8 U / 4B), 0 with no slot used, 1 with f = 1 and one. */
static void test_cuckoo_measure(void) {
    static uint8_t blob[CUCKOO_BYTES_MAX];
    static cell_model mo;
    static const unsigned widths[] = {1, 2, 7, 10, 16, 24, 31, 32};
    uint64_t state = 59;
    int wrong = 0;
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        for (uint64_t buckets = 1; buckets < 200; buckets += 13) {
            size_t bytes = cuckoo_empty(buckets, widths[w], blob, &mo);
            uint64_t used = 0;
            unsigned fill = (unsigned)(next_random(&state) % 101);
            for (uint64_t j = 0; j < 4 * buckets; j++) {
                int set = next_random(&state) % 100 < fill;
                mo.slot[j] = set ? (uint32_t)((UINT64_C(1) << widths[w]) - 1) : 0;
                used += set;
            }
            model_write(&mo, blob);
            filter_view view;
            char why[FILTER_WHY_MAX];
            wrong += filter_open(blob, bytes, &view, why) != FILTER_OK;
            wrong += cuckoo_slots_used(&view) != used;
            cuckoo_header h = cuckoo_header_of(&view);
            wrong += h.buckets != buckets || h.fingerprint_bits != widths[w];
            double rate = cuckoo_fp_rate(&h, used);
            long double q = 1.0L / (ldexpl(1.0L, (int)widths[w]) - 1.0L);
            long double want = used == 0 ? 0.0L
                               : widths[w] == 1
                                   ? 1.0L
                                   : -expm1l(8.0L * (long double)used /
                                             (4.0L * (long double)buckets) * log1pl(-q));
            /* Within 1e-9, relative: sqlite-bloom takes log(1 - q), which rounds 1 - q and
            ** loses digits at large f (2.3e-10 at f = 32; tests/reader pins the case,
            ** Cuckoo.test_fp_rate_digits). */
            wrong += fabsl((long double)rate - want) > 1e-9L * want;
        }
    }
    CHECK_U64(wrong, 0);
}

/* add_io and remove_io through a filter_io whose reads and writes fail in turn, on an add that
** moves fingerprints: FILTER_IO_FAILED until none fails, then the bytes of the add in memory. */
static void test_cuckoo_io_failures(void) {
    static uint8_t blob[CUCKOO_BYTES_MAX], work[CUCKOO_BYTES_MAX], want[CUCKOO_BYTES_MAX];
    static cell_model mo;
    size_t bytes = cuckoo_empty(16, 9, blob, &mo);
    key_hash key = {0, 0};
    int64_t k = 0;
    /* Fill with keys until one needs kicks (both its buckets full) and fits. */
    for (; k < 1000; k++) {
        key = key_hash_integer(k);
        uint32_t fp;
        uint64_t i1, i2;
        model_place(&mo, key, &fp, &i1, &i2);
        if (copies_in(&mo, i1, 0) == 0 && copies_in(&mo, i2, 0) == 0) {
            memcpy(want, blob, bytes);
            if (cuckoo_add_copy(want, bytes, key) == FILTER_OK) {
                break;
            }
            continue;
        }
        CHECK(model_add(&mo, key) && cuckoo_add_copy(blob, bytes, key) == FILTER_OK);
    }
    if (!CHECK(k < 1000)) {
        return;
    }
    filter_view view;
    char why[FILTER_WHY_MAX];
    counted_io state;
    filter_status status = FILTER_IO_FAILED;
    int failed = 0, calls = 0;
    CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK);
    for (int fail_at = 0; status == FILTER_IO_FAILED && fail_at < 5000; fail_at++) {
        int was_absent;
        memcpy(work, blob, bytes);
        filter_io io = counted(&state, work, fail_at);
        status = cuckoo_kind.add_io(&view, &io, key, &was_absent);
        failed += status == FILTER_IO_FAILED;
        calls = state.calls;
    }
    CHECK(status == FILTER_OK && failed == calls && calls > 8);
    CHECK(memcmp(work, want, bytes) == 0);
    status = FILTER_IO_FAILED;
    failed = 0;
    CHECK(filter_open(want, bytes, &view, why) == FILTER_OK);
    for (int fail_at = 0; status == FILTER_IO_FAILED && fail_at < 100; fail_at++) {
        memcpy(work, want, bytes);
        filter_io io = counted(&state, work, fail_at);
        status = cuckoo_kind.remove_io(&view, &io, key);
        failed += status == FILTER_IO_FAILED;
        calls = state.calls;
    }
    CHECK(status == FILTER_OK && failed == calls && calls >= 3);
}

/* ---- The scalable kind (docs/format.md section 4.5) --------------------------------- */

/* Room for the scalable filters of these tests. */
enum { SCALABLE_BYTES_MAX = 1 << 16 };

/* Key i of a test set: an INTEGER, REAL, TEXT or BLOB in turn, distinct for distinct i. */
static key_hash mixed_key(int64_t i) {
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

/* An empty scalable filter of one stage for n and p, of the given stage layout, growth 2 and
** ratio 0.8, in blob (SCALABLE_BYTES_MAX): its length, or 0. */
static uint64_t scalable_empty(uint64_t n, double p, int layout, uint8_t *blob) {
    scalable_header h;
    bloom_header first;
    double bytes;
    if (scalable_size(n, p, layout, SCALABLE_GROWTH, SCALABLE_TIGHTENING, &h, &first, &bytes) !=
            FILTER_OK ||
        bytes > SCALABLE_BYTES_MAX) {
        return 0;
    }
    memset(blob, 0, (size_t)bytes);
    scalable_write_header(blob, &h);
    bloom_write_header(blob + FILTER_HEADER_BYTES, &first);
    return (uint64_t)bytes;
}

/* Grows the scalable filter in blob (*bytes long, room for SCALABLE_BYTES_MAX) by a stage, as
** the SQL functions do after FILTER_FULL: grow_size's status. */
static filter_status scalable_grow(uint8_t *blob, uint64_t *bytes) {
    filter_view view = {&scalable_kind, 2, 2, KEY_HASH_XXH3_128, blob, *bytes};
    uint64_t grown = 0;
    filter_status status = scalable_kind.grow_size(&view, &grown);
    if (status == FILTER_OK && grown > SCALABLE_BYTES_MAX) {
        return FILTER_TOO_BIG;
    }
    if (status == FILTER_OK) {
        scalable_kind.grow(blob, *bytes);
        *bytes = grown;
    }
    return status;
}

/* Adds key to the scalable filter in blob, growing it when its last stage is full. */
static filter_status scalable_add_growing(uint8_t *blob, uint64_t *bytes, key_hash key) {
    filter_status status = filter_add(&scalable_kind, blob, key);
    if (status == FILTER_FULL) {
        status = scalable_grow(blob, bytes);
        if (status == FILTER_OK) {
            status = filter_add(&scalable_kind, blob, key); /* the new stage is empty */
        }
    }
    return status;
}

/* Section 4.5's stage targets, written from its words: n_i = n g^i by i multiplications (0
** when it does not fit in 64 bits), p_i = p (1 - r) r^i by i multiplications. */
static uint64_t words_stage_n(uint64_t n, unsigned g, int i) {
    for (int j = 0; j < i; j++) {
        if (n > UINT64_MAX / g) {
            return 0;
        }
        n *= g;
    }
    return n;
}

static double words_stage_p(double p, double r, int i) {
    volatile double rate = p * (1.0 - r); /* one rounding per operation */
    for (int j = 0; j < i; j++) {
        rate = rate * r;
    }
    return rate;
}

/* Checks a scalable filter against section 4.5: its header says layout, g = 2, r = 0.8, n
** and p; each stage is a Bloom filter of that kind sized by bloom_size for its n_i and p_i,
** the stages before the last full, their keys adding up to the header's, the BLOB exactly as
** long as its stages. Returns the number of stages (0 when something is wrong). */
static int scalable_check_stages(const uint8_t *blob, uint64_t bytes, int layout, uint64_t n,
                                 double p) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    int wrong = 0;
    if (!CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK && view.kind == &scalable_kind)) {
        fprintf(stderr, "    %s\n", why);
        return 0;
    }
    scalable_header h = scalable_header_of(&view);
    wrong += h.stage_layout != layout || h.growth != 2 || h.tightening != 0.8 || h.n != n;
    wrong += h.p != p || blob[8] != layout || blob[9] != 2 || blob[10] != h.stages;
    uint64_t offset = FILTER_HEADER_BYTES, keys = 0;
    for (int i = 0; i < h.stages; i++) {
        scalable_stage s;
        bloom_header want;
        double stage_bytes;
        uint64_t target_n;
        double target_p;
        scalable_stage_at(&view, i, &s);
        wrong += s.offset != offset;
        wrong += !scalable_stage_target(&h, i, &target_n, &target_p);
        wrong += target_n != words_stage_n(n, 2, i) || target_p != words_stage_p(p, 0.8, i);
        wrong += bloom_size(target_n, target_p, layout, &want, &stage_bytes) != FILTER_OK;
        wrong += s.header.layout != layout || s.header.n != target_n || s.header.p != target_p;
        wrong += s.header.m != want.m || s.header.k != want.k;
        wrong += s.bytes != (uint64_t)stage_bytes || s.bytes != bloom_blob_bytes(want.m);
        wrong += blob[offset + 4] != 1 || blob[offset + 5] != 1 || blob[offset + 6] != layout;
        wrong += i + 1 < h.stages ? s.header.keys != s.header.n : s.header.keys > s.header.n;
        keys += s.header.keys;
        offset += s.bytes;
    }
    wrong += offset != bytes || keys != h.keys || keys != keys_of(blob);
    CHECK_U64(wrong, 0);
    return wrong == 0 ? h.stages : 0;
}

static void test_scalable_sizing(void) {
    scalable_header h;
    bloom_header first, want;
    double bytes, want_bytes;
    /* One stage, sized for n at p (1 - r), as section 4.5 says. */
    CHECK(scalable_size(10, 0.01, BLOOM_LAYOUT_STANDARD, 2, 0.8, &h, &first, &bytes) == FILTER_OK);
    CHECK(h.stage_layout == 1 && h.growth == 2 && h.stages == 1 && h.n == 10 && h.p == 0.01);
    CHECK(h.tightening == 0.8 && h.keys == 0);
    CHECK(bloom_size(10, words_stage_p(0.01, 0.8, 0), 1, &want, &want_bytes) == FILTER_OK);
    CHECK(first.layout == 1 && first.n == 10 && first.p == want.p && first.keys == 0);
    CHECK(first.m == want.m && first.k == want.k && bytes == 64 + want_bytes);
    /* p (1 - r) rounds: 1 - 0.8 is 0.19999999999999996, and p_0 is the double below 0.002. */
    CHECK(first.p == 0.01 * 0.19999999999999996 && first.p < 0.002);
    CHECK(scalable_size(1000, 0.05, BLOOM_LAYOUT_BLOCKED, 3, 0.5, &h, &first, &bytes) == FILTER_OK);
    CHECK(bloom_size(1000, 0.025, BLOOM_LAYOUT_BLOCKED, &want, &want_bytes) == FILTER_OK);
    CHECK(h.stage_layout == 2 && h.growth == 3 && h.tightening == 0.5 && first.layout == 2);
    CHECK(first.m == want.m && first.k == want.k && bytes == 64 + want_bytes);
    /* Arguments outside their ranges. */
    CHECK(scalable_size(0, 0.01, 1, 2, 0.8, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(scalable_size(10, 0.0, 1, 2, 0.8, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(scalable_size(10, 1.0, 1, 2, 0.8, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(scalable_size(10, NAN, 1, 2, 0.8, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(scalable_size(10, 0.01, 1, 1, 0.8, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(scalable_size(10, 0.01, 1, 256, 0.8, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(scalable_size(10, 0.01, 1, 255, 0.8, &h, &first, &bytes) == FILTER_OK);
    CHECK(scalable_size(10, 0.01, 1, 2, 0.0, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(scalable_size(10, 0.01, 1, 2, 1.0, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(scalable_size(10, 0.01, 1, 2, NAN, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(scalable_size(10, 0.01, 3, 2, 0.8, &h, &first, &bytes) == FILTER_BAD_ARGUMENT);
    /* The first stage's rate decides: 1e-19 (1 - 0.8) needs 66 hash functions; 0.9 (1 - 0.1)
    ** is above the blocked layout's 0.5. */
    CHECK(scalable_size(10, 1e-19, 1, 2, 0.8, &h, &first, &bytes) == FILTER_TOO_MANY_HASHES);
    CHECK_U64(first.k, 66);
    CHECK(scalable_size(10, 0.9, 2, 2, 0.1, &h, &first, &bytes) == FILTER_RATE_TOO_HIGH);
    CHECK(scalable_size(10, 0.9, 1, 2, 0.1, &h, &first, &bytes) == FILTER_OK);
    /* More than the core's largest BLOB: the size still reported. */
    CHECK(scalable_size(UINT64_C(1) << 62, 0.01, 1, 2, 0.8, &h, &first, &bytes) == FILTER_TOO_BIG);
    CHECK(bytes > 2.3e18);

    /* scalable_stage_target: n g^i and p (1 - r) r^i, by repeated multiplication; 0 once n_i
    ** does not fit in 64 bits. */
    scalable_header t = {1, 2, 1, 10, 0.01, 0.8, 0};
    int wrong = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t n;
        double p;
        wrong += !scalable_stage_target(&t, i, &n, &p);
        wrong += n != (UINT64_C(10) << i) || p != words_stage_p(0.01, 0.8, i);
        wrong += i > 0 && p >= words_stage_p(0.01, 0.8, i - 1);
        if (i == 60) {
            break; /* 10 * 2^61 does not fit */
        }
    }
    CHECK_U64(wrong, 0);
    uint64_t n;
    double p;
    CHECK(!scalable_stage_target(&t, 61, &n, &p) && !scalable_stage_target(&t, 63, &n, &p));
    scalable_header g255 = {1, 255, 1, 3, 0.5, 0.25, 0};
    CHECK(scalable_stage_target(&g255, 7, &n, &p) && n == UINT64_C(3) * 70110209207109375);
    CHECK(p == words_stage_p(0.5, 0.25, 7) && p == 0.375 * ldexp(1, -14)); /* exact: powers of 2 */
    CHECK(!scalable_stage_target(&g255, 8, &n, &p));
    /* The compound rate: 1 minus the chance that no stage answers 1. */
    double rates[3] = {0.5, 0.5, 0.0};
    CHECK(scalable_compound_rate(rates, 2) == 0.75 && scalable_compound_rate(rates, 0) == 0);
    CHECK(scalable_compound_rate(rates + 2, 1) == 0);
}

/* A scalable filter grown from n = 10 past several stages: every key added probes 1, each
** stage is sized as section 4.5 says, a key some stage may hold is not added again nor counted,
** a full last stage refuses a key until the filter grows, and the rate stays below p. */
static void test_scalable_grow(void) {
    static uint8_t blob[SCALABLE_BYTES_MAX], before[SCALABLE_BYTES_MAX];
    filter_view view;
    char why[FILTER_WHY_MAX];
    for (int layout = BLOOM_LAYOUT_STANDARD; layout <= BLOOM_LAYOUT_BLOCKED; layout++) {
        uint64_t bytes = scalable_empty(10, 0.01, layout, blob), counted = 0;
        int wrong = 0, repeats = 0, full = 0;
        if (!CHECK(bytes > 0)) {
            return;
        }
        for (int64_t i = 0; i < 1200; i++) {
            key_hash key = mixed_key(i % 1000); /* the last 200 are repeats */
            CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK);
            int held = scalable_kind.might_contain(&view, key);
            memcpy(before, blob, (size_t)bytes);
            filter_status status = filter_add(&scalable_kind, blob, key);
            if (status == FILTER_FULL) {
                /* Refused: nothing written; the last stage holds its capacity. */
                wrong += held || memcmp(before, blob, (size_t)bytes) != 0;
                scalable_stage last;
                scalable_stage_at(&view, blob[10] - 1, &last);
                wrong += last.header.keys != last.header.n;
                full++;
                uint8_t stages = blob[10];
                wrong += scalable_grow(blob, &bytes) != FILTER_OK || blob[10] != stages + 1;
                status = filter_add(&scalable_kind, blob, key);
            }
            wrong += status != FILTER_OK;
            if (held) {
                /* A key some stage may hold: not added again, not counted. */
                wrong += memcmp(before, blob, (size_t)bytes) != 0;
                repeats += i >= 1000;
            }
            counted += !held;
            CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK);
            wrong += scalable_kind.might_contain(&view, key) != 1 || keys_of(blob) != counted;
        }
        CHECK_U64(wrong, 0);
        CHECK_U64(repeats, 200);
        /* 10 + 20 + 40 + 80 + 160 + 320 = 630 < ~1000 keys <= 1270 with the 7th stage. */
        CHECK_U64(full, 6);
        CHECK_U64(scalable_check_stages(blob, bytes, layout, 10, 0.01), 7);
        CHECK(counted > 990 && counted <= 1000); /* a few kept out by false positives */
        /* No false negatives, and the rate stays below p (1 % here, 0.1 to 0.4 % measured). */
        CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK);
        int misses = 0, false_positives = 0;
        for (int64_t i = 0; i < 1000; i++) {
            misses += !scalable_kind.might_contain(&view, mixed_key(i));
        }
        for (int64_t i = 1000; i < 11000; i++) {
            false_positives += scalable_kind.might_contain(&view, mixed_key(i));
        }
        CHECK_U64(misses, 0);
        CHECK(false_positives < 10000 * 0.01);
    }
}

/* grow_size and grow: one more stage, the next target's; FILTER_BAD_ARGUMENT at 64 stages,
** FILTER_TOO_BIG when n_s does not fit or the BLOB would pass 2^61 bytes,
** FILTER_TOO_MANY_HASHES when p_s needs more than 64 positions. grow_size reads the header
** alone. */
static void test_scalable_grow_limits(void) {
    static uint8_t blob[SCALABLE_BYTES_MAX];
    uint8_t header[FILTER_HEADER_BYTES];
    uint64_t bytes = scalable_empty(10, 0.01, BLOOM_LAYOUT_STANDARD, blob), grown = 99;
    filter_view view = {&scalable_kind, 2, 2, KEY_HASH_XXH3_128, blob, bytes};
    bloom_header second;
    double second_bytes;
    for (int64_t i = 0; keys_of(blob) < 10; i++) { /* the first stage full, as before a grow */
        CHECK(filter_add(&scalable_kind, blob, mixed_key(i)) == FILTER_OK);
    }
    CHECK(filter_add(&scalable_kind, blob, mixed_key(-1)) == FILTER_FULL);
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_OK);
    CHECK(bloom_size(20, words_stage_p(0.01, 0.8, 1), 1, &second, &second_bytes) == FILTER_OK);
    CHECK_U64(grown, bytes + (uint64_t)second_bytes);
    scalable_kind.grow(blob, bytes);
    CHECK_U64(scalable_check_stages(blob, grown, BLOOM_LAYOUT_STANDARD, 10, 0.01), 2);
    /* Headers made by hand: grow_size reads nothing else. */
    scalable_header h = {1, 2, SCALABLE_STAGES_MAX, 10, 0.01, 0.8, 0};
    view.blob = header;
    scalable_write_header(header, &h);
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_BAD_ARGUMENT && grown == 0);
    h.stages = SCALABLE_STAGES_MAX - 1;
    scalable_write_header(header, &h);
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_TOO_BIG); /* 10 * 2^63 */
    h.n = 1;
    scalable_write_header(header, &h);
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_TOO_BIG); /* 2^63 keys: too big */
    h.stages = 2;
    h.n = UINT64_C(1) << 62;
    scalable_write_header(header, &h);
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_TOO_BIG && grown == 0); /* 2^64 */
    h.n = UINT64_C(1) << 61;
    scalable_write_header(header, &h);
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_TOO_BIG); /* 2^63 keys, 2^61 B */
    /* p = 1e-16, r = 0.01: p_2 = 9.9e-21 needs 66 positions. */
    h.n = 1;
    h.p = 1e-16;
    h.tightening = 0.01;
    scalable_write_header(header, &h);
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_TOO_MANY_HASHES && grown == 0);
    h.stages = 1;
    scalable_write_header(header, &h);
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_OK);
    /* The BLOB as it is, plus the stage, past the core's largest: too big. */
    h.stages = 2;
    h.p = 0.01;
    h.tightening = 0.8;
    h.n = 1000; /* stage 2: 4000 keys, more than 1024 bytes */
    scalable_write_header(header, &h);
    view.bytes = (UINT64_C(1) << 61) - 1024;
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_TOO_BIG && grown == 0);
    view.bytes = (UINT64_C(1) << 60);
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_OK && grown > view.bytes + 1024);
}

/* The _io operations through filter_io_memory with a view of the header alone give the
** answers and bytes of might_contain and add in memory, growth included; a failing read or
** write is FILTER_IO_FAILED; validate_body reads one header a stage. */
static void test_scalable_io(void) {
    static uint8_t a[SCALABLE_BYTES_MAX], b[SCALABLE_BYTES_MAX], work[SCALABLE_BYTES_MAX];
    uint8_t header[FILTER_HEADER_BYTES];
    filter_view va, vb;
    char why[FILTER_WHY_MAX];
    uint64_t bytes_a = scalable_empty(10, 0.01, BLOOM_LAYOUT_STANDARD, a);
    uint64_t bytes_b = scalable_empty(10, 0.01, BLOOM_LAYOUT_STANDARD, b);
    int wrong = 0, absent = 0, grown = 0;
    for (int64_t i = 0; i < 1000; i++) {
        key_hash probe = mixed_key(-i - 1), add = mixed_key(i / 2);
        filter_io io = filter_io_memory(b);
        int answer = -1, was_absent = -1;
        wrong += filter_open(a, bytes_a, &va, why) != FILTER_OK;
        wrong += filter_open(b, bytes_b, &vb, why) != FILTER_OK;
        memcpy(header, b, sizeof header);
        vb.blob = header; /* the _io operations read the header of the view alone */
        wrong += scalable_kind.might_contain_io(&vb, &io, probe, &answer) != FILTER_OK;
        wrong += answer != scalable_kind.might_contain(&va, probe);
        int before = scalable_kind.might_contain(&va, add);
        absent += !before;
        wrong += scalable_add_growing(a, &bytes_a, add) != FILTER_OK;
        filter_status status = scalable_kind.add_io(&vb, &io, add, &was_absent);
        if (status == FILTER_FULL) {
            wrong += before || scalable_grow(b, &bytes_b) != FILTER_OK;
            wrong += filter_open(b, bytes_b, &vb, why) != FILTER_OK;
            memcpy(header, b, sizeof header);
            vb.blob = header;
            status = scalable_kind.add_io(&vb, &io, add, &was_absent);
            grown++;
        }
        wrong += status != FILTER_OK || was_absent != !before;
        wrong += bytes_a != bytes_b || memcmp(a, b, (size_t)bytes_a) != 0;
    }
    CHECK_U64(wrong, 0);
    CHECK(absent > 480 && grown == 5);
    CHECK_U64(scalable_check_stages(a, bytes_a, BLOOM_LAYOUT_STANDARD, 10, 0.01), 6);

    /* Each read or write failing in turn: FILTER_IO_FAILED, until none fails. An add reads
    ** every stage's header and the key's bits in each, then writes the last stage and the
    ** header. */
    counted_io state;
    key_hash key = key_hash_text("io", 2);
    int failed = 0, calls = 0;
    filter_status status = FILTER_IO_FAILED;
    CHECK(filter_open(a, bytes_a, &va, why) == FILTER_OK && !scalable_kind.might_contain(&va, key));
    for (int fail_at = 0; status == FILTER_IO_FAILED && fail_at < 400; fail_at++) {
        int was_absent;
        memcpy(work, a, (size_t)bytes_a);
        filter_io io = counted(&state, work, fail_at);
        status = scalable_kind.add_io(&va, &io, key, &was_absent);
        failed += status == FILTER_IO_FAILED;
        calls = state.calls;
    }
    CHECK(status == FILTER_OK && failed == calls && calls > 6 + 2);
    CHECK(filter_add(&scalable_kind, a, key) == FILTER_OK && memcmp(work, a, (size_t)bytes_a) == 0);
    int answer;
    filter_io io = counted(&state, a, 0);
    CHECK(scalable_kind.might_contain_io(&va, &io, key, &answer) == FILTER_IO_FAILED);
    /* validate_body: one read of a header a stage, whatever the BLOB's length. */
    io = counted(&state, a, -1);
    CHECK(scalable_kind.validate_body(&va, &io, why) == FILTER_OK && state.calls == 6);
    for (int fail_at = 0; fail_at < 6; fail_at++) {
        io = counted(&state, a, fail_at);
        CHECK(scalable_kind.validate_body(&va, &io, why) == FILTER_IO_FAILED);
    }
    /* A full last stage: add_io answers FILTER_FULL, writing nothing. */
    uint64_t bytes = scalable_empty(2, 0.01, BLOOM_LAYOUT_STANDARD, work);
    int64_t next = 0;
    while (keys_of(work) < 2) {
        CHECK(filter_add(&scalable_kind, work, mixed_key(next++)) == FILTER_OK);
    }
    CHECK(filter_open(work, bytes, &vb, why) == FILTER_OK);
    memcpy(a, work, (size_t)bytes);
    int was_absent = -1;
    io = counted(&state, work, -1);
    CHECK(scalable_kind.add_io(&vb, &io, mixed_key(next), &was_absent) == FILTER_FULL);
    CHECK(state.writes == 0 && memcmp(a, work, (size_t)bytes) == 0);
}

/* Writes blob with the 8 bytes of value at offset (little-endian), checks that filter_open
** refuses it with the message, and restores it. */
static void expect_invalid_at(uint8_t *blob, uint64_t bytes, size_t offset, uint64_t value,
                              int width, const char *expected) {
    uint8_t saved[8];
    filter_view view;
    char why[FILTER_WHY_MAX];
    memcpy(saved, blob + offset, (size_t)width);
    for (int i = 0; i < width; i++) {
        blob[offset + (size_t)i] = (uint8_t)(value >> (8 * i));
    }
    CHECK(filter_open(blob, bytes, &view, why) == FILTER_INVALID);
    CHECK_STR(why, expected);
    memcpy(blob + offset, saved, (size_t)width);
}

/* Checks that filter_open refuses blob (bytes long) with the message. */
static void expect_invalid(const uint8_t *blob, uint64_t bytes, const char *expected) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    CHECK(filter_open(blob, bytes, &view, why) == FILTER_INVALID);
    CHECK_STR(why, expected);
}

/* docs/format.md section 5, the checks of kind 5, row by row with the table's messages, on the
** golden filter's copy: 3 stages of m = 64, 128 and 192 at bytes 64, 136 and 216, 304 bytes. */
static void test_scalable_validation(void) {
    static uint8_t blob[SCALABLE_BYTES_MAX], other[SCALABLE_BYTES_MAX];
    key_hash keys[32];
    size_t nkeys = golden_keys(keys);
    filter_view view;
    char why[FILTER_WHY_MAX], expected[FILTER_WHY_MAX];
    uint64_t bytes = scalable_empty(3, 0.01, BLOOM_LAYOUT_STANDARD, blob);
    for (size_t i = 0; i < nkeys; i++) {
        CHECK(scalable_add_growing(blob, &bytes, keys[i]) == FILTER_OK);
    }
    if (!CHECK(bytes == 304 && filter_open(blob, bytes, &view, why) == FILTER_OK)) {
        return;
    }
    /* The header (O(1)). */
    expect_invalid_at(blob, 304, 8, 7, 1, "corrupt filter: stage layout 7 is not 1 or 2");
    expect_invalid_at(blob, 304, 8, 0, 1, "corrupt filter: stage layout 0 is not 1 or 2");
    expect_invalid_at(blob, 304, 8, 3, 1, "corrupt filter: stage layout 3 is not 1 or 2");
    expect_invalid_at(blob, 304, 9, 1, 1, "corrupt filter: growth 1 is less than 2");
    expect_invalid_at(blob, 304, 9, 0, 1, "corrupt filter: growth 0 is less than 2");
    expect_invalid_at(blob, 304, 10, 65, 1, "corrupt filter: 65 stages, not 1 to 64");
    expect_invalid_at(blob, 304, 10, 0, 1, "corrupt filter: 0 stages, not 1 to 64");
    expect_invalid_at(blob, 304, 10, 255, 1, "corrupt filter: 255 stages, not 1 to 64");
    expect_invalid_at(blob, 304, 32, 0x3FF0000000000000, 8,
                      "corrupt filter: tightening ratio 1 is not between 0 and 1");
    expect_invalid_at(blob, 304, 32, 0, 8,
                      "corrupt filter: tightening ratio 0 is not between 0 and 1");
    expect_invalid_at(blob, 304, 32, 0xBFE0000000000000, 8,
                      "corrupt filter: tightening ratio -0.5 is not between 0 and 1");
    expect_invalid_at(blob, 304, 32, 0x7FF8000000000000, 8,
                      "corrupt filter: tightening ratio NaN is not between 0 and 1");
    expect_invalid_at(blob, 304, 16, 0, 8, "corrupt filter: capacity n = 0");
    expect_invalid_at(blob, 304, 24, 0x4000000000000000, 8,
                      "corrupt filter: p = 2 is not between 0 and 1");
    expect_invalid_at(blob, 304, 24, 0x7FF0000000000000, 8,
                      "corrupt filter: p = Inf is not between 0 and 1");
    expect_invalid_at(blob, 304, 10, 4, 1, "corrupt filter: 304 bytes cannot hold 4 stages");
    for (size_t off = 11; off < 64; off++) {
        if (off == 16) {
            off = 48; /* skip n, p, r and keys */
        }
        snprintf(expected, sizeof expected, "corrupt filter: reserved byte %zu is 0x01, not 0",
                 off);
        expect_invalid_at(blob, 304, off, 1, 1, expected);
    }
    /* The first check that fails is the error. */
    blob[9] = 1;
    expect_invalid_at(blob, 304, 8, 9, 1, "corrupt filter: stage layout 9 is not 1 or 2");
    blob[9] = 2;
    blob[16] = 0;
    expect_invalid_at(blob, 304, 10, 0, 1, "corrupt filter: 0 stages, not 1 to 64");
    blob[16] = 3;
    /* A newer writer that this reader may read owns the reserved bytes. */
    memcpy(other, blob, 304);
    other[4] = 3;
    other[11] = other[15] = other[48] = other[63] = 0xA5;
    CHECK(filter_open(other, 304, &view, why) == FILTER_OK);
    other[4] = 2;
    expect_invalid(other, 304, "corrupt filter: reserved byte 11 is 0xA5, not 0");

    /* The stages' headers. */
    memcpy(other, blob, 304);
    memset(other + 304, 0, 60);
    other[10] = 4;
    expect_invalid(other, 364,
                   "corrupt filter: stage 3 starts at byte 304, too near the end of "
                   "364 bytes");
    expect_invalid_at(blob, 304, 216 + 16, 1024, 8,
                      "corrupt filter: stage 2 of m = 1024 bits does not fit in the 88 bytes "
                      "after byte 216");
    expect_invalid(blob, 303,
                   "corrupt filter: stage 2 of m = 192 bits does not fit in the 87 "
                   "bytes after byte 216");
    expect_invalid_at(blob, 304, 64 + 16, UINT64_MAX, 8,
                      "corrupt filter: stage 0 of m = 18446744073709551615 bits does not fit in "
                      "the 240 bytes after byte 64");
    expect_invalid_at(blob, 304, 136 + 8, 65, 4,
                      "corrupt filter: stage 1: corrupt filter: k = 65 is outside 1..64");
    expect_invalid_at(blob, 304, 136 + 16, 100, 8,
                      "corrupt filter: stage 1: corrupt filter: m = 100 bits is not a positive "
                      "multiple of 64");
    expect_invalid_at(blob, 304, 64 + 16, 0, 8,
                      "corrupt filter: stage 0: corrupt filter: m = 0 bits is not a positive "
                      "multiple of 64");
    expect_invalid_at(blob, 304, 64, 's', 1,
                      "corrupt filter: stage 0: not a Bloom filter: magic is x'73514246', not "
                      "x'53514246' (SQBF)");
    expect_invalid_at(blob, 304, 64 + 4, 0x0303, 2,
                      "corrupt filter: stage 0: filter format version 3 needs a reader of "
                      "version 3 or later; this one reads version 2");
    expect_invalid_at(blob, 304, 64 + 6, 3, 1,
                      "corrupt filter: stage 0: corrupt filter: kind 3 is of format version 2, "
                      "read by readers of version 2 and later, not 1");
    expect_invalid_at(blob, 304, 64 + 7, 2, 1,
                      "corrupt filter: stage 0: corrupt filter: unknown "
                      "hash 2");
    expect_invalid_at(blob, 304, 136 + 24, 0, 8,
                      "corrupt filter: stage 1: corrupt filter: capacity n = 0");
    expect_invalid_at(blob, 304, 216 + 13, 1, 1,
                      "corrupt filter: stage 2: corrupt filter: reserved byte 13 is 0x01, not 0");
    /* A stage of kind 3 (versions 2, counter width 4), validated at the length its m gives. */
    memcpy(other, blob, 304);
    other[64 + 4] = other[64 + 5] = 2;
    other[64 + 6] = 3;
    other[64 + 12] = 4;
    expect_invalid(other, 304,
                   "corrupt filter: stage 0: corrupt filter: m = 64 counters need 96 "
                   "bytes, the BLOB has 72");
    /* A stage of a newer format version this reader may read: its reserved bytes are its
    ** writer's, and it is a stage like another. */
    memcpy(other, blob, 304);
    other[136 + 4] = 3;
    other[136 + 50] = 0x77;
    CHECK(filter_open(other, 304, &view, why) == FILTER_OK);
    /* A stage of the other layout: a blocked filter of 512 bits fits where stage 0 is. */
    memcpy(other, blob, 304);
    other[64 + 6] = 2;
    store64(other, 64 + 16, 512);
    expect_invalid(other, 304, "corrupt filter: stage 0 is of kind 2 and hash 1, not 1 and 1");
    /* Sized as another stage, or another filter. */
    expect_invalid_at(blob, 304, 136 + 24, 5, 8,
                      "corrupt filter: stage 1 is sized for n = 5 at p = 0.0016, not as stage 1 "
                      "of this filter");
    uint64_t p_bits = load64(blob, 136 + 32);
    expect_invalid_at(blob, 304, 136 + 32, p_bits + 1, 8,
                      "corrupt filter: stage 1 is sized for n = 6 at p = 0.0016, not as stage 1 "
                      "of this filter"); /* one unit in the last place */
    expect_invalid_at(blob, 304, 16, 4, 8,
                      "corrupt filter: stage 0 is sized for n = 3 at p = 0.002, not as stage 0 of "
                      "this filter");
    expect_invalid_at(blob, 304, 32, 0x3FE999999999999B, 8, /* r = 0.8 + 1 ulp */
                      "corrupt filter: stage 0 is sized for n = 3 at p = 0.002, not as stage 0 of "
                      "this filter");
    expect_invalid_at(blob, 304, 9, 3, 1,
                      "corrupt filter: stage 1 is sized for n = 6 at p = 0.0016, not as stage 1 "
                      "of this filter");
    /* n_1 = 2 n_0 does not fit in 64 bits. */
    memcpy(other, blob, 304);
    store64(other, 16, UINT64_C(1) << 63);
    store64(other, 64 + 24, UINT64_C(1) << 63);
    expect_invalid(other, 304,
                   "corrupt filter: stage 1 is sized for n = 6 at p = 0.0016, not as "
                   "stage 1 of this filter");
    /* Keys: a stage's at most its n; the header's the sum of the stages'. */
    memcpy(other, blob, 304);
    store64(other, 216 + 40, 13);
    store64(other, 40, 22);
    expect_invalid(other, 304,
                   "corrupt filter: stage 2 holds 13 keys, more than its capacity of "
                   "12");
    expect_invalid_at(blob, 304, 40, 17, 8,
                      "corrupt filter: 17 keys added, but its stages hold 18");
    expect_invalid_at(blob, 304, 64 + 40, 2, 8,
                      "corrupt filter: 18 keys added, but its stages hold 17");
    /* Keys that fit in their stages but not, summed, in 64 bits: n = 3 * 2^61, g = 2, two full
    ** stages of one word each. */
    scalable_header big = {1, 2, 2, UINT64_C(3) << 61, 0.5, 0.5, 18};
    bloom_header stage = {1, 3, 64, 0, 0, 0};
    memset(other, 0, 64 + 2 * 72);
    scalable_write_header(other, &big);
    for (int i = 0; i < 2; i++) {
        CHECK(scalable_stage_target(&big, i, &stage.n, &stage.p));
        stage.keys = stage.n;
        bloom_write_header(other + 64 + 72 * i, &stage);
    }
    expect_invalid(other, 64 + 2 * 72,
                   "corrupt filter: 18 keys added, but its stages hold more than "
                   "18446744073709551615");
    store64(other, 64 + 72 + 40, (UINT64_C(1) << 63) + 1); /* 2^64 - 2^61 + 1 in all */
    store64(other, 40, UINT64_MAX - (UINT64_C(1) << 61) + 2);
    CHECK(filter_open(other, 64 + 2 * 72, &view, why) == FILTER_OK);
    /* The stages end where the BLOB does. */
    memcpy(other, blob, 304);
    memset(other + 304, 0, 72);
    expect_invalid(other, 305, "corrupt filter: the stages end at byte 304, the BLOB has 305");
    expect_invalid(other, 376, "corrupt filter: the stages end at byte 304, the BLOB has 376");
    other[10] = 2;
    expect_invalid(other, 304, "corrupt filter: the stages end at byte 216, the BLOB has 304");
    /* filter_open_header checks the header alone; filter_open the stages too. */
    memcpy(other, blob, 304);
    store64(other, 40, 17);
    CHECK(filter_open_header(other, 304, &view, why) == FILTER_OK);
    CHECK(filter_open(blob, 304, &view, why) == FILTER_OK);
}

/* Two scalable filters merge stage by stage when built with the same n, p, growth, ratio and
** layout, their common stages of one shape, each holding at most its capacity of both; the
** longer is copied. */
static void test_scalable_merge(void) {
    static uint8_t a[SCALABLE_BYTES_MAX], b[SCALABLE_BYTES_MAX], both[SCALABLE_BYTES_MAX],
        copy[SCALABLE_BYTES_MAX];
    filter_view va, vb;
    char why[FILTER_WHY_MAX];
    uint64_t bytes_a = scalable_empty(10, 0.01, 1, a), bytes_b = scalable_empty(10, 0.01, 1, b);
    uint64_t bytes_both = scalable_empty(10, 0.01, 1, both);
    /* 4 keys and 6 others: one stage each, 10 keys together. */
    for (int64_t i = 0; i < 10; i++) {
        CHECK(filter_add(&scalable_kind, i < 4 ? a : b, mixed_key(i)) == FILTER_OK);
        CHECK(filter_add(&scalable_kind, both, mixed_key(i)) == FILTER_OK);
    }
    CHECK(keys_of(a) == 4 && keys_of(b) == 6 && keys_of(both) == 10); /* no false positive */
    CHECK(filter_open(a, bytes_a, &va, why) == FILTER_OK);
    CHECK(filter_open(b, bytes_b, &vb, why) == FILTER_OK);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_OK);
    memcpy(copy, a, (size_t)bytes_a);
    CHECK(scalable_kind.merge(copy, &vb) == FILTER_OK);
    CHECK(bytes_a == bytes_both && memcmp(copy, both, (size_t)bytes_both) == 0);
    /* One more key in b: stage 0 would hold 11 of its 10. */
    CHECK(filter_add(&scalable_kind, b, mixed_key(10)) == FILTER_OK);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: together their stage 0 would hold 11 keys, more than "
                   "the 10 it is sized for; build one filter from both sets of keys");
    /* A filter of 3 stages and an empty one, either way round: the longer, copied. */
    for (int64_t i = 0; i < 40; i++) {
        CHECK(scalable_add_growing(both, &bytes_both, mixed_key(100 + i)) == FILTER_OK);
    }
    CHECK_U64(scalable_check_stages(both, bytes_both, 1, 10, 0.01), 3);
    bytes_a = scalable_empty(10, 0.01, 1, a);
    CHECK(filter_open(a, bytes_a, &va, why) == FILTER_OK);
    CHECK(filter_open(both, bytes_both, &vb, why) == FILTER_OK);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_OK);
    CHECK(filter_compatible(&vb, &va, why) == FILTER_OK);
    filter_copy(copy, &vb);
    CHECK(scalable_kind.merge(copy, &va) == FILTER_OK);
    CHECK(memcmp(copy, both, (size_t)bytes_both) == 0);
    /* The first stage of a with keys of its own: stage 0 ORed, the others kept. */
    store64(both, 64 + 40, 7); /* as if stage 0 held 7 keys, so that 3 more fit */
    store64(both, 40, keys_of(both) - 3);
    CHECK(filter_open(both, bytes_both, &vb, why) == FILTER_OK);
    for (int64_t i = 0; i < 3; i++) {
        CHECK(filter_add(&scalable_kind, a, mixed_key(1000 + i)) == FILTER_OK);
    }
    CHECK(filter_open(a, bytes_a, &va, why) == FILTER_OK && keys_of(a) == 3);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_OK);
    filter_copy(copy, &vb);
    CHECK(scalable_kind.merge(copy, &va) == FILTER_OK);
    CHECK_U64(keys_of(copy), keys_of(both) + 3);
    CHECK_U64(load64(copy, 64 + 40), 10);
    int wrong = bytes_a != 64 + 64 + 24; /* stage 0: m = 192, its bits at 128 */
    for (uint64_t j = 0; j < 24; j++) {
        wrong += copy[128 + j] != (uint8_t)(both[128 + j] | a[128 + j]);
    }
    wrong += memcmp(copy + bytes_a, both + bytes_a, (size_t)(bytes_both - bytes_a)) != 0;
    CHECK_U64(wrong, 0);
    CHECK(filter_open(copy, bytes_both, &vb, why) == FILTER_OK);
    for (int64_t i = 0; i < 3; i++) {
        CHECK(scalable_kind.might_contain(&vb, mixed_key(1000 + i)));
    }
    /* Built with other parameters: refused. */
    static const struct {
        uint64_t n;
        double p;
        int layout, growth;
        double r;
    } others[] = {{11, 0.01, 1, 2, 0.8},
                  {10, 0.02, 1, 2, 0.8},
                  {10, 0.01, 2, 2, 0.8},
                  {10, 0.01, 1, 3, 0.8},
                  {10, 0.01, 1, 2, 0.5}};
    bytes_a = scalable_empty(10, 0.01, 1, a);
    CHECK(filter_open(a, bytes_a, &va, why) == FILTER_OK);
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        scalable_header h;
        bloom_header first;
        double bytes;
        CHECK(scalable_size(others[i].n, others[i].p, others[i].layout, others[i].growth,
                            others[i].r, &h, &first, &bytes) == FILTER_OK);
        memset(b, 0, (size_t)bytes);
        scalable_write_header(b, &h);
        bloom_write_header(b + 64, &first);
        CHECK(filter_open(b, (uint64_t)bytes, &vb, why) == FILTER_OK);
        CHECK(filter_compatible(&va, &vb, why) == FILTER_INVALID);
        char expected[FILTER_WHY_MAX];
        snprintf(expected, sizeof expected,
                 "incompatible filters: scalable filters built with n = 10, p = 0.01 and with "
                 "n = %llu, p = %s; build both with the same n and p",
                 (unsigned long long)others[i].n, others[i].p == 0.01 ? "0.01" : "0.02");
        CHECK_STR(why, expected);
    }
    /* Stages of the same n and p but another m or k (not as a writer sizes them, yet valid):
    ** refused, so that merge never reads past the shorter stage. */
    bytes_a = scalable_empty(10, 0.01, 1, a);
    bytes_b = scalable_empty(10, 0.01, 1, b);
    store64(b, 64 + 16, 64);
    bytes_b = 64 + bloom_blob_bytes(64);
    CHECK(filter_open(a, bytes_a, &va, why) == FILTER_OK);
    CHECK(filter_open(b, bytes_b, &vb, why) == FILTER_OK);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_INVALID);
    CHECK(filter_compatible(&vb, &va, why) == FILTER_INVALID);
    store64(b, 64 + 16, 192);
    b[64 + 8] = 8; /* k */
    bytes_b = bytes_a;
    CHECK(filter_open(b, bytes_b, &vb, why) == FILTER_OK);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_INVALID);
}

/* The golden scalable filter (tests/golden/README.md): built through the core, the golden
** keys added in order from an empty filter sized for n = 3 at p = 0.01, growing; 3 stages
** holding 3, 6 and 9 keys (42 once); every key probes 1. */
static void test_scalable_golden(const char *golden_dir) {
    static uint8_t built[SCALABLE_BYTES_MAX], golden[1024];
    key_hash keys[32];
    size_t nkeys = golden_keys(keys);
    uint64_t bytes = scalable_empty(3, 0.01, BLOOM_LAYOUT_STANDARD, built);
    for (size_t i = 0; i < nkeys; i++) {
        CHECK(scalable_add_growing(built, &bytes, keys[i]) == FILTER_OK);
    }
    size_t golden_len = read_golden(golden_dir, &scalable_kind, golden, sizeof golden);
    CHECK_U64(golden_len, 304);
    if (!CHECK(golden_len == bytes && memcmp(golden, built, golden_len) == 0)) {
        fprintf(stderr, "    scalable_v2.hex built: ");
        for (uint64_t b = 0; b < bytes; b++) {
            fprintf(stderr, "%02X", built[b]);
        }
        fprintf(stderr, "\n");
        return;
    }
    CHECK_U64(scalable_check_stages(golden, golden_len, BLOOM_LAYOUT_STANDARD, 3, 0.01), 3);
    filter_view view;
    char why[FILTER_WHY_MAX];
    static const uint64_t n[] = {3, 6, 12}, m[] = {64, 128, 192}, held[] = {3, 6, 9};
    static const uint32_t k[] = {9, 9, 10};
    static const uint64_t p_bits[] = {UINT64_C(0x3F60624DD2F1A9FB), UINT64_C(0x3F5A36E2EB1C432C),
                                      UINT64_C(0x3F54F8B588E368F0)};
    CHECK(filter_open(golden, golden_len, &view, why) == FILTER_OK);
    for (int i = 0; i < 3; i++) {
        scalable_stage s;
        scalable_stage_at(&view, i, &s);
        CHECK(s.header.n == n[i] && s.header.m == m[i] && s.header.k == k[i]);
        CHECK(s.header.keys == held[i] && load64(golden, (size_t)s.offset + 32) == p_bits[i]);
    }
    CHECK_U64(keys_of(golden), 18);
    size_t present = 0;
    for (size_t i = 0; i < nkeys; i++) {
        present += scalable_kind.might_contain(&view, keys[i]);
    }
    CHECK_U64(present, nkeys);
    /* Adding a golden key again changes nothing. */
    memcpy(built, golden, golden_len);
    CHECK(filter_add(&scalable_kind, built, keys[5]) == FILTER_OK);
    CHECK(memcmp(built, golden, golden_len) == 0);
}

/* ---- The count-min kind (docs/format.md section 4.6) ---------------------------------- */

/* Room for the sketches of these tests. */
enum { CMS_COUNTERS_MAX = 4096, CMS_BYTES_MAX = FILTER_HEADER_BYTES + 8 * CMS_COUNTERS_MAX };

/* A model of section 4.6 written from its words: d rows of w counters, a key's column in row i
** reduce(mix(h1 + i (h2 OR 1)), w), its estimate the least of its counters; an add raises them
** by the count (plain) or to at least the old estimate plus the count (conservative). */
typedef struct cms_model {
    uint64_t width;
    uint32_t depth;
    int conservative;
    uint64_t total;
    uint64_t counter[CMS_COUNTERS_MAX];
} cms_model;

static uint64_t cms_model_column(uint64_t width, uint32_t row, key_hash key) {
    return hash_reduce_portable(model_mix(key.h1 + row * (key.h2 | 1)), width);
}

static uint64_t cms_model_estimate(const cms_model *mo, key_hash key) {
    uint64_t estimate = UINT64_MAX;
    for (uint32_t i = 0; i < mo->depth; i++) {
        uint64_t c = mo->counter[i * mo->width + cms_model_column(mo->width, i, key)];
        estimate = c < estimate ? c : estimate;
    }
    return estimate;
}

/* Adds count to key: 1, or 0 when the total would pass 2^63 - 1 (the model unchanged). */
static int cms_model_add(cms_model *mo, key_hash key, uint64_t count) {
    if (count > COUNTMIN_TOTAL_MAX - mo->total) {
        return 0;
    }
    uint64_t e = cms_model_estimate(mo, key);
    for (uint32_t i = 0; i < mo->depth; i++) {
        uint64_t *c = &mo->counter[i * mo->width + cms_model_column(mo->width, i, key)];
        *c = mo->conservative ? (*c > e + count ? *c : e + count) : *c + count;
    }
    mo->total += count;
    return 1;
}

/* 1 when the sketch in blob holds the model's counters and total. */
static int cms_model_matches(const cms_model *mo, const uint8_t *blob) {
    for (uint64_t j = 0; j < mo->width * mo->depth; j++) {
        if (load64(blob, 64 + 8 * j) != mo->counter[j]) {
            return 0;
        }
    }
    return load64(blob, 40) == mo->total && load64(blob, 8) == mo->width &&
           load64(blob, 16) % (UINT64_C(1) << 32) == mo->depth && blob[20] == mo->conservative;
}

/* An empty sketch for epsilon, delta and update in blob (CMS_BYTES_MAX), and its model: its
** length, or 0. */
static uint64_t cms_empty(double epsilon, double delta, int update, uint8_t *blob, cms_model *mo) {
    countmin_header h;
    double bytes;
    if (countmin_size(epsilon, delta, update, &h, &bytes) != FILTER_OK || bytes > CMS_BYTES_MAX) {
        return 0;
    }
    memset(blob, 0, (size_t)bytes);
    countmin_write_header(blob, &h);
    if (mo != NULL) {
        memset(mo, 0, sizeof *mo);
        mo->width = h.width;
        mo->depth = h.depth;
        mo->conservative = update == COUNTMIN_CONSERVATIVE;
    }
    return (uint64_t)bytes;
}

/* Adds count to key in the sketch in blob, through filter_io_memory: countmin_add_io's status. */
static filter_status cms_add(uint8_t *blob, key_hash key, uint64_t count, uint64_t *estimate) {
    filter_view view = {&countmin_kind, 2, 2, KEY_HASH_XXH3_128, blob, 0};
    filter_io io = filter_io_memory(blob);
    return countmin_add_io(&view, &io, key, count, estimate);
}

/* Sizing: w = ceil(e / epsilon), d = max(1, ceil(-ln delta)) up to 64, and the statuses. */
static void test_countmin_sizing(void) {
    countmin_header h;
    double bytes;
    uint64_t state = 61;
    int wrong = 0, sized = 0;
    for (int i = 0; i < 2000; i++) {
        double epsilon = pow(10.0, -4.0 * (double)(next_random(&state) >> 11) / 9007199254740992.0);
        double delta = pow(10.0, -30.0 * (double)(next_random(&state) >> 11) / 9007199254740992.0);
        long double q = expl(1.0L) / (long double)epsilon, l = -logl((long double)delta);
        long double w = ceill(q), d = ceill(l);
        if (fabsl(q - roundl(q)) < 1e-6L || fabsl(l - roundl(l)) < 1e-6L || epsilon >= 1.0 ||
            delta >= 1.0) {
            continue; /* too near an integer for double and long double to agree */
        }
        d = d < 1 ? 1 : d;
        int update = i % 2;
        filter_status status = countmin_size(epsilon, delta, update, &h, &bytes);
        if (d > 64) {
            wrong += status != FILTER_TOO_MANY_HASHES || h.depth != 65;
            continue;
        }
        wrong += status != FILTER_OK || h.width != (uint64_t)w || h.depth != (uint32_t)d;
        wrong += h.update != update || h.epsilon != epsilon || h.delta != delta || h.total != 0;
        wrong += bytes != 64.0 + 8.0 * (double)h.width * h.depth;
        sized++;
    }
    CHECK_U64(wrong, 0);
    CHECK(sized > 1400);
    /* The golden sketches' and section 6's. */
    CHECK(countmin_size(0.5, 0.1, COUNTMIN_PLAIN, &h, &bytes) == FILTER_OK);
    CHECK(h.width == 6 && h.depth == 3 && bytes == 208);
    CHECK(countmin_size(0.9, 0.2, COUNTMIN_CONSERVATIVE, &h, &bytes) == FILTER_OK);
    CHECK(h.width == 4 && h.depth == 2 && bytes == 128 && h.update == 1);
    /* At least one row; 64 rows down to about e^-64. */
    CHECK(countmin_size(0.5, 0.999999, 0, &h, &bytes) == FILTER_OK && h.depth == 1);
    CHECK(countmin_size(0.5, exp(-64.0) * 1.0001, 0, &h, &bytes) == FILTER_OK && h.depth == 64);
    CHECK(countmin_size(0.5, exp(-64.0) * 0.999, 0, &h, &bytes) == FILTER_TOO_MANY_HASHES);
    CHECK(h.depth == 65);
    CHECK(countmin_size(0.5, 1e-300, 0, &h, &bytes) == FILTER_TOO_MANY_HASHES);
    /* A width near 1: epsilon just below 1. */
    CHECK(countmin_size(0.99, 0.5, 0, &h, &bytes) == FILTER_OK && h.width == 3);
    /* Arguments outside their ranges. */
    static const double bad[] = {0.0, 1.0, -0.5, 2.0, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(countmin_size(bad[i], 0.1, 0, &h, &bytes) == FILTER_BAD_ARGUMENT);
        CHECK(countmin_size(0.1, bad[i], 0, &h, &bytes) == FILTER_BAD_ARGUMENT);
    }
    CHECK(countmin_size(0.1, 0.1, 2, &h, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(countmin_size(0.1, 0.1, -1, &h, &bytes) == FILTER_BAD_ARGUMENT);
    /* Too big for the core, the size still reported; too many rows is said first. */
    CHECK(countmin_size(1e-300, 0.1, 0, &h, &bytes) == FILTER_TOO_BIG && bytes > 1e300);
    CHECK(countmin_size(1e-18, 0.5, 0, &h, &bytes) == FILTER_TOO_BIG && bytes > 2.1e19);
    CHECK(countmin_size(1e-17, 0.5, 0, &h, &bytes) == FILTER_OK && bytes < 2.2e18);
    CHECK(countmin_size(1e-300, 1e-300, 0, &h, &bytes) == FILTER_TOO_MANY_HASHES);
    CHECK(strcmp(countmin_update_name(0), "plain") == 0);
    CHECK(strcmp(countmin_update_name(1), "conservative") == 0 && !countmin_update_name(2));

    /* The header's bytes (section 4.6's table). */
    uint8_t blob[64];
    countmin_header w = {UINT64_C(0x0102030405060708), 0x0A0B0C0D, 1, 0.5, 0.1,
                         UINT64_C(0x1112131415161718)};
    static const uint8_t expected[64] = {
        'S',  'Q',  'B',  'F',  2,    2,    6,    1,    /* magic, versions, kind, hash */
        8,    7,    6,    5,    4,    3,    2,    1,    /* width */
        0x0D, 0x0C, 0x0B, 0x0A, 1,    0,    0,    0,    /* depth, update, reserved */
        0,    0,    0,    0,    0,    0,    0xE0, 0x3F, /* epsilon = 0.5 */
        0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F, /* delta = 0.1 */
        0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11, /* total */
    };
    countmin_write_header(blob, &w);
    CHECK(memcmp(blob, expected, sizeof expected) == 0);
    filter_view view = {&countmin_kind, 2, 2, 1, blob, 64};
    countmin_header back = countmin_header_of(&view);
    CHECK(back.width == w.width && back.depth == w.depth && back.update == 1);
    CHECK(back.epsilon == 0.5 && back.delta == 0.1 && back.total == w.total);
}

/* A stream of counts into a plain and a conservative sketch, against the model: the same bytes
** after every add; every estimate at least the true count, the conservative's at most the
** plain's; a count of 0 changes nothing; the total stops at 2^63 - 1. */
static void test_countmin_updates(void) {
    static uint8_t plain[CMS_BYTES_MAX], cons[CMS_BYTES_MAX], before[CMS_BYTES_MAX];
    static cms_model mp, mc;
    enum { KEYS = 300 };
    static uint64_t truth[KEYS];
    uint64_t state = 67, bytes = cms_empty(0.05, 0.02, COUNTMIN_PLAIN, plain, &mp);
    CHECK(bytes == 64 + 8 * 55 * 4 &&
          cms_empty(0.05, 0.02, COUNTMIN_CONSERVATIVE, cons, &mc) == bytes);
    memset(truth, 0, sizeof truth);
    int wrong = 0, lower = 0;
    for (int step = 0; step < 3000; step++) {
        uint64_t r = next_random(&state);
        int key = (int)(r % KEYS) % (r % 3 == 0 ? 10 : KEYS); /* some keys much more often */
        uint64_t count = (r >> 32) % 7 == 0 ? 0 : (r >> 40) % 1000;
        uint64_t ep, ec;
        memcpy(before, cons, (size_t)bytes);
        wrong += cms_add(plain, mixed_key(key), count, &ep) != FILTER_OK;
        wrong += cms_add(cons, mixed_key(key), count, &ec) != FILTER_OK;
        wrong += !cms_model_add(&mp, mixed_key(key), count) ||
                 !cms_model_add(&mc, mixed_key(key), count);
        truth[key] += count;
        /* The estimate after the add: the old one plus the count. */
        wrong += ep != cms_model_estimate(&mp, mixed_key(key)) ||
                 ec != cms_model_estimate(&mc, mixed_key(key));
        wrong += count == 0 && memcmp(before, cons, (size_t)bytes) != 0;
        if (step % 100 == 99) {
            wrong += !cms_model_matches(&mp, plain) || !cms_model_matches(&mc, cons);
        }
    }
    filter_view vp, vc;
    char why[FILTER_WHY_MAX];
    CHECK(filter_open(plain, bytes, &vp, why) == FILTER_OK);
    CHECK(filter_open(cons, bytes, &vc, why) == FILTER_OK);
    for (int key = 0; key < KEYS; key++) {
        uint64_t ep = countmin_estimate(&vp, mixed_key(key)),
                 ec = countmin_estimate(&vc, mixed_key(key));
        wrong += ep < truth[key] || ec < truth[key] || ec > ep;
        lower += ec < ep;
        wrong += countmin_kind.might_contain(&vp, mixed_key(key)) != (ep > 0);
    }
    for (uint64_t j = 0; j < mp.width * mp.depth; j++) {
        wrong += load64(cons, 64 + 8 * j) > load64(plain, 64 + 8 * j);
        wrong += load64(plain, 64 + 8 * j) > mp.total;
    }
    wrong += !cms_model_matches(&mp, plain) || !cms_model_matches(&mc, cons);
    wrong += load64(plain, 40) != load64(cons, 40);
    CHECK_U64(wrong, 0);
    CHECK(lower > 100); /* the conservative update makes a difference */

    /* The total stops at 2^63 - 1: an add past it is FILTER_FULL and writes nothing. */
    uint64_t estimate;
    store64(plain, 40, COUNTMIN_TOTAL_MAX - 5);
    memcpy(before, plain, (size_t)bytes);
    CHECK(cms_add(plain, key_hash_integer(1), 6, &estimate) == FILTER_FULL);
    CHECK(memcmp(before, plain, (size_t)bytes) == 0);
    CHECK(cms_add(plain, key_hash_integer(1), 0, &estimate) == FILTER_OK);
    CHECK(memcmp(before, plain, (size_t)bytes) == 0);
    CHECK(cms_add(plain, key_hash_integer(1), 5, &estimate) == FILTER_OK);
    CHECK_U64(load64(plain, 40), COUNTMIN_TOTAL_MAX);
    CHECK(filter_open(plain, bytes, &vp, why) == FILTER_OK);
    CHECK_U64(estimate, countmin_estimate(&vp, key_hash_integer(1)));
    CHECK(cms_add(plain, key_hash_integer(2), 1, &estimate) == FILTER_FULL);
    CHECK(filter_add(&countmin_kind, plain, key_hash_integer(2)) == FILTER_FULL);
    CHECK(countmin_kind.full_advice != NULL);

    /* Counters above the total (not as section 4.6 writes them, yet valid: they are not read):
    ** the estimate is at most the total, a plain add and a union keep sums at 2^63 - 1. */
    uint8_t above[64 + 8 * 3], merged[64 + 8 * 3];
    countmin_header three = {1, 3, COUNTMIN_PLAIN, 0.9, 0.5, 5};
    memset(above, 0, sizeof above);
    countmin_write_header(above, &three);
    store64(above, 64, UINT64_MAX);
    store64(above, 72, COUNTMIN_TOTAL_MAX - 1);
    store64(above, 80, 9);
    CHECK(filter_open(above, sizeof above, &vp, why) == FILTER_OK);
    CHECK_U64(countmin_estimate(&vp, key_hash_integer(7)), 5);
    CHECK(cms_add(above, key_hash_integer(7), 3, &estimate) == FILTER_OK && estimate == 8);
    CHECK(load64(above, 64) == COUNTMIN_TOTAL_MAX && load64(above, 72) == COUNTMIN_TOTAL_MAX);
    CHECK(load64(above, 80) == 12 && load64(above, 40) == 8);
    CHECK(filter_open(above, sizeof above, &vp, why) == FILTER_OK);
    memcpy(merged, above, sizeof merged);
    CHECK(countmin_kind.merge(merged, &vp) == FILTER_OK);
    CHECK(load64(merged, 64) == COUNTMIN_TOTAL_MAX && load64(merged, 72) == COUNTMIN_TOTAL_MAX);
    CHECK(load64(merged, 80) == 24 && load64(merged, 40) == 16);

    /* A key whose columns coincide in every row still has d counters, one a row. */
    uint8_t narrow[64 + 8 * 3];
    countmin_header one = {1, 3, COUNTMIN_PLAIN, 0.99, 0.5, 0};
    memset(narrow, 0, sizeof narrow);
    countmin_write_header(narrow, &one);
    CHECK(cms_add(narrow, key_hash_text("x", 1), 4, &estimate) == FILTER_OK && estimate == 4);
    CHECK(load64(narrow, 64) == 4 && load64(narrow, 72) == 4 && load64(narrow, 80) == 4);
    narrow[20] = COUNTMIN_CONSERVATIVE;
    CHECK(cms_add(narrow, key_hash_text("y", 1), 3, &estimate) == FILTER_OK && estimate == 7);
    CHECK(load64(narrow, 64) == 7 && load64(narrow, 72) == 7 && load64(narrow, 80) == 7);
}

/* The _io operations through filter_io_memory with a view of the header alone give the answers
** and bytes of the operations in memory; a failing read or write is FILTER_IO_FAILED. */
static void test_countmin_io(void) {
    static uint8_t a[CMS_BYTES_MAX], b[CMS_BYTES_MAX], work[CMS_BYTES_MAX];
    uint8_t header[FILTER_HEADER_BYTES];
    for (int update = 0; update < 2; update++) {
        uint64_t bytes = cms_empty(0.1, 0.05, update, a, NULL);
        filter_view va, vb;
        char why[FILTER_WHY_MAX];
        int wrong = 0, absent = 0;
        CHECK(bytes == 64 + 8 * 28 * 3 && countmin_kind.add == NULL);
        memcpy(b, a, (size_t)bytes);
        for (int64_t i = 0; i < 500; i++) {
            key_hash probe = mixed_key(-i - 1), add = mixed_key(i / 3);
            filter_io io = filter_io_memory(b);
            int answer = -1, was_absent = -1;
            uint64_t estimate_io = 0;
            wrong += filter_open(a, bytes, &va, why) != FILTER_OK;
            wrong += filter_open(b, bytes, &vb, why) != FILTER_OK;
            memcpy(header, b, sizeof header);
            vb.blob = header;
            wrong += countmin_kind.might_contain_io(&vb, &io, probe, &answer) != FILTER_OK;
            wrong += answer != countmin_kind.might_contain(&va, probe);
            wrong += countmin_estimate_io(&vb, &io, probe, &estimate_io) != FILTER_OK;
            wrong += estimate_io != countmin_estimate(&va, probe);
            int before = countmin_kind.might_contain(&va, add);
            absent += !before;
            wrong += filter_add(&countmin_kind, a, add) != FILTER_OK;
            wrong += countmin_kind.add_io(&vb, &io, add, &was_absent) != FILTER_OK;
            wrong += was_absent != !before || memcmp(a, b, (size_t)bytes) != 0;
        }
        CHECK_U64(wrong, 0);
        CHECK(absent > 20 && load64(a, 40) == 500);
        /* Each read or write failing in turn. */
        counted_io state;
        key_hash key = key_hash_text("io", 2);
        int failed = 0, calls = 0;
        uint64_t estimate;
        filter_status status = FILTER_IO_FAILED;
        CHECK(filter_open(a, bytes, &va, why) == FILTER_OK);
        for (int fail_at = 0; status == FILTER_IO_FAILED && fail_at < 100; fail_at++) {
            memcpy(work, a, (size_t)bytes);
            filter_io io = counted(&state, work, fail_at);
            status = countmin_add_io(&va, &io, key, 3, &estimate);
            failed += status == FILTER_IO_FAILED;
            calls = state.calls;
        }
        CHECK(status == FILTER_OK && failed == calls && calls >= 3 + 1); /* reads, total */
        CHECK(state.writes <= 3 + 1);
        filter_io io = counted(&state, work, 0);
        CHECK(countmin_estimate_io(&va, &io, key, &estimate) == FILTER_IO_FAILED);
        int answer;
        io = counted(&state, work, 2);
        CHECK(countmin_kind.might_contain_io(&va, &io, key, &answer) == FILTER_IO_FAILED);
        io = counted(&state, work, -1);
        CHECK(countmin_estimate_io(&va, &io, key, &estimate) == FILTER_OK && estimate >= 3);
        CHECK(state.calls == 3 && state.writes == 0); /* one read a row */
    }
}

/* docs/format.md section 5, the checks of kind 6, row by row with the table's messages. */
static void test_countmin_validation(void) {
    static uint8_t blob[CMS_BYTES_MAX];
    char expected[FILTER_WHY_MAX];
    filter_view view;
    char why[FILTER_WHY_MAX];
    uint64_t bytes = cms_empty(0.5, 0.1, COUNTMIN_PLAIN, blob, NULL);
    if (!CHECK(bytes == 208 && filter_open(blob, bytes, &view, why) == FILTER_OK)) {
        return;
    }
    CHECK(view.kind == &countmin_kind && view.version == 2 && view.min_reader_version == 2);
    expect_invalid_at(blob, 208, 16, 65, 4, "corrupt filter: depth 65 is outside 1..64");
    expect_invalid_at(blob, 208, 16, 0, 4, "corrupt filter: depth 0 is outside 1..64");
    expect_invalid_at(blob, 208, 16, UINT32_MAX, 4,
                      "corrupt filter: depth 4294967295 is outside 1..64");
    expect_invalid(blob, 209, "corrupt filter: width 6 and depth 3 do not fill 209 bytes");
    expect_invalid(blob, 207, "corrupt filter: width 6 and depth 3 do not fill 207 bytes");
    expect_invalid(blob, 64, "corrupt filter: width 6 and depth 3 do not fill 64 bytes");
    expect_invalid_at(blob, 208, 8, 0, 8,
                      "corrupt filter: width 0 and depth 3 do not fill 208 bytes");
    expect_invalid_at(blob, 208, 8, 7, 8,
                      "corrupt filter: width 7 and depth 3 do not fill 208 bytes");
    expect_invalid_at(blob, 208, 16, 2, 4,
                      "corrupt filter: width 6 and depth 2 do not fill 208 bytes");
    /* 64 + 8 w d wraps to the length: still refused. */
    expect_invalid_at(blob, 208, 8, 6 + (UINT64_C(1) << 61), 8,
                      "corrupt filter: width 2305843009213693958 and depth 3 do not fill 208 "
                      "bytes");
    expect_invalid_at(blob, 208, 8, UINT64_MAX, 8,
                      "corrupt filter: width 18446744073709551615 and depth 3 do not fill 208 "
                      "bytes");
    expect_invalid_at(blob, 208, 20, 2, 1, "corrupt filter: update 2 is not 0 or 1");
    expect_invalid_at(blob, 208, 20, 255, 1, "corrupt filter: update 255 is not 0 or 1");
    expect_invalid_at(blob, 208, 24, 0, 8, "corrupt filter: epsilon = 0 is not between 0 and 1");
    expect_invalid_at(blob, 208, 24, 0x3FF0000000000000, 8,
                      "corrupt filter: epsilon = 1 is not between 0 and 1");
    expect_invalid_at(blob, 208, 24, 0x7FF8000000000000, 8,
                      "corrupt filter: epsilon = NaN is not between 0 and 1");
    expect_invalid_at(blob, 208, 32, 0x3FF0000000000000, 8,
                      "corrupt filter: delta = 1 is not between 0 and 1");
    expect_invalid_at(blob, 208, 32, 0xFFF0000000000000, 8,
                      "corrupt filter: delta = -Inf is not between 0 and 1");
    expect_invalid_at(blob, 208, 32, 0xBFB999999999999A, 8,
                      "corrupt filter: delta = -0.1 is not between 0 and 1");
    expect_invalid_at(blob, 208, 40, UINT64_C(1) << 63, 8,
                      "corrupt filter: total 9223372036854775808 is more than "
                      "9223372036854775807");
    expect_invalid_at(blob, 208, 40, UINT64_MAX, 8,
                      "corrupt filter: total 18446744073709551615 is more than "
                      "9223372036854775807");
    store64(blob, 40, COUNTMIN_TOTAL_MAX);
    CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK);
    for (size_t off = 21; off < 64; off++) {
        if (off == 24) {
            off = 48; /* skip epsilon, delta and total */
        }
        snprintf(expected, sizeof expected, "corrupt filter: reserved byte %zu is 0x01, not 0",
                 off);
        expect_invalid_at(blob, 208, off, 1, 1, expected);
    }
    /* The first check that fails is the error. */
    blob[20] = 7;
    expect_invalid_at(blob, 208, 16, 0, 4, "corrupt filter: depth 0 is outside 1..64");
    expect_invalid_at(blob, 208, 8, 5, 8,
                      "corrupt filter: width 5 and depth 3 do not fill 208 "
                      "bytes");
    blob[20] = 0;
    blob[21] = 1;
    expect_invalid_at(blob, 208, 40, UINT64_MAX, 8,
                      "corrupt filter: total 18446744073709551615 is more than "
                      "9223372036854775807");
    /* A newer writer owns the reserved bytes; 64 rows of one counter are a sketch. */
    blob[4] = 3;
    blob[23] = blob[63] = 0xA5;
    CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK);
    uint8_t deep[64 + 8 * 64];
    countmin_header h = {1, 64, COUNTMIN_CONSERVATIVE, 0.9, 0.5, 0};
    memset(deep, 0, sizeof deep);
    countmin_write_header(deep, &h);
    CHECK(filter_open(deep, sizeof deep, &view, why) == FILTER_OK);
}

/* Union: counters and totals summed, epsilon and delta of the first; refused for another width,
** depth or update; FILTER_FULL when the totals pass 2^63 - 1. */
static void test_countmin_merge(void) {
    static uint8_t a[CMS_BYTES_MAX], b[CMS_BYTES_MAX], both[CMS_BYTES_MAX], copy[CMS_BYTES_MAX];
    static cms_model all;
    filter_view va, vb;
    char why[FILTER_WHY_MAX];
    for (int update = 0; update < 2; update++) {
        /* epsilon 0.5 and 0.49 both give 6 counters a row. */
        uint64_t bytes = cms_empty(0.5, 0.1, update, a, NULL);
        CHECK(cms_empty(0.49, 0.1, update, b, NULL) == bytes);
        CHECK(cms_empty(0.5, 0.1, COUNTMIN_PLAIN, both, &all) == bytes);
        uint64_t state = 71, truth[40] = {0}, estimate;
        for (int i = 0; i < 200; i++) {
            uint64_t r = next_random(&state), count = r % 50;
            int key = (int)((r >> 32) % 40);
            CHECK(cms_add(i % 2 ? a : b, mixed_key(key), count, &estimate) == FILTER_OK);
            CHECK(cms_add(both, mixed_key(key), count, &estimate) == FILTER_OK);
            truth[key] += count;
        }
        CHECK(filter_open(a, bytes, &va, why) == FILTER_OK);
        CHECK(filter_open(b, bytes, &vb, why) == FILTER_OK);
        CHECK(filter_compatible(&va, &vb, why) == FILTER_OK);
        filter_copy(copy, &va);
        CHECK(countmin_kind.merge(copy, &vb) == FILTER_OK);
        CHECK(load64(copy, 40) == load64(a, 40) + load64(b, 40) &&
              load64(copy, 40) == load64(both, 40));
        CHECK(memcmp(copy, a, 40) == 0); /* the header of the first: epsilon 0.5 */
        int wrong = 0;
        for (uint64_t j = 0; j < 18; j++) {
            uint64_t sum = load64(copy, 64 + 8 * j);
            wrong += sum != load64(a, 64 + 8 * j) + load64(b, 64 + 8 * j);
            wrong += sum > load64(both, 64 + 8 * j); /* the plain sketch of both streams */
            wrong += update == 0 && sum != load64(both, 64 + 8 * j);
        }
        filter_view vu;
        CHECK(filter_open(copy, bytes, &vu, why) == FILTER_OK);
        for (int key = 0; key < 40; key++) {
            wrong += countmin_estimate(&vu, mixed_key(key)) < truth[key];
        }
        CHECK_U64(wrong, 0);
        /* The totals past 2^63 - 1: FILTER_FULL, nothing written. */
        store64(a, 40, COUNTMIN_TOTAL_MAX - load64(b, 40) + 1);
        CHECK(filter_open(a, bytes, &va, why) == FILTER_OK);
        filter_copy(copy, &va);
        memcpy(both, copy, (size_t)bytes);
        CHECK(countmin_kind.merge(copy, &vb) == FILTER_FULL);
        CHECK(memcmp(copy, both, (size_t)bytes) == 0);
        store64(a, 40, COUNTMIN_TOTAL_MAX - load64(b, 40));
        CHECK(filter_open(a, bytes, &va, why) == FILTER_OK);
        filter_copy(copy, &va);
        CHECK(countmin_kind.merge(copy, &vb) == FILTER_OK &&
              load64(copy, 40) == COUNTMIN_TOTAL_MAX);
    }
    /* Another width, depth or update: refused, with what they were built with. */
    uint64_t bytes_a = cms_empty(0.5, 0.1, COUNTMIN_PLAIN, a, NULL);
    uint64_t bytes_b = cms_empty(0.25, 0.1, COUNTMIN_PLAIN, b, NULL);
    CHECK(filter_open(a, bytes_a, &va, why) == FILTER_OK);
    CHECK(filter_open(b, bytes_b, &vb, why) == FILTER_OK);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: count-min sketches of width 6 and depth 3 (epsilon = "
                   "0.5, delta = 0.1) and of width 11 and depth 3 (epsilon = 0.25, delta = 0.1); "
                   "build both with the same epsilon and delta");
    bytes_b = cms_empty(0.5, 0.01, COUNTMIN_PLAIN, b, NULL);
    CHECK(filter_open(b, bytes_b, &vb, why) == FILTER_OK);
    CHECK(filter_compatible(&vb, &va, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: count-min sketches of width 6 and depth 5 (epsilon = "
                   "0.5, delta = 0.01) and of width 6 and depth 3 (epsilon = 0.5, delta = 0.1); "
                   "build both with the same epsilon and delta");
    bytes_b = cms_empty(0.5, 0.1, COUNTMIN_CONSERVATIVE, b, NULL);
    CHECK(filter_open(b, bytes_b, &vb, why) == FILTER_OK);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: a count-min sketch of the plain update and one of the "
                   "conservative update; build both with the same update");
}

/* The golden sketches (tests/golden/README.md): built through the core, each golden key counted
** its row number (1 to 19), and their estimates as the README gives them. */
static void test_countmin_golden(const char *golden_dir) {
    static const uint64_t plain_estimates[] = {1,  6,  6,  25, 33, 14, 14, 18, 37, 18,
                                               33, 12, 25, 57, 37, 42, 33, 34, 25};
    static const uint64_t conservative_estimates[] = {1,  3,  3,  13, 27, 14, 14, 12, 18, 18,
                                                      28, 12, 13, 27, 18, 28, 28, 29, 23};
    static const char *files[] = {"countmin_v2.hex", "countmin_conservative_v2.hex"};
    key_hash keys[32];
    size_t nkeys = golden_keys(keys);
    uint64_t truth[32] = {0};
    for (size_t i = 0; i < nkeys; i++) {
        for (size_t j = 0; j < nkeys; j++) {
            truth[i] += same_hash(keys[i], keys[j]) ? j + 1 : 0; /* 42: 6 + 7 */
        }
    }
    CHECK(nkeys == 19 && truth[5] == 13 && truth[6] == 13 && truth[18] == 19);
    uint8_t golden[2][512];
    filter_view views[2];
    char why[FILTER_WHY_MAX], path[4096];
    for (int update = 0; update < 2; update++) {
        uint8_t built[512];
        uint64_t estimate, bytes = cms_empty(0.5, 0.1, update, built, NULL);
        for (size_t i = 0; i < nkeys; i++) {
            CHECK(cms_add(built, keys[i], i + 1, &estimate) == FILTER_OK);
        }
        snprintf(path, sizeof path, "%s/%s", golden_dir, files[update]);
        size_t golden_len = read_hex_file(path, golden[update], sizeof golden[update]);
        CHECK_U64(golden_len, 208);
        if (!CHECK(golden_len == bytes && memcmp(golden[update], built, golden_len) == 0)) {
            fprintf(stderr, "    %s built: ", files[update]);
            for (uint64_t b = 0; b < bytes; b++) {
                fprintf(stderr, "%02X", built[b]);
            }
            fprintf(stderr, "\n");
            return;
        }
        CHECK(filter_open(golden[update], golden_len, &views[update], why) == FILTER_OK);
        countmin_header h = countmin_header_of(&views[update]);
        CHECK(h.width == 6 && h.depth == 3 && h.update == update && h.total == 190);
        CHECK(h.epsilon == 0.5 && h.delta == 0.1);
    }
    int wrong = 0;
    for (size_t i = 0; i < nkeys; i++) {
        uint64_t ep = countmin_estimate(&views[0], keys[i]);
        uint64_t ec = countmin_estimate(&views[1], keys[i]);
        wrong += ep != plain_estimates[i] || ec != conservative_estimates[i];
        wrong += ec < truth[i] || ec > ep || countmin_kind.might_contain(&views[1], keys[i]) != 1;
    }
    CHECK_U64(wrong, 0);
}

/* The kind-5 and kind-6 vectors of docs/format.md section 6: the bytes, rebuilt through the core
** as the text says, and each row of their tables. */
static void test_format_kind_vectors(const char *format_path) {
    FILE *f = fopen(format_path, "r");
    char line[512];
    static uint8_t scalable[1024], sketch[256], built[SCALABLE_BYTES_MAX];
    size_t scalable_len = 0, sketch_len = 0;
    int inside = 0, scalable_rows = 0, sketch_rows = 0;
    if (!CHECK(f != NULL)) {
        return;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        if (strstr(line, "<!-- scalable-vector:begin -->") != NULL) {
            inside = 5;
        } else if (strstr(line, "<!-- countmin-vector:begin -->") != NULL) {
            inside = 6;
        } else if (strstr(line, "-vector:end -->") != NULL) {
            inside = 0;
        } else if (inside && strchr("0123456789ABCDEF", line[0]) != NULL && line[0] != '\0') {
            uint8_t *out = inside == 5 ? scalable + scalable_len : sketch + sketch_len;
            size_t cap = inside == 5 ? sizeof scalable - scalable_len : sizeof sketch - sketch_len;
            size_t got = 0;
            for (char *s = line; *s != '\0' && *s != '\n' && got < cap; s++) {
                if (*s != ' ') {
                    got += parse_hex(s, out + got, 1);
                    s++;
                }
            }
            *(inside == 5 ? &scalable_len : &sketch_len) += got;
        }
    }
    fclose(f);
    /* Kind 5: bloom_build(k, 1, 0.1, 'scalable') over 1, 2, 3. */
    uint64_t bytes = scalable_empty(1, 0.1, BLOOM_LAYOUT_STANDARD, built);
    for (int64_t i = 1; i <= 3; i++) {
        CHECK(scalable_add_growing(built, &bytes, key_hash_integer(i)) == FILTER_OK);
    }
    CHECK_U64(scalable_len, 208);
    CHECK(scalable_len == bytes && memcmp(scalable, built, scalable_len) == 0);
    CHECK(load64(scalable, 64 + 32) == UINT64_C(0x3F947AE147AE147A)); /* p_0, as the text says */
    CHECK(load64(scalable, 136 + 32) == UINT64_C(0x3F90624DD2F1A9FB));
    /* Kind 6: the plain sketch, and the conservative one the text derives from it. */
    uint64_t estimate;
    for (int update = 0; update < 2; update++) {
        uint64_t sketch_bytes = cms_empty(0.9, 0.2, update, built, NULL);
        static const struct {
            int64_t key;
            uint64_t count;
        } rows[] = {{1, 3}, {-1, 2}, {-2, 1}, {1, 1}}; /* -1: 'hello', -2: 1.5 */
        for (size_t i = 0; i < 4; i++) {
            key_hash key = rows[i].key == -1   ? key_hash_text("hello", 5)
                           : rows[i].key == -2 ? key_hash_real(1.5)
                                               : key_hash_integer(rows[i].key);
            CHECK(cms_add(built, key, rows[i].count, &estimate) == FILTER_OK);
        }
        uint8_t expected[128];
        memcpy(expected, sketch, sizeof expected);
        if (update == COUNTMIN_CONSERVATIVE) {
            expected[20] = 1;
            store64(expected, 64 + 8 * (1 * 4 + 0), 2);
        }
        CHECK_U64(sketch_len, 128);
        CHECK(sketch_len == sketch_bytes && memcmp(expected, built, sketch_len) == 0);
    }
    /* The tables. */
    f = fopen(format_path, "r");
    if (!CHECK(f != NULL)) {
        return;
    }
    filter_view vs, vp, vc;
    char why[FILTER_WHY_MAX];
    uint8_t conservative[128];
    memcpy(conservative, sketch, sizeof conservative);
    conservative[20] = 1;
    store64(conservative, 64 + 8 * 4, 2);
    CHECK(filter_open(scalable, scalable_len, &vs, why) == FILTER_OK);
    CHECK(filter_open(sketch, sketch_len, &vp, why) == FILTER_OK);
    CHECK(filter_open(conservative, sketch_len, &vc, why) == FILTER_OK);
    while (fgets(line, sizeof line, f) != NULL) {
        char key[64], text[4][64];
        unsigned probe;
        if (strstr(line, "<!-- scalable-vector:begin -->") != NULL) {
            inside = 5;
        } else if (strstr(line, "<!-- countmin-vector:begin -->") != NULL) {
            inside = 6;
        } else if (strstr(line, "-vector:end -->") != NULL) {
            inside = 0;
        } else if (inside == 5 && sscanf(line, "| `%63[^`]` | %63[0-9 ] | %63[a-z0-9 ] | %u |", key,
                                         text[0], text[1], &probe) == 4) {
            key_hash h = hash_of_literal(key);
            bloom_header stage = header_of(64, 6, BLOOM_LAYOUT_STANDARD);
            char computed[128], answering[64] = "";
            CHECK_STR(positions_text(&stage, h, computed), trim(text[0]));
            for (int i = 0; i < 2; i++) {
                if (bloom_test(scalable + 64 + 72 * i + 64, &stage, h)) {
                    snprintf(answering + strlen(answering), 8, "%s%d", answering[0] ? " " : "", i);
                }
            }
            CHECK_STR(answering[0] ? answering : "none", trim(text[1]));
            CHECK_U64(scalable_kind.might_contain(&vs, h), probe);
            scalable_rows++;
        } else if (inside == 6 &&
                   sscanf(line, "| `%63[^`]` | %63[0-9 ] | %63[0-9 ] | %63[0-9 ] | %63[0-9 ] |",
                          key, text[0], text[1], text[2], text[3]) == 5) {
            key_hash h = hash_of_literal(key);
            char columns[64], plain[64], cons[64];
            uint64_t c0 = cms_model_column(4, 0, h), c1 = cms_model_column(4, 1, h);
            snprintf(columns, sizeof columns, "%llu %llu", (unsigned long long)c0,
                     (unsigned long long)c1);
            snprintf(plain, sizeof plain, "%llu %llu",
                     (unsigned long long)load64(sketch, 64 + 8 * c0),
                     (unsigned long long)load64(sketch, 64 + 8 * (4 + c1)));
            snprintf(cons, sizeof cons, "%llu %llu",
                     (unsigned long long)load64(conservative, 64 + 8 * c0),
                     (unsigned long long)load64(conservative, 64 + 8 * (4 + c1)));
            CHECK_STR(columns, trim(text[0]));
            CHECK_STR(plain, trim(text[1]));
            CHECK_STR(cons, trim(text[2]));
            CHECK_U64(countmin_estimate(&vp, h), strtoull(text[3], NULL, 10));
            CHECK_U64(countmin_estimate(&vc, h), strtoull(text[3], NULL, 10));
            sketch_rows++;
        }
    }
    fclose(f);
    CHECK_U64(scalable_rows, 6);
    CHECK_U64(sketch_rows, 7);
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
    test_counting_golden(argv[1]);
    test_counting_add_remove();
    test_counting_coinciding_positions();
    test_counting_saturation();
    test_counting_merge();
    test_counting_validation();
    test_counting_model();
    test_io_matches_memory();
    test_cuckoo_sizing();
    test_cuckoo_validation();
    test_cuckoo_alt();
    test_cuckoo_model();
    test_cuckoo_repeats();
    test_cuckoo_merge();
    test_cuckoo_golden(argv[1]);
    test_cuckoo_measure();
    test_cuckoo_io_failures();
    test_scalable_sizing();
    test_scalable_grow();
    test_scalable_grow_limits();
    test_scalable_io();
    test_scalable_validation();
    test_scalable_merge();
    test_countmin_sizing();
    test_countmin_updates();
    test_countmin_io();
    test_countmin_validation();
    test_countmin_merge();
    test_format_kind_vectors(argv[2]);
    return check_report("test_core");
}
