/*
** filter.h: the container every filter BLOB shares, whatever its kind, and
** the interface a kind fills (filter_kind).
**
** A filter is a 64-byte header and a body. The header's first 8 bytes, the
** prelude, are the same for every kind: magic "SQBF", format version, minimum
** reader version, kind and key hash. The other 56 header bytes and the body
** belong to the kind. The kinds lie above this file and the table of kinds
** (filter_kinds.h) above them: filter_open there checks the prelude here,
** finds the kind and lets it validate the rest, all in O(1) and before any
** byte of the body is read (docs/format.md). No SQLite header, no allocation.
*/
#ifndef FILTER_H
#define FILTER_H

#include "key_hash.h"

#include <stddef.h>
#include <stdint.h>

enum {
    FILTER_HEADER_BYTES = 64,  /* the header of every kind: the prelude and 56 bytes of its own */
    FILTER_FORMAT_VERSION = 3, /* the newest format version this code reads */
    FILTER_WHY_MAX = 256,      /* buffer size for a validation message */
    FILTER_TYPE_TEXT_MAX = 48  /* buffer size for the name of the type of a filter's values */
};

/* Prelude offsets. */
enum {
    FILTER_OFF_MAGIC = 0, /* 4 bytes, "SQBF" */
    FILTER_OFF_VERSION = 4,
    FILTER_OFF_MIN_READER = 5,
    FILTER_OFF_KIND = 6,
    FILTER_OFF_HASH = 7
};

typedef enum filter_status {
    FILTER_OK = 0,
    FILTER_BAD_ARGUMENT,    /* sizing: a capacity, rate or kind outside what is defined */
    FILTER_RATE_TOO_HIGH,   /* sizing: the kind has a lower maximum rate */
    FILTER_TOO_MANY_HASHES, /* sizing: the rate needs more hash functions than the kind allows */
    FILTER_TOO_BIG,         /* sizing: more bytes than the core sizes */
    FILTER_INVALID,         /* decoding or merging: the message says why */
    FILTER_FULL,            /* adding: the filter has no room for the key (a cuckoo filter) */
    FILTER_ABSENT,          /* removing: the key is certainly not in the filter */
    FILTER_IO_FAILED,       /* a filter_io read or write failed: its state says why */
    FILTER_REFUSED          /* adding: the key is not a value of the type the filter holds */
} filter_status;

/*
** A filter's bytes reached in pieces, for a filter that is not in memory (a
** stored BLOB read and written through SQLite's incremental I/O). Offsets
** count from the BLOB's first byte. Each returns 0, or nonzero when it failed
** (the state keeps why). An operation that does not return FILTER_OK may have
** written some bytes: the caller discards its writes (filter_io_memory's
** caller, the copy it wrote to).
*/
typedef struct filter_io {
    void *state;
    int (*read)(void *state, uint64_t offset, uint8_t *buf, uint32_t n);
    int (*write)(void *state, uint64_t offset, const uint8_t *buf, uint32_t n);
} filter_io;

/* A filter_io over the BLOB blob in memory. */
filter_io filter_io_memory(uint8_t *blob);

struct filter_kind;
struct info_sink;

/* A filter BLOB that filter_open accepted: its prelude, its kind, its bytes. */
typedef struct filter_view {
    const struct filter_kind *kind;
    uint8_t version;            /* format version the writer followed */
    uint8_t min_reader_version; /* oldest reader version that can read it */
    uint8_t hash;               /* KEY_HASH_* */
    const uint8_t *blob;
    uint64_t bytes;
} filter_view;

/* The bits a key's probe tests in a filter of a kind that probes by bits (probe_bits): up to
** FILTER_PROBE_WAYS sets of positions in its body (bit j: bit j % 8 of body byte j / 8), of at most
** FILTER_PROBE_BITS each; the key probes 1 when every bit of one of the sets is set. */
enum { FILTER_PROBE_WAYS = 2, FILTER_PROBE_BITS = 64, FILTER_GEOMETRY_BYTES = 16 };
typedef struct filter_probe_bits {
    int ways; /* 0: the key probes 0 in every filter of this geometry (not a value of its type) */
    int count[FILTER_PROBE_WAYS];
    uint64_t position[FILTER_PROBE_WAYS][FILTER_PROBE_BITS];
} filter_probe_bits;

