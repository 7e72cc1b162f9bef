/*
** fuse_core.c: the binary fuse filter kind. See fuse_core.h for the contracts
** and docs/format.md (4.8) for the bytes.
*/
#include "fuse_core.h"

#include "filter_info.h"
#include "hash_math.h"
#include "little_endian.h"

#include <math.h>
#include <string.h>

/* Offsets of the header's fields, after the prelude. */
enum {
    OFF_FINGERPRINT_BITS = 8,
    OFF_ARITY = 9,
    OFF_SEGMENT_BITS = 10,
    OFF_RESERVED_A = 11, /* 1 byte */
    OFF_SEGMENTS = 12,
    OFF_SEED = 16,
    OFF_N = 24,
    OFF_P = 32,
    OFF_KEYS = 40
};

/* The step between the seeds a build tries: seed t is t times this, mod 2^64. */
#define FUSE_SEED_STEP UINT64_C(0x9E3779B97F4A7C15)

/* A key's place in a filter: its fingerprint and its three slots. */
typedef struct fuse_place {
    uint32_t fingerprint;
    uint64_t slot[FUSE_ARITY];
} fuse_place;

/* The place of the key whose mixed hash is h, in a filter of segments segments of 2^bits slots
** with f-bit fingerprints (section 4.8). */
static inline fuse_place fuse_place_of(uint64_t h, uint32_t segments, uint32_t bits, uint32_t f) {
    uint64_t length = UINT64_C(1) << bits, mask = length - 1;
    uint64_t first = hash_reduce(h, (uint64_t)segments << bits);
    fuse_place place;
    place.fingerprint = (uint32_t)((h ^ (h >> 32)) & ((UINT64_C(1) << f) - 1));
    place.slot[0] = first;
    place.slot[1] = (first + length) ^ ((h >> 18) & mask);
    place.slot[2] = (first + 2 * length) ^ (h & mask);
    return place;
}

/* The mixed hash of a key whose key hash begins with h1, in a filter of seed seed. */
static inline uint64_t fuse_mixed(uint64_t h1, uint64_t seed) {
    return hash_mix64(h1 + seed);
}

filter_status fuse_size(uint64_t keys, uint64_t n, double p, fuse_header *out,
                        double *bytes_needed) {
    memset(out, 0, sizeof *out);
    *bytes_needed = 0;
    if (n < 1 || filter_check_rate(p) != FILTER_OK) {
        return FILTER_BAD_ARGUMENT;
    }
    out->n = n;
    out->p = p;
    out->keys = keys;
    uint32_t f = 1;
    while (f <= FUSE_FINGERPRINT_MAX && ldexp(1.0, -(int)f) > p) {
        f++;
    }
    out->fingerprint_bits = f;
    if (f > FUSE_FINGERPRINT_MAX) {
        return FILTER_TOO_MANY_HASHES;
    }
    /* The paper's sizing for 3 slots a key: segments of 2^floor(log_3.33(x) + 2.25) slots, and
    ** x max(1.125, 0.875 + 0.25 log(10^6) / log(x)) slots in all, over whole segments. */
    double x = keys < 2 ? 2.0 : (double)keys;
    double bits = floor(log(x) / log(3.33) + 2.25);
    out->segment_bits = bits > FUSE_SEGMENT_BITS_MAX ? FUSE_SEGMENT_BITS_MAX : (uint32_t)bits;
    double factor = fmax(1.125, 0.875 + 0.25 * log(1e6) / log(x));
    double length = ldexp(1.0, (int)out->segment_bits);
    double segments = fmax(1.0, ceil(ceil(x * factor) / length) - (FUSE_ARITY - 1));
    double slots = (segments + FUSE_ARITY - 1) * length;
    *bytes_needed = FILTER_HEADER_BYTES + ceil(slots * f / 8.0);
    if (slots > (double)FUSE_SLOTS_MAX) {
        return FILTER_TOO_BIG;
    }
    out->segments = (uint32_t)segments;
    return FILTER_OK;
}

uint64_t fuse_slots(const fuse_header *h) {
    return ((uint64_t)h->segments + FUSE_ARITY - 1) << h->segment_bits;
}

