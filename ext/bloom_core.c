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

/* XXH3's output is frozen from xxHash 0.8.0 on; earlier versions hash differently. */
#if XXH_VERSION_NUMBER < 800
#error "sqlite-bloom needs xxHash 0.8.0 or later"
#endif

/* Hosts known to be little-endian read and write fields with memcpy; others byte by byte. */
#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
#define BLOOM_LITTLE_ENDIAN 1
#else
#define BLOOM_LITTLE_ENDIAN 0
#endif

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

/* Reads a little-endian unsigned integer of width bytes (4 or 8). Unaligned loads through
** memcpy on little-endian hosts; byte by byte elsewhere. */
static inline uint64_t get_le(const uint8_t *b, int width) {
#if BLOOM_LITTLE_ENDIAN
    if (width == 8) {
        uint64_t v;
        memcpy(&v, b, 8);
        return v;
    } else {
        uint32_t v;
        memcpy(&v, b, 4);
        return v;
    }
#else
    uint64_t v = 0;
    for (int i = width - 1; i >= 0; i--) {
        v = (v << 8) | b[i];
    }
    return v;
#endif
}

/* Writes v as a little-endian unsigned integer of width bytes (4 or 8). */
static inline void put_le(uint8_t *b, uint64_t v, int width) {
#if BLOOM_LITTLE_ENDIAN
    if (width == 8) {
        memcpy(b, &v, 8);
    } else {
        uint32_t v32 = (uint32_t)v;
        memcpy(b, &v32, 4);
    }
#else
    for (int i = 0; i < width; i++) {
        b[i] = (uint8_t)v;
        v >>= 8;
    }
#endif
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

/*
** The blocked layout's model. A probe is a false positive when its k positions
** (drawn with replacement in one line of b = 512 bits) are all set. Given j
** keys in that line, that is the chance that the d distinct bits among the
** probe's positions are all among those hit by the k j draws of the keys:
** rate(j) = sum over d of P(d distinct) * P(d given bits all hit by k j draws).
** Both factors come from small dynamic programmes over positive terms. The
** rate of the filter averages rate(j) over a Poisson number of keys per line.
*/
enum { MAX_LINE_KEYS = 640 };

/* The chances that k draws in a line hit exactly d distinct bits, for d = 0..k. */
static void distinct_bits(uint32_t k, double *chance) {
    const double b = BLOOM_LINE_BITS;
    chance[0] = 1.0;
    for (uint32_t draw = 1; draw <= k; draw++) {
        chance[draw] = 0.0;
        for (uint32_t d = draw; d >= 1; d--) {
            chance[d] = chance[d] * d / b + chance[d - 1] * (b - d + 1) / b;
        }
        chance[0] = 0.0;
    }
}

/* rates[j], j = 0..keys-1: the chance that a probe with k positions is a false positive in a
** line holding j keys. */
static void line_rates(uint32_t k, int keys, double *rates) {
    const double b = BLOOM_LINE_BITS;
    double distinct[BLOOM_K_MAX + 1], covered[BLOOM_K_MAX + 1];
    distinct_bits(k, distinct);
    for (int j = 0; j < keys; j++) {
        rates[j] = 0.0;
    }
    for (uint32_t d = 1; d <= k; d++) {
        /* covered[c]: the chance that c of the d given bits are hit so far. */
        covered[0] = 1.0;
        for (uint32_t c = 1; c <= d; c++) {
            covered[c] = 0.0;
        }
        for (int j = 0; j < keys; j++) {
            rates[j] += distinct[d] * covered[d];
            for (uint32_t draw = 0; draw < k; draw++) {
                for (uint32_t c = d; c >= 1; c--) {
                    covered[c] =
                        covered[c] * (1.0 - (d - c) / b) + covered[c - 1] * (d - c + 1) / b;
                }
                covered[0] *= 1.0 - d / b;
            }
        }
    }
}

/* Mean of rates[j] over j ~ Poisson(keys_per_line), with rates known for j < keys. */
static double poisson_mean(const double *rates, int keys, double keys_per_line) {
    /* Weights relative to the mode, by recurrence in both directions. */
    const double lambda = keys_per_line;
    int mode = (int)floor(lambda);
    if (mode >= keys) {
        mode = keys - 1;
    }
    double weight = 1.0, total = 1.0, sum = rates[mode];
    for (int j = mode + 1; j < keys; j++) {
        weight *= lambda / j;
        total += weight;
        sum += weight * rates[j];
    }
    weight = 1.0;
    for (int j = mode; j >= 1; j--) {
        weight *= j / lambda;
        total += weight;
        sum += weight * rates[j - 1];
    }
    return sum / total;
}

/* Keys per line to tabulate for loads up to lambda at rates down to p: the Poisson tail
** beyond is below a millionth of p. */
static int line_keys_needed(double lambda, double p) {
    double z = sqrt(2.0 * log(1e6 / p)) + 2.0;
    double keys = ceil(lambda + z * sqrt(lambda) + 10.0);
    return keys < MAX_LINE_KEYS ? (int)keys : MAX_LINE_KEYS;
}

double bloom_blocked_fp_rate(double keys_per_line, uint32_t k) {
    double rates[MAX_LINE_KEYS];
    if (!(keys_per_line >= 0.0 && keys_per_line <= BLOOM_BLOCKED_LOAD_MAX) || k < 1 ||
        k > BLOOM_K_MAX) {
        return NAN;
    }
    if (keys_per_line == 0.0) {
        return 0.0;
    }
    int keys = line_keys_needed(keys_per_line, 1e-20);
    line_rates(k, keys, rates);
    return poisson_mean(rates, keys, keys_per_line);
}

enum { BLOCKED_K_CANDIDATES = 5 };

/* The largest load at which the best of k = first_k.. (BLOCKED_K_CANDIDATES values, rates
** tabulated in rates) has a model rate of at most p, by bisection below high; and that k. */
static double largest_load(const double (*rates)[MAX_LINE_KEYS], int keys, uint32_t first_k,
                           uint32_t count, double high, double p, uint32_t *best_k) {
    double low = 0.0, best_rate = 2.0;
    for (int i = 0; i < 64; i++) {
        double middle = (low + high) / 2, rate = 1.0;
        for (uint32_t c = 0; c < count; c++) {
            rate = fmin(rate, poisson_mean(rates[c], keys, middle));
        }
        *(rate <= p ? &low : &high) = middle;
    }
    for (uint32_t c = 0; c < count; c++) {
        double rate = poisson_mean(rates[c], keys, low);
        if (rate < best_rate) {
            best_rate = rate;
            *best_k = first_k + c;
        }
    }
    return low;
}

bloom_status bloom_design_blocked(double p, bloom_blocked_design *out) {
    const double ln2 = 0.693147180559945309417232121458176568;
    double rates[BLOCKED_K_CANDIDATES][MAX_LINE_KEYS]; /* 25 KB of stack */
    memset(out, 0, sizeof *out);
    if (!(p > 0.0 && p < 1.0)) {
        return BLOOM_BAD_ARGUMENT;
    }
    if (p > BLOOM_BLOCKED_P_MAX) {
        return BLOOM_RATE_TOO_HIGH;
    }
    /* The rate is unimodal in k: a window of candidates starts near the classic optimum,
    ** log2(1/p), and moves until the best k is inside it. */
    double classic_k = fmin(fmax(round(-log2(p)), 1.0), BLOOM_K_MAX);
    double high = BLOOM_LINE_BITS * ln2 * ln2 / -log(p); /* the standard layout's load */
    int keys = line_keys_needed(high, p);
    uint32_t first_k = classic_k > 3 ? (uint32_t)classic_k - 3 : 1;
    for (int moves = 0; moves < BLOOM_K_MAX; moves++) {
        if (first_k + BLOCKED_K_CANDIDATES - 1 > BLOOM_K_MAX) {
            first_k = BLOOM_K_MAX - BLOCKED_K_CANDIDATES + 1;
        }
        for (uint32_t c = 0; c < BLOCKED_K_CANDIDATES; c++) {
            line_rates(first_k + c, keys, rates[c]);
        }
        out->load = largest_load((const double(*)[MAX_LINE_KEYS])rates, keys, first_k,
                                 BLOCKED_K_CANDIDATES, high, p, &out->k);
        uint32_t last_k = first_k + BLOCKED_K_CANDIDATES - 1;
        if (out->k == first_k && first_k > 1) {
            first_k = first_k > BLOCKED_K_CANDIDATES - 2 ? first_k - (BLOCKED_K_CANDIDATES - 2) : 1;
        } else if (out->k == last_k && last_k < BLOOM_K_MAX) {
            first_k = last_k - 1;
        } else {
            break;
        }
    }
    out->p = p;
    return BLOOM_OK;
}

bloom_status bloom_size(uint64_t n, double p, int layout, bloom_header *out, double *bytes_needed) {
    return bloom_size_designed(n, p, layout, NULL, out, bytes_needed);
}

bloom_status bloom_size_designed(uint64_t n, double p, int layout,
                                 const bloom_blocked_design *design, bloom_header *out,
                                 double *bytes_needed) {
    const double ln2 = 0.693147180559945309417232121458176568;
    double words, k;
    memset(out, 0, sizeof *out);
    *bytes_needed = 0;
    if (n < 1 || !(p > 0.0 && p < 1.0) ||
        (layout != BLOOM_LAYOUT_STANDARD && layout != BLOOM_LAYOUT_BLOCKED)) {
        return BLOOM_BAD_ARGUMENT;
    }
    out->version = BLOOM_FORMAT_VERSION;
    out->min_reader_version = BLOOM_FORMAT_VERSION;
    out->layout = (uint8_t)layout;
    out->hash = BLOOM_HASH_XXH3_128;
    out->n = n;
    out->p = p;
    if (layout == BLOOM_LAYOUT_BLOCKED && p > BLOOM_BLOCKED_P_MAX) {
        return BLOOM_RATE_TOO_HIGH;
    }
    /* The classic formulas; k from the formula's m, before rounding m up to words. Both
    ** layouts refuse a p for which this k exceeds BLOOM_K_MAX. */
    double formula_bits = ceil(-(double)n * log(p) / (ln2 * ln2));
    k = fmax(1.0, round(formula_bits / (double)n * ln2));
    words = ceil(formula_bits / 64.0);
    out->k = k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
    if (k > BLOOM_K_MAX) {
        return BLOOM_TOO_MANY_HASHES;
    }
    if (layout == BLOOM_LAYOUT_BLOCKED) {
        /* The fewest lines that keep n keys at or below the design's load. */
        bloom_blocked_design computed;
        if (design == NULL || design->p != p) {
            bloom_design_blocked(p, &computed);
            design = &computed;
        }
        out->k = design->k;
        words = ceil((double)n / design->load) * (BLOOM_LINE_BITS / 64);
    }
    *bytes_needed = BLOOM_HEADER_BYTES + 8.0 * words;
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

/* Index of the first non-zero reserved byte of a header, or -1 when all are zero. The two
** ranges are compared whole first: the byte-by-byte search runs only on a corrupt header. */
static int first_nonzero_reserved(const uint8_t *blob) {
    static const uint8_t zeros[BLOOM_HEADER_BYTES - OFF_RESERVED_B] = {0};
    int found = -1;
    if (memcmp(blob + OFF_RESERVED_A, zeros, 4) != 0 ||
        memcmp(blob + OFF_RESERVED_B, zeros, sizeof zeros) != 0) {
        for (int i = OFF_RESERVED_A; found < 0 && i < BLOOM_HEADER_BYTES; i++) {
            int reserved = i < OFF_RESERVED_A + 4 || i >= OFF_RESERVED_B;
            found = reserved && blob[i] != 0 ? i : -1;
        }
    }
    return found;
}

/* Writes a validation message to why and returns BLOOM_INVALID. */
#define INVALID(...) (snprintf(why, BLOOM_WHY_MAX, __VA_ARGS__), BLOOM_INVALID)

/* Writes v to buf (32 bytes) with 15 significant digits and a '.' whatever the locale's
** decimal point; NaN and infinities as SQLite shows them. Returns buf. */
static const char *format_double(char *buf, double v) {
    char raw[40];
    size_t out = 0;
    if (v != v) {
        return strcpy(buf, "NaN");
    }
    if (v == INFINITY || v == -INFINITY) {
        return strcpy(buf, v > 0 ? "Inf" : "-Inf");
    }
    snprintf(raw, sizeof raw, "%.15g", v);
    for (size_t i = 0; raw[i] != '\0' && out < 31; i++) {
        char c = raw[i];
        int plain = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e';
        if (plain) {
            buf[out++] = c;
        } else if (out == 0 || buf[out - 1] != '.') {
            buf[out++] = '.'; /* the decimal point, one or more bytes in some locales */
        }
    }
    buf[out] = '\0';
    return buf;
}

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
    if (out->min_reader_version == 0 || out->version < out->min_reader_version) {
        return INVALID("corrupt filter: format version %u with minimum reader version %u",
                       out->version, out->min_reader_version);
    }
    if (out->min_reader_version > BLOOM_FORMAT_VERSION) {
        return INVALID("filter format version %u needs a reader of version %u or later; "
                       "this one reads version %d",
                       out->version, out->min_reader_version, BLOOM_FORMAT_VERSION);
    }
    out->layout = blob[OFF_LAYOUT];
    if (out->layout != BLOOM_LAYOUT_STANDARD && out->layout != BLOOM_LAYOUT_BLOCKED) {
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
    unsigned unit = out->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LINE_BITS : 64;
    if (out->m == 0 || out->m % unit != 0) {
        return INVALID("corrupt filter: m = %llu bits is not a positive multiple of %u",
                       (unsigned long long)out->m, unit);
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
        char p_text[32];
        return INVALID("corrupt filter: p = %s is not between 0 and 1",
                       format_double(p_text, out->p));
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
** Positions of the standard layout. Plain double hashing (h1 + i*h2) reduced
** by multiply-shift keeps the positions of two keys close for every i
** whenever their (h1, h2) are close, which puts a floor of about 1/(m^2 k) per
** key under the false-positive rate (measured: 60x the target at n = 100,
** p = 1e-6). So each step is passed through a bijective 64-bit mixer first:
** position i, from 0 to k - 1, is reduce(mix(h1 + i * (h2 | 1)), m). The odd
** step makes the k inputs distinct.
**
** Positions of the blocked layout: h1 picks the line, reduce(h1, m / 512);
** position i in the line is the top 9 bits of (h2 | 1) * C^i modulo 2^64, with
** C the odd constant below.
*/
#define LINE_STEP UINT64_C(0x9E3779B97F4A7C15)

/* The splitmix64 finalizer: a bijection of 64-bit values with full avalanche. */
static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The loop over the k positions of key in a filter with header h: for each, pos is set and
** BODY runs. One loop per layout, so that no position pays for the choice. */
#define FOR_EACH_POSITION(h, key, pos, BODY)                                                       \
    do {                                                                                           \
        if ((h)->layout == BLOOM_LAYOUT_BLOCKED) {                                                 \
            uint64_t line_ = bloom_reduce((key).h1, (h)->m / BLOOM_LINE_BITS) * BLOOM_LINE_BITS;   \
            uint64_t x_ = (key).h2 | 1;                                                            \
            for (uint32_t i_ = 0; i_ < (h)->k; i_++, x_ *= LINE_STEP) {                            \
                uint64_t pos = line_ + (x_ >> 55);                                                 \
                BODY                                                                               \
            }                                                                                      \
        } else {                                                                                   \
            uint64_t x_ = (key).h1, step_ = (key).h2 | 1;                                          \
            for (uint32_t i_ = 0; i_ < (h)->k; i_++, x_ += step_) {                                \
                uint64_t pos = bloom_reduce(mix64(x_), (h)->m);                                    \
                BODY                                                                               \
            }                                                                                      \
        }                                                                                          \
    } while (0)

void bloom_positions(const bloom_header *h, bloom_hash key, uint64_t *out) {
    uint32_t i = 0;
    FOR_EACH_POSITION(h, key, pos, { out[i++] = pos; });
}

void bloom_set(uint8_t *bits, const bloom_header *h, bloom_hash key) {
    FOR_EACH_POSITION(h, key, pos, { bits[pos >> 3] |= (uint8_t)(1u << (pos & 7)); });
}

int bloom_test(const uint8_t *bits, const bloom_header *h, bloom_hash key) {
    FOR_EACH_POSITION(h, key, pos, {
        if ((bits[pos >> 3] & (1u << (pos & 7))) == 0) {
            return 0;
        }
    });
    return 1;
}

/* Number of bits set in a 64-bit word, without a compiler builtin. */
static uint64_t popcount64(uint64_t x) {
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (x * UINT64_C(0x0101010101010101)) >> 56;
}

/*
** The fill of a filter with L segments of b bits: one of m bits in the standard
** layout, m/512 lines in the blocked one. A key sets each given bit with
** chance u = (1 - (1 - 1/b)^k) / L, so after n keys a bit is clear with chance
** a = (1 - u)^n, E[X] = m (1 - a), and the estimate is n = ln(1 - X/m) / ln(1 - u).
** Var(X) is exact for n keys: m a (1 - a) plus the covariances of pairs of bits
** in one segment and in two, each a^2 (e^(n d) - 1) with d the log-ratio of
** their joint clear chance to a^2; its standard error is sd(X) / |dE[X]/dn|.
*/
bloom_fill bloom_measure(const bloom_header *h, const uint8_t *bits) {
    uint64_t segment_bits = h->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LINE_BITS : h->m;
    double b = (double)segment_bits, lines = (double)(h->m / segment_bits);
    double m = (double)h->m, k = h->k, rate_sum = 0;
    bloom_fill f = {0, 0, 0, 0, 0, 0};
    for (uint64_t start = 0; start < h->m / 8; start += segment_bits / 8) {
        uint64_t x = 0;
        for (uint64_t i = start; i < start + segment_bits / 8; i += 8) {
            x += popcount64(get_le(bits + i, 8));
        }
        f.bits_set += x;
        rate_sum += pow((double)x / b, k); /* a probe lands in each segment alike */
    }
    f.fill_ratio = (double)f.bits_set / m;
    f.estimated_fp_rate = rate_sum / lines;
    double log_miss = log1p(expm1(k * log1p(-1.0 / b)) / lines);             /* ln(1 - u) */
    double log_miss_two = log1p(expm1(k * log1p(-2.0 / b)) / lines);         /* same segment */
    double log_miss_apart = log1p(2.0 * expm1(k * log1p(-1.0 / b)) / lines); /* two segments */
    f.estimated_keys = log1p(-f.fill_ratio) / log_miss; /* INFINITY when every bit is set */
    if (isinf(f.estimated_keys)) {
        f.estimated_keys_se = INFINITY;
    } else {
        double n = f.estimated_keys, a = 1.0 - f.fill_ratio;
        double same = a * a * expm1(n * (log_miss_two - 2.0 * log_miss));
        double apart = a * a * expm1(n * (log_miss_apart - 2.0 * log_miss));
        double variance = m * a * (1.0 - a) + m * (b - 1.0) * same + m * (m - b) * apart;
        f.estimated_keys_se = sqrt(fmax(0.0, variance)) / (m * a * -log_miss);
    }
    f.over_capacity =
        h->keys > h->n &&
        (isinf(f.estimated_keys) || f.estimated_keys > (double)h->n + 4.0 * f.estimated_keys_se);
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

void bloom_set_all(uint8_t *bits, const bloom_header *h, const bloom_hash_set *set) {
    static const bloom_hash zero = {0, 0};
    for (uint64_t i = 0; i < set->capacity; i++) {
        if (set->slots[i].h1 != 0 || set->slots[i].h2 != 0) {
            bloom_set(bits, h, set->slots[i]);
        }
    }
    if (set->has_zero) {
        bloom_set(bits, h, zero);
    }
}
