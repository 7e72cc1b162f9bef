/*
** fuzz_core_parquet.c: the oracle of the Parquet split-block kind (7), from
** docs/format.md 4.7 and section 5's table for kind 7: its validation, its
** model (a key's bit in each of the eight words of its block, both zeros' bits
** for a zero, a key that is not a value of the filter's type refused, a filter
** with no type taking its first key's, merge ORing the words), and the checks
** of parquet_core's own functions: every key converted to the plain encoding of
** each physical type as 4.7's table says and hashed by XXH64 (the kind's
** hash_key), the header decoded, the bits set and the rate, the filter of a
** bitset, and the sizing.
**
** The kind's operations take a key_hash that its hash_key made, which says, beside the XXH64
** of the key's plain encoding (h1), the physical type it hashed the key as (the low byte of
** h2) and two flags: the key is not a value of that type, and the key is a floating-point zero
** (whose other zero's hash is the key's too). That encoding is parquet_core.c's, not the
** format's: the model reads those bits and nothing else of parquet_core.c.
*/
#include "fuzz_core.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Offsets of the Parquet kind's header fields (format.md 4.7). */
enum {
    PQ_OFF_N = 8,
    PQ_OFF_P = 16,
    PQ_OFF_KEYS = 24,
    PQ_OFF_BLOCKS = 32,
    PQ_OFF_TYPE_LENGTH = 36,
    PQ_OFF_TYPE = 40,
    PQ_OFF_RESERVED = 41
};

/* A block's bytes, the most blocks, the most a filter is sized for (4.7, sizing), and the
** physical types (Parquet's Type enum; 0: none). */
enum { BLOCK_BYTES = 32, BLOCKS_MAX = 67108863, SIZED_BLOCKS_MAX = 1 << 22 };
enum { UNTYPED, INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, TYPES };

/* What parquet_core's hash_key says of a key in h2 beside its type (its low byte). */
#define KEY_TYPE_BITS UINT64_C(0xFF)
#define KEY_NOT_A_VALUE UINT64_C(0x100)
#define KEY_ZERO UINT64_C(0x200)

/* The eight salts of 4.7: word j of a key's block has bit (low32(h) salt_j mod 2^32) >> 27. */
static const uint32_t salts[8] = {0x47B6137BU, 0x44974D91U, 0x8824AD5BU, 0xA2B7289DU,
                                  0x705495C7U, 0x2DF1424BU, 0x9EFC4947U, 0x5C6BFB31U};

/* Section 5's names of the physical types (4.7's table), "untyped" for 0. */
static const char *const type_names[TYPES] = {
    "untyped", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};

/* The fields of a Parquet filter, read from its bytes. */
typedef struct parquet_fields {
    uint64_t n;
    double p;
    uint64_t keys;
    uint32_t blocks; /* z */
    uint32_t type_length;
    unsigned type;
} parquet_fields;

static parquet_fields parquet_fields_of(const uint8_t *blob) {
    parquet_fields q;
    q.n = little_endian(blob + PQ_OFF_N, 8);
    q.p = double_at(blob + PQ_OFF_P);
    q.keys = little_endian(blob + PQ_OFF_KEYS, 8);
    q.blocks = (uint32_t)little_endian(blob + PQ_OFF_BLOCKS, 4);
    q.type_length = (uint32_t)little_endian(blob + PQ_OFF_TYPE_LENGTH, 4);
    q.type = blob[PQ_OFF_TYPE];
    return q;
}

static int parquet_is_reserved(size_t offset) {
    return offset >= PQ_OFF_RESERVED;
}

