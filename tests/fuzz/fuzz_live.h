/*
** fuzz_live.h: the input encoding of fuzz_live.c (the bloom virtual table),
** shared with gen_corpus.c, which writes its seeds. fuzz_live.c's header
** comment says what each part means.
*/
#ifndef BLOOM_FUZZ_LIVE_H
#define BLOOM_FUZZ_LIVE_H

#include "filter_kinds.h"

#include <string.h>

/* The configuration byte: bits 0-1 the page size (512, 1024, 4096, 65536), bits 2-3 the text
** encoding (modulo 3), bits 4-5 the length limit (SQLite's, 1 MB, 20000, 5000), then flags. */
enum {
    LIVE_ENCODING_SHIFT = 2,
    LIVE_LIMIT_SHIFT = 4,
    LIVE_RESERVE = 64, /* 32 bytes reserved a page */
    LIVE_LAZY = 128 /* the table checked against the model only by LIVE_SNAPSHOT and at the end */
};

/* The first byte of a table's parameters: its low four bits (LIVE_CHOICE_MASK), modulo
** live_kind_choices(), what CREATE gives: a kind a live table takes, of the table of kinds in its
** order (live_kind_at), then live_no_arguments() and live_default_kind(); then flags. */
enum {
    LIVE_CHOICE_MASK = 15,
    LIVE_MISPLACED =
        16, /* an argument of the other family (epsilon for a filter, n for a sketch) */
    LIVE_BARE_KIND = 32, /* kind = cuckoo, a bare word, rather than kind = 'cuckoo' */
    LIVE_REORDERED = 64  /* p (delta) first */
};

/* The index-th kind a live table takes (one that adds where a filter is stored), in the order of
** the table of kinds, or NULL past the last. */
static inline const filter_kind *live_kind_at(unsigned index) {
    const filter_kind *kind;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        if (filter_kind_can(kind, FILTER_ADDS_IN_PLACE) && index-- == 0) {
            return kind;
        }
    }
    return NULL;
}

/* How many kinds a live table takes. */
static inline unsigned live_kind_count(void) {
    unsigned count = 0;
    while (live_kind_at(count) != NULL) {
        count++;
    }
    return count;
}

/* The choices past the kinds: CREATE VIRTUAL TABLE t USING bloom (loaded filters only), and n
** and p without kind. */
static inline unsigned live_no_arguments(void) {
    return live_kind_count();
}

static inline unsigned live_default_kind(void) {
    return live_kind_count() + 1;
}

/* How many choices the low bits make. */
static inline unsigned live_kind_choices(void) {
    return live_kind_count() + 2;
}

/* The choice of the kind called name, which a live table takes. */
static inline unsigned live_choice(const char *name) {
    unsigned i = 0;
    while (live_kind_at(i) != NULL && strcmp(live_kind_at(i)->name, name) != 0) {
        i++;
    }
    return i;
}

/* The operations: an opcode byte, modulo LIVE_OPS after its bit LIVE_SECOND is cleared. */
enum {
    LIVE_ADD,               /* name, key: INSERT INTO t(name, key) */
    LIVE_ADD_COUNT,         /* name, key, count: INSERT INTO t(name, key, count) */
    LIVE_ADD_TWO,           /* name, key, name, key: one INSERT of two rows */
    LIVE_ADD_RANGE,         /* name, base, count (from 192: 32 times as many): INSERT ... SELECT */
    LIVE_ENSURE,            /* name: INSERT INTO t(name) (bit 7: INSERT INTO t(t, name) VALUES
                            ** ('allocate', name)) */
    LIVE_REMOVE,            /* name, key: DELETE ... WHERE name IS ? AND key = ? */
    LIVE_REMOVE_EVERYWHERE, /* key: DELETE ... WHERE key = ? */
    LIVE_DROP_FILTER,       /* name (bit 7: every filter): DELETE ... WHERE name IS ? */
    LIVE_LOAD,              /* conflict, name, source: INSERT INTO t(name, filter) */
    LIVE_PROBE,             /* name, key, key */
    LIVE_SNAPSHOT,          /* every filter against the model */
    LIVE_BEGIN,
    LIVE_COMMIT,
    LIVE_ROLLBACK,
    LIVE_SAVEPOINT,   /* savepoint name (modulo LIVE_SAVEPOINT_NAMES) */
    LIVE_ROLLBACK_TO, /* savepoint name */
    LIVE_RELEASE,     /* savepoint name */
    LIVE_DROP_TABLE,
    LIVE_CREATE,      /* parameters */
    LIVE_RENAME,      /* t to t2, or back */
    LIVE_INTEGRITY,   /* PRAGMA integrity_check, no chunk on an overflow page (bit 7: 'optimize'
                      ** first, INSERT INTO t(t)) */
    LIVE_SCAN_CHANGE, /* byte (bit 0: remove the key, else drop), key: a scan by key that
                      ** removes the key from each filter, or drops it, as it goes */
    LIVE_OPS
};
enum {
    LIVE_SECOND = 128, /* on the second connection: LIVE_ADD, LIVE_ADD_RANGE,
                       ** LIVE_REMOVE_EVERYWHERE, LIVE_PROBE, LIVE_SNAPSHOT; LIVE_INTEGRITY
                       ** after 'optimize' */
    LIVE_SAVEPOINT_NAMES = 3
};

/* Operands: a key is a byte, below LIVE_NEW_KEY an entry of the pool of keys (modulo
** LIVE_KEY_POOL), else a fuzz value that takes that entry's place; a name or a count a byte,
** modulo LIVE_NAMES or LIVE_COUNTS, an index into fuzz_live.c's lists. */
enum { LIVE_NEW_KEY = 0xE0, LIVE_KEY_POOL = 8, LIVE_NAMES = 8, LIVE_COUNTS = 8 };

/* LIVE_LOAD's conflict clause (modulo LIVE_CONFLICTS) and the source of its BLOB (modulo
** LIVE_SOURCES). */
enum { LIVE_ABORT, LIVE_IGNORE, LIVE_REPLACE, LIVE_CONFLICTS };
enum {
    LIVE_SOURCE_VALUE,   /* a fuzz value */
    LIVE_SOURCE_COPY,    /* byte: the model's filter of that index */
    LIVE_SOURCE_FLIPPED, /* byte, 2 bytes offset, byte mask: a model filter with a byte changed */
    LIVE_SOURCE_BUILT,   /* parameters, byte: bloom_build (cms_build) over that many integers */
    LIVE_SOURCE_CUT, /* byte, 2 bytes: a model filter cut to that length (0xFFFF: a byte more) */
    LIVE_SOURCES
};

#endif /* BLOOM_FUZZ_LIVE_H */
