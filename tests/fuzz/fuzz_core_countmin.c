/*
** fuzz_core_countmin.c: the oracle of the count-min sketch kind (6), from
** docs/format.md 4.6: its validation, its model (the estimate the least of the
** key's counters and of the total, plain and conservative adds, FILTER_FULL
** past the largest total, merge adding counters), and the checks of
** countmin_core's own functions, of its sizing, and of its promises on fresh
** sketches given counts.
*/
#include "fuzz_core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Offsets of the count-min kind's own header fields, and its largest total. */
enum {
    OFF_WIDTH = 8,
    OFF_DEPTH = 16,
    OFF_UPDATE = 20,
    OFF_EPSILON = 24,
    OFF_DELTA = 32,
    OFF_TOTAL = 40,
    DEPTH_MAX = 64
};
#define TOTAL_MAX UINT64_C(9223372036854775807)

/* The fields of a count-min sketch, read from its bytes. */
typedef struct countmin_fields {
    uint64_t width;
    uint32_t depth;
    unsigned update; /* 0 plain, 1 conservative */
    double epsilon, delta;
    uint64_t total;
} countmin_fields;

static countmin_fields countmin_fields_of(const uint8_t *blob) {
    countmin_fields c;
    c.width = little_endian(blob + OFF_WIDTH, 8);
    c.depth = (uint32_t)little_endian(blob + OFF_DEPTH, 4);
    c.update = blob[OFF_UPDATE];
    c.epsilon = double_at(blob + OFF_EPSILON);
    c.delta = double_at(blob + OFF_DELTA);
    c.total = little_endian(blob + OFF_TOTAL, 8);
    return c;
}

static int countmin_is_reserved(size_t offset) {
    return (offset >= 21 && offset < 24) || offset >= 48;
}

static int countmin_valid(const uint8_t *blob, size_t size, char *why) {
    countmin_fields c = countmin_fields_of(blob);
    char text[32];
    if (c.depth < 1 || c.depth > DEPTH_MAX) {
        return refuse(why, "corrupt filter: depth %lu is outside 1..%d", (unsigned long)c.depth,
                      DEPTH_MAX);
    }
    uint64_t row_bytes = 8 * (uint64_t)c.depth, body = size - FILTER_HEADER_BYTES;
    if (c.width < 1 || body % row_bytes != 0 || body / row_bytes != c.width) {
        return refuse(why, "corrupt filter: width %llu and depth %lu do not fill %zu bytes",
                      (unsigned long long)c.width, (unsigned long)c.depth, size);
    }
    if (c.update > 1) {
        return refuse(why, "corrupt filter: update %u is not 0 or 1", c.update);
    }
    if (!(c.epsilon > 0.0 && c.epsilon < 1.0)) {
        return refuse(why, "corrupt filter: epsilon = %s is not between 0 and 1",
                      rate_text(text, c.epsilon));
    }
    if (!(c.delta > 0.0 && c.delta < 1.0)) {
        return refuse(why, "corrupt filter: delta = %s is not between 0 and 1",
                      rate_text(text, c.delta));
    }
    if (c.total > TOTAL_MAX) {
        return refuse(why, "corrupt filter: total %llu is more than %llu",
                      (unsigned long long)c.total, (unsigned long long)TOTAL_MAX);
    }
    return reserved_ok(blob, countmin_is_reserved, why);
}

static void countmin_encode_header(uint8_t *out, const uint8_t *blob) {
    countmin_fields c = countmin_fields_of(blob);
    countmin_header h = {c.width, c.depth, (uint8_t)c.update, c.epsilon, c.delta, c.total};
    countmin_write_header(out, &h);
}

