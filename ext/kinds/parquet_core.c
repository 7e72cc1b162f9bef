/*
** parquet_core.c: the Parquet split-block Bloom filter kind. See
** parquet_core.h for the contracts and docs/format.md for the bytes.
*/
#include "parquet_core.h"

#include "filter_info.h"
#include "little_endian.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The vector code of blocks: AVX2 on x86-64, chosen once, when the dynamic linker resolves the
** block functions (ELF ifuncs, whose resolvers ask the CPU itself: no state kept here). */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__)
#define PARQUET_AVX2 1
#include <cpuid.h>
#include <immintrin.h>
#endif

/* Offsets of the header's fields, after the prelude. */
enum {
    OFF_N = 8,
    OFF_P = 16,
    OFF_KEYS = 24,
    OFF_BLOCKS = 32,
    OFF_TYPE_LENGTH = 36,
    OFF_TYPE = 40,
    OFF_RESERVED = 41 /* 7 bytes, then the reserved tail */
};

/* What hash_key tells add and might_contain beside the value's hash (h1), in h2: the physical
** type it hashed the key as (its low byte), and these flags. */
enum {
    KEY_TYPE_MASK = 0xFF,
    KEY_NOT_A_VALUE = 1 << 8, /* no value of the filter's type equals the key */
    KEY_ZERO = 1 << 9,        /* a floating-point zero: the other zero's hash is also the key's */
    KEY_OTHER_CLASS = 1 << 10 /* not a value, by its SQL type: a TEXT or BLOB for a number type,
                                 a number for a type of bytes */
};

/* The spec's eight odd constants: word j of a key's block has bit (x * salt[j]) >> 27 set,
** x the low 32 bits of its hash. */
static const uint32_t parquet_salt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                         0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

static const char *const parquet_type_names[] = {
    [PARQUET_INT32] = "INT32",
    [PARQUET_INT64] = "INT64",
    [PARQUET_INT96] = "INT96",
    [PARQUET_FLOAT] = "FLOAT",
    [PARQUET_DOUBLE] = "DOUBLE",
    [PARQUET_BYTE_ARRAY] = "BYTE_ARRAY",
    [PARQUET_FIXED_LEN_BYTE_ARRAY] = "FIXED_LEN_BYTE_ARRAY",
};

enum { TYPE_COUNT = sizeof parquet_type_names / sizeof parquet_type_names[0] };

const char *parquet_type_name(int type) {
    return type > PARQUET_UNTYPED && type < TYPE_COUNT ? parquet_type_names[type] : NULL;
}

const char *parquet_type_text(int type, uint32_t type_length, char *buf) {
    const char *name = parquet_type_name(type);
    if (name == NULL) {
        return "no type yet";
    }
    if (type == PARQUET_FIXED_LEN_BYTE_ARRAY && type_length != 0) {
        snprintf(buf, FILTER_TYPE_TEXT_MAX, "%s(%lu)", name, (unsigned long)type_length);
        return buf;
    }
    return name;
}

int parquet_type_named(const char *name) {
    for (int type = PARQUET_UNTYPED + 1; type < TYPE_COUNT; type++) {
        if (strcmp(name, parquet_type_names[type]) == 0) {
            return type;
        }
    }
    return -1;
}

/* The length L of "(L)", the whole of text, from 1 to 2^31 - 1; 0 when it is not that. */
static uint32_t parquet_type_length_of(const char *text) {
    uint64_t length = 0;
    if (*text++ != '(') {
        return 0;
    }
    for (; *text >= '0' && *text <= '9' && length <= INT32_MAX; text++) {
        length = length * 10 + (uint64_t)(*text - '0');
    }
    return text[0] == ')' && text[1] == '\0' && length <= INT32_MAX ? (uint32_t)length : 0;
}

int parquet_type_parse(const char *text, int *type, uint32_t *type_length) {
    char name[32];
    size_t i = 0;
    for (; i + 1 < sizeof name && text[i] != '\0' && text[i] != '('; i++) {
        name[i] = (char)(text[i] >= 'a' && text[i] <= 'z' ? text[i] - 'a' + 'A' : text[i]);
    }
    name[i] = '\0';
    *type = parquet_type_named(name);
    *type_length = 0;
    if (*type > 0 && text[i] == '\0') {
        return 1;
    }
    return *type == PARQUET_FIXED_LEN_BYTE_ARRAY &&
           (*type_length = parquet_type_length_of(text + i)) != 0;
}

/* ---- Sizing ---- */

/* The model's rate at lambda keys a block, summed over the Poisson number of keys j a block
** holds: each has j bits drawn in each word, so a probe's bit in a word is set with chance
** 1 - (31/32)^j, and in all eight words with that to the 8th power. Exact at any rate. */
static double parquet_fp_rate_by_keys(double lambda) {
    double last = ceil(lambda + 12.0 * sqrt(lambda) + 40.0), rate = 0.0;
    double poisson = exp(-lambda), miss = 1.0; /* e^-lambda: used below a rate of 1 %, at loads
                                               ** under 25 keys a block, far from underflow */
    /* The Poisson terms by their ratio (lgamma would write the global signgam). */
    for (double j = 1.0; j <= last; j++) {
        poisson *= lambda / j;
        miss *= 31.0 / 32.0;
        double set = 1.0 - miss, set2 = set * set, set4 = set2 * set2;
        rate += poisson * set4 * set4;
    }
    return rate;
}

