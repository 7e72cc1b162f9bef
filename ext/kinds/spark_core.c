/*
** spark_core.c: Apache Spark's Bloom filter kind. See spark_core.h for the
** contracts and docs/format.md for the bytes.
*/
#include "spark_core.h"

#include "filter_info.h"
#include "little_endian.h"

#include <math.h>
#include <string.h>

/* Offsets of the header's fields, after the prelude. */
enum {
    OFF_N = 8,
    OFF_P = 16,
    OFF_KEYS = 24,
    OFF_WORDS = 32,
    OFF_K = 36,
    OFF_SEED = 40,
    OFF_VERSION = 44,
    OFF_RESERVED = 45 /* 3 bytes, then the reserved tail */
};

/* What spark_hash tells add and might_contain in h2 beside the two hashes (h1: Spark's h1 in
** its low 32 bits, h2 in its high 32 bits). */
enum { KEY_NOT_A_VALUE = 1 };

/* ---- Sizing ---- */

filter_status spark_size(uint64_t n, double p, int version, uint32_t *words, uint32_t *k,
                         double *bytes_needed) {
    *words = 0;
    *k = 0;
    *bytes_needed = 0.0;
    if (n < 1 || n > (uint64_t)INT64_MAX || filter_check_rate(p) != FILTER_OK) {
        return FILTER_BAD_ARGUMENT;
    }
    /* Java's arithmetic: -n a long, then doubles; (long) truncates toward 0. */
    double ln2 = log(2.0), bits = (double)(-(int64_t)n) * log(p) / (ln2 * ln2);
    double max_words = version == 1 ? SPARK_V1_WORDS_MAX : SPARK_WORDS_MAX;
    *bytes_needed = FILTER_HEADER_BYTES + ceil(floor(bits) / 64.0) * 8.0;
    if (bits < 1.0) {
        return FILTER_BAD_ARGUMENT; /* no bit: Spark's create refuses it too */
    }
    if (floor(bits) / 64.0 > max_words) {
        return FILTER_TOO_BIG;
    }
    uint64_t m = (uint64_t)bits;
    /* k = max(1, (int) Math.round((double) m / n * ln 2)): Java's round is floor(x + 1/2)
    ** computed exactly, then an int cast of the long keeps its low 32 bits. */
    double x = (double)m / (double)n * ln2, r = floor(x);
    if (x - r >= 0.5) {
        r += 1.0;
    }
    int32_t rounded = (int32_t)(uint32_t)(uint64_t)r;
    *k = rounded < 1 ? 1 : (uint32_t)rounded;
    *words = (uint32_t)((m + 63) / 64);
    return FILTER_OK;
}

uint64_t spark_blob_bytes(uint32_t words) {
    return FILTER_HEADER_BYTES + (uint64_t)words * 8;
}

/* ---- Header ---- */

void spark_write_header(uint8_t *blob, const spark_header *h) {
    memset(blob, 0, FILTER_HEADER_BYTES);
    filter_write_prelude(blob, &spark_kind);
    le_store64(blob + OFF_N, h->n);
    le_store64(blob + OFF_P, le_double_bits(h->p));
    le_store64(blob + OFF_KEYS, h->keys);
    le_store32(blob + OFF_WORDS, h->words);
    le_store32(blob + OFF_K, h->k);
    le_store32(blob + OFF_SEED, h->seed);
    blob[OFF_VERSION] = (uint8_t)h->version;
}

spark_header spark_header_of(const filter_view *f) {
    spark_header h;
    h.n = le_load64(f->blob + OFF_N);
    h.p = le_bits_double(le_load64(f->blob + OFF_P));
    h.keys = le_load64(f->blob + OFF_KEYS);
    h.words = le_load32(f->blob + OFF_WORDS);
    h.k = le_load32(f->blob + OFF_K);
    h.seed = le_load32(f->blob + OFF_SEED);
    h.version = f->blob[OFF_VERSION];
    return h;
}