/*
** What a kind of filter does, for the code shared by every kind: its entry in
** the table of kinds (filter_kinds.h), filled by name. Operations that take a
** filter get one that filter_open accepted; those that take a blob get one
** that this kind's copy wrote. The _io operations reach the body through io
** and read only the header of f, whose blob may hold the header alone
** (f->bytes is the whole BLOB's length); they return FILTER_OK,
** FILTER_IO_FAILED, or as said. Slots marked "optional" may be NULL: what a
** kind cannot do is answered by filter_kind_can (filter_kinds.h), never by a
** call through NULL.
*/
typedef struct filter_kind {
    uint8_t id;             /* the prelude's kind byte */
    const char *name;       /* as bloom_build and bloom_info spell it */
    uint8_t format_version; /* the format version that defines it: written as both versions */
    uint8_t key_hash;       /* KEY_HASH_*: the hash of the keys of the filters it writes */
    /* The offset in its header of the 8-byte count of what was added (keys; a sketch's total),
    ** which the operations keep: a store in chunks keeps it as parts, each with the chunk whose
    ** write added it (live_store.h). 0 in a kind that adds nothing after it is built. */
    uint8_t count_offset;
    /* 1 when add_io and remove_io change that count by one, up or down, stopped at 0 and at
    ** count_limit, and read it for nothing else: a store in chunks runs them from a count of 1
    ** and keeps the step, without the count, and stops the sum of the steps where it reads it
    ** (live_store.c). 0 when an operation needs the count itself. */
    uint8_t count_by_steps;
    /* Optional: the most f's count can be (a cuckoo filter's slots), at least 2 for a kind that
    ** counts by steps. NULL: 2^64 - 1. */
    uint64_t (*count_limit)(const filter_view *f);
    /* Validates the header bytes after the prelude against f->bytes, in O(1), reading no byte
    ** past the header. On failure, returns FILTER_INVALID with the reason in why
    ** (FILTER_WHY_MAX bytes). */
    filter_status (*validate)(const filter_view *f, char *why);
    /* Optional: validates what the kind keeps past its header, reading it through io: a
    ** bounded number of reads, whatever the BLOB's length. FILTER_OK, FILTER_INVALID with why,
    ** or FILTER_IO_FAILED. NULL: validate checks everything. */
    filter_status (*validate_body)(const filter_view *f, filter_io *io, char *why);
    /* Optional, with validate_body: the count that what the kind keeps past its header holds
    ** (a scalable filter's stages' keys), into *count, read through io as validate_body reads
    ** it, which it checks as validate_body does but for the header's count. FILTER_OK,
    ** FILTER_INVALID with why, or FILTER_IO_FAILED. NULL: only the header holds the count. */
    filter_status (*count_io)(const filter_view *f, filter_io *io, uint64_t *count, char *why);
    /* Optional: the hash of key in f, for a kind whose keys are hashed otherwise than by the
    ** hash of f's prelude byte alone (key_hash_value). */
    key_hash (*hash_key)(const filter_view *f, const key_value *key);
    /* 1 when key may have been added to f, 0 when it certainly was not. */
    int (*might_contain)(const filter_view *f, key_hash key);
    /* Writes the header of f into dst (FILTER_HEADER_BYTES) as this code writes that kind: its
    ** format version, reserved bytes 0. */
    void (*write_header)(uint8_t *dst, const filter_view *f);
    /* Optional: adds key to the filter in blob, counting it; FILTER_FULL when it has no room
    ** (what was written is then to be dropped). NULL: add_io through filter_io_memory. */
    filter_status (*add)(uint8_t *blob, key_hash key);
    /* Optional, with merge: checks that b, of the same kind and key hash (filter_compatible),
    ** can be merged into a; FILTER_INVALID, with why, if not. NULL: the kind cannot merge. */
    filter_status (*compatible)(const filter_view *a, const filter_view *b, char *why);
    /* Merges f, which compatible accepted, into the filter in blob, counting its keys;
    ** FILTER_FULL when they do not fit (what was written is then to be dropped). blob is at
    ** least as long as f: of two filters of different lengths, callers copy the longer. */
    filter_status (*merge)(uint8_t *blob, const filter_view *f);
    /* Optional: might_contain, through io, into *answer. NULL: it cannot be read in place. */
    filter_status (*might_contain_io)(const filter_view *f, filter_io *io, key_hash key,
                                      int *answer);
    /* Optional: add, counting the key; *was_absent is 1 when might_contain answered 0 before.
    ** Or FILTER_FULL. NULL: keys cannot be added after the filter is built. */
    filter_status (*add_io)(const filter_view *f, filter_io *io, key_hash key, int *was_absent);
    /* Optional: removes one copy of key, uncounting it; FILTER_ABSENT, writing nothing, when the
    ** key is certainly not in the filter. NULL: the kind cannot delete. */
    filter_status (*remove_io)(const filter_view *f, filter_io *io, key_hash key);
    /* Optional, with add_count_io: a kind that counts what is added (a sketch): the estimate of
    ** key's count, through io, into *estimate (0: certainly never added, which a probe answers as
    ** might_contain_io does), read against the count at count_offset. NULL: it keeps no counts. */
    filter_status (*estimate_io)(const filter_view *f, filter_io *io, key_hash key,
                                 uint64_t *estimate);
    /* Adds count (from 0) to key's count through io, and to the count at count_offset; its
    ** estimate after into *estimate. FILTER_FULL, writing nothing, when the count would pass
    ** what the kind keeps. */
    filter_status (*add_count_io)(const filter_view *f, filter_io *io, key_hash key, uint64_t count,
                                  uint64_t *estimate);
    /* Optional, with grow: a filter that grows: after add or add_io answered FILTER_FULL, the
    ** bytes it needs for room for more keys, into *bytes; FILTER_TOO_BIG,
    ** FILTER_TOO_MANY_HASHES or FILTER_BAD_ARGUMENT (at its most parts) when it cannot grow.
    ** NULL: it never grows. */
    filter_status (*grow_size)(const filter_view *f, uint64_t *bytes);
    /* Grows f, through io, into the bytes grow_size asked for, of which the caller made every
    ** byte past f->bytes read as 0: writes the new part's header and the header that counts it
    ** (nothing else: a store in chunks adds none for the zeros). FILTER_OK or FILTER_IO_FAILED. */
    filter_status (*grow_io)(const filter_view *f, filter_io *io);
    /* Optional, with geometry: a kind whose probe tests bits of its body and nothing else (a
    ** Bloom filter's, a Parquet filter's), the bits key's probe tests in f, into *out. With it, a
    ** live table's index answers for many filters of one geometry at once. */
    void (*probe_bits)(const filter_view *f, key_hash key, filter_probe_bits *out);
    /* What probe_bits and the hash of keys depend on in f's header (kind, m and k; blocks and
    ** type), into geometry (FILTER_GEOMETRY_BYTES, the rest 0): filters of equal geometry test
    ** the same bits for a key, hashed alike. */
    void (*geometry)(const filter_view *f, uint8_t *geometry);
    /* Optional: what messages call one of its filters ("sketch"); NULL: "filter". */
    const char *noun;
    /* Optional: for messages, why a FILTER_FULL left no room, and what to do ("which ...: build
    ** it with a larger n"); NULL for a kind that is never full. */
    const char *full_advice;
    /* Optional: for a kind whose filters hold values of one type (a Parquet column's), whose add
    ** and add_io answer FILTER_REFUSED for a key of another, the type f holds, for messages
    ** ("INT64", "FIXED_LEN_BYTE_ARRAY(16)"), written to buf (FILTER_TYPE_TEXT_MAX bytes) or a
    ** constant; returned. NULL: every key can be added. */
    const char *(*value_type)(const filter_view *f, char *buf);
    /* Optional, with value_type: NULL when key (hashed by f's hash_key) has an SQL type some
    ** value of f's type has, else how to give a value of it ("a DATE column holds ..."): a probe
    ** by bloom_might_contain is then an error that says so, not a 0 (rule 27). */
    const char *(*probe_advice)(const filter_view *f, key_hash key);
    /* Writes the kind's fields of bloom_info into sink with filter_info.h's helpers, after the
    ** prelude's: the header, then what the body measures. */
    void (*info)(const filter_view *f, struct info_sink *sink);
} filter_kind;