/* The byte offsets of key's counters in the sketch blob, one a row: row i's column is the i-th
** position of a standard Bloom filter of k = depth and m = width. Returns depth. */
static uint32_t counter_offsets(const uint8_t *blob, key_hash key, uint64_t *offsets) {
    countmin_fields c = countmin_fields_of(blob);
    bloom_header positions = {BLOOM_LAYOUT_STANDARD, c.depth, c.width, 0, 0, 0};
    bloom_positions(&positions, key, offsets);
    for (uint32_t i = 0; i < c.depth; i++) {
        offsets[i] = FILTER_HEADER_BYTES + (i * c.width + offsets[i]) * 8;
    }
    return c.depth;
}

/* The estimate of key: the least of its counters (section 4.6), and of the total: the two differ
** only in a sketch whose counters pass its total, which section 4.6 does not write and section 5
** does not check (the code caps the estimate so, and so does this model). */
static uint64_t countmin_model_estimate(const uint8_t *blob, key_hash key) {
    uint64_t offsets[DEPTH_MAX], estimate = countmin_fields_of(blob).total;
    uint32_t depth = counter_offsets(blob, key, offsets);
    for (uint32_t i = 0; i < depth; i++) {
        uint64_t counter = little_endian(blob + offsets[i], 8);
        estimate = counter < estimate ? counter : estimate;
    }
    return estimate;
}

static int countmin_probe(const uint8_t *blob, key_hash key) {
    return countmin_model_estimate(blob, key) > 0;
}

/* a + b, kept at TOTAL_MAX, and TOTAL_MAX for an a above it: what a counter of a crafted sketch
** (above the total) becomes; one this code wrote never reaches it. */
static uint64_t add_counts(uint64_t a, uint64_t b) {
    return a > TOTAL_MAX || b > TOTAL_MAX - a ? TOTAL_MAX : a + b;
}

/* Adds count to key (section 4.6): FILTER_FULL, nothing written, when the total would pass
** TOTAL_MAX; else each counter up by count (plain, add_counts) or to at least the estimate
** before plus count (conservative), and the total up by count. *estimate: the estimate before
** plus count, or before when nothing was added. */
static filter_status countmin_model_add(uint8_t *blob, key_hash key, uint64_t count,
                                        uint64_t *estimate) {
    countmin_fields c = countmin_fields_of(blob);
    uint64_t offsets[DEPTH_MAX], before = countmin_model_estimate(blob, key);
    *estimate = before;
    if (count == 0) {
        return FILTER_OK;
    }
    if (count > TOTAL_MAX - c.total) {
        return FILTER_FULL;
    }
    *estimate = before + count;
    uint32_t depth = counter_offsets(blob, key, offsets);
    for (uint32_t i = 0; i < depth; i++) {
        uint64_t counter = little_endian(blob + offsets[i], 8);
        uint64_t raised = c.update == 1 ? (counter > *estimate ? counter : *estimate)
                                        : add_counts(counter, count);
        store_u64(blob + offsets[i], raised);
    }
    store_u64(blob + OFF_TOTAL, c.total + count);
    return FILTER_OK;
}

static filter_status countmin_add(uint8_t *blob, key_hash key, int *was_absent) {
    uint64_t estimate;
    *was_absent = !countmin_probe(blob, key);
    return countmin_model_add(blob, key, 1, &estimate);
}

/* The counters summed (add_counts), and the totals; FILTER_FULL, nothing written, when the
** total would pass TOTAL_MAX. */
static filter_status countmin_model_merge(uint8_t *dst, const uint8_t *src) {
    countmin_fields a = countmin_fields_of(dst), b = countmin_fields_of(src);
    if (b.total > TOTAL_MAX - a.total) {
        return FILTER_FULL;
    }
    for (uint64_t i = 0; i < a.width * a.depth; i++) {
        uint64_t offset = FILTER_HEADER_BYTES + 8 * i;
        store_u64(dst + offset,
                  add_counts(little_endian(dst + offset, 8), little_endian(src + offset, 8)));
    }
    store_u64(dst + OFF_TOTAL, a.total + b.total);
    return FILTER_OK;
}

