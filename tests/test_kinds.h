/*
** test_kinds.h: what the test and benchmark programs know of each kind beyond
** its entry in the table of kinds (ext/kinds/filter_kinds.h): how SQL and the core
** build one, what its measured false-positive rate is held to, what stands
** for its k, the slack a benchmark gives it. One row a kind, at the index of
** its id less 1, as in the table of kinds: a program loops over
** filter_kind_at(i) and takes test_kind_of(kind). A new kind adds its row.
*/
#ifndef BLOOM_TEST_KINDS_H
#define BLOOM_TEST_KINDS_H

#include "filter_kinds.h"
#include "kind_list.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The SQL aggregate that builds a filter of a kind. */
typedef enum test_builder {
    BUILT_BY_BLOOM_BUILD, /* bloom_build(key, n, p, 'name'); its empty one bloom_build(NULL, ...) */
    BUILT_BY_CMS_BUILD    /* not bloom_build: cms_build(key [, count], epsilon, delta [, update]) */
} test_builder;

/* What the measured false-positive rate of a filter for n keys at p, holding them, is held to. */
typedef enum test_rate {
    RATE_NEAR_P,    /* p, within a few standard deviations */
    RATE_AT_MOST_P, /* at most p: it is sized to stay below (whole fingerprint bits, stages at
                    ** rates that add up to p) */
    RATE_UNMEASURED /* none: a sketch estimates counts, not membership at p */
} test_rate;

/* A kind's row: a field left out is 0. */
typedef struct test_kind {
    test_builder builder;
    int sized_at_end; /* bloom_build(key, NULL, p, 'name') builds it: its repeats do not count */
    test_rate rate;
    const char *k_field;      /* of a kind whose rate is measured: the bloom_info field that
                              ** stands for k, as a JSON path */
    int insert_slack_percent; /* a benchmark that inserts n keys later builds it for that much
                              ** more than n, so that they find room (it refuses keys when full) */
    int bloom_layout;         /* 1: a layout of bloom_core, built by bloom_size and bloom_set and
                              ** the layout a scalable filter's stages may have */
    int held_to_floors;       /* 1: a kind whose probe and build have goals against the floors
                              ** of the benchmark (a Bloom filter of another system's: Spark's),
                              ** which sets it beside the layouts of a Bloom filter */
    const char *own_floor;    /* of a kind whose format fixes another hash than XXH3: the
                              ** benchmark's floor and hashagg that hash as it must (NULL: floor
                              ** and hashagg) */
    const char *own_hashagg;
    /* An empty filter of it for n keys at p, through the core, as bloom_build writes it (a
    ** sketch: a conservative one of epsilon p / 10 and delta p, as cms_build writes it); from
    ** calloc, NULL if it cannot be made; its length into *bytes. */
    uint8_t *(*make_empty)(uint64_t n, double p, uint64_t *bytes);
    /* Of a kind that cannot add (filter_kind_can(kind, FILTER_ADDS) is 0: a static kind, built
    ** once from all its keys), its filter of the keys keys[0 .. count) (hashed by its kind's
    ** key hash; in any order, repeats allowed) for n at p, through the core, as
    ** bloom_build(key, n, p, 'name') writes it; n 0 sizes it at the end, as n NULL does. From
    ** calloc, NULL if it cannot be made; its length into *bytes. 0 for a kind that adds: its
    ** filter is make_empty's, then filter_add for each key. */
    uint8_t *(*make_built)(const key_hash *keys, uint64_t count, uint64_t n, double p,
                           uint64_t *bytes);
} test_kind;

/* A zeroed BLOB of bytes_needed bytes, from calloc; its length into *bytes. */
static uint8_t *test_zeroed(double bytes_needed, uint64_t *bytes) {
    *bytes = (uint64_t)bytes_needed;
    return calloc(*bytes, 1);
}

/* make_empty of a Bloom layout. */
static uint8_t *test_empty_bloom(int layout, uint64_t n, double p, uint64_t *bytes) {
    bloom_header h;
    double bytes_needed;
    uint8_t *blob = bloom_size(n, p, layout, &h, &bytes_needed) == FILTER_OK
                        ? test_zeroed(bytes_needed, bytes)
                        : NULL;
    if (blob != NULL) {
        bloom_write_header(blob, &h);
    }
    return blob;
}

static uint8_t *test_empty_standard(uint64_t n, double p, uint64_t *bytes) {
    return test_empty_bloom(BLOOM_LAYOUT_STANDARD, n, p, bytes);
}

static uint8_t *test_empty_blocked(uint64_t n, double p, uint64_t *bytes) {
    return test_empty_bloom(BLOOM_LAYOUT_BLOCKED, n, p, bytes);
}

