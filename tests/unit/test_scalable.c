/*
** test_scalable.c: the scalable Bloom kind (scalable_core, docs/format.md section 4.5): a list
** of stages, each a whole Bloom filter; their sizing, add into the last stage, growth, the
** stages validated through filter_io, merge stage by stage, its golden filter and its test
** vector.
*/
#include "unit.h"

#include <math.h>

static void test_scalable_golden(const char *golden_dir);

const kind_recipe scalable_recipe = {
    .kind = &scalable_kind, .golden_bytes = 304, .own_golden = test_scalable_golden};

/* docs/format.md section 1: kind 5, of format version 2; it grows, and reads its stages'
** headers; it does not remove keys. */
void test_scalable_kind(void) {
    CHECK(filter_kind_by_id(SCALABLE_KIND) == &scalable_kind && SCALABLE_KIND == 5);
    CHECK(scalable_kind.format_version == 2);
    CHECK_STR(scalable_kind.name, "scalable");
    CHECK(scalable_kind.validate_body != NULL && scalable_kind.grow_size != NULL);
    CHECK(scalable_kind.grow_io != NULL && scalable_kind.remove_io == NULL);
}

/* Room for the scalable filters of these tests. */
enum { SCALABLE_BYTES_MAX = 1 << 16 };

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
        filter_grow(&scalable_kind, blob, *bytes, grown);
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

