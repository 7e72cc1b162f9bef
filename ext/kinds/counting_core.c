/*
** counting_core.c: the counting Bloom filter kind. See counting_core.h for
** the contracts and docs/format.md for the bytes.
*/
#include "counting_core.h"

#include "filter_info.h"
#include "little_endian.h"

#include <math.h>
#include <string.h>

/* Offset of the counter width in the header: the first of the Bloom header's reserved bytes. */
enum { OFF_COUNTER_BITS = BLOOM_OFF_RESERVED_A };

uint64_t counting_blob_bytes(uint64_t m) {
    return FILTER_HEADER_BYTES + m / 2 + (m & 1);
}

void counting_write_header(uint8_t *blob, const bloom_header *h) {
    bloom_write_header(blob, h);
    filter_write_prelude(blob, &counting_kind);
    blob[OFF_COUNTER_BITS] = COUNTING_COUNTER_BITS;
}

/* The header of a counting filter, its positions those of the standard layout. */
static bloom_header counting_header_of(const filter_view *f) {
    bloom_header h = bloom_header_of(f);
    h.layout = BLOOM_LAYOUT_STANDARD;
    return h;
}

/* The counters: the bytes after the header. */
static const uint8_t *counting_counters_of(const filter_view *f) {
    return f->blob + FILTER_HEADER_BYTES;
}

