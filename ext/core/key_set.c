/*
** key_set.c: a set of key hashes with linear probing. See key_set.h.
*/
#include "key_set.h"

/* Whether h is the all-zero hash, the mark of an empty slot. */
static int key_set_is_zero(key_hash h) {
    return h.h1 == 0 && h.h2 == 0;
}

int key_set_insert(key_set *set, key_hash h) {
    if (key_set_is_zero(h)) {
        int is_new = !set->has_zero;
        set->has_zero = 1;
        return is_new;
    }
    uint64_t mask = set->capacity - 1;
    for (uint64_t i = h.h1 & mask;; i = (i + 1) & mask) {
        key_hash *slot = &set->slots[i];
        if (key_set_is_zero(*slot)) {
            *slot = h;
            set->count++;
            return 1;
        }
        if (slot->h1 == h.h1 && slot->h2 == h.h2) {
            return 0;
        }
    }
}

uint64_t key_set_size(const key_set *set) {
    return set->count + (set->has_zero != 0);
}

/* Hashes moved at a time: their slots in the new set are prefetched together. */
enum { MOVE_BATCH = 32 };

void key_set_move(const key_set *from, key_set *to) {
    key_hash batch[MOVE_BATCH];
    uint64_t cursor = 0;
    int count = 0, more = 1;
    while (more) {
        more = key_set_next(from, &cursor, &batch[count]);
        if (more) {
            key_set_prefetch(to, batch[count++]);
        }
        if (count == MOVE_BATCH || (!more && count > 0)) {
            for (int i = 0; i < count; i++) {
                key_set_insert(to, batch[i]);
            }
            count = 0;
        }
    }
}

int key_set_next(const key_set *set, uint64_t *cursor, key_hash *out) {
    /* Cursors 0 .. capacity - 1 walk the slots; capacity stands for the all-zero hash. */
    for (; *cursor < set->capacity; (*cursor)++) {
        if (!key_set_is_zero(set->slots[*cursor])) {
            *out = set->slots[(*cursor)++];
            return 1;
        }
    }
    if (*cursor == set->capacity && set->has_zero) {
        (*cursor)++;
        out->h1 = out->h2 = 0;
        return 1;
    }
    return 0;
}
