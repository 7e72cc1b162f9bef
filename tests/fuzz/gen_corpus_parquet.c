/*
** gen_corpus_parquet.c: the seed filters of the kind of parquet (see gen_corpus.h), written to
*fuzz_core
** and given to the other targets.
*/
#include "gen_corpus.h"

#include "filter_kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes f a Parquet filter of the physical type (PARQUET_UNTYPED: its first key's) and type
** length, for n keys at rate p (n 0: of blocks blocks, n and p not known), with the keys 0 ..
** keys - 1 added: INTEGERs, or for a type of bytes the TEXTs "key 00000000" (12 bytes; without
** the leading zeros for a FIXED_LEN_BYTE_ARRAY of any length). */
static void make_parquet(filter *f, const char *name, uint64_t n, double p, int type,
                         uint32_t type_length, uint32_t blocks, uint64_t keys) {
    parquet_header h = {n, n != 0 ? p : 0.0, 0, blocks, type_length, (parquet_type)type};
    double bytes_needed;
    if ((n != 0 && parquet_size(n, p, &h.blocks, &bytes_needed) != FILTER_OK) ||
        parquet_blob_bytes(h.blocks) > sizeof f->bytes) {
        fuzz_fail("cannot size %s", name);
    }
    f->name = name;
    f->size = (size_t)parquet_blob_bytes(h.blocks);
    memset(f->bytes, 0, f->size);
    parquet_write_header(f->bytes, &h);
    for (uint64_t i = 0; i < keys; i++) {
        char text[32];
        int bytes_type = type == PARQUET_INT96 || type == PARQUET_BYTE_ARRAY ||
                         type == PARQUET_FIXED_LEN_BYTE_ARRAY;
        int length = snprintf(
            text, sizeof text,
            type_length == 0 && type != PARQUET_INT96 && type != PARQUET_BYTE_ARRAY ? "key %llu"
                                                                                    : "key %08llu",
            (unsigned long long)i);
        key_value key = {KEY_TAG_INTEGER, (int64_t)i, 0.0, NULL, 0};
        if (bytes_type) {
            key = (key_value){KEY_TAG_TEXT, 0, 0.0, text, (size_t)length};
        }
        filter_view view = open_filter(f);
        if (filter_add(&parquet_kind, f->bytes, filter_hash_key(&view, &key)) != FILTER_OK) {
            fuzz_fail("%s refuses key %llu", name, (unsigned long long)i);
        }
    }
}

