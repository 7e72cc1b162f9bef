/*
** gen_corpus_counting.c: the seed filters of the kind of counting (see gen_corpus.h), written to
*fuzz_core
** and given to the other targets.
*/
#include "gen_corpus.h"

#include "filter_kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The counting kind's seeds: the same as the standard kind's, counters at 15 (key 7 added 20
** times), and its own rules on a small valid counting filter. */
size_t counting_seed_filters(filter *filters) {
    size_t count = 0;
    filter base;
    make_filter(&filters[count++], "counting_empty", COUNTING_KIND, 100, 0.01, 0);
    make_filter(&filters[count++], "counting_100_keys", COUNTING_KIND, 100, 0.01, 100);
    make_filter(&filters[count++], "counting_k_63", COUNTING_KIND, 10, 1e-19, 10);
    make_filter(&filters[count], "counting_saturated", COUNTING_KIND, 10, 0.01, 10);
    for (int i = 0; i < 20; i++) {
        filter_add(&counting_kind, filters[count].bytes, key_hash_integer(7));
    }
    count++;
    make_filter(&filters[count], "counting_full", COUNTING_KIND, 10, 0.1, 0);
    memset(filters[count].bytes + FILTER_HEADER_BYTES, 0xFF,
           filters[count].size - FILTER_HEADER_BYTES);
    poke(&filters[count++], 40, 1000, 8);
    make_filter(&filters[count], "counting_keys_max", COUNTING_KIND, 10, 0.01, 10);
    poke(&filters[count++], 40, UINT64_MAX, 8);
    make_filter(&filters[count], "counting_newer_writer_reserved", COUNTING_KIND, 100, 0.01, 50);
    filters[count].bytes[4] = 4; /* format version 4, readable by version 2 */
    filters[count].bytes[13] = 0xAB;
    filters[count++].bytes[63] = 0xCD;
    make_filter(&filters[count], "counting_min_reader_1", COUNTING_KIND, 100, 0.01, 50);
    filters[count++].bytes[5] = 1; /* below the kind's version: refused (section 5) */

    make_filter(&base, "base", COUNTING_KIND, 10, 0.01, 10);
    static const struct {
        const char *name;
        size_t offset;
        int width; /* 0: the length less value */
        uint64_t value;
    } counting_broken[] = {
        {"counting_counter_bits_8", 12, 1, 8},
        {"counting_counter_bits_0", 12, 1, 0},
        {"counting_m_100", 16, 8, 100},
        {"counting_length_of_bits", 0, 0, 0}, /* the body of a standard filter of the same m */
        {"counting_k_65", 8, 4, 65},
        {"counting_n_0", 24, 8, 0},
        {"counting_reserved_13", 13, 1, 1},
        {"counting_reserved_48", 48, 1, 0x80},
        {"counting_newer_reader", 4, 2, 0x0404},
    };
    for (size_t i = 0; i < sizeof counting_broken / sizeof counting_broken[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = counting_broken[i].name;
        if (counting_broken[i].width > 0) {
            poke(f, counting_broken[i].offset, counting_broken[i].value, counting_broken[i].width);
        } else {
            f->size = bloom_blob_bytes(le_m(f));
        }
    }
    filters[count] = base;
    filters[count].name = "counting_p_1";
    poke_p(&filters[count++], 1.0);
    return count;
}
