/*
** bloom_core.c: sizing, hashing, set/test and the filter BLOB codec.
** See bloom_core.h for the contracts and README.md for the format.
*/
#include "bloom_core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* xxHash compiled into this object: bloom.so needs no libxxhash at run time. */
#define XXH_INLINE_ALL
#include <xxhash.h>

static const uint8_t bloom_magic[4] = {'S', 'Q', 'B', 'F'};

/* Header offsets (format version 1). */
enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 4,
    OFF_MIN_READER = 5,
    OFF_LAYOUT = 6,
    OFF_HASH = 7,
    OFF_K = 8,
    OFF_RESERVED_A = 12, /* 4 bytes */
    OFF_M = 16,
    OFF_N = 24,
    OFF_P = 32,
    OFF_KEYS = 40,
    OFF_RESERVED_B = 48 /* 16 bytes, up to the bit array */
};

/* Reads a little-endian unsigned integer of width bytes. */
static uint64_t get_le(const uint8_t *b, int width) {
    uint64_t v = 0;
    for (int i = width - 1; i >= 0; i--) {
        v = (v << 8) | b[i];
    }
    return v;
}

/* Writes v as a little-endian unsigned integer of width bytes. */
static void put_le(uint8_t *b, uint64_t v, int width) {
    for (int i = 0; i < width; i++) {
        b[i] = (uint8_t)v;
        v >>= 8;
    }
}