static int parquet_valid(const uint8_t *blob, size_t size, char *why) {
    parquet_fields q = parquet_fields_of(blob);
    if (q.blocks < 1 || q.blocks > BLOCKS_MAX) {
        return refuse(why, "corrupt filter: %lu blocks, not 1 to %d", (unsigned long)q.blocks,
                      BLOCKS_MAX);
    }
    uint64_t length = FILTER_HEADER_BYTES + (uint64_t)BLOCK_BYTES * q.blocks;
    if (size != length) {
        return refuse(why, "corrupt filter: %lu blocks need %llu bytes, the BLOB has %zu",
                      (unsigned long)q.blocks, (unsigned long long)length, size);
    }
    if (q.type >= TYPES) {
        return refuse(why,
                      "corrupt filter: physical type %u, not one of 1 to 7 (INT32 to "
                      "FIXED_LEN_BYTE_ARRAY) or 0",
                      q.type);
    }
    if (q.type != FIXED_LEN_BYTE_ARRAY && q.type_length != 0) {
        return refuse(why,
                      "corrupt filter: %s values of %lu bytes: only FIXED_LEN_BYTE_ARRAY has a "
                      "length",
                      type_names[q.type], (unsigned long)q.type_length);
    }
    if (!(q.n == 0 && q.p == 0.0) && !n_p_ok(q.n, q.p, why)) {
        return 0; /* n and p not known (both 0), or a capacity and a rate */
    }
    return reserved_ok(blob, parquet_is_reserved, why);
}

static void parquet_encode_header(uint8_t *out, const uint8_t *blob) {
    parquet_fields q = parquet_fields_of(blob);
    parquet_header h = {q.n, q.p, q.keys, q.blocks, q.type_length, (parquet_type)q.type};
    parquet_write_header(out, &h);
}

/* ---- The model: blocks, words and bits ---- */

/* The byte offset of the block of hash h among z blocks: b = floor((h >> 32) z / 2^32). */
static uint64_t block_at(uint64_t h, uint32_t blocks) {
    return FILTER_HEADER_BYTES + ((h >> 32) * blocks >> 32) * BLOCK_BYTES;
}

/* The bit of hash h in word j of its block. */
static unsigned word_bit(uint64_t h, int j) {
    return (uint32_t)((uint32_t)h * salts[j]) >> 27;
}

/* Whether the eight bits of hash h are set in blob. */
static int hash_found(const uint8_t *blob, uint64_t h) {
    const uint8_t *block = blob + block_at(h, parquet_fields_of(blob).blocks);
    for (int j = 0; j < 8; j++) {
        if (!bit_is_set(block + 4 * j, word_bit(h, j))) { /* word j, little-endian */
            return 0;
        }
    }
    return 1;
}

/* Sets the eight bits of hash h in blob. */
static void hash_set(uint8_t *blob, uint64_t h) {
    uint8_t *block = blob + block_at(h, parquet_fields_of(blob).blocks);
    for (int j = 0; j < 8; j++) {
        unsigned bit = word_bit(h, j);
        block[4 * j + bit / 8] |= (uint8_t)(1u << (bit % 8));
    }
}

/* The XXH64 of the other zero of a zero key of type: -0.0 as a FLOAT's 4 bytes, else as a
** DOUBLE's 8 (hash_key marks no zero of another type). */
static uint64_t other_zero(unsigned type) {
    static const uint8_t negative_zero[8] = {0, 0, 0, 0, 0, 0, 0, 0x80};
    return type == FLOAT ? key_hash_xxh64(negative_zero + 4, 4) : key_hash_xxh64(negative_zero, 8);
}

/* The physical type hash_key hashed key as. */
static unsigned key_type(key_hash key) {
    return (unsigned)(key.h2 & KEY_TYPE_BITS);
}

/* Probe (4.7): 0 for a filter with no type or a key that is not a value of its type; else
** whether the eight bits of the key's hash (of either zero's, for a zero) are set. */
static int parquet_probe(const uint8_t *blob, key_hash key) {
    unsigned type = blob[PQ_OFF_TYPE];
    if (type == UNTYPED || (key.h2 & KEY_NOT_A_VALUE) || key_type(key) != type) {
        return 0;
    }
    return hash_found(blob, key.h1) || ((key.h2 & KEY_ZERO) && hash_found(blob, other_zero(type)));
}

