/*
** cross_filter.c: filters built on one machine and read on another, through the core alone.
**
** Usage: cross_filter write DIR    builds standard_cross.bin and blocked_cross.bin in DIR
**        cross_filter check DIR    reads them: valid, byte for byte what this machine builds,
**                                  and every key probes 1
**
** Run write on a big-endian machine and check on a little-endian one, and the other way round.
*/
#include "bloom_core.h"

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

/* Builds the filter of the test set in a layout; returns it (caller frees) and its size. */
static uint8_t *build(int layout, size_t *bytes) {
    bloom_header h;
    double needed;
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
        if (CHECK(got == bytes && filter_open(read, got, &view, why) == FILTER_OK)) {
            bloom_header h = bloom_header_of(&view);
            for (int i = 0; i < KEYS; i++) {
                misses += !bloom_test(read + FILTER_HEADER_BYTES, &h, test_key(i));
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
    return check_report(name);
}
