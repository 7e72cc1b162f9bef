/*
** parquet_core.h: the Parquet split-block Bloom filter kind (kind 7), without
** SQL.
**
** Its body is exactly the bitset a Parquet file stores after a filter's
** BloomFilterHeader (parquet-format, BloomFilter.md): blocks of 256 bits,
** eight little-endian 32-bit words; a key sets one bit in each word of one
** block. Keys are the values of one Parquet column, hashed as Parquet
** readers hash them: XXH64, seed 0, of the value's plain encoding for the
** filter's physical type, which the header records. A SQL key is converted
** to that type as a reader compares values; one that cannot be a value of it
** is certainly absent. Header and body: docs/format.md, "Parquet split-block
** Bloom filter". No SQLite header, no allocation, no state.
*/
#ifndef PARQUET_CORE_H
#define PARQUET_CORE_H

#include "filter.h"

#include <stdint.h>

enum {
    PARQUET_KIND = 7,           /* the prelude's kind byte */
    PARQUET_FORMAT_VERSION = 2, /* the format version that defines it */
    PARQUET_BLOCK_BYTES = 32,   /* a block: eight 32-bit words */
    /* Most blocks a filter may have: Parquet's numBytes is a 32-bit signed integer. */
    PARQUET_BLOCKS_MAX = (INT32_MAX / PARQUET_BLOCK_BYTES),
    /* Most blocks sizing gives: 128 MiB, the most Parquet's readers take (parquet-java, Trino
    ** and Arrow's C++ reader ignore or refuse a larger filter). */
    PARQUET_SIZED_BLOCKS_MAX = (1 << 22)
};

/* Physical types, as Parquet's Type enum numbers them; 0 in a header: none yet (an empty filter,
** typed by its first key). BOOLEAN (Parquet's 0) has no filter here. */
typedef enum parquet_type {
    PARQUET_UNTYPED = 0,
    PARQUET_INT32 = 1,
    PARQUET_INT64 = 2,
    PARQUET_INT96 = 3,
    PARQUET_FLOAT = 4,
    PARQUET_DOUBLE = 5,
    PARQUET_BYTE_ARRAY = 6,
    PARQUET_FIXED_LEN_BYTE_ARRAY = 7
} parquet_type;

extern const filter_kind parquet_kind;

/* The fields of a Parquet filter's header, decoded. */
typedef struct parquet_header {
    uint64_t n;           /* capacity it was sized for; 0 when not known (read from Parquet) */
    double p;             /* its target rate at n; 0 when not known */
    uint64_t keys;        /* keys added here, counting repeats */
    uint32_t blocks;      /* z, 1 to PARQUET_BLOCKS_MAX */
    uint32_t type_length; /* a FIXED_LEN_BYTE_ARRAY's length in bytes; 0: any, or another type */
    parquet_type type;
} parquet_header;

/* The name of a physical type as Parquet writes it ("INT64"), or NULL for none of them. */
const char *parquet_type_name(int type);

/* The name of a type as messages show it: its name, with its length for a FIXED_LEN_BYTE_ARRAY
** of a known length ("FIXED_LEN_BYTE_ARRAY(16)"), written to buf (FILTER_TYPE_TEXT_MAX bytes),
** or "no type yet". */
const char *parquet_type_text(int type, uint32_t type_length, char *buf);

/* The physical type of that name (a PARQUET_* above), or -1. */
int parquet_type_named(const char *name);

/* The physical type text names, in any case: a name of parquet_type_name, or
** "FIXED_LEN_BYTE_ARRAY(L)" for values of L bytes (1 to 2^31 - 1), as parquet_type_text writes
** it; into *type and *type_length (L, or 0). 0 when text names none. */
int parquet_type_parse(const char *text, int *type, uint32_t *type_length);

/* The false-positive rate of a filter holding keys_per_block keys per block on average: the
** chance that the eight bits of a key not in it are set in a block holding a Poisson number of
** keys. Exact for that model. */
double parquet_fp_rate(double keys_per_block);

/* Sizes a filter for n keys at rate p: the fewest blocks whose model rate is at most p, rounded
** up to a power of two, as Parquet's writers size theirs (Arrow's C++ reader refuses any other
** size), into *blocks. FILTER_OK, FILTER_BAD_ARGUMENT (n < 1, p outside (0, 1)) or
** FILTER_TOO_BIG (more than PARQUET_SIZED_BLOCKS_MAX); *bytes_needed is the BLOB's size, also
** when too big. */
filter_status parquet_size(uint64_t n, double p, uint32_t *blocks, double *bytes_needed);

/* Total BLOB bytes of a filter of that many blocks. */
uint64_t parquet_blob_bytes(uint32_t blocks);

/* Writes the 64-byte header of a Parquet filter. */
void parquet_write_header(uint8_t *blob, const parquet_header *h);

/* The fields of a filter that filter_open accepted as a Parquet filter. */
parquet_header parquet_header_of(const filter_view *f);

/* Checks a bitset's length and a physical type for parquet_filter_from_bitset: FILTER_OK, or
** FILTER_INVALID with why. */
filter_status parquet_check_bitset(uint64_t bitset_bytes, int type, uint32_t type_length,
                                   char *why);

/* Writes into blob (parquet_blob_bytes of bitset_bytes / 32 long) the filter of a Parquet
** bitset that parquet_check_bitset accepted, for a column of that type: n and p not known, no
** key added here. */
void parquet_filter_from_bitset(uint8_t *blob, const uint8_t *bitset, uint64_t bitset_bytes,
                                int type, uint32_t type_length);

/* The hash of key as a value of *type (of type_length bytes if fixed), or, when *type is
** PARQUET_UNTYPED, of its own storage class's type, which it writes to *type: how a filter
** being built takes its type from its first key. */
key_hash parquet_hash_typed(parquet_type *type, uint32_t type_length, const key_value *key);

/* Keys a build sets together (parquet_set_keys). */
enum { PARQUET_BATCH_KEYS = 32 };

/* Sets the bits of the count keys (values of the filter's type, hashed by parquet_hash_typed)
** in the bitset of blocks blocks at bitset, their blocks prefetched first, with nothing else of
** a filter's add (its type, its count): how a filter being built, whose header is written
** last, takes its keys. */
void parquet_set_keys(uint8_t *bitset, uint32_t blocks, const key_hash *keys, int count);

/* Whether key, hashed by parquet_hash_typed or the kind's hash_key, is a value of the type it
** was hashed for: 0 for a key that no value of that type equals. */
int parquet_key_is_value(key_hash key);

/* Whether this CPU runs the vector code of blocks (AVX2 on x86-64), which the kind then uses. */
int parquet_has_vector_code(void);

/* Whether the 32-byte block has every bit of hash h set, and sets them: by the vector code (vector
** 1, where parquet_has_vector_code) or the portable one (0), which give the same answers and
** bytes (the tests compare them). */
int parquet_block_test_by(const uint8_t *block, uint64_t h, int vector);
void parquet_block_set_by(uint8_t *block, uint64_t h, int vector);

/* The bits set in the bitset of f, into *bits_set, and the chance that a key not added finds
** its eight bits set, into *fp_rate: the mean over the blocks of the product of the eight
** words' shares of bits set. O(size). */
void parquet_fill(const filter_view *f, uint64_t *bits_set, double *fp_rate);

#endif /* PARQUET_CORE_H */