/* make_empty of the counting kind: a standard filter's sizing, a counter for each bit. */
static uint8_t *test_empty_counting(uint64_t n, double p, uint64_t *bytes) {
    bloom_header h;
    double bytes_needed;
    uint8_t *blob = bloom_size(n, p, BLOOM_LAYOUT_STANDARD, &h, &bytes_needed) == FILTER_OK
                        ? test_zeroed((double)counting_blob_bytes(h.m), bytes)
                        : NULL;
    if (blob != NULL) {
        h.layout = COUNTING_KIND;
        counting_write_header(blob, &h);
    }
    return blob;
}

static uint8_t *test_empty_cuckoo(uint64_t n, double p, uint64_t *bytes) {
    cuckoo_header h;
    double bytes_needed;
    uint8_t *blob =
        cuckoo_size(n, p, &h, &bytes_needed) == FILTER_OK ? test_zeroed(bytes_needed, bytes) : NULL;
    if (blob != NULL) {
        cuckoo_write_header(blob, &h);
    }
    return blob;
}

/* make_empty of the scalable kind: one stage of the standard layout, the shipping ratios. */
static uint8_t *test_empty_scalable(uint64_t n, double p, uint64_t *bytes) {
    scalable_header h;
    bloom_header first;
    double bytes_needed;
    uint8_t *blob = scalable_size(n, p, BLOOM_LAYOUT_STANDARD, SCALABLE_GROWTH, SCALABLE_TIGHTENING,
                                  &h, &first, &bytes_needed) == FILTER_OK
                        ? test_zeroed(bytes_needed, bytes)
                        : NULL;
    if (blob != NULL) {
        scalable_write_header(blob, &h);
        bloom_write_header(blob + FILTER_HEADER_BYTES, &first);
    }
    return blob;
}

static uint8_t *test_empty_countmin(uint64_t n, double p, uint64_t *bytes) {
    countmin_header h;
    double bytes_needed;
    (void)n; /* a sketch is sized by its error, not its keys */
    uint8_t *blob = countmin_size(p / 10, p, COUNTMIN_CONSERVATIVE, &h, &bytes_needed) == FILTER_OK
                        ? test_zeroed(bytes_needed, bytes)
                        : NULL;
    if (blob != NULL) {
        countmin_write_header(blob, &h);
    }
    return blob;
}

static uint8_t *test_empty_parquet(uint64_t n, double p, uint64_t *bytes) {
    parquet_header h = {n, p, 0, 0, 0, PARQUET_UNTYPED};
    double bytes_needed;
    uint8_t *blob = parquet_size(n, p, &h.blocks, &bytes_needed) == FILTER_OK
                        ? test_zeroed(bytes_needed, bytes)
                        : NULL;
    if (blob != NULL) {
        parquet_write_header(blob, &h);
    }
    return blob;
}

/* make_empty of the binary fuse kind: a filter of no keys, which a static kind's build of no
** keys gives (it is probed, never added to). */
static uint8_t *test_empty_fuse(uint64_t n, double p, uint64_t *bytes) {
    fuse_header h;
    double bytes_needed;
    uint8_t *blob = fuse_size(0, n, p, &h, &bytes_needed) == FILTER_OK
                        ? test_zeroed(bytes_needed, bytes)
                        : NULL;
    if (blob != NULL) {
        fuse_write_header(blob, &h);
    }
    return blob;
}

/* make_built of the binary fuse kind: the keys' h1 made distinct, the filter sized for them and
** built with scratch from malloc, as ext/sql/fuse_sql.c builds it. */
static uint8_t *test_built_fuse(const key_hash *keys, uint64_t count, uint64_t n, double p,
                                uint64_t *bytes) {
    uint64_t *h1 = malloc((count > 0 ? count : 1) * sizeof *h1);
    uint64_t *buffer = malloc((count > 0 ? count : 1) * sizeof *buffer);
    uint8_t *blob = NULL;
    fuse_header h;
    double bytes_needed;
    for (uint64_t i = 0; h1 != NULL && i < count; i++) {
        h1[i] = keys[i].h1;
    }
    uint64_t distinct = h1 != NULL && buffer != NULL ? fuse_distinct_keys(h1, count, buffer) : 0;
    if (h1 != NULL && buffer != NULL &&
        fuse_size(distinct, n > 0 ? n : (distinct > 0 ? distinct : 1), p, &h, &bytes_needed) ==
            FILTER_OK &&
        (blob = test_zeroed(bytes_needed, bytes)) != NULL) {
        uint64_t slots = fuse_slots(&h);
        fuse_scratch scratch = {malloc(slots * sizeof(uint64_t)), malloc(slots * sizeof(uint32_t)),
                                malloc(slots)};
        if (scratch.hashes == NULL || scratch.order == NULL || scratch.counts == NULL ||
            fuse_build(blob, &h, distinct > 0 ? h1 : NULL, &scratch) != FILTER_OK) {
            free(blob);
            blob = NULL;
        }
        free(scratch.hashes);
        free(scratch.order);
        free(scratch.counts);
    }
    free(h1);
    free(buffer);
    return blob;
}

