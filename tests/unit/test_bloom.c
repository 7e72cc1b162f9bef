/*
** test_bloom.c: the two Bloom kinds (bloom_core), standard and blocked, with the blocked
** layout's model (bloom_model): sizing, the header, validation, positions, set and test, fill
** measures, merging, and the test vectors of docs/format.md.
*/
#include "unit.h"

#include "bloom_model.h"
#include "hash_math.h"

#include <math.h>
#include <stdlib.h>

const kind_recipe bloom_standard_recipe = {.kind = &bloom_standard_kind,
                                           .positions = BLOOM_LAYOUT_STANDARD,
                                           .cell_bits = 1,
                                           .write_header = bloom_write_header,
                                           .golden_bytes = 88};

const kind_recipe bloom_blocked_recipe = {.kind = &bloom_blocked_kind,
                                          .positions = BLOOM_LAYOUT_BLOCKED,
                                          .cell_bits = 1,
                                          .write_header = bloom_write_header,
                                          .golden_bytes = 128};

/* The sizing formulas, computed independently in long double. */
static void expected_sizing(uint64_t n, double p, uint64_t *m, uint32_t *k) {
    long double ln2 = logl(2.0L);
    long double formula_bits = ceill(-(long double)n * logl((long double)p) / (ln2 * ln2));
    long double rounded_k = roundl(formula_bits / (long double)n * ln2);
    *k = rounded_k < 1 ? 1 : (uint32_t)rounded_k;
    *m = (uint64_t)ceill(formula_bits / 64) * 64;
}

