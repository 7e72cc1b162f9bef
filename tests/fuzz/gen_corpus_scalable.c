/*
** gen_corpus_scalable.c: the seed filters of the kind of scalable (see gen_corpus.h), written to
*fuzz_core
** and given to the other targets.
*/
#include "gen_corpus.h"

#include "filter_kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds the INTEGER key to the scalable filter f, growing it by a stage (as bloom_add does) when
** its last stage is full; aborts if it cannot. */
static void scalable_add_growing(filter *f, int64_t key) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    uint64_t grown;
    if (filter_add(&scalable_kind, f->bytes, key_hash_integer(key)) == FILTER_OK) {
        return;
    }
    if (filter_open(f->bytes, f->size, &view, why) != FILTER_OK ||
        scalable_kind.grow_size(&view, &grown) != FILTER_OK || grown > sizeof f->bytes) {
        fuzz_fail("%s cannot grow", f->name);
    }
    filter_grow(&scalable_kind, f->bytes, f->size, grown);
    f->size = (size_t)grown;
    if (filter_add(&scalable_kind, f->bytes, key_hash_integer(key)) != FILTER_OK) {
        fuzz_fail("%s has no room after growing", f->name);
    }
}

/* Makes f a scalable filter of stages of layout for a first stage of n keys, a compound rate p,
** the given growth and tightening ratio, with the INTEGER keys 0 .. keys - 1 (growing it). */
static void make_scalable(filter *f, const char *name, int layout, uint64_t n, double p, int growth,
                          double tightening, uint64_t keys) {
    scalable_header h;
    bloom_header first;
    double bytes_needed;
    if (scalable_size(n, p, layout, growth, tightening, &h, &first, &bytes_needed) != FILTER_OK ||
        bytes_needed > sizeof f->bytes) {
        fuzz_fail("cannot size %s", name);
    }
    f->name = name;
    f->size = (size_t)bytes_needed;
    memset(f->bytes, 0, f->size);
    scalable_write_header(f->bytes, &h);
    bloom_write_header(f->bytes + FILTER_HEADER_BYTES, &first);
    for (uint64_t key = 0; key < keys; key++) {
        scalable_add_growing(f, (int64_t)key);
    }
}

/* Makes f a scalable filter of stages one-word stages (k = 1, m = 64: validation ties a stage's
** n and p to its place, not its m), for a first stage of n = 1 at p = 0.01, each stage holding
** its capacity, n 2^i: the 64 stages a filter may have, and more keys than any could hold. */
static void make_scalable_one_word_stages(filter *f, const char *name, unsigned stages) {
    scalable_header h;
    bloom_header stage;
    double bytes_needed;
    if (scalable_size(1, 0.01, BLOOM_LAYOUT_STANDARD, SCALABLE_GROWTH, SCALABLE_TIGHTENING, &h,
                      &stage, &bytes_needed) != FILTER_OK) {
        fuzz_fail("cannot size %s", name);
    }
    f->name = name;
    f->size = FILTER_HEADER_BYTES + (size_t)stages * (FILTER_HEADER_BYTES + 8);
    memset(f->bytes, 0, f->size);
    h.stages = (uint8_t)stages;
    h.keys = 0;
    for (unsigned i = 0; i < stages; i++) {
        stage.k = 1;
        stage.m = 64;
        scalable_stage_target(&h, (int)i, &stage.n, &stage.p);
        stage.keys = stage.n;
        h.keys += stage.keys; /* 2^64 - 1 at 64 stages */
        bloom_write_header(f->bytes + FILTER_HEADER_BYTES + i * (FILTER_HEADER_BYTES + 8), &stage);
        f->bytes[2 * FILTER_HEADER_BYTES + i * (FILTER_HEADER_BYTES + 8)] = 0xFF;
    }
    scalable_write_header(f->bytes, &h);
}

/* The m of the Bloom filter header at byte offset of f (a stage of a scalable filter). */
static uint64_t le_m_at(const filter *f, size_t offset) {
    uint64_t m = 0;
    for (int i = 0; i < 8; i++) {
        m |= (uint64_t)f->bytes[offset + 16 + i] << (8 * i);
    }
    return m;
}