/* Checks version, k, seed and W as Spark's bytes may hold them: FILTER_OK, or FILTER_INVALID
** with why, prefixed by what. */
static filter_status spark_check_fields(const spark_header *h, const char *what, char *why) {
    if (h->version != 1 && h->version != 2) {
        return filter_invalid(why, "%sSpark version %d, not 1 or 2", what, h->version);
    }
    if (h->k < 1 || h->k > INT32_MAX) {
        return filter_invalid(why, "%s%ld hash functions, not 1 to %d", what, (long)(int32_t)h->k,
                              INT32_MAX);
    }
    if (h->words < 1 || h->words > SPARK_WORDS_MAX) {
        return filter_invalid(why, "%s%ld words, not 1 to %d", what, (long)(int32_t)h->words,
                              SPARK_WORDS_MAX);
    }
    if (h->k > (uint64_t)h->words * 64) { /* Spark's create makes k <= m ln 2 / n + 1/2 */
        return filter_invalid(why, "%s%lu hash functions for %llu bits: more than the bits", what,
                              (unsigned long)h->k, (unsigned long long)h->words * 64);
    }
    if (h->version == 1 && h->seed != 0) {
        return filter_invalid(why, "%sseed %ld in version 1, which has none", what,
                              (long)(int32_t)h->seed);
    }
    return FILTER_OK;
}

