/*
** gen_corpus_fuse.c: the seed filters of the kind of fuse (see gen_corpus.h), written to fuzz_core
** and given to the other targets.
*/
#include "gen_corpus.h"

#include "filter_kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes f a binary fuse filter of the INTEGER keys first .. first + keys - 1, for n at rate p,
** built as bloom_build builds it: their h1 made distinct, sized, built with scratch memory. */
static void make_fuse(filter *f, const char *name, uint64_t n, double p, int64_t first,
                      uint64_t keys) {
    uint64_t *hashes = malloc((keys + 1) * sizeof *hashes);
    uint64_t *buffer = malloc((keys + 1) * sizeof *buffer);
    fuse_header h;
    double bytes_needed;
    if (hashes == NULL || buffer == NULL) {
        fuzz_fail("out of memory for %s", name);
    }
    for (uint64_t i = 0; i < keys; i++) {
        hashes[i] = key_hash_integer(first + (int64_t)i).h1;
    }
    uint64_t distinct = fuse_distinct_keys(hashes, keys, buffer);
    if (fuse_size(distinct, n, p, &h, &bytes_needed) != FILTER_OK ||
        fuse_blob_bytes(&h) > sizeof f->bytes) {
        fuzz_fail("cannot size %s", name);
    }
    uint64_t slots = fuse_slots(&h);
    fuse_scratch scratch = {malloc(slots * sizeof *scratch.hashes),
                            malloc(slots * sizeof *scratch.order),
                            malloc(slots * sizeof *scratch.counts)};
    if (scratch.hashes == NULL || scratch.order == NULL || scratch.counts == NULL) {
        fuzz_fail("out of memory for %s", name);
    }
    f->name = name;
    f->size = (size_t)fuse_blob_bytes(&h);
    memset(f->bytes, 0, f->size);
    if (fuse_build(f->bytes, &h, hashes, &scratch) != FILTER_OK) {
        fuzz_fail("cannot build %s", name);
    }
    free(scratch.hashes);
    free(scratch.order);
    free(scratch.counts);
    free(hashes);
    free(buffer);
}

/* The binary fuse kind's seeds. */
size_t fuse_seed_filters(filter *filters) {
    size_t count = 0;
    filter base;
    /* Binary fuse filters: of no keys, of one, 100 and 1,000 keys (9 segments of 128 slots), of
    ** fingerprints of 1 bit (p = 0.5) and 32 bits (p = 2^-32), over its capacity, of 1-slot
    ** segments (crafted: s = 0, S = 1, 3 slots), the count of keys at the slots, the seed at
    ** 2^64 - 1, bits after the last slot set, a newer writer's reserved bytes. */
    make_fuse(&filters[count++], "fuse_empty", 100, 0.01, 0, 0);
    make_fuse(&filters[count++], "fuse_one_key", 1, 0.01, 7, 1);
    make_fuse(&filters[count++], "fuse_100_keys", 100, 0.01, 0, 100);
    make_fuse(&filters[count++], "fuse_1000_keys", 1000, 0.004, 0, 1000);
    make_fuse(&filters[count++], "fuse_f_1", 50, 0.5, 0, 50);
    make_fuse(&filters[count++], "fuse_f_32", 20, 1.0 / 4294967296.0, 0, 20);
    make_fuse(&filters[count++], "fuse_over_capacity", 10, 0.01, 0, 60);
    make_fuse(&filters[count], "fuse_one_slot_segments", 3, 0.01, 0, 0);
    poke(&filters[count], 10, 0, 1);
    poke(&filters[count], 12, 1, 4);
    poke(&filters[count], 40, 3, 8);
    filters[count].size = FILTER_HEADER_BYTES + 3;
    memset(filters[count].bytes + FILTER_HEADER_BYTES, 0x5C, 3);
    count++;
    make_fuse(&filters[count], "fuse_keys_at_slots", 10, 0.01, 0, 10);
    {
        filter_view view = open_filter(&filters[count]);
        fuse_header h = fuse_header_of(&view);
        poke(&filters[count++], 40, fuse_slots(&h), 8);
    }
    make_fuse(&filters[count], "fuse_seed_max", 10, 0.01, 0, 10);
    poke(&filters[count++], 16, UINT64_MAX, 8);
    make_fuse(&filters[count], "fuse_bits_after_slots", 2, 0.2, 0, 2);
    filters[count].bytes[filters[count].size - 1] |= 0x80; /* 12 slots of 3 bits in 5 bytes */
    count++;
    make_fuse(&filters[count], "fuse_newer_writer_reserved", 100, 0.01, 0, 50);
    filters[count].bytes[4] = 4; /* format version 4, readable by version 2 */
    filters[count].bytes[11] = 0xAB;
    filters[count++].bytes[63] = 0xCD;
    make_fuse(&filters[count], "fuse_min_reader_1", 100, 0.01, 0, 50);
    filters[count++].bytes[5] = 1; /* below the kind's version: refused (section 5) */

    /* The fuse kind's own rules, in the order of section 5, on a small valid one. */
    make_fuse(&base, "base", 10, 0.01, 0, 10);
    static const struct {
        const char *name;
        size_t offset;
        int width; /* 0: the length plus value (modulo 2^64) */
        uint64_t value;
    } fuse_broken[] = {
        {"fuse_f_0", 8, 1, 0},
        {"fuse_f_33", 8, 1, 33},
        {"fuse_arity_4", 9, 1, 4},
        {"fuse_arity_0", 9, 1, 0},
        {"fuse_segment_bits_19", 10, 1, 19},
        {"fuse_segment_bits_255", 10, 1, 255},
        {"fuse_segments_0", 12, 4, 0},
        {"fuse_segments_max", 12, 4, 0xFFFFFFFF},
        {"fuse_slots_2_32", 10, 6, UINT64_C(0xFFFFFFFE) << 16},         /* s = 0: A = 2^32 */
        {"fuse_slots_2_32_minus_1", 10, 6, UINT64_C(0xFFFFFFFD) << 16}, /* the length, not S */
        {"fuse_length_plus_1", 0, 0, 1},
        {"fuse_length_minus_1", 0, 0, UINT64_MAX},
        {"fuse_n_0", 24, 8, 0},
        {"fuse_p_0", 32, 8, 0},
        {"fuse_p_1", 32, 8, UINT64_C(0x3FF0000000000000)},
        {"fuse_p_nan", 32, 8, UINT64_C(0x7FF8000000000000)},
        {"fuse_keys_over_slots", 40, 8, 0}, /* A + 1, below */
        {"fuse_reserved_11", 11, 1, 1},
        {"fuse_reserved_48", 48, 1, 1},
        {"fuse_reserved_63", 63, 1, 0xFF},
        {"fuse_newer_reader", 4, 2, 0x0404},
        {"fuse_hash_2", 7, 1, 2},
    };
    for (size_t i = 0; i < sizeof fuse_broken / sizeof fuse_broken[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = fuse_broken[i].name;
        if (strcmp(f->name, "fuse_keys_over_slots") == 0) {
            filter_view view = open_filter(&base);
            fuse_header h = fuse_header_of(&view);
            poke(f, 40, fuse_slots(&h) + 1, 8);
        } else if (fuse_broken[i].width > 0) {
            poke(f, fuse_broken[i].offset, fuse_broken[i].value, fuse_broken[i].width);
        } else if (fuse_broken[i].value == 1) {
            f->bytes[f->size++] = 0;
        } else {
            f->size--;
        }
    }
    return count;
}
