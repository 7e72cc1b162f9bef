/*
** fuzz_core_bloom.c: the oracle of the two Bloom kinds, standard (1) and
** blocked (2), from docs/format.md 4.1 and 4.2: their validation, their model
** (bits set at the key's positions), and the checks of bloom_core's own
** functions (positions, set and test, compatible, merge, fill measures). Its
** fields and model serve the kinds made of Bloom filters too (fuzz_core.h).
*/
#include "fuzz_core.h"
#include "hash_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bloom_header bloom_fields_of(const uint8_t *blob) {
    bloom_header h;
    h.layout = blob[FILTER_OFF_KIND];
    h.k = (uint32_t)little_endian(blob + OFF_K, 4);
    h.m = little_endian(blob + OFF_M, 8);
    h.n = little_endian(blob + OFF_N, 8);
    h.p = double_at(blob + OFF_P);
    h.keys = little_endian(blob + OFF_KEYS, 8);
    return h;
}

void bloom_positions_of(const uint8_t *blob, key_hash key, uint64_t *positions) {
    bloom_header h = bloom_fields_of(blob);
    h.layout =
        h.layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LAYOUT_BLOCKED : (uint8_t)BLOOM_LAYOUT_STANDARD;
    bloom_positions(&h, key, positions);
}

int bloom_k_ok(const bloom_header *h, char *why) {
    if (h->k < 1 || h->k > BLOOM_K_MAX) {
        return refuse(why, "corrupt filter: k = %lu is outside 1..%d", (unsigned long)h->k,
                      BLOOM_K_MAX);
    }
    return 1;
}

static int bloom_is_reserved(size_t offset) {
    return (offset >= 12 && offset < 16) || offset >= 48;
}

static int bloom_valid(const uint8_t *blob, size_t size, char *why) {
    bloom_header h = bloom_fields_of(blob);
    uint64_t unit = h.layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LINE_BITS : 64;
    if (!bloom_k_ok(&h, why)) {
        return 0;
    }
    if (h.m == 0 || h.m % unit != 0) {
        return refuse(why, "corrupt filter: m = %llu bits is not a positive multiple of %llu",
                      (unsigned long long)h.m, (unsigned long long)unit);
    }
    if (h.m / 8 != size - FILTER_HEADER_BYTES) {
        return refuse(why, "corrupt filter: m = %llu bits needs %llu bytes, the BLOB has %zu",
                      (unsigned long long)h.m, (unsigned long long)(FILTER_HEADER_BYTES + h.m / 8),
                      size);
    }
    return n_p_ok(h.n, h.p, why) && reserved_ok(blob, bloom_is_reserved, why);
}

static void bloom_encode_header(uint8_t *out, const uint8_t *blob) {
    bloom_header h = bloom_fields_of(blob);
    bloom_write_header(out, &h);
}

int bloom_model_probe(const uint8_t *blob, key_hash key) {
    uint64_t positions[BLOOM_K_MAX];
    uint32_t k = bloom_fields_of(blob).k;
    bloom_positions_of(blob, key, positions);
    for (uint32_t i = 0; i < k; i++) {
        if (!bit_is_set(blob + FILTER_HEADER_BYTES, positions[i])) {
            return 0;
        }
    }
    return 1;
}

filter_status bloom_model_add(uint8_t *blob, key_hash key, int *was_absent) {
    uint64_t positions[BLOOM_K_MAX];
    bloom_header h = bloom_fields_of(blob);
    *was_absent = !bloom_model_probe(blob, key);
    bloom_positions_of(blob, key, positions);
    for (uint32_t i = 0; i < h.k; i++) {
        blob[FILTER_HEADER_BYTES + positions[i] / 8] |= (uint8_t)(1u << (positions[i] % 8));
    }
    store_u64(blob + OFF_KEYS, saturating_sum(h.keys, 1));
    return FILTER_OK;
}

static filter_status bloom_model_merge(uint8_t *dst, const uint8_t *src) {
    bloom_header a = bloom_fields_of(dst), b = bloom_fields_of(src);
    for (uint64_t i = 0; i < a.m / 8; i++) {
        dst[FILTER_HEADER_BYTES + i] |= src[FILTER_HEADER_BYTES + i];
    }
    store_u64(dst + OFF_KEYS, saturating_sum(a.keys, b.keys));
    return FILTER_OK;
}