double parquet_fp_rate(double keys_per_block) {
    double lambda = keys_per_block, rate = 0.0, binomial = 1.0, q_i = 1.0;
    if (!(lambda > 0.0)) {
        return 0.0;
    }
    /* The same sum in closed form: (1 - q^j)^8 expanded by the binomial theorem, and the mean
    ** of q^(i j) over a Poisson j is e^(lambda (q^i - 1)); 9 terms of alternating signs, whose
    ** cancellation costs digits as the rate falls (2e-9 of it, relative, at 3e-6): below 1 %,
    ** the sum by keys is used. */
    for (int i = 0; i <= 8; i++) {
        rate += (i % 2 ? -binomial : binomial) * exp(lambda * (q_i - 1.0));
        binomial = binomial * (8 - i) / (i + 1);
        q_i *= 31.0 / 32.0;
    }
    return rate >= 1e-2 ? rate : parquet_fp_rate_by_keys(lambda);
}

/* The largest keys per block whose rate is at most p (0 < p < 1): the rate grows with the
** load, so a bisection of its logarithm finds it. */
static double parquet_load_for_rate(double p) {
    double low = -80.0, high = log(1024.0); /* loads from e^-80 to 1024 keys a block */
    if (parquet_fp_rate(exp(high)) <= p) {
        return exp(high);
    }
    for (int i = 0; i < 64; i++) { /* the interval's width below 2^-57 */
        double middle = (low + high) / 2.0;
        if (parquet_fp_rate(exp(middle)) <= p) {
            low = middle;
        } else {
            high = middle;
        }
    }
    return exp(low);
}

filter_status parquet_size(uint64_t n, double p, uint32_t *blocks, double *bytes_needed) {
    *blocks = 0;
    *bytes_needed = 0;
    if (n < 1 || filter_check_rate(p) != FILTER_OK) {
        return FILTER_BAD_ARGUMENT;
    }
    /* The bisection's load is a little under the largest: half the power of two may do. */
    double needed = ceil((double)n / parquet_load_for_rate(p));
    double rounded = needed > 2.0 * PARQUET_SIZED_BLOCKS_MAX ? needed : exp2(ceil(log2(needed)));
    if (rounded >= 2.0 && rounded <= 2.0 * PARQUET_SIZED_BLOCKS_MAX &&
        parquet_fp_rate((double)n / (rounded / 2.0)) <= p) {
        rounded /= 2.0;
    }
    *bytes_needed = FILTER_HEADER_BYTES + rounded * PARQUET_BLOCK_BYTES;
    if (rounded > PARQUET_SIZED_BLOCKS_MAX) {
        return FILTER_TOO_BIG;
    }
    *blocks = (uint32_t)rounded;
    return FILTER_OK;
}

uint64_t parquet_blob_bytes(uint32_t blocks) {
    return FILTER_HEADER_BYTES + (uint64_t)blocks * PARQUET_BLOCK_BYTES;
}

/* ---- Header ---- */

void parquet_write_header(uint8_t *blob, const parquet_header *h) {
    memset(blob, 0, FILTER_HEADER_BYTES);
    filter_write_prelude(blob, &parquet_kind);
    le_store64(blob + OFF_N, h->n);
    le_store64(blob + OFF_P, le_double_bits(h->p));
    le_store64(blob + OFF_KEYS, h->keys);
    le_store32(blob + OFF_BLOCKS, h->blocks);
    le_store32(blob + OFF_TYPE_LENGTH, h->type_length);
    blob[OFF_TYPE] = (uint8_t)h->type;
}

parquet_header parquet_header_of(const filter_view *f) {
    parquet_header h;
    h.n = le_load64(f->blob + OFF_N);
    h.p = le_bits_double(le_load64(f->blob + OFF_P));
    h.keys = le_load64(f->blob + OFF_KEYS);
    h.blocks = le_load32(f->blob + OFF_BLOCKS);
    h.type_length = le_load32(f->blob + OFF_TYPE_LENGTH);
    h.type = (parquet_type)f->blob[OFF_TYPE];
    return h;
}

/* Checks a type and its length: FILTER_OK, or FILTER_INVALID with why, prefixed by what. */
static filter_status parquet_check_type(int type, uint32_t type_length, const char *what,
                                        char *why) {
    if (type != PARQUET_UNTYPED && parquet_type_name(type) == NULL) {
        return filter_invalid(why,
                              "%sphysical type %d, not one of 1 to 7 (INT32 to "
                              "FIXED_LEN_BYTE_ARRAY) or 0",
                              what, type);
    }
    if (type != PARQUET_FIXED_LEN_BYTE_ARRAY && type_length != 0) {
        return filter_invalid(why,
                              "%s%s values of %lu bytes: only FIXED_LEN_BYTE_ARRAY has a "
                              "length",
                              what, type == PARQUET_UNTYPED ? "untyped" : parquet_type_name(type),
                              (unsigned long)type_length);
    }
    return FILTER_OK;
}

