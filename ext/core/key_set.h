/*
** key_set.h: a set of key hashes, for filters sized at the end (the distinct
** keys are counted before the filter is made). Caller-owned slots (a power of
** two), open addressing with linear probing. An all-zero slot is empty, so
** the all-zero hash is kept beside the slots. No SQLite header, no allocation.
*/
#ifndef KEY_SET_H
#define KEY_SET_H

#include "key_hash.h"

#include <stdint.h>

typedef struct key_set {
    key_hash *slots;
    uint64_t capacity; /* slots, a power of two */
    uint64_t count;    /* hashes in the slots */
    int has_zero;      /* whether the all-zero hash was inserted */
} key_set;

/* Asks the processor to fetch h's first slot ahead of key_set_insert: a batch of hashes
** prefetched, then inserted, waits for memory once rather than once per hash. */
static inline void key_set_prefetch(const key_set *set, key_hash h) {
#if defined(__GNUC__)
    __builtin_prefetch(&set->slots[h.h1 & (set->capacity - 1)], 1);
#else
    (void)set;
    (void)h;
#endif
}

/* Inserts h unless present; the caller keeps count < capacity. Returns 1 if h was new. */
int key_set_insert(key_set *set, key_hash h);

/* Number of distinct hashes inserted, the all-zero one included. */
uint64_t key_set_size(const key_set *set);

/* Moves every hash of from into to, which must be empty and larger than from's count. */
void key_set_move(const key_set *from, key_set *to);

/* Iterates over the hashes of set: *cursor starts at 0; each call writes the next hash to
** *out and returns 1, or returns 0 when there is none left. */
int key_set_next(const key_set *set, uint64_t *cursor, key_hash *out);

#endif /* KEY_SET_H */
