/*
** fuzz_core_fuse.c: the oracle of the binary fuse kind (8), from docs/format.md
** 4.8 and section 5's table for kind 8: its validation, its probe (a key's
** mixed hash, its fingerprint, its three slots and their XOR), and nothing
** added, removed or merged (a static kind: no add, remove or merge in the
** oracle either, which check_operations takes as the kind's refusals to
** check). Then the checks of fuse_core's own functions: the header decoded,
** the sizing against 4.8's formulas, and builds: from every input's keys,
** fuse_distinct_keys, fuse_size and fuse_build (scratch lent dirty) against a
** model of 4.8's build (seeds in turn, slots peeled depth first from a stack, keys
** assigned in the reverse order), every key probing 1, and the same set of
** keys in another order and with repeats giving the same bytes.
*/
#include "fuzz_core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Offsets of the fuse kind's own header fields (format.md 4.8); n, p and keys are OFF_N, OFF_P
** and OFF_KEYS. */
enum {
    OFF_FINGERPRINT_BITS = 8,
    OFF_ARITY = 9,
    OFF_SEGMENT_BITS = 10,
    OFF_RESERVED_BYTE = 11,
    OFF_SEGMENTS = 12,
    OFF_SEED = 16,
    OFF_RESERVED_TAIL = 48
};

/* Slots a key's fingerprint is spread over, the most fingerprint bits and segment bits, and the
** seeds a build tries (4.8). */
enum { ARITY = 3, FINGERPRINT_BITS_MAX = 32, SEGMENT_BITS_MAX = 18, SEEDS = 64 };

/* The most slots, 2^32 - 1, and the step between the seeds a build tries (4.8). */
#define SLOTS_MAX UINT64_C(4294967295)
#define SEED_STEP UINT64_C(0x9E3779B97F4A7C15)

/* The most keys a build of check_fuse_builds takes beyond the input's own (synthetic INTEGERs). */
enum { EXTRA_KEYS_MAX = 1023, ABSENT_PROBES = 32 };

/* The fields of a binary fuse filter, read from its bytes. */
typedef struct fuse_fields {
    unsigned f;        /* fingerprint bits */
    unsigned arity;    /* slots a key */
    unsigned s;        /* a segment has L = 2^s slots */
    uint32_t segments; /* S */
    uint64_t seed;
    uint64_t n;
    double p;
    uint64_t keys;
} fuse_fields;

static fuse_fields fuse_fields_of(const uint8_t *blob) {
    fuse_fields u;
    u.f = blob[OFF_FINGERPRINT_BITS];
    u.arity = blob[OFF_ARITY];
    u.s = blob[OFF_SEGMENT_BITS];
    u.segments = (uint32_t)little_endian(blob + OFF_SEGMENTS, 4);
    u.seed = little_endian(blob + OFF_SEED, 8);
    u.n = little_endian(blob + OFF_N, 8);
    u.p = double_at(blob + OFF_P);
    u.keys = little_endian(blob + OFF_KEYS, 8);
    return u;
}

/* A = (S + 2) L: below 2^51 for any S of 32 bits and s <= 18. */
static uint64_t slot_count(const fuse_fields *u) {
    return ((uint64_t)u->segments + 2) << u->s;
}

/* 64 + ceil(A f / 8), for A < 2^51 and f <= 32. */
static uint64_t length_of(uint64_t slots, unsigned f) {
    return FILTER_HEADER_BYTES + (slots * f + 7) / 8;
}

static int fuse_is_reserved(size_t offset) {
    return offset == OFF_RESERVED_BYTE || offset >= OFF_RESERVED_TAIL;
}