/* The kind's validate: the fields against the BLOB's length (docs/format.md). */
static filter_status parquet_kind_validate(const filter_view *f, char *why) {
    parquet_header h = parquet_header_of(f);
    if (h.blocks < 1 || h.blocks > PARQUET_BLOCKS_MAX) {
        return filter_invalid(why, "corrupt filter: %lu blocks, not 1 to %d",
                              (unsigned long)h.blocks, PARQUET_BLOCKS_MAX);
    }
    if (parquet_blob_bytes(h.blocks) != f->bytes) {
        return filter_invalid(why, "corrupt filter: %lu blocks need %llu bytes, the BLOB has %llu",
                              (unsigned long)h.blocks,
                              (unsigned long long)parquet_blob_bytes(h.blocks),
                              (unsigned long long)f->bytes);
    }
    if (parquet_check_type(h.type, h.type_length, "corrupt filter: ", why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    if ((h.n != 0 || h.p != 0.0) && filter_check_capacity(h.n, h.p, why) != FILTER_OK) {
        return FILTER_INVALID; /* n and p are both 0 (not known), or a capacity and a rate */
    }
    return filter_check_reserved(f, OFF_RESERVED, FILTER_OFF_RESERVED_TAIL, why);
}

filter_status parquet_check_bitset(uint64_t bitset_bytes, int type, uint32_t type_length,
                                   char *why) {
    if (bitset_bytes == 0 || bitset_bytes % PARQUET_BLOCK_BYTES != 0 ||
        bitset_bytes / PARQUET_BLOCK_BYTES > PARQUET_BLOCKS_MAX) {
        return filter_invalid(why, "a bitset of %llu bytes, not a multiple of %d from %d to %d",
                              (unsigned long long)bitset_bytes, PARQUET_BLOCK_BYTES,
                              PARQUET_BLOCK_BYTES, PARQUET_BLOCKS_MAX * PARQUET_BLOCK_BYTES);
    }
    if (type == PARQUET_UNTYPED) {
        return filter_invalid(why, "no physical type");
    }
    return parquet_check_type(type, type_length, "", why);
}

void parquet_filter_from_bitset(uint8_t *blob, const uint8_t *bitset, uint64_t bitset_bytes,
                                int type, uint32_t type_length) {
    parquet_header h = {
        0, 0.0, 0, (uint32_t)(bitset_bytes / PARQUET_BLOCK_BYTES), type_length, (parquet_type)type};
    parquet_write_header(blob, &h);
    memcpy(blob + FILTER_HEADER_BYTES, bitset, bitset_bytes);
}

void parquet_fill(const filter_view *f, uint64_t *bits_set, double *fp_rate) {
    uint64_t blocks = (f->bytes - FILTER_HEADER_BYTES) / PARQUET_BLOCK_BYTES;
    double sum = 0.0;
    *bits_set = 0;
    for (uint64_t b = 0; b < blocks; b++) {
        const uint8_t *block = f->blob + FILTER_HEADER_BYTES + b * PARQUET_BLOCK_BYTES;
        double chance = 1.0;
        for (int j = 0; j < 8; j++) {
            int set = __builtin_popcount(le_load32(block + 4 * j));
            *bits_set += (uint64_t)set;
            chance *= set / 32.0;
        }
        sum += chance;
    }
    *fp_rate = sum / (double)blocks;
}

/* ---- Keys ---- */

/* The hash of the plain encoding of a value of type, len bytes at value, with flags. */
static key_hash parquet_hash(parquet_type type, const void *value, size_t len, uint64_t flags) {
    key_hash h = {key_hash_xxh64(value, len), (uint64_t)type | flags};
    return h;
}

/* A key that no value of type equals. */
static key_hash parquet_not_a_value(parquet_type type) {
    key_hash h = {0, (uint64_t)type | KEY_NOT_A_VALUE};
    return h;
}

/* The value of an integral key (an INTEGER, or a REAL with no fraction) in [-2^63, 2^64), as
** the 64 bits of its two's complement; 0 when it is neither. */
static int parquet_integral(const key_value *key, uint64_t *bits) {
    if (key->type == KEY_TAG_INTEGER) {
        *bits = (uint64_t)key->integer;
        return 1;
    }
    double v = key->real;
    if (key->type != KEY_TAG_REAL || !(v >= -9223372036854775808.0 && v < 18446744073709551616.0) ||
        floor(v) != v) {
        return 0;
    }
    *bits = v < 0.0 ? (uint64_t)(int64_t)v : (uint64_t)v;
    return 1;
}

/* The double of a numeric key, when it holds that value exactly; 0 when it is not a number or
** an INTEGER no double equals. */
static int parquet_number(const key_value *key, double *out) {
    if (key->type == KEY_TAG_REAL) {
        *out = key->real;
        return 1;
    }
    if (key->type != KEY_TAG_INTEGER) {
        return 0;
    }
    double v = (double)key->integer;
    /* v is exact when it converts back: 2^63 does not, and is the one value out of range. */
    *out = v;
    return v < 9223372036854775808.0 && (int64_t)v == key->integer;
}

/* The hash of a number key as a FLOAT or DOUBLE value; both zeros are one key. */
static key_hash parquet_hash_floating(parquet_type type, const key_value *key) {
    double v;
    uint8_t bytes[8];
    if (!parquet_number(key, &v) || v != v) {
        return parquet_not_a_value(type);
    }
    uint64_t zero = v == 0.0 ? KEY_ZERO : 0;
    if (type == PARQUET_DOUBLE) {
        le_store64(bytes, le_double_bits(v == 0.0 ? 0.0 : v));
        return parquet_hash(type, bytes, 8, zero);
    }
    if (!isinf(v) && !(fabs(v) <= 3.4028234663852886e38)) { /* past FLT_MAX, no FLOAT is it */
        return parquet_not_a_value(type);
    }
    float narrow = (float)v;
    if ((double)narrow != v) {
        return parquet_not_a_value(type);
    }
    uint32_t bits;
    memcpy(&bits, &narrow, sizeof bits);
    le_store32(bytes, v == 0.0 ? 0 : bits);
    return parquet_hash(type, bytes, 4, zero);
}

/* Whether type's values are numbers (else bytes, as INT96's). */
static int parquet_type_is_number(parquet_type type) {
    return type == PARQUET_INT32 || type == PARQUET_INT64 || type == PARQUET_FLOAT ||
           type == PARQUET_DOUBLE;
}

/* The hash of key as a value of type (not PARQUET_UNTYPED), of type_length bytes if fixed. */
static key_hash parquet_hash_as(parquet_type type, uint32_t type_length, const key_value *key) {
    uint64_t bits;
    uint8_t bytes[8];
    int key_is_number = key->type == KEY_TAG_INTEGER || key->type == KEY_TAG_REAL;
    if (key_is_number != parquet_type_is_number(type)) {
        key_hash h = parquet_not_a_value(type);
        h.h2 |= KEY_OTHER_CLASS;
        return h;
    }
    switch (type) {
    case PARQUET_INT32:
        if (!parquet_integral(key, &bits) ||
            (key->type == KEY_TAG_INTEGER
                 ? key->integer < INT32_MIN || key->integer > UINT32_MAX
                 : key->real < -2147483648.0 || key->real >= 4294967296.0)) {
            return parquet_not_a_value(type); /* outside [-2^31, 2^32) */
        }
        le_store32(bytes, (uint32_t)bits);
        return parquet_hash(type, bytes, 4, 0);
    case PARQUET_INT64:
        if (!parquet_integral(key, &bits)) {
            return parquet_not_a_value(type);
        }
        le_store64(bytes, bits);
        return parquet_hash(type, bytes, 8, 0);
    case PARQUET_FLOAT:
    case PARQUET_DOUBLE:
        return parquet_hash_floating(type, key);
    default: /* INT96 (12 bytes), BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY */
        if (type == PARQUET_INT96) {
            type_length = 12;
        }
        if ((key->type != KEY_TAG_TEXT && key->type != KEY_TAG_BLOB) ||
            (type_length != 0 && key->length != type_length)) {
            return parquet_not_a_value(type);
        }
        return parquet_hash(type, key->bytes, key->length, 0);
    }
}

/* The type a key gives a filter with none yet: its storage class's. */
static parquet_type parquet_type_of_key(const key_value *key) {
    switch (key->type) {
    case KEY_TAG_INTEGER:
        return PARQUET_INT64;
    case KEY_TAG_REAL:
        return PARQUET_DOUBLE;
    default:
        return PARQUET_BYTE_ARRAY;
    }
}

key_hash parquet_hash_typed(parquet_type *type, uint32_t type_length, const key_value *key) {
    if (*type == PARQUET_UNTYPED) {
        *type = parquet_type_of_key(key);
    }
    return parquet_hash_as(*type, type_length, key);
}

int parquet_key_is_value(key_hash key) {
    return !(key.h2 & KEY_NOT_A_VALUE);
}

/* The kind's hash_key: key as a value of f's type, or of its own storage class's if f has no
** type yet (its first key's, which gives it that type). */
static key_hash parquet_kind_hash_key(const filter_view *f, const key_value *key) {
    parquet_type type = f->blob != NULL ? (parquet_type)f->blob[OFF_TYPE] : PARQUET_UNTYPED;
    uint32_t type_length = f->blob != NULL ? le_load32(f->blob + OFF_TYPE_LENGTH) : 0;
    return parquet_hash_typed(&type, type_length, key);
}

/* The hash of the other zero of a floating-point zero key of type. */
static uint64_t parquet_other_zero(parquet_type type) {
    uint8_t bytes[8];
    le_store64(bytes, le_double_bits(-0.0));
    if (type == PARQUET_FLOAT) {
        le_store32(bytes, UINT32_C(0x80000000));
        return key_hash_xxh64(bytes, 4);
    }
    return key_hash_xxh64(bytes, 8);
}

/* ---- Blocks ---- */

/* The offset in the BLOB of the block of hash h, of blocks blocks. */
static uint64_t parquet_block_offset(uint64_t h, uint32_t blocks) {
    return FILTER_HEADER_BYTES + ((h >> 32) * blocks >> 32) * PARQUET_BLOCK_BYTES;
}

/* Word j's bit of hash h: 1 << ((low32(h) * salt[j]) >> 27). */
static inline uint32_t parquet_word_bit(uint64_t h, int j) {
    return UINT32_C(1) << (((uint32_t)h * parquet_salt[j]) >> 27);
}

/* Whether the block at block has every bit of hash h set: the portable code. */
static int parquet_block_test_portable(const uint8_t *block, uint64_t h) {
    uint32_t missing = 0;
    for (int j = 0; j < 8; j++) {
        missing |= parquet_word_bit(h, j) & ~le_load32(block + 4 * j);
    }
    return missing == 0;
}

/* Sets the bits of hash h in the block at block: the portable code. */
static void parquet_block_set_portable(uint8_t *block, uint64_t h) {
    for (int j = 0; j < 8; j++) {
        le_store32(block + 4 * j, le_load32(block + 4 * j) | parquet_word_bit(h, j));
    }
}

#if defined(PARQUET_AVX2)
/* The eight masks of hash h in one AVX2 register: 1 << ((x * salt[j]) >> 27) in lane j. */
__attribute__((target("avx2"))) static inline __m256i parquet_mask_avx2(uint64_t h) {
    const __m256i salt = _mm256_loadu_si256((const __m256i *)(const void *)parquet_salt);
    __m256i bits =
        _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int)(uint32_t)h), salt), 27);
    return _mm256_sllv_epi32(_mm256_set1_epi32(1), bits);
}

