/*
** cross_filter.c: filters built on one machine and read on another, through the core alone.
**
** Usage: cross_filter write DIR    builds standard_cross.bin, blocked_cross.bin,
**                                  scalable_cross.bin and countmin_cross.bin in DIR
**        cross_filter check DIR    reads them: valid, byte for byte what this machine builds,
**                                  every key probes 1 (a sketch: every key's estimate is at
**                                  least its count, and the total their sum)
**
** Run write on a big-endian machine and check on a little-endian one, and the other way round.
*/
#include "filter_kinds.h"
#include "bloom_core.h"
#include "countmin_core.h"
#include "scalable_core.h"

#include "../check.h"

#include <stdlib.h>

enum { KEYS = 20000 };

/* Key i of the test set: an INTEGER, REAL, TEXT or BLOB in turn. */
static key_hash test_key(int i) {
    char text[32];
    int length = snprintf(text, sizeof text, "key %d", i);
    switch (i % 4) {
    case 0:
        return key_hash_integer((int64_t)i * -7919);
    case 1:
        return key_hash_real(i + 0.25);
    case 2:
        return key_hash_text(text, (size_t)length);
    default:
        return key_hash_blob(text, (size_t)length);
    }
}

/* The count of key i in the sketch of the test set. */
static uint64_t test_count(int i) {
    return (uint64_t)(i % 13) + 1;
}

/* The scalable filter of the test set, from 1000 keys at 1 %: it grows to 5 stages, each
** grown as the SQL functions grow it. Returns it (caller frees) and its size. */
static uint8_t *build_scalable(size_t *bytes) {
    scalable_header h;
    bloom_header first;
    double needed;
    if (scalable_size(KEYS / 20, 0.01, BLOOM_LAYOUT_STANDARD, SCALABLE_GROWTH, SCALABLE_TIGHTENING,
                      &h, &first, &needed) != FILTER_OK) {
        return NULL;
    }
    *bytes = (size_t)needed;
    uint8_t *blob = calloc(*bytes, 1);
    if (blob == NULL) {
        return NULL;
    }
    scalable_write_header(blob, &h);
    bloom_write_header(blob + FILTER_HEADER_BYTES, &first);
    for (int i = 0; i < KEYS; i++) {
        filter_status status = filter_add(&scalable_kind, blob, test_key(i));
        if (status == FILTER_FULL) {
            filter_view view = {&scalable_kind, 2, 2, KEY_HASH_XXH3_128, blob, *bytes};
            uint64_t grown;
            uint8_t *more = NULL;
            if (scalable_kind.grow_size(&view, &grown) == FILTER_OK &&
                (more = realloc(blob, (size_t)grown)) != NULL) {
                blob = more;
                scalable_kind.grow(blob, *bytes);
                *bytes = (size_t)grown;
                status = filter_add(&scalable_kind, blob, test_key(i));
            }
        }
        if (status != FILTER_OK) {
            free(blob);
            return NULL;
        }
    }
    return blob;
}

/* The conservative count-min sketch of the test set (epsilon 0.001, delta 0.01: 5 rows of
** 2719 counters), key i counted test_count(i) times. */
static uint8_t *build_countmin(size_t *bytes) {
    countmin_header h;
    double needed;
    if (countmin_size(0.001, 0.01, COUNTMIN_CONSERVATIVE, &h, &needed) != FILTER_OK) {
        return NULL;
    }
    *bytes = (size_t)needed;
    uint8_t *blob = calloc(*bytes, 1);
    if (blob == NULL) {
        return NULL;
    }
    countmin_write_header(blob, &h);
    filter_view view = {&countmin_kind, 2, 2, KEY_HASH_XXH3_128, blob, *bytes};
    filter_io io = filter_io_memory(blob);
    for (int i = 0; i < KEYS; i++) {
        uint64_t estimate;
        if (countmin_add_io(&view, &io, test_key(i), test_count(i), &estimate) != FILTER_OK) {
            free(blob);
            return NULL;
        }
    }
    return blob;
}

/* Builds the filter of the test set of a kind; returns it (caller frees) and its size. */
static uint8_t *build(int layout, size_t *bytes) {
    bloom_header h;
    double needed;
    if (layout == SCALABLE_KIND) {
        return build_scalable(bytes);
    }
    if (layout == COUNTMIN_KIND) {
        return build_countmin(bytes);
    }
    if (bloom_size(KEYS, 0.01, layout, &h, &needed) != FILTER_OK) {
        return NULL;
    }
    *bytes = (size_t)bloom_blob_bytes(h.m);
    uint8_t *blob = calloc(*bytes, 1);
    for (int i = 0; blob != NULL && i < KEYS; i++) {
        bloom_set(blob + FILTER_HEADER_BYTES, &h, test_key(i));
        h.keys++;
    }
    if (blob != NULL) {
        bloom_write_header(blob, &h);
    }
    return blob;
}

/* Writes or checks the file of one layout in dir. */
static void cross(const char *mode, const char *dir, int layout, const char *name) {
    char path[4096];
    size_t bytes = 0;
    uint8_t *built = build(layout, &bytes);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!CHECK(built != NULL)) {
        return;
    }
    if (strcmp(mode, "write") == 0) {
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL && fwrite(built, 1, bytes, f) == bytes && fclose(f) == 0);
    } else {
        FILE *f = fopen(path, "rb");
        uint8_t *read = malloc(bytes + 1);
        size_t got = f != NULL && read != NULL ? fread(read, 1, bytes + 1, f) : 0;
        filter_view view;
        char why[FILTER_WHY_MAX];
        int misses = 0;
        CHECK_U64(got, bytes);
        CHECK(got == bytes && memcmp(read, built, bytes) == 0);
        if (CHECK(got == bytes && filter_open(read, got, &view, why) == FILTER_OK) &&
            CHECK(view.kind->id == layout)) {
            uint64_t total = 0;
            for (int i = 0; i < KEYS; i++) {
                if (layout == COUNTMIN_KIND) {
                    misses += countmin_estimate(&view, test_key(i)) < test_count(i);
                    total += test_count(i);
                } else {
                    misses += !view.kind->might_contain(&view, test_key(i));
                }
            }
            if (layout == COUNTMIN_KIND) {
                CHECK_U64(countmin_header_of(&view).total, total);
            } else if (layout == SCALABLE_KIND) {
                CHECK_U64(scalable_header_of(&view).stages, 5);
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
    cross(argv[1], argv[2], BLOOM_LAYOUT_STANDARD, "standard_cross.bin");
    cross(argv[1], argv[2], BLOOM_LAYOUT_BLOCKED, "blocked_cross.bin");
    cross(argv[1], argv[2], SCALABLE_KIND, "scalable_cross.bin");
    cross(argv[1], argv[2], COUNTMIN_KIND, "countmin_cross.bin");
    return check_report(name);
}