/* Section 5's checks for kind 8, in its order. */
static int fuse_valid(const uint8_t *blob, size_t size, char *why) {
    fuse_fields u = fuse_fields_of(blob);
    if (u.f < 1 || u.f > FINGERPRINT_BITS_MAX) {
        return refuse(why, "corrupt filter: fingerprints of %u bits, not 1 to 32", u.f);
    }
    if (u.arity != ARITY) {
        return refuse(why, "corrupt filter: %u slots a key, not 3", u.arity);
    }
    if (u.s > SEGMENT_BITS_MAX) {
        return refuse(why, "corrupt filter: segments of 2^%u slots, above 2^18", u.s);
    }
    uint64_t slots = slot_count(&u);
    if (u.segments < 1 || slots > SLOTS_MAX) {
        return refuse(why, "corrupt filter: %lu segments of 2^%u slots", (unsigned long)u.segments,
                      u.s);
    }
    uint64_t length = length_of(slots, u.f);
    if (length != size) {
        return refuse(why,
                      "corrupt filter: %llu slots of %u-bit fingerprints need %llu bytes, the BLOB "
                      "has %zu",
                      (unsigned long long)slots, u.f, (unsigned long long)length, size);
    }
    if (!n_p_ok(u.n, u.p, why)) {
        return 0;
    }
    if (u.keys > slots) {
        return refuse(why, "corrupt filter: %llu keys in %llu slots", (unsigned long long)u.keys,
                      (unsigned long long)slots);
    }
    return reserved_ok(blob, fuse_is_reserved, why);
}

/* The fuse_header of the fields u, for the kind's own functions. */
static fuse_header header_of_fields(const fuse_fields *u) {
    fuse_header h;
    h.fingerprint_bits = u->f;
    h.segment_bits = u->s;
    h.segments = u->segments;
    h.seed = u->seed;
    h.n = u->n;
    h.p = u->p;
    h.keys = u->keys;
    return h;
}

static void fuse_encode_header(uint8_t *out, const uint8_t *blob) {
    fuse_fields u = fuse_fields_of(blob);
    fuse_header h = header_of_fields(&u);
    fuse_write_header(out, &h);
}

/* The header 4.8 and section 1 give a filter of fields u, written by this format's writer:
** "SQBF", versions 2 and 2, kind 8, key hash 1, the fields, reserved bytes 0. */
static void model_header(uint8_t *out, const fuse_fields *u) {
    memset(out, 0, FILTER_HEADER_BYTES);
    memcpy(out, "SQBF", 4);
    out[FILTER_OFF_VERSION] = 2;
    out[FILTER_OFF_MIN_READER] = 2;
    out[FILTER_OFF_KIND] = 8;
    out[FILTER_OFF_HASH] = 1;
    out[OFF_FINGERPRINT_BITS] = (uint8_t)u->f;
    out[OFF_ARITY] = ARITY;
    out[OFF_SEGMENT_BITS] = (uint8_t)u->s;
    for (int i = 0; i < 4; i++) {
        out[OFF_SEGMENTS + i] = (uint8_t)(u->segments >> (8 * i));
    }
    store_u64(out + OFF_SEED, u->seed);
    store_u64(out + OFF_N, u->n);
    uint64_t p_bits;
    memcpy(&p_bits, &u->p, sizeof p_bits);
    store_u64(out + OFF_P, p_bits);
    store_u64(out + OFF_KEYS, u->keys);
}

/* ---- The probe ---- */

/* 4.1's mix, the splitmix64 finalizer. */
static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* 4.1's reduce, floor(x r / 2^64): the high half of the 128-bit product, from 32-bit halves. */
static uint64_t reduce64(uint64_t x, uint64_t r) {
    uint64_t a = x >> 32, b = x & 0xFFFFFFFFu, c = r >> 32, d = r & 0xFFFFFFFFu;
    uint64_t bd = b * d, ad = a * d, bc = b * c;
    uint64_t carry = ((bd >> 32) + (ad & 0xFFFFFFFFu) + (bc & 0xFFFFFFFFu)) >> 32;
    return a * c + (ad >> 32) + (bc >> 32) + carry;
}

/* A key's place in a filter, from its mixed hash h: its fingerprint and its three slots. */
typedef struct fuse_place {
    uint32_t fp;
    uint64_t slot[ARITY];
} fuse_place;

/* 4.8: fp = (h XOR (h >> 32)) mod 2^f, j0 = reduce(h, S L), j1 = (j0 + L) XOR ((h >> 18) mod L),
** j2 = (j0 + 2L) XOR (h mod L). */
static fuse_place place_of(const fuse_fields *u, uint64_t h) {
    fuse_place at;
    uint64_t length = UINT64_C(1) << u->s, low = length - 1;
    at.fp = (uint32_t)((h ^ (h >> 32)) & ((UINT64_C(1) << u->f) - 1));
    at.slot[0] = reduce64(h, (uint64_t)u->segments * length);
    at.slot[1] = (at.slot[0] + length) ^ ((h >> 18) & low);
    at.slot[2] = (at.slot[0] + 2 * length) ^ (h & low);
    return at;
}