/* parquet_block_test_portable in AVX2: the block's words hold every bit of the masks. */
__attribute__((target("avx2"))) static int parquet_block_test_avx2(const uint8_t *block,
                                                                   uint64_t h) {
    __m256i words = _mm256_loadu_si256((const __m256i *)(const void *)block);
    return _mm256_testc_si256(words, parquet_mask_avx2(h));
}

/* parquet_block_set_portable in AVX2. */
__attribute__((target("avx2"))) static void parquet_block_set_avx2(uint8_t *block, uint64_t h) {
    __m256i words = _mm256_loadu_si256((const __m256i *)(const void *)block);
    _mm256_storeu_si256((__m256i *)(void *)block, _mm256_or_si256(words, parquet_mask_avx2(h)));
}

/* CPUID of leaf and subleaf into registers r[0..3] (eax, ebx, ecx, edx), as an instruction
** in its caller: the resolvers below may call no function (see there). */
#define PARQUET_CPUID(leaf, subleaf, r)                                                            \
    __asm__ __volatile__("cpuid"                                                                   \
                         : "=a"((r)[0]), "=b"((r)[1]), "=c"((r)[2]), "=d"((r)[3])                  \
                         : "a"(leaf), "c"(subleaf))

/* Whether the CPU has AVX2 and the system saves its registers. Run by the dynamic linker before
** a sanitizer's runtime may be ready: neither instrumented, nor calling a function that may be
** (cpuid.h's are not inlined in a debug build). */
__attribute__((no_sanitize("address", "undefined", "thread"), no_stack_protector)) static int
parquet_cpu_has_avx2(void) {
    unsigned r[4], xcr0_low, xcr0_high;
    PARQUET_CPUID(0, 0, r);
    if (r[0] < 7) {
        return 0; /* no leaf 7, which says AVX2 */
    }
    PARQUET_CPUID(1, 0, r);
    if (!(r[2] & bit_OSXSAVE) || !(r[2] & bit_AVX)) {
        return 0;
    }
    __asm__ __volatile__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    (void)xcr0_high;
    PARQUET_CPUID(7, 0, r);
    /* XCR0 bits 1 and 2: the system saves the XMM and YMM state. */
    return (xcr0_low & 6) == 6 && (r[1] & bit_AVX2);
}

