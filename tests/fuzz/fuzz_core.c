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
#include "filter_kinds.h"
#include "hash_math.h"
#include "bloom_core.h"
#include "counting_core.h"
#include "countmin_core.h"
#include "cuckoo_core.h"
#include "fuzz_input.h"
#include "scalable_core.h"

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

/* What the spec says of a BLOB. */
enum { SPEC_REFUSES, SPEC_ACCEPTS, SPEC_UNMODELED /* a valid prelude of a kind with no oracle */ };

/*
** A kind's oracle. Its functions take BLOBs that the spec accepts (valid says so) and are
** written from docs/format.md, not from the kind's code: of the core they call only
** bloom_positions (checked against the test vectors by the unit tests), in encode_header the
** header writer whose bytes they check, and bloom_size for the stage a scalable filter grows
** by (checked against the formulas by the unit tests).
*/
typedef struct kind_oracle {
    uint8_t id; /* the prelude's kind byte */
    /* Whether header byte offset (8 to 63) is reserved: 0 unless the format version is above
    ** the reader's, and not re-encoded. */
    int (*is_reserved)(size_t offset);
    /* 1 when blob, of size bytes, whose prelude is valid and names the kind, meets the kind's
    ** rules of "Validation" on the header (what filter_kind's validate checks); else 0, with
    ** the message of the first rule it breaks in why (FILTER_WHY_MAX bytes). */
    int (*valid)(const uint8_t *blob, size_t size, char *why);
    /* The same for the rules on what the kind keeps past its header (validate_body), on a blob
    ** whose header valid accepted; NULL when the header says everything. */
    int (*valid_body)(const uint8_t *blob, size_t size, char *why);
    /* 1 when the kind's compatible must accept merging b into a (accepted filters of the kind,
    ** a at least as long as b); NULL: a filter is always compatible with itself with keys
    ** added. */
    int (*compatible)(const uint8_t *a, const uint8_t *b);
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
    if (bytes > FILTER_MAX_BYTES ? status != FILTER_TOO_BIG
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

/* -- The scalable kind (5): a header, then stages that are each a whole Bloom filter. -- */

/* Offsets of the scalable kind's own header fields, and its most stages. */
enum {
    OFF_STAGE_LAYOUT = 8,
    OFF_GROWTH = 9,
    OFF_STAGES = 10,
    OFF_SCALABLE_N = 16,
    OFF_SCALABLE_P = 24,
    OFF_TIGHTENING = 32,
    STAGES_MAX = 64
};

/* The fields of a scalable filter, read from its bytes. */
typedef struct scalable_fields {
    unsigned layout, growth, stages;
    uint64_t n;
    double p, r; /* the compound rate, and the tightening ratio */
    uint64_t keys;
} scalable_fields;

/* The double whose bits are the 8 bytes at bytes, little-endian. */
static double double_at(const uint8_t *bytes) {
    uint64_t bits = little_endian(bytes, 8);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static scalable_fields scalable_fields_of(const uint8_t *blob) {
    scalable_fields s;
    s.layout = blob[OFF_STAGE_LAYOUT];
    s.growth = blob[OFF_GROWTH];
    s.stages = blob[OFF_STAGES];
    s.n = little_endian(blob + OFF_SCALABLE_N, 8);
    s.p = double_at(blob + OFF_SCALABLE_P);
    s.r = double_at(blob + OFF_TIGHTENING);
    s.keys = little_endian(blob + OFF_KEYS, 8);
    return s;
}

static int scalable_is_reserved(size_t offset) {
    return (offset >= 11 && offset < 16) || offset >= 48;
}

/* Stage i's capacity, n growth^i, and rate, p (1 - r) r^i multiplied out in that order (the
** rates are compared exactly); 0 when the capacity passes 2^64 - 1. */
static int stage_target(const scalable_fields *s, unsigned i, uint64_t *n, double *p) {
    uint64_t capacity = s->n;
    double rate = s->p * (1.0 - s->r);
    for (unsigned j = 0; j < i; j++) {
        if (capacity > UINT64_MAX / s->growth) {
            return 0;
        }
        capacity *= s->growth;
        rate *= s->r;
    }
    *n = capacity;
    *p = rate;
    return 1;
}

static int scalable_valid(const uint8_t *blob, size_t size, char *why) {
    scalable_fields s = scalable_fields_of(blob);
    char text[32];
    if (s.layout != BLOOM_LAYOUT_STANDARD && s.layout != BLOOM_LAYOUT_BLOCKED) {
        return refuse(why, "corrupt filter: stage layout %u is not 1 or 2", s.layout);
    }
    if (s.growth < 2) {
        return refuse(why, "corrupt filter: growth %u is less than 2", s.growth);
    }
    if (s.stages < 1 || s.stages > STAGES_MAX) {
        return refuse(why, "corrupt filter: %u stages, not 1 to %d", s.stages, STAGES_MAX);
    }
    if (!(s.r > 0.0 && s.r < 1.0)) {
        return refuse(why, "corrupt filter: tightening ratio %s is not between 0 and 1",
                      rate_text(text, s.r));
    }
    if (!n_p_ok(s.n, s.p, why)) {
        return 0;
    }
    if (size < FILTER_HEADER_BYTES + (size_t)s.stages * (FILTER_HEADER_BYTES + 8)) {
        return refuse(why, "corrupt filter: %zu bytes cannot hold %u stages", size, s.stages);
    }
    return reserved_ok(blob, scalable_is_reserved, why);
}

static int spec_verdict(const uint8_t *data, size_t size, char *expected, int header_only);

/* The stages of the scalable filter blob (whose header is valid), as section 5 checks them:
** each a Bloom filter of the stage layout and the filter's hash, as filter_open would accept its
** header alone, sized as its place says (stage_target), holding at most its capacity; the
** stages filling the BLOB and their keys adding up to the header's (a sum past 2^64 - 1, which
** no header holds, is refused as soon as it passes). */
static int scalable_valid_body(const uint8_t *blob, size_t size, char *why) {
    scalable_fields s = scalable_fields_of(blob);
    size_t offset = FILTER_HEADER_BYTES;
    uint64_t keys = 0;
    char stage_why[FILTER_WHY_MAX], text[32];
    for (unsigned i = 0; i < s.stages; i++) {
        const uint8_t *head = blob + offset;
        uint64_t left = size - offset, n;
        double p;
        if (left < FILTER_HEADER_BYTES) {
            return refuse(why,
                          "corrupt filter: stage %u starts at byte %zu, too near the end of %zu "
                          "bytes",
                          i, offset, size);
        }
        uint64_t m = little_endian(head + OFF_M, 8);
        uint64_t stage_bytes = FILTER_HEADER_BYTES + (m / 64 + (m % 64 != 0)) * 8;
        if (stage_bytes > left) {
            return refuse(why,
                          "corrupt filter: stage %u of m = %llu bits does not fit in the %llu "
                          "bytes after byte %zu",
                          i, (unsigned long long)m, (unsigned long long)left, offset);
        }
        if (spec_verdict(head, (size_t)stage_bytes, stage_why, 1) != SPEC_ACCEPTS) {
            return refuse(why, "corrupt filter: stage %u: %s", i, stage_why);
        }
        bloom_header h = fields_of(head);
        if (head[FILTER_OFF_KIND] != s.layout || head[FILTER_OFF_HASH] != blob[FILTER_OFF_HASH]) {
            return refuse(why, "corrupt filter: stage %u is of kind %u and hash %u, not %u and %u",
                          i, head[FILTER_OFF_KIND], head[FILTER_OFF_HASH], s.layout,
                          blob[FILTER_OFF_HASH]);
        }
        if (!stage_target(&s, i, &n, &p) || h.n != n || memcmp(&h.p, &p, sizeof p) != 0) {
            return refuse(why,
                          "corrupt filter: stage %u is sized for n = %llu at p = %s, not as stage "
                          "%u of this filter",
                          i, (unsigned long long)h.n, rate_text(text, h.p), i);
        }
        if (h.keys > h.n) {
            return refuse(why,
                          "corrupt filter: stage %u holds %llu keys, more than its capacity of "
                          "%llu",
                          i, (unsigned long long)h.keys, (unsigned long long)h.n);
        }
        if (h.keys > UINT64_MAX - keys) {
            return refuse(why,
                          "corrupt filter: %llu keys added, but its stages hold more than %llu",
                          (unsigned long long)s.keys, (unsigned long long)UINT64_MAX);
        }
        keys += h.keys;
        offset += (size_t)stage_bytes;
    }
    if (offset != size) {
        return refuse(why, "corrupt filter: the stages end at byte %zu, the BLOB has %zu", offset,
                      size);
    }
    if (keys != s.keys) {
        return refuse(why, "corrupt filter: %llu keys added, but its stages hold %llu",
                      (unsigned long long)s.keys, (unsigned long long)keys);
    }
    return 1;
}

static void scalable_encode_header(uint8_t *out, const uint8_t *blob) {
    scalable_fields s = scalable_fields_of(blob);
    scalable_header h = {
        (uint8_t)s.layout, (uint8_t)s.growth, (uint8_t)s.stages, s.n, s.p, s.r, s.keys};
    scalable_write_header(out, &h);
}

/* The offset of each stage of the accepted scalable filter blob into offsets (STAGES_MAX);
** returns how many. */
static unsigned stage_offsets(const uint8_t *blob, uint64_t *offsets) {
    unsigned stages = blob[OFF_STAGES];
    uint64_t offset = FILTER_HEADER_BYTES;
    for (unsigned i = 0; i < stages; i++) {
        offsets[i] = offset;
        uint64_t m = fields_of(blob + offset).m;
        offset += FILTER_HEADER_BYTES + m / 8;
    }
    return stages;
}

/* A key is in a scalable filter when a stage, a Bloom filter, may hold it. */
static int scalable_probe(const uint8_t *blob, key_hash key) {
    uint64_t offsets[STAGES_MAX];
    unsigned stages = stage_offsets(blob, offsets);
    for (unsigned i = 0; i < stages; i++) {
        if (bloom_probe(blob + offsets[i], key)) {
            return 1;
        }
    }
    return 0;
}

/* A key a stage may hold is not added again; any other goes into the last stage, counted there
** and in the header, unless it holds its capacity: FILTER_FULL (growing is the caller's). */
static filter_status scalable_add(uint8_t *blob, key_hash key, int *was_absent) {
    uint64_t offsets[STAGES_MAX];
    unsigned stages = stage_offsets(blob, offsets);
    uint8_t *last = blob + offsets[stages - 1];
    *was_absent = !scalable_probe(blob, key);
    if (!*was_absent) {
        return FILTER_OK;
    }
    if (fields_of(last).keys >= fields_of(last).n) {
        return FILTER_FULL;
    }
    int ignored;
    bloom_add(last, key, &ignored);
    store_u64(blob + OFF_KEYS, scalable_fields_of(blob).keys + 1);
    return FILTER_OK;
}

/* Stage by stage, as far as src has stages: the bits ORed, the keys summed (at most the stage's
** n: compatible checked it); the header's keys summed (modulo 2^64, as the code adds them: two
** headers may hold keys adding up past 2^64 - 1, crafted stages of n up to 2^64 - 1). */
static filter_status scalable_model_merge(uint8_t *dst, const uint8_t *src) {
    uint64_t to[STAGES_MAX], from[STAGES_MAX];
    stage_offsets(dst, to);
    unsigned stages = stage_offsets(src, from);
    for (unsigned i = 0; i < stages; i++) {
        bloom_header a = fields_of(dst + to[i]), b = fields_of(src + from[i]);
        for (uint64_t j = 0; j < a.m / 8; j++) {
            dst[to[i] + FILTER_HEADER_BYTES + j] |= src[from[i] + FILTER_HEADER_BYTES + j];
        }
        store_u64(dst + to[i] + OFF_KEYS, a.keys + b.keys);
    }
    store_u64(dst + OFF_KEYS, scalable_fields_of(dst).keys + scalable_fields_of(src).keys);
    return FILTER_OK;
}

/* Scalable filters merge when built alike (stage layout, growth, n, p, ratio) and, stage by
** stage as far as both go, of the same m and k (their n and p are then the same too) and
** holding together at most the stage's capacity (section 4.5, "Union"). */
static int scalable_compatible(const uint8_t *a, const uint8_t *b) {
    scalable_fields x = scalable_fields_of(a), y = scalable_fields_of(b);
    uint64_t ao[STAGES_MAX], bo[STAGES_MAX];
    if (x.layout != y.layout || x.growth != y.growth || x.n != y.n || x.p != y.p || x.r != y.r) {
        return 0;
    }
    unsigned sa = stage_offsets(a, ao), sb = stage_offsets(b, bo);
    for (unsigned i = 0; i < sa && i < sb; i++) {
        bloom_header ha = fields_of(a + ao[i]), hb = fields_of(b + bo[i]);
        if (ha.m != hb.m || ha.k != hb.k || ha.keys > ha.n || hb.keys > ha.n - ha.keys) {
            return 0;
        }
    }
    return 1;
}

/* -- The count-min sketch kind (6): depth rows of width 64-bit counters. -- */

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

/* The new kinds' own functions and growth, checked with the filter_io helpers below. */
static void scalable_check_own(const filter_view *f, const key_hash *keys, size_t count);
static void countmin_check_own(const filter_view *f, const key_hash *keys, size_t count);

/* Every kind of the kind table, and only those. */
static const kind_oracle oracles[] = {
    {.id = BLOOM_LAYOUT_STANDARD,
     .is_reserved = bloom_is_reserved,
     .valid = bloom_valid,
     .encode_header = bloom_encode_header,
     .probe = bloom_probe,
     .add = bloom_add,
     .merge = bloom_model_merge,
     .check_own = bloom_check_own},
    {.id = BLOOM_LAYOUT_BLOCKED,
     .is_reserved = bloom_is_reserved,
     .valid = bloom_valid,
     .encode_header = bloom_encode_header,
     .probe = bloom_probe,
     .add = bloom_add,
     .merge = bloom_model_merge,
     .check_own = bloom_check_own},
    {.id = COUNTING_KIND,
     .is_reserved = counting_is_reserved,
     .valid = counting_valid,
     .encode_header = counting_encode_header,
     .probe = counting_probe,
     .add = counting_add,
     .remove = counting_remove,
     .merge = counting_model_merge,
     .check_own = counting_check_own},
    {.id = CUCKOO_KIND,
     .is_reserved = cuckoo_is_reserved,
     .valid = cuckoo_valid,
     .encode_header = cuckoo_encode_header,
     .probe = cuckoo_probe,
     .add = cuckoo_add,
     .remove = cuckoo_remove,
     .merge = cuckoo_model_merge,
     .check_own = cuckoo_check_own},
    {.id = SCALABLE_KIND,
     .is_reserved = scalable_is_reserved,
     .valid = scalable_valid,
     .valid_body = scalable_valid_body,
     .compatible = scalable_compatible,
     .encode_header = scalable_encode_header,
     .probe = scalable_probe,
     .add = scalable_add,
     .merge = scalable_model_merge,
     .check_own = scalable_check_own},
    {.id = COUNTMIN_KIND,
     .is_reserved = countmin_is_reserved,
     .valid = countmin_valid,
     .encode_header = countmin_encode_header,
     .probe = countmin_probe,
     .add = countmin_add,
     .merge = countmin_model_merge,
     .check_own = countmin_check_own},
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

/* What the spec says of the BLOB data of size bytes: the prelude's checks, then the kind's
** (docs/format.md, "Validation"): on its header, and unless header_only (what filter_open_header
** checks) on what it keeps past it. When it refuses, expected (FILTER_WHY_MAX bytes) gets the
** message of the first check that fails. */
static int spec_verdict(const uint8_t *data, size_t size, char *expected, int header_only) {
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
    if (!oracle->valid(data, size, expected)) {
        return SPEC_REFUSES;
    }
    if (!header_only && oracle->valid_body != NULL && !oracle->valid_body(data, size, expected)) {
        return SPEC_REFUSES;
    }
    return SPEC_ACCEPTS;
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
    if (filter_open_header(encoded, f->bytes, &view, why) != FILTER_OK) {
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
    if (filter_open_header(t->header, f->bytes, &t->view, why) != FILTER_OK ||
        t->view.kind != f->kind) {
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
    int must_merge =
        oracle != NULL && (oracle->compatible == NULL || oracle->compatible(added, f->blob));
    if (compatible != FILTER_OK && (must_merge || compatible != FILTER_INVALID)) {
        fuzz_fail("a filter is incompatible with itself with keys added: %s", why);
    }
    if (compatible == FILTER_OK && oracle != NULL && !must_merge) {
        fuzz_fail("a filter is compatible with itself with keys added, its oracle says not");
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
        filter_status model_merged =
            compatible == FILTER_OK ? oracle->merge(model, f->blob) : FILTER_INVALID;
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

/*
** Aborts unless, for a BLOB whose header opens and whose kind keeps something past it, the kind's
** validate_body, on a view of the header alone through the checked filter_io over a copy of the
** BLOB, gives filter_open's status (opened) and message (opened_why), writes nothing, reads
** inside the BLOB at most STAGES_MAX times (a bounded number, whatever its length), and reports
** each of its reads failing in turn.
*/
static void check_validate_body(const uint8_t *data, size_t size, filter_status opened,
                                const char *opened_why) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open_header(data, size, &view, why) != FILTER_OK ||
        view.kind->validate_body == NULL) {
        return;
    }
    io_target t = {.header = malloc(FILTER_HEADER_BYTES)};
    uint8_t *blob = duplicate(data, size);
    if (t.header == NULL) {
        fuzz_fail("out of memory for a header");
    }
    io_open(&t, blob, &view, 0);
    filter_io io = io_of(&t, 1);
    why[0] = '\0';
    filter_status status = view.kind->validate_body(&t.view, &io, why);
    if (status != opened || strcmp(why, opened_why) != 0) {
        fuzz_fail("validate_body through a filter_io says %d \"%s\", filter_open %d \"%s\"", status,
                  why, opened, opened_why);
    }
    unsigned calls = t.calls;
    if (t.writes != 0 || calls > STAGES_MAX) {
        fuzz_fail("validate_body makes %u reads and %u writes", calls, t.writes);
    }
    for (unsigned fail_at = 1; fail_at <= calls; fail_at++) {
        io_open(&t, blob, &view, fail_at);
        io = io_of(&t, 1);
        if (view.kind->validate_body(&t.view, &io, why) != FILTER_IO_FAILED) {
            fuzz_fail("validate_body does not report its read %u failing", fail_at);
        }
    }
    free(blob);
    free(t.header);
}

/* ---- The scalable kind's growth, merges and own functions. ---- */

/* Integer keys a growth check adds after the input's, and the largest filter it grows to: a
** filter of n = 1 grows to 5 stages. */
enum { GROWTH_KEYS = 24, GROWN_BYTES_MAX = 1 << 16 };

/* The lowest rate of a blocked stage a growth check sizes: blocked sizing takes 2 ms there
** (0.16 s at 1e-19), and a growth sizes the next stage twice. */
#define BLOCKED_STAGE_P_MIN 1e-6

/* Writes the header of a stage of a scalable filter, a Bloom filter of kind h->layout and format
** version 1 with h's fields and no key, from 4.1's fields (not by the kind's writer). */
static void encode_stage_header(uint8_t *out, const bloom_header *h) {
    static const uint8_t prelude[8] = {'S', 'Q', 'B', 'F', 1, 1, 0, KEY_HASH_XXH3_128};
    uint64_t p_bits;
    memset(out, 0, FILTER_HEADER_BYTES);
    memcpy(out, prelude, sizeof prelude);
    out[FILTER_OFF_KIND] = h->layout;
    for (int i = 0; i < 4; i++) {
        out[OFF_K + i] = (uint8_t)(h->k >> (8 * i));
    }
    store_u64(out + OFF_M, h->m);
    store_u64(out + OFF_N, h->n);
    memcpy(&p_bits, &h->p, sizeof p_bits);
    store_u64(out + OFF_P, p_bits);
}

/* The accepted filter of bytes bytes at blob, aborting if it is refused. */
static filter_view open_bytes(const uint8_t *blob, uint64_t bytes, const char *what) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(blob, bytes, &view, why) != FILTER_OK) {
        fuzz_fail("%s is refused: %s", what, why);
    }
    return view;
}

/* Whether a growth check may grow a scalable filter with these fields: its next stage is not a
** blocked one below BLOCKED_STAGE_P_MIN. */
static int may_grow(const scalable_fields *s) {
    uint64_t n;
    double p;
    return s->layout != BLOOM_LAYOUT_BLOCKED || !stage_target(s, s->stages, &n, &p) ||
           p >= BLOCKED_STAGE_P_MIN;
}

/*
** Grows the scalable filter *blob (*bytes long, from malloc, accepted) as the SQL functions do
** (grow_size, a larger copy, grow), and the model *model alike: a stage of n growth^i keys at
** p (1 - r) r^i, sized by bloom_size, empty, after the last, and the header rewritten by the
** kind's writer with one stage more. Returns 0, both left as they were, when the kind cannot
** grow (FILTER_BAD_ARGUMENT at STAGES_MAX stages, FILTER_TOO_BIG past 2^64 - 1 keys or
** FILTER_MAX_BYTES bytes, or bloom_size's status) or the filter would pass GROWN_BYTES_MAX.
** Aborts unless grow_size's status and size are the model's and the grown filter is accepted.
*/
static int grow_both(uint8_t **blob, uint8_t **model, uint64_t *bytes) {
    filter_view view = open_bytes(*blob, *bytes, "a scalable filter to grow");
    scalable_fields s = scalable_fields_of(*model);
    bloom_header stage = {0};
    double stage_bytes = 0;
    uint64_t grown = 1, n;
    double p;
    filter_status expected = FILTER_BAD_ARGUMENT;
    if (s.stages < STAGES_MAX) {
        expected = stage_target(&s, s.stages, &n, &p)
                       ? bloom_size(n, p, (int)s.layout, &stage, &stage_bytes)
                       : FILTER_TOO_BIG;
    }
    if (expected == FILTER_OK && (double)*bytes + stage_bytes > FILTER_MAX_BYTES) {
        expected = FILTER_TOO_BIG;
    }
    filter_status status = view.kind->grow_size(&view, &grown);
    if (status != expected ||
        (status == FILTER_OK ? grown != *bytes + (uint64_t)stage_bytes : grown != 0)) {
        fuzz_fail("grow_size returns %d and %llu bytes, the model %d and %.17g", status,
                  (unsigned long long)grown, expected, (double)*bytes + stage_bytes);
    }
    if (status != FILTER_OK || grown > GROWN_BYTES_MAX) {
        return 0;
    }
    uint8_t *larger = realloc(*blob, grown), *larger_model = realloc(*model, grown);
    if (larger == NULL || larger_model == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)grown);
    }
    view.kind->grow(larger, *bytes);
    memset(larger_model + *bytes, 0, grown - *bytes);
    encode_stage_header(larger_model + *bytes, &stage);
    uint8_t header[FILTER_HEADER_BYTES];
    scalable_encode_header(header, larger_model);
    header[OFF_STAGES] = (uint8_t)(s.stages + 1);
    memcpy(larger_model, header, FILTER_HEADER_BYTES);
    if (memcmp(larger, larger_model, grown) != 0) {
        fuzz_fail("a scalable filter grown to %u stages differs from the model", s.stages + 1);
    }
    open_bytes(larger, grown, "a grown scalable filter");
    *blob = larger;
    *model = larger_model;
    *bytes = grown;
    return 1;
}

/* Aborts unless each of keys probes 1 in the scalable filter blob (bytes long), through
** might_contain, might_contain_io and the model. */
static void check_all_probe(io_target *t, const uint8_t *blob, uint64_t bytes, const key_hash *keys,
                            size_t count) {
    filter_view view = open_bytes(blob, bytes, "a grown scalable filter");
    uint8_t *scratch = duplicate(blob, bytes);
    for (size_t i = 0; i < count; i++) {
        int answer;
        if (view.kind->might_contain(&view, keys[i]) != 1 ||
            check_io(t, &view, scratch, OP_MIGHT_CONTAIN, keys[i], &answer) != FILTER_OK ||
            answer != 1 || scalable_probe(blob, keys[i]) != 1) {
            fuzz_fail("key %zu of %zu added to a scalable filter probes 0", i, count);
        }
    }
    free(scratch);
}

/* Adds key (the index-th) to the scalable filter blob (bytes long) by add, by add_io through
** filter_io_memory (check_io: also through the checked filter_io, with a read or write failing)
** and to model by the model, which must agree in status, answer and bytes; blob and model
** change only when the add succeeds. Returns the status. */
static filter_status add_three(io_target *t, uint8_t *blob, uint8_t *model, uint64_t bytes,
                               key_hash key, size_t index) {
    filter_view view = open_bytes(blob, bytes, "a scalable filter added to");
    uint8_t *in_memory = duplicate(blob, bytes), *via_io = duplicate(blob, bytes);
    int answer, was_absent;
    filter_status status = filter_add(view.kind, in_memory, key);
    filter_status io_status = check_io(t, &view, via_io, OP_ADD, key, &answer);
    filter_status model_status = scalable_add(model, key, &was_absent);
    if (status != io_status || status != model_status ||
        (status == FILTER_OK && (answer != was_absent || memcmp(in_memory, via_io, bytes) != 0 ||
                                 memcmp(in_memory, model, bytes) != 0))) {
        fuzz_fail("adding key %zu to a scalable filter: add %d, add_io %d, the model %d; the "
                  "bytes %s",
                  index, status, io_status, model_status,
                  memcmp(in_memory, model, bytes) != 0 ? "differ" : "agree");
    }
    if (status == FILTER_OK) {
        memcpy(blob, in_memory, bytes);
    } else if (status != FILTER_FULL) {
        fuzz_fail("adding to a scalable filter returns %d", status);
    }
    free(in_memory);
    free(via_io);
    return status;
}

/*
** Adds keys, in turn, to a copy of the scalable filter start (*bytes long, accepted), by the
** kind and the model (add_three). A key that finds the last stage full (FILTER_FULL) grows both
** (grow_both) and then goes in. Stops at the first key it cannot add, the filter unable to
** grow. Returns the filter (malloc), *bytes its length, *added how many keys went in: each
** probes 1 once added, and all of them after each growth and at the end.
*/
static uint8_t *add_growing(const uint8_t *start, uint64_t *bytes, const key_hash *keys,
                            size_t count, size_t *added) {
    uint8_t *blob = duplicate(start, *bytes), *model = duplicate(start, *bytes);
    io_target t = {.header = malloc(FILTER_HEADER_BYTES)};
    if (t.header == NULL) {
        fuzz_fail("out of memory for a header");
    }
    for (*added = 0; *added < count; (*added)++) {
        key_hash key = keys[*added];
        if (add_three(&t, blob, model, *bytes, key, *added) == FILTER_FULL) {
            scalable_fields now = scalable_fields_of(blob);
            if (!may_grow(&now) || !grow_both(&blob, &model, bytes)) {
                break;
            }
            check_all_probe(&t, blob, *bytes, keys, *added);
            if (add_three(&t, blob, model, *bytes, key, *added) != FILTER_OK) {
                fuzz_fail("a grown scalable filter has no room for a key");
            }
        }
        filter_view view = open_bytes(blob, *bytes, "a scalable filter added to");
        if (view.kind->might_contain(&view, key) != 1) {
            fuzz_fail("key %zu added to a scalable filter probes 0", *added);
        }
    }
    check_all_probe(&t, blob, *bytes, keys, *added);
    free(model);
    free(t.header);
    return blob;
}

/* Aborts unless scalable_size, for the parameters of the scalable filter s, sizes a filter of
** one empty stage sized by bloom_size for stage 0's target, with s's parameters, and says how
** many bytes it needs (also when too big). Returns that filter, written as bloom_build writes
** it (malloc, *bytes long), or NULL when it is not sized or larger than GROWN_BYTES_MAX. */
static uint8_t *fresh_scalable(const scalable_fields *s, uint64_t *bytes) {
    scalable_header out;
    bloom_header first, expected_first;
    double needed, stage_bytes = 0;
    uint64_t n;
    double p;
    stage_target(s, 0, &n, &p);
    if (s->layout == BLOOM_LAYOUT_BLOCKED && p < BLOCKED_STAGE_P_MIN) {
        return NULL;
    }
    filter_status expected = bloom_size(n, p, (int)s->layout, &expected_first, &stage_bytes);
    double total = FILTER_HEADER_BYTES + stage_bytes;
    if (expected == FILTER_OK && total > FILTER_MAX_BYTES) {
        expected = FILTER_TOO_BIG;
    }
    filter_status status =
        scalable_size(s->n, s->p, (int)s->layout, (int)s->growth, s->r, &out, &first, &needed);
    if (status != expected || needed != total) {
        fuzz_fail("scalable_size returns %d and %.17g bytes, the model %d and %.17g", status,
                  needed, expected, total);
    }
    if (status != FILTER_OK || total > GROWN_BYTES_MAX) {
        return NULL;
    }
    uint8_t stage_header[FILTER_HEADER_BYTES];
    *bytes = (uint64_t)total;
    uint8_t *blob = calloc(1, (size_t)*bytes);
    if (blob == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)*bytes);
    }
    scalable_write_header(blob, &out);
    bloom_write_header(blob + FILTER_HEADER_BYTES, &first);
    encode_stage_header(stage_header, &expected_first);
    scalable_fields written = scalable_fields_of(blob);
    if (written.layout != s->layout || written.growth != s->growth || written.stages != 1 ||
        written.n != s->n || memcmp(&written.p, &s->p, sizeof s->p) != 0 ||
        memcmp(&written.r, &s->r, sizeof s->r) != 0 || written.keys != 0 ||
        memcmp(blob + FILTER_HEADER_BYTES, stage_header, FILTER_HEADER_BYTES) != 0) {
        fuzz_fail("scalable_size gives another header or first stage than the model");
    }
    open_bytes(blob, *bytes, "a scalable filter scalable_size sized");
    return blob;
}