/* The value of slot j of the filter blob: bit t of it is bit j f + t of the body. */
static uint32_t slot_value(const uint8_t *blob, unsigned f, uint64_t j) {
    uint32_t v = 0;
    for (unsigned t = 0; t < f; t++) {
        v |= (uint32_t)bit_is_set(blob + FILTER_HEADER_BYTES, j * f + t) << t;
    }
    return v;
}

/* 4.8's probe: 0 when keys = 0; else whether the XOR of the key's three slots is its
** fingerprint, with h = mix(h1 + seed). */
static int fuse_probe(const uint8_t *blob, key_hash key) {
    fuse_fields u = fuse_fields_of(blob);
    if (u.keys == 0) {
        return 0;
    }
    fuse_place at = place_of(&u, mix64(key.h1 + u.seed));
    uint32_t x = 0;
    for (int r = 0; r < ARITY; r++) {
        x ^= slot_value(blob, u.f, at.slot[r]);
    }
    return x == at.fp;
}

/* ---- The sizing ---- */

/*
** 4.8's sizing of a filter of keys distinct keys, capacity n, rate p, into u (seed 0) and
** *bytes: FILTER_BAD_ARGUMENT for n < 1 or p outside (0, 1), FILTER_TOO_MANY_HASHES when 2^-32 >
** p, FILTER_TOO_BIG past 2^32 - 1 slots (*bytes then set too). f the fewest bits with 2^-f <= p;
** with x the keys (2 when fewer), s = min(18, floor(ln x / ln 3.33 + 2.25)), c = ceil(x max(1.125,
** 0.875 + 0.25 ln(10^6) / ln x)), S = max(1, ceil(c / L) - 2), A = (S + 2) L.
*/
static filter_status model_size(uint64_t keys, uint64_t n, double p, fuse_fields *u,
                                double *bytes) {
    if (n < 1 || !(p > 0.0 && p < 1.0)) {
        return FILTER_BAD_ARGUMENT;
    }
    unsigned f = 1;
    while (f <= FINGERPRINT_BITS_MAX && ldexp(1.0, -(int)f) > p) {
        f++;
    }
    if (f > FINGERPRINT_BITS_MAX) {
        return FILTER_TOO_MANY_HASHES;
    }
    double x = keys < 2 ? 2.0 : (double)keys;
    double s = floor(log(x) / log(3.33) + 2.25);
    if (s > SEGMENT_BITS_MAX) {
        s = SEGMENT_BITS_MAX;
    }
    double length = ldexp(1.0, (int)s);
    double c = ceil(x * fmax(1.125, 0.875 + 0.25 * log(1e6) / log(x)));
    double segments = fmax(1.0, ceil(c / length) - 2.0);
    double slots = (segments + 2.0) * length;
    *bytes = FILTER_HEADER_BYTES + ceil(slots * f / 8.0);
    if (slots > (double)SLOTS_MAX) {
        return FILTER_TOO_BIG;
    }
    memset(u, 0, sizeof *u);
    u->f = f;
    u->arity = ARITY;
    u->s = (unsigned)s;
    u->segments = (uint32_t)segments;
    u->seed = 0;
    u->n = n;
    u->p = p;
    u->keys = keys;
    return FILTER_OK;
}