uint64_t fuse_blob_bytes(const fuse_header *h) {
    return FILTER_HEADER_BYTES + (fuse_slots(h) * h->fingerprint_bits + 7) / 8;
}

void fuse_write_header(uint8_t *blob, const fuse_header *h) {
    memset(blob, 0, FILTER_HEADER_BYTES);
    filter_write_prelude(blob, &fuse_kind);
    blob[OFF_FINGERPRINT_BITS] = (uint8_t)h->fingerprint_bits;
    blob[OFF_ARITY] = FUSE_ARITY;
    blob[OFF_SEGMENT_BITS] = (uint8_t)h->segment_bits;
    le_store32(blob + OFF_SEGMENTS, h->segments);
    le_store64(blob + OFF_SEED, h->seed);
    le_store64(blob + OFF_N, h->n);
    le_store64(blob + OFF_P, le_double_bits(h->p));
    le_store64(blob + OFF_KEYS, h->keys);
}

fuse_header fuse_header_of(const filter_view *f) {
    fuse_header h;
    h.fingerprint_bits = f->blob[OFF_FINGERPRINT_BITS];
    h.segment_bits = f->blob[OFF_SEGMENT_BITS];
    h.segments = le_load32(f->blob + OFF_SEGMENTS);
    h.seed = le_load64(f->blob + OFF_SEED);
    h.n = le_load64(f->blob + OFF_N);
    h.p = le_bits_double(le_load64(f->blob + OFF_P));
    h.keys = le_load64(f->blob + OFF_KEYS);
    return h;
}

