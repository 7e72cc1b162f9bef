/*
** fuzz_core.c: libFuzzer target for the pure C core. The input is a filter
** BLOB, as any database could hand one to the extension.
**
** filter_open must accept it exactly when it meets every rule of docs/format.md's
** "Validation" (the prelude's, checked here, then its kind's, by the kind's oracle), and then
** say nothing; otherwise it must say why, in the message section 5 gives for the first rule it
** breaks. When it accepts:
**  - what every kind shares: keys taken from the input itself go through every operation of
**    the kind (filter_kind): might_contain, write_header (through filter_copy), add,
**    compatible and merge in memory, and might_contain_io, add_io and remove_io through
**    filter_io_memory on a view that holds the header alone. The _io ones give the answers and
**    bytes of the in-memory ones, stay in the BLOB and report a read or write that fails; a key
**    added probes 1 and is removed; a key that probes 0 is not removed and nothing is written.
**    An add or a merge may find no room (FILTER_FULL, a cuckoo filter): it runs on a copy,
**    which is dropped, as its callers do;
**  - the kind's oracle, a model of the kind written from docs/format.md: the header
**    re-encodes, by the kind's own writer, to the same bytes but the versions and reserved
**    bytes, and filter_copy writes that header; each operation gives the model's status,
**    answer and bytes (for the cuckoo kind, where each add's kicks put the fingerprints); and
**    the checks of the kind's own functions beyond filter_kind (bloom_core.h for the Bloom
**    kinds, counting_core.h for the counting kind, cuckoo_core.h for the cuckoo kind).
** AddressSanitizer checks every byte read and written.
**
** A new kind adds its kind_oracle to oracles[]; until then it gets the shared checks only.
*/
#include "bloom_core.h"
#include "counting_core.h"
#include "cuckoo_core.h"
#include "fuzz_input.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_KEYS = 16, MAX_KEY_BYTES = 24 };

/* Offsets of the header fields that the Bloom kinds and the counting kind share (n, p and the
** keys also the cuckoo kind's). */
enum { OFF_K = 8, OFF_COUNTER_BITS = 12, OFF_M = 16, OFF_N = 24, OFF_P = 32, OFF_KEYS = 40 };

/* Offsets of the cuckoo kind's own header fields. */
enum { OFF_FINGERPRINT_BITS = 8, OFF_SLOTS = 9, OFF_BUCKETS = 16 };

/* Reads up to 8 bytes little-endian. */
static uint64_t little_endian(const uint8_t *bytes, size_t length) {
    uint64_t v = 0;
    for (size_t i = 0; i < length && i < 8; i++) {
        v |= (uint64_t)bytes[i] << (8 * i);
    }
    return v;
}

/* Writes v little-endian into 8 bytes. */
static void store_u64(uint8_t *bytes, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        bytes[i] = (uint8_t)(v >> (8 * i));
    }
}

