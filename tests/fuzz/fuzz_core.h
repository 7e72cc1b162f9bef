/*
** fuzz_core.h: what the files of the fuzz_core target share (fuzz_core.c, the
** entry point, says what its input is and what it checks). A kind's oracle,
** its model written from docs/format.md, is NAME_oracle for each NAME of
** kind_list.h, in the file of its room (fuzz_core_bloom.c, fuzz_core_counting.c,
** ...; a kind without one does not link); the checks every kind shares are in
** fuzz_core_kinds.c; the helpers below, written once, in fuzz_core_shared.c:
** the format's bytes, section 5's messages, and a filter_io that checks, counts
** and fails its reads and writes.
*/
#ifndef BLOOM_FUZZ_CORE_H
#define BLOOM_FUZZ_CORE_H

#include "filter_kinds.h"
#include "fuzz_input.h"
#include "kind_list.h"

#include <stddef.h>
#include <stdint.h>

/* The most keys an input gives, the most bytes a key takes from it, and a scalable filter's most
** stages (docs/format.md, 4.5). */
enum { MAX_KEYS = 16, MAX_KEY_BYTES = 24, STAGES_MAX = 64 };

/* The keys of an input (fuzz_core.c): up to MAX_KEYS SQL values of every type taken from its own
** bytes, data, into values (TEXT and BLOB pointing into data); returns how many. Each key's first
** byte picks its type and length. fuzz_core hashes them as the filter hashes its keys. */
size_t derive_key_values(const uint8_t *data, size_t size, key_value *values);

/* Offsets of the header fields that the Bloom kinds and the counting kind share (n, p and the
** keys also the cuckoo kind's, the keys every kind's but the count-min sketch's). */
enum { OFF_K = 8, OFF_M = 16, OFF_N = 24, OFF_P = 32, OFF_KEYS = 40 };

/* ---- The oracles ---- */

/*
** A kind's oracle. Its functions take BLOBs that the spec accepts (valid says so) and are
** written from docs/format.md, not from the kind's code: of the core they call only
** bloom_positions (checked against the test vectors by the unit tests), in encode_header the
** header writer whose bytes they check, bloom_size for the stage a scalable filter grows by
** (checked against the formulas by the unit tests), and key_hash_xxh64, XXH64 itself, for the
** Parquet kind (checked against section 6's vectors by the unit tests).
*/
typedef struct kind_oracle {
    uint8_t id; /* the prelude's kind byte */
    /* Whether header byte offset (8 to 63) is reserved: 0 unless the format version is above
    ** the reader's, and not re-encoded. */
    int (*is_reserved)(size_t offset);
    /* 1 when blob, of size bytes, whose prelude is valid and names the kind, meets the kind's
    ** rules of "Validation" on the header (what filter_kind's validate checks); else 0, with
    ** the message of the first rule it breaks in why (FILTER_WHY_MAX bytes). */
    int (*valid)(const uint8_t *blob, size_t size, char *why);
    /* The same for the rules on what the kind keeps past its header (validate_body), on a blob
    ** whose header valid accepted; NULL when the header says everything. */
    int (*valid_body)(const uint8_t *blob, size_t size, char *why);
    /* 1 when the kind's compatible must accept merging b into a (accepted filters of the kind,
    ** a at least as long as b); NULL: a filter is always compatible with itself with keys
    ** added. */
    int (*compatible)(const uint8_t *a, const uint8_t *b);
    /* Writes the 64-byte header of the accepted blob, as this code writes the kind, to out, by
    ** the kind's own header writer (the one bloom_build uses, not filter_kind's write_header). */
    void (*encode_header)(uint8_t *out, const uint8_t *blob);
    /* The model of the operations, on an accepted BLOB: the answer of a probe; add and remove
    ** applied to blob, and merge of src, which the kind's compatible accepted, into dst: each
    ** with the status it must return (FILTER_FULL when there is no room), blob or dst left as it
    ** was unless FILTER_OK. Each NULL exactly when the kind cannot do it (filter_kind_can:
    ** FILTER_ADDS, FILTER_REMOVES, FILTER_MERGES; a static kind, built once from all its keys,
    ** none of them): its refusals are checked instead. */
    int (*probe)(const uint8_t *blob, key_hash key);
    filter_status (*add)(uint8_t *blob, key_hash key, int *was_absent);
    filter_status (*remove)(uint8_t *blob, key_hash key);
    filter_status (*merge)(uint8_t *dst, const uint8_t *src);
    /* The checks of the kind's own functions, beyond filter_kind, on the accepted f. */
    void (*check_own)(const filter_view *f, const key_hash *keys, size_t count);
} kind_oracle;