int parquet_has_vector_code(void) {
    return parquet_cpu_has_avx2();
}

/* The resolvers of parquet_block_test and parquet_block_set, run once by the dynamic linker. */
__attribute__((used, no_sanitize("address", "undefined", "thread"),
               no_stack_protector)) static int (*parquet_resolve_test(void))(const uint8_t *,
                                                                             uint64_t) {
    return parquet_cpu_has_avx2() ? parquet_block_test_avx2 : parquet_block_test_portable;
}

__attribute__((used, no_sanitize("address", "undefined", "thread"),
               no_stack_protector)) static void (*parquet_resolve_set(void))(uint8_t *, uint64_t) {
    return parquet_cpu_has_avx2() ? parquet_block_set_avx2 : parquet_block_set_portable;
}

/* Whether the block at block has every bit of hash h set, and sets them, by the fastest code the
** CPU runs. */
static int parquet_block_test(const uint8_t *block, uint64_t h)
    __attribute__((ifunc("parquet_resolve_test")));
static void parquet_block_set(uint8_t *block, uint64_t h)
    __attribute__((ifunc("parquet_resolve_set")));
#else
int parquet_has_vector_code(void) {
    return 0;
}

static int parquet_block_test(const uint8_t *block, uint64_t h) {
    return parquet_block_test_portable(block, h);
}