/* Add (4.7): FILTER_REFUSED, nothing written, for a key that is not a value of the filter's
** type; else the eight bits (both zeros' for a zero), the key's type to a filter that had none,
** and keys added + 1 (kept at 2^64 - 1, as every count of keys is). */
static filter_status parquet_add(uint8_t *blob, key_hash key, int *was_absent) {
    parquet_fields q = parquet_fields_of(blob);
    *was_absent = !parquet_probe(blob, key);
    if ((key.h2 & KEY_NOT_A_VALUE) || (q.type != UNTYPED && key_type(key) != q.type)) {
        return FILTER_REFUSED;
    }
    hash_set(blob, key.h1);
    if (key.h2 & KEY_ZERO) {
        hash_set(blob, other_zero(key_type(key)));
    }
    if (q.type == UNTYPED) {
        blob[PQ_OFF_TYPE] = (uint8_t)key_type(key);
    }
    store_u64(blob + PQ_OFF_KEYS, saturating_sum(q.keys, 1));
    return FILTER_OK;
}

/* Union (4.7): the same z, and types equal with equal type lengths, or one of them none. */
static int parquet_compatible(const uint8_t *a, const uint8_t *b) {
    parquet_fields x = parquet_fields_of(a), y = parquet_fields_of(b);
    return x.blocks == y.blocks && (x.type == UNTYPED || y.type == UNTYPED ||
                                    (x.type == y.type && x.type_length == y.type_length));
}

/* Union (4.7): words ORed, the type (and type length) of the one that has one, keys added
** summed (kept at 2^64 - 1); the rest of the first's header. */
static filter_status parquet_merge(uint8_t *dst, const uint8_t *src) {
    parquet_fields a = parquet_fields_of(dst), b = parquet_fields_of(src);
    for (uint64_t i = 0; i < (uint64_t)a.blocks * BLOCK_BYTES; i++) {
        dst[FILTER_HEADER_BYTES + i] |= src[FILTER_HEADER_BYTES + i];
    }
    if (a.type == UNTYPED) {
        memcpy(dst + PQ_OFF_TYPE_LENGTH, src + PQ_OFF_TYPE_LENGTH, 4);
        dst[PQ_OFF_TYPE] = (uint8_t)b.type;
    }
    store_u64(dst + PQ_OFF_KEYS, saturating_sum(a.keys, b.keys));
    return FILTER_OK;
}

/* ---- The conversion of keys (4.7's table of keys) ---- */

/* A key's plain encoding for a physical type, as 4.7's table of keys gives it. */
typedef struct plain_value {
    unsigned type;     /* the type it is a value of: the filter's, or its first key's */
    int is_value;      /* 0: no value of that type equals the key */
    int zero;          /* a floating-point zero (hashed as +0, and -0 found too) */
    uint8_t number[8]; /* the encoding of a number */
    const void *bytes; /* the encoding of a TEXT or BLOB, its own bytes; NULL: number */
    size_t length;     /* of the encoding */
} plain_value;

/* The integer that a numeric key is, as 64-bit two's complement, into *bits: an INTEGER, or a
** REAL with no fraction; in [-2^31, 2^32) for INT32, in [-2^63, 2^64) for INT64. 0 when it is
** none of them. */
static int integer_value(unsigned type, const key_value *v, uint64_t *bits) {
    double low = type == INT32 ? -2147483648.0 : -9223372036854775808.0;
    double high = type == INT32 ? 4294967296.0 : 18446744073709551616.0;
    if (v->type == KEY_TAG_INTEGER) {
        *bits = (uint64_t)v->integer;
        return type == INT64 || (v->integer >= INT32_MIN && v->integer <= (int64_t)UINT32_MAX);
    }
    if (v->type != KEY_TAG_REAL || !(v->real >= low && v->real < high) ||
        floor(v->real) != v->real) {
        return 0;
    }
    *bits = v->real < 0 ? (uint64_t)(int64_t)v->real : (uint64_t)v->real;
    return 1;
}

/* The double that a numeric key equals, into *d: a REAL (NaN is no SQL value: not one), or an
** INTEGER that a binary64 holds exactly. 0 when there is none. */
static int exact_double(const key_value *v, double *d) {
    if (v->type == KEY_TAG_REAL) {
        *d = v->real;
        return v->real == v->real;
    }
    if (v->type != KEY_TAG_INTEGER) {
        return 0;
    }
    *d = (double)v->integer;
    /* 2^63 is the one double in reach that no int64 holds: the INTEGER it rounds from differs */
    return *d < 9223372036854775808.0 && (int64_t)*d == v->integer;
}