/* Aborts unless fuse_size(keys, n, p) sizes as model_size; on FILTER_OK, *h is its header. */
static filter_status check_size(uint64_t keys, uint64_t n, double p, fuse_header *h) {
    fuse_fields u;
    double bytes = 0.0, bytes_needed = 0.0;
    filter_status expected = model_size(keys, n, p, &u, &bytes);
    memset(h, 0xA5, sizeof *h);
    filter_status status = fuse_size(keys, n, p, h, &bytes_needed);
    if (status != expected) {
        fuzz_fail("fuse_size(%llu, %llu, %.17g) returns %d, not %d", (unsigned long long)keys,
                  (unsigned long long)n, p, status, expected);
    }
    if (status == FILTER_TOO_BIG && !(fabs(bytes_needed - bytes) <= 1e-12 * bytes)) {
        fuzz_fail("fuse_size(%llu, ...) says %.17g bytes, not %.17g", (unsigned long long)keys,
                  bytes_needed, bytes);
    }
    if (status != FILTER_OK) {
        return status;
    }
    uint64_t slots = slot_count(&u);
    if (h->fingerprint_bits != u.f || h->segment_bits != u.s || h->segments != u.segments ||
        h->seed != 0 || h->n != n || memcmp(&h->p, &p, sizeof p) != 0 || h->keys != keys ||
        bytes_needed != bytes || fuse_slots(h) != slots ||
        fuse_blob_bytes(h) != length_of(slots, u.f) || (double)length_of(slots, u.f) != bytes) {
        fuzz_fail("fuse_size(%llu, %llu, %.17g) gives f = %u, s = %u, S = %lu, %.17g bytes; "
                  "4.8: %u, %u, %lu, %.17g",
                  (unsigned long long)keys, (unsigned long long)n, p, h->fingerprint_bits,
                  h->segment_bits, (unsigned long)h->segments, bytes_needed, u.f, u.s,
                  (unsigned long)u.segments, bytes);
    }
    return status;
}

/* ---- The build ---- */

/*
** 4.8's build of the distinct h1 keys[0 .. count) (in any order: nothing below depends on it)
** into blob (length_of bytes), for the sizing u: for t = 0, 1, ... 63 and the seed
** t 0x9E3779B97F4A7C15, each key is counted in its three slots and its mixed hash XORed into
** each; the slots are visited in increasing order, each counted once when visited starting a
** stack: the slot on top, taken off, while it is still counted once gives up its key, which is
** uncounted from its slots and XORed out of them, each slot left counted once pushed (j0, j1,
** j2 in turn); when every key was taken, the
** keys are assigned in the reverse order (a key's fingerprint XOR its two other slots into the
** slot it was taken from), and the header written with that seed. FILTER_OK, or FILTER_FULL
** when no seed peels (blob's body then left zero).
*/
static filter_status model_build(fuse_fields u, const uint64_t *keys, uint64_t count,
                                 uint8_t *blob) {
    uint64_t slots = slot_count(&u);
    uint32_t *counted = malloc(slots * sizeof *counted), *values = malloc(slots * sizeof *values);
    uint64_t *xors = malloc(slots * sizeof *xors), *stack = malloc(slots * sizeof *stack);
    uint64_t *taken = malloc((count + 1) * sizeof *taken);
    uint64_t *hashes = malloc((count + 1) * sizeof *hashes);
    filter_status status = FILTER_FULL;
    if (counted == NULL || values == NULL || xors == NULL || stack == NULL || taken == NULL ||
        hashes == NULL) {
        fuzz_fail("out of memory for a build of %llu slots", (unsigned long long)slots);
    }
    memset(blob + FILTER_HEADER_BYTES, 0, (size_t)(length_of(slots, u.f) - FILTER_HEADER_BYTES));
    for (uint64_t t = 0; t < SEEDS && status != FILTER_OK; t++) {
        u.seed = t * SEED_STEP;
        memset(counted, 0, slots * sizeof *counted);
        memset(xors, 0, slots * sizeof *xors);
        for (uint64_t k = 0; k < count; k++) {
            uint64_t h = mix64(keys[k] + u.seed);
            fuse_place at = place_of(&u, h);
            for (int r = 0; r < ARITY; r++) {
                counted[at.slot[r]]++;
                xors[at.slot[r]] ^= h;
            }
        }
        uint64_t depth = 0, peeled = 0; /* the stack: stack[0 .. depth) */
        for (uint64_t visited = 0; visited < slots; visited++) {
            if (counted[visited] == 1) {
                stack[depth++] = visited;
            }
            while (depth > 0) {
                uint64_t j = stack[--depth];
                if (counted[j] != 1) {
                    continue;
                }
                uint64_t h = xors[j];
                fuse_place at = place_of(&u, h);
                taken[peeled] = j;
                hashes[peeled++] = h;
                for (int r = 0; r < ARITY; r++) {
                    counted[at.slot[r]]--;
                    xors[at.slot[r]] ^= h;
                    if (counted[at.slot[r]] == 1) {
                        if (depth == slots) {
                            fuzz_fail("the model's stack overflows");
                        }
                        stack[depth++] = at.slot[r];
                    }
                }
            }
        }
        if (peeled != count) {
            continue;
        }
        memset(values, 0, slots * sizeof *values);
        for (uint64_t i = count; i-- > 0;) {
            fuse_place at = place_of(&u, hashes[i]);
            uint32_t v = at.fp;
            for (int r = 0; r < ARITY; r++) {
                if (at.slot[r] != taken[i]) {
                    v ^= values[at.slot[r]];
                }
            }
            values[taken[i]] = v;
        }
        for (uint64_t j = 0; j < slots; j++) {
            for (unsigned b = 0; b < u.f; b++) {
                uint64_t bit = j * u.f + b;
                blob[FILTER_HEADER_BYTES + bit / 8] |=
                    (uint8_t)(((values[j] >> b) & 1u) << (bit % 8));
            }
        }
        status = FILTER_OK;
    }
    model_header(blob, &u); /* the last seed tried */
    free(counted);
    free(values);
    free(xors);
    free(stack);
    free(taken);
    free(hashes);
    return status;
}