static void parquet_block_set(uint8_t *block, uint64_t h) {
    parquet_block_set_portable(block, h);
}
#endif

int parquet_block_test_by(const uint8_t *block, uint64_t h, int vector) {
#if defined(PARQUET_AVX2)
    if (vector) {
        return parquet_block_test_avx2(block, h);
    }
#endif
    (void)vector;
    return parquet_block_test_portable(block, h);
}

void parquet_block_set_by(uint8_t *block, uint64_t h, int vector) {
#if defined(PARQUET_AVX2)
    if (vector) {
        parquet_block_set_avx2(block, h);
        return;
    }
#endif
    (void)vector;
    parquet_block_set_portable(block, h);
}

/* The hashes a key stands for in a filter: its value's, and the other zero's for a zero. */
static int parquet_key_hashes(key_hash key, uint64_t hashes[2]) {
    hashes[0] = key.h1;
    if (key.h2 & KEY_ZERO) {
        hashes[1] = parquet_other_zero((parquet_type)(key.h2 & KEY_TYPE_MASK));
        return 2;
    }
    return 1;
}

/* Whether key, hashed for a filter of type, can be added to it: a value of its type, which a
** filter with no type yet takes. */
static int parquet_takes(parquet_type type, key_hash key) {
    return !(key.h2 & KEY_NOT_A_VALUE) &&
           (type == PARQUET_UNTYPED || type == (parquet_type)(key.h2 & KEY_TYPE_MASK));
}

/* Sets the bits of key in the bitset of blocks blocks at bitset (both zeros' for a zero). */
static void parquet_set_key(uint8_t *bitset, uint32_t blocks, key_hash key) {
    uint64_t hashes[2];
    int count = parquet_key_hashes(key, hashes);
    for (int i = 0; i < count; i++) {
        parquet_block_set(bitset - FILTER_HEADER_BYTES + parquet_block_offset(hashes[i], blocks),
                          hashes[i]);
    }
}

void parquet_set_keys(uint8_t *bitset, uint32_t blocks, const key_hash *keys, int count) {
    for (int i = 0; i < count; i++) {
#if defined(__GNUC__)
        /* Both ends of the block: SQLite's memory is not aligned to the CPU's 64-byte lines, so
        ** a 32-byte block may lie across two of them. */
        const uint8_t *block =
            bitset - FILTER_HEADER_BYTES + parquet_block_offset(keys[i].h1, blocks);
        __builtin_prefetch(block, 1);
        __builtin_prefetch(block + PARQUET_BLOCK_BYTES - 1, 1);
#endif
    }
    for (int i = 0; i < count; i++) {
        parquet_set_key(bitset, blocks, keys[i]);
    }
}

/* ---- The kind's operations ---- */

static int parquet_kind_might_contain(const filter_view *f, key_hash key) {
    uint64_t hashes[2];
    uint32_t blocks = le_load32(f->blob + OFF_BLOCKS);
    if (!parquet_takes((parquet_type)f->blob[OFF_TYPE], key) ||
        f->blob[OFF_TYPE] == PARQUET_UNTYPED) {
        return 0; /* not a value of its type; or a filter with no type, which has no key */
    }
    int count = parquet_key_hashes(key, hashes), found = 0;
    for (int i = 0; i < count && !found; i++) {
        found = parquet_block_test(f->blob + parquet_block_offset(hashes[i], blocks), hashes[i]);
    }
    return found;
}

static void parquet_kind_write_header(uint8_t *dst, const filter_view *f) {
    parquet_header h = parquet_header_of(f);
    parquet_write_header(dst, &h);
}

/* The kind's add: the key's bits (both zeros' for a zero), its type if the filter had none,
** and one more key added. */
static filter_status parquet_kind_add(uint8_t *blob, key_hash key) {
    filter_view f = {&parquet_kind, 0, 0, 0, blob, 0};
    parquet_header h = parquet_header_of(&f);
    if (!parquet_takes(h.type, key)) {
        return FILTER_REFUSED;
    }
    parquet_set_key(blob + FILTER_HEADER_BYTES, h.blocks, key);
    blob[OFF_TYPE] = (uint8_t)(key.h2 & KEY_TYPE_MASK);
    le_store64(blob + OFF_KEYS, filter_add_counts(h.keys, 1));
    return FILTER_OK;
}