/* Writes n bytes of v little-endian to out. */
static void store_n(uint8_t *out, uint64_t v, int n) {
    for (int i = 0; i < n; i++) {
        out[i] = (uint8_t)(v >> (8 * i));
    }
}

/* The plain encoding of key as a value of a filter of physical type type (of type_length bytes
** if fixed), as 4.7's table says; a filter with no type takes its storage class's type (an
** INTEGER INT64, a REAL DOUBLE, a TEXT or BLOB BYTE_ARRAY). */
static plain_value spec_plain(unsigned type, uint32_t type_length, const key_value *key) {
    plain_value out = {type, 0, 0, {0}, NULL, 0};
    uint64_t bits = 0;
    double d;
    if (type == UNTYPED) {
        out.type = type = key->type == KEY_TAG_INTEGER ? INT64
                          : key->type == KEY_TAG_REAL  ? DOUBLE
                                                       : BYTE_ARRAY;
    }
    switch (type) {
    case INT32: /* [-2^31, 2^32): its low 32 bits */
        out.is_value = integer_value(INT32, key, &bits);
        out.length = 4;
        store_n(out.number, bits, 4);
        break;
    case INT64: /* [-2^63, 2^64): its low 64 bits */
        out.is_value = integer_value(INT64, key, &bits);
        out.length = 8;
        store_n(out.number, bits, 8);
        break;
    case FLOAT: /* a number that a binary32 holds exactly, infinities included */
        if (exact_double(key, &d) && (isinf(d) || (fabs(d) <= FLT_MAX && (double)(float)d == d))) {
            float narrow = d == 0 ? 0.0f : (float)d;
            uint32_t f;
            memcpy(&f, &narrow, sizeof f);
            out.is_value = 1;
            out.zero = d == 0;
            out.length = 4;
            store_n(out.number, f, 4);
        }
        break;
    case DOUBLE: /* a REAL, or an INTEGER that a binary64 holds exactly */
        if (exact_double(key, &d)) {
            double wide = d == 0 ? 0.0 : d;
            memcpy(&bits, &wide, sizeof bits);
            out.is_value = 1;
            out.zero = d == 0;
            out.length = 8;
            store_n(out.number, bits, 8);
        }
        break;
    default: /* INT96 (12 bytes), BYTE_ARRAY (any), FIXED_LEN_BYTE_ARRAY (its length; 0: any) */
        if (key->type == KEY_TAG_TEXT || key->type == KEY_TAG_BLOB) {
            size_t needed = type == INT96 ? 12 : type == FIXED_LEN_BYTE_ARRAY ? type_length : 0;
            out.is_value = needed == 0 || key->length == needed;
            out.bytes = key->bytes;
            out.length = key->length;
        }
        break;
    }
    return out;
}