/* The kind's validate: the fields against the BLOB's length (docs/format.md). */
static filter_status fuse_kind_validate(const filter_view *f, char *why) {
    fuse_header h = fuse_header_of(f);
    if (h.fingerprint_bits < 1 || h.fingerprint_bits > FUSE_FINGERPRINT_MAX) {
        return filter_invalid(why, "corrupt filter: fingerprints of %u bits, not 1 to %d",
                              (unsigned)h.fingerprint_bits, FUSE_FINGERPRINT_MAX);
    }
    if (f->blob[OFF_ARITY] != FUSE_ARITY) {
        return filter_invalid(why, "corrupt filter: %u slots a key, not %d", f->blob[OFF_ARITY],
                              FUSE_ARITY);
    }
    if (h.segment_bits > FUSE_SEGMENT_BITS_MAX) {
        return filter_invalid(why, "corrupt filter: segments of 2^%u slots, above 2^%d",
                              (unsigned)h.segment_bits, FUSE_SEGMENT_BITS_MAX);
    }
    if (h.segments == 0 || fuse_slots(&h) > FUSE_SLOTS_MAX) {
        return filter_invalid(why, "corrupt filter: %u segments of 2^%u slots",
                              (unsigned)h.segments, (unsigned)h.segment_bits);
    }
    uint64_t bytes = fuse_blob_bytes(&h);
    if (bytes != f->bytes) {
        return filter_invalid(why,
                              "corrupt filter: %llu slots of %u-bit fingerprints need %llu "
                              "bytes, the BLOB has %llu",
                              (unsigned long long)fuse_slots(&h), (unsigned)h.fingerprint_bits,
                              (unsigned long long)bytes, (unsigned long long)f->bytes);
    }
    if (filter_check_capacity(h.n, h.p, why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    if (h.keys > fuse_slots(&h)) {
        return filter_invalid(why, "corrupt filter: %llu keys in %llu slots",
                              (unsigned long long)h.keys, (unsigned long long)fuse_slots(&h));
    }
    return filter_check_reserved(f, OFF_RESERVED_A, OFF_SEGMENTS, why);
}

/* The f-bit field at bit of bytes (length long), least significant bit first. */
static inline uint32_t fuse_field(const uint8_t *bytes, uint64_t length, uint64_t bit, uint32_t f) {
    uint64_t at = bit >> 3, word = 0;
    if (at + 8 <= length) {
        word = le_load64(bytes + at);
    } else {
        for (uint64_t i = 0; at + i < length; i++) {
            word |= (uint64_t)bytes[at + i] << (8 * i);
        }
    }
    return (uint32_t)((word >> (bit & 7)) & ((UINT64_C(1) << f) - 1));
}

/* The f-bit fingerprint of slot in body (bytes long). */
static inline uint32_t fuse_get(const uint8_t *body, uint64_t bytes, uint64_t slot, uint32_t f) {
    return fuse_field(body, bytes, slot * f, f);
}

/* Sets the f-bit field of slot in body (bytes long), which is 0, to value. */
static void fuse_set(uint8_t *body, uint64_t bytes, uint64_t slot, uint32_t f, uint32_t value) {
    uint64_t bit = slot * f, at = bit >> 3, word = (uint64_t)value << (bit & 7);
    if (at + 8 <= bytes) {
        le_store64(body + at, le_load64(body + at) | word);
    } else {
        for (uint64_t i = 0; at + i < bytes; i++) {
            body[at + i] |= (uint8_t)(word >> (8 * i));
        }
    }
}

/* The kind's might_contain: the XOR of the key's three slots is its fingerprint. */
static int fuse_kind_might_contain(const filter_view *f, key_hash key) {
    const uint8_t *blob = f->blob, *body = blob + FILTER_HEADER_BYTES;
    if (le_load64(blob + OFF_KEYS) == 0) {
        return 0;
    }
    uint32_t bits = blob[OFF_FINGERPRINT_BITS];
    uint64_t bytes = f->bytes - FILTER_HEADER_BYTES;
    fuse_place place = fuse_place_of(fuse_mixed(key.h1, le_load64(blob + OFF_SEED)),
                                     le_load32(blob + OFF_SEGMENTS), blob[OFF_SEGMENT_BITS], bits);
    return (fuse_get(body, bytes, place.slot[0], bits) ^
            fuse_get(body, bytes, place.slot[1], bits) ^
            fuse_get(body, bytes, place.slot[2], bits)) == place.fingerprint;
}

/* The kind's might_contain_io: the three slots read through io, a field's bytes each. */
static filter_status fuse_kind_might_contain_io(const filter_view *f, filter_io *io, key_hash key,
                                                int *answer) {
    fuse_header h = fuse_header_of(f);
    uint32_t xor = 0;
    *answer = 0;
    if (h.keys == 0) {
        return FILTER_OK;
    }
    fuse_place place =
        fuse_place_of(fuse_mixed(key.h1, h.seed), h.segments, h.segment_bits, h.fingerprint_bits);
    for (int j = 0; j < FUSE_ARITY; j++) {
        uint64_t bit = place.slot[j] * h.fingerprint_bits, at = bit >> 3;
        uint32_t length = (uint32_t)(((bit + h.fingerprint_bits + 7) >> 3) - at);
        uint8_t field[8];
        if (io->read(io->state, FILTER_HEADER_BYTES + at, field, length) != 0) {
            return FILTER_IO_FAILED;
        }
        xor ^= fuse_field(field, length, bit & 7, h.fingerprint_bits);
    }
    *answer = xor == place.fingerprint;
    return FILTER_OK;
}

static void fuse_kind_write_header(uint8_t *dst, const filter_view *f) {
    fuse_header h = fuse_header_of(f);
    fuse_write_header(dst, &h);
}

uint64_t fuse_distinct_keys(uint64_t *keys, uint64_t count, uint64_t *buffer) {
    enum { DIGIT_BITS = 11, DIGITS = 1 << DIGIT_BITS };
    uint64_t *from = keys, *to = buffer;
    for (uint32_t shift = 0; shift < 64; shift += DIGIT_BITS) {
        uint64_t starts[DIGITS] = {0};
        for (uint64_t i = 0; i < count; i++) {
            starts[(from[i] >> shift) & (DIGITS - 1)]++;
        }
        uint64_t total = 0;
        for (uint32_t d = 0; d < DIGITS; d++) {
            uint64_t here = starts[d];
            starts[d] = total;
            total += here;
        }
        for (uint64_t i = 0; i < count; i++) {
            to[starts[(from[i] >> shift) & (DIGITS - 1)]++] = from[i];
        }
        uint64_t *swap = from;
        from = to;
        to = swap;
    }
    /* After six passes, an even number, the sorted keys are back in keys. */
    uint64_t distinct = 0;
    for (uint64_t i = 0; i < count; i++) {
        if (distinct == 0 || from[i] != keys[distinct - 1]) {
            keys[distinct++] = from[i];
        }
    }
    return distinct;
}

/* Takes the key whose mixed hash is h off its slots but the one it is peeled from: each
** slot's count less 1, h out of its XOR; a slot left with one key is pushed on the stack that
** ends at scratch->order[*top] (it grows down). */
static void fuse_unlink(const fuse_scratch *scratch, const fuse_place *place, uint64_t peeled_from,
                        uint64_t h, uint64_t *top) {
    for (int j = 0; j < FUSE_ARITY; j++) {
        uint64_t slot = place->slot[j];
        if (slot != peeled_from) {
            scratch->hashes[slot] ^= h;
            if (--scratch->counts[slot] == 1) {
                scratch->order[--*top] = (uint32_t)slot;
            }
        }
    }
}

/* The inverse of hash_mix64: x from hash_mix64(x). */
static uint64_t fuse_unmix(uint64_t z) {
    static const uint64_t multipliers[2] = {UINT64_C(0x94D049BB133111EB),
                                            UINT64_C(0xBF58476D1CE4E5B9)};
    static const int shifts[3] = {31, 27, 30};
    for (int step = 0; step < 3; step++) {
        uint64_t x = z; /* z = x ^ (x >> shift): x from its top bits down */
        for (int bits = shifts[step]; bits < 64; bits += shifts[step]) {
            x = z ^ (x >> shifts[step]);
        }
        z = x;
        if (step < 2) {
            uint64_t inverse = multipliers[step]; /* odd: right in 3 bits, doubled by each step */
            for (int i = 0; i < 5; i++) {
                inverse *= 2 - multipliers[step] * inverse;
            }
            z *= inverse;
        }
    }
    return z;
}

/* Replaces each of the keys (h->keys of them) by its mixed hash for h->seed, in increasing order
** of its top 11 bits, so that the slots of one key after another lie near each other: buffer (as
** many values) is scratch. */
static void fuse_mix_in_order(const fuse_header *h, uint64_t *keys, uint64_t *buffer) {
    enum { ORDER_BITS = 11, RANGES = 1 << ORDER_BITS };
    uint64_t starts[RANGES] = {0};
    for (uint64_t i = 0; i < h->keys; i++) {
        keys[i] = fuse_mixed(keys[i], h->seed);
        starts[keys[i] >> (64 - ORDER_BITS)]++;
    }
    uint64_t total = 0;
    for (uint32_t r = 0; r < RANGES; r++) {
        uint64_t here = starts[r];
        starts[r] = total;
        total += here;
    }
    for (uint64_t i = 0; i < h->keys; i++) {
        buffer[starts[keys[i] >> (64 - ORDER_BITS)]++] = keys[i];
    }
    if (h->keys > 0) { /* keys may be NULL then */
        memcpy(keys, buffer, h->keys * sizeof *keys);
    }
}

/* Tries to peel keys (h->keys of them) with h->seed: each key counted and XORed into its slots
** (the keys mixed and ordered first, fuse_mix_in_order, then put back, reordered), then the slots
** one key alone uses taken one by one, depth first: the slots visited in increasing order, each
** that one key alone uses starting a stack of the slots its peeling leaves so. Returns the number
** of keys peeled, their slots at the start of scratch->order in the order peeled; the stack lives
** at its end (a slot is pushed at most once, so the two never meet). */
static uint64_t fuse_peel(const fuse_header *h, uint64_t *keys, const fuse_scratch *scratch) {
    uint64_t slots = fuse_slots(h), peeled = 0;
    fuse_mix_in_order(h, keys, scratch->hashes);
    memset(scratch->counts, 0, slots);
    memset(scratch->hashes, 0, slots * sizeof *scratch->hashes);
    int crowded = 0;
    for (uint64_t i = 0; i < h->keys && !crowded; i++) {
        uint64_t mixed = keys[i];
        fuse_place place = fuse_place_of(mixed, h->segments, h->segment_bits, h->fingerprint_bits);
        for (int j = 0; j < FUSE_ARITY; j++) {
            crowded |= scratch->counts[place.slot[j]] == UINT8_MAX; /* this seed will not do */
            scratch->counts[place.slot[j]]++;
            scratch->hashes[place.slot[j]] ^= mixed;
        }
    }
    for (uint64_t i = 0; i < h->keys; i++) {
        keys[i] = fuse_unmix(keys[i]) - h->seed;
    }
    if (crowded) {
        return 0;
    }
    for (uint64_t visited = 0; visited < slots; visited++) {
        if (scratch->counts[visited] != 1) {
            continue;
        }
        uint64_t top = slots;
        scratch->order[--top] = (uint32_t)visited;
        while (top < slots) {
            uint32_t slot = scratch->order[top++];
            if (scratch->counts[slot] != 1) {
                continue; /* its key was peeled from another of its slots */
            }
            uint64_t mixed = scratch->hashes[slot];
            fuse_place place =
                fuse_place_of(mixed, h->segments, h->segment_bits, h->fingerprint_bits);
            fuse_unlink(scratch, &place, slot, mixed, &top);
            scratch->counts[slot] = 0;
            scratch->order[peeled++] = slot; /* below the stack: see above */
        }
    }
    return peeled;
}

/* Writes the fingerprints of the peeled keys, last peeled first: each into the slot it was
** peeled from, the XOR of its fingerprint and its other two slots. */
static void fuse_assign(uint8_t *blob, const fuse_header *h, const fuse_scratch *scratch) {
    uint8_t *body = blob + FILTER_HEADER_BYTES;
    uint64_t bytes = fuse_blob_bytes(h) - FILTER_HEADER_BYTES;
    uint32_t f = h->fingerprint_bits;
    for (uint64_t i = h->keys; i-- > 0;) {
        uint32_t slot = scratch->order[i];
        fuse_place place = fuse_place_of(scratch->hashes[slot], h->segments, h->segment_bits, f);
        uint32_t value = place.fingerprint;
        for (int j = 0; j < FUSE_ARITY; j++) {
            value ^= place.slot[j] != slot ? fuse_get(body, bytes, place.slot[j], f) : 0;
        }
        fuse_set(body, bytes, slot, f, value);
    }
}

filter_status fuse_build(uint8_t *blob, fuse_header *h, uint64_t *keys,
                         const fuse_scratch *scratch) {
    for (uint64_t t = 0; t < FUSE_SEEDS; t++) {
        h->seed = t * FUSE_SEED_STEP;
        if (fuse_peel(h, keys, scratch) == h->keys) {
            fuse_assign(blob, h, scratch);
            fuse_write_header(blob, h);
            return FILTER_OK;
        }
    }
    return FILTER_FULL;
}

/* The fields of bloom_info: the geometry, the header, and the bits a key (null before a key). */
static void fuse_kind_info(const filter_view *f, info_sink *sink) {
    fuse_header h = fuse_header_of(f);
    info_count(sink, "fingerprint_bits", h.fingerprint_bits);
    info_count(sink, "arity", FUSE_ARITY);
    info_count(sink, "segment_length", UINT64_C(1) << h.segment_bits);
    info_count(sink, "segments", h.segments);
    info_count(sink, "slots", fuse_slots(&h));
    info_count(sink, "seed", h.seed);
    info_count(sink, "bytes", f->bytes);
    info_count(sink, "n", h.n);
    info_real(sink, "p", h.p);
    info_count(sink, "keys_added", h.keys);
    if (h.keys > 0) {
        info_real(sink, "bits_per_key", 8.0 * (double)f->bytes / (double)h.keys);
        info_real(sink, "estimated_fp_rate", ldexp(1.0, -(int)h.fingerprint_bits));
    } else {
        info_null(sink, "bits_per_key");
        info_real(sink, "estimated_fp_rate", 0.0);
    }
    info_flag(sink, "over_capacity", h.keys > h.n);
}

/* Built once from all its keys: nothing is added, removed or merged after. */
const filter_kind fuse_kind = {
    .id = FUSE_KIND,
    .name = "fuse",
    .format_version = FUSE_FORMAT_VERSION,
    .key_hash = KEY_HASH_XXH3_128,
    .validate = fuse_kind_validate,
    .might_contain = fuse_kind_might_contain,
    .write_header = fuse_kind_write_header,
    .might_contain_io = fuse_kind_might_contain_io,
    .info = fuse_kind_info,
};
