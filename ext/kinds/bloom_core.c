/*
** bloom_core.c: the standard and blocked Bloom filter kinds. See bloom_core.h
** for the contracts and docs/format.md for the bytes.
*/
#include "bloom_core.h"

#include "filter_info.h"
#include "hash_math.h"
#include "little_endian.h"

#include <math.h>
#include <string.h>

/* What to do about filters that cannot be merged. */
#define BLOOM_SAME_BUILD "build both with the same n, p and kind"

filter_status bloom_check_rate(double p, int layout) {
    if (filter_check_rate(p) != FILTER_OK ||
        (layout != BLOOM_LAYOUT_STANDARD && layout != BLOOM_LAYOUT_BLOCKED)) {
        return FILTER_BAD_ARGUMENT;
    }
    return layout == BLOOM_LAYOUT_BLOCKED && p > BLOOM_BLOCKED_P_MAX ? FILTER_RATE_TOO_HIGH
                                                                     : FILTER_OK;
}

filter_status bloom_size(uint64_t n, double p, int layout, bloom_header *out,
                         double *bytes_needed) {
    return bloom_size_designed(n, p, layout, NULL, out, bytes_needed);
}

filter_status bloom_size_designed(uint64_t n, double p, int layout,
                                  const bloom_blocked_design *design, bloom_header *out,
                                  double *bytes_needed) {
    const double ln2 = 0.693147180559945309417232121458176568;
    double words, k;
    memset(out, 0, sizeof *out);
    *bytes_needed = 0;
    filter_status status = bloom_check_rate(p, layout);
    if (n < 1 || status == FILTER_BAD_ARGUMENT) {
        return FILTER_BAD_ARGUMENT;
    }
    out->layout = (uint8_t)layout;
    out->n = n;
    out->p = p;
    if (status != FILTER_OK) {
        return status;
    }
    /* The classic formulas; k from the formula's m, before rounding m up to words. Both
    ** layouts refuse a p for which this k exceeds BLOOM_K_MAX. */
    double formula_bits = ceil(-(double)n * log(p) / (ln2 * ln2));
    k = fmax(1.0, round(formula_bits / (double)n * ln2));
    words = ceil(formula_bits / 64.0);
    out->k = k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
    if (k > BLOOM_K_MAX) {
        return FILTER_TOO_MANY_HASHES;
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
    *bytes_needed = FILTER_HEADER_BYTES + 8.0 * words;
    if (*bytes_needed > FILTER_MAX_BYTES) {
        return FILTER_TOO_BIG;
    }
    out->m = (uint64_t)words * 64;
    return FILTER_OK;
}

uint64_t bloom_blob_bytes(uint64_t m) {
    return FILTER_HEADER_BYTES + (m / 64 + (m % 64 != 0)) * 8;
}

const filter_kind *bloom_kind_of_layout(int layout) {
    return layout == BLOOM_LAYOUT_BLOCKED ? &bloom_blocked_kind : &bloom_standard_kind;
}

void bloom_write_header(uint8_t *blob, const bloom_header *h) {
    memset(blob, 0, FILTER_HEADER_BYTES);
    filter_write_prelude(blob, bloom_kind_of_layout(h->layout));
    le_store32(blob + BLOOM_OFF_K, h->k);
    le_store64(blob + BLOOM_OFF_M, h->m);
    le_store64(blob + BLOOM_OFF_N, h->n);
    le_store64(blob + BLOOM_OFF_P, le_double_bits(h->p));
    le_store64(blob + BLOOM_OFF_KEYS, h->keys);
}

bloom_header bloom_header_of(const filter_view *f) {
    bloom_header h;
    h.layout = f->kind->id;
    h.k = le_load32(f->blob + BLOOM_OFF_K);
    h.m = le_load64(f->blob + BLOOM_OFF_M);
    h.n = le_load64(f->blob + BLOOM_OFF_N);
    h.p = le_bits_double(le_load64(f->blob + BLOOM_OFF_P));
    h.keys = le_load64(f->blob + BLOOM_OFF_KEYS);
    return h;
}

/* The kinds' validate: the Bloom fields against the BLOB's length (docs/format.md). */
static filter_status bloom_kind_validate(const filter_view *f, char *why) {
    bloom_header h = bloom_header_of(f);
    if (h.k < 1 || h.k > BLOOM_K_MAX) {
        return filter_invalid(why, "corrupt filter: k = %lu is outside 1..%d", (unsigned long)h.k,
                              BLOOM_K_MAX);
    }
    unsigned unit = h.layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LINE_BITS : 64;
    if (h.m == 0 || h.m % unit != 0) {
        return filter_invalid(why, "corrupt filter: m = %llu bits is not a positive multiple of %u",
                              (unsigned long long)h.m, unit);
    }
    if (bloom_blob_bytes(h.m) != f->bytes) {
        return filter_invalid(why,
                              "corrupt filter: m = %llu bits needs %llu bytes, the BLOB has %llu",
                              (unsigned long long)h.m, (unsigned long long)bloom_blob_bytes(h.m),
                              (unsigned long long)f->bytes);
    }
    if (filter_check_capacity(h.n, h.p, why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    return filter_check_reserved(f, BLOOM_OFF_RESERVED_A, BLOOM_OFF_M, why);
}

/*
** Positions of the standard layout: those of double hashing, hash_positions.
** Positions of the blocked layout: h1 picks the line, hash_reduce(h1, m /
** 512); position i in the line is the top 9 bits of (h2 | 1) * C^i modulo
** 2^64, with C the odd constant below.
*/
#define LINE_STEP UINT64_C(0x9E3779B97F4A7C15)

/* The loop over the k positions of key in a filter with header h: for each, pos is set and
** BODY runs. One loop per layout, so that no position pays for the choice. */
#define FOR_EACH_POSITION(h, key, pos, BODY)                                                       \
    do {                                                                                           \
        if ((h)->layout == BLOOM_LAYOUT_BLOCKED) {                                                 \
            uint64_t line_ = hash_reduce((key).h1, (h)->m / BLOOM_LINE_BITS) * BLOOM_LINE_BITS;    \
            uint64_t y_ = (key).h2 | 1;                                                            \
            for (uint32_t j_ = 0; j_ < (h)->k; j_++, y_ *= LINE_STEP) {                            \
                uint64_t pos = line_ + (y_ >> 55);                                                 \
                BODY                                                                               \
            }                                                                                      \
        } else {                                                                                   \
            HASH_FOR_EACH_POSITION(key, (h)->k, (h)->m, pos, BODY);                                \
        }                                                                                          \
    } while (0)

void bloom_positions(const bloom_header *h, key_hash key, uint64_t *out) {
    uint32_t i = 0;
    FOR_EACH_POSITION(h, key, pos, { out[i++] = pos; });
}

void bloom_set(uint8_t *bits, const bloom_header *h, key_hash key) {
    FOR_EACH_POSITION(h, key, pos, { bits[pos >> 3] |= (uint8_t)(1u << (pos & 7)); });
}

void bloom_set_batch(uint8_t *bits, const bloom_header *h, const key_hash *keys, int count) {
    uint64_t positions[BLOOM_BATCH_KEYS * BLOOM_K_MAX]; /* 16 KB of stack */
    uint64_t total = 0;
    for (int i = 0; i < count; i++, total += h->k) {
        bloom_positions(h, keys[i], positions + total);
    }
    for (uint64_t i = 0; i < total; i++) {
#if defined(__GNUC__)
        __builtin_prefetch(bits + (positions[i] >> 3), 1);
#endif
    }
    for (uint64_t i = 0; i < total; i++) {
        bits[positions[i] >> 3] |= (uint8_t)(1u << (positions[i] & 7));
    }
}

/* bloom_test, inline where it is called for the kinds. */
static inline int bloom_test_bits(const uint8_t *bits, const bloom_header *h, key_hash key) {
    FOR_EACH_POSITION(h, key, pos, {
        if ((bits[pos >> 3] & (1u << (pos & 7))) == 0) {
            return 0;
        }
    });
    return 1;
}

int bloom_test(const uint8_t *bits, const bloom_header *h, key_hash key) {
    return bloom_test_bits(bits, h, key);
}

/* Number of bits set in a 64-bit word, without a compiler builtin. */
static uint64_t bloom_popcount64(uint64_t x) {
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
** With one segment there are no pairs in two (and ln(1 - 2u) may not exist).
*/
bloom_fill bloom_measure(const bloom_header *h, const uint8_t *bits) {
    uint64_t segment_bits = h->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LINE_BITS : h->m;
    double b = (double)segment_bits, lines = (double)(h->m / segment_bits), rate_sum = 0;
    uint64_t bits_set = 0;
    for (uint64_t start = 0; start < h->m / 8; start += segment_bits / 8) {
        uint64_t x = 0;
        for (uint64_t i = start; i < start + segment_bits / 8; i += 8) {
            x += bloom_popcount64(le_load64(bits + i));
        }
        bits_set += x;
        rate_sum += pow((double)x / b, h->k); /* a probe lands in each segment alike */
    }
    return bloom_estimate(h, bits_set, rate_sum / lines);
}

bloom_fill bloom_estimate(const bloom_header *h, uint64_t bits_set, double fp_rate) {
    uint64_t segment_bits = h->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_LINE_BITS : h->m;
    double b = (double)segment_bits, lines = (double)(h->m / segment_bits);
    double m = (double)h->m, k = h->k;
    bloom_fill f = {bits_set, (double)bits_set / m, 0, 0, fp_rate, 0};
    double log_miss = log1p(expm1(k * log1p(-1.0 / b)) / lines);     /* ln(1 - u) */
    double log_miss_two = log1p(expm1(k * log1p(-2.0 / b)) / lines); /* same segment */
    f.estimated_keys = log1p(-f.fill_ratio) / log_miss; /* INFINITY when every bit is set */
    if (isinf(f.estimated_keys)) {
        f.estimated_keys_se = INFINITY;
    } else {
        double n = f.estimated_keys, a = 1.0 - f.fill_ratio;
        double same = a * a * expm1(n * (log_miss_two - 2.0 * log_miss));
        double variance = m * a * (1.0 - a) + m * (b - 1.0) * same;
        if (lines > 1) {
            double log_miss_apart = log1p(2.0 * expm1(k * log1p(-1.0 / b)) / lines);
            variance += m * (m - b) * a * a * expm1(n * (log_miss_apart - 2.0 * log_miss));
        }
        f.estimated_keys_se = sqrt(fmax(0.0, variance)) / (m * a * -log_miss);
    }
    f.over_capacity =
        h->keys > h->n &&
        (isinf(f.estimated_keys) || f.estimated_keys > (double)h->n + 4.0 * f.estimated_keys_se);
    return f;
}

filter_status bloom_check_compatible(const bloom_header *a, const bloom_header *b, char *why) {
    char a_p[32], b_p[32];
    if (a->m == b->m && a->k == b->k) {
        return FILTER_OK;
    }
    return filter_invalid(why,
                          "incompatible filters: one built for n = %llu at p = %s (%llu bits, "
                          "k = %lu), the other for n = %llu at p = %s (%llu bits, k = %lu); %s",
                          (unsigned long long)a->n, filter_format_double(a_p, a->p),
                          (unsigned long long)a->m, (unsigned long)a->k, (unsigned long long)b->n,
                          filter_format_double(b_p, b->p), (unsigned long long)b->m,
                          (unsigned long)b->k, BLOOM_SAME_BUILD);
}

void bloom_merge(uint8_t *dst, const uint8_t *src, uint64_t m) {
    for (uint64_t i = 0; i < m / 8; i++) {
        dst[i] |= src[i];
    }
}

/* The kinds' might_contain. */
static int bloom_kind_might_contain(const filter_view *f, key_hash key) {
    bloom_header h = bloom_header_of(f);
    return bloom_test_bits(bloom_bits(f), &h, key);
}

/* The kinds' write_header. */
static void bloom_kind_write_header(uint8_t *dst, const filter_view *f) {
    bloom_header h = bloom_header_of(f);
    bloom_write_header(dst, &h);
}

/* The header of a filter that filter_copy wrote. */
static bloom_header bloom_header_of_blob(const uint8_t *blob) {
    filter_view f = {bloom_kind_of_layout(blob[FILTER_OFF_KIND]), 0, 0, 0, blob, 0};
    return bloom_header_of(&f);
}

/* The kinds' add: the key's bits, and one more key added. */
static filter_status bloom_kind_add(uint8_t *blob, key_hash key) {
    bloom_header h = bloom_header_of_blob(blob);
    bloom_set(blob + FILTER_HEADER_BYTES, &h, key);
    le_store64(blob + BLOOM_OFF_KEYS, filter_add_counts(h.keys, 1));
    return FILTER_OK;
}

/* The kinds' compatible: the same m and k. */
static filter_status bloom_kind_compatible(const filter_view *a, const filter_view *b, char *why) {
    bloom_header a_header = bloom_header_of(a), b_header = bloom_header_of(b);
    return bloom_check_compatible(&a_header, &b_header, why);
}

/* The kinds' merge: the bits ORed and the counts of keys added summed. */
static filter_status bloom_kind_merge(uint8_t *blob, const filter_view *f) {
    bloom_header into = bloom_header_of_blob(blob), from = bloom_header_of(f);
    bloom_merge(blob + FILTER_HEADER_BYTES, bloom_bits(f), into.m);
    le_store64(blob + BLOOM_OFF_KEYS, filter_add_counts(into.keys, from.keys));
    return FILTER_OK;
}

/* The blocked layout's line of key in a filter of header h: its offset in the BLOB, and the
** header of a filter that is that line alone (whose positions for key are the line's). */
static uint64_t bloom_line_of(const bloom_header *h, key_hash key, bloom_header *line) {
    *line = *h;
    line->m = BLOOM_LINE_BITS;
    return FILTER_HEADER_BYTES +
           hash_reduce(key.h1, h->m / BLOOM_LINE_BITS) * (BLOOM_LINE_BITS / 8);
}

/* The kinds' might_contain_io: the blocked layout's line in one read; the standard layout's
** byte of each position, until a bit is clear. */
static filter_status bloom_kind_might_contain_io(const filter_view *f, filter_io *io, key_hash key,
                                                 int *answer) {
    bloom_header h = bloom_header_of(f);
    *answer = 1;
    if (h.layout == BLOOM_LAYOUT_BLOCKED) {
        bloom_header one;
        uint8_t line[BLOOM_LINE_BITS / 8];
        if (io->read(io->state, bloom_line_of(&h, key, &one), line, sizeof line) != 0) {
            return FILTER_IO_FAILED;
        }
        *answer = bloom_test_bits(line, &one, key);
        return FILTER_OK;
    }
    uint64_t positions[BLOOM_K_MAX];
    bloom_positions(&h, key, positions);
    for (uint32_t i = 0; i < h.k && *answer; i++) {
        uint8_t byte;
        if (io->read(io->state, FILTER_HEADER_BYTES + (positions[i] >> 3), &byte, 1) != 0) {
            return FILTER_IO_FAILED;
        }
        *answer = (byte >> (positions[i] & 7)) & 1;
    }
    return FILTER_OK;
}

/* Sets the bits of key through io, in the blocked layout's line, read once and written once if
** a bit was clear. */
static filter_status bloom_line_set_io(const bloom_header *h, filter_io *io, key_hash key,
                                       int *was_absent) {
    bloom_header one;
    uint8_t line[BLOOM_LINE_BITS / 8];
    uint64_t offset = bloom_line_of(h, key, &one);
    if (io->read(io->state, offset, line, sizeof line) != 0) {
        return FILTER_IO_FAILED;
    }
    *was_absent = !bloom_test_bits(line, &one, key);
    bloom_set(line, &one, key);
    return *was_absent && io->write(io->state, offset, line, sizeof line) != 0 ? FILTER_IO_FAILED
                                                                               : FILTER_OK;
}

/* Sets the bits of key through io, in the standard layout: the byte of each position, written
** if its bit was clear. */
static filter_status bloom_bytes_set_io(const bloom_header *h, filter_io *io, key_hash key,
                                        int *was_absent) {
    uint64_t positions[BLOOM_K_MAX];
    bloom_positions(h, key, positions);
    *was_absent = 0;
    for (uint32_t i = 0; i < h->k; i++) {
        uint64_t offset = FILTER_HEADER_BYTES + (positions[i] >> 3);
        uint8_t byte, bit = (uint8_t)(1u << (positions[i] & 7));
        if (io->read(io->state, offset, &byte, 1) != 0) {
            return FILTER_IO_FAILED;
        }
        if ((byte & bit) == 0) {
            *was_absent = 1;
            byte |= bit;
            if (io->write(io->state, offset, &byte, 1) != 0) {
                return FILTER_IO_FAILED;
            }
        }
    }
    return FILTER_OK;
}

/* The kinds' add_io: the key's bits (bloom_line_set_io, bloom_bytes_set_io), then the count of
** keys added. */
static filter_status bloom_kind_add_io(const filter_view *f, filter_io *io, key_hash key,
                                       int *was_absent) {
    bloom_header h = bloom_header_of(f);
    uint8_t keys[8];
    filter_status status = h.layout == BLOOM_LAYOUT_BLOCKED
                               ? bloom_line_set_io(&h, io, key, was_absent)
                               : bloom_bytes_set_io(&h, io, key, was_absent);
    if (status != FILTER_OK) {
        return status;
    }
    le_store64(keys, filter_add_counts(h.keys, 1));
    return io->write(io->state, BLOOM_OFF_KEYS, keys, sizeof keys) != 0 ? FILTER_IO_FAILED
                                                                        : FILTER_OK;
}

void bloom_info_fields(const filter_view *f, const bloom_header *h, const bloom_fill *fill,
                       const char *positions, info_sink *sink) {
    info_count(sink, "k", h->k);
    info_count(sink, "m", h->m);
    info_count(sink, "bytes", f->bytes);
    info_count(sink, "n", h->n);
    info_real(sink, "p", h->p);
    info_count(sink, "keys_added", h->keys);
    info_count(sink, positions, fill->bits_set);
    info_real(sink, "fill_ratio", fill->fill_ratio);
    info_estimate(sink, "estimated_keys", fill->estimated_keys);
    info_estimate(sink, "estimated_keys_error", fill->estimated_keys_se);
    info_real(sink, "estimated_fp_rate", fill->estimated_fp_rate);
    info_flag(sink, "over_capacity", fill->over_capacity);
}

/* The fields of bloom_info: the header, then what the fill tells. O(m). */
static void bloom_kind_info(const filter_view *f, info_sink *sink) {
    bloom_header h = bloom_header_of(f);
    bloom_fill fill = bloom_measure(&h, bloom_bits(f));
    bloom_info_fields(f, &h, &fill, "bits_set", sink);
}

/* The kinds' probe_bits: the k positions of key, one way. */
static void bloom_kind_probe_bits(const filter_view *f, key_hash key, filter_probe_bits *out) {
    bloom_header h = bloom_header_of(f);
    out->ways = 1;
    out->count[0] = (int)h.k;
    bloom_positions(&h, key, out->position[0]);
}

/* The kinds' geometry: the kind, k and m, on which the positions of a key depend. */
static void bloom_kind_geometry(const filter_view *f, uint8_t *geometry) {
    bloom_header h = bloom_header_of(f);
    memset(geometry, 0, FILTER_GEOMETRY_BYTES);
    geometry[0] = (uint8_t)h.layout;
    le_store32(geometry + 4, h.k);
    le_store64(geometry + 8, h.m);
}

/* A Bloom kind: both share every operation, which read the layout from the filter. */
#define BLOOM_KIND(layout, kind_name)                                                              \
    {                                                                                              \
        .id = layout, .name = kind_name, .format_version = BLOOM_FORMAT_VERSION,                   \
        .key_hash = KEY_HASH_XXH3_128, .count_offset = BLOOM_OFF_KEYS, .count_by_steps = 1,        \
        .validate = bloom_kind_validate, .might_contain = bloom_kind_might_contain,                \
        .write_header = bloom_kind_write_header, .add = bloom_kind_add,                            \
        .compatible = bloom_kind_compatible, .merge = bloom_kind_merge,                            \
        .might_contain_io = bloom_kind_might_contain_io, .add_io = bloom_kind_add_io,              \
        .probe_bits = bloom_kind_probe_bits, .geometry = bloom_kind_geometry,                      \
        .info = bloom_kind_info                                                                    \
    }

const filter_kind bloom_standard_kind = BLOOM_KIND(BLOOM_LAYOUT_STANDARD, "standard");
const filter_kind bloom_blocked_kind = BLOOM_KIND(BLOOM_LAYOUT_BLOCKED, "blocked");