/* ---- The kind's own functions, counts and updates ---- */

/* Aborts unless countmin_size sizes a sketch for the epsilon and delta of c as the header comment
** of countmin_core.h says: width ceil(e / epsilon), depth ceil(ln(1 / delta)) and at least 1, at
** most DEPTH_MAX (FILTER_TOO_MANY_HASHES, the depth given as DEPTH_MAX + 1), 64 + 8 width depth
** bytes (FILTER_TOO_BIG past FILTER_MAX_BYTES). */
static void check_countmin_size(const countmin_fields *c) {
    countmin_header out;
    double bytes_needed, width = ceil(exp(1.0) / c->epsilon), depth = ceil(-log(c->delta));
    depth = depth < 1 ? 1 : depth;
    double bytes = FILTER_HEADER_BYTES + width * depth * 8;
    filter_status expected = depth > DEPTH_MAX          ? FILTER_TOO_MANY_HASHES
                             : bytes > FILTER_MAX_BYTES ? FILTER_TOO_BIG
                                                        : FILTER_OK;
    filter_status status = countmin_size(c->epsilon, c->delta, (int)c->update, &out, &bytes_needed);
    if (status != expected ||
        (status == FILTER_TOO_MANY_HASHES ? out.depth != DEPTH_MAX + 1 : bytes_needed != bytes) ||
        (status == FILTER_OK &&
         ((double)out.width != width || out.depth != depth || out.update != c->update ||
          memcmp(&out.epsilon, &c->epsilon, sizeof out.epsilon) != 0 ||
          memcmp(&out.delta, &c->delta, sizeof out.delta) != 0 || out.total != 0))) {
        fuzz_fail("countmin_size(%.17g, %.17g) returns %d, width %llu, depth %lu; the model %d, "
                  "%.17g and %.17g",
                  c->epsilon, c->delta, status, (unsigned long long)out.width,
                  (unsigned long)out.depth, expected, width, depth);
    }
}

/* A fresh, empty sketch (malloc) of the geometry and parameters of f with the given update. */
static uint8_t *fresh_sketch(const filter_view *f, int update) {
    countmin_header h = countmin_header_of(f);
    uint8_t *blob = calloc(1, (size_t)f->bytes);
    if (blob == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)f->bytes);
    }
    h.update = (uint8_t)update;
    h.total = 0;
    countmin_write_header(blob, &h);
    return blob;
}

/* Adds count to key in the sketch blob (bytes long) through filter_io_memory; aborts unless
** that succeeds. */
static void sketch_add(uint8_t *blob, uint64_t bytes, key_hash key, uint64_t count) {
    filter_view view = open_bytes(blob, bytes, "a fresh sketch");
    filter_io io = filter_io_memory(blob);
    uint64_t estimate;
    if (countmin_add_io(&view, &io, key, count, &estimate) != FILTER_OK) {
        fuzz_fail("adding %llu to a fresh sketch fails", (unsigned long long)count);
    }
}

