/*
** cuckoo_core.c: the cuckoo filter kind. See cuckoo_core.h for the contracts
** and docs/format.md for the bytes.
*/
#include "cuckoo_core.h"

#include "filter_info.h"
#include "hash_math.h"
#include "little_endian.h"

#include <math.h>
#include <string.h>

/* Offsets of the header's fields, after the prelude. */
enum {
    OFF_FINGERPRINT_BITS = 8,
    OFF_SLOTS = 9,
    OFF_RESERVED_A = 10, /* 6 bytes */
    OFF_BUCKETS = 16,
    OFF_N = 24,
    OFF_P = 32,
    OFF_KEYS = 40,
    OFF_RESERVED_B = 48 /* 16 bytes */
};

/* A bucket is 4 slots: the length's halving and a kick's 2-bit slot rely on it. */
_Static_assert(CUCKOO_SLOTS == 4, "a cuckoo bucket holds 4 fingerprints");

/* Most bytes a bucket spans: 4 fingerprints of 32 bits, from any bit of its first byte. */
enum { BUCKET_BYTES_MAX = (7 + CUCKOO_SLOTS * CUCKOO_FINGERPRINT_MAX + 7) / 8 };

filter_status cuckoo_size(uint64_t n, double p, cuckoo_header *out, double *bytes_needed) {
    memset(out, 0, sizeof *out);
    *bytes_needed = 0;
    if (n < 1 || filter_check_rate(p) != FILTER_OK) {
        return FILTER_BAD_ARGUMENT;
    }
    out->n = n;
    out->p = p;
    /* The rate at load a: 2 buckets of CUCKOO_SLOTS slots, a share a of them in use, each
    ** matching with chance 1 / (2^f - 1). */
    double compared = 2.0 * CUCKOO_SLOTS * CUCKOO_LOAD;
    uint32_t f = 1;
    while (f <= CUCKOO_FINGERPRINT_MAX && compared / (ldexp(1.0, (int)f) - 1.0) > p) {
        f++;
    }
    out->fingerprint_bits = f;
    if (f > CUCKOO_FINGERPRINT_MAX) {
        return FILTER_TOO_MANY_HASHES;
    }
    /* n keys at CUCKOO_LOAD, and 2 standard deviations more buckets: without them, 1 % of
    ** small filters filled with n random keys had no room for the last ones (measured). */
    double at_load = (double)n / (CUCKOO_SLOTS * CUCKOO_LOAD);
    double buckets = ceil(at_load + CUCKOO_SLACK * sqrt(at_load));
    *bytes_needed = FILTER_HEADER_BYTES + ceil(buckets * CUCKOO_SLOTS * f / 8.0);
    if (*bytes_needed > FILTER_MAX_BYTES) {
        return FILTER_TOO_BIG;
    }
    out->buckets = (uint64_t)buckets;
    return FILTER_OK;
}

uint64_t cuckoo_blob_bytes(const cuckoo_header *h) {
    /* 64 + ceil(B * CUCKOO_SLOTS * f / 8) = 64 + ceil(B f / 2), as (B div 2) f + ceil((B mod 2)
    ** f / 2), so that no intermediate overflows where the result fits. */
    uint64_t f = h->fingerprint_bits, half = h->buckets / 2, tail = (h->buckets % 2 * f + 1) / 2;
    if (f == 0 || half > (UINT64_MAX - FILTER_HEADER_BYTES - tail) / f) {
        return 0;
    }
    return FILTER_HEADER_BYTES + half * f + tail;
}

void cuckoo_write_header(uint8_t *blob, const cuckoo_header *h) {
    memset(blob, 0, FILTER_HEADER_BYTES);
    filter_write_prelude(blob, &cuckoo_kind);
    blob[OFF_FINGERPRINT_BITS] = (uint8_t)h->fingerprint_bits;
    blob[OFF_SLOTS] = CUCKOO_SLOTS;
    le_store64(blob + OFF_BUCKETS, h->buckets);
    le_store64(blob + OFF_N, h->n);
    le_store64(blob + OFF_P, le_double_bits(h->p));
    le_store64(blob + OFF_KEYS, h->keys);
}

cuckoo_header cuckoo_header_of(const filter_view *f) {
    cuckoo_header h;
    h.fingerprint_bits = f->blob[OFF_FINGERPRINT_BITS];
    h.buckets = le_load64(f->blob + OFF_BUCKETS);
    h.n = le_load64(f->blob + OFF_N);
    h.p = le_bits_double(le_load64(f->blob + OFF_P));
    h.keys = le_load64(f->blob + OFF_KEYS);
    return h;
}

