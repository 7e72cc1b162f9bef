/*
** fuzz_core.c: libFuzzer target for the pure C core. The input is a filter
** BLOB, as any database could hand one to the extension.
**
** filter_open must accept it only when it meets every rule of docs/format.md's
** "Validation", and then say nothing; otherwise it must say why. When it
** accepts, the header re-encodes to the same bytes, and keys taken from the
** input itself are probed, set in a copy and probed again: bloom_positions,
** bloom_test, bloom_set, bloom_merge, bloom_measure and the kind's own
** operations (might_contain, copy, add, compatible, merge) stay within the
** bit array (AddressSanitizer checks every byte) and agree with each other,
** and every key set in the copy probes 1.
*/
#include "bloom_core.h"
#include "fuzz_input.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_KEYS = 16, MAX_KEY_BYTES = 24 };

/* Bytes of the two reserved ranges of the header: 12..15 and 48..63. */
static int is_reserved_byte(size_t offset) {
    return (offset >= 12 && offset < 16) || offset >= 48;
}

/* Aborts unless the filter f, of header h, accepted for a BLOB of size bytes, meets the
** rules. */
static void check_accepted_header(const filter_view *f, const bloom_header *h, size_t size) {
    unsigned unit = h->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LINE_BITS : 64;
    if (f->min_reader_version < 1 || f->min_reader_version > FILTER_FORMAT_VERSION ||
        f->version < f->min_reader_version) {
        fuzz_fail("accepted format version %u, minimum reader %u", f->version,
                  f->min_reader_version);
    }
    if ((h->layout != BLOOM_LAYOUT_STANDARD && h->layout != BLOOM_LAYOUT_BLOCKED) ||
        f->hash != KEY_HASH_XXH3_128 || f->blob[6] != h->layout) {
        fuzz_fail("accepted kind %u, hash %u", f->blob[6], f->hash);
    }
    if (h->k < 1 || h->k > BLOOM_K_MAX || h->m == 0 || h->m % unit != 0 ||
        bloom_blob_bytes(h->m) != size) {
        fuzz_fail("accepted k = %u, m = %llu for %zu bytes", (unsigned)h->k,
                  (unsigned long long)h->m, size);
    }
    if (h->n < 1 || !(h->p > 0.0 && h->p < 1.0)) {
        fuzz_fail("accepted n = %llu, p = %g", (unsigned long long)h->n, h->p);
    }
}

/* Aborts unless h, decoded from blob, encodes back to the same bytes (apart from the format
** version and the reserved bytes, which a newer writer may use; this code writes version 1)
** and decodes again to the same header. */
static void check_header_round_trip(const uint8_t *blob, size_t size, const bloom_header *h) {
    uint8_t encoded[FILTER_HEADER_BYTES]; /* only the header: decoding must read nothing else */
    filter_view view;
    char why[FILTER_WHY_MAX];
    bloom_write_header(encoded, h);
    if (encoded[4] != BLOOM_FORMAT_VERSION) {
        fuzz_fail("a header is written as format version %u", encoded[4]);
    }
    for (size_t i = 0; i < FILTER_HEADER_BYTES; i++) {
        if (encoded[i] != blob[i] && !is_reserved_byte(i) && i != 4) {
            fuzz_fail("header byte %zu re-encodes as 0x%02X, was 0x%02X", i, encoded[i], blob[i]);
        }
    }
    if (filter_open(encoded, size, &view, why) != FILTER_OK) {
        fuzz_fail("a re-encoded header is refused: %s", why);
    }
    bloom_header again = bloom_header_of(&view);
    if (view.version != BLOOM_FORMAT_VERSION || view.min_reader_version != BLOOM_FORMAT_VERSION ||
        view.hash != KEY_HASH_XXH3_128 || again.layout != h->layout || again.k != h->k ||
        again.m != h->m || again.n != h->n || again.p != h->p || again.keys != h->keys) {
        fuzz_fail("a re-encoded header decodes differently");
    }
}

/* Reads up to 8 bytes little-endian. */
static uint64_t little_endian(const uint8_t *bytes, size_t length) {
    uint64_t v = 0;
    for (size_t i = 0; i < length && i < 8; i++) {
        v |= (uint64_t)bytes[i] << (8 * i);
    }
    return v;
}

/* Aborts unless the REAL v hashes as docs/format.md's "Keys" says: as the INTEGER of the same
** value when it is integral and in [-2^63, 2^63), and every NaN alike. */
static void check_real_key(double v) {
    key_hash real = key_hash_real(v), expected;
    if (v != v) {
        expected = key_hash_real(NAN);
    } else if (v >= -9223372036854775808.0 && v < 9223372036854775808.0 &&
               (double)(int64_t)v == v) {
        expected = key_hash_integer((int64_t)v);
    } else {
        return;
    }
    if (real.h1 != expected.h1 || real.h2 != expected.h2) {
        fuzz_fail("the REAL %.17g hashes apart from its equal", v);
    }
}

/* Takes up to MAX_KEYS keys of every type from the input's own bytes into keys; returns how
** many. Each key's first byte picks its type and length. */
static size_t derive_keys(const uint8_t *data, size_t size, key_hash *keys) {
    size_t count = 0;
    for (size_t at = 0; at < size && count < MAX_KEYS; count++) {
        size_t length = 1 + data[at] % MAX_KEY_BYTES;
        uint64_t bits;
        double real;
        if (length > size - at) {
            length = size - at;
        }
        switch (data[at] % 4) {
        case 0:
            keys[count] = key_hash_integer((int64_t)little_endian(data + at, length));
            break;
        case 1:
            bits = little_endian(data + at, length);
            memcpy(&real, &bits, sizeof real);
            check_real_key(real);
            keys[count] = key_hash_real(real);
            break;
        case 2:
            keys[count] = key_hash_text(data + at, length);
            break;
        default:
            keys[count] = key_hash_blob(data + at, length);
            break;
        }
        at += length;
    }
    return count;
}