/*
** The promises of the count-min sketch, on fresh sketches of f's geometry: the keys added with
** counts (each 1 to 1000, the even ones a second time with 0 to 4), to a plain sketch, a
** conservative one, and each half of them to a plain and a conservative sketch. Every key's
** estimate is at least its true count in each (keys of equal hash count as one); the
** conservative one's at most the plain one's, counter by counter too; the plain halves merged
** are the plain sketch byte for byte (counters add up); the conservative halves merged keep
** every count and stay at most the plain sketch; a plain and a conservative sketch do not merge.
*/
static void check_countmin_updates(const filter_view *f, const key_hash *keys, size_t count) {
    enum { PLAIN, CONSERVATIVE, PLAIN_A, PLAIN_B, CONSERVATIVE_A, CONSERVATIVE_B, SKETCHES };
    uint8_t *sketch[SKETCHES];
    uint64_t truth[MAX_KEYS] = {0};
    char why[FILTER_WHY_MAX];
    for (int i = 0; i < SKETCHES; i++) {
        sketch[i] = fresh_sketch(f, i == CONSERVATIVE || i >= CONSERVATIVE_A);
    }
    for (size_t step = 0; step < 2 * count; step++) {
        size_t i = step % count;
        uint64_t amount = step < count ? 1 + keys[i].h2 % 1000 : keys[i].h1 % 5;
        if (step >= count && i % 2 != 0) {
            continue;
        }
        for (size_t j = 0; j < count; j++) {
            truth[j] += keys[j].h1 == keys[i].h1 && keys[j].h2 == keys[i].h2 ? amount : 0;
        }
        sketch_add(sketch[PLAIN], f->bytes, keys[i], amount);
        sketch_add(sketch[CONSERVATIVE], f->bytes, keys[i], amount);
        sketch_add(sketch[step % 2 ? PLAIN_B : PLAIN_A], f->bytes, keys[i], amount);
        sketch_add(sketch[step % 2 ? CONSERVATIVE_B : CONSERVATIVE_A], f->bytes, keys[i], amount);
    }
    filter_view plain = open_bytes(sketch[PLAIN], f->bytes, "a plain sketch");
    filter_view conservative = open_bytes(sketch[CONSERVATIVE], f->bytes, "a conservative sketch");
    filter_view plain_b = open_bytes(sketch[PLAIN_B], f->bytes, "a plain sketch");
    filter_view conservative_b = open_bytes(sketch[CONSERVATIVE_B], f->bytes, "a sketch");
    if (filter_compatible(&plain, &conservative, why) != FILTER_INVALID ||
        filter_compatible(&plain, &plain_b, why) != FILTER_OK ||
        countmin_kind.merge(sketch[PLAIN_A], &plain_b) != FILTER_OK ||
        memcmp(sketch[PLAIN_A], sketch[PLAIN], f->bytes) != 0) {
        fuzz_fail("the plain halves merged differ from the plain sketch of every count");
    }
    if (filter_compatible(&conservative, &conservative_b, why) != FILTER_OK ||
        countmin_kind.merge(sketch[CONSERVATIVE_A], &conservative_b) != FILTER_OK) {
        fuzz_fail("conservative sketches do not merge");
    }
    filter_view merged = open_bytes(sketch[CONSERVATIVE_A], f->bytes, "merged sketches");
    for (size_t i = 0; i < count; i++) {
        uint64_t p = countmin_estimate(&plain, keys[i]),
                 c = countmin_estimate(&conservative, keys[i]);
        uint64_t m = countmin_estimate(&merged, keys[i]);
        if (p < truth[i] || c < truth[i] || c > p || m < truth[i] || m > p) {
            fuzz_fail("key %zu, count %llu: plain %llu, conservative %llu, merged %llu", i,
                      (unsigned long long)truth[i], (unsigned long long)p, (unsigned long long)c,
                      (unsigned long long)m);
        }
    }
    for (uint64_t at = FILTER_HEADER_BYTES; at < f->bytes; at += 8) {
        uint64_t p = little_endian(sketch[PLAIN] + at, 8);
        if (little_endian(sketch[CONSERVATIVE] + at, 8) > p ||
            little_endian(sketch[CONSERVATIVE_A] + at, 8) > p) {
            fuzz_fail("a conservative counter is above the plain one at byte %llu",
                      (unsigned long long)at);
        }
    }
    for (int i = 0; i < SKETCHES; i++) {
        free(sketch[i]);
    }
}