/* make_empty of the Spark kind: version 2, seed 0, as Spark's BloomFilter.create(n, p). */
static uint8_t *test_empty_spark(uint64_t n, double p, uint64_t *bytes) {
    spark_header h = {n, p, 0, 0, 0, 0, 2};
    double bytes_needed;
    uint8_t *blob = spark_size(n, p, 2, &h.words, &h.k, &bytes_needed) == FILTER_OK
                        ? test_zeroed(bytes_needed, bytes)
                        : NULL;
    if (blob != NULL) {
        spark_write_header(blob, &h);
    }
    return blob;
}

static const test_kind test_kinds[] = {
    [BLOOM_LAYOUT_STANDARD - 1] = {.builder = BUILT_BY_BLOOM_BUILD,
                                   .sized_at_end = 1,
                                   .rate = RATE_NEAR_P,
                                   .k_field = "k",
                                   .bloom_layout = 1,
                                   .make_empty = test_empty_standard},
    [BLOOM_LAYOUT_BLOCKED - 1] = {.builder = BUILT_BY_BLOOM_BUILD,
                                  .sized_at_end = 1,
                                  .rate = RATE_NEAR_P,
                                  .k_field = "k",
                                  .bloom_layout = 1,
                                  .make_empty = test_empty_blocked},
    [COUNTING_KIND - 1] = {.builder = BUILT_BY_BLOOM_BUILD,
                           .rate = RATE_NEAR_P,
                           .k_field = "k",
                           .make_empty = test_empty_counting},
    [CUCKOO_KIND - 1] = {.builder = BUILT_BY_BLOOM_BUILD,
                         .rate = RATE_AT_MOST_P,
                         .k_field = "fingerprint_bits",
                         .insert_slack_percent = 10,
                         .make_empty = test_empty_cuckoo},
    [SCALABLE_KIND - 1] = {.builder = BUILT_BY_BLOOM_BUILD,
                           .sized_at_end = 1,
                           .rate = RATE_AT_MOST_P,
                           .k_field = "stages[0].k",
                           .make_empty = test_empty_scalable},
    [COUNTMIN_KIND - 1] = {.builder = BUILT_BY_CMS_BUILD,
                           .rate = RATE_UNMEASURED,
                           .make_empty = test_empty_countmin},
    [PARQUET_KIND - 1] = {.builder = BUILT_BY_BLOOM_BUILD,
                          .sized_at_end = 1,
                          .rate = RATE_AT_MOST_P,
                          .k_field = "k",
                          .make_empty = test_empty_parquet},
    [FUSE_KIND - 1] = {.builder = BUILT_BY_BLOOM_BUILD,
                       .sized_at_end = 1,
                       .rate = RATE_AT_MOST_P,
                       .k_field = "fingerprint_bits",
                       .make_empty = test_empty_fuse,
                       .make_built = test_built_fuse},
    [SPARK_KIND - 1] = {.builder = BUILT_BY_BLOOM_BUILD,
                        .sized_at_end = 1,
                        .rate = RATE_NEAR_P,
                        .k_field = "k",
                        .held_to_floors = 1,
                        .own_floor = "floor_spark",
                        .own_hashagg = "hashagg_spark",
                        .make_empty = test_empty_spark},
};
_Static_assert(sizeof test_kinds / sizeof test_kinds[0] == FILTER_KIND_COUNT,
               "tests/test_kinds.h needs a row for every kind of kind_list.h");

/* A key expression of the programs, whose keys mix SQL's four types, as kind takes it: itself,
** or, for a kind whose filters hold the values of one type (value_type: a Parquet column's), the
** key as TEXT that keeps its type apart, typeof(k) || ':' || k, so that distinct keys stay
** distinct. Written to buf (size bytes); buf. */
static inline const char *test_kind_key(const filter_kind *kind, const char *expr, char *buf,
                                        size_t size) {
    if (kind->value_type == NULL) {
        snprintf(buf, size, "%s", expr);
    } else {
        snprintf(buf, size, "(typeof(%s) || ':' || (%s))", expr, expr);
    }
    return buf;
}

/* The row of kind, an entry of the table of kinds. */
static inline const test_kind *test_kind_of(const filter_kind *kind) {
    return &test_kinds[kind->id - 1];
}

/* The n a test builds a filter of kind with to hold keys keys: keys, but a twentieth of them
** for a kind that grows, so that it grows as they are added (a scalable filter, to 5 stages). */
static inline uint64_t test_capacity(const filter_kind *kind, uint64_t keys) {
    return filter_kind_can(kind, FILTER_GROWS) ? keys / 20 : keys;
}

#endif /* BLOOM_TEST_KINDS_H */