/* Aborts unless the kind's compatible accepts the scalable filters a and b (of a_keys and
** b_keys, which probe 1 in them), in either order, when the model does; and then unless their
** merge, the shorter into a copy of the longer (as bloom_union does), is the model's, accepted,
** and holds every key of both. */
static void check_scalable_merge(const uint8_t *a, uint64_t a_bytes, const uint8_t *b,
                                 uint64_t b_bytes, const key_hash *a_keys, size_t a_count,
                                 const key_hash *b_keys, size_t b_count) {
    const uint8_t *longer = a_bytes >= b_bytes ? a : b, *shorter = a_bytes >= b_bytes ? b : a;
    uint64_t longer_bytes = a_bytes >= b_bytes ? a_bytes : b_bytes;
    uint64_t shorter_bytes = a_bytes >= b_bytes ? b_bytes : a_bytes;
    filter_view into = open_bytes(longer, longer_bytes, "a scalable filter");
    filter_view from = open_bytes(shorter, shorter_bytes, "a scalable filter");
    char why[FILTER_WHY_MAX];
    filter_status status = filter_compatible(&into, &from, why);
    int expected = scalable_compatible(longer, shorter);
    if ((status != FILTER_OK && status != FILTER_INVALID) || (status == FILTER_OK) != expected ||
        filter_compatible(&from, &into, why) != status) {
        fuzz_fail("compatible of two scalable filters returns %d, the model %s", status,
                  expected ? "accepts" : "refuses");
    }
    if (status != FILTER_OK) {
        return;
    }
    uint8_t *merged = duplicate(longer, longer_bytes), *model = duplicate(longer, longer_bytes);
    if (into.kind->merge(merged, &from) != FILTER_OK ||
        scalable_model_merge(model, shorter) != FILTER_OK ||
        memcmp(merged, model, longer_bytes) != 0) {
        fuzz_fail("merging two scalable filters differs from the model");
    }
    filter_view view = open_bytes(merged, longer_bytes, "a merged scalable filter");
    for (size_t i = 0; i < a_count + b_count; i++) {
        key_hash key = i < a_count ? a_keys[i] : b_keys[i - a_count];
        if (view.kind->might_contain(&view, key) != 1) {
            fuzz_fail("key %zu of two merged scalable filters probes 0", i);
        }
    }
    free(merged);
    free(model);
}