/* A little generator of the input's choices: xorshift64*. */
static uint64_t next_choice(uint64_t *state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * UINT64_C(0x2545F4914F6CDD1D);
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The distinct values of keys[0 .. count), sorted, into out; returns how many. */
static uint64_t model_distinct(const uint64_t *keys, uint64_t count, uint64_t *out) {
    uint64_t distinct = 0;
    memcpy(out, keys, count * sizeof *keys);
    qsort(out, (size_t)count, sizeof *out, compare_u64);
    for (uint64_t i = 0; i < count; i++) {
        if (distinct == 0 || out[distinct - 1] != out[i]) {
            out[distinct++] = out[i];
        }
    }
    return distinct;
}

/* Builds through the core, as bloom_build does, the filter of the h1 keys[0 .. count) (in any
** order, with repeats) for n and p: fuse_distinct_keys (against the model's), fuse_size
** (check_size), fuse_build (given NULL for no keys) with scratch lent dirty, which may reorder
** the distinct keys but must keep them. Returns the build's status (or fuse_size's, *blob NULL)
** and the BLOB in *blob (malloc) of *bytes; keys[0 .. *distinct) are the distinct keys. */
static filter_status core_build(uint64_t *keys, uint64_t count, uint64_t n, double p,
                                uint8_t **blob, uint64_t *bytes, uint64_t *distinct) {
    uint64_t *buffer = malloc((count + 1) * sizeof *buffer);
    uint64_t *expected = malloc((count + 1) * sizeof *expected);
    fuse_header h;
    if (buffer == NULL || expected == NULL) {
        fuzz_fail("out of memory for %llu keys", (unsigned long long)count);
    }
    uint64_t model = model_distinct(keys, count, expected);
    memset(buffer, 0x5A, (count + 1) * sizeof *buffer);
    *distinct = fuse_distinct_keys(keys, count, buffer);
    if (*distinct != model || memcmp(keys, expected, model * sizeof *keys) != 0) {
        fuzz_fail("fuse_distinct_keys of %llu keys gives %llu, not the %llu distinct sorted",
                  (unsigned long long)count, (unsigned long long)*distinct,
                  (unsigned long long)model);
    }
    free(buffer);
    *blob = NULL;
    filter_status status = check_size(*distinct, n, p, &h);
    if (status != FILTER_OK) {
        free(expected);
        return status;
    }
    uint64_t slots = fuse_slots(&h);
    *bytes = fuse_blob_bytes(&h);
    *blob = calloc(1, (size_t)*bytes);
    fuse_scratch scratch = {malloc(slots * sizeof *scratch.hashes),
                            malloc(slots * sizeof *scratch.order),
                            malloc(slots * sizeof *scratch.counts)};
    if (*blob == NULL || scratch.hashes == NULL || scratch.order == NULL ||
        scratch.counts == NULL) {
        fuzz_fail("out of memory for a filter of %llu slots", (unsigned long long)slots);
    }
    /* Lent as found: the core may not count on its scratch being zero. */
    memset(scratch.hashes, 0xA5, slots * sizeof *scratch.hashes);
    memset(scratch.order, 0xA5, slots * sizeof *scratch.order);
    memset(scratch.counts, 0xA5, slots * sizeof *scratch.counts);
    status = fuse_build(*blob, &h, *distinct > 0 ? keys : NULL, &scratch); /* as bloom_build */
    free(scratch.hashes);
    free(scratch.order);
    free(scratch.counts);
    uint64_t *kept = malloc((model + 1) * sizeof *kept);
    if (kept == NULL || model_distinct(keys, model, kept) != model ||
        memcmp(kept, expected, model * sizeof *kept) != 0) {
        fuzz_fail("fuse_build does not keep the %llu keys it is given", (unsigned long long)model);
    }
    free(kept);
    free(expected);
    if (status == FILTER_OK && little_endian(*blob + OFF_SEED, 8) != h.seed) {
        fuzz_fail("fuse_build writes the seed %llu, returns %llu",
                  (unsigned long long)little_endian(*blob + OFF_SEED, 8),
                  (unsigned long long)h.seed);
    }
    return status;
}

/* A key of no input here: the INTEGER -2^63 + i, whose hash stands for a key not in the set. */
static key_hash absent_key(uint64_t i) {
    return key_hash_integer(INT64_MIN + (int64_t)i);
}

void check_fuse_builds(const uint8_t *data, size_t size) {
    static const uint8_t none[4];
    key_value values[MAX_KEYS];
    key_hash hashed[MAX_KEYS];
    size_t count = derive_key_values(data, size, values);
    const uint8_t *tail = size >= 4 ? data + size - 4 : none;
    /* The choices, from the last 4 bytes (zeros: 2^-7, 100 and 100): p in (2^-e / 2, 2^-e], e
    ** from 0 to 33 (p = 1: refused; e = 33: more than 32 bits); the input's keys left out, the
    ** keys beyond them left out (both: a filter of no keys); n from 0 (refused); up to
    ** EXTRA_KEYS_MAX keys beyond the input's, the INTEGERs base + i; the order and repeats of the
    ** second build. */
    unsigned e = (tail[0] + 7u) % 34, left_out = tail[0] / 34u;
    double p = ldexp(1.0 - tail[1] / 512.0, -(int)e);
    uint64_t n = tail[2] ^ 100u, extra = (little_endian(tail + 2, 2) >> 6) ^ 100u;
    uint64_t state = little_endian(data, size < 8 ? size : 8) | 1;
    int64_t base = (int64_t)next_choice(&state);
    size_t own = left_out & 1 ? 0 : count;
    if (extra > EXTRA_KEYS_MAX || (left_out & 2)) {
        extra = left_out & 2 ? 0 : EXTRA_KEYS_MAX;
    }
    uint64_t total = own + extra;
    uint64_t *keys = malloc((total + 1) * sizeof *keys),
             *again = malloc((2 * total + 1) * sizeof *again);
    if (keys == NULL || again == NULL) {
        fuzz_fail("out of memory for %llu keys", (unsigned long long)total);
    }
    for (size_t i = 0; i < count; i++) {
        hashed[i] = key_hash_value(KEY_HASH_XXH3_128, &values[i]);
        if (i < own) {
            keys[i] = hashed[i].h1;
        }
    }
    for (uint64_t i = 0; i < extra; i++) {
        keys[own + i] = key_hash_integer(base + (int64_t)i).h1;
    }
    /* The same keys shuffled, some of them twice. */
    uint64_t again_count = total;
    memcpy(again, keys, total * sizeof *keys);
    for (uint64_t i = total; i > 1; i--) {
        uint64_t j = next_choice(&state) % i, v = again[i - 1];
        again[i - 1] = again[j];
        again[j] = v;
    }
    for (uint64_t i = 0; i < total; i++) {
        if (next_choice(&state) % 4 == 0) {
            again[again_count++] = keys[i];
        }
    }

    uint64_t *sorted = malloc((total + 1) * sizeof *sorted), distinct, bytes;
    uint8_t *blob;
    if (sorted == NULL) {
        fuzz_fail("out of memory for %llu keys", (unsigned long long)total);
    }
    memcpy(sorted, keys, total * sizeof *keys);
    filter_status status = core_build(sorted, total, n, p, &blob, &bytes, &distinct);
    if (blob == NULL) {
        free(keys);
        free(again);
        free(sorted);
        return;
    }
    fuse_fields u;
    double model_bytes;
    uint8_t *model = calloc(1, (size_t)bytes);
    if (model == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)bytes);
    }
    model_size(distinct, n, p, &u, &model_bytes); /* FILTER_OK: check_size compared them */
    filter_status model_status = model_build(u, sorted, distinct, model);
    if (status != model_status ||
        (status == FILTER_OK && memcmp(blob, model, (size_t)bytes) != 0)) {
        fuzz_fail("fuse_build of %llu keys returns %d, seed %llu; 4.8's build %d, seed %llu; the "
                  "bytes %s",
                  (unsigned long long)distinct, status,
                  (unsigned long long)little_endian(blob + OFF_SEED, 8), model_status,
                  (unsigned long long)little_endian(model + OFF_SEED, 8),
                  memcmp(blob, model, (size_t)bytes) != 0 ? "differ" : "agree");
    }
    if (status == FILTER_OK) {
        char why[FILTER_WHY_MAX], expected[FILTER_WHY_MAX];
        filter_view view;
        if (filter_open(blob, bytes, &view, why) != FILTER_OK || view.kind != &fuse_kind ||
            !spec_accepts(blob, (size_t)bytes, expected, 0)) {
            fuzz_fail("a filter fuse_build wrote is refused: %s", why);
        }
        for (uint64_t i = 0; i < total; i++) {
            key_hash key = {keys[i], 0};
            if (fuse_kind.might_contain(&view, key) != 1 || fuse_probe(blob, key) != 1) {
                fuzz_fail("key %llu of %llu built into a fuse filter probes 0",
                          (unsigned long long)i, (unsigned long long)total);
            }
        }
        for (uint64_t i = 0; i < ABSENT_PROBES; i++) {
            key_hash key = absent_key(i);
            if (fuse_kind.might_contain(&view, key) != fuse_probe(blob, key)) {
                fuzz_fail("might_contain of a built fuse filter disagrees with 4.8's probe");
            }
        }
        check_header_round_trip(&view);
        check_operations(&view, hashed, count);

        uint64_t again_distinct, again_bytes;
        uint8_t *other;
        if (core_build(again, again_count, n, p, &other, &again_bytes, &again_distinct) !=
                FILTER_OK ||
            again_bytes != bytes || memcmp(other, blob, (size_t)bytes) != 0) {
            fuzz_fail("the same %llu keys in another order and with repeats build other bytes",
                      (unsigned long long)distinct);
        }
        free(other);
    }
    free(model);
    free(blob);
    free(keys);
    free(again);
    free(sorted);
}