/* The kind's validate: the fields against the BLOB's length (docs/format.md). */
static filter_status cuckoo_kind_validate(const filter_view *f, char *why) {
    cuckoo_header h = cuckoo_header_of(f);
    if (h.fingerprint_bits < 1 || h.fingerprint_bits > CUCKOO_FINGERPRINT_MAX) {
        return filter_invalid(why, "corrupt filter: fingerprints of %u bits, not 1 to %d",
                              (unsigned)h.fingerprint_bits, CUCKOO_FINGERPRINT_MAX);
    }
    if (f->blob[OFF_SLOTS] != CUCKOO_SLOTS) {
        return filter_invalid(why, "corrupt filter: buckets of %u slots, not %d",
                              f->blob[OFF_SLOTS], CUCKOO_SLOTS);
    }
    uint64_t bytes = cuckoo_blob_bytes(&h);
    if (h.buckets == 0 || bytes == 0) {
        return filter_invalid(why, "corrupt filter: %llu buckets", (unsigned long long)h.buckets);
    }
    if (bytes != f->bytes) {
        return filter_invalid(why,
                              "corrupt filter: %llu buckets of %u-bit fingerprints need %llu "
                              "bytes, the BLOB has %llu",
                              (unsigned long long)h.buckets, (unsigned)h.fingerprint_bits,
                              (unsigned long long)bytes, (unsigned long long)f->bytes);
    }
    if (filter_check_capacity(h.n, h.p, why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    if (h.keys > CUCKOO_SLOTS * h.buckets) {
        return filter_invalid(why, "corrupt filter: %llu keys in %llu slots",
                              (unsigned long long)h.keys,
                              (unsigned long long)(CUCKOO_SLOTS * h.buckets));
    }
    return filter_check_reserved(f, OFF_RESERVED_A, OFF_BUCKETS, why);
}

/* A bucket as read: the bytes it spans, and its slots' fingerprints (0: empty). */
typedef struct cuckoo_bucket {
    uint64_t index;
    uint64_t offset; /* in the BLOB, of its first byte */
    uint32_t shift;  /* of its first bit in that byte */
    uint32_t bytes;
    uint8_t raw[BUCKET_BYTES_MAX];
    uint32_t slot[CUCKOO_SLOTS];
} cuckoo_bucket;

/* The width-bit field at bit of raw, least significant bit first. */
static uint32_t cuckoo_get_field(const uint8_t *raw, uint32_t bit, uint32_t width) {
    uint64_t v = 0;
    for (uint32_t j = bit / 8; j <= (bit + width - 1) / 8; j++) {
        v |= (uint64_t)raw[j] << (8 * (j - bit / 8));
    }
    return (uint32_t)((v >> (bit % 8)) & ((UINT64_C(1) << width) - 1));
}

/* Sets the width-bit field at bit of raw to value. */
static void cuckoo_set_field(uint8_t *raw, uint32_t bit, uint32_t width, uint32_t value) {
    for (uint32_t t = 0; t < width; t++) {
        uint32_t at = bit + t;
        raw[at / 8] =
            (uint8_t)((raw[at / 8] & ~(1u << (at % 8))) | (((value >> t) & 1u) << (at % 8)));
    }
}

/* Reads bucket i of a filter of header h through io. */
static filter_status cuckoo_read_bucket(const cuckoo_header *h, filter_io *io, uint64_t i,
                                        cuckoo_bucket *b) {
    uint64_t first_bit = i * CUCKOO_SLOTS * h->fingerprint_bits;
    uint64_t last_bit = first_bit + CUCKOO_SLOTS * h->fingerprint_bits - 1;
    b->index = i;
    b->offset = FILTER_HEADER_BYTES + first_bit / 8;
    b->shift = (uint32_t)(first_bit % 8);
    b->bytes = (uint32_t)(last_bit / 8 - first_bit / 8 + 1);
    if (io->read(io->state, b->offset, b->raw, b->bytes) != 0) {
        return FILTER_IO_FAILED;
    }
    for (uint32_t s = 0; s < CUCKOO_SLOTS; s++) {
        b->slot[s] =
            cuckoo_get_field(b->raw, b->shift + s * h->fingerprint_bits, h->fingerprint_bits);
    }
    return FILTER_OK;
}

/* Sets slot s of bucket b to fingerprint fp, in b and through io. */
static filter_status cuckoo_write_slot(const cuckoo_header *h, filter_io *io, cuckoo_bucket *b,
                                       uint32_t s, uint32_t fp) {
    b->slot[s] = fp;
    cuckoo_set_field(b->raw, b->shift + s * h->fingerprint_bits, h->fingerprint_bits, fp);
    return io->write(io->state, b->offset, b->raw, b->bytes) != 0 ? FILTER_IO_FAILED : FILTER_OK;
}

/* A key's fingerprint, 1 to 2^f - 1, and its first bucket. */
static uint32_t cuckoo_fingerprint_of(const cuckoo_header *h, key_hash key) {
    uint64_t values = (UINT64_C(1) << h->fingerprint_bits) - 1;
    return (uint32_t)(hash_reduce(key.h2, values) + 1);
}

static uint64_t cuckoo_first_bucket(const cuckoo_header *h, key_hash key) {
    return hash_reduce(key.h1, h->buckets);
}

/* The other bucket of fingerprint fp in bucket i: (g(fp) - i) mod B, with g(fp) in [0, B); the
** same map takes it back. */
static uint64_t cuckoo_other_bucket(const cuckoo_header *h, uint64_t i, uint32_t fp) {
    uint64_t g = hash_reduce(hash_mix64(fp), h->buckets);
    return g >= i ? g - i : g + h->buckets - i;
}

/* The first empty slot of b, or CUCKOO_SLOTS. */
static uint32_t cuckoo_empty_slot(const cuckoo_bucket *b) {
    uint32_t s = 0;
    while (s < CUCKOO_SLOTS && b->slot[s] != 0) {
        s++;
    }
    return s;
}

/* The first slot of b holding fp, or CUCKOO_SLOTS. */
static uint32_t cuckoo_slot_of(const cuckoo_bucket *b, uint32_t fp) {
    uint32_t s = 0;
    while (s < CUCKOO_SLOTS && b->slot[s] != fp) {
        s++;
    }
    return s;
}

/*
** Puts fingerprint fp, whose buckets are i and its other, in an empty slot of
** either, or else moves fingerprints to their other buckets to make room: at
** most CUCKOO_MAX_KICKS, the bucket and slot of each move chosen from seed.
** FILTER_FULL when that does not find room (what was written is to be dropped).
*/
static filter_status cuckoo_insert(const cuckoo_header *h, filter_io *io, uint64_t i, uint32_t fp,
                                   uint64_t seed) {
    cuckoo_bucket b;
    uint64_t buckets[2] = {i, cuckoo_other_bucket(h, i, fp)};
    for (int j = 0; j < 2; j++) {
        if (cuckoo_read_bucket(h, io, buckets[j], &b) != FILTER_OK) {
            return FILTER_IO_FAILED;
        }
        uint32_t s = cuckoo_empty_slot(&b);
        if (s < CUCKOO_SLOTS) {
            return cuckoo_write_slot(h, io, &b, s, fp);
        }
    }
    /* b is the second bucket; start from the one seed picks. */
    if ((hash_mix64(seed) & 1) == 0 && cuckoo_read_bucket(h, io, buckets[0], &b) != FILTER_OK) {
        return FILTER_IO_FAILED;
    }
    for (uint32_t kick = 0; kick < CUCKOO_MAX_KICKS; kick++) {
        uint32_t s = (uint32_t)(hash_mix64(seed + kick + 1) >> 62); /* CUCKOO_SLOTS == 4 */
        uint32_t evicted = b.slot[s];
        if (cuckoo_write_slot(h, io, &b, s, fp) != FILTER_OK ||
            cuckoo_read_bucket(h, io, cuckoo_other_bucket(h, b.index, evicted), &b) != FILTER_OK) {
            return FILTER_IO_FAILED;
        }
        fp = evicted;
        s = cuckoo_empty_slot(&b);
        if (s < CUCKOO_SLOTS) {
            return cuckoo_write_slot(h, io, &b, s, fp);
        }
    }
    return FILTER_FULL;
}

/* The kind's count_limit: its slots, which its count of keys never passes. */
static uint64_t cuckoo_kind_count_limit(const filter_view *f) {
    return CUCKOO_SLOTS * cuckoo_header_of(f).buckets;
}

/* Writes keys, kept at the number of slots, as the filter's count of keys. */
static filter_status cuckoo_write_keys(const cuckoo_header *h, filter_io *io, uint64_t keys) {
    uint8_t bytes[8];
    le_store64(bytes, keys < CUCKOO_SLOTS * h->buckets ? keys : CUCKOO_SLOTS * h->buckets);
    return io->write(io->state, OFF_KEYS, bytes, sizeof bytes) != 0 ? FILTER_IO_FAILED : FILTER_OK;
}

/* Finds key's fingerprint: *where gets its bucket (read into b) and *slot its slot, or
** *slot = CUCKOO_SLOTS when neither bucket holds it. */
static filter_status cuckoo_find(const cuckoo_header *h, filter_io *io, key_hash key,
                                 cuckoo_bucket *b, uint32_t *slot) {
    uint32_t fp = cuckoo_fingerprint_of(h, key);
    uint64_t i = cuckoo_first_bucket(h, key);
    *slot = CUCKOO_SLOTS;
    if (cuckoo_read_bucket(h, io, i, b) != FILTER_OK) {
        return FILTER_IO_FAILED;
    }
    *slot = cuckoo_slot_of(b, fp);
    if (*slot == CUCKOO_SLOTS) {
        if (cuckoo_read_bucket(h, io, cuckoo_other_bucket(h, i, fp), b) != FILTER_OK) {
            return FILTER_IO_FAILED;
        }
        *slot = cuckoo_slot_of(b, fp);
    }
    return FILTER_OK;
}

static filter_status cuckoo_kind_might_contain_io(const filter_view *f, filter_io *io, key_hash key,
                                                  int *answer) {
    cuckoo_header h = cuckoo_header_of(f);
    cuckoo_bucket b;
    uint32_t slot;
    filter_status status = cuckoo_find(&h, io, key, &b, &slot);
    *answer = slot < CUCKOO_SLOTS;
    return status;
}

/* The kind's might_contain, through a filter_io over the BLOB that only reads. */
static int cuckoo_kind_might_contain(const filter_view *f, key_hash key) {
    filter_io io = filter_io_memory((uint8_t *)f->blob); /* find only reads */
    int answer = 1;
    cuckoo_kind_might_contain_io(f, &io, key, &answer); /* memory cannot fail */
    return answer;
}

static filter_status cuckoo_kind_add_io(const filter_view *f, filter_io *io, key_hash key,
                                        int *was_absent) {
    cuckoo_header h = cuckoo_header_of(f);
    cuckoo_bucket b;
    uint32_t slot;
    filter_status status = cuckoo_find(&h, io, key, &b, &slot);
    if (status != FILTER_OK) {
        return status;
    }
    *was_absent = slot == CUCKOO_SLOTS;
    status =
        cuckoo_insert(&h, io, cuckoo_first_bucket(&h, key), cuckoo_fingerprint_of(&h, key), key.h1);
    return status != FILTER_OK ? status : cuckoo_write_keys(&h, io, h.keys + 1);
}

static filter_status cuckoo_kind_remove_io(const filter_view *f, filter_io *io, key_hash key) {
    cuckoo_header h = cuckoo_header_of(f);
    cuckoo_bucket b;
    uint32_t slot;
    filter_status status = cuckoo_find(&h, io, key, &b, &slot);
    if (status != FILTER_OK || slot == CUCKOO_SLOTS) {
        return status != FILTER_OK ? status : FILTER_ABSENT;
    }
    status = cuckoo_write_slot(&h, io, &b, slot, 0);
    return status != FILTER_OK ? status : cuckoo_write_keys(&h, io, h.keys > 0 ? h.keys - 1 : 0);
}

/* The kind's write_header. */
static void cuckoo_kind_write_header(uint8_t *dst, const filter_view *f) {
    cuckoo_header h = cuckoo_header_of(f);
    cuckoo_write_header(dst, &h);
}

/* The kind's compatible: the same buckets and fingerprint bits. */
static filter_status cuckoo_kind_compatible(const filter_view *a, const filter_view *b, char *why) {
    char a_p[32], b_p[32];
    cuckoo_header x = cuckoo_header_of(a), y = cuckoo_header_of(b);
    if (x.buckets == y.buckets && x.fingerprint_bits == y.fingerprint_bits) {
        return FILTER_OK;
    }
    return filter_invalid(why,
                          "incompatible filters: one built for n = %llu at p = %s (%llu buckets, "
                          "%u-bit fingerprints), the other for n = %llu at p = %s (%llu buckets, "
                          "%u-bit fingerprints); build both with the same n, p and kind",
                          (unsigned long long)x.n, filter_format_double(a_p, x.p),
                          (unsigned long long)x.buckets, (unsigned)x.fingerprint_bits,
                          (unsigned long long)y.n, filter_format_double(b_p, y.p),
                          (unsigned long long)y.buckets, (unsigned)y.fingerprint_bits);
}

/* The kind's merge: every fingerprint of f inserted into the filter in blob, from the bucket
** it is in; FILTER_FULL when one finds no room. */
static filter_status cuckoo_kind_merge(uint8_t *blob, const filter_view *f) {
    filter_view into = {&cuckoo_kind, 0, 0, 0, blob, 0};
    cuckoo_header h = cuckoo_header_of(&into), from = cuckoo_header_of(f);
    filter_io io = filter_io_memory(blob), source = filter_io_memory((uint8_t *)f->blob);
    cuckoo_bucket b;
    for (uint64_t i = 0; i < h.buckets; i++) {
        cuckoo_read_bucket(&h, &source, i, &b); /* memory cannot fail */
        for (uint32_t s = 0; s < CUCKOO_SLOTS; s++) {
            if (b.slot[s] != 0 &&
                cuckoo_insert(&h, &io, i, b.slot[s], hash_mix64(i) ^ b.slot[s] ^ s) != FILTER_OK) {
                return FILTER_FULL;
            }
        }
    }
    return cuckoo_write_keys(&h, &io, filter_add_counts(h.keys, from.keys));
}

uint64_t cuckoo_slots_used(const filter_view *f) {
    cuckoo_header h = cuckoo_header_of(f);
    filter_io io = filter_io_memory((uint8_t *)f->blob); /* only read */
    cuckoo_bucket b;
    uint64_t used = 0;
    for (uint64_t i = 0; i < h.buckets; i++) {
        cuckoo_read_bucket(&h, &io, i, &b);
        for (uint32_t s = 0; s < CUCKOO_SLOTS; s++) {
            used += b.slot[s] != 0;
        }
    }
    return used;
}

double cuckoo_fp_rate(const cuckoo_header *h, uint64_t slots_used) {
    double load = (double)slots_used / ((double)h->buckets * CUCKOO_SLOTS);
    double match = 1.0 / (ldexp(1.0, (int)h->fingerprint_bits) - 1.0);
    if (h->fingerprint_bits == 1) { /* every fingerprint is 1 */
        return slots_used > 0 ? 1.0 : 0.0;
    }
    return -expm1(2.0 * CUCKOO_SLOTS * load * log1p(-match));
}

/* The fields of bloom_info: the header, then the slots in use and the rate they give. O(size). */
static void cuckoo_kind_info(const filter_view *f, info_sink *sink) {
    cuckoo_header h = cuckoo_header_of(f);
    uint64_t used = cuckoo_slots_used(f), slots = h.buckets * CUCKOO_SLOTS;
    info_count(sink, "fingerprint_bits", h.fingerprint_bits);
    info_count(sink, "buckets", h.buckets);
    info_count(sink, "slots_per_bucket", CUCKOO_SLOTS);
    info_count(sink, "bytes", f->bytes);
    info_count(sink, "n", h.n);
    info_real(sink, "p", h.p);
    info_count(sink, "keys_added", h.keys);
    info_count(sink, "slots_used", used);
    info_real(sink, "load_factor", (double)used / (double)slots);
    info_real(sink, "estimated_fp_rate", cuckoo_fp_rate(&h, used));
    info_flag(sink, "over_capacity", h.keys > h.n);
}

const filter_kind cuckoo_kind = {
    .id = CUCKOO_KIND,
    .name = "cuckoo",
    .format_version = CUCKOO_FORMAT_VERSION,
    .key_hash = KEY_HASH_XXH3_128,
    .count_offset = OFF_KEYS,
    .count_by_steps = 1,
    .count_limit = cuckoo_kind_count_limit,
    .validate = cuckoo_kind_validate,
    .might_contain = cuckoo_kind_might_contain,
    .write_header = cuckoo_kind_write_header,
    .compatible = cuckoo_kind_compatible,
    .merge = cuckoo_kind_merge,
    .might_contain_io = cuckoo_kind_might_contain_io,
    .add_io = cuckoo_kind_add_io,
    .remove_io = cuckoo_kind_remove_io,
    .full_advice = "which holds about the n keys it was built for, and a key at most 8 times: "
                   "build it with a larger n",
    .info = cuckoo_kind_info,
};