/* Whether bit pos of the bit array bits is set. */
static int bit_is_set(const uint8_t *bits, uint64_t pos) {
    return (bits[pos / 8] >> (pos % 8)) & 1;
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
            positions[i] / BLOOM_LINE_BITS != bloom_reduce(key.h1, h->m / BLOOM_LINE_BITS)) {
            fuzz_fail("blocked position %llu is outside the key's line",
                      (unsigned long long)positions[i]);
        }
        all_set &= bit_is_set(bits, positions[i]);
    }
    if (bloom_reduce(key.h2, h->m) != bloom_reduce_portable(key.h2, h->m)) {
        fuzz_fail("bloom_reduce and bloom_reduce_portable disagree");
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

/* Aborts unless the kind's operations on f agree with the core's: might_contain with
** bloom_test, copy with the bytes (header re-encoded), add with bloom_set, and merge of f
** into its own copy leaves the bits as they are and doubles the keys added. */
static void check_kind_operations(const filter_view *f, const bloom_header *h, const key_hash *keys,
                                  size_t count) {
    const filter_kind *kind = f->kind;
    uint8_t *copy = malloc(f->bytes), *expected = malloc(f->bytes);
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (copy == NULL || expected == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)f->bytes);
    }
    kind->copy(copy, f);
    bloom_write_header(expected, h);
    memcpy(expected + FILTER_HEADER_BYTES, bloom_bits(f), f->bytes - FILTER_HEADER_BYTES);
    if (memcmp(copy, expected, f->bytes) != 0) {
        fuzz_fail("the kind's copy differs from the filter");
    }
    if (filter_open(copy, f->bytes, &view, why) != FILTER_OK) {
        fuzz_fail("the kind's copy is refused: %s", why);
    }
    for (size_t i = 0; i < count; i++) {
        if (kind->might_contain(f, keys[i]) != bloom_test(bloom_bits(f), h, keys[i])) {
            fuzz_fail("the kind's might_contain disagrees with bloom_test");
        }
        kind->add(copy, keys[i]);
        bloom_set(expected + FILTER_HEADER_BYTES, h, keys[i]);
        if (kind->might_contain(&view, keys[i]) != 1) {
            fuzz_fail("a key the kind added probes 0");
        }
    }
    if (kind->compatible(&view, f, why) != FILTER_OK) {
        fuzz_fail("a filter is incompatible with its copy: %s", why);
    }
    kind->merge(copy, f);
    bloom_header merged = bloom_header_of(&view);
    if (memcmp(copy + FILTER_HEADER_BYTES, expected + FILTER_HEADER_BYTES,
               f->bytes - FILTER_HEADER_BYTES) != 0 ||
        merged.keys != bloom_add_counts(bloom_add_counts(h->keys, count), h->keys)) {
        fuzz_fail("the kind's add and merge disagree with bloom_set and the counts");
    }
    free(copy);
    free(expected);
}

/* Probes, sets and merges keys from blob (a valid filter of header h) in copies of it. */
static void check_bits(const filter_view *f, const bloom_header *h) {
    const uint8_t *blob = f->blob;
    size_t size = f->bytes;
    key_hash keys[MAX_KEYS];
    uint64_t positions[BLOOM_K_MAX];
    char why[FILTER_WHY_MAX];
    size_t count = derive_keys(blob, size, keys);
    const uint8_t *bits = blob + FILTER_HEADER_BYTES;
    uint8_t *set = malloc(size), *expected = malloc(size);
    if (set == NULL || expected == NULL) {
        fuzz_fail("out of memory for %zu bytes", size);
    }
    memcpy(set, blob, size);
    memcpy(expected, blob, size);
    for (size_t i = 0; i < count; i++) {
        check_positions(h, bits, keys[i], positions);
        bloom_set(set + FILTER_HEADER_BYTES, h, keys[i]);
        for (uint32_t j = 0; j < h->k; j++) {
            expected[FILTER_HEADER_BYTES + positions[j] / 8] |= (uint8_t)(1u << (positions[j] % 8));
        }
    }
    if (memcmp(set, expected, size) != 0) {
        fuzz_fail("bloom_set changed other bits than the keys' positions");
    }
    for (size_t i = 0; i < count; i++) {
        if (bloom_test(set + FILTER_HEADER_BYTES, h, keys[i]) != 1) {
            fuzz_fail("key %zu was set and probes 0", i);
        }
    }
    if (bloom_check_compatible(h, h, why) != FILTER_OK) {
        fuzz_fail("a filter is incompatible with itself: %s", why);
    }
    bloom_merge(set + FILTER_HEADER_BYTES, bits, h->m); /* bits is a subset of set */
    if (memcmp(set, expected, size) != 0) {
        fuzz_fail("merging a subset changed the filter");
    }
    check_measure(h, bits);
    check_measure(h, set + FILTER_HEADER_BYTES);
    check_kind_operations(f, h, keys, count);
    free(set);
    free(expected);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(data, size, &view, why) != FILTER_OK) {
        if (why[0] == '\0' || memchr(why, '\0', sizeof why) == NULL) {
            fuzz_fail("a refused filter has no message");
        }
        return 0;
    }
    if (why[0] != '\0') {
        fuzz_fail("an accepted filter has the message %s", why);
    }
    bloom_header h = bloom_header_of(&view);
    check_accepted_header(&view, &h, size);
    check_header_round_trip(data, size, &h);
    check_bits(&view, &h);
    return 0;
}
