/*
** gen_corpus_spark.c: the seed filters of Spark's kind (see gen_corpus.h), written to fuzz_core
** and given to the other targets.
*/
#include "gen_corpus.h"

#include "filter_kinds.h"

#include <string.h>

/* Makes f a Spark filter of the version, seed and size (n 0: of words words and k hashes, n
** and p not known), with the INTEGER keys 0 .. keys - 1 added. */
static void make_spark(filter *f, const char *name, int version, uint32_t seed_value, uint64_t n,
                       double p, uint32_t words, uint32_t k, uint64_t keys) {
    spark_header h = {n, n != 0 ? p : 0.0, 0, words, k, seed_value, version};
    double bytes_needed;
    if ((n != 0 && spark_size(n, p, version, &h.words, &h.k, &bytes_needed) != FILTER_OK) ||
        spark_blob_bytes(h.words) > sizeof f->bytes) {
        fuzz_fail("cannot size %s", name);
    }
    f->name = name;
    f->size = (size_t)spark_blob_bytes(h.words);
    memset(f->bytes, 0, f->size);
    spark_write_header(f->bytes, &h);
    for (uint64_t i = 0; i < keys; i++) {
        key_value key = {KEY_TAG_INTEGER, (int64_t)i, 0.0, NULL, 0};
        filter_view view = open_filter(f);
        if (filter_add(&spark_kind, f->bytes, filter_hash_key(&view, &key)) != FILTER_OK) {
            fuzz_fail("%s refuses key %llu", name, (unsigned long long)i);
        }
    }
}

/* The Spark kind's seeds. */
size_t spark_seed_filters(filter *filters) {
    size_t count = 0;
    filter base;
    /* Empty, with keys in both versions, seeds, one word, n and p not known, every bit set, a
    ** newer writer's reserved bytes. */
    make_spark(&filters[count++], "spark_empty", 2, 0, 100, 0.01, 0, 0, 0);
    make_spark(&filters[count++], "spark_100_keys", 2, 0, 100, 0.01, 0, 0, 100);
    make_spark(&filters[count++], "spark_v1_100_keys", 1, 0, 100, 0.01, 0, 0, 100);
    make_spark(&filters[count++], "spark_seed_42", 2, 42, 0, 0, 16, 5, 50);
    make_spark(&filters[count++], "spark_seed_negative", 2, 0x80000000u, 0, 0, 3, 3, 20);
    make_spark(&filters[count++], "spark_one_word", 1, 0, 0, 0, 1, 1, 5);
    make_spark(&filters[count++], "spark_k_33", 2, 0, 30, 1e-10, 0, 0, 30);
    make_spark(&filters[count], "spark_full", 2, 7, 0, 0, 4, 15, 0);
    memset(filters[count].bytes + FILTER_HEADER_BYTES, 0xFF, 32);
    poke(&filters[count++], 24, 1000, 8);
    make_spark(&filters[count], "spark_keys_max", 1, 0, 20, 0.01, 0, 0, 10);
    poke(&filters[count++], 24, UINT64_MAX, 8);
    make_spark(&filters[count], "spark_newer_writer_reserved", 2, 0, 100, 0.01, 0, 0, 50);
    filters[count].bytes[4] = 4; /* format version 4, readable by version 3 */
    filters[count].bytes[45] = 0xAB;
    filters[count++].bytes[63] = 0xCD;
    make_spark(&filters[count], "spark_min_reader_2", 2, 0, 100, 0.01, 0, 0, 50);
    filters[count++].bytes[5] = 2; /* below the kind's version: refused (section 5) */

    /* The kind's own rules, in the order of section 5, on a valid filter of 3 words. */
    make_spark(&base, "base", 2, 9, 0, 0, 3, 4, 10);
    static const struct {
        const char *name;
        size_t offset;
        int width; /* 0: the length plus value */
        uint64_t value;
    } spark_broken[] = {
        {"spark_hash_1", 7, 1, 1},
        {"spark_hash_2", 7, 1, 2},
        {"spark_version_0", 44, 1, 0},
        {"spark_version_3", 44, 1, 3},
        {"spark_k_0", 36, 4, 0},
        {"spark_k_negative", 36, 4, 0x80000000u},
        {"spark_k_past_the_bits", 36, 4, 193},
        {"spark_k_the_bits", 36, 4, 192},
        {"spark_words_0", 32, 4, 0},
        {"spark_words_negative", 32, 4, 0xFFFFFFFF},
        {"spark_words_4", 32, 4, 4},
        {"spark_v1_seed", 44, 1, 1}, /* the base's seed 9 in version 1 */
        {"spark_length_plus_1", 0, 0, 1},
        {"spark_length_plus_8", 0, 0, 8},
        {"spark_n_0", 8, 8, 0},
        {"spark_p_1", 16, 8, UINT64_C(0x3FF0000000000000)},
        {"spark_reserved_45", 45, 1, 1},
        {"spark_reserved_48", 48, 1, 1},
        {"spark_newer_reader", 4, 2, 0x0404},
    };
    for (size_t i = 0; i < sizeof spark_broken / sizeof spark_broken[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = spark_broken[i].name;
        if (spark_broken[i].width > 0) {
            poke(f, spark_broken[i].offset, spark_broken[i].value, spark_broken[i].width);
        } else {
            memset(f->bytes + f->size, 0, spark_broken[i].value);
            f->size += spark_broken[i].value;
        }
    }
    return count;
}
