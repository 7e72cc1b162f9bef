/*
** gen_corpus_countmin.c: the seed filters of the kind of countmin (see gen_corpus.h), written to
*fuzz_core
** and given to the other targets.
*/
#include "gen_corpus.h"

#include "filter_kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds count to the INTEGER key in the count-min sketch f; aborts unless that succeeds. */
static void sketch_add_count(filter *f, int64_t key, uint64_t count) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    filter_io io = filter_io_memory(f->bytes);
    uint64_t estimate;
    if (filter_open(f->bytes, f->size, &view, why) != FILTER_OK ||
        countmin_add_io(&view, &io, key_hash_integer(key), count, &estimate) != FILTER_OK) {
        fuzz_fail("cannot add %llu to %s", (unsigned long long)count, f->name);
    }
}

/* Makes f a count-min sketch for epsilon and delta of the given update with the INTEGER keys
** 0 .. keys - 1, key i counted i + 1 times. */
static void make_countmin(filter *f, const char *name, double epsilon, double delta, int update,
                          uint64_t keys) {
    countmin_header h;
    double bytes_needed;
    if (countmin_size(epsilon, delta, update, &h, &bytes_needed) != FILTER_OK ||
        bytes_needed > sizeof f->bytes) {
        fuzz_fail("cannot size %s", name);
    }
    f->name = name;
    f->size = (size_t)bytes_needed;
    memset(f->bytes, 0, f->size);
    countmin_write_header(f->bytes, &h);
    for (uint64_t key = 0; key < keys; key++) {
        sketch_add_count(f, (int64_t)key, key + 1);
    }
}

/* The count-min kind's seeds. */
size_t countmin_seed_filters(filter *filters) {
    size_t count = 0;
    filter base;
    /* Count-min sketches: empty, with counts, conservative, the total at its largest and one
    ** below, 64 rows, one counter, counters above the total (crafted), a newer writer's
    ** reserved bytes. */
    make_countmin(&filters[count++], "countmin_empty", 0.1, 0.1, COUNTMIN_PLAIN, 0);
    make_countmin(&filters[count++], "countmin_100_keys", 0.1, 0.1, COUNTMIN_PLAIN, 100);
    make_countmin(&filters[count++], "countmin_conservative_100_keys", 0.1, 0.1,
                  COUNTMIN_CONSERVATIVE, 100);
    make_countmin(&filters[count], "countmin_total_max", 0.2, 0.05, COUNTMIN_PLAIN, 0);
    sketch_add_count(&filters[count++], 7, COUNTMIN_TOTAL_MAX);
    make_countmin(&filters[count], "countmin_total_max_less_1", 0.2, 0.05, COUNTMIN_CONSERVATIVE,
                  3);
    sketch_add_count(&filters[count++], 7, COUNTMIN_TOTAL_MAX - 7);
    make_countmin(&filters[count++], "countmin_depth_64", 0.5, 1.7e-28, COUNTMIN_PLAIN, 10);
    make_countmin(&filters[count], "countmin_one_counter", 0.99, 0.5, COUNTMIN_PLAIN, 3);
    poke(&filters[count], 8, 1, 8); /* width 3 cut to 1 (epsilon is not checked against it) */
    filters[count++].size = FILTER_HEADER_BYTES + 8;
    make_countmin(&filters[count], "countmin_counters_above_total", 0.5, 0.3, COUNTMIN_PLAIN, 0);
    memset(filters[count].bytes + FILTER_HEADER_BYTES, 0xFF,
           filters[count].size - FILTER_HEADER_BYTES);
    count++;
    make_countmin(&filters[count], "countmin_newer_writer_reserved", 0.1, 0.1, COUNTMIN_PLAIN, 5);
    filters[count].bytes[4] = 4; /* format version 4, readable by version 2 */
    filters[count].bytes[21] = 0xAB;
    filters[count++].bytes[63] = 0xCD;
    make_countmin(&filters[count], "countmin_min_reader_1", 0.1, 0.1, COUNTMIN_PLAIN, 5);
    filters[count++].bytes[5] = 1;

    /* The count-min kind's own rules, in the order of its validation. */
    make_countmin(&base, "base", 0.5, 0.2, COUNTMIN_PLAIN, 5); /* width 6, depth 2 */
    static const struct {
        const char *name;
        size_t offset;
        int width; /* 0: the length plus value (modulo 2^64) */
        uint64_t value;
    } countmin_broken[] = {
        {"countmin_depth_0", 16, 4, 0},
        {"countmin_depth_65", 16, 4, 65},
        {"countmin_depth_huge", 16, 4, 0xFFFFFFFF},
        {"countmin_depth_3", 16, 4, 3}, /* 3 rows of 6 do not fill it */
        {"countmin_width_0", 8, 8, 0},
        {"countmin_width_7", 8, 8, 7},
        {"countmin_width_2_61", 8, 8, UINT64_C(1) << 61}, /* width times depth wraps past 2^64 */
        {"countmin_length_plus_8", 0, 0, 8},
        {"countmin_length_minus_1", 0, 0, UINT64_MAX},
        {"countmin_update_2", 20, 1, 2},
        {"countmin_epsilon_0", 24, 8, 0},
        {"countmin_epsilon_1", 24, 8, UINT64_C(0x3FF0000000000000)},
        {"countmin_epsilon_nan", 24, 8, UINT64_C(0x7FF8000000000000)},
        {"countmin_delta_0", 32, 8, 0},
        {"countmin_delta_negative", 32, 8, UINT64_C(0xBFE0000000000000)},
        {"countmin_total_2_63", 40, 8, UINT64_C(1) << 63},
        {"countmin_reserved_21", 21, 1, 1},
        {"countmin_reserved_23", 23, 1, 0x80},
        {"countmin_reserved_48", 48, 1, 1},
        {"countmin_newer_reader", 4, 2, 0x0404},
    };
    for (size_t i = 0; i < sizeof countmin_broken / sizeof countmin_broken[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = countmin_broken[i].name;
        if (countmin_broken[i].width > 0) {
            poke(f, countmin_broken[i].offset, countmin_broken[i].value, countmin_broken[i].width);
        } else if (countmin_broken[i].value == 8) {
            memset(f->bytes + f->size, 0, 8);
            f->size += 8;
        } else {
            f->size--;
        }
    }
    return count;
}
