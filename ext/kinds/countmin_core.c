/*
** countmin_core.c: the count-min sketch kind. See countmin_core.h for the
** contracts and docs/format.md for the bytes.
*/
#include "countmin_core.h"

#include "filter_info.h"
#include "hash_math.h"
#include "little_endian.h"

#include <math.h>
#include <string.h>

/* Offsets of the header's fields, after the prelude. */
enum {
    OFF_WIDTH = 8,
    OFF_DEPTH = 16,
    OFF_UPDATE = 20,
    OFF_RESERVED_A = 21, /* 3 bytes */
    OFF_EPSILON = 24,
    OFF_DELTA = 32,
    OFF_TOTAL = 40
};

/* Bytes of a counter. */
enum { COUNTER_BYTES = COUNTMIN_COUNTER_BITS / 8 };

const char *countmin_update_name(int update) {
    return update == COUNTMIN_PLAIN          ? "plain"
           : update == COUNTMIN_CONSERVATIVE ? "conservative"
                                             : NULL;
}

filter_status countmin_size(double epsilon, double delta, int update, countmin_header *out,
                            double *bytes_needed) {
    memset(out, 0, sizeof *out);
    *bytes_needed = 0;
    if (filter_check_rate(epsilon) != FILTER_OK || filter_check_rate(delta) != FILTER_OK ||
        countmin_update_name(update) == NULL) {
        return FILTER_BAD_ARGUMENT;
    }
    out->epsilon = epsilon;
    out->delta = delta;
    out->update = (uint8_t)update;
    double width = ceil(exp(1.0) / epsilon), depth = ceil(-log(delta));
    depth = depth < 1 ? 1 : depth;
    out->depth = depth > COUNTMIN_DEPTH_MAX ? COUNTMIN_DEPTH_MAX + 1 : (uint32_t)depth;
    if (depth > COUNTMIN_DEPTH_MAX) {
        return FILTER_TOO_MANY_HASHES;
    }
    *bytes_needed = FILTER_HEADER_BYTES + width * depth * COUNTER_BYTES;
    if (*bytes_needed > FILTER_MAX_BYTES) {
        return FILTER_TOO_BIG;
    }
    out->width = (uint64_t)width;
    return FILTER_OK;
}

void countmin_write_header(uint8_t *blob, const countmin_header *h) {
    memset(blob, 0, FILTER_HEADER_BYTES);
    filter_write_prelude(blob, &countmin_kind);
    le_store64(blob + OFF_WIDTH, h->width);
    le_store32(blob + OFF_DEPTH, h->depth);
    blob[OFF_UPDATE] = h->update;
    le_store64(blob + OFF_EPSILON, le_double_bits(h->epsilon));
    le_store64(blob + OFF_DELTA, le_double_bits(h->delta));
    le_store64(blob + OFF_TOTAL, h->total);
}

countmin_header countmin_header_of(const filter_view *f) {
    countmin_header h;
    h.width = le_load64(f->blob + OFF_WIDTH);
    h.depth = le_load32(f->blob + OFF_DEPTH);
    h.update = f->blob[OFF_UPDATE];
    h.epsilon = le_bits_double(le_load64(f->blob + OFF_EPSILON));
    h.delta = le_bits_double(le_load64(f->blob + OFF_DELTA));
    h.total = le_load64(f->blob + OFF_TOTAL);
    return h;
}

/* The kind's validate: the fields, and the counters filling the BLOB. */
static filter_status countmin_kind_validate(const filter_view *f, char *why) {
    countmin_header h = countmin_header_of(f);
    char text[32];
    if (h.depth < 1 || h.depth > COUNTMIN_DEPTH_MAX) {
        return filter_invalid(why, "corrupt filter: depth %lu is outside 1..%d",
                              (unsigned long)h.depth, COUNTMIN_DEPTH_MAX);
    }
    if (h.width < 1 || h.width > (f->bytes - FILTER_HEADER_BYTES) / COUNTER_BYTES / h.depth ||
        FILTER_HEADER_BYTES + h.width * h.depth * COUNTER_BYTES != f->bytes) {
        return filter_invalid(
            why, "corrupt filter: width %llu and depth %lu do not fill %llu bytes",
            (unsigned long long)h.width, (unsigned long)h.depth, (unsigned long long)f->bytes);
    }
    if (countmin_update_name(h.update) == NULL) {
        return filter_invalid(why, "corrupt filter: update %u is not 0 or 1", h.update);
    }
    if (filter_check_rate(h.epsilon) != FILTER_OK) {
        return filter_invalid(why, "corrupt filter: epsilon = %s is not between 0 and 1",
                              filter_format_double(text, h.epsilon));
    }
    if (filter_check_rate(h.delta) != FILTER_OK) {
        return filter_invalid(why, "corrupt filter: delta = %s is not between 0 and 1",
                              filter_format_double(text, h.delta));
    }
    if (h.total > COUNTMIN_TOTAL_MAX) {
        return filter_invalid(why, "corrupt filter: total %llu is more than %llu",
                              (unsigned long long)h.total, (unsigned long long)COUNTMIN_TOTAL_MAX);
    }
    return filter_check_reserved(f, OFF_RESERVED_A, OFF_EPSILON, why);
}

