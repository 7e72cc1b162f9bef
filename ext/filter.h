/*
** filter.h: the container every filter BLOB shares, whatever its kind.
**
** A filter is a 64-byte header and a body. The header's first 8 bytes, the
** prelude, are the same for every kind: magic "SQBF", format version, minimum
** reader version, kind and key hash. The other 56 header bytes and the body
** belong to the kind. filter_open checks the prelude, finds the kind in the
** kind table and lets the kind validate the rest, all in O(1) and before any
** byte of the body is read (docs/format.md). No SQLite header, no allocation.
*/
#ifndef FILTER_H
#define FILTER_H

#include "key_hash.h"

#include <stddef.h>
#include <stdint.h>

enum {
    FILTER_HEADER_BYTES = 64,  /* the header of every kind: the prelude and 56 bytes of its own */
    FILTER_FORMAT_VERSION = 2, /* the newest format version this code reads */
    FILTER_WHY_MAX = 256       /* buffer size for a validation message */
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
    FILTER_IO_FAILED        /* a filter_io read or write failed: its state says why */
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

/* A filter BLOB that filter_open accepted: its prelude, its kind, its bytes. */
typedef struct filter_view {
    const struct filter_kind *kind;
    uint8_t version;            /* format version the writer followed */
    uint8_t min_reader_version; /* oldest reader version that can read it */
    uint8_t hash;               /* KEY_HASH_* */
    const uint8_t *blob;
    uint64_t bytes;
} filter_view;

/*
** What a kind of filter does, for the code shared by every kind. Functions
** that take a filter get one that filter_open accepted; those that take a
** blob get one that this kind's copy wrote. The _io operations reach the
** body through io and read only the header of f, whose blob may hold the
** header alone (f->bytes is the whole BLOB's length); they return FILTER_OK,
** FILTER_IO_FAILED, or as said. An operation a kind cannot do is NULL.
*/
typedef struct filter_kind {
    uint8_t id;             /* the prelude's kind byte */
    const char *name;       /* as bloom_build and bloom_info spell it */
    uint8_t format_version; /* the format version that defines it: written as both versions */
    /* Validates the header bytes after the prelude against f->bytes, in O(1), reading no byte
    ** past the header. On failure, returns FILTER_INVALID with the reason in why
    ** (FILTER_WHY_MAX bytes). */
    filter_status (*validate)(const filter_view *f, char *why);
    /* 1 when key may have been added to f, 0 when it certainly was not. */
    int (*might_contain)(const filter_view *f, key_hash key);
    /* Writes the header of f into dst (FILTER_HEADER_BYTES) as this code writes that kind: its
    ** format version, reserved bytes 0. */
    void (*write_header)(uint8_t *dst, const filter_view *f);
    /* Adds key to the filter in blob, counting it; FILTER_FULL when it has no room (what was
    ** written is then to be dropped). NULL: add_io through filter_io_memory (filter_add). */
    filter_status (*add)(uint8_t *blob, key_hash key);
    /* Checks that b, of the same kind and key hash (filter_compatible), can be merged into a;
    ** FILTER_INVALID, with why, if not. */
    filter_status (*compatible)(const filter_view *a, const filter_view *b, char *why);
    /* Merges f, which compatible accepted, into the filter in blob, counting its keys;
    ** FILTER_FULL when they do not fit (what was written is then to be dropped). blob is at
    ** least as long as f: of two filters of different lengths, callers copy the longer. */
    filter_status (*merge)(uint8_t *blob, const filter_view *f);
    /* might_contain, into *answer. */
    filter_status (*might_contain_io)(const filter_view *f, filter_io *io, key_hash key,
                                      int *answer);
    /* add, counting the key; *was_absent is 1 when might_contain answered 0 before. Or
    ** FILTER_FULL. */
    filter_status (*add_io)(const filter_view *f, filter_io *io, key_hash key, int *was_absent);
    /* Removes one copy of key, uncounting it; FILTER_ABSENT, writing nothing, when the key is
    ** certainly not in the filter. NULL: the kind cannot delete. */
    filter_status (*remove_io)(const filter_view *f, filter_io *io, key_hash key);
    /* Validates what the kind keeps past its header, reading it through io: a bounded number
    ** of reads, whatever the BLOB's length. FILTER_OK, FILTER_INVALID with why, or
    ** FILTER_IO_FAILED. NULL: validate checks everything. */
    filter_status (*validate_body)(const filter_view *f, filter_io *io, char *why);
    /* A filter that grows: after add or add_io answered FILTER_FULL, the bytes it needs for
    ** room for more keys, into *bytes; FILTER_TOO_BIG, FILTER_TOO_MANY_HASHES or
    ** FILTER_BAD_ARGUMENT (at its most parts) when it cannot grow. NULL: it never grows. */
    filter_status (*grow_size)(const filter_view *f, uint64_t *bytes);
    /* Grows the filter in blob, bytes long and followed by the room grow_size asked for: writes
    ** the new, empty, part and the header that counts it. */
    void (*grow)(uint8_t *blob, uint64_t bytes);
    /* For messages: why a FILTER_FULL left no room, and what to do ("which ...: build it with a
    ** larger n"); NULL for a kind that is never full. */
    const char *full_advice;
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

/* The kind with prelude byte id, or NULL. */
const filter_kind *filter_kind_by_id(int id);

/* The i-th kind of the kind table, from 0, or NULL past its end. */
const filter_kind *filter_kind_at(size_t i);

/*
** Validates blob (bytes long) as a filter this code can read: the prelude,
** then the kind's own header. Reads only the header, in O(1). On failure
** returns FILTER_INVALID and writes the reason, without a function name, to
** why (FILTER_WHY_MAX bytes).
*/
filter_status filter_open(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why);

/* filter_open, but of the header alone: blob holds FILTER_HEADER_BYTES of a BLOB of bytes bytes,
** and what the kind keeps past its header (validate_body) is left for the caller to check. */
filter_status filter_open_header(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why);

/* Checks that b (of any kind) can be merged into a: the same kind and key hash, then the kind's
** compatible. FILTER_OK, or FILTER_INVALID with why (FILTER_WHY_MAX bytes) saying what differs,
** in the terms the filters were built with, and what to do. */
filter_status filter_compatible(const filter_view *a, const filter_view *b, char *why);

/* Adds key to the filter of kind in blob (one this code wrote): the kind's add, or its add_io
** through filter_io_memory. FILTER_OK or FILTER_FULL, as add. */
filter_status filter_add(const filter_kind *kind, uint8_t *blob, key_hash key);

/* Writes f into dst (f->bytes bytes) as this code writes its kind: the header rewritten, the
** body copied. */
void filter_copy(uint8_t *dst, const filter_view *f);

/* Writes the prelude of a filter of kind: magic, the kind's format version as both versions,
** its id and hash. */
void filter_write_prelude(uint8_t *blob, const filter_kind *kind, int hash);

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