/* a + b, kept at 2^64 - 1. */
static uint64_t saturating_sum(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Writes section 5's message, from format, to why (FILTER_WHY_MAX bytes); returns 0, a refusal. */
static int refuse(char *why, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int refuse(char *why, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, FILTER_WHY_MAX, format, ap);
    va_end(ap);
    return 0;
}

/* p as section 5 shows it (buf: 32 bytes): C's %.15g, but NaN for every NaN, Inf and -Inf. */
static const char *rate_text(char *buf, double p) {
    if (p != p) {
        return "NaN";
    }
    if (isinf(p)) {
        return p > 0 ? "Inf" : "-Inf";
    }
    snprintf(buf, 32, "%.15g", p);
    return buf;
}

/* A copy of length bytes, in memory of exactly that size (so that ASan sees every overrun). */
static uint8_t *duplicate(const uint8_t *bytes, size_t length) {
    uint8_t *copy = malloc(length > 0 ? length : 1);
    if (copy == NULL) {
        fuzz_fail("out of memory for %zu bytes", length);
    }
    memcpy(copy, bytes, length);
    return copy;
}

/* ---- The oracles: what this file knows of each kind, from docs/format.md alone. ---- */

/*
** A kind's oracle. Its functions take BLOBs that the spec accepts (valid says so) and are
** written from docs/format.md, not from the kind's code: of the core they call only
** bloom_positions (checked against the test vectors by the unit tests) and, in encode_header,
** the header writer whose bytes they check.
*/
typedef struct kind_oracle {
    uint8_t id; /* the prelude's kind byte */
    /* Whether header byte offset (8 to 63) is reserved: 0 unless the format version is above
    ** the reader's, and not re-encoded. */
    int (*is_reserved)(size_t offset);
    /* 1 when blob, of size bytes, whose prelude is valid and names the kind, meets the kind's
    ** rules of "Validation"; else 0, with the message of the first rule it breaks in why
    ** (FILTER_WHY_MAX bytes). */
    int (*valid)(const uint8_t *blob, size_t size, char *why);
    /* Writes the 64-byte header of the accepted blob, as this code writes the kind, to out, by
    ** the kind's own header writer (the one bloom_build uses, not filter_kind's write_header). */
    void (*encode_header)(uint8_t *out, const uint8_t *blob);
    /* The model of the operations, on an accepted BLOB: the answer of a probe; add and remove
    ** (NULL when the kind cannot remove) applied to blob, and merge of src, which the kind's
    ** compatible accepted, into dst: each with the status it must return (FILTER_FULL when
    ** there is no room), blob or dst left as it was unless FILTER_OK. */
    int (*probe)(const uint8_t *blob, key_hash key);
    filter_status (*add)(uint8_t *blob, key_hash key, int *was_absent);
    filter_status (*remove)(uint8_t *blob, key_hash key);
    filter_status (*merge)(uint8_t *dst, const uint8_t *src);
    /* The checks of the kind's own functions, beyond filter_kind, on the accepted f. */
    void (*check_own)(const filter_view *f, const key_hash *keys, size_t count);
} kind_oracle;

/* -- What the Bloom kinds (4.1, 4.2) and the counting kind (4.3) share: the fields. -- */

/* The Bloom fields of blob, read from its bytes; layout is the kind byte. */
static bloom_header fields_of(const uint8_t *blob) {
    bloom_header h;
    uint64_t p_bits = little_endian(blob + OFF_P, 8);
    h.layout = blob[FILTER_OFF_KIND];
    h.k = (uint32_t)little_endian(blob + OFF_K, 4);
    h.m = little_endian(blob + OFF_M, 8);
    h.n = little_endian(blob + OFF_N, 8);
    memcpy(&h.p, &p_bits, sizeof h.p);
    h.keys = little_endian(blob + OFF_KEYS, 8);
    return h;
}

/* The positions of key in blob: those of kind 1 for kinds 1 and 3, of kind 2 for kind 2. */
static void positions_of(const uint8_t *blob, key_hash key, uint64_t *positions) {
    bloom_header h = fields_of(blob);
    h.layout =
        h.layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LAYOUT_BLOCKED : (uint8_t)BLOOM_LAYOUT_STANDARD;
    bloom_positions(&h, key, positions);
}

/* The first reserved byte of blob that breaks the rule (0, unless a newer writer wrote it), or
** -1. */
static int bad_reserved_byte(const uint8_t *blob, int (*is_reserved)(size_t)) {
    if (blob[FILTER_OFF_VERSION] > FILTER_FORMAT_VERSION) {
        return -1;
    }
    for (size_t i = 8; i < FILTER_HEADER_BYTES; i++) {
        if (is_reserved(i) && blob[i] != 0) {
            return (int)i;
        }
    }
    return -1;
}

/* The rules on n and p, which every kind shares: 1, or 0 with the message. */
static int n_p_ok(uint64_t n, double p, char *why) {
    char p_text[32];
    if (n == 0) {
        return refuse(why, "corrupt filter: capacity n = 0");
    }
    if (!(p > 0.0 && p < 1.0)) {
        return refuse(why, "corrupt filter: p = %s is not between 0 and 1", rate_text(p_text, p));
    }
    return 1;
}

/* The rule on the reserved bytes, every kind's last: 1, or 0 with the message. */
static int reserved_ok(const uint8_t *blob, int (*is_reserved)(size_t), char *why) {
    int reserved = bad_reserved_byte(blob, is_reserved);
    if (reserved >= 0) {
        return refuse(why, "corrupt filter: reserved byte %d is 0x%02X, not 0", reserved,
                      blob[reserved]);
    }
    return 1;
}

/* The rule on k, which the Bloom and counting kinds share: 1, or 0 with the message. */
static int k_ok(const bloom_header *h, char *why) {
    if (h->k < 1 || h->k > BLOOM_K_MAX) {
        return refuse(why, "corrupt filter: k = %lu is outside 1..%d", (unsigned long)h->k,
                      BLOOM_K_MAX);
    }
    return 1;
}

/* -- The Bloom kinds, standard (1) and blocked (2). -- */

static int bloom_is_reserved(size_t offset) {
    return (offset >= 12 && offset < 16) || offset >= 48;
}

static int bloom_valid(const uint8_t *blob, size_t size, char *why) {
    bloom_header h = fields_of(blob);
    uint64_t unit = h.layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LINE_BITS : 64;
    if (!k_ok(&h, why)) {
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
    bloom_header h = fields_of(blob);
    bloom_write_header(out, &h);
}

/* Whether bit pos of the bit array bits is set. */
static int bit_is_set(const uint8_t *bits, uint64_t pos) {
    return (bits[pos / 8] >> (pos % 8)) & 1;
}

static int bloom_probe(const uint8_t *blob, key_hash key) {
    uint64_t positions[BLOOM_K_MAX];
    uint32_t k = fields_of(blob).k;
    positions_of(blob, key, positions);
    for (uint32_t i = 0; i < k; i++) {
        if (!bit_is_set(blob + FILTER_HEADER_BYTES, positions[i])) {
            return 0;
        }
    }
    return 1;
}

static filter_status bloom_add(uint8_t *blob, key_hash key, int *was_absent) {
    uint64_t positions[BLOOM_K_MAX];
    bloom_header h = fields_of(blob);
    *was_absent = !bloom_probe(blob, key);
    positions_of(blob, key, positions);
    for (uint32_t i = 0; i < h.k; i++) {
        blob[FILTER_HEADER_BYTES + positions[i] / 8] |= (uint8_t)(1u << (positions[i] % 8));
    }
    store_u64(blob + OFF_KEYS, saturating_sum(h.keys, 1));
    return FILTER_OK;
}

static filter_status bloom_model_merge(uint8_t *dst, const uint8_t *src) {
    bloom_header a = fields_of(dst), b = fields_of(src);
    for (uint64_t i = 0; i < a.m / 8; i++) {
        dst[FILTER_HEADER_BYTES + i] |= src[FILTER_HEADER_BYTES + i];
    }
    store_u64(dst + OFF_KEYS, saturating_sum(a.keys, b.keys));
    return FILTER_OK;
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

/* The Bloom kinds' own functions: bloom_header_of, bloom_positions, bloom_set, bloom_test,
** bloom_check_compatible, bloom_merge and bloom_measure, against the bits. */
static void bloom_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    bloom_header h = bloom_header_of(f), fields = fields_of(f->blob);
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

/* -- The counting kind (3). -- */

static int counting_is_reserved(size_t offset) {
    return (offset >= 13 && offset < 16) || offset >= 48;
}

static int counting_valid(const uint8_t *blob, size_t size, char *why) {
    bloom_header h = fields_of(blob);
    if (!k_ok(&h, why)) {
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
    bloom_header h = fields_of(blob);
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
    uint32_t k = fields_of(blob).k;
    positions_of(blob, key, positions);
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
    uint32_t k = fields_of(blob).k;
    positions_of(blob, key, positions);
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
    store_u64(blob + OFF_KEYS, saturating_sum(fields_of(blob).keys, 1));
    return FILTER_OK;
}

static filter_status counting_remove(uint8_t *blob, key_hash key) {
    uint64_t positions[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    uint32_t k = counters_of_key(blob, key, positions, times);
    uint64_t keys = fields_of(blob).keys;
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
    bloom_header a = fields_of(dst), b = fields_of(src);
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
    bloom_header h = fields_of(f->blob);
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
        positions_of(f->blob, keys[i], positions);
        for (uint32_t j = 0; j < h.k; j++) {
            if (positions[j] >= h.m) {
                fuzz_fail("position %llu of %llu counters", (unsigned long long)positions[j],
                          (unsigned long long)h.m);
            }
        }
        uint8_t *blob = duplicate(f->blob, f->bytes);
        filter_io io = filter_io_memory(blob);
        filter_view added;
        char why[FILTER_WHY_MAX];
        int was_absent;
        if (f->kind->add_io(f, &io, keys[i], &was_absent) != FILTER_OK ||
            filter_open(blob, f->bytes, &added, why) != FILTER_OK ||
            f->kind->remove_io(&added, &io, keys[i]) != FILTER_OK) {
            fuzz_fail("a key added to a counting filter is not removed");
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

/* -- The cuckoo kind (4). -- */

/* Slots per bucket, fingerprint bits at most, and kicks of an add at most (format.md 4.4). */
enum { SLOTS = 4, FINGERPRINT_BITS_MAX = 32, KICKS = 500 };

/* The fields of a cuckoo filter, read from its bytes. */
typedef struct cuckoo_fields {
    unsigned f;       /* fingerprint bits */
    uint64_t buckets; /* B */
    uint64_t n;
    double p;
    uint64_t keys;
} cuckoo_fields;

static cuckoo_fields cuckoo_fields_of(const uint8_t *blob) {
    cuckoo_fields c;
    uint64_t p_bits = little_endian(blob + OFF_P, 8);
    c.f = blob[OFF_FINGERPRINT_BITS];
    c.buckets = little_endian(blob + OFF_BUCKETS, 8);
    c.n = little_endian(blob + OFF_N, 8);
    memcpy(&c.p, &p_bits, sizeof c.p);
    c.keys = little_endian(blob + OFF_KEYS, 8);
    return c;
}

static int cuckoo_is_reserved(size_t offset) {
    return (offset >= 10 && offset < 16) || offset >= 48;
}

/* The length of a cuckoo filter of B buckets of f-bit fingerprints (f >= 1), 64 + ceil(4 B f /
** 8) = 64 + ceil(B f / 2), or 0 when it does not fit in 64 bits. */
static uint64_t cuckoo_length(uint64_t buckets, unsigned f) {
    uint64_t half = buckets / 2, odd = buckets % 2 ? (f + 1) / 2 : 0;
    if (half > (UINT64_MAX - FILTER_HEADER_BYTES - odd) / f) {
        return 0;
    }
    return FILTER_HEADER_BYTES + half * f + odd;
}

static int cuckoo_valid(const uint8_t *blob, size_t size, char *why) {
    cuckoo_fields c = cuckoo_fields_of(blob);
    if (c.f < 1 || c.f > FINGERPRINT_BITS_MAX) {
        return refuse(why, "corrupt filter: fingerprints of %u bits, not 1 to 32", c.f);
    }
    if (blob[OFF_SLOTS] != SLOTS) {
        return refuse(why, "corrupt filter: buckets of %u slots, not 4", blob[OFF_SLOTS]);
    }
    uint64_t length = c.buckets >= 1 ? cuckoo_length(c.buckets, c.f) : 0;
    if (length == 0) {
        return refuse(why, "corrupt filter: %llu buckets", (unsigned long long)c.buckets);
    }
    if (length != size) {
        return refuse(why,
                      "corrupt filter: %llu buckets of %u-bit fingerprints need %llu bytes, the "
                      "BLOB has %zu",
                      (unsigned long long)c.buckets, c.f, (unsigned long long)length, size);
    }
    if (!n_p_ok(c.n, c.p, why)) {
        return 0;
    }
    if (c.keys > SLOTS * c.buckets) {
        return refuse(why, "corrupt filter: %llu keys in %llu slots", (unsigned long long)c.keys,
                      (unsigned long long)(SLOTS * c.buckets));
    }
    return reserved_ok(blob, cuckoo_is_reserved, why);
}

static void cuckoo_encode_header(uint8_t *out, const uint8_t *blob) {
    cuckoo_fields c = cuckoo_fields_of(blob);
    cuckoo_header h = {c.f, c.buckets, c.n, c.p, c.keys};
    cuckoo_write_header(out, &h);
}

/* floor(x r / 2^64): 4.1's reduce, by 32-bit halves. */
static uint64_t reduce(uint64_t x, uint64_t r) {
    uint64_t x_lo = x & 0xFFFFFFFF, x_hi = x >> 32, r_lo = r & 0xFFFFFFFF, r_hi = r >> 32;
    uint64_t lo_lo = x_lo * r_lo, hi_lo = x_hi * r_lo, lo_hi = x_lo * r_hi;
    uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFF) + (lo_hi & 0xFFFFFFFF);
    return x_hi * r_hi + (hi_lo >> 32) + (lo_hi >> 32) + (middle >> 32);
}

/* 4.1's mix, the splitmix64 finalizer. */
static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The field of slot j (4 i + s) of the cuckoo filter blob: bit t is bit j f + t of the body. */
static uint32_t slot_value(const uint8_t *blob, unsigned f, uint64_t j) {
    uint32_t v = 0;
    for (unsigned t = 0; t < f; t++) {
        v |= (uint32_t)bit_is_set(blob + FILTER_HEADER_BYTES, j * f + t) << t;
    }
    return v;
}

static void set_slot(uint8_t *blob, unsigned f, uint64_t j, uint32_t v) {
    for (unsigned t = 0; t < f; t++) {
        uint64_t u = j * f + t;
        uint8_t *byte = &blob[FILTER_HEADER_BYTES + u / 8];
        *byte = (uint8_t)((*byte & ~(1u << (u % 8))) | (((v >> t) & 1u) << (u % 8)));
    }
}

/* A key's fingerprint, 1 to 2^f - 1. */
static uint32_t fingerprint_of(const cuckoo_fields *c, key_hash key) {
    return (uint32_t)(reduce(key.h2, (UINT64_C(1) << c->f) - 1) + 1);
}

/* alt(i, fp) = (reduce(mix(fp), B) - i) mod B. */
static uint64_t alt(const cuckoo_fields *c, uint64_t i, uint32_t fp) {
    uint64_t g = reduce(mix(fp), c->buckets);
    return g >= i ? g - i : g + (c->buckets - i);
}

/* The first slot (0 to 3) of bucket i holding v (0: an empty one), or SLOTS. */
static unsigned slot_holding(const uint8_t *blob, const cuckoo_fields *c, uint64_t i, uint32_t v) {
    unsigned s = 0;
    while (s < SLOTS && slot_value(blob, c->f, SLOTS * i + s) != v) {
        s++;
    }
    return s;
}

static int cuckoo_probe(const uint8_t *blob, key_hash key) {
    cuckoo_fields c = cuckoo_fields_of(blob);
    uint32_t fp = fingerprint_of(&c, key);
    uint64_t i1 = reduce(key.h1, c.buckets);
    return slot_holding(blob, &c, i1, fp) < SLOTS ||
           slot_holding(blob, &c, alt(&c, i1, fp), fp) < SLOTS;
}

/* Puts fp, whose buckets are i and alt(i, fp), into the filter blob as 4.4's add does with
** seed: the first empty slot of i, else of its other; else up to KICKS evictions. Returns 0
** when it finds no room, blob then changed (the caller restores it). */
static int cuckoo_place(uint8_t *blob, const cuckoo_fields *c, uint64_t i, uint32_t fp,
                        uint64_t seed) {
    uint64_t other = alt(c, i, fp);
    unsigned s = slot_holding(blob, c, i, 0);
    if (s < SLOTS) {
        set_slot(blob, c->f, SLOTS * i + s, fp);
        return 1;
    }
    s = slot_holding(blob, c, other, 0);
    if (s < SLOTS) {
        set_slot(blob, c->f, SLOTS * other + s, fp);
        return 1;
    }
    uint64_t b = mix(seed) % 2 == 1 ? other : i;
    for (uint64_t kick = 0; kick < KICKS; kick++) {
        uint64_t j = SLOTS * b + (mix(seed + kick + 1) >> 62);
        uint32_t evicted = slot_value(blob, c->f, j);
        set_slot(blob, c->f, j, fp);
        fp = evicted;
        b = alt(c, b, fp);
        s = slot_holding(blob, c, b, 0);
        if (s < SLOTS) {
            set_slot(blob, c->f, SLOTS * b + s, fp);
            return 1;
        }
    }
    return 0;
}

/* The count of keys v, kept at the number of slots. */
static uint64_t at_most_slots(const cuckoo_fields *c, uint64_t v) {
    return v < SLOTS * c->buckets ? v : SLOTS * c->buckets;
}

static filter_status cuckoo_add(uint8_t *blob, key_hash key, int *was_absent) {
    cuckoo_fields c = cuckoo_fields_of(blob);
    size_t size = (size_t)cuckoo_length(c.buckets, c.f);
    uint8_t *before = duplicate(blob, size);
    *was_absent = !cuckoo_probe(blob, key);
    int placed = cuckoo_place(blob, &c, reduce(key.h1, c.buckets), fingerprint_of(&c, key), key.h1);
    if (placed) {
        store_u64(blob + OFF_KEYS, at_most_slots(&c, c.keys + 1));
    } else {
        memcpy(blob, before, size);
    }
    free(before);
    return placed ? FILTER_OK : FILTER_FULL;
}

static filter_status cuckoo_remove(uint8_t *blob, key_hash key) {
    cuckoo_fields c = cuckoo_fields_of(blob);
    uint32_t fp = fingerprint_of(&c, key);
    uint64_t i = reduce(key.h1, c.buckets);
    unsigned s = slot_holding(blob, &c, i, fp);
    if (s == SLOTS) {
        i = alt(&c, i, fp);
        s = slot_holding(blob, &c, i, fp);
    }
    if (s == SLOTS) {
        return FILTER_ABSENT;
    }
    set_slot(blob, c.f, SLOTS * i + s, 0);
    store_u64(blob + OFF_KEYS, c.keys > 0 ? c.keys - 1 : 0);
    return FILTER_OK;
}

/* Each non-empty slot of src, bucket by bucket, added to dst from the bucket it is in, with the
** seed mix(i) XOR fp XOR s; the keys summed, kept at the slots. */
static filter_status cuckoo_model_merge(uint8_t *dst, const uint8_t *src) {
    cuckoo_fields a = cuckoo_fields_of(dst), b = cuckoo_fields_of(src);
    size_t size = (size_t)cuckoo_length(a.buckets, a.f);
    uint8_t *before = duplicate(dst, size);
    filter_status status = FILTER_OK;
    for (uint64_t i = 0; i < a.buckets && status == FILTER_OK; i++) {
        for (unsigned s = 0; s < SLOTS && status == FILTER_OK; s++) {
            uint32_t fp = slot_value(src, a.f, SLOTS * i + s);
            if (fp != 0 && !cuckoo_place(dst, &a, i, fp, mix(i) ^ fp ^ s)) {
                status = FILTER_FULL;
            }
        }
    }
    if (status == FILTER_OK) {
        store_u64(dst + OFF_KEYS, at_most_slots(&a, saturating_sum(a.keys, b.keys)));
    } else {
        memcpy(dst, before, size);
    }
    free(before);
    return status;
}

/* The slots of the cuckoo filter blob in use. */
static uint64_t slots_in_use(const uint8_t *blob) {
    cuckoo_fields c = cuckoo_fields_of(blob);
    uint64_t used = 0;
    for (uint64_t j = 0; j < SLOTS * c.buckets; j++) {
        used += slot_value(blob, c.f, j) != 0;
    }
    return used;
}

/* Aborts unless cuckoo_size for the n and p of c sizes as 4.4's "Sizing" says: the fewest f
** whose rate at 95 % load is at most p, and B = ceil(b + 2 sqrt(b)), b = n / (4 * 0.95). */
static void check_cuckoo_size(const cuckoo_fields *c) {
    cuckoo_header sized;
    double bytes_needed, compared = 2.0 * SLOTS * 0.95;
    filter_status status = cuckoo_size(c->n, c->p, &sized, &bytes_needed);
    unsigned f = 1;
    while (f <= FINGERPRINT_BITS_MAX && compared / (ldexp(1.0, (int)f) - 1.0) > c->p) {
        f++;
    }
    if (f > FINGERPRINT_BITS_MAX) {
        if (status != FILTER_TOO_MANY_HASHES) {
            fuzz_fail("cuckoo_size(%llu, %.17g) returns %d, not FILTER_TOO_MANY_HASHES",
                      (unsigned long long)c->n, c->p, status);
        }
        return;
    }
    double at_load = (double)c->n / (SLOTS * 0.95), buckets = ceil(at_load + 2.0 * sqrt(at_load));
    double bytes = FILTER_HEADER_BYTES + ceil(buckets * SLOTS * f / 8.0);
    if (bytes > BLOOM_MAX_BYTES ? status != FILTER_TOO_BIG
                                : status != FILTER_OK || sized.fingerprint_bits != f ||
                                      (double)sized.buckets != buckets || sized.n != c->n ||
                                      memcmp(&sized.p, &c->p, sizeof sized.p) != 0 ||
                                      sized.keys != 0 || bytes_needed != bytes ||
                                      (buckets * SLOTS * f <= 9007199254740992.0 &&
                                       /* 2^53: every step of bytes exact */
                                       (double)cuckoo_blob_bytes(&sized) != bytes)) {
        fuzz_fail("cuckoo_size(%llu, %.17g) gives f = %u, B = %llu (status %d), not %u and %.17g",
                  (unsigned long long)c->n, c->p, sized.fingerprint_bits,
                  (unsigned long long)sized.buckets, status, f, buckets);
    }
}

/* The cuckoo kind's own functions: cuckoo_header_of, cuckoo_blob_bytes, cuckoo_slots_used,
** cuckoo_fp_rate and cuckoo_size against the bytes and 4.4; and 4.4's promise that adding a key
** then removing it restores every answer (the fingerprints moved stay in their two buckets),
** the slots in use and the count of keys (unless it was at its maximum). */
static void cuckoo_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    cuckoo_header h = cuckoo_header_of(f);
    cuckoo_fields c = cuckoo_fields_of(f->blob);
    uint64_t used = slots_in_use(f->blob);
    if (h.fingerprint_bits != c.f || h.buckets != c.buckets || h.n != c.n ||
        memcmp(&h.p, &c.p, sizeof h.p) != 0 || h.keys != c.keys ||
        cuckoo_blob_bytes(&h) != f->bytes) {
        fuzz_fail("cuckoo_header_of decodes other fields than the bytes hold");
    }
    if (cuckoo_slots_used(f) != used) {
        fuzz_fail("cuckoo_slots_used counts %llu slots in use, there are %llu",
                  (unsigned long long)cuckoo_slots_used(f), (unsigned long long)used);
    }
    /* 1 - (1 - 1/(2^f - 1))^(8 U / 4B); 1 if f = 1 and U > 0, 0 if U = 0. Within 1e-5: the
    ** rounding of 1 - 1/(2^f - 1) changes the last digits at f = 32. */
    double rate = cuckoo_fp_rate(&h, used);
    double expected = used == 0  ? 0.0
                      : c.f == 1 ? 1.0
                                 : -expm1(2.0 * SLOTS * (double)used / (SLOTS * (double)c.buckets) *
                                          log1p(-1.0 / (ldexp(1.0, (int)c.f) - 1.0)));
    if (!(rate >= 0.0 && rate <= 1.0) || fabs(rate - expected) > 1e-5 * expected) {
        fuzz_fail("cuckoo_fp_rate is %.17g with %llu of %llu slots of %u bits, not %.17g", rate,
                  (unsigned long long)used, (unsigned long long)(SLOTS * c.buckets), c.f, expected);
    }
    check_cuckoo_size(&c);
    int *before = malloc((count > 0 ? count : 1) * sizeof *before);
    if (before == NULL) {
        fuzz_fail("out of memory for %zu answers", count);
    }
    for (size_t i = 0; i < count; i++) {
        before[i] = cuckoo_probe(f->blob, keys[i]);
    }
    for (size_t i = 0; i < count; i++) {
        uint8_t *blob = duplicate(f->blob, f->bytes);
        filter_io io = filter_io_memory(blob);
        filter_view added;
        char why[FILTER_WHY_MAX];
        int was_absent;
        filter_status status = f->kind->add_io(f, &io, keys[i], &was_absent);
        if (status == FILTER_OK && (filter_open(blob, f->bytes, &added, why) != FILTER_OK ||
                                    f->kind->remove_io(&added, &io, keys[i]) != FILTER_OK)) {
            fuzz_fail("a key added to a cuckoo filter is not removed");
        }
        if (status == FILTER_OK) {
            for (size_t j = 0; j < count; j++) {
                if (cuckoo_probe(blob, keys[j]) != before[j]) {
                    fuzz_fail("adding then removing key %zu changes the answer for key %zu", i, j);
                }
            }
            if (slots_in_use(blob) != used ||
                (c.keys < SLOTS * c.buckets && cuckoo_fields_of(blob).keys != c.keys)) {
                fuzz_fail("adding then removing key %zu changes the slots in use or the keys", i);
            }
        } else if (status != FILTER_FULL) {
            fuzz_fail("add_io returns %d", status);
        }
        free(blob);
    }
    free(before);
}

/* Every kind of the kind table, and only those. */
static const kind_oracle oracles[] = {
    {BLOOM_LAYOUT_STANDARD, bloom_is_reserved, bloom_valid, bloom_encode_header, bloom_probe,
     bloom_add, NULL, bloom_model_merge, bloom_check_own},
    {BLOOM_LAYOUT_BLOCKED, bloom_is_reserved, bloom_valid, bloom_encode_header, bloom_probe,
     bloom_add, NULL, bloom_model_merge, bloom_check_own},
    {COUNTING_KIND, counting_is_reserved, counting_valid, counting_encode_header, counting_probe,
     counting_add, counting_remove, counting_model_merge, counting_check_own},
    {CUCKOO_KIND, cuckoo_is_reserved, cuckoo_valid, cuckoo_encode_header, cuckoo_probe, cuckoo_add,
     cuckoo_remove, cuckoo_model_merge, cuckoo_check_own},
};

/* The oracle of kind id, or NULL. */
static const kind_oracle *oracle_of(int id) {
    for (size_t i = 0; i < sizeof oracles / sizeof oracles[0]; i++) {
        if (oracles[i].id == id) {
            return &oracles[i];
        }
    }
    return NULL;
}

/* ---- What every kind shares. ---- */

/* Aborts unless every oracle is of a kind of the kind table, found by its id there. */
static void check_oracles(void) {
    for (size_t i = 0; i < sizeof oracles / sizeof oracles[0]; i++) {
        const filter_kind *kind = filter_kind_by_id(oracles[i].id);
        if (kind == NULL || filter_kind_at((size_t)oracles[i].id - 1) != kind) {
            fuzz_fail("fuzz_core.c has an oracle of kind %u, which the kind table lacks",
                      oracles[i].id);
        }
    }
}

/* What the spec says of a BLOB. */
enum { SPEC_REFUSES, SPEC_ACCEPTS, SPEC_UNMODELED /* a valid prelude of a kind with no oracle */ };

/* What the spec says of the BLOB data of size bytes: the prelude's checks, then the kind's
** (docs/format.md, "Validation"). When it refuses, expected (FILTER_WHY_MAX bytes) gets the
** message of the first check that fails. */
static int spec_verdict(const uint8_t *data, size_t size, char *expected) {
    static const uint8_t magic[4] = {'S', 'Q', 'B', 'F'};
    expected[0] = '\0';
    if (size < FILTER_HEADER_BYTES) {
        refuse(expected, "not a Bloom filter: length %zu is shorter than the 64-byte header", size);
        return SPEC_REFUSES;
    }
    if (memcmp(data, magic, sizeof magic) != 0) {
        refuse(expected, "not a Bloom filter: magic is x'%02X%02X%02X%02X', not x'53514246' (SQBF)",
               data[0], data[1], data[2], data[3]);
        return SPEC_REFUSES;
    }
    unsigned version = data[FILTER_OFF_VERSION], min_reader = data[FILTER_OFF_MIN_READER];
    unsigned kind_id = data[FILTER_OFF_KIND], hash = data[FILTER_OFF_HASH];
    if (min_reader < 1 || min_reader > version) {
        refuse(expected, "corrupt filter: format version %u with minimum reader version %u",
               version, min_reader);
        return SPEC_REFUSES;
    }
    if (min_reader > FILTER_FORMAT_VERSION) {
        refuse(expected,
               "filter format version %u needs a reader of version %u or later; this one reads "
               "version %d",
               version, min_reader, FILTER_FORMAT_VERSION);
        return SPEC_REFUSES;
    }
    const kind_oracle *oracle = oracle_of((int)kind_id);
    const filter_kind *kind = filter_kind_by_id((int)kind_id);
    if (kind == NULL) {
        refuse(expected, "corrupt filter: unknown kind %u", kind_id);
        return SPEC_REFUSES;
    }
    if (min_reader < kind->format_version) {
        refuse(expected,
               "corrupt filter: kind %u is of format version %u, read by readers of version %u "
               "and later, not %u",
               kind_id, kind->format_version, kind->format_version, min_reader);
        return SPEC_REFUSES;
    }
    if (hash != KEY_HASH_XXH3_128) {
        refuse(expected, "corrupt filter: unknown hash %u", hash);
        return SPEC_REFUSES;
    }
    if (oracle == NULL) {
        return SPEC_UNMODELED;
    }
    return oracle->valid(data, size, expected) ? SPEC_ACCEPTS : SPEC_REFUSES;
}

/* Aborts unless the message of a refused BLOB is expected, section 5's (or, when the spec's
** verdict is unmodeled, begins as one of them). */
static void check_refusal(const char *why, int verdict, const char *expected) {
    static const char *const starts[] = {
        "not a Bloom filter: ", "corrupt filter: ", "filter format version "};
    if (memchr(why, '\0', FILTER_WHY_MAX) == NULL) {
        fuzz_fail("a refusal's message is not terminated");
    }
    if (verdict == SPEC_REFUSES) {
        if (strcmp(why, expected) != 0) {
            fuzz_fail("a refusal says \"%s\", section 5 \"%s\"", why, expected);
        }
        return;
    }
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        if (strncmp(why, starts[i], strlen(starts[i])) == 0 && why[strlen(starts[i])] != '\0') {
            return;
        }
    }
    fuzz_fail("a refusal says \"%s\"", why);
}

/* Aborts unless f, of data, re-encodes by its kind's writer to the same header (but the
** versions, written as the kind's format version, and the reserved bytes, written 0), which
** decodes again to an accepted filter of the same header. The header alone is decoded: the
** decoding must read nothing else. */
static void check_header_round_trip(const filter_view *f, const kind_oracle *oracle) {
    uint8_t *encoded = malloc(FILTER_HEADER_BYTES), *again = malloc(FILTER_HEADER_BYTES);
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (encoded == NULL || again == NULL) {
        fuzz_fail("out of memory for a header");
    }
    oracle->encode_header(encoded, f->blob);
    if (encoded[FILTER_OFF_VERSION] != f->kind->format_version ||
        encoded[FILTER_OFF_MIN_READER] != f->kind->format_version) {
        fuzz_fail("a '%s' header is written as format version %u, minimum reader %u", f->kind->name,
                  encoded[FILTER_OFF_VERSION], encoded[FILTER_OFF_MIN_READER]);
    }
    for (size_t i = 0; i < FILTER_HEADER_BYTES; i++) {
        int versions = i == FILTER_OFF_VERSION || i == FILTER_OFF_MIN_READER;
        int reserved = i >= 8 && oracle->is_reserved(i);
        if (reserved ? encoded[i] != 0 : !versions && encoded[i] != f->blob[i]) {
            fuzz_fail("header byte %zu re-encodes as 0x%02X, was 0x%02X", i, encoded[i],
                      f->blob[i]);
        }
    }
    if (filter_open(encoded, f->bytes, &view, why) != FILTER_OK) {
        fuzz_fail("a re-encoded header is refused: %s", why);
    }
    if (view.kind != f->kind || view.hash != f->hash || view.version != f->kind->format_version ||
        view.min_reader_version != f->kind->format_version) {
        fuzz_fail("a re-encoded header opens as another kind or version");
    }
    oracle->encode_header(again, encoded);
    if (memcmp(again, encoded, FILTER_HEADER_BYTES) != 0) {
        fuzz_fail("a re-encoded header re-encodes differently");
    }
    free(encoded);
    free(again);
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

/* Opens blob, which an operation of the kind of f wrote, as a filter of f's size and kind. */
static filter_view open_written(const uint8_t *blob, const filter_view *f, const char *what) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(blob, f->bytes, &view, why) != FILTER_OK || view.kind != f->kind) {
        fuzz_fail("%s is refused: %s", what, why);
    }
    return view;
}

/*
** A filter_io over a BLOB in memory, for the _io operations: a view of the header alone
** (header, a copy of the BLOB's 64 bytes in memory of that size), and filter_io_memory over
** the BLOB, wrapped to check that each access stays in the BLOB, to count the reads and
** writes, and to fail the fail_at-th of them (from 1; 0: none).
*/
typedef struct io_target {
    uint8_t *blob;
    uint64_t bytes;
    uint8_t *header;
    filter_view view;
    filter_io memory;
    unsigned calls, writes, fail_at;
} io_target;

static int checked_access(io_target *t, uint64_t offset, uint32_t n, const char *what) {
    if (offset > t->bytes || n > t->bytes - offset) {
        fuzz_fail("a %s of %u bytes at %llu, in a BLOB of %llu", what, n,
                  (unsigned long long)offset, (unsigned long long)t->bytes);
    }
    return ++t->calls == t->fail_at;
}

static int checked_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    io_target *t = state;
    if (checked_access(t, offset, n, "read")) {
        return 1;
    }
    return t->memory.read(t->memory.state, offset, buf, n);
}

static int checked_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    io_target *t = state;
    if (checked_access(t, offset, n, "write")) {
        return 1;
    }
    t->writes++;
    return t->memory.write(t->memory.state, offset, buf, n);
}

/* Points t at blob, a filter of the kind and size of f, with its header as the view. */
static void io_open(io_target *t, uint8_t *blob, const filter_view *f, unsigned fail_at) {
    char why[FILTER_WHY_MAX];
    memcpy(t->header, blob, FILTER_HEADER_BYTES);
    if (filter_open(t->header, f->bytes, &t->view, why) != FILTER_OK || t->view.kind != f->kind) {
        fuzz_fail("the header of a filter the kind wrote is refused: %s", why);
    }
    t->blob = blob;
    t->bytes = f->bytes;
    t->memory = filter_io_memory(blob);
    t->calls = t->writes = 0;
    t->fail_at = fail_at;
}

/* The filter_io of t: filter_io_memory itself (checked 0), or wrapped. */
static filter_io io_of(io_target *t, int checked) {
    filter_io io = {t, checked_read, checked_write};
    return checked ? io : t->memory;
}

/* The operations an _io test runs. */
enum { OP_MIGHT_CONTAIN, OP_ADD, OP_REMOVE };

/* Runs operation op with key on t; *answer gets might_contain_io's answer or add_io's
** was_absent. */
static filter_status run_io(io_target *t, int checked, int op, key_hash key, int *answer) {
    filter_io io = io_of(t, checked);
    const filter_kind *kind = t->view.kind;
    *answer = -1;
    switch (op) {
    case OP_MIGHT_CONTAIN:
        return kind->might_contain_io(&t->view, &io, key, answer);
    case OP_ADD:
        return kind->add_io(&t->view, &io, key, answer);
    default:
        return kind->remove_io(&t->view, &io, key);
    }
}

/* Aborts unless op with key on the filter in blob, through the checked filter_io, stays in
** the BLOB and gives what it gives through filter_io_memory alone (status, answer and bytes);
** then, failing one of its reads and writes (chosen by the key), returns FILTER_IO_FAILED.
** Returns the status, leaves blob as the operation left it, *answer its answer. */
static filter_status check_io(io_target *t, const filter_view *f, uint8_t *blob, int op,
                              key_hash key, int *answer) {
    static const char *const names[] = {"might_contain_io", "add_io", "remove_io"};
    uint8_t *checked = duplicate(blob, f->bytes), *failed = duplicate(blob, f->bytes);
    uint8_t *before = duplicate(blob, f->bytes);
    int checked_answer, failed_answer;
    io_open(t, blob, f, 0);
    filter_status status = run_io(t, 0, op, key, answer);
    io_open(t, checked, f, 0);
    filter_status checked_status = run_io(t, 1, op, key, &checked_answer);
    unsigned calls = t->calls, writes = t->writes;
    if (checked_status != status || checked_answer != *answer ||
        memcmp(checked, blob, f->bytes) != 0) {
        fuzz_fail("%s gives another result through another filter_io", names[op]);
    }
    if (status == FILTER_IO_FAILED || (status == FILTER_ABSENT && writes != 0) ||
        (op == OP_MIGHT_CONTAIN && writes != 0)) {
        fuzz_fail("%s returns %d after %u writes", names[op], status, writes);
    }
    if (status != FILTER_OK) { /* what it wrote is discarded, as its caller does */
        memcpy(blob, before, f->bytes);
    }
    if (calls > 0) {
        io_open(t, failed, f, 1 + (unsigned)(key.h1 % calls));
        if (run_io(t, 1, op, key, &failed_answer) != FILTER_IO_FAILED) {
            fuzz_fail("%s does not report a failed read or write", names[op]);
        }
    }
    free(checked);
    free(failed);
    free(before);
    return status;
}

/*
** Aborts unless the kind's operations on f (accepted) with keys agree with each other and, when
** the kind has an oracle, with its model: filter_copy; then, key by key, might_contain and
** might_contain_io; remove_io of a key that probes 0 (FILTER_ABSENT, nothing written); add_io,
** and add on a copy (the same status, and the same bytes when it succeeds); the key then probes
** 1; remove_io of the key just added succeeds; then compatible and merge of f, on a copy, into
** the filter with the keys added (the same status as the model's: FILTER_FULL when a
** fingerprint finds no room).
*/
static void check_operations(const filter_view *f, const kind_oracle *oracle, const key_hash *keys,
                             size_t count) {
    const filter_kind *kind = f->kind;
    uint8_t *copy = malloc(f->bytes), *expected = duplicate(f->blob, f->bytes);
    uint8_t *added = duplicate(f->blob, f->bytes), *via_io = duplicate(f->blob, f->bytes);
    uint8_t *model = duplicate(f->blob, f->bytes);
    io_target t = {.header = malloc(FILTER_HEADER_BYTES)};
    char why[FILTER_WHY_MAX];
    if (copy == NULL || t.header == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)f->bytes);
    }
    if (oracle != NULL && (oracle->remove == NULL) != (kind->remove_io == NULL)) {
        fuzz_fail("the '%s' kind can%s remove, its oracle can%s", kind->name,
                  kind->remove_io ? "" : "not", oracle->remove ? "" : "not");
    }

    filter_copy(copy, f);
    open_written(copy, f, "the kind's copy");
    if (oracle != NULL) {
        oracle->encode_header(expected, f->blob);
        if (memcmp(copy, expected, f->bytes) != 0) {
            fuzz_fail("the kind's copy differs from the header re-encoded and the body");
        }
    }

    for (size_t i = 0; i < count; i++) {
        filter_view view = open_written(added, f, "a filter the kind added to");
        int probe = kind->might_contain(&view, keys[i]), answer, was_absent = !probe;
        if (check_io(&t, f, via_io, OP_MIGHT_CONTAIN, keys[i], &answer) != FILTER_OK ||
            answer != probe) {
            fuzz_fail("might_contain_io answers %d, might_contain %d", answer, probe);
        }
        if (oracle != NULL && oracle->probe(model, keys[i]) != probe) {
            fuzz_fail("might_contain answers %d, the oracle %d", probe, !probe);
        }
        if (kind->remove_io != NULL && !probe &&
            check_io(&t, f, via_io, OP_REMOVE, keys[i], &answer) != FILTER_ABSENT) {
            fuzz_fail("remove_io removes a key that probes 0");
        }
        filter_status status = check_io(&t, f, via_io, OP_ADD, keys[i], &answer);
        uint8_t *in_memory = duplicate(added, f->bytes); /* dropped unless the add succeeds */
        filter_status memory_status = filter_add(kind, in_memory, keys[i]);
        if (memory_status != status) {
            fuzz_fail("add returns %d, add_io %d", memory_status, status);
        }
        if (status == FILTER_OK) {
            memcpy(added, in_memory, f->bytes);
            if (answer != was_absent) {
                fuzz_fail("add_io says was_absent %d of a key that probed %d", answer, probe);
            }
        } else if (status != FILTER_FULL) {
            fuzz_fail("add_io returns %d", status);
        }
        free(in_memory);
        if (memcmp(added, via_io, f->bytes) != 0) {
            fuzz_fail("add and add_io give other bytes");
        }
        if (oracle != NULL) {
            int model_was_absent;
            filter_status model_status = oracle->add(model, keys[i], &model_was_absent);
            if (status != model_status || memcmp(added, model, f->bytes) != 0) {
                fuzz_fail("add_io returns %d, the oracle %d; the bytes %s", status, model_status,
                          memcmp(added, model, f->bytes) != 0 ? "differ" : "agree");
            }
        }
        if (status != FILTER_OK) {
            continue;
        }
        view = open_written(added, f, "a filter the kind added to");
        if (kind->might_contain(&view, keys[i]) != 1 ||
            check_io(&t, f, via_io, OP_MIGHT_CONTAIN, keys[i], &answer) != FILTER_OK ||
            answer != 1) {
            fuzz_fail("a key added probes 0");
        }
        if (kind->remove_io != NULL) {
            uint8_t *removed = duplicate(via_io, f->bytes);
            if (check_io(&t, f, removed, OP_REMOVE, keys[i], &answer) != FILTER_OK) {
                fuzz_fail("remove_io does not remove a key just added");
            }
            if (oracle != NULL) {
                uint8_t *model_removed = duplicate(model, f->bytes);
                if (oracle->remove(model_removed, keys[i]) != FILTER_OK ||
                    memcmp(removed, model_removed, f->bytes) != 0) {
                    fuzz_fail("remove_io of a key just added disagrees with the oracle");
                }
                free(model_removed);
            }
            free(removed);
        }
    }

    filter_view view = open_written(added, f, "a filter the kind added to");
    filter_status compatible = filter_compatible(&view, f, why);
    if (compatible != FILTER_OK && (oracle != NULL || compatible != FILTER_INVALID)) {
        fuzz_fail("a filter is incompatible with itself with keys added: %s", why);
    }
    filter_status merged = FILTER_INVALID;
    if (compatible == FILTER_OK) {
        uint8_t *merging = duplicate(added, f->bytes); /* dropped unless the merge succeeds */
        merged = kind->merge(merging, f);
        if (merged == FILTER_OK) {
            memcpy(added, merging, f->bytes);
        } else if (merged != FILTER_FULL) {
            fuzz_fail("merge returns %d", merged);
        }
        free(merging);
        view = open_written(added, f, "a merged filter");
    }
    if (oracle != NULL) {
        filter_status model_merged = oracle->merge(model, f->blob);
        if (merged != model_merged || memcmp(added, model, f->bytes) != 0) {
            fuzz_fail("the kind's merge returns %d, the oracle %d; the bytes %s", merged,
                      model_merged, memcmp(added, model, f->bytes) != 0 ? "differ" : "agree");
        }
        for (size_t i = 0; i < count; i++) {
            if (kind->might_contain(&view, keys[i]) != oracle->probe(model, keys[i])) {
                fuzz_fail("might_contain disagrees with the oracle after a merge");
            }
        }
    }
    free(copy);
    free(expected);
    free(added);
    free(via_io);
    free(model);
    free(t.header);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int oracles_checked;
    filter_view view;
    char why[FILTER_WHY_MAX];
    key_hash keys[MAX_KEYS];
    if (!oracles_checked) {
        check_oracles();
        oracles_checked = 1;
    }
    char expected[FILTER_WHY_MAX];
    int verdict = spec_verdict(data, size, expected);
    if (filter_open(data, size, &view, why) != FILTER_OK) {
        check_refusal(why, verdict, expected);
        if (verdict == SPEC_ACCEPTS) {
            fuzz_fail("a filter the spec accepts is refused: %s", why);
        }
        return 0;
    }
    if (why[0] != '\0') {
        fuzz_fail("an accepted filter has the message %s", why);
    }
    if (verdict == SPEC_REFUSES) {
        fuzz_fail("a filter the spec refuses is accepted");
    }
    if (view.kind == NULL || view.kind->id != data[FILTER_OFF_KIND] ||
        view.version != data[FILTER_OFF_VERSION] ||
        view.min_reader_version != data[FILTER_OFF_MIN_READER] ||
        view.hash != data[FILTER_OFF_HASH] || view.blob != data || view.bytes != size) {
        fuzz_fail("the view of an accepted filter differs from its prelude");
    }
    const kind_oracle *oracle = oracle_of(view.kind->id);
    size_t count = derive_keys(data, size, keys);
    if (oracle != NULL) {
        check_header_round_trip(&view, oracle);
    }
    check_operations(&view, oracle, keys, count);
    if (oracle != NULL) {
        oracle->check_own(&view, keys, count);
    }
    return 0;
}