/* The byte offsets of key's counters, one a row, into offsets[0..depth-1]: row i's column is
** the i-th position of double hashing (hash_positions) of k = depth in [0, width), as a
** standard Bloom filter of k = depth and m = width places it. */
static void countmin_counter_offsets(const countmin_header *h, key_hash key, uint64_t *offsets) {
    hash_positions(key, h->depth, h->width, offsets);
    for (uint32_t i = 0; i < h->depth; i++) {
        offsets[i] = FILTER_HEADER_BYTES + (i * h->width + offsets[i]) * COUNTER_BYTES;
    }
}

/* a + b, at most COUNTMIN_TOTAL_MAX: counters of a sketch this code wrote never reach it, but
** those of a crafted one may be anything. */
static uint64_t countmin_add_counts(uint64_t a, uint64_t b) {
    return a > COUNTMIN_TOTAL_MAX || b > COUNTMIN_TOTAL_MAX - a ? COUNTMIN_TOTAL_MAX : a + b;
}

uint64_t countmin_estimate(const filter_view *f, key_hash key) {
    countmin_header h = countmin_header_of(f);
    uint64_t offsets[COUNTMIN_DEPTH_MAX], estimate = h.total; /* no count is above the total */
    countmin_counter_offsets(&h, key, offsets);
    for (uint32_t i = 0; i < h.depth; i++) {
        uint64_t counter = le_load64(f->blob + offsets[i]);
        estimate = counter < estimate ? counter : estimate;
    }
    return estimate;
}

/* Reads key's counters through io into counters, their offsets into offsets, and the least
** into *estimate. */
static filter_status countmin_read_counters(const countmin_header *h, filter_io *io, key_hash key,
                                            uint64_t *offsets, uint64_t *counters,
                                            uint64_t *estimate) {
    countmin_counter_offsets(h, key, offsets);
    *estimate = h->total; /* no count is above the total */
    for (uint32_t i = 0; i < h->depth; i++) {
        uint8_t bytes[COUNTER_BYTES];
        if (io->read(io->state, offsets[i], bytes, sizeof bytes) != 0) {
            return FILTER_IO_FAILED;
        }
        counters[i] = le_load64(bytes);
        *estimate = counters[i] < *estimate ? counters[i] : *estimate;
    }
    return FILTER_OK;
}

filter_status countmin_estimate_io(const filter_view *f, filter_io *io, key_hash key,
                                   uint64_t *estimate) {
    countmin_header h = countmin_header_of(f);
    uint64_t offsets[COUNTMIN_DEPTH_MAX], counters[COUNTMIN_DEPTH_MAX];
    return countmin_read_counters(&h, io, key, offsets, counters, estimate);
}

/* Writes the 64-bit value v at offset through io. */
static int countmin_write_counter(filter_io *io, uint64_t offset, uint64_t v) {
    uint8_t bytes[COUNTER_BYTES];
    le_store64(bytes, v);
    return io->write(io->state, offset, bytes, sizeof bytes);
}

filter_status countmin_add_io(const filter_view *f, filter_io *io, key_hash key, uint64_t count,
                              uint64_t *estimate) {
    countmin_header h = countmin_header_of(f);
    uint64_t offsets[COUNTMIN_DEPTH_MAX], counters[COUNTMIN_DEPTH_MAX], before;
    filter_status status = countmin_read_counters(&h, io, key, offsets, counters, &before);
    *estimate = before;
    if (status != FILTER_OK || count == 0) {
        return status;
    }
    if (count > COUNTMIN_TOTAL_MAX - h.total) {
        return FILTER_FULL;
    }
    *estimate = before + count; /* at most the new total */
    for (uint32_t i = 0; i < h.depth; i++) {
        uint64_t now = h.update == COUNTMIN_CONSERVATIVE
                           ? (counters[i] > *estimate ? counters[i] : *estimate)
                           : countmin_add_counts(counters[i], count);
        if (now != counters[i] && countmin_write_counter(io, offsets[i], now) != 0) {
            return FILTER_IO_FAILED;
        }
    }
    return countmin_write_counter(io, OFF_TOTAL, h.total + count) != 0 ? FILTER_IO_FAILED
                                                                       : FILTER_OK;
}

/* The kind's might_contain: an estimate above 0. */
static int countmin_kind_might_contain(const filter_view *f, key_hash key) {
    return countmin_estimate(f, key) > 0;
}

/* The kind's write_header. */
static void countmin_kind_write_header(uint8_t *dst, const filter_view *f) {
    countmin_header h = countmin_header_of(f);
    countmin_write_header(dst, &h);
}