/* The kind's compatible: the same blocks, and the same type (or none yet on one side). */
static filter_status parquet_kind_compatible(const filter_view *a, const filter_view *b,
                                             char *why) {
    parquet_header ha = parquet_header_of(a), hb = parquet_header_of(b);
    if (ha.blocks != hb.blocks) {
        return filter_invalid(why,
                              "incompatible filters: %lu blocks and %lu blocks; build both "
                              "with the same n and p",
                              (unsigned long)ha.blocks, (unsigned long)hb.blocks);
    }
    if (ha.type != PARQUET_UNTYPED && hb.type != PARQUET_UNTYPED &&
        (ha.type != hb.type || ha.type_length != hb.type_length)) {
        char a_type[FILTER_TYPE_TEXT_MAX], b_type[FILTER_TYPE_TEXT_MAX];
        return filter_invalid(why,
                              "incompatible filters: values of %s and of %s; a union holds the "
                              "values of one Parquet column",
                              parquet_type_text(ha.type, ha.type_length, a_type),
                              parquet_type_text(hb.type, hb.type_length, b_type));
    }
    return FILTER_OK;
}

/* The kind's merge: the bits ORed, the type of the one that has one, the counts summed. */
static filter_status parquet_kind_merge(uint8_t *blob, const filter_view *f) {
    filter_view into_view = {&parquet_kind, 0, 0, 0, blob, 0};
    parquet_header into = parquet_header_of(&into_view), from = parquet_header_of(f);
    for (uint64_t i = FILTER_HEADER_BYTES; i < f->bytes; i++) {
        blob[i] |= f->blob[i];
    }
    if (into.type == PARQUET_UNTYPED) {
        blob[OFF_TYPE] = (uint8_t)from.type;
        le_store32(blob + OFF_TYPE_LENGTH, from.type_length);
    }
    le_store64(blob + OFF_KEYS, filter_add_counts(into.keys, from.keys));
    return FILTER_OK;
}

static filter_status parquet_kind_might_contain_io(const filter_view *f, filter_io *io,
                                                   key_hash key, int *answer) {
    uint64_t hashes[2];
    uint8_t block[PARQUET_BLOCK_BYTES];
    uint32_t blocks = le_load32(f->blob + OFF_BLOCKS);
    *answer = 0;
    if (!parquet_takes((parquet_type)f->blob[OFF_TYPE], key) ||
        f->blob[OFF_TYPE] == PARQUET_UNTYPED) {
        return FILTER_OK;
    }
    int count = parquet_key_hashes(key, hashes);
    for (int i = 0; i < count && !*answer; i++) {
        if (io->read(io->state, parquet_block_offset(hashes[i], blocks), block, sizeof block) !=
            0) {
            return FILTER_IO_FAILED;
        }
        *answer = parquet_block_test(block, hashes[i]);
    }
    return FILTER_OK;
}

/* The kind's add_io: each block whose bits were not all set, written whole; then the type of a
** filter that had none, and the count of keys added. */
static filter_status parquet_kind_add_io(const filter_view *f, filter_io *io, key_hash key,
                                         int *was_absent) {
    parquet_header h = parquet_header_of(f);
    uint64_t hashes[2];
    uint8_t block[PARQUET_BLOCK_BYTES], type = (uint8_t)(key.h2 & KEY_TYPE_MASK), keys[8];
    *was_absent = 0;
    if (!parquet_takes(h.type, key)) {
        return FILTER_REFUSED;
    }
    int count = parquet_key_hashes(key, hashes), found = 0;
    for (int i = 0; i < count; i++) {
        uint64_t offset = parquet_block_offset(hashes[i], h.blocks);
        if (io->read(io->state, offset, block, sizeof block) != 0) {
            return FILTER_IO_FAILED;
        }
        if (parquet_block_test(block, hashes[i])) {
            found = 1; /* a zero: either zero's bits found it */
        } else {
            parquet_block_set(block, hashes[i]);
            if (io->write(io->state, offset, block, sizeof block) != 0) {
                return FILTER_IO_FAILED;
            }
        }
    }
    *was_absent = !found || h.type == PARQUET_UNTYPED; /* as might_contain answered before */
    le_store64(keys, filter_add_counts(h.keys, 1));
    return (h.type == PARQUET_UNTYPED && io->write(io->state, OFF_TYPE, &type, 1) != 0) ||
                   io->write(io->state, OFF_KEYS, keys, sizeof keys) != 0
               ? FILTER_IO_FAILED
               : FILTER_OK;
}

/* The kind's value_type: the physical type its keys are values of, with its length. */
static const char *parquet_kind_value_type(const filter_view *f, char *buf) {
    return parquet_type_text(f->blob[OFF_TYPE], le_load32(f->blob + OFF_TYPE_LENGTH), buf);
}

