/*
** fuzz_core_counting.c: the oracle of the counting Bloom kind (3), from
** docs/format.md 4.3: its validation, its model (4-bit counters at the standard
** layout's positions, up by add and saturating at 15, down by remove but at 15,
** summed by merge), and the checks of counting_core's own functions and of
** 4.3's promise that removing a key just added restores the filter.
*/
#include "fuzz_core.h"

#include <stdlib.h>
#include <string.h>

/* The offset of the counter width, the counting kind's own header field. */
enum { OFF_COUNTER_BITS = 12 };

static int counting_is_reserved(size_t offset) {
    return (offset >= 13 && offset < 16) || offset >= 48;
}

static int counting_valid(const uint8_t *blob, size_t size, char *why) {
    bloom_header h = bloom_fields_of(blob);
    if (!bloom_k_ok(&h, why)) {
        return 0;
    }
    if (blob[OFF_COUNTER_BITS] != 4) {
        return refuse(why, "corrupt filter: counters of %u bits, not 4", blob[OFF_COUNTER_BITS]);
    }
    if (h.m == 0 || h.m % 64 != 0) {
        return refuse(why, "corrupt filter: m = %llu counters is not a positive multiple of 64",
                      (unsigned long long)h.m);
    }
    if (h.m / 2 != size - FILTER_HEADER_BYTES) {
        return refuse(why, "corrupt filter: m = %llu counters need %llu bytes, the BLOB has %zu",
                      (unsigned long long)h.m, (unsigned long long)(FILTER_HEADER_BYTES + h.m / 2),
                      size);
    }
    return n_p_ok(h.n, h.p, why) && reserved_ok(blob, counting_is_reserved, why);
}

static void counting_encode_header(uint8_t *out, const uint8_t *blob) {
    bloom_header h = bloom_fields_of(blob);
    counting_write_header(out, &h);
}

/* Counter i of the counting filter blob: the low 4 bits of byte 64 + i / 2 when i is even,
** the high 4 bits when odd. */
static unsigned counter(const uint8_t *blob, uint64_t i) {
    return (blob[FILTER_HEADER_BYTES + i / 2] >> (i % 2 * 4)) & 0xF;
}

static void set_counter(uint8_t *blob, uint64_t i, unsigned v) {
    uint8_t *byte = &blob[FILTER_HEADER_BYTES + i / 2];
    unsigned shift = i % 2 * 4;
    *byte = (uint8_t)((*byte & ~(0xFu << shift)) | (v << shift));
}

/* The positions of key in the counting filter blob, and for each the times it appears among
** them (t_c); returns k. */
static uint32_t counters_of_key(const uint8_t *blob, key_hash key, uint64_t *positions,
                                unsigned *times) {
    uint32_t k = bloom_fields_of(blob).k;
    bloom_positions_of(blob, key, positions);
    for (uint32_t i = 0; i < k; i++) {
        times[i] = 0;
        for (uint32_t j = 0; j < k; j++) {
            times[i] += positions[j] == positions[i];
        }
    }
    return k;
}

/* Whether position i is the first of the key's positions at its counter. */
static int first_at(const uint64_t *positions, uint32_t i) {
    for (uint32_t j = 0; j < i; j++) {
        if (positions[j] == positions[i]) {
            return 0;
        }
    }
    return 1;
}

static int counting_probe(const uint8_t *blob, key_hash key) {
    uint64_t positions[BLOOM_K_MAX];
    uint32_t k = bloom_fields_of(blob).k;
    bloom_positions_of(blob, key, positions);
    for (uint32_t i = 0; i < k; i++) {
        if (counter(blob, positions[i]) == 0) {
            return 0;
        }
    }
    return 1;
}