/* The scalable kind's seeds. */
size_t scalable_seed_filters(filter *filters) {
    size_t count = 0;
    filter base;
    /* Scalable filters: empty, with keys, the last stage full (the next key grows it), grown to
    ** 3 and 5 stages, blocked stages, another growth and tightening ratio, 63 and 64 one-word
    ** stages (a 64th cannot be sized; no 65th), stages whose capacity reaches 2^64 (2^62, 2^63:
    ** no third), the stages' keys adding up past 2^64 - 1, a newer writer's reserved bytes. */
    make_scalable(&filters[count++], "scalable_empty", BLOOM_LAYOUT_STANDARD, 100, 0.01, 2, 0.8, 0);
    make_scalable(&filters[count++], "scalable_10_keys", BLOOM_LAYOUT_STANDARD, 100, 0.01, 2, 0.8,
                  10);
    make_scalable(&filters[count++], "scalable_full", BLOOM_LAYOUT_STANDARD, 4, 0.01, 2, 0.8, 4);
    make_scalable(&filters[count++], "scalable_3_stages_full", BLOOM_LAYOUT_STANDARD, 1, 0.01, 2,
                  0.8, 7);
    make_scalable(&filters[count++], "scalable_5_stages", BLOOM_LAYOUT_STANDARD, 2, 0.1, 2, 0.8,
                  40);
    make_scalable(&filters[count++], "scalable_blocked_stages", BLOOM_LAYOUT_BLOCKED, 8, 0.01, 2,
                  0.8, 30);
    make_scalable(&filters[count++], "scalable_growth_3_tightening_half", BLOOM_LAYOUT_STANDARD, 2,
                  0.05, 3, 0.5, 12);
    make_scalable_one_word_stages(&filters[count++], "scalable_63_stages", 63);
    make_scalable_one_word_stages(&filters[count++], "scalable_64_stages", 64);
    {
        /* n = 2^62: stage 1 holds 2^63, stage 2 would hold 2^64. Each stage full, of m = 64. */
        filter *f = &filters[count++];
        make_scalable_one_word_stages(f, "scalable_capacity_2_64", 2);
        poke(f, 16, UINT64_C(1) << 62, 8);
        poke(f, 40, (UINT64_C(1) << 62) + (UINT64_C(1) << 63), 8);
        for (int i = 0; i < 2; i++) {
            size_t stage = FILTER_HEADER_BYTES + (size_t)i * (FILTER_HEADER_BYTES + 8);
            poke(f, stage + 24, UINT64_C(1) << (62 + i), 8);
            poke(f, stage + 40, UINT64_C(1) << (62 + i), 8);
        }
    }
    {
        /* n = 3 2^61 full, stage 1 of 3 2^62 keys full: 2^64 + 2^61 in all, 2^61 modulo 2^64
        ** in the header. */
        filter *f = &filters[count++];
        make_scalable_one_word_stages(f, "scalable_keys_past_2_64", 2);
        poke(f, 16, UINT64_C(3) << 61, 8);
        poke(f, 40, UINT64_C(1) << 61, 8);
        filter_view view = {&scalable_kind, 2, 2, 1, f->bytes, f->size};
        scalable_header h = scalable_header_of(&view);
        for (int i = 0; i < 2; i++) {
            size_t stage = FILTER_HEADER_BYTES + (size_t)i * (FILTER_HEADER_BYTES + 8);
            uint64_t n;
            double p;
            scalable_stage_target(&h, i, &n, &p);
            poke(f, stage + 24, n, 8);
            memcpy(f->bytes + stage + 32, &p, sizeof p);
            poke(f, stage + 40, n, 8);
        }
    }
    make_scalable(&filters[count], "scalable_newer_writer_reserved", BLOOM_LAYOUT_STANDARD, 10,
                  0.01, 2, 0.8, 5);
    filters[count].bytes[4] = 4; /* format version 4, readable by version 2 */
    filters[count].bytes[11] = 0xAB;
    filters[count++].bytes[63] = 0xCD;
    make_scalable(&filters[count], "scalable_min_reader_1", BLOOM_LAYOUT_STANDARD, 10, 0.01, 2, 0.8,
                  5);
    filters[count++].bytes[5] = 1; /* below the kind's version: refused (section 5) */

    /* The scalable kind's own rules, in the order of its validation, on a valid filter of two
    ** stages (n = 4, 6 keys: stage 0 of 64 + 8 bytes holds 4, stage 1 2). */
    make_scalable(&base, "base", BLOOM_LAYOUT_STANDARD, 4, 0.01, 2, 0.8, 6);
    const size_t stage_1 = FILTER_HEADER_BYTES + 64 + (size_t)le_m_at(&base, 64) / 8;
    static const struct {
        const char *name;
        size_t offset;
        int width; /* 0: the length plus value (modulo 2^64) */
        uint64_t value;
    } scalable_broken[] = {
        {"scalable_layout_0", 8, 1, 0},
        {"scalable_layout_3", 8, 1, 3},
        {"scalable_growth_1", 9, 1, 1},
        {"scalable_stages_0", 10, 1, 0},
        {"scalable_stages_65", 10, 1, 65},
        {"scalable_tightening_0", 32, 8, 0},
        {"scalable_tightening_1", 32, 8, UINT64_C(0x3FF0000000000000)},
        {"scalable_tightening_nan", 32, 8, UINT64_C(0x7FF8000000000000)},
        {"scalable_n_0", 16, 8, 0},
        {"scalable_p_1", 24, 8, UINT64_C(0x3FF0000000000000)},
        {"scalable_stages_60", 10, 1, 60}, /* fewer bytes than 60 stages take */
        {"scalable_reserved_11", 11, 1, 1},
        {"scalable_reserved_15", 15, 1, 0x80},
        {"scalable_reserved_48", 48, 1, 1},
        {"scalable_newer_reader", 4, 2, 0x0404},
        {"scalable_stage_layout_2", 8, 1, 2}, /* the stages are kind 1 */
        {"scalable_stage_bad_magic", 64, 1, 's'},
        {"scalable_stage_k_0", 64 + 8, 4, 0},
        {"scalable_stage_kind_5", 64 + 6, 1, 5},
        {"scalable_stage_version_4", 64 + 4, 2, 0x0404},
        {"scalable_stage_m_huge", 64 + 16, 8, UINT64_C(1) << 63},
        {"scalable_stage_n_5", 64 + 24, 8, 5},
        {"scalable_stage_p_other", 64 + 32, 1, 0}, /* the low byte of the rate's bits */
        {"scalable_stage_keys_5", 64 + 40, 8, 5},  /* more than its n = 4 */
        {"scalable_stage_1_n_4", 1, 8, 4},         /* stage 1, whose n is 8 */
        {"scalable_keys_7", 40, 8, 7},             /* the stages hold 6 */
        {"scalable_length_plus_1", 0, 0, 1},
        {"scalable_length_minus_8", 0, 0, UINT64_MAX - 7},
    };
    for (size_t i = 0; i < sizeof scalable_broken / sizeof scalable_broken[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = scalable_broken[i].name;
        if (strcmp(f->name, "scalable_stage_1_n_4") == 0) {
            poke(f, stage_1 + 24, 4, 8);
        } else if (strcmp(f->name, "scalable_stage_p_other") == 0) {
            f->bytes[64 + 32] ^= 1;
        } else if (scalable_broken[i].width > 0) {
            poke(f, scalable_broken[i].offset, scalable_broken[i].value, scalable_broken[i].width);
        } else if (scalable_broken[i].value == 1) {
            f->bytes[f->size++] = 0;
        } else {
            f->size -= 8;
        }
    }
    /* Two stages, the first of 184 bytes, cut 10 bytes into the second. */
    make_scalable(&filters[count], "scalable_stage_starts_near_end", BLOOM_LAYOUT_STANDARD, 100,
                  0.01, 2, 0.8, 120);
    filters[count].size = FILTER_HEADER_BYTES + 64 + (size_t)le_m_at(&filters[count], 64) / 8 + 10;
    count++;
    return count;
}