#define FUZZ_ORACLE_DECLARE(id, name) extern const kind_oracle name##_oracle;
FILTER_KINDS(FUZZ_ORACLE_DECLARE)

/* ---- The checks every kind shares (fuzz_core_kinds.c) ---- */

/* Aborts unless every kind of the table of kinds is found by its id and has the oracle of
** that id, which adds, removes and merges exactly when the kind does, and unless its slots
** agree with each other (a kind that removes or grows adds; one that adds nothing counts
** nothing). */
void check_oracles(void);

/* The oracle of kind, an entry of the table of kinds. */
const kind_oracle *oracle_of(const filter_kind *kind);

/* Whether data (size bytes) passes the prelude's checks of docs/format.md section 5 (length,
** magic, versions); else writes the message to expected. */
int spec_prelude_accepts(const uint8_t *data, size_t size, char *expected);

/* 1 when the spec accepts the BLOB data of size bytes: the prelude's checks, then the kind's
** (docs/format.md, "Validation"): on its header, and unless header_only (what
** filter_open_header checks) on what it keeps past it. Else 0, and expected (FILTER_WHY_MAX
** bytes) gets the message of the first check that fails. */
int spec_accepts(const uint8_t *data, size_t size, char *expected, int header_only);

/* Aborts unless the message why of a refused BLOB is terminated and section 5's, expected. */
void check_refusal(const char *why, const char *expected);

/* Aborts unless f, of data, re-encodes by its kind's writer to the same header (but the
** versions, written as the kind's format version, and the reserved bytes, written 0), which
** decodes again to an accepted filter of the same header. The header alone is decoded: the
** decoding must read nothing else. */
void check_header_round_trip(const filter_view *f);

/* Aborts unless the kind's operations on f (accepted) with keys agree with each other and with
** its oracle's model (see fuzz_core_kinds.c). */
void check_operations(const filter_view *f, const key_hash *keys, size_t count);

/* Aborts unless, for a BLOB whose header opens and whose kind keeps something past it, the
** kind's validate_body through a checked filter_io agrees with filter_open's status (opened)
** and message (opened_why), reads in bounds and reports its failed reads. */
void check_validate_body(const uint8_t *data, size_t size, filter_status opened,
                         const char *opened_why);

/* ---- What the fuse kind's oracle checks of every input (fuzz_core_fuse.c) ---- */

/* Aborts unless a binary fuse filter built through the core (fuse_distinct_keys, fuse_size,
** fuse_build) from the keys of the input data (derive_key_values, with more INTEGERs and n and
** p chosen by its last bytes) is 4.8's build of them, byte for byte, holds every one of them,
** probes as 4.8's probe, passes check_operations, and is built again from the same keys in
** another order and with repeats. */
void check_fuse_builds(const uint8_t *data, size_t size);

/* ---- What the Bloom kinds' oracle lends the kinds made of Bloom filters (fuzz_core_bloom.c) */

/* The Bloom fields of blob (a Bloom or counting filter, or a scalable filter's stage), read
** from its bytes; layout is the kind byte. */
bloom_header bloom_fields_of(const uint8_t *blob);

/* The positions of key in blob: those of kind 1 for kinds 1 and 3, of kind 2 for kind 2. */
void bloom_positions_of(const uint8_t *blob, key_hash key, uint64_t *positions);

