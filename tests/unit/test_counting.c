/*
** test_counting.c: the counting Bloom kind (counting_core, docs/format.md section 4.3): 4-bit
** counters at the standard layout's positions; add, remove, saturation, merge, validation,
** against the cell model.
*/
#include "cell_model.h"
#include "unit.h"

const kind_recipe counting_recipe = {.kind = &counting_kind,
                                     .positions = BLOOM_LAYOUT_STANDARD,
                                     .cell_bits = COUNTING_COUNTER_BITS,
                                     .write_header = counting_write_header,
                                     .removes = 1,
                                     .golden_bytes = 160};

/* docs/format.md section 1: kind 3, of format version 2, the newest this reads. */
void test_counting_kind(void) {
    CHECK(filter_kind_by_id(COUNTING_KIND) == &counting_kind);
    CHECK(counting_kind.format_version == 2 && FILTER_FORMAT_VERSION == 3);
    CHECK_STR(counting_kind.name, "counting");
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

/* The golden counting filter against the golden standard one: its counters above 0 are the
** bits set there, its counters sum to k for each key added (none saturated), and 42, added
** twice, can be removed twice. */
void test_counting_golden(const char *golden_dir) {
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

/* Adding keys, some twice, then removing each as often as it was added, in another order,
** gives back the bytes of the empty filter, its count of keys 0. */
void test_counting_add_remove(void) {
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
void test_counting_coinciding_positions(void) {
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
void test_counting_saturation(void) {
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
void test_counting_merge(void) {
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
void test_counting_validation(void) {
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
    expect_invalid_at(valid, 96, 32, UINT64_C(0x4000000000000000), 8, /* 2.0 */
                      "corrupt filter: p = 2 is not between 0 and 1");
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
    expect_invalid_at(valid, 96, 32, UINT64_C(0x7FF8000000000000), 8,
                      "corrupt filter: p = NaN is not between 0 and 1");
    /* m/2 does not overflow the length */
    expect_invalid_at(valid, 96, 16, UINT64_C(0xFFFFFFFFFFFFFFC0), 8,
                      "corrupt filter: m = 18446744073709551552 counters need 9223372036854775840 "
                      "bytes, the BLOB has 96");
    expect_reserved_invalid(valid, 96, 13, 16, 0xA5);
    /* The first failing check is the error. */
    memcpy(blob, valid, 96);
    blob[8] = 65;
    blob[12] = 8;
    blob[16] = 100;
    expect_invalid(blob, 97, "corrupt filter: k = 65 is outside 1..64");
    blob[8] = 7;
    expect_invalid(blob, 97, "corrupt filter: counters of 8 bits, not 4");
    blob[12] = 4;
    expect_invalid(blob, 97, "corrupt filter: m = 100 counters is not a positive multiple of 64");

    /* The container: versions, as section 5's first table; a kind in a BLOB of a format
    ** version older than the one that defines it is corrupt, whatever its header. */
    memcpy(blob, valid, 96);
    blob[4] = blob[5] = 1;
    expect_invalid(
        blob, 96,
        "corrupt filter: kind 3 is of format version 2, read by readers of version 2 and later, "
        "not 1");
    blob[7] = 9; /* checked before the hash */
    expect_invalid(
        blob, 96,
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
    expect_invalid_at(
        valid, 96, 4, 0x0404, 2,
        "filter format version 4 needs a reader of version 4 or later; this one reads "
        "version 3");
    /* A newer writer (version 4, readable by version 3) owns the reserved bytes, not the
    ** counter width. */
    memcpy(blob, valid, 96);
    blob[4] = 4;
    blob[13] = blob[15] = blob[48] = blob[63] = 0xA5;
    CHECK(filter_open(blob, 96, &view, why) == FILTER_OK);
    blob[12] = 8;
    expect_invalid(blob, 96, "corrupt filter: counters of 8 bits, not 4");
}

/* Random adds and removes on small filters (coinciding positions and saturation common),
** through the kind's add, add_io and remove_io, against the model after every step. */
void test_counting_model(void) {
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