/* Section 4.5's sizing: the first stage, the arguments' ranges, the stage targets, and the
** compound rate. */
void test_scalable_sizing(void) {
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
void test_scalable_grow(void) {
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

/* grow_io through a filter_io: it writes the new stage's header and the filter's, two writes
** and nothing else (a store in chunks keeps its zeros), and each write failing is
** FILTER_IO_FAILED. */
void test_scalable_grow_io(void) {
    static uint8_t blob[SCALABLE_BYTES_MAX], grown_in_memory[SCALABLE_BYTES_MAX];
    uint64_t bytes = scalable_empty(10, 0.01, BLOOM_LAYOUT_BLOCKED, blob), grown = 0;
    filter_view view = {&scalable_kind, 2, 2, KEY_HASH_XXH3_128, blob, bytes};
    CHECK(scalable_kind.grow_size(&view, &grown) == FILTER_OK && grown > bytes);
    memcpy(grown_in_memory, blob, (size_t)bytes);
    filter_grow(&scalable_kind, grown_in_memory, bytes, grown);
    for (int fail_at = 0; fail_at <= 2; fail_at++) {
        counted_io state;
        memset(blob + bytes, 0, (size_t)(grown - bytes));
        filter_io io = counted(&state, blob, fail_at);
        filter_status status = scalable_kind.grow_io(&view, &io);
        CHECK(status == (fail_at < 2 ? FILTER_IO_FAILED : FILTER_OK));
        CHECK(state.writes == (fail_at < 2 ? fail_at : 2) &&
              state.calls == state.writes + (fail_at < 2));
    }
    /* The bytes filter_grow gives, which test_scalable_grow_limits checks stage by stage. */
    CHECK(memcmp(blob, grown_in_memory, (size_t)grown) == 0);
    char why[FILTER_WHY_MAX];
    CHECK(filter_open(blob, grown, &view, why) == FILTER_OK && blob[10] == 2);
}

/* grow_size and filter_grow: one more stage, the next target's; FILTER_BAD_ARGUMENT at 64 stages,
** FILTER_TOO_BIG when n_s does not fit or the BLOB would pass 2^61 bytes,
** FILTER_TOO_MANY_HASHES when p_s needs more than 64 positions. grow_size reads the header
** alone. */
void test_scalable_grow_limits(void) {
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
    filter_grow(&scalable_kind, blob, bytes, grown);
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
void test_scalable_io(void) {
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
        wrong += open_header_view(b, bytes_b, &vb, header) != FILTER_OK;
        wrong += scalable_kind.might_contain_io(&vb, &io, probe, &answer) != FILTER_OK;
        wrong += answer != scalable_kind.might_contain(&va, probe);
        int before = scalable_kind.might_contain(&va, add);
        absent += !before;
        wrong += scalable_add_growing(a, &bytes_a, add) != FILTER_OK;
        filter_status status = scalable_kind.add_io(&vb, &io, add, &was_absent);
        if (status == FILTER_FULL) {
            wrong += before || scalable_grow(b, &bytes_b) != FILTER_OK;
            wrong += open_header_view(b, bytes_b, &vb, header) != FILTER_OK;
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

/* docs/format.md section 5, the checks of kind 5, row by row with the table's messages, on the
** golden filter's copy: 3 stages of m = 64, 128 and 192 at bytes 64, 136 and 216, 304 bytes. */
void test_scalable_validation(void) {
    static uint8_t blob[SCALABLE_BYTES_MAX], other[SCALABLE_BYTES_MAX];
    key_hash keys[32];
    size_t nkeys = golden_keys(keys);
    filter_view view;
    char why[FILTER_WHY_MAX];
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
    expect_reserved_invalid(blob, 304, 11, 16, 0x01);
    /* The first check that fails is the error. */
    blob[9] = 1;
    expect_invalid_at(blob, 304, 8, 9, 1, "corrupt filter: stage layout 9 is not 1 or 2");
    blob[9] = 2;
    blob[16] = 0;
    expect_invalid_at(blob, 304, 10, 0, 1, "corrupt filter: 0 stages, not 1 to 64");
    blob[16] = 3;
    /* A newer writer that this reader may read owns the reserved bytes. */
    memcpy(other, blob, 304);
    other[4] = 4;
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
    expect_invalid_at(blob, 304, 64 + 4, 0x0404, 2,
                      "corrupt filter: stage 0: filter format version 4 needs a reader of "
                      "version 4 or later; this one reads version 3");
    /* A stage's kind and hash are compared with the filter's before its header is checked. */
    expect_invalid_at(blob, 304, 64 + 6, 3, 1,
                      "corrupt filter: stage 0 is of kind 3 and hash 1, not 1 and 1");
    expect_invalid_at(blob, 304, 64 + 7, 9, 1,
                      "corrupt filter: stage 0 is of kind 1 and hash 9, not 1 and 1");
    expect_invalid_at(blob, 304, 64 + 7, 2, 1,
                      "corrupt filter: stage 0 is of kind 1 and hash 2, not 1 and 1");
    expect_invalid_at(blob, 304, 136 + 24, 0, 8,
                      "corrupt filter: stage 1: corrupt filter: capacity n = 0");
    expect_invalid_at(blob, 304, 216 + 13, 1, 1,
                      "corrupt filter: stage 2: corrupt filter: reserved byte 13 is 0x01, not 0");
    /* A stage of kind 3 (versions 2, counter width 4), or of no kind: refused for its kind
    ** before its header is checked as a Bloom filter's. */
    memcpy(other, blob, 304);
    other[64 + 4] = other[64 + 5] = 2;
    other[64 + 6] = 3;
    other[64 + 12] = 4;
    expect_invalid(other, 304, "corrupt filter: stage 0 is of kind 3 and hash 1, not 1 and 1");
    other[64 + 6] = 9;
    expect_invalid(other, 304, "corrupt filter: stage 0 is of kind 9 and hash 1, not 1 and 1");
    /* A stage of a newer format version this reader may read: its reserved bytes are its
    ** writer's, and it is a stage like another. */
    memcpy(other, blob, 304);
    other[136 + 4] = 4;
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
    /* count_io: the stages' keys, whatever the header's count, the stages checked as above. */
    uint64_t held = 0;
    memcpy(other, blob, 304);
    store64(other, 40, 17);
    CHECK(filter_open_header(other, 304, &view, why) == FILTER_OK);
    filter_io memory = filter_io_memory(other);
    CHECK(view.kind->count_io(&view, &memory, &held, why) == FILTER_OK);
    CHECK_U64(held, 18);
    store64(other, 216 + 40, 13);
    CHECK(view.kind->count_io(&view, &memory, &held, why) == FILTER_INVALID);
    CHECK_STR(why, "corrupt filter: stage 2 holds 13 keys, more than its capacity of 12");
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
void test_scalable_merge(void) {
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
        char name[GOLDEN_NAME_MAX];
        print_built(golden_name(&scalable_kind, name), built, bytes);
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

/* The scalable filter of the kind-5 vector of docs/format.md section 6, and its view. */
typedef struct scalable_vector {
    const uint8_t *blob;
    filter_view view;
} scalable_vector;

/* Checks a row of the kind-5 vector's table (a format_section_rows row, with the
** scalable_vector): a key's positions in a stage, the stages that answer 1 and the probe's
** answer; returns 1 if it was a row. */
static int check_scalable_row(const char *line, void *context) {
    const scalable_vector *vector = context;
    char key[64], text[2][64];
    unsigned probe;
    if (sscanf(line, "| `%63[^`]` | %63[0-9 ] | %63[a-z0-9 ] | %u |", key, text[0], text[1],
               &probe) != 4) {
        return 0;
    }
    key_hash h = hash_of_literal(key);
    bloom_header stage = header_of(64, 6, BLOOM_LAYOUT_STANDARD);
    char computed[128], answering[64] = "";
    CHECK_STR(positions_text(&stage, h, computed), trim(text[0]));
    for (int i = 0; i < 2; i++) {
        if (bloom_test(vector->blob + 64 + 72 * i + 64, &stage, h)) {
            snprintf(answering + strlen(answering), 8, "%s%d", answering[0] ? " " : "", i);
        }
    }
    CHECK_STR(answering[0] ? answering : "none", trim(text[1]));
    CHECK_U64(scalable_kind.might_contain(&vector->view, h), probe);
    return 1;
}

/* The kind-5 vector of docs/format.md section 6: the bytes, rebuilt through the core as the
** text says, and each row of its table. */
void test_scalable_format_vectors(const char *format_path) {
    static uint8_t scalable[1024], built[SCALABLE_BYTES_MAX];
    size_t scalable_len =
        format_section_bytes(format_path, "scalable-vector", scalable, sizeof scalable);
    /* bloom_build(k, 1, 0.1, 'scalable') over 1, 2, 3. */
    uint64_t bytes = scalable_empty(1, 0.1, BLOOM_LAYOUT_STANDARD, built);
    for (int64_t i = 1; i <= 3; i++) {
        CHECK(scalable_add_growing(built, &bytes, key_hash_integer(i)) == FILTER_OK);
    }
    CHECK_U64(scalable_len, 208);
    CHECK(scalable_len == bytes && memcmp(scalable, built, scalable_len) == 0);
    CHECK(load64(scalable, 64 + 32) == UINT64_C(0x3F947AE147AE147A)); /* p_0, as the text says */
    CHECK(load64(scalable, 136 + 32) == UINT64_C(0x3F90624DD2F1A9FB));
    /* The table. */
    scalable_vector vector = {.blob = scalable};
    char why[FILTER_WHY_MAX];
    CHECK(filter_open(scalable, scalable_len, &vector.view, why) == FILTER_OK);
    CHECK_U64(format_section_rows(format_path, "scalable-vector", check_scalable_row, &vector), 6);
}