/* Aborts unless the positions of key are in the bit array (in the key's line if blocked),
** the two reductions agree, and bloom_test on bits agrees with the positions. */
static void check_positions(const bloom_header *h, const uint8_t *bits, key_hash key,
                            uint64_t *positions) {
    int all_set = 1;
    bloom_positions(h, key, positions);
    for (uint32_t i = 0; i < h->k; i++) {
        if (positions[i] >= h->m) {
            fuzz_fail("position %llu of %llu bits", (unsigned long long)positions[i],
                      (unsigned long long)h->m);
        }
        if (h->layout == BLOOM_LAYOUT_BLOCKED &&
            positions[i] / BLOOM_LINE_BITS != hash_reduce(key.h1, h->m / BLOOM_LINE_BITS)) {
            fuzz_fail("blocked position %llu is outside the key's line",
                      (unsigned long long)positions[i]);
        }
        all_set &= bit_is_set(bits, positions[i]);
    }
    if (hash_reduce(key.h2, h->m) != hash_reduce_portable(key.h2, h->m)) {
        fuzz_fail("hash_reduce and hash_reduce_portable disagree");
    }
    if (bloom_test(bits, h, key) != all_set) {
        fuzz_fail("bloom_test says %d, the positions %d", !all_set, all_set);
    }
}

/* Aborts unless bloom_measure on bits agrees with a count of its bits and stays in range. */
static void check_measure(const bloom_header *h, const uint8_t *bits) {
    bloom_fill fill = bloom_measure(h, bits);
    uint64_t bits_set = 0;
    for (uint64_t pos = 0; pos < h->m; pos++) {
        bits_set += (uint64_t)bit_is_set(bits, pos);
    }
    if (fill.bits_set != bits_set || fill.fill_ratio != (double)bits_set / (double)h->m) {
        fuzz_fail("bloom_measure counts %llu bits set, there are %llu",
                  (unsigned long long)fill.bits_set, (unsigned long long)bits_set);
    }
    if (!(fill.estimated_fp_rate >= 0.0 && fill.estimated_fp_rate <= 1.0) ||
        !(fill.estimated_keys >= 0.0) || isnan(fill.estimated_keys_se) ||
        isinf(fill.estimated_keys) != (bits_set == h->m)) {
        fuzz_fail("bloom_measure: rate %g, keys %g, error %g", fill.estimated_fp_rate,
                  fill.estimated_keys, fill.estimated_keys_se);
    }
}

/* The Bloom kinds' own functions: bloom_header_of, bloom_positions, bloom_set, bloom_test,
** bloom_check_compatible, bloom_merge and bloom_measure, against the bits. */
static void bloom_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    bloom_header h = bloom_header_of(f), fields = bloom_fields_of(f->blob);
    uint64_t positions[BLOOM_K_MAX];
    char why[FILTER_WHY_MAX];
    const uint8_t *bits = bloom_bits(f);
    uint8_t *set = duplicate(f->blob, f->bytes), *expected = duplicate(f->blob, f->bytes);
    if (h.layout != fields.layout || h.k != fields.k || h.m != fields.m || h.n != fields.n ||
        memcmp(&h.p, &fields.p, sizeof h.p) != 0 || h.keys != fields.keys ||
        bloom_blob_bytes(h.m) != f->bytes) {
        fuzz_fail("bloom_header_of decodes other fields than the bytes hold");
    }
    for (size_t i = 0; i < count; i++) {
        check_positions(&h, bits, keys[i], positions);
        bloom_set(set + FILTER_HEADER_BYTES, &h, keys[i]);
        for (uint32_t j = 0; j < h.k; j++) {
            expected[FILTER_HEADER_BYTES + positions[j] / 8] |= (uint8_t)(1u << (positions[j] % 8));
        }
    }
    if (memcmp(set, expected, f->bytes) != 0) {
        fuzz_fail("bloom_set changed other bits than the keys' positions");
    }
    for (size_t i = 0; i < count; i++) {
        if (bloom_test(set + FILTER_HEADER_BYTES, &h, keys[i]) != 1) {
            fuzz_fail("key %zu was set and probes 0", i);
        }
    }
    if (bloom_check_compatible(&h, &h, why) != FILTER_OK) {
        fuzz_fail("a filter is incompatible with itself: %s", why);
    }
    bloom_merge(set + FILTER_HEADER_BYTES, bits, h.m); /* bits is a subset of set */
    if (memcmp(set, expected, f->bytes) != 0) {
        fuzz_fail("merging a subset changed the filter");
    }
    check_measure(&h, bits);
    check_measure(&h, set + FILTER_HEADER_BYTES);
    free(set);
    free(expected);
}

/* The oracle of a Bloom kind: both layouts share every function, which read the layout from
** the filter. */
#define BLOOM_ORACLE(layout)                                                                       \
    {                                                                                              \
        .id = layout, .is_reserved = bloom_is_reserved, .valid = bloom_valid,                      \
        .encode_header = bloom_encode_header, .probe = bloom_model_probe, .add = bloom_model_add,  \
        .merge = bloom_model_merge, .check_own = bloom_check_own                                   \
    }

const kind_oracle bloom_standard_oracle = BLOOM_ORACLE(BLOOM_LAYOUT_STANDARD);
const kind_oracle bloom_blocked_oracle = BLOOM_ORACLE(BLOOM_LAYOUT_BLOCKED);