/* The kind's probe_advice: for a key of another SQL type than the filter's values, how the
** columns of that physical type store what the key likely means. */
static const char *parquet_kind_probe_advice(const filter_view *f, key_hash key) {
    if (!(key.h2 & KEY_OTHER_CLASS)) {
        return NULL;
    }
    switch (f->blob[OFF_TYPE]) {
    case PARQUET_INT32:
        return "a DATE column holds its days since 1970-01-01: probe with "
               "CAST(strftime('%s', key) AS INTEGER) / 86400; others hold integers";
    case PARQUET_INT64:
        return "a TIMESTAMP column holds its microseconds or milliseconds since 1970-01-01 UTC, "
               "as its unit says: probe with CAST(strftime('%s', key) AS INTEGER) * 1000000 or "
               "* 1000; others hold integers";
    case PARQUET_FLOAT:
    case PARQUET_DOUBLE:
        return "its values are numbers: probe with CAST(key AS REAL)";
    case PARQUET_INT96:
        return "its values are 12 bytes, a legacy timestamp's nanoseconds of the day then its "
               "Julian day, little-endian: probe with such a BLOB";
    case PARQUET_BYTE_ARRAY:
        return "a string column holds TEXT: probe with CAST(key AS TEXT)";
    default:
        return "its values are BLOBs of the type's length: probe a UUID with "
               "unhex(replace(key, '-', '')), on SQLite 3.41 and later";
    }
}

/* The fields of bloom_info: the header (n and p null when not known: a filter read from a
** Parquet file), the bits set and the rate they give. O(size). */
static void parquet_kind_info(const filter_view *f, info_sink *sink) {
    parquet_header h = parquet_header_of(f);
    uint64_t bits = (uint64_t)h.blocks * PARQUET_BLOCK_BYTES * 8, set;
    double rate;
    parquet_fill(f, &set, &rate);
    info_string(sink, "physical_type", parquet_type_name(h.type));
    if (h.type == PARQUET_FIXED_LEN_BYTE_ARRAY) {
        info_count(sink, "type_length", h.type_length);
    }
    info_count(sink, "k", PARQUET_BLOCK_BYTES / 4); /* a bit in each 32-bit word of a block */
    info_count(sink, "blocks", h.blocks);
    info_count(sink, "bitset_bytes", bits / 8);
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
    info_real(sink, "estimated_fp_rate", rate);
}

/* The kind's probe_bits: the eight bits of the key's block, one way a hash (a zero of a
** floating type two, both zeros'); none for a key that is not a value of the filter's type or a
** filter with no type. */
static void parquet_kind_probe_bits(const filter_view *f, key_hash key, filter_probe_bits *out) {
    uint64_t hashes[2];
    uint32_t blocks = le_load32(f->blob + OFF_BLOCKS);
    out->ways = 0;
    if (!parquet_takes((parquet_type)f->blob[OFF_TYPE], key) ||
        f->blob[OFF_TYPE] == PARQUET_UNTYPED) {
        return;
    }
    out->ways = parquet_key_hashes(key, hashes);
    for (int i = 0; i < out->ways; i++) {
        uint64_t block_bit = (parquet_block_offset(hashes[i], blocks) - FILTER_HEADER_BYTES) * 8;
        out->count[i] = 8;
        for (int j = 0; j < 8; j++) {
            out->position[i][j] = block_bit + 32 * (uint64_t)j +
                                  ((((uint32_t)hashes[i] * parquet_salt[j]) >> 27) & 31);
        }
    }
}

/* The kind's geometry: the blocks and the type, on which a key's hash and bits depend. */
static void parquet_kind_geometry(const filter_view *f, uint8_t *geometry) {
    memset(geometry, 0, FILTER_GEOMETRY_BYTES);
    geometry[0] = PARQUET_KIND;
    geometry[1] = f->blob[OFF_TYPE];
    le_store32(geometry + 4, le_load32(f->blob + OFF_BLOCKS));
    le_store32(geometry + 8, le_load32(f->blob + OFF_TYPE_LENGTH));
}

const filter_kind parquet_kind = {
    .id = PARQUET_KIND,
    .name = "parquet",
    .format_version = PARQUET_FORMAT_VERSION,
    .key_hash = KEY_HASH_XXH64_PARQUET,
    .count_offset = OFF_KEYS,
    .count_by_steps = 1,
    .validate = parquet_kind_validate,
    .hash_key = parquet_kind_hash_key,
    .might_contain = parquet_kind_might_contain,
    .write_header = parquet_kind_write_header,
    .add = parquet_kind_add,
    .compatible = parquet_kind_compatible,
    .merge = parquet_kind_merge,
    .might_contain_io = parquet_kind_might_contain_io,
    .add_io = parquet_kind_add_io,
    .probe_bits = parquet_kind_probe_bits,
    .geometry = parquet_kind_geometry,
    .value_type = parquet_kind_value_type,
    .probe_advice = parquet_kind_probe_advice,
    .info = parquet_kind_info,
};
