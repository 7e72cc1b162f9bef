/*
** gen_corpus_bloom.c: the seed filters of the kinds of bloom (see gen_corpus.h), written to
*fuzz_core
** and given to the other targets.
*/
#include "gen_corpus.h"

#include "filter_kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The standard kind's seeds, and those that break each rule of the container (docs/format.md,
** section 5) on a small valid standard filter. */
size_t bloom_standard_seed_filters(filter *filters) {
    size_t count = 0;
    filter base;
    make_filter(&filters[count++], "standard_empty", BLOOM_LAYOUT_STANDARD, 100, 0.01, 0);
    make_filter(&filters[count++], "standard_100_keys", BLOOM_LAYOUT_STANDARD, 100, 0.01, 100);
    make_filter(&filters[count++], "standard_k_63", BLOOM_LAYOUT_STANDARD, 10, 1e-19, 10);
    make_filter(&filters[count], "standard_full", BLOOM_LAYOUT_STANDARD, 10, 0.1, 0);
    memset(filters[count].bytes + FILTER_HEADER_BYTES, 0xFF,
           filters[count].size - FILTER_HEADER_BYTES);
    poke(&filters[count++], 40, 1000, 8);
    make_filter(&filters[count], "keys_added_max", BLOOM_LAYOUT_STANDARD, 10, 0.01, 10);
    poke(&filters[count++], 40, UINT64_MAX, 8);
    make_filter(&filters[count], "newer_writer_reserved", BLOOM_LAYOUT_STANDARD, 100, 0.01, 50);
    filters[count].bytes[4] = 4; /* format version 4, readable by version 1 */
    filters[count].bytes[12] = 0xAB;
    filters[count++].bytes[63] = 0xCD;
    make_filter(&filters[count], "standard_min_reader_2", BLOOM_LAYOUT_STANDARD, 100, 0.01, 50);
    poke(&filters[count++], 4, 0x0202, 2); /* a newer writer may require more */

    /* One broken rule each, on a small valid filter. */
    make_filter(&base, "base", BLOOM_LAYOUT_STANDARD, 10, 0.01, 10);
    static const struct {
        const char *name;
        size_t offset; /* field to overwrite */
        int width;     /* its width in bytes; 0 for a change of length to value */
        uint64_t value;
    } broken[] = {
        {"too_short_0", 0, 0, 0},
        {"too_short_1", 0, 0, 1},
        {"too_short_63", 0, 0, 63},
        {"bad_magic", 0, 1, 's'},
        {"version_0", 4, 1, 0},
        {"min_reader_0", 5, 1, 0},
        {"newer_reader", 4, 2, 0x0404},
        {"layout_0", 6, 1, 0},
        {"kind_9", 6, 1, 9},
        {"kind_3_bloom_header", 6, 1, COUNTING_KIND},
        {"hash_9", 7, 1, 9},
        {"hash_2", 7, 1, 2}, /* the Parquet kind's, not kind 1's */
        {"k_0", 8, 4, 0},
        {"k_65", 8, 4, 65},
        {"k_huge", 8, 4, 0xFFFFFFFF},
        {"m_0", 16, 8, 0},
        {"m_193", 16, 8, 193},
        {"m_huge", 16, 8, UINT64_C(0x8000000000000000)},
        {"m_max", 16, 8, UINT64_MAX - 63},
        {"length_plus_1", 0, 0, 1},
        {"length_minus_8", 0, 0, 8},
        {"blocked_m_not_512", 6, 1, BLOOM_LAYOUT_BLOCKED},
        {"n_0", 24, 8, 0},
        {"reserved_12", 12, 1, 1},
        {"reserved_15", 15, 1, 0x80},
        {"reserved_48", 48, 1, 1},
        {"reserved_63", 63, 1, 0xFF},
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = broken[i].name;
        if (broken[i].width > 0) {
            poke(f, broken[i].offset, broken[i].value, broken[i].width);
        } else if (strncmp(f->name, "too_short", 9) == 0) {
            f->size = broken[i].value;
        } else if (strcmp(f->name, "length_plus_1") == 0) {
            f->bytes[f->size++] = 0;
        } else {
            f->size -= broken[i].value;
        }
    }
    static const struct {
        const char *name;
        double p;
    } bad_rates[] = {{"p_0", 0.0},
                     {"p_1", 1.0},
                     {"p_negative", -0.01},
                     {"p_nan", NAN},
                     {"p_infinite", INFINITY}};
    for (size_t i = 0; i < sizeof bad_rates / sizeof bad_rates[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = bad_rates[i].name;
        poke_p(f, bad_rates[i].p);
    }
    filters[count] = filters[1]; /* standard_100_keys's bytes as kind 8 of format version 2 */
    filters[count].name = "kind_8_bloom_header";
    poke(&filters[count++], 4, 0x080202, 3);

    filters[count] = filters[1]; /* standard_100_keys's bytes as kind 7, hash 2 */
    filters[count].name = "kind_7_bloom_header";
    poke(&filters[count], 6, 0x0207, 2);
    count++;
    return count;
}

/* The blocked kind's seeds. */
size_t bloom_blocked_seed_filters(filter *filters) {
    size_t count = 0;
    make_filter(&filters[count++], "blocked_empty", BLOOM_LAYOUT_BLOCKED, 100, 0.01, 0);
    make_filter(&filters[count++], "blocked_100_keys", BLOOM_LAYOUT_BLOCKED, 100, 0.01, 100);
    make_filter(&filters[count++], "blocked_p_1e-19", BLOOM_LAYOUT_BLOCKED, 10, 1e-19, 10);
    make_filter(&filters[count++], "blocked_p_half", BLOOM_LAYOUT_BLOCKED, 50, 0.5, 50);
    return count;
}
