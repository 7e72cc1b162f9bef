/*
** fuzz_core_cuckoo.c: the oracle of the cuckoo kind (4), from docs/format.md
** 4.4: its validation, its model (buckets of 4 fingerprints, each add's kicks
** slot for slot, remove, merge by reinsertion), and the checks of cuckoo_core's
** own functions, of its sizing, and of 4.4's promise that adding a key then
** removing it restores every answer.
*/
#include "fuzz_core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Offsets of the cuckoo kind's own header fields. */
enum { OFF_FINGERPRINT_BITS = 8, OFF_SLOTS = 9, OFF_BUCKETS = 16 };

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
    c.f = blob[OFF_FINGERPRINT_BITS];
    c.buckets = little_endian(blob + OFF_BUCKETS, 8);
    c.n = little_endian(blob + OFF_N, 8);
    c.p = double_at(blob + OFF_P);
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

/* Puts fp into the first empty slot of bucket i of the cuckoo filter blob; 0 when it has none. */
static int put_in_empty_slot(uint8_t *blob, const cuckoo_fields *c, uint64_t i, uint32_t fp) {
    unsigned s = slot_holding(blob, c, i, 0);
    if (s == SLOTS) {
        return 0;
    }
    set_slot(blob, c->f, SLOTS * i + s, fp);
    return 1;
}

/* Puts fp, whose buckets are i and alt(i, fp), into the filter blob as 4.4's add does with
** seed: the first empty slot of i, else of its other; else up to KICKS evictions. Returns 0
** when it finds no room, blob then changed (the caller restores it). */
static int cuckoo_place(uint8_t *blob, const cuckoo_fields *c, uint64_t i, uint32_t fp,
                        uint64_t seed) {
    uint64_t other = alt(c, i, fp);
    if (put_in_empty_slot(blob, c, i, fp) || put_in_empty_slot(blob, c, other, fp)) {
        return 1;
    }
    uint64_t b = mix(seed) % 2 == 1 ? other : i;
    for (uint64_t kick = 0; kick < KICKS; kick++) {
        uint64_t j = SLOTS * b + (mix(seed + kick + 1) >> 62);
        uint32_t evicted = slot_value(blob, c->f, j);
        set_slot(blob, c->f, j, fp);
        fp = evicted;
        b = alt(c, b, fp);
        if (put_in_empty_slot(blob, c, b, fp)) {
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
        uint8_t *blob;
        filter_status status = add_then_remove(f, keys[i], &blob);
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

const kind_oracle cuckoo_oracle = {.id = CUCKOO_KIND,
                                   .is_reserved = cuckoo_is_reserved,
                                   .valid = cuckoo_valid,
                                   .encode_header = cuckoo_encode_header,
                                   .probe = cuckoo_probe,
                                   .add = cuckoo_add,
                                   .remove = cuckoo_remove,
                                   .merge = cuckoo_model_merge,
                                   .check_own = cuckoo_check_own};