/* Aborts unless the kind's hash_key (and parquet_hash_typed) hashes key, in a filter whose
** header is f's but for the physical type and type length, as spec_plain says. */
static void check_key(const filter_view *f, unsigned type, uint32_t type_length,
                      const key_value *key, const char *what) {
    uint8_t header[FILTER_HEADER_BYTES];
    memcpy(header, f->blob, sizeof header);
    header[PQ_OFF_TYPE] = (uint8_t)type;
    store_n(header + PQ_OFF_TYPE_LENGTH, type_length, 4);
    filter_view view = *f;
    view.blob = header;
    key_hash got = filter_hash_key(&view, key);
    parquet_type typed = (parquet_type)type;
    key_hash again = parquet_hash_typed(&typed, type_length, key);
    plain_value want = spec_plain(type, type_length, key);
    uint64_t hash = !want.is_value       ? 0
                    : want.bytes != NULL ? key_hash_xxh64(want.bytes, want.length)
                                         : key_hash_xxh64(want.number, want.length);
    int right = want.is_value ? got.h1 == hash && got.h2 == (want.type | (want.zero ? KEY_ZERO : 0))
                              : (got.h2 & (KEY_TYPE_BITS | KEY_NOT_A_VALUE | KEY_ZERO)) ==
                                    (want.type | KEY_NOT_A_VALUE);
    if (!right || parquet_key_is_value(got) != want.is_value || got.h1 != again.h1 ||
        got.h2 != again.h2 || (unsigned)typed != want.type) {
        fuzz_fail("%s key (tag %d, %.17g, %lld, %zu bytes) as %s of length %lu: hash_key gives "
                  "%016llX %llX, 4.7 says %s, type %u, zero %d, XXH64 %016llX",
                  what, key->type, key->real, (long long)key->integer, key->length,
                  type_names[type], (unsigned long)type_length, (unsigned long long)got.h1,
                  (unsigned long long)got.h2, want.is_value ? "a value" : "not a value", want.type,
                  want.zero, (unsigned long long)hash);
    }
}

/* Aborts unless key hashes as 4.7 says for every physical type (and no type), and for a
** FIXED_LEN_BYTE_ARRAY of any length, of 12 bytes, of the key's length and one more. */
static void check_key_everywhere(const filter_view *f, const key_value *key, const char *what) {
    for (unsigned type = UNTYPED; type < TYPES; type++) {
        check_key(f, type, 0, key, what);
    }
    const uint32_t lengths[3] = {12, (uint32_t)key->length, (uint32_t)key->length + 1};
    for (int i = 0; i < 3; i++) {
        if (lengths[i] != 0) {
            check_key(f, FIXED_LEN_BYTE_ARRAY, lengths[i], key, what);
        }
    }
}

/* Aborts unless the edges of 4.7's table of keys hash as it says in every type. */
static void check_key_edges(const filter_view *f) {
    static const int64_t integers[] = {0,
                                       1,
                                       -1,
                                       5,
                                       INT32_MIN,
                                       (int64_t)INT32_MIN - 1,
                                       INT32_MAX,
                                       (int64_t)INT32_MAX + 1,
                                       (int64_t)UINT32_MAX,
                                       (int64_t)UINT32_MAX + 1,
                                       16777216,
                                       16777217, /* 2^24 + 1: no binary32 */
                                       -16777217,
                                       INT64_C(9007199254740992),
                                       INT64_C(9007199254740993),    /* 2^53 + 1: no binary64 */
                                       INT64_C(9223372036854774784), /* 2^63 - 1024 */
                                       INT64_MAX,
                                       INT64_MIN};
    static const double reals[] = {
        0.0,
        -0.0,
        1.0,
        -1.0,
        1.5,
        0.1,
        2147483648.0,
        -2147483648.0,
        -2147483649.0,
        4294967295.0,
        4294967296.0,
        -2147483648.5,
        4294967295.5,
        9223372036854775808.0,
        18446744073709549568.0, /* the double below 2^64 */
        18446744073709551616.0,
        -9223372036854775808.0,
        -9223372036854777856.0, /* the double below -2^63 */
        16777217.0,
        1e300,
        -1e-300,
        FLT_MAX,
        -FLT_MAX,
        3.4028235677973366e38,  /* FLT_MAX and half a step: rounds to Inf */
        1.401298464324817e-45,  /* 2^-149, the least binary32 */
        7.006492321624085e-46,  /* 2^-150 */
        1.1754942106924411e-38, /* the largest binary32 subnormal */
        5e-324,
        INFINITY,
        -INFINITY,
        NAN};
    static const char *const strings[] = {"", "hello", "twelve bytes", "abc"};
    for (size_t i = 0; i < sizeof integers / sizeof integers[0]; i++) {
        key_value key = {KEY_TAG_INTEGER, integers[i], 0, NULL, 0};
        check_key_everywhere(f, &key, "an edge");
    }
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        key_value key = {KEY_TAG_REAL, 0, reals[i], NULL, 0};
        check_key_everywhere(f, &key, "an edge");
    }
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        for (int tag = KEY_TAG_TEXT; tag <= KEY_TAG_BLOB; tag++) {
            key_value key = {tag, 0, 0, strings[i], strlen(strings[i])};
            check_key_everywhere(f, &key, "an edge");
        }
    }
}