/* A filter_io over the bytes of io from offset base on: a part of a filter as a filter. */
typedef struct filter_io_part {
    filter_io io; /* the part's: state is this struct */
    filter_io *whole;
    uint64_t base;
} filter_io_part;

/* Makes part a filter_io over the bytes of whole from offset base. */
void filter_io_part_init(filter_io_part *part, filter_io *whole, uint64_t base);

/* Checks a false-positive rate: FILTER_BAD_ARGUMENT unless strictly between 0 and 1, the
** range of every kind; a kind may allow less (see its sizing). */
static inline filter_status filter_check_rate(double p) {
    return p > 0.0 && p < 1.0 ? FILTER_OK : FILTER_BAD_ARGUMENT;
}

/* Reads the prelude of blob (bytes long) into *out, the kind left NULL: the length, magic,
** versions and key hash a reader of FILTER_FORMAT_VERSION accepts, in O(1). Returns the kind
** byte, or -1 after writing the reason to why (FILTER_WHY_MAX bytes). */
int filter_read_prelude(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why);

/* The checks of a header after its prelude (read into *f) for kind, the kind its byte names:
** the prelude's versions and key hash against the kind's, then the kind's validate; sets f->kind.
** FILTER_OK, or FILTER_INVALID with the reason in why (FILTER_WHY_MAX bytes). */
filter_status filter_check_kind(filter_view *f, const filter_kind *kind, char *why);