static filter_status counting_add(uint8_t *blob, key_hash key, int *was_absent) {
    uint64_t positions[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    uint32_t k = counters_of_key(blob, key, positions, times);
    *was_absent = !counting_probe(blob, key);
    for (uint32_t i = 0; i < k; i++) {
        if (first_at(positions, i)) {
            unsigned v = counter(blob, positions[i]) + times[i];
            set_counter(blob, positions[i], v > 15 ? 15 : v);
        }
    }
    store_u64(blob + OFF_KEYS, saturating_sum(bloom_fields_of(blob).keys, 1));
    return FILTER_OK;
}

static filter_status counting_remove(uint8_t *blob, key_hash key) {
    uint64_t positions[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    uint32_t k = counters_of_key(blob, key, positions, times);
    uint64_t keys = bloom_fields_of(blob).keys;
    for (uint32_t i = 0; i < k; i++) {
        if (counter(blob, positions[i]) < times[i]) {
            return FILTER_ABSENT;
        }
    }
    for (uint32_t i = 0; i < k; i++) {
        unsigned v = counter(blob, positions[i]);
        if (first_at(positions, i) && v != 15) {
            set_counter(blob, positions[i], v - times[i]);
        }
    }
    store_u64(blob + OFF_KEYS, keys > 0 ? keys - 1 : 0);
    return FILTER_OK;
}

static filter_status counting_model_merge(uint8_t *dst, const uint8_t *src) {
    bloom_header a = bloom_fields_of(dst), b = bloom_fields_of(src);
    for (uint64_t i = 0; i < a.m; i++) {
        unsigned v = counter(dst, i) + counter(src, i);
        set_counter(dst, i, v > 15 ? 15 : v);
    }
    store_u64(dst + OFF_KEYS, saturating_sum(a.keys, b.keys));
    return FILTER_OK;
}

/* Whether adding key to the counting filter blob saturates a counter: takes one below 15 to
** 15, which a remove then leaves at 15. */
static int saturates(const uint8_t *blob, key_hash key) {
    uint64_t positions[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    uint32_t k = counters_of_key(blob, key, positions, times);
    for (uint32_t i = 0; i < k; i++) {
        unsigned v = counter(blob, positions[i]);
        if (v < 15 && v + times[i] >= 15) {
            return 1;
        }
    }
    return 0;
}

/* The counting kind's own functions: counting_blob_bytes, counting_counter and
** counting_measure against the counters; and the promise of 4.3 that removing a key just
** added restores the filter byte for byte, unless a counter saturated or the count of keys
** was at its maximum. */
static void counting_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    bloom_header h = bloom_fields_of(f->blob);
    counting_fill fill = counting_measure(&h, f->blob + FILTER_HEADER_BYTES);
    uint64_t nonzero = 0, saturated = 0;
    if (counting_blob_bytes(h.m) != f->bytes) {
        fuzz_fail("counting_blob_bytes(%llu) is %llu, not %llu", (unsigned long long)h.m,
                  (unsigned long long)counting_blob_bytes(h.m), (unsigned long long)f->bytes);
    }
    for (uint64_t i = 0; i < h.m; i++) {
        unsigned c = counter(f->blob, i);
        if (counting_counter(f->blob + FILTER_HEADER_BYTES, i) != c) {
            fuzz_fail("counting_counter(%llu) is %u, the byte holds %u", (unsigned long long)i,
                      counting_counter(f->blob + FILTER_HEADER_BYTES, i), c);
        }
        nonzero += c != 0;
        saturated += c == 15;
    }
    if (fill.nonzero != nonzero || fill.saturated != saturated) {
        fuzz_fail("counting_measure counts %llu nonzero and %llu saturated, not %llu and %llu",
                  (unsigned long long)fill.nonzero, (unsigned long long)fill.saturated,
                  (unsigned long long)nonzero, (unsigned long long)saturated);
    }
    for (size_t i = 0; i < count; i++) {
        uint64_t positions[BLOOM_K_MAX];
        bloom_positions_of(f->blob, keys[i], positions);
        for (uint32_t j = 0; j < h.k; j++) {
            if (positions[j] >= h.m) {
                fuzz_fail("position %llu of %llu counters", (unsigned long long)positions[j],
                          (unsigned long long)h.m);
            }
        }
        uint8_t *blob;
        if (add_then_remove(f, keys[i], &blob) != FILTER_OK) {
            fuzz_fail("a counting filter has no room for key %zu", i);
        }
        if (!saturates(f->blob, keys[i]) && h.keys != UINT64_MAX &&
            memcmp(blob, f->blob, f->bytes) != 0) {
            fuzz_fail("adding then removing key %zu, with no counter saturated, changes the "
                      "filter",
                      i);
        }
        free(blob);
    }
}

const kind_oracle counting_oracle = {.id = COUNTING_KIND,
                                     .is_reserved = counting_is_reserved,
                                     .valid = counting_valid,
                                     .encode_header = counting_encode_header,
                                     .probe = counting_probe,
                                     .add = counting_add,
                                     .remove = counting_remove,
                                     .merge = counting_model_merge,
                                     .check_own = counting_check_own};