/* ---- The kind's own functions on an accepted filter ---- */

/* fuse_header_of, fuse_slots and fuse_blob_bytes against the bytes; fuse_size for the header's
** keys, n and p, and for a count of keys from the seed's bits (up to 2^64 - 1: too big). */
static void fuse_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    fuse_fields u = fuse_fields_of(f->blob);
    fuse_header h = fuse_header_of(f), sized;
    (void)keys;
    (void)count;
    if (h.fingerprint_bits != u.f || h.segment_bits != u.s || h.segments != u.segments ||
        h.seed != u.seed || h.n != u.n || memcmp(&h.p, &u.p, sizeof h.p) != 0 || h.keys != u.keys ||
        fuse_slots(&h) != slot_count(&u) || fuse_blob_bytes(&h) != f->bytes) {
        fuzz_fail("fuse_header_of decodes other fields than the bytes hold");
    }
    check_size(u.keys, u.n, u.p, &sized);
    check_size(u.seed >> (u.seed % 64), u.n, u.p, &sized);
}

const kind_oracle fuse_oracle = {.id = FUSE_KIND,
                                 .is_reserved = fuse_is_reserved,
                                 .valid = fuse_valid,
                                 .encode_header = fuse_encode_header,
                                 .probe = fuse_probe,
                                 .check_own = fuse_check_own};