/*
** The count-min kind's own functions: countmin_header_of and countmin_size; for each key,
** countmin_estimate and countmin_estimate_io (through the checked filter_io, a read failing)
** against the model; countmin_add_io of a count chosen by the key (0, 1, up to 1000, the room
** left, one more than it, 2^64 - 1) against the model: FILTER_FULL and nothing written past
** the room, the estimate after; then the promises on fresh sketches (check_countmin_updates).
*/
static void countmin_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    countmin_header h = countmin_header_of(f);
    countmin_fields c = countmin_fields_of(f->blob);
    io_target t = io_new();
    if (h.width != c.width || h.depth != c.depth || h.update != c.update ||
        memcmp(&h.epsilon, &c.epsilon, sizeof c.epsilon) != 0 ||
        memcmp(&h.delta, &c.delta, sizeof c.delta) != 0 || h.total != c.total ||
        countmin_update_name(h.update) == NULL) {
        fuzz_fail("countmin_header_of decodes other fields than the bytes hold");
    }
    check_countmin_size(&c);
    for (size_t i = 0; i < count; i++) {
        uint64_t expected = countmin_model_estimate(f->blob, keys[i]), estimate = 0, model_estimate;
        uint8_t *blob = duplicate(f->blob, f->bytes), *model = duplicate(f->blob, f->bytes);
        io_open(&t, blob, f, 0);
        filter_io io = io_of(&t, 1);
        if (countmin_estimate(f, keys[i]) != expected ||
            countmin_estimate_io(&t.view, &io, keys[i], &estimate) != FILTER_OK ||
            estimate != expected || t.writes != 0) {
            fuzz_fail("key %zu: countmin_estimate %llu, countmin_estimate_io %llu, the model %llu",
                      i, (unsigned long long)countmin_estimate(f, keys[i]),
                      (unsigned long long)estimate, (unsigned long long)expected);
        }
        io_open(&t, blob, f, 1 + (unsigned)(keys[i].h1 % c.depth));
        io = io_of(&t, 1);
        if (countmin_estimate_io(&t.view, &io, keys[i], &estimate) != FILTER_IO_FAILED) {
            fuzz_fail("countmin_estimate_io does not report a failed read");
        }
        const uint64_t counts[6] = {
            0, 1, 1 + keys[i].h2 % 1000, TOTAL_MAX - c.total, TOTAL_MAX - c.total + 1, UINT64_MAX};
        uint64_t amount = counts[keys[i].h1 % 6];
        io_open(&t, blob, f, 0);
        io = io_of(&t, 1);
        filter_status status = countmin_add_io(&t.view, &io, keys[i], amount, &estimate);
        filter_status model_status = countmin_model_add(model, keys[i], amount, &model_estimate);
        if (status != model_status || estimate != model_estimate ||
            memcmp(blob, model, f->bytes) != 0 || (status != FILTER_OK && t.writes != 0)) {
            fuzz_fail("countmin_add_io of %llu returns %d, estimate %llu; the model %d, %llu; the "
                      "bytes %s",
                      (unsigned long long)amount, status, (unsigned long long)estimate,
                      model_status, (unsigned long long)model_estimate,
                      memcmp(blob, model, f->bytes) != 0 ? "differ" : "agree");
        }
        unsigned calls = t.calls;
        memcpy(blob, f->blob, f->bytes);
        io_open(&t, blob, f, 1 + (unsigned)(keys[i].h2 % (calls > 0 ? calls : 1)));
        io = io_of(&t, 1);
        if (countmin_add_io(&t.view, &io, keys[i], amount, &estimate) != FILTER_IO_FAILED) {
            fuzz_fail("countmin_add_io does not report a failed read or write");
        }
        free(blob);
        free(model);
    }
    if (count > 0) {
        check_countmin_updates(f, keys, count);
    }
    io_close(&t);
}

const kind_oracle countmin_oracle = {.id = COUNTMIN_KIND,
                                     .is_reserved = countmin_is_reserved,
                                     .valid = countmin_valid,
                                     .encode_header = countmin_encode_header,
                                     .probe = countmin_probe,
                                     .add = countmin_add,
                                     .merge = countmin_model_merge,
                                     .check_own = countmin_check_own};