/* The Parquet kind's seeds. */
size_t parquet_seed_filters(filter *filters) {
    size_t count = 0;
    filter base;
    /* Parquet filters: empty (no type), with keys of each physical type (the first key's, INT64;
    ** FLOAT and DOUBLE with the key 0, both zeros), n and p not known, every bit set, the count
    ** of keys at its maximum, a zero rate of sign bit set, a newer writer's reserved bytes. */
    make_parquet(&filters[count++], "parquet_empty", 100, 0.01, PARQUET_UNTYPED, 0, 0, 0);
    make_parquet(&filters[count++], "parquet_100_keys", 100, 0.01, PARQUET_UNTYPED, 0, 0, 100);
    make_parquet(&filters[count++], "parquet_int32", 50, 0.01, PARQUET_INT32, 0, 0, 50);
    make_parquet(&filters[count++], "parquet_float", 50, 0.05, PARQUET_FLOAT, 0, 0, 50);
    make_parquet(&filters[count++], "parquet_double", 50, 0.01, PARQUET_DOUBLE, 0, 0, 50);
    make_parquet(&filters[count++], "parquet_byte_array", 50, 0.01, PARQUET_BYTE_ARRAY, 0, 0, 50);
    make_parquet(&filters[count++], "parquet_fixed_len_12", 50, 0.01, PARQUET_FIXED_LEN_BYTE_ARRAY,
                 12, 0, 30);
    make_parquet(&filters[count++], "parquet_fixed_len_any", 20, 0.01, PARQUET_FIXED_LEN_BYTE_ARRAY,
                 0, 0, 10);
    make_parquet(&filters[count++], "parquet_int96", 20, 0.01, PARQUET_INT96, 0, 0, 10);
    make_parquet(&filters[count++], "parquet_n_p_not_known", 0, 0, PARQUET_INT64, 0, 4, 20);
    make_parquet(&filters[count++], "parquet_double_5_blocks", 0, 0, PARQUET_DOUBLE, 0, 5, 10);
    make_parquet(&filters[count], "parquet_full", 1, 0.5, PARQUET_INT64, 0, 0, 0);
    memset(filters[count].bytes + FILTER_HEADER_BYTES, 0xFF,
           filters[count].size - FILTER_HEADER_BYTES);
    poke(&filters[count++], 24, 1000, 8);
    make_parquet(&filters[count], "parquet_keys_max", 20, 0.01, PARQUET_INT64, 0, 0, 10);
    poke(&filters[count++], 24, UINT64_MAX, 8);
    make_parquet(&filters[count], "parquet_p_negative_zero", 0, 0, PARQUET_DOUBLE, 0, 2, 5);
    poke(&filters[count++], 16, UINT64_C(0x8000000000000000), 8);
    make_parquet(&filters[count], "parquet_newer_writer_reserved", 100, 0.01, PARQUET_INT64, 0, 0,
                 50);
    filters[count].bytes[4] = 4; /* format version 4, readable by version 2 */
    filters[count].bytes[41] = 0xAB;
    filters[count++].bytes[63] = 0xCD;
    make_parquet(&filters[count], "parquet_min_reader_1", 100, 0.01, PARQUET_INT64, 0, 0, 50);
    filters[count++].bytes[5] = 1; /* below the kind's version: refused (section 5) */
    make_parquet(&filters[count], "parquet_type_fixed_len_16", 20, 0.01, PARQUET_UNTYPED, 0, 0, 0);
    poke(&filters[count], 36, 16, 4);
    poke(&filters[count++], 40, PARQUET_FIXED_LEN_BYTE_ARRAY, 1);

    /* The Parquet kind's own rules, in the order of section 5 (the key hash of the kind first),
    ** on a valid filter of one block. */
    make_parquet(&base, "base", 20, 0.01, PARQUET_INT64, 0, 0, 10);
    static const struct {
        const char *name;
        size_t offset;
        int width; /* 0: the length plus value */
        uint64_t value;
    } parquet_broken[] = {
        {"parquet_hash_1", 7, 1, 1},
        {"parquet_hash_3", 7, 1, 3},
        {"parquet_kind_1", 6, 1, BLOOM_LAYOUT_STANDARD}, /* kind 1 of hash 2 */
        {"parquet_blocks_0", 32, 4, 0},
        {"parquet_blocks_2", 32, 4, 2},
        {"parquet_blocks_max_plus_1", 32, 4, PARQUET_BLOCKS_MAX + 1},
        {"parquet_blocks_huge", 32, 4, 0xFFFFFFFF},
        {"parquet_length_plus_1", 0, 0, 1},
        {"parquet_length_plus_32", 0, 0, 32},
        {"parquet_type_8", 40, 1, 8},
        {"parquet_type_255", 40, 1, 255},
        {"parquet_int64_type_length_4", 36, 4, 4},
        {"parquet_untyped_type_length_4", 36, 4, 4}, /* and the type 0, below */
        {"parquet_n_0", 8, 8, 0},
        {"parquet_p_0", 16, 8, 0},
        {"parquet_p_1", 16, 8, UINT64_C(0x3FF0000000000000)},
        {"parquet_p_nan", 16, 8, UINT64_C(0x7FF8000000000000)},
        {"parquet_n_p_0", 8, 16, 0}, /* valid: n and p not known */
        {"parquet_reserved_41", 41, 1, 1},
        {"parquet_reserved_47", 47, 1, 0x80},
        {"parquet_reserved_48", 48, 1, 1},
        {"parquet_reserved_63", 63, 1, 0xFF},
        {"parquet_newer_reader", 4, 2, 0x0404},
    };
    for (size_t i = 0; i < sizeof parquet_broken / sizeof parquet_broken[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = parquet_broken[i].name;
        if (parquet_broken[i].width == 16) {
            poke(f, parquet_broken[i].offset, 0, 8);
            poke(f, parquet_broken[i].offset + 8, 0, 8);
        } else if (parquet_broken[i].width > 0) {
            poke(f, parquet_broken[i].offset, parquet_broken[i].value, parquet_broken[i].width);
        } else {
            memset(f->bytes + f->size, 0, parquet_broken[i].value);
            f->size += parquet_broken[i].value;
        }
        if (strcmp(f->name, "parquet_untyped_type_length_4") == 0) {
            f->bytes[40] = PARQUET_UNTYPED;
        }
    }
    return count;
}