/* The kind's validate: the fields against the BLOB's length (docs/format.md). */
static filter_status spark_kind_validate(const filter_view *f, char *why) {
    spark_header h = spark_header_of(f);
    if (spark_check_fields(&h, "corrupt filter: ", why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    if (spark_blob_bytes(h.words) != f->bytes) {
        return filter_invalid(why, "corrupt filter: %lu words need %llu bytes, the BLOB has %llu",
                              (unsigned long)h.words, (unsigned long long)spark_blob_bytes(h.words),
                              (unsigned long long)f->bytes);
    }
    if ((h.n != 0 || h.p != 0.0) && filter_check_capacity(h.n, h.p, why) != FILTER_OK) {
        return FILTER_INVALID; /* n and p are both 0 (not known), or a capacity and a rate */
    }
    return filter_check_reserved(f, OFF_RESERVED, FILTER_OFF_RESERVED_TAIL, why);
}

/* ---- Keys and positions ---- */

key_hash spark_hash(const key_value *key, uint32_t seed) {
    uint32_t h1, h2;
    switch (key->type) {
    case KEY_TAG_INTEGER:
        h1 = key_hash_spark_long(key->integer, seed);
        h2 = key_hash_spark_long(key->integer, h1);
        break;
    case KEY_TAG_TEXT: /* a string: its UTF-8 bytes, as a byte array's */
    case KEY_TAG_BLOB:
        h1 = key_hash_spark_bytes(key->bytes, key->length, seed);
        h2 = key_hash_spark_bytes(key->bytes, key->length, h1);
        break;
    default: {
        key_hash none = {0, KEY_NOT_A_VALUE}; /* a double: Spark's put refuses it */
        return none;
    }
    }
    key_hash out = {(uint64_t)h1 | (uint64_t)h2 << 32, 0};
    return out;
}

int spark_key_is_value(key_hash key) {
    return !(key.h2 & KEY_NOT_A_VALUE);
}

/* The residue of v modulo m (m <= 2^37), in [0, m), whatever v's sign. */
static inline uint64_t spark_residue(int64_t v, uint64_t m) {
    int64_t r = v % (int64_t)m;
    return (uint64_t)(r < 0 ? r + (int64_t)m : r);
}

/*
** The loop over the k positions of key in a filter of header h, as Spark's version computes
** them, pos set for BODY. Version 1: c = h1 + i h2 in 32-bit arithmetic for i = 1 .. k, ~c if
** negative, modulo the bits m = 64 W (a 32-bit division when m fits, none when m is past c's
** 2^31). Version 2: C = h1 (2^31 - 1) in 64 bits, then C += h2 each round, the position from
** ~C if negative (C itself kept), modulo m: C never wraps (|C| < 2^62 + k 2^31 < 2^63), so
** its residue r = C mod m moves by h2 mod m each round, an addition and a subtraction instead
** of a division (two divisions a key, the second only when its first bit is set: measured on
** this machine's AMD EPYC, cheaper than a division a position, or than 1 / m in binary64), and
** ~C = -C - 1 has the residue m - 1 - r.
*/
#define SPARK_FOR_EACH_POSITION(h, key, pos, BODY)                                                 \
    do {                                                                                           \
        int32_t h1_ = (int32_t)(uint32_t)(key).h1, h2_ = (int32_t)(uint32_t)((key).h1 >> 32);      \
        uint64_t bits_ = (uint64_t)(h)->words * 64;                                                \
        if ((h)->version == 1) {                                                                   \
            uint32_t bits32_ = bits_ <= UINT32_MAX ? (uint32_t)bits_ : 0;                          \
            for (uint32_t i_ = 1; i_ <= (h)->k; i_++) {                                            \
                int32_t c_ = (int32_t)((uint32_t)h1_ + i_ * (uint32_t)h2_);                        \
                uint32_t v_ = (uint32_t)(c_ < 0 ? ~c_ : c_);                                       \
                uint64_t pos = bits32_ != 0 ? v_ % bits32_ : v_;                                   \
                BODY                                                                               \
            }                                                                                      \
        } else {                                                                                   \
            int64_t c_ = (int64_t)h1_ * INT32_MAX + h2_;                                           \
            uint64_t r_ = spark_residue(c_, bits_), step_ = 0;                                     \
            for (uint32_t i_ = 0; i_ < (h)->k; i_++) {                                             \
                if (i_ == 1) {                                                                     \
                    step_ = spark_residue(h2_, bits_);                                             \
                }                                                                                  \
                if (i_ > 0) {                                                                      \
                    c_ += h2_;                                                                     \
                    r_ += step_;                                                                   \
                    r_ = r_ >= bits_ ? r_ - bits_ : r_;                                            \
                }                                                                                  \
                uint64_t pos = c_ < 0 ? bits_ - 1 - r_ : r_;                                       \
                BODY                                                                               \
            }                                                                                      \
        }                                                                                          \
    } while (0)

void spark_positions(const spark_header *h, key_hash key, uint64_t *out) {
    uint32_t i = 0;
    SPARK_FOR_EACH_POSITION(h, key, pos, { out[i++] = pos; });
}

void spark_set(uint8_t *body, const spark_header *h, key_hash key) {
    SPARK_FOR_EACH_POSITION(h, key, pos, { body[pos >> 3] |= (uint8_t)(1u << (pos & 7)); });
}

int spark_test(const uint8_t *body, const spark_header *h, key_hash key) {
    SPARK_FOR_EACH_POSITION(h, key, pos, {
        if (!((body[pos >> 3] >> (pos & 7)) & 1)) {
            return 0;
        }
    });
    return 1;
}

/* ---- Spark's bytes ---- */

/* Big-endian 32 and 64-bit integers, as Java's DataOutputStream writes them. */
static void spark_store_be32(uint8_t *b, uint32_t v) {
    for (int i = 3; i >= 0; i--, v >>= 8) {
        b[i] = (uint8_t)v;
    }
}

static uint32_t spark_load_be32(const uint8_t *b) {
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

uint64_t spark_bytes_length(const spark_header *h) {
    return (h->version == 1 ? SPARK_V1_HEAD_BYTES : SPARK_V2_HEAD_BYTES) + (uint64_t)h->words * 8;
}

void spark_write_bytes(uint8_t *out, const filter_view *f) {
    spark_header h = spark_header_of(f);
    const uint8_t *body = f->blob + FILTER_HEADER_BYTES;
    spark_store_be32(out, (uint32_t)h.version);
    spark_store_be32(out + 4, h.k);
    if (h.version == 2) {
        spark_store_be32(out + 8, h.seed);
    }
    out += h.version == 1 ? 8 : 12;
    spark_store_be32(out, h.words);
    out += 4;
    for (uint64_t w = 0; w < h.words; w++) { /* a little-endian word, reversed */
        for (int i = 0; i < 8; i++) {
            out[8 * w + i] = body[8 * w + 7 - i];
        }
    }
}

filter_status spark_read_bytes(const uint8_t *bytes, uint64_t length, spark_header *h, char *why) {
    memset(h, 0, sizeof *h);
    if (length < SPARK_V1_HEAD_BYTES) {
        return filter_invalid(why, "%llu bytes end before the head of Spark's bytes (12 or 16)",
                              (unsigned long long)length);
    }
    int32_t version = (int32_t)spark_load_be32(bytes);
    if (version != 1 && version != 2) {
        return filter_invalid(why, "Spark version %ld, not 1 or 2", (long)version);
    }
    uint64_t head = version == 1 ? SPARK_V1_HEAD_BYTES : SPARK_V2_HEAD_BYTES;
    if (length < head) {
        return filter_invalid(why, "%llu bytes end inside the head of version 2's bytes (16)",
                              (unsigned long long)length);
    }
    h->version = (int)version;
    h->k = spark_load_be32(bytes + 4);
    h->seed = version == 2 ? spark_load_be32(bytes + 8) : 0;
    h->words = spark_load_be32(bytes + head - 4);
    if (spark_check_fields(h, "", why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    if (length - head != (uint64_t)h->words * 8) {
        return filter_invalid(why,
                              "the head announces %lu words (%llu bytes), and %llu bytes "
                              "follow it",
                              (unsigned long)h->words, (unsigned long long)h->words * 8,
                              (unsigned long long)(length - head));
    }
    return FILTER_OK;
}

void spark_filter_from_bytes(uint8_t *blob, const uint8_t *bytes, const spark_header *h) {
    const uint8_t *words = bytes + (h->version == 1 ? SPARK_V1_HEAD_BYTES : SPARK_V2_HEAD_BYTES);
    uint8_t *body = blob + FILTER_HEADER_BYTES;
    spark_write_header(blob, h);
    for (uint64_t w = 0; w < h->words; w++) {
        for (int i = 0; i < 8; i++) {
            body[8 * w + i] = words[8 * w + 7 - i];
        }
    }
}

uint64_t spark_bits_set(const filter_view *f) {
    uint64_t set = 0;
    for (uint64_t i = FILTER_HEADER_BYTES; i + 8 <= f->bytes; i += 8) {
        set += (uint64_t)__builtin_popcountll(le_load64(f->blob + i));
    }
    return set;
}

/* ---- The kind's operations ---- */

/* The kind's hash_key: Spark's hash with the filter's seed (0 for a filter not yet made). */
static key_hash spark_kind_hash_key(const filter_view *f, const key_value *key) {
    return spark_hash(key, f->blob != NULL ? le_load32(f->blob + OFF_SEED) : 0);
}

static int spark_kind_might_contain(const filter_view *f, key_hash key) {
    spark_header h = spark_header_of(f);
    return spark_key_is_value(key) && spark_test(f->blob + FILTER_HEADER_BYTES, &h, key);
}

static void spark_kind_write_header(uint8_t *dst, const filter_view *f) {
    spark_header h = spark_header_of(f);
    spark_write_header(dst, &h);
}

/* The kind's add: the key's bits, and one more key added. */
static filter_status spark_kind_add(uint8_t *blob, key_hash key) {
    filter_view f = {&spark_kind, 0, 0, 0, blob, 0};
    spark_header h = spark_header_of(&f);
    if (!spark_key_is_value(key)) {
        return FILTER_REFUSED;
    }
    spark_set(blob + FILTER_HEADER_BYTES, &h, key);
    le_store64(blob + OFF_KEYS, filter_add_counts(h.keys, 1));
    return FILTER_OK;
}

/* The kind's compatible: as Spark merges, the same version, words, k and seed. */
static filter_status spark_kind_compatible(const filter_view *a, const filter_view *b, char *why) {
    spark_header ha = spark_header_of(a), hb = spark_header_of(b);
    if (ha.version != hb.version) {
        return filter_invalid(why,
                              "incompatible filters: Spark versions %d and %d; Spark merges "
                              "filters of one version",
                              ha.version, hb.version);
    }
    if (ha.words != hb.words || ha.k != hb.k) {
        return filter_invalid(why,
                              "incompatible filters: %llu bits with k = %lu and %llu bits with "
                              "k = %lu; build both with the same n and p",
                              (unsigned long long)ha.words * 64, (unsigned long)ha.k,
                              (unsigned long long)hb.words * 64, (unsigned long)hb.k);
    }
    if (ha.seed != hb.seed) {
        return filter_invalid(why,
                              "incompatible filters: seeds %ld and %ld; Spark merges "
                              "filters of one seed",
                              (long)(int32_t)ha.seed, (long)(int32_t)hb.seed);
    }
    return FILTER_OK;
}

/* The kind's merge: the words ORed, the n and p of the first, the counts summed. */
static filter_status spark_kind_merge(uint8_t *blob, const filter_view *f) {
    uint64_t into = le_load64(blob + OFF_KEYS), from = le_load64(f->blob + OFF_KEYS);
    for (uint64_t i = FILTER_HEADER_BYTES; i < f->bytes; i++) {
        blob[i] |= f->blob[i];
    }
    le_store64(blob + OFF_KEYS, filter_add_counts(into, from));
    return FILTER_OK;
}

/* The kind's might_contain_io: the byte of each position, until a bit is clear. */
static filter_status spark_kind_might_contain_io(const filter_view *f, filter_io *io, key_hash key,
                                                 int *answer) {
    spark_header h = spark_header_of(f);
    *answer = spark_key_is_value(key);
    if (!*answer) {
        return FILTER_OK;
    }
    SPARK_FOR_EACH_POSITION(&h, key, pos, {
        uint8_t byte;
        if (io->read(io->state, FILTER_HEADER_BYTES + (pos >> 3), &byte, 1) != 0) {
            return FILTER_IO_FAILED;
        }
        if (!((byte >> (pos & 7)) & 1)) {
            *answer = 0;
            return FILTER_OK;
        }
    });
    return FILTER_OK;
}

/* The kind's add_io: the byte of each position whose bit is clear, written with it set; then
** the count of keys added. */
static filter_status spark_kind_add_io(const filter_view *f, filter_io *io, key_hash key,
                                       int *was_absent) {
    spark_header h = spark_header_of(f);
    uint8_t keys[8];
    *was_absent = 0;
    if (!spark_key_is_value(key)) {
        return FILTER_REFUSED;
    }
    SPARK_FOR_EACH_POSITION(&h, key, pos, {
        uint8_t byte;
        uint64_t offset = FILTER_HEADER_BYTES + (pos >> 3);
        if (io->read(io->state, offset, &byte, 1) != 0) {
            return FILTER_IO_FAILED;
        }
        if (!((byte >> (pos & 7)) & 1)) {
            *was_absent = 1;
            byte |= (uint8_t)(1u << (pos & 7));
            if (io->write(io->state, offset, &byte, 1) != 0) {
                return FILTER_IO_FAILED;
            }
        }
    });
    le_store64(keys, filter_add_counts(h.keys, 1));
    return io->write(io->state, OFF_KEYS, keys, sizeof keys) != 0 ? FILTER_IO_FAILED : FILTER_OK;
}

/* The kind's value_type: the keys Spark's put takes. */
static const char *spark_kind_value_type(const filter_view *f, char *buf) {
    (void)f;
    (void)buf;
    return "a long, string or byte array (Spark's put takes no double)";
}

/* The kind's probe_advice: for a REAL, which Spark's put refuses, what to probe with. */
static const char *spark_kind_probe_advice(const filter_view *f, key_hash key) {
    (void)f;
    return spark_key_is_value(key) ? NULL
                                   : "probe with CAST(key AS INTEGER) for a long, CAST(key AS "
                                     "TEXT) for a string";
}

/* The fields of bloom_info: the header (n and p null when not known: a filter read from Spark's
** bytes), the bits set and Spark's expectedFpp from them. O(size). */
static void spark_kind_info(const filter_view *f, info_sink *sink) {
    spark_header h = spark_header_of(f);
    uint64_t bits = (uint64_t)h.words * 64, set = spark_bits_set(f);
    info_count(sink, "spark_version", (uint64_t)h.version);
    info_integer(sink, "seed", (int32_t)h.seed); /* Spark's int */
    info_count(sink, "k", h.k);
    info_count(sink, "m", bits);
    info_count(sink, "words", h.words);
    info_count(sink, "bytes", f->bytes);
    if (h.n != 0) {
        info_count(sink, "n", h.n);
        info_real(sink, "p", h.p);
    } else {
        info_null(sink, "n");
        info_null(sink, "p");
    }
    info_count(sink, "keys_added", h.keys);
    info_count(sink, "bits_set", set);
    info_real(sink, "fill_ratio", (double)set / (double)bits);
    info_real(sink, "estimated_fp_rate", pow((double)set / (double)bits, (double)h.k));
}

const filter_kind spark_kind = {
    .id = SPARK_KIND,
    .name = "spark",
    .format_version = SPARK_FORMAT_VERSION,
    .key_hash = KEY_HASH_MURMUR3_SPARK,
    .count_offset = OFF_KEYS,
    .count_by_steps = 1,
    .validate = spark_kind_validate,
    .hash_key = spark_kind_hash_key,
    .might_contain = spark_kind_might_contain,
    .write_header = spark_kind_write_header,
    .add = spark_kind_add,
    .compatible = spark_kind_compatible,
    .merge = spark_kind_merge,
    .might_contain_io = spark_kind_might_contain_io,
    .add_io = spark_kind_add_io,
    .value_type = spark_kind_value_type,
    .probe_advice = spark_kind_probe_advice,
    .info = spark_kind_info,
};