/* Standard sizing against the formulas, computed here in long double, over n and p. */
void test_sizing_formulas(void) {
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

/* Standard sizing at known points: bits a key at 10 %, 1 % and 0.1 %, one key, p near 1. */
void test_sizing_anchors(void) {
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

/* What sizing refuses: n and p outside their ranges, more than 64 hash functions, more than
** the core's largest BLOB. */
void test_sizing_errors(void) {
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

/* docs/format.md section 1: kinds 1 and 2, of format version 1; the rates each layout takes. */
void test_bloom_kinds(void) {
    CHECK(filter_kind_by_id(BLOOM_LAYOUT_STANDARD) == &bloom_standard_kind);
    CHECK(filter_kind_by_id(BLOOM_LAYOUT_BLOCKED) == &bloom_blocked_kind);
    CHECK(bloom_standard_kind.format_version == 1 && bloom_blocked_kind.format_version == 1);
    CHECK_STR(bloom_standard_kind.name, "standard");
    CHECK_STR(bloom_blocked_kind.name, "blocked");
    CHECK(bloom_check_rate(0.9, BLOOM_LAYOUT_STANDARD) == FILTER_OK);
    CHECK(bloom_check_rate(0.9, BLOOM_LAYOUT_BLOCKED) == FILTER_RATE_TOO_HIGH);
    CHECK(bloom_check_rate(0.5, BLOOM_LAYOUT_BLOCKED) == FILTER_OK);
    CHECK(bloom_check_rate(0.1, 3) == FILTER_BAD_ARGUMENT);
    CHECK(bloom_check_rate(-0.1, BLOOM_LAYOUT_BLOCKED) == FILTER_BAD_ARGUMENT);
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

/* The header of a standard filter, byte by byte, and the view filter_open makes of it. */
void test_header_bytes(void) {
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

/* docs/format.md section 5, the checks of kinds 1 and 2 with the table's messages, on a standard
** filter; the reserved bytes of a newer writer. */
void test_bloom_validation(void) {
    uint8_t valid[88] = {0};
    bloom_header h = sample_header();
    bloom_write_header(valid, &h);
    char why[FILTER_WHY_MAX];
    filter_view view;
    bloom_header back;

    check_invalid(valid, 88, 6, 2,
                  "corrupt filter: m = 192 bits is not a positive multiple of 512");
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
    expect_invalid_at(valid, 88, 38, 0x7FF8, 2, "corrupt filter: p = NaN is not between 0 and 1");
    expect_reserved_invalid(valid, 88, 12, 16, 0x01);

    /* A newer writer that this reader may read owns the reserved bytes; a writer of this
    ** reader's version does not. */
    uint8_t newer[88];
    memcpy(newer, valid, sizeof newer);
    newer[4] = 2;
    newer[12] = 0xAA;
    expect_invalid(newer, sizeof newer, "corrupt filter: reserved byte 12 is 0xAA, not 0");
    newer[4] = 4;
    newer[63] = 0x55;
    CHECK(open_bloom(newer, sizeof newer, &view, &back, why) == FILTER_OK);
    CHECK_U64(view.version, 4);
    CHECK_U64(back.k, 7);
}

/* The positions follow the closed form the format spec gives. */
void test_positions_closed_form(void) {
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
void test_small_filters_track_the_model(void) {
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
void test_positions_wide(void) {
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
void test_no_false_negatives(void) {
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

/* bloom_measure: the bits set, the estimates of keys and rate, a filter over capacity, and a
** filter of one segment. */
void test_measure(void) {
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

/* Bloom filters of the same m and k merge, whatever their n and p; others are refused in the
** terms they were built with. bloom_merge ORs the bits. */
void test_compatibility_and_merge(void) {
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
                   "and kind");
    b = sample_header();
    b.k = 8;
    b.n = 18446744073709551615u;
    b.p = 1.23456789012346e-19;
    CHECK(bloom_check_compatible(&a, &b, why) == FILTER_INVALID);
    CHECK_STR(why, "incompatible filters: one built for n = 20 at p = 0.01 (192 bits, k = 7), the "
                   "other for n = 18446744073709551615 at p = 1.23456789012346e-19 (192 bits, k = "
                   "8); build both with the same n, p and kind");

    uint8_t dst[24] = {0x01, 0x80}, src[24] = {0x02, 0x80};
    src[23] = 0xF0;
    bloom_merge(dst, src, 192);
    CHECK(dst[0] == 0x03 && dst[1] == 0x80 && dst[23] == 0xF0 && dst[2] == 0);
}

/* Blocked positions: all in the line reduce(h1, m/512), at the top 9 bits of (h2|1) C^i. */
void test_blocked_positions(void) {
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
void test_blocked_model_closed_form(void) {
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
void test_blocked_sizing(void) {
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
void test_blocked_filters(void) {
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

/* Checks one row of the format's test-vector table (a format_section_rows row, without
** context); returns 1 if it was a vector row. */
static int check_vector_row(const char *row, void *context) {
    (void)context;
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
void test_format_vectors(const char *format_path) {
    CHECK_U64(format_section_rows(format_path, "test-vectors", check_vector_row, NULL), 9);
}

/* A blocked filter's key lies in one line, which its _io operations read in one call and write
** in one: a probe makes 1 call; an add 3 (the line read, the line written, the count written),
** or 2 when every bit was set already (nothing of the line written); the standard layout makes a
** call a position. */
void test_blocked_io_calls(void) {
    static uint8_t blob[4096];
    size_t bytes = make_sized(&bloom_blocked_kind, 100, 0.01, blob, sizeof blob);
    filter_view f;
    char why[FILTER_WHY_MAX];
    counted_io state;
    int answer, was_absent;
    key_hash key = key_hash_text("line", 4);
    if (!CHECK(bytes > 0 && filter_open(blob, bytes, &f, why) == FILTER_OK)) {
        return;
    }
    filter_io io = counted(&state, blob, -1);
    CHECK(bloom_blocked_kind.might_contain_io(&f, &io, key, &answer) == FILTER_OK);
    CHECK(answer == 0 && state.calls == 1 && state.writes == 0);
    io = counted(&state, blob, -1);
    CHECK(bloom_blocked_kind.add_io(&f, &io, key, &was_absent) == FILTER_OK);
    CHECK(was_absent == 1 && state.calls == 3 && state.writes == 2);
    CHECK(filter_open(blob, bytes, &f, why) == FILTER_OK &&
          bloom_blocked_kind.might_contain(&f, key));
    io = counted(&state, blob, -1);
    CHECK(bloom_blocked_kind.add_io(&f, &io, key, &was_absent) == FILTER_OK);
    CHECK(was_absent == 0 && state.calls == 2 && state.writes == 1);
    io = counted(&state, blob, -1);
    CHECK(bloom_blocked_kind.might_contain_io(&f, &io, key, &answer) == FILTER_OK);
    CHECK(answer == 1 && state.calls == 1);

    bytes = make_sized(&bloom_standard_kind, 100, 0.01, blob, sizeof blob);
    if (!CHECK(bytes > 0 && filter_open(blob, bytes, &f, why) == FILTER_OK)) {
        return;
    }
    io = counted(&state, blob, -1);
    CHECK(bloom_standard_kind.add_io(&f, &io, key, &was_absent) == FILTER_OK);
    uint32_t k = bloom_header_of(&f).k;
    CHECK(was_absent == 1 && state.calls >= (int)k + 2 && state.calls <= 2 * (int)k + 1);
}