/* The kind's compatible: the same width, depth and update. */
static filter_status countmin_kind_compatible(const filter_view *a, const filter_view *b,
                                              char *why) {
    countmin_header ha = countmin_header_of(a), hb = countmin_header_of(b);
    char ea[32], da[32], eb[32], db[32];
    if (ha.width != hb.width || ha.depth != hb.depth) {
        return filter_invalid(why,
                              "incompatible filters: count-min sketches of width %llu and depth "
                              "%lu (epsilon = %s, delta = %s) and of width %llu and depth %lu "
                              "(epsilon = %s, delta = %s); build both with the same epsilon "
                              "and delta",
                              (unsigned long long)ha.width, (unsigned long)ha.depth,
                              filter_format_double(ea, ha.epsilon),
                              filter_format_double(da, ha.delta), (unsigned long long)hb.width,
                              (unsigned long)hb.depth, filter_format_double(eb, hb.epsilon),
                              filter_format_double(db, hb.delta));
    }
    if (ha.update != hb.update) {
        return filter_invalid(why,
                              "incompatible filters: a count-min sketch of the %s update and "
                              "one of the %s update; build both with the same update",
                              countmin_update_name(ha.update), countmin_update_name(hb.update));
    }
    return FILTER_OK;
}

/* The kind's merge: the counters and totals summed; FILTER_FULL when the total would pass
** COUNTMIN_TOTAL_MAX. A sum of conservative sketches is never below a key's count, nor above
** the plain sketch of both streams; it may be above the conservative sketch of both. */
static filter_status countmin_kind_merge(uint8_t *blob, const filter_view *f) {
    filter_view into = {&countmin_kind, 0, 0, 0, blob, 0};
    countmin_header h = countmin_header_of(&into), from = countmin_header_of(f);
    if (from.total > COUNTMIN_TOTAL_MAX - h.total) {
        return FILTER_FULL;
    }
    uint64_t counters = h.width * h.depth;
    for (uint64_t i = 0; i < counters; i++) {
        uint64_t offset = FILTER_HEADER_BYTES + i * COUNTER_BYTES;
        le_store64(blob + offset,
                   countmin_add_counts(le_load64(blob + offset), le_load64(f->blob + offset)));
    }
    le_store64(blob + OFF_TOTAL, h.total + from.total);
    return FILTER_OK;
}

/* The kind's might_contain_io. */
static filter_status countmin_kind_might_contain_io(const filter_view *f, filter_io *io,
                                                    key_hash key, int *answer) {
    uint64_t estimate;
    filter_status status = countmin_estimate_io(f, io, key, &estimate);
    *answer = estimate > 0;
    return status;
}

/* The kind's add_io: a count of 1. */
static filter_status countmin_kind_add_io(const filter_view *f, filter_io *io, key_hash key,
                                          int *was_absent) {
    uint64_t estimate;
    filter_status status = countmin_add_io(f, io, key, 1, &estimate);
    *was_absent = estimate == 1;
    return status;
}

/* The fields of bloom_info and cms_info: the header, the bound on the error it gives, and the
** counters in use. O(size). */
static void countmin_kind_info(const filter_view *f, info_sink *sink) {
    countmin_header h = countmin_header_of(f);
    uint64_t counters = h.width * h.depth, nonzero = 0;
    for (uint64_t i = 0; i < counters; i++) {
        const uint8_t *counter = f->blob + FILTER_HEADER_BYTES + i * (COUNTMIN_COUNTER_BITS / 8);
        static const uint8_t zero[COUNTMIN_COUNTER_BITS / 8];
        nonzero += memcmp(counter, zero, sizeof zero) != 0;
    }
    info_count(sink, "width", h.width);
    info_count(sink, "depth", h.depth);
    info_count(sink, "counter_bits", COUNTMIN_COUNTER_BITS);
    info_string(sink, "update", countmin_update_name(h.update));
    info_real(sink, "epsilon", h.epsilon);
    info_real(sink, "delta", h.delta);
    info_count(sink, "bytes", f->bytes);
    info_count(sink, "total", h.total);
    info_real(sink, "error_bound", h.epsilon * (double)h.total);
    info_count(sink, "counters_nonzero", nonzero);
}

const filter_kind countmin_kind = {
    .id = COUNTMIN_KIND,
    .name = "countmin",
    .format_version = COUNTMIN_FORMAT_VERSION,
    .key_hash = KEY_HASH_XXH3_128,
    .count_offset = OFF_TOTAL,
    .validate = countmin_kind_validate,
    .might_contain = countmin_kind_might_contain,
    .write_header = countmin_kind_write_header,
    .compatible = countmin_kind_compatible,
    .merge = countmin_kind_merge,
    .might_contain_io = countmin_kind_might_contain_io,
    .add_io = countmin_kind_add_io,
    .estimate_io = countmin_estimate_io,
    .add_count_io = countmin_add_io,
    .noun = "sketch",
    .full_advice = "whose counts would add up to more than 9223372036854775807, the largest "
                   "INTEGER",
    .info = countmin_kind_info,
};
