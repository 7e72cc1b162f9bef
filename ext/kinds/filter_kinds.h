/*
** filter_kinds.h: the table of kinds, above the kinds it lists (kind_list.h):
** each kind by its id and by its name; filter_open, which validates any filter
** BLOB by its prelude, then its kind; one answer to "can this kind do X", with
** the message for what it cannot; and the operations every kind answers, each
** through its entry (filter_kind), never through a slot it left empty. No
** SQLite header, no allocation.
*/
#ifndef FILTER_KINDS_H
#define FILTER_KINDS_H

#include "filter.h"
#include "key_hash.h"

#include <stddef.h>
#include <stdint.h>

/* The kind with prelude byte id, or NULL. */
const filter_kind *filter_kind_by_id(int id);

/* The i-th kind of the table, from 0 (bloom_build's default), or NULL past its end. */
const filter_kind *filter_kind_at(size_t i);

/* The kind called name, in any ASCII case, or NULL. */
const filter_kind *filter_kind_named(const char *name);

/*
** Validates blob (bytes long) as a filter this code can read: the prelude,
** then the kind's own header, then what it keeps past it (validate_body).
** Reads only the header, in O(1) (a bounded number of reads for a kind with
** validate_body). On failure returns FILTER_INVALID and writes the reason,
** without a function name, to why (FILTER_WHY_MAX bytes).
*/
filter_status filter_open(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why);

/* filter_open of the header alone, against a length of bytes: the prelude, the kind of its byte,
** then filter_check_kind; what the kind keeps past its header is not read (a filter stored in
** pieces validates it through a filter_io). */
filter_status filter_open_header(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why);

/* What a function may ask of a kind. */
typedef enum filter_ability {
    FILTER_ADDS,            /* add a key to a built filter: add or add_io */
    FILTER_ADDS_IN_PLACE,   /* add a key through a filter_io: add_io */
    FILTER_REMOVES,         /* remove a key (through a filter_io): remove_io */
    FILTER_MERGES,          /* merge two filters: compatible and merge */
    FILTER_GROWS,           /* grow when full: grow_size and grow_io */
    FILTER_PROBES_IN_PLACE, /* probe through a filter_io: might_contain_io */
    FILTER_COUNTS           /* count what is added, through a filter_io: estimate_io and
                            ** add_count_io */
} filter_ability;

/* Whether kind can do what ability names: the one answer, from its entry's slots. */
int filter_kind_can(const filter_kind *kind, filter_ability ability);

/* Writes to why (FILTER_WHY_MAX bytes) that kind cannot do what ability names and the kinds
** that can: "a 'standard' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to
** remove keys". */
void filter_kind_refusal(const filter_kind *kind, filter_ability ability, char *why);

enum { FILTER_REFUSAL_MAX = 512 }; /* buffer size for filter_probe_refused's text */

/* Whether f refuses a probe of key (hashed by filter_hash_key) that answered 0, key_tag the SQL
** type it was read from (KEY_TAG_*): when f's kind gives probe_advice for it, writes to why
** (FILTER_REFUSAL_MAX bytes) "is TEXT, and no TEXT is a value of the filter's type, INT32
** (ADVICE)", for "FUNC: the key KEY " to go before, and returns 1; else 0. */
int filter_probe_refused(const filter_view *f, key_hash key, int key_tag, char *why);

/* The hash of key in f: by its kind's hash_key, or by the hash of its prelude. Inline: it runs on
** every row of a probe. */
static inline key_hash filter_hash_key(const filter_view *f, const key_value *key) {
    return f->kind->hash_key != NULL ? f->kind->hash_key(f, key) : key_hash_value(f->hash, key);
}

/* Checks that b (of any kind) can be merged into a: the same kind and key hash, a kind that
** merges, then the kind's compatible. FILTER_OK, or FILTER_INVALID with why (FILTER_WHY_MAX
** bytes) saying what differs, in the terms the filters were built with, and what to do. */
filter_status filter_compatible(const filter_view *a, const filter_view *b, char *why);

/* Merges f, which filter_compatible accepted, into the filter of its kind in blob (a copy of
** the longer of the two): FILTER_OK, or FILTER_FULL when they do not fit. */
filter_status filter_merge(uint8_t *blob, const filter_view *f);

/* Adds key to the filter of kind in blob (one this code wrote, of a kind that adds): the
** kind's add, or its add_io through filter_io_memory. FILTER_OK or FILTER_FULL, as add. */
filter_status filter_add(const filter_kind *kind, uint8_t *blob, key_hash key);

/* Removes key from the filter of kind in blob (one this code wrote, of a kind that removes):
** FILTER_OK, or FILTER_ABSENT, as remove_io. */
filter_status filter_remove(const filter_kind *kind, uint8_t *blob, key_hash key);

/* Grows the filter of kind in blob, bytes long and followed by the room grow_size asked for
** (grown bytes in all): zeroes that room, then the kind's grow_io through filter_io_memory. */
void filter_grow(const filter_kind *kind, uint8_t *blob, uint64_t bytes, uint64_t grown);

/* Writes f into dst (f->bytes bytes) as this code writes its kind: the header rewritten, the
** body copied. */
void filter_copy(uint8_t *dst, const filter_view *f);

#endif /* FILTER_KINDS_H */