/* ---- The kind's own functions ---- */

/* The model rate of 4.7's sizing at lambda keys a block: the sum over j of the Poisson chance
** of j keys, e^-lambda lambda^j / j!, times (1 - (31/32)^j)^8; in logarithms, over every j
** whose term is not negligible. */
static double model_rate(double lambda) {
    double spread = 20.0 * sqrt(lambda) + 60.0, rate = 0.0;
    for (double j = fmax(0.0, floor(lambda - spread)); j <= ceil(lambda + spread); j++) {
        double poisson = exp(j * log(lambda) - lambda - lgamma(j + 1.0));
        rate += poisson * pow(1.0 - pow(31.0 / 32.0, j), 8.0);
    }
    return rate;
}

/* Aborts unless parquet_fp_rate is the model rate at lambda (to 1e-9, relative). */
static void check_rate(double lambda) {
    double got = parquet_fp_rate(lambda), want = model_rate(lambda);
    if (!(fabs(got - want) <= 1e-9 * want + 1e-300)) {
        fuzz_fail("parquet_fp_rate(%.17g) is %.17g, the model %.17g", lambda, got, want);
    }
}

/* Aborts unless parquet_size sizes a filter for n keys at rate p (n >= 1, 0 < p < 1) as 4.7
** says: the fewest blocks whose rate is at most p (parquet_fp_rate, checked against the model
** there and at half as many blocks), rounded up to a power of two: the least power of two whose
** rate is at most p, as the rate falls with the blocks; FILTER_TOO_BIG when 2^22 blocks are too
** few (with a size past them, not checked further: the sizing bounds the load from below, and
** below a rate of some 1e-30 that size is less than the model's). */
static void check_size(uint64_t n, double p) {
    uint32_t blocks;
    double bytes;
    filter_status status = parquet_size(n, p, &blocks, &bytes);
    double z = blocks;
    int exponent;
    if (status == FILTER_TOO_BIG && bytes > FILTER_HEADER_BYTES + BLOCK_BYTES * SIZED_BLOCKS_MAX) {
        if (parquet_fp_rate((double)n / SIZED_BLOCKS_MAX) <= p) {
            fuzz_fail("parquet_size(%llu, %.17g) refuses a filter that 2^22 blocks hold",
                      (unsigned long long)n, p);
        }
        return; /* its bytes are the message's: the bisection's least load bounds them */
    }
    if (status != FILTER_OK || frexp(z, &exponent) != 0.5 || z > SIZED_BLOCKS_MAX ||
        bytes != FILTER_HEADER_BYTES + BLOCK_BYTES * z) {
        fuzz_fail("parquet_size(%llu, %.17g) returns %d, %lu blocks, %.17g bytes",
                  (unsigned long long)n, p, status, (unsigned long)blocks, bytes);
    }
    if (parquet_fp_rate((double)n / z) > p ||
        (z > 1 && parquet_fp_rate((double)n / (z / 2)) <= p)) {
        fuzz_fail("parquet_size(%llu, %.17g) gives %.17g blocks, not the least power of two at "
                  "rate p",
                  (unsigned long long)n, p, z);
    }
    check_rate((double)n / z);
    if (z > 1) {
        check_rate((double)n / (z / 2));
    }
}

/* Aborts unless parquet_fill counts the bits set and gives the mean over the blocks of the
** product of the eight words' shares of bits set. */
static void check_fill(const filter_view *f, uint32_t blocks) {
    uint64_t bits_set, count = 0;
    double rate, sum = 0.0;
    parquet_fill(f, &bits_set, &rate);
    for (uint32_t b = 0; b < blocks; b++) {
        double product = 1.0;
        for (int j = 0; j < 8; j++) {
            unsigned set = 0;
            for (unsigned bit = 0; bit < 32; bit++) {
                set += (unsigned)bit_is_set(f->blob + FILTER_HEADER_BYTES + 32 * b + 4 * j, bit);
            }
            count += set;
            product *= set / 32.0;
        }
        sum += product;
    }
    if (bits_set != count || !(fabs(rate - sum / blocks) <= 1e-12 * (sum / blocks))) {
        fuzz_fail("parquet_fill: %llu bits set, rate %.17g; there are %llu, rate %.17g",
                  (unsigned long long)bits_set, rate, (unsigned long long)count, sum / blocks);
    }
}

