/*
** test_cuckoo.c: the cuckoo kind (cuckoo_core, docs/format.md section 4.4): buckets of 4
** fingerprints, sizing, validation, add with kicks, remove, merge by reinsertion, the fill
** measures, and its _io operations when reads and writes fail, against the cell model.
*/
#include "cell_model.h"
#include "unit.h"

#include <math.h>

/* The header of a cuckoo filter from a recipe's fields: m buckets of 4 slots, k-bit
** fingerprints. */
static void cuckoo_recipe_header(uint8_t *blob, const bloom_header *h) {
    cuckoo_header c = {h->k, h->m, h->n, h->p, h->keys};
    cuckoo_write_header(blob, &c);
}

/* The buckets (m) and fingerprint bits (k) that bloom_build gives a cuckoo filter for n and p. */
static filter_status cuckoo_recipe_size(uint64_t n, double p, uint64_t *m, uint32_t *k) {
    cuckoo_header c;
    double bytes;
    filter_status status = cuckoo_size(n, p, &c, &bytes);
    if (status == FILTER_OK) {
        *m = c.buckets;
        *k = c.fingerprint_bits;
    }
    return status;
}

const kind_recipe cuckoo_recipe = {.kind = &cuckoo_kind,
                                   .write_header = cuckoo_recipe_header,
                                   .size = cuckoo_recipe_size,
                                   .removes = 1,
                                   .fills_up = 1,
                                   .golden_bytes = 114};

/* docs/format.md section 1: kind 4, of format version 2. */
void test_cuckoo_kind(void) {
    CHECK(filter_kind_by_id(CUCKOO_KIND) == &cuckoo_kind && CUCKOO_KIND == 4);
    CHECK(cuckoo_kind.format_version == 2);
    CHECK_STR(cuckoo_kind.name, "cuckoo");
}

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
void test_cuckoo_sizing(void) {
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
void test_cuckoo_validation(void) {
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
    expect_invalid(large, 1385,
                   "corrupt filter: 264 buckets of 10-bit fingerprints need 1384 bytes, the BLOB "
                   "has 1385");
    check_invalid(valid, 114, 24, 0, "corrupt filter: capacity n = 0");
    expect_invalid_at(valid, 114, 32, UINT64_C(0x4000000000000000), 8, /* 2.0 */
                      "corrupt filter: p = 2 is not between 0 and 1");
    CHECK_U64(make_filter(&cuckoo_kind, 264, 1, 20, 0.01, large, sizeof large), 64 + 132);
    store64(large, 40, 1057);
    expect_invalid(large, 64 + 132, "corrupt filter: 1057 keys in 1056 slots");
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
    expect_invalid(
        blob, 77, "corrupt filter: 9 buckets of 3-bit fingerprints need 78 bytes, the BLOB has 77");
    /* A B whose length does not fit in 64 bits: "0 buckets"'s row; one whose length fits, the
    ** length's row, though 4 B f does not fit. (Within a few bytes of 2^64 - 1 the extension
    ** still takes the first for the second: tests/reader pins those, in
    ** Validation.test_cuckoo_length_edge.) */
    memcpy(blob, valid, 114);
    store64(blob, 16, UINT64_MAX);
    expect_invalid(blob, 114, "corrupt filter: 18446744073709551615 buckets");
    blob[8] = 1;
    expect_invalid(blob, 114,
                   "corrupt filter: 18446744073709551615 buckets of 1-bit fingerprints need "
                   "9223372036854775872 bytes, the BLOB has 114");
    blob[8] = 32;
    store64(blob, 16, UINT64_C(1) << 60);
    expect_invalid(blob, 114, "corrupt filter: 1152921504606846976 buckets");
    store64(blob, 16, (UINT64_C(1) << 60) - 9);
    expect_invalid(blob, 114,
                   "corrupt filter: 1152921504606846967 buckets of 32-bit fingerprints need "
                   "18446744073709551536 bytes, the BLOB has 114");
    check_invalid(valid, 114, 39, 0xBF, "corrupt filter: p = -0.01 is not between 0 and 1");
    expect_invalid_at(valid, 114, 32, UINT64_C(0x7FF0000000000000), 8,
                      "corrupt filter: p = Inf is not between 0 and 1");
    memcpy(blob, valid, 114);
    store64(blob, 40, UINT64_MAX);
    expect_invalid(blob, 114, "corrupt filter: 18446744073709551615 keys in 40 slots");
    store64(blob, 40, 40);
    CHECK(filter_open(blob, 114, &view, why) == FILTER_OK);
    store64(blob, 40, 41);
    expect_invalid(blob, 114, "corrupt filter: 41 keys in 40 slots");
    expect_reserved_invalid(valid, 114, 10, 16, 0xA5);
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
    expect_invalid_at(
        valid, 114, 4, 0x0101, 2,
        "corrupt filter: kind 4 is of format version 2, read by readers of version 2 and later, "
        "not 1");
    expect_invalid_at(
        valid, 114, 4, 0x0404, 2,
        "filter format version 4 needs a reader of version 4 or later; this one reads "
        "version 3");
    /* A newer writer (version 4, readable by version 3) owns the reserved bytes, not f or the
    ** slots per bucket; a copy writes them 0 again, as version 2. */
    memcpy(blob, valid, 114);
    blob[4] = 4;
    blob[10] = blob[15] = blob[48] = blob[63] = 0xA5;
    CHECK(filter_open(blob, 114, &view, why) == FILTER_OK);
    uint8_t copy[128];
    filter_copy(copy, &view);
    CHECK(memcmp(copy, valid, 114) == 0);
    blob[9] = 8;
    expect_invalid(blob, 114, "corrupt filter: buckets of 8 slots, not 4");
}

/* alt(alt(i, fp), fp) = i, in the model for B up to 2^64 - 1, and in the core: a fingerprint of
** a union's second filter in bucket i, whose bucket i is full in the first, lands in the first
** empty slot of alt(i, fp), and one in bucket alt(i, fp) lands back in i. With B = 1 every
** fingerprint has one bucket: once it is full, the union finds no room. */
void test_cuckoo_alt(void) {
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
void test_cuckoo_model(void) {
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
void test_cuckoo_repeats(void) {
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
void test_cuckoo_merge(void) {
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
                   "fingerprints); build both with the same n, p and kind");
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
void test_cuckoo_golden(const char *golden_dir) {
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
void test_cuckoo_measure(void) {
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
void test_cuckoo_io_failures(void) {
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
