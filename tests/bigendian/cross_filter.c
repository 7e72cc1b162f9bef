/*
** cross_filter.c: filters built on one machine and read on another, through the core alone.
**
** Usage: cross_filter write DIR    builds NAME_cross.bin in DIR for every kind NAME of the
**                                  table of kinds (tests/test_kinds.h makes its empty filter,
**                                  or a static kind's filter from all its keys at once)
**        cross_filter check DIR    reads them: valid, byte for byte what this machine builds,
**                                  every key probes 1 (a sketch: every key's estimate is at
**                                  least its count, and the total their sum)
**
** Run write on a big-endian machine and check on a little-endian one, and the other way round.
*/
#include "../check.h"
#include "../test_kinds.h"

#include <stdlib.h>

enum { KEYS = 20000 };

/* Key i of the test set, hashed for the filter f: an INTEGER, REAL, TEXT or BLOB in turn; for
** a kind whose filters hold values of one type (a Parquet filter's), the TEXT 'key i'. */
static key_hash test_key(const filter_view *f, int i) {
    char text[32];
    int length = snprintf(text, sizeof text, "key %d", i);
    key_value key = {KEY_TAG_TEXT, 0, 0.0, text, (size_t)length};
    switch (f->kind->value_type != NULL ? 2 : i % 4) {
    case 0:
        key.type = KEY_TAG_INTEGER;
        key.integer = (int64_t)i * -7919;
        break;
    case 1:
        key.type = KEY_TAG_REAL;
        key.real = i + 0.25;
        break;
    case 2:
        break;
    default:
        key.type = KEY_TAG_BLOB;
        break;
    }
    return filter_hash_key(f, &key);
}

/* The count of key i in the sketch of the test set. */
static uint64_t test_count(int i) {
    return (uint64_t)(i % 13) + 1;
}

/* Adds key i of the test set to the filter of kind in *blob (*bytes long, from malloc): a
** sketch counts it test_count(i) times; a kind that grows grows when it is full, as the SQL
** functions grow it. Returns 0 when the key found no room. */
static int add_test_key(const filter_kind *kind, uint8_t **blob, uint64_t *bytes, int i) {
    filter_view view = {kind, 0, 0, 0, *blob, *bytes}; /* the operations below read its header */
    if (kind == &countmin_kind) {
        filter_io io = filter_io_memory(*blob);
        uint64_t estimate;
        return countmin_add_io(&view, &io, test_key(&view, i), test_count(i), &estimate) ==
               FILTER_OK;
    }
    filter_status status = filter_add(kind, *blob, test_key(&view, i));
    uint64_t grown;
    uint8_t *larger;
    if (status == FILTER_FULL && filter_kind_can(kind, FILTER_GROWS) &&
        kind->grow_size(&view, &grown) == FILTER_OK &&
        (larger = realloc(*blob, (size_t)grown)) != NULL) {
        filter_grow(kind, larger, *bytes, grown);
        *blob = larger;
        *bytes = grown;
        view.blob = larger;
        view.bytes = grown;
        status = filter_add(kind, *blob, test_key(&view, i));
    }
    return status == FILTER_OK;
}

/* The filter of a kind that cannot add (a static kind: tests/test_kinds.h's make_built) holding
** the test set, built once from all its keys, each given twice (repeats do not count), for KEYS
** keys at 1 %. Returns it (caller frees) and its size, or NULL. */
static uint8_t *build_whole(const filter_kind *kind, uint64_t *bytes) {
    key_hash *keys = malloc(2 * KEYS * sizeof *keys);
    filter_view view = {kind, 0, 0, (uint8_t)kind->key_hash, NULL, 0}; /* hashes as it does */
    uint8_t *blob = NULL;
    if (CHECK(test_kind_of(kind)->make_built != NULL) && keys != NULL) {
        for (int i = 0; i < KEYS; i++) {
            keys[i] = keys[2 * KEYS - 1 - i] = test_key(&view, i);
        }
        blob = test_kind_of(kind)->make_built(keys, 2 * KEYS, KEYS, 0.01, bytes);
    }
    free(keys);
    return blob;
}

/* The filter of kind holding the test set, through the core: built for its KEYS keys at 1 %
** (test_capacity: a scalable filter grows to 5 stages), a sketch's as cms_build's of epsilon
** 0.001 and delta 0.01 (tests/test_kinds.h), a static kind's from all its keys at once. Returns
** it (caller frees) and its size. */
static uint8_t *build(const filter_kind *kind, uint64_t *bytes) {
    if (!filter_kind_can(kind, FILTER_ADDS)) {
        return build_whole(kind, bytes);
    }
    uint8_t *blob = test_kind_of(kind)->make_empty(test_capacity(kind, KEYS), 0.01, bytes);
    for (int i = 0; blob != NULL && i < KEYS; i++) {
        if (!add_test_key(kind, &blob, bytes, i)) {
            free(blob);
            blob = NULL;
        }
    }
    return blob;
}

/* Writes or checks the file of kind in dir, NAME_cross.bin. */
static void cross(const char *mode, const char *dir, const filter_kind *kind) {
    char path[4096];
    uint64_t bytes = 0;
    uint8_t *built = build(kind, &bytes);
    snprintf(path, sizeof path, "%s/%s_cross.bin", dir, kind->name);
    if (!CHECK(built != NULL)) {
        return;
    }
    if (strcmp(mode, "write") == 0) {
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL && fwrite(built, 1, (size_t)bytes, f) == bytes && fclose(f) == 0);
    } else {
        FILE *f = fopen(path, "rb");
        uint8_t *read = malloc((size_t)bytes + 1);
        size_t got = f != NULL && read != NULL ? fread(read, 1, (size_t)bytes + 1, f) : 0;
        filter_view view;
        char why[FILTER_WHY_MAX];
        int misses = 0;
        CHECK_U64(got, bytes);
        CHECK(got == bytes && memcmp(read, built, got) == 0);
        if (CHECK(got == bytes && filter_open(read, got, &view, why) == FILTER_OK) &&
            CHECK(view.kind == kind)) {
            uint64_t total = 0;
            for (int i = 0; i < KEYS; i++) {
                if (kind == &countmin_kind) {
                    misses += countmin_estimate(&view, test_key(&view, i)) < test_count(i);
                    total += test_count(i);
                } else {
                    misses += !view.kind->might_contain(&view, test_key(&view, i));
                }
            }
            if (kind == &countmin_kind) {
                CHECK_U64(countmin_header_of(&view).total, total);
            } else if (kind == &scalable_kind) {
                CHECK_U64(scalable_header_of(&view).stages, 5);
            } else if (kind == &fuse_kind) {
                CHECK_U64(fuse_header_of(&view).keys, KEYS); /* the repeats dropped */
            }
        }
        CHECK_U64(misses, 0);
        if (f != NULL) {
            fclose(f);
        }
        free(read);
    }
    free(built);
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "write") != 0 && strcmp(argv[1], "check") != 0)) {
        fprintf(stderr, "usage: %s write|check DIR\n", argv[0]);
        return 2;
    }
    const uint16_t one = 1;
    char name[64];
    snprintf(name, sizeof name, "%s on a %s-endian machine", argv[1],
             *(const uint8_t *)&one == 1 ? "little" : "big");
    const filter_kind *kind;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        cross(argv[1], argv[2], kind);
    }
    return check_report(name);
}