/* Aborts unless the filter of f's bitset and type (parquet_filter_from_bitset) is f with n, p
** and the keys added 0, its other bytes as this code writes them. */
static void check_from_bitset(const filter_view *f, const parquet_fields *q) {
    uint64_t bitset = f->bytes - FILTER_HEADER_BYTES;
    char why[FILTER_WHY_MAX];
    filter_status status = parquet_check_bitset(bitset, (int)q->type, q->type_length, why);
    if ((status == FILTER_OK) != (q->type != UNTYPED)) {
        fuzz_fail("parquet_check_bitset of a %s filter's bitset returns %d", type_names[q->type],
                  status);
    }
    if (status != FILTER_OK) {
        return;
    }
    uint8_t *blob = malloc(f->bytes), *expected = duplicate(f->blob, f->bytes);
    if (blob == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)f->bytes);
    }
    parquet_filter_from_bitset(blob, f->blob + FILTER_HEADER_BYTES, bitset, (int)q->type,
                               q->type_length);
    parquet_encode_header(expected, f->blob);
    memset(expected + PQ_OFF_N, 0, PQ_OFF_KEYS + 8 - PQ_OFF_N);
    if (memcmp(blob, expected, f->bytes) != 0) {
        fuzz_fail("parquet_filter_from_bitset differs from the filter of its bitset");
    }
    open_bytes(blob, f->bytes, "the filter of a bitset");
    free(blob);
    free(expected);
}

/*
** The Parquet kind's own functions: parquet_header_of, the names of the types, the hash of
** every key of the input and of the edges of 4.7's table in every type (hash_key and
** parquet_hash_typed against the table), parquet_fill, the filter of its bitset, and sizing for
** the header's n and p when it has them.
*/
static void parquet_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    parquet_header h = parquet_header_of(f);
    parquet_fields q = parquet_fields_of(f->blob);
    key_value values[MAX_KEYS];
    (void)keys;
    if (h.n != q.n || memcmp(&h.p, &q.p, sizeof h.p) != 0 || h.keys != q.keys ||
        h.blocks != q.blocks || h.type_length != q.type_length || (unsigned)h.type != q.type ||
        parquet_blob_bytes(h.blocks) != f->bytes) {
        fuzz_fail("parquet_header_of decodes other fields than the bytes hold");
    }
    for (unsigned type = UNTYPED; type <= TYPES; type++) {
        const char *name = parquet_type_name((int)type);
        if (type == UNTYPED || type == TYPES
                ? name != NULL
                : name == NULL || strcmp(name, type_names[type]) != 0 ||
                      parquet_type_named(name) != (int)type) {
            fuzz_fail("parquet_type_name(%u) is %s", type, name != NULL ? name : "NULL");
        }
    }
    if (count != derive_key_values(f->blob, (size_t)f->bytes, values)) {
        fuzz_fail("the input gives another number of keys");
    }
    for (size_t i = 0; i < count; i++) {
        check_key_everywhere(f, &values[i], "the input's");
    }
    check_key_edges(f);
    check_fill(f, q.blocks);
    check_from_bitset(f, &q);
    if (q.n != 0) {
        check_size(q.n, q.p);
    }
}

const kind_oracle parquet_oracle = {.id = PARQUET_KIND,
                                    .is_reserved = parquet_is_reserved,
                                    .valid = parquet_valid,
                                    .compatible = parquet_compatible,
                                    .encode_header = parquet_encode_header,
                                    .probe = parquet_probe,
                                    .add = parquet_add,
                                    .merge = parquet_merge,
                                    .check_own = parquet_check_own};