/*
** The scalable kind's own functions: scalable_header_of, scalable_stage_at,
** scalable_stage_target, scalable_compound_rate and scalable_size against the bytes and the
** model. Then growth and merges: the input's first half of keys and GROWTH_KEYS integers added
** to f, growing it (add_growing), the second half and other integers to a fresh filter of f's
** parameters, and the two merged (check_scalable_merge).
*/
static void scalable_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    scalable_header h = scalable_header_of(f);
    scalable_fields s = scalable_fields_of(f->blob);
    uint64_t offsets[STAGES_MAX];
    double rates[STAGES_MAX], none = 1.0;
    if (h.stage_layout != s.layout || h.growth != s.growth || h.stages != s.stages || h.n != s.n ||
        memcmp(&h.p, &s.p, sizeof h.p) != 0 || memcmp(&h.tightening, &s.r, sizeof s.r) != 0 ||
        h.keys != s.keys) {
        fuzz_fail("scalable_header_of decodes other fields than the bytes hold");
    }
    unsigned stages = stage_offsets(f->blob, offsets);
    for (unsigned i = 0; i < stages; i++) {
        scalable_stage stage;
        bloom_header expected = fields_of(f->blob + offsets[i]);
        scalable_stage_at(f, (int)i, &stage);
        if (stage.offset != offsets[i] || stage.bytes != FILTER_HEADER_BYTES + expected.m / 8 ||
            stage.header.layout != expected.layout || stage.header.k != expected.k ||
            stage.header.m != expected.m || stage.header.n != expected.n ||
            memcmp(&stage.header.p, &expected.p, sizeof expected.p) != 0 ||
            stage.header.keys != expected.keys) {
            fuzz_fail("scalable_stage_at(%u) gives other fields than the bytes hold", i);
        }
        rates[i] = bloom_measure(&stage.header, f->blob + stage.offset + FILTER_HEADER_BYTES)
                       .estimated_fp_rate;
        none *= 1.0 - rates[i];
    }
    if (scalable_compound_rate(rates, (int)stages) != 1.0 - none) {
        fuzz_fail("scalable_compound_rate is %.17g, not %.17g",
                  scalable_compound_rate(rates, (int)stages), 1.0 - none);
    }
    for (unsigned i = 0; i <= STAGES_MAX; i++) {
        uint64_t n = 0, expected_n = 0;
        double p = 0, expected_p = 0;
        int fits = scalable_stage_target(&h, (int)i, &n, &p);
        if (fits != stage_target(&s, i, &expected_n, &expected_p) ||
            (fits && (n != expected_n || memcmp(&p, &expected_p, sizeof p) != 0))) {
            fuzz_fail("scalable_stage_target(%u) gives %llu and %.17g, the model %llu and %.17g", i,
                      (unsigned long long)n, p, (unsigned long long)expected_n, expected_p);
        }
    }

    size_t half = count / 2, a_added, b_added;
    key_hash a_keys[MAX_KEYS + GROWTH_KEYS], b_keys[MAX_KEYS + GROWTH_KEYS];
    memcpy(a_keys, keys, half * sizeof *keys);
    memcpy(b_keys, keys + half, (count - half) * sizeof *keys);
    for (int i = 0; i < GROWTH_KEYS; i++) {
        a_keys[half + i] = key_hash_integer(INT64_C(1) << 40 | i);
        b_keys[count - half + i] = key_hash_integer(INT64_C(2) << 40 | i);
    }
    uint64_t a_bytes = f->bytes, b_bytes;
    uint8_t *a = add_growing(f->blob, &a_bytes, a_keys, half + GROWTH_KEYS, &a_added);
    uint8_t *fresh = fresh_scalable(&s, &b_bytes);
    if (fresh != NULL) {
        uint8_t *b = add_growing(fresh, &b_bytes, b_keys, count - half + GROWTH_KEYS, &b_added);
        check_scalable_merge(a, a_bytes, b, b_bytes, a_keys, a_added, b_keys, b_added);
        free(b);
        free(fresh);
    }
    free(a);
}

/* ---- The count-min kind's own functions, counts and updates. ---- */

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
    io_target t = {.header = malloc(FILTER_HEADER_BYTES)};
    if (t.header == NULL) {
        fuzz_fail("out of memory for a header");
    }
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
    int verdict = spec_verdict(data, size, expected, 0);
    filter_status opened = filter_open(data, size, &view, why);
    check_validate_body(data, size, opened, why);
    if (opened != FILTER_OK) {
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
