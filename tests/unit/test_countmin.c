/*
** test_countmin.c: the count-min sketch kind (countmin_core, docs/format.md section 4.6):
** sizing from epsilon and delta, plain and conservative adds against a model of the section,
** estimates, its _io operations, validation, merge, its golden sketches and its test vector.
*/
#include "unit.h"

#include "hash_math.h"

#include <math.h>
#include <stdlib.h>

static void test_countmin_golden(const char *golden_dir);

const kind_recipe countmin_recipe = {
    .kind = &countmin_kind, .golden_bytes = 208, .own_golden = test_countmin_golden};

/* docs/format.md section 1: kind 6, of format version 2; it neither grows, nor reads more than
** its header to validate it, nor removes keys. */
void test_countmin_kind(void) {
    CHECK(filter_kind_by_id(COUNTMIN_KIND) == &countmin_kind && COUNTMIN_KIND == 6);
    CHECK(countmin_kind.format_version == 2);
    CHECK_STR(countmin_kind.name, "countmin");
    CHECK(countmin_kind.validate_body == NULL && countmin_kind.grow_size == NULL);
    CHECK(countmin_kind.remove_io == NULL);
}

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
void test_countmin_sizing(void) {
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
void test_countmin_updates(void) {
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
void test_countmin_io(void) {
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
            wrong += open_header_view(b, bytes, &vb, header) != FILTER_OK;
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
void test_countmin_validation(void) {
    static uint8_t blob[CMS_BYTES_MAX];
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
    expect_reserved_invalid(blob, 208, 21, 24, 0x01);
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
    blob[4] = 4;
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
void test_countmin_merge(void) {
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
    char why[FILTER_WHY_MAX];
    for (int update = 0; update < 2; update++) {
        uint8_t built[512];
        uint64_t estimate, bytes = cms_empty(0.5, 0.1, update, built, NULL);
        for (size_t i = 0; i < nkeys; i++) {
            CHECK(cms_add(built, keys[i], i + 1, &estimate) == FILTER_OK);
        }
        size_t golden_len =
            read_golden_file(golden_dir, files[update], golden[update], sizeof golden[update]);
        CHECK_U64(golden_len, 208);
        if (!CHECK(golden_len == bytes && memcmp(golden[update], built, golden_len) == 0)) {
            print_built(files[update], built, bytes);
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

/* The sketches of the kind-6 vector of docs/format.md section 6, plain and conservative, and
** their views. */
typedef struct countmin_vector {
    const uint8_t *plain, *conservative;
    filter_view plain_view, conservative_view;
} countmin_vector;

/* Checks a row of the kind-6 vector's table (a format_section_rows row, with the
** countmin_vector): a key's columns, its counters in each sketch and its estimate; returns 1 if
** it was a row. */
static int check_countmin_row(const char *line, void *context) {
    const countmin_vector *vector = context;
    char key[64], text[4][64];
    if (sscanf(line, "| `%63[^`]` | %63[0-9 ] | %63[0-9 ] | %63[0-9 ] | %63[0-9 ] |", key, text[0],
               text[1], text[2], text[3]) != 5) {
        return 0;
    }
    key_hash h = hash_of_literal(key);
    char columns[64], plain[64], cons[64];
    uint64_t c0 = cms_model_column(4, 0, h), c1 = cms_model_column(4, 1, h);
    snprintf(columns, sizeof columns, "%llu %llu", (unsigned long long)c0, (unsigned long long)c1);
    snprintf(plain, sizeof plain, "%llu %llu",
             (unsigned long long)load64(vector->plain, 64 + 8 * c0),
             (unsigned long long)load64(vector->plain, 64 + 8 * (4 + c1)));
    snprintf(cons, sizeof cons, "%llu %llu",
             (unsigned long long)load64(vector->conservative, 64 + 8 * c0),
             (unsigned long long)load64(vector->conservative, 64 + 8 * (4 + c1)));
    CHECK_STR(columns, trim(text[0]));
    CHECK_STR(plain, trim(text[1]));
    CHECK_STR(cons, trim(text[2]));
    CHECK_U64(countmin_estimate(&vector->plain_view, h), strtoull(text[3], NULL, 10));
    CHECK_U64(countmin_estimate(&vector->conservative_view, h), strtoull(text[3], NULL, 10));
    return 1;
}

/* The kind-6 vector of docs/format.md section 6: the plain sketch's bytes, rebuilt through the
** core as the text says, and the conservative one the text derives from it (byte 20, 1, and
** counter (1, 0), 2 in place of 3); each row of its table. */
void test_countmin_format_vectors(const char *format_path) {
    static uint8_t sketch[256], built[CMS_BYTES_MAX];
    uint8_t conservative[128];
    size_t sketch_len = format_section_bytes(format_path, "countmin-vector", sketch, sizeof sketch);
    memcpy(conservative, sketch, sizeof conservative);
    conservative[20] = 1;
    store64(conservative, 64 + 8 * (1 * 4 + 0), 2);
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
        const uint8_t *expected = update == COUNTMIN_CONSERVATIVE ? conservative : sketch;
        CHECK_U64(sketch_len, 128);
        CHECK(sketch_len == sketch_bytes && memcmp(expected, built, sketch_len) == 0);
    }
    /* The table. */
    countmin_vector vector = {.plain = sketch, .conservative = conservative};
    char why[FILTER_WHY_MAX];
    CHECK(filter_open(sketch, sketch_len, &vector.plain_view, why) == FILTER_OK);
    CHECK(filter_open(conservative, sketch_len, &vector.conservative_view, why) == FILTER_OK);
    CHECK_U64(format_section_rows(format_path, "countmin-vector", check_countmin_row, &vector), 7);
}