/* The rule on k, which the Bloom and counting kinds share: 1, or 0 with the message. */
int bloom_k_ok(const bloom_header *h, char *why);

/* The Bloom model's probe and add (the oracle's), for a scalable filter's stages. */
int bloom_model_probe(const uint8_t *blob, key_hash key);
filter_status bloom_model_add(uint8_t *blob, key_hash key, int *was_absent);

/* ---- The format's bytes and section 5's messages (fuzz_core_shared.c) ---- */

/* Reads up to 8 bytes little-endian. */
uint64_t little_endian(const uint8_t *bytes, size_t length);

/* Writes v little-endian into 8 bytes. */
void store_u64(uint8_t *bytes, uint64_t v);

/* The double whose bits are the 8 bytes at bytes, little-endian. */
double double_at(const uint8_t *bytes);

/* a + b, kept at 2^64 - 1. */
uint64_t saturating_sum(uint64_t a, uint64_t b);

/* Whether bit pos of the bit array bits is set. */
int bit_is_set(const uint8_t *bits, uint64_t pos);

/* A copy of length bytes, in memory of exactly that size (so that ASan sees every overrun). */
uint8_t *duplicate(const uint8_t *bytes, size_t length);

/* Writes section 5's message, from format, to why (FILTER_WHY_MAX bytes); returns 0, a refusal. */
int refuse(char *why, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* p as section 5 shows it (buf: 32 bytes): C's %.15g, but NaN for every NaN, Inf and -Inf. */
const char *rate_text(char *buf, double p);

/* The rules on n and p, which every kind shares: 1, or 0 with the message. */
int n_p_ok(uint64_t n, double p, char *why);

/* The rule on the reserved bytes, every kind's last: 1, or 0 with the message. */
int reserved_ok(const uint8_t *blob, int (*is_reserved)(size_t), char *why);

/* The accepted filter of bytes bytes at blob, aborting if it is refused. */
filter_view open_bytes(const uint8_t *blob, uint64_t bytes, const char *what);

/* Adds key to a copy of f (of a kind that removes) by add_io through filter_io_memory and, if it
** went in, removes it by remove_io from the filter the copy opens as, aborting unless it goes.
** Returns add_io's status; *copy (malloc, f->bytes long) what both left. */
filter_status add_then_remove(const filter_view *f, key_hash key, uint8_t **copy);

/* ---- A checked filter_io (fuzz_core_shared.c) ---- */

/*
** A filter_io over a BLOB in memory, for the _io operations: a view of the header alone
** (header, a copy of the BLOB's 64 bytes in memory of that size), and filter_io_memory over
** the BLOB, wrapped to check that each access stays in the BLOB, to count the reads and
** writes, and to fail the fail_at-th of them (from 1; 0: none).
*/
typedef struct io_target {
    uint8_t *blob;
    uint64_t bytes;
    uint8_t *header;
    filter_view view;
    filter_io memory;
    unsigned calls, writes, fail_at;
} io_target;

/* An io_target with its header allocated, to io_open; io_close frees it. */
io_target io_new(void);
void io_close(io_target *t);

/* Points t at blob, a filter of the kind and size of f, with its header as the view. */
void io_open(io_target *t, uint8_t *blob, const filter_view *f, unsigned fail_at);

/* The filter_io of t: filter_io_memory itself (checked 0), or wrapped. */
filter_io io_of(io_target *t, int checked);

/* The operations an _io test runs. */
enum { OP_MIGHT_CONTAIN, OP_ADD, OP_REMOVE };

/* Aborts unless op with key on the filter in blob, through the checked filter_io, stays in
** the BLOB and gives what it gives through filter_io_memory alone (status, answer and bytes);
** then, failing one of its reads and writes (chosen by the key), returns FILTER_IO_FAILED.
** Returns the status, leaves blob as the operation left it, *answer its answer. */
filter_status check_io(io_target *t, const filter_view *f, uint8_t *blob, int op, key_hash key,
                       int *answer);

#endif /* BLOOM_FUZZ_CORE_H */