/* Bit pattern of an IEEE-754 binary64 value. */
static uint64_t double_bits(double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

/* The IEEE-754 binary64 value of a bit pattern. */
static double bits_double(uint64_t bits) {
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

bloom_status bloom_size(uint64_t n, double p, bloom_header *out, double *bytes_needed) {
    const double ln2 = 0.693147180559945309417232121458176568;
    memset(out, 0, sizeof *out);
    *bytes_needed = 0;
    if (n < 1 || !(p > 0.0 && p < 1.0)) {
        return BLOOM_BAD_ARGUMENT;
    }
    /* The classic formulas; k from the formula's m, before rounding m up to words. */
    double formula_bits = ceil(-(double)n * log(p) / (ln2 * ln2));
    double k = fmax(1.0, round(formula_bits / (double)n * ln2));
    double words = ceil(formula_bits / 64.0);
    *bytes_needed = BLOOM_HEADER_BYTES + 8.0 * words;
    out->version = BLOOM_FORMAT_VERSION;
    out->min_reader_version = BLOOM_FORMAT_VERSION;
    out->layout = BLOOM_LAYOUT_STANDARD;
    out->hash = BLOOM_HASH_XXH3_128;
    out->n = n;
    out->p = p;
    out->k = k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
    if (k > BLOOM_K_MAX) {
        return BLOOM_TOO_MANY_HASHES;
    }
    if (*bytes_needed > BLOOM_MAX_BYTES) {
        return BLOOM_TOO_BIG;
    }
    out->m = (uint64_t)words * 64;
    return BLOOM_OK;
}

uint64_t bloom_blob_bytes(uint64_t m) {
    return BLOOM_HEADER_BYTES + (m / 64 + (m % 64 != 0)) * 8;
}

void bloom_write_header(uint8_t *blob, const bloom_header *h) {
    memset(blob, 0, BLOOM_HEADER_BYTES);
    memcpy(blob + OFF_MAGIC, bloom_magic, sizeof bloom_magic);
    blob[OFF_VERSION] = h->version;
    blob[OFF_MIN_READER] = h->min_reader_version;
    blob[OFF_LAYOUT] = h->layout;
    blob[OFF_HASH] = h->hash;
    put_le(blob + OFF_K, h->k, 4);
    put_le(blob + OFF_M, h->m, 8);
    put_le(blob + OFF_N, h->n, 8);
    put_le(blob + OFF_P, double_bits(h->p), 8);
    put_le(blob + OFF_KEYS, h->keys, 8);
}

/* Index of the first non-zero reserved byte of a header, or -1 when all are zero. */
static int first_nonzero_reserved(const uint8_t *blob) {
    static const struct {
        int offset, size;
    } reserved[] = {{OFF_RESERVED_A, 4}, {OFF_RESERVED_B, BLOOM_HEADER_BYTES - OFF_RESERVED_B}};
    for (size_t r = 0; r < sizeof reserved / sizeof reserved[0]; r++) {
        for (int i = reserved[r].offset; i < reserved[r].offset + reserved[r].size; i++) {
            if (blob[i] != 0) {
                return i;
            }
        }
    }
    return -1;
}

/* Writes a validation message to why and returns BLOOM_INVALID. */
#define INVALID(...) (snprintf(why, BLOOM_WHY_MAX, __VA_ARGS__), BLOOM_INVALID)

bloom_status bloom_read_header(const uint8_t *blob, uint64_t len, bloom_header *out, char *why) {
    memset(out, 0, sizeof *out);
    why[0] = '\0';
    if (len < BLOOM_HEADER_BYTES) {
        return INVALID("not a Bloom filter: length %llu is shorter than the %d-byte header",
                       (unsigned long long)len, BLOOM_HEADER_BYTES);
    }
    if (memcmp(blob + OFF_MAGIC, bloom_magic, sizeof bloom_magic) != 0) {
        return INVALID("not a Bloom filter: magic is x'%02X%02X%02X%02X', not x'53514246' (SQBF)",
                       blob[0], blob[1], blob[2], blob[3]);
    }
    out->version = blob[OFF_VERSION];
    out->min_reader_version = blob[OFF_MIN_READER];
    if (out->min_reader_version > BLOOM_FORMAT_VERSION) {
        return INVALID("filter format version %u needs a reader of version %u or later; "
                       "this one reads version %d",
                       out->version, out->min_reader_version, BLOOM_FORMAT_VERSION);
    }
    if (out->min_reader_version == 0 || out->version < out->min_reader_version) {
        return INVALID("corrupt filter: format version %u with minimum reader version %u",
                       out->version, out->min_reader_version);
    }
    out->layout = blob[OFF_LAYOUT];
    if (out->layout != BLOOM_LAYOUT_STANDARD) {
        return INVALID("corrupt filter: unknown layout %u", out->layout);
    }
    out->hash = blob[OFF_HASH];
    if (out->hash != BLOOM_HASH_XXH3_128) {
        return INVALID("corrupt filter: unknown hash %u", out->hash);
    }
    out->k = (uint32_t)get_le(blob + OFF_K, 4);
    if (out->k < 1 || out->k > BLOOM_K_MAX) {
        return INVALID("corrupt filter: k = %lu is outside 1..%d", (unsigned long)out->k,
                       BLOOM_K_MAX);
    }
    out->m = get_le(blob + OFF_M, 8);
    if (out->m == 0 || out->m % 64 != 0) {
        return INVALID("corrupt filter: m = %llu bits is not a positive multiple of 64",
                       (unsigned long long)out->m);
    }
    if (bloom_blob_bytes(out->m) != len) {
        return INVALID("corrupt filter: m = %llu bits needs %llu bytes, the BLOB has %llu",
                       (unsigned long long)out->m, (unsigned long long)bloom_blob_bytes(out->m),
                       (unsigned long long)len);
    }
    out->n = get_le(blob + OFF_N, 8);
    if (out->n == 0) {
        return INVALID("corrupt filter: capacity n = 0");
    }
    out->p = bits_double(get_le(blob + OFF_P, 8));
    if (!(out->p > 0.0 && out->p < 1.0)) {
        return INVALID("corrupt filter: p = %g is not between 0 and 1", out->p);
    }
    out->keys = get_le(blob + OFF_KEYS, 8);
    /* A newer writer that older readers may read owns the reserved bytes. */
    int reserved = first_nonzero_reserved(blob);
    if (out->version <= BLOOM_FORMAT_VERSION && reserved >= 0) {
        return INVALID("corrupt filter: reserved byte %d is 0x%02X, not 0", reserved,
                       blob[reserved]);
    }
    return BLOOM_OK;
}

/* The hash of canonical key bytes, seeded with the key's type tag. */
static bloom_hash hash_bytes(const void *data, size_t bytes, uint64_t type_tag) {
    XXH128_hash_t h = XXH3_128bits_withSeed(data, bytes, type_tag);
    bloom_hash out = {h.low64, h.high64};
    return out;
}

bloom_hash bloom_hash_integer(int64_t v) {
    uint8_t bytes[8];
    put_le(bytes, (uint64_t)v, 8);
    return hash_bytes(bytes, sizeof bytes, BLOOM_KEY_INTEGER);
}

bloom_hash bloom_hash_real(double v) {
    /* [-2^63, 2^63) is exactly the range of doubles that convert to int64. */
    if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) {
        int64_t i = (int64_t)v;
        if ((double)i == v) {
            return bloom_hash_integer(i);
        }
    }
    uint8_t bytes[8];
    put_le(bytes, v != v ? UINT64_C(0x7FF8000000000000) : double_bits(v), 8);
    return hash_bytes(bytes, sizeof bytes, BLOOM_KEY_REAL);
}

bloom_hash bloom_hash_text(const void *utf8, size_t bytes) {
    return hash_bytes(utf8, bytes, BLOOM_KEY_TEXT);
}

bloom_hash bloom_hash_blob(const void *data, size_t bytes) {
    return hash_bytes(data, bytes, BLOOM_KEY_BLOB);
}

uint64_t bloom_reduce_portable(uint64_t x, uint64_t m) {
    uint64_t x_lo = (uint32_t)x, x_hi = x >> 32;
    uint64_t m_lo = (uint32_t)m, m_hi = m >> 32;
    uint64_t lo_lo = x_lo * m_lo, hi_lo = x_hi * m_lo;
    uint64_t lo_hi = x_lo * m_hi, hi_hi = x_hi * m_hi;
    uint64_t middle = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi; /* cannot overflow */
    return hi_hi + (hi_lo >> 32) + (middle >> 32);
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 uint128;

uint64_t bloom_reduce(uint64_t x, uint64_t m) {
    return (uint64_t)(((uint128)x * m) >> 64);
}
#else
uint64_t bloom_reduce(uint64_t x, uint64_t m) {
    return bloom_reduce_portable(x, m);
}
#endif

/*
** Positions. Plain double hashing (h1 + i*h2) reduced by multiply-shift keeps
** the positions of two keys close for every i whenever their (h1, h2) are
** close, which puts a floor of about 1/(m^2 k) per key under the false-positive
** rate (measured: 60x the target at n = 100, p = 1e-6). So each step is passed
** through a bijective 64-bit mixer first: position i, from 0 to k - 1, is
** reduce(mix(h1 + i * (h2 | 1)), m). The odd step makes the k inputs distinct.
*/
typedef struct position_seq {
    uint64_t x, step;
} position_seq;

/* The splitmix64 finalizer: a bijection of 64-bit values with full avalanche. */
static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Starts the position sequence of key h. */
static position_seq first_position(bloom_hash h) {
    position_seq s = {h.h1, h.h2 | 1};
    return s;
}

/* Returns the next bit position of the sequence in [0, m) and advances it. */
static uint64_t next_position(position_seq *s, uint64_t m) {
    uint64_t pos = bloom_reduce(mix64(s->x), m);
    s->x += s->step;
    return pos;
}

void bloom_positions(bloom_hash h, uint64_t m, uint32_t k, uint64_t *out) {
    position_seq s = first_position(h);
    for (uint32_t i = 0; i < k; i++) {
        out[i] = next_position(&s, m);
    }
}

void bloom_set(uint8_t *bits, uint64_t m, uint32_t k, bloom_hash h) {
    position_seq s = first_position(h);
    for (uint32_t i = 0; i < k; i++) {
        uint64_t pos = next_position(&s, m);
        bits[pos >> 3] |= (uint8_t)(1u << (pos & 7));
    }
}

int bloom_test(const uint8_t *bits, uint64_t m, uint32_t k, bloom_hash h) {
    position_seq s = first_position(h);
    for (uint32_t i = 0; i < k; i++) {
        uint64_t pos = next_position(&s, m);
        if ((bits[pos >> 3] & (1u << (pos & 7))) == 0) {
            return 0;
        }
    }
    return 1;
}

/* Number of bits set in a 64-bit word, without a compiler builtin. */
static uint64_t popcount64(uint64_t x) {
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (x * UINT64_C(0x0101010101010101)) >> 56;
}

bloom_fill bloom_measure(const bloom_header *h, const uint8_t *bits) {
    bloom_fill f;
    f.bits_set = 0;
    for (uint64_t i = 0; i < h->m / 8; i += 8) {
        f.bits_set += popcount64(get_le(bits + i, 8));
    }
    double m = (double)h->m, k = h->k;
    f.fill_ratio = (double)f.bits_set / m;
    f.estimated_fp_rate = pow(f.fill_ratio, k);
    if (f.bits_set == h->m) {
        f.estimated_keys = f.estimated_keys_se = INFINITY;
    } else {
        /* With q = 1 - X/m the share of empty bits and lambda = -ln q:
        ** Var(empty bits) = m q (1 - (1 + lambda) q), through dn/dq = -m/(k q). */
        double q = 1.0 - f.fill_ratio, lambda = -log(q);
        f.estimated_keys = m / k * lambda;
        f.estimated_keys_se = sqrt(fmax(0.0, m * (1.0 - (1.0 + lambda) * q) / q)) / k;
    }
    f.over_capacity =
        h->keys > h->n &&
        (f.bits_set == h->m || f.estimated_keys > (double)h->n + 4.0 * f.estimated_keys_se);
    return f;
}

bloom_status bloom_check_compatible(const bloom_header *a, const bloom_header *b, char *why) {
    if (a->layout != b->layout) {
        return INVALID("incompatible filters: layout %u and layout %u", a->layout, b->layout);
    }
    if (a->hash != b->hash) {
        return INVALID("incompatible filters: hash %u and hash %u", a->hash, b->hash);
    }
    if (a->m != b->m) {
        return INVALID("incompatible filters: m = %llu and m = %llu bits", (unsigned long long)a->m,
                       (unsigned long long)b->m);
    }
    if (a->k != b->k) {
        return INVALID("incompatible filters: k = %lu and k = %lu", (unsigned long)a->k,
                       (unsigned long)b->k);
    }
    return BLOOM_OK;
}

void bloom_merge(uint8_t *dst, const uint8_t *src, uint64_t m) {
    for (uint64_t i = 0; i < m / 8; i++) {
        dst[i] |= src[i];
    }
}

uint64_t bloom_add_counts(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

int bloom_hash_set_insert(bloom_hash_set *set, bloom_hash h) {
    if (h.h1 == 0 && h.h2 == 0) {
        int is_new = !set->has_zero;
        set->has_zero = 1;
        return is_new;
    }
    uint64_t mask = set->capacity - 1;
    for (uint64_t i = h.h1 & mask;; i = (i + 1) & mask) {
        bloom_hash *slot = &set->slots[i];
        if (slot->h1 == 0 && slot->h2 == 0) {
            *slot = h;
            set->count++;
            return 1;
        }
        if (slot->h1 == h.h1 && slot->h2 == h.h2) {
            return 0;
        }
    }
}

uint64_t bloom_hash_set_size(const bloom_hash_set *set) {
    return set->count + (set->has_zero != 0);
}

void bloom_hash_set_move(const bloom_hash_set *from, bloom_hash_set *to) {
    for (uint64_t i = 0; i < from->capacity; i++) {
        if (from->slots[i].h1 != 0 || from->slots[i].h2 != 0) {
            bloom_hash_set_insert(to, from->slots[i]);
        }
    }
    to->has_zero = from->has_zero;
}

void bloom_set_all(uint8_t *bits, uint64_t m, uint32_t k, const bloom_hash_set *set) {
    static const bloom_hash zero = {0, 0};
    for (uint64_t i = 0; i < set->capacity; i++) {
        if (set->slots[i].h1 != 0 || set->slots[i].h2 != 0) {
            bloom_set(bits, m, k, set->slots[i]);
        }
    }
    if (set->has_zero) {
        bloom_set(bits, m, k, zero);
    }
}