/* The kind's validate: the fields against the BLOB's length (docs/format.md). */
static filter_status counting_kind_validate(const filter_view *f, char *why) {
    bloom_header h = counting_header_of(f);
    if (h.k < 1 || h.k > BLOOM_K_MAX) {
        return filter_invalid(why, "corrupt filter: k = %lu is outside 1..%d", (unsigned long)h.k,
                              BLOOM_K_MAX);
    }
    if (f->blob[OFF_COUNTER_BITS] != COUNTING_COUNTER_BITS) {
        return filter_invalid(why, "corrupt filter: counters of %u bits, not %d",
                              f->blob[OFF_COUNTER_BITS], COUNTING_COUNTER_BITS);
    }
    if (h.m == 0 || h.m % 64 != 0) {
        return filter_invalid(why,
                              "corrupt filter: m = %llu counters is not a positive multiple "
                              "of 64",
                              (unsigned long long)h.m);
    }
    if (counting_blob_bytes(h.m) != f->bytes) {
        return filter_invalid(
            why, "corrupt filter: m = %llu counters need %llu bytes, the BLOB has %llu",
            (unsigned long long)h.m, (unsigned long long)counting_blob_bytes(h.m),
            (unsigned long long)f->bytes);
    }
    if (filter_check_capacity(h.n, h.p, why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    return filter_check_reserved(f, OFF_COUNTER_BITS + 1, BLOOM_OFF_M, why);
}

counting_fill counting_measure(const bloom_header *h, const uint8_t *counters) {
    counting_fill fill = {0, 0};
    for (uint64_t i = 0; i < h->m; i++) {
        unsigned c = counting_counter(counters, i);
        fill.nonzero += c != 0;
        fill.saturated += c == COUNTING_COUNTER_MAX;
    }
    return fill;
}

/* The counters a key touches: each distinct position once, with how many of the k it is. */
typedef struct counting_key_counters {
    uint32_t count;
    uint64_t position[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    unsigned value[BLOOM_K_MAX]; /* as read */
} counting_key_counters;

/* The distinct positions of key in a filter with header h. */
static void counting_find_counters(const bloom_header *h, key_hash key,
                                   counting_key_counters *out) {
    uint64_t positions[BLOOM_K_MAX];
    bloom_positions(h, key, positions);
    out->count = 0;
    for (uint32_t i = 0; i < h->k; i++) {
        uint32_t j = 0;
        while (j < out->count && out->position[j] != positions[i]) {
            j++;
        }
        if (j == out->count) {
            out->position[out->count] = positions[i];
            out->times[out->count++] = 0;
        }
        out->times[j]++;
    }
}

/* Offset in the BLOB of the byte that holds counter i. */
static uint64_t counting_counter_offset(uint64_t i) {
    return FILTER_HEADER_BYTES + (i >> 1);
}

/* Reads the values of the counters of c through io. */
static filter_status counting_read_counters(filter_io *io, counting_key_counters *c) {
    for (uint32_t j = 0; j < c->count; j++) {
        uint8_t byte;
        if (io->read(io->state, counting_counter_offset(c->position[j]), &byte, 1) != 0) {
            return FILTER_IO_FAILED;
        }
        c->value[j] = (byte >> ((c->position[j] & 1) * 4)) & 0xF;
    }
    return FILTER_OK;
}

/* The counters of key in a filter of header h, with their values, read through io. */
static filter_status counting_read_key_counters(const bloom_header *h, filter_io *io, key_hash key,
                                                counting_key_counters *c) {
    counting_find_counters(h, key, c);
    return counting_read_counters(io, c);
}

/* Writes the values of the counters of c through io, each byte read again so that two
** counters of one byte both land. */
static filter_status counting_write_counters(filter_io *io, const counting_key_counters *c) {
    for (uint32_t j = 0; j < c->count; j++) {
        uint8_t byte;
        unsigned shift = (c->position[j] & 1) * 4;
        uint64_t offset = counting_counter_offset(c->position[j]);
        if (io->read(io->state, offset, &byte, 1) != 0) {
            return FILTER_IO_FAILED;
        }
        byte = (uint8_t)((byte & ~(0xFu << shift)) | (c->value[j] << shift));
        if (io->write(io->state, offset, &byte, 1) != 0) {
            return FILTER_IO_FAILED;
        }
    }
    return FILTER_OK;
}

/* Writes keys as the filter's count of keys. */
static filter_status counting_write_keys(filter_io *io, uint64_t keys) {
    uint8_t bytes[8];
    le_store64(bytes, keys);
    return io->write(io->state, BLOOM_OFF_KEYS, bytes, sizeof bytes) != 0 ? FILTER_IO_FAILED
                                                                          : FILTER_OK;
}

/* The kind's might_contain: every counter of the key above 0. */
static int counting_kind_might_contain(const filter_view *f, key_hash key) {
    bloom_header h = counting_header_of(f);
    uint64_t positions[BLOOM_K_MAX];
    bloom_positions(&h, key, positions);
    for (uint32_t i = 0; i < h.k; i++) {
        if (counting_counter(counting_counters_of(f), positions[i]) == 0) {
            return 0;
        }
    }
    return 1;
}

static filter_status counting_kind_might_contain_io(const filter_view *f, filter_io *io,
                                                    key_hash key, int *answer) {
    bloom_header h = counting_header_of(f);
    counting_key_counters c;
    if (counting_read_key_counters(&h, io, key, &c) != FILTER_OK) {
        return FILTER_IO_FAILED;
    }
    *answer = 1;
    for (uint32_t j = 0; j < c.count; j++) {
        *answer &= c.value[j] != 0;
    }
    return FILTER_OK;
}

/* The kind's add_io: each counter of the key up by the times the key has it, to at most
** COUNTING_COUNTER_MAX; one more key. */
static filter_status counting_kind_add_io(const filter_view *f, filter_io *io, key_hash key,
                                          int *was_absent) {
    bloom_header h = counting_header_of(f);
    counting_key_counters c;
    if (counting_read_key_counters(&h, io, key, &c) != FILTER_OK) {
        return FILTER_IO_FAILED;
    }
    *was_absent = 0;
    for (uint32_t j = 0; j < c.count; j++) {
        *was_absent |= c.value[j] == 0;
        c.value[j] += c.value[j] + c.times[j] > COUNTING_COUNTER_MAX
                          ? COUNTING_COUNTER_MAX - c.value[j]
                          : c.times[j];
    }
    if (counting_write_counters(io, &c) != FILTER_OK) {
        return FILTER_IO_FAILED;
    }
    return counting_write_keys(io, filter_add_counts(h.keys, 1));
}

/* The kind's remove_io: FILTER_ABSENT unless every counter of the key holds it (at least the
** times the key has it, or saturated); then each down by those times, but a saturated one. */
static filter_status counting_kind_remove_io(const filter_view *f, filter_io *io, key_hash key) {
    bloom_header h = counting_header_of(f);
    counting_key_counters c;
    if (counting_read_key_counters(&h, io, key, &c) != FILTER_OK) {
        return FILTER_IO_FAILED;
    }
    for (uint32_t j = 0; j < c.count; j++) {
        if (c.value[j] < c.times[j]) {
            return FILTER_ABSENT;
        }
    }
    for (uint32_t j = 0; j < c.count; j++) {
        c.value[j] -= c.value[j] == COUNTING_COUNTER_MAX ? 0 : c.times[j];
    }
    if (counting_write_counters(io, &c) != FILTER_OK) {
        return FILTER_IO_FAILED;
    }
    return counting_write_keys(io, h.keys > 0 ? h.keys - 1 : 0);
}

/* The kind's write_header. */
static void counting_kind_write_header(uint8_t *dst, const filter_view *f) {
    bloom_header h = bloom_header_of(f);
    counting_write_header(dst, &h);
}

/* The kind's compatible: the same m and k. */
static filter_status counting_kind_compatible(const filter_view *a, const filter_view *b,
                                              char *why) {
    bloom_header a_header = counting_header_of(a), b_header = counting_header_of(b);
    return bloom_check_compatible(&a_header, &b_header, why);
}

/* The kind's merge: counters added, to at most COUNTING_COUNTER_MAX; keys added summed. */
static filter_status counting_kind_merge(uint8_t *blob, const filter_view *f) {
    filter_view into = {&counting_kind, 0, 0, 0, blob, 0};
    bloom_header a = counting_header_of(&into), b = counting_header_of(f);
    uint8_t *counters = blob + FILTER_HEADER_BYTES;
    for (uint64_t i = 0; i < a.m / 2; i++) {
        unsigned low = (counters[i] & 0xF) + (counting_counters_of(f)[i] & 0xF);
        unsigned high = (counters[i] >> 4) + (counting_counters_of(f)[i] >> 4);
        low = low > COUNTING_COUNTER_MAX ? COUNTING_COUNTER_MAX : low;
        high = high > COUNTING_COUNTER_MAX ? COUNTING_COUNTER_MAX : high;
        counters[i] = (uint8_t)(low | high << 4);
    }
    le_store64(blob + BLOOM_OFF_KEYS, filter_add_counts(a.keys, b.keys));
    return FILTER_OK;
}

/* The fields of bloom_info: the Bloom fields, the nonzero counters as the bits set, and the
** saturated counters. O(m). */
static void counting_kind_info(const filter_view *f, info_sink *sink) {
    bloom_header h = bloom_header_of(f);
    h.layout = BLOOM_LAYOUT_STANDARD;
    counting_fill counters = counting_measure(&h, f->blob + FILTER_HEADER_BYTES);
    double in_use = (double)counters.nonzero / (double)h.m;
    bloom_fill fill = bloom_estimate(&h, counters.nonzero, pow(in_use, h.k));
    bloom_info_fields(f, &h, &fill, "counters_nonzero", sink);
    info_count(sink, "counter_bits", COUNTING_COUNTER_BITS);
    info_count(sink, "counters_saturated", counters.saturated);
}

const filter_kind counting_kind = {
    .id = COUNTING_KIND,
    .name = "counting",
    .format_version = COUNTING_FORMAT_VERSION,
    .key_hash = KEY_HASH_XXH3_128,
    .count_offset = BLOOM_OFF_KEYS,
    .count_by_steps = 1,
    .validate = counting_kind_validate,
    .might_contain = counting_kind_might_contain,
    .write_header = counting_kind_write_header,
    .compatible = counting_kind_compatible,
    .merge = counting_kind_merge,
    .might_contain_io = counting_kind_might_contain_io,
    .add_io = counting_kind_add_io,
    .remove_io = counting_kind_remove_io,
    .info = counting_kind_info,
};