/* Writes the prelude of a filter of kind: magic, the kind's format version as both versions,
** its id and its key hash. */
void filter_write_prelude(uint8_t *blob, const filter_kind *kind);

/* Largest BLOB the core will size, whatever the caller's own limit: 2^61 bytes, so that a
** count of its bits fits in 64 bits. */
#define FILTER_MAX_BYTES 2305843009213693952.0

/* a + b, or UINT64_MAX when the sum does not fit: for counts of keys added. */
static inline uint64_t filter_add_counts(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The bytes 48 to 63 of the header: reserved in every kind so far. */
enum { FILTER_OFF_RESERVED_TAIL = 48 };

/* Checks the capacity n (>= 1) and rate p (strictly between 0 and 1) of a header: FILTER_OK, or
** FILTER_INVALID with section 5's message in why. */
filter_status filter_check_capacity(uint64_t n, double p, char *why);

/* Checks that the reserved bytes of f's header, [from, to) and [FILTER_OFF_RESERVED_TAIL, 64),
** are 0, unless a newer writer that this reader may read wrote them (docs/format.md, section
** 2): FILTER_OK, or FILTER_INVALID naming the first non-zero one. */
filter_status filter_check_reserved(const filter_view *f, int from, int to, char *why);

/* Writes FILTER_INVALID's message to why (FILTER_WHY_MAX bytes) and returns FILTER_INVALID. */
filter_status filter_invalid(char *why, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Writes v to buf (32 bytes) with 15 significant digits and a '.' whatever the locale's
** decimal point; NaN and infinities as SQLite shows them. Returns buf. */
const char *filter_format_double(char *buf, double v);

#endif /* FILTER_H */
