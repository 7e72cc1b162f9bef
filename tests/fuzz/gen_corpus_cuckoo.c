/*
** gen_corpus_cuckoo.c: the seed filters of the kind of cuckoo (see gen_corpus.h), written to
*fuzz_core
** and given to the other targets.
*/
#include "gen_corpus.h"

#include "filter_kinds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes f a cuckoo filter of f_bits-bit fingerprints and the buckets for n keys at rate p
** (0 for either: as cuckoo_size makes it), with the INTEGER keys 0 .. keys - 1, each of which
** must find room. */
static void make_cuckoo(filter *f, const char *name, unsigned f_bits, uint64_t buckets, uint64_t n,
                        double p, uint64_t keys) {
    cuckoo_header h;
    double bytes_needed;
    if (cuckoo_size(n, p, &h, &bytes_needed) != FILTER_OK) {
        fuzz_fail("cannot size %s", name);
    }
    h.fingerprint_bits = f_bits != 0 ? f_bits : h.fingerprint_bits;
    h.buckets = buckets != 0 ? buckets : h.buckets;
    f->name = name;
    f->size = cuckoo_blob_bytes(&h);
    if (f->size > sizeof f->bytes) {
        fuzz_fail("%s is too big", name);
    }
    memset(f->bytes, 0, f->size);
    cuckoo_write_header(f->bytes, &h);
    for (uint64_t key = 0; key < keys; key++) {
        if (filter_add(&cuckoo_kind, f->bytes, key_hash_integer((int64_t)key)) != FILTER_OK) {
            fuzz_fail("no room for key %llu in %s", (unsigned long long)key, name);
        }
    }
}

/* Adds the INTEGER keys from first on to the cuckoo filter f, each that finds room (what a
** failed add wrote is dropped), until one of them finds none (stop_at_first) or until 64
** in a row find none, or the slots in use reach used (0: no such limit). */
static void fill_cuckoo(filter *f, int64_t first, int stop_at_first, uint64_t used) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    uint8_t copy[sizeof f->bytes];
    int failures = 0;
    for (int64_t key = first; failures < (stop_at_first ? 1 : 64); key++) {
        if (filter_open(f->bytes, f->size, &view, why) != FILTER_OK) {
            fuzz_fail("%s: %s", f->name, why);
        }
        if (used != 0 && cuckoo_slots_used(&view) >= used) {
            return;
        }
        memcpy(copy, f->bytes, f->size);
        if (filter_add(&cuckoo_kind, copy, key_hash_integer(key)) == FILTER_OK) {
            memcpy(f->bytes, copy, f->size);
            failures = 0;
        } else {
            failures++;
        }
    }
}

/* Whether adding the INTEGER key to the cuckoo filter f finds no room. */
static int cuckoo_has_no_room(const filter *f, int64_t key) {
    uint8_t copy[sizeof f->bytes];
    memcpy(copy, f->bytes, f->size);
    return filter_add(&cuckoo_kind, copy, key_hash_integer(key)) == FILTER_FULL;
}

/* The B of the cuckoo filter f (where m is in the other kinds' header). */
static uint64_t le_buckets(const filter *f) {
    return le_m(f);
}

/* The cuckoo kind's seeds. */
size_t cuckoo_seed_filters(filter *filters) {
    size_t count = 0;
    filter base;
    /* Cuckoo filters: empty, with keys, nearly full (90 % of the slots), full (no room for 64
    ** keys in a row: key 7 has none either), every slot in use, f = 1 (every fingerprint 1), f
    ** = 32, one bucket (4 keys: full), the count of keys at its maximum, bits after the last
    ** slot set, and a newer writer's reserved bytes. */
    make_cuckoo(&filters[count++], "cuckoo_empty", 0, 0, 100, 0.01, 0);
    make_cuckoo(&filters[count++], "cuckoo_100_keys", 0, 0, 100, 0.01, 100);
    make_cuckoo(&filters[count], "cuckoo_nearly_full", 0, 0, 100, 0.01, 0);
    fill_cuckoo(&filters[count], 0, 0, 4 * le_buckets(&filters[count]) * 9 / 10);
    count++;
    make_cuckoo(&filters[count], "cuckoo_full", 0, 0, 100, 0.01, 0);
    fill_cuckoo(&filters[count], 0, 0, 0);
    if (!cuckoo_has_no_room(&filters[count++], 7)) {
        fuzz_fail("cuckoo_full has room for key 7");
    }
    make_cuckoo(&filters[count], "cuckoo_all_slots", 0, 0, 10, 0.01, 0);
    memset(filters[count].bytes + FILTER_HEADER_BYTES, 0xFF,
           filters[count].size - FILTER_HEADER_BYTES);
    poke(&filters[count], 40, 4 * le_buckets(&filters[count]), 8);
    count++;
    make_cuckoo(&filters[count++], "cuckoo_f_1", 1, 16, 10, 0.5, 10);
    make_cuckoo(&filters[count++], "cuckoo_f_32", 0, 0, 10, 2e-9, 10);
    make_cuckoo(&filters[count++], "cuckoo_b_1", 8, 1, 1, 0.01, 4);
    make_cuckoo(&filters[count], "cuckoo_keys_max", 0, 0, 10, 0.01, 5);
    poke(&filters[count], 40, 4 * le_buckets(&filters[count]), 8);
    count++;
    make_cuckoo(&filters[count], "cuckoo_bits_after_slots", 5, 3, 10, 0.5, 3);
    filters[count].bytes[filters[count].size - 1] |= 0xF0; /* 60 bits of slots in 8 bytes */
    count++;
    make_cuckoo(&filters[count], "cuckoo_newer_writer_reserved", 0, 0, 100, 0.01, 50);
    filters[count].bytes[4] = 4; /* format version 4, readable by version 2 */
    filters[count].bytes[10] = 0xAB;
    filters[count++].bytes[63] = 0xCD;
    make_cuckoo(&filters[count], "cuckoo_min_reader_1", 0, 0, 100, 0.01, 50);
    filters[count++].bytes[5] = 1; /* below the kind's version: refused (section 5) */
    make_filter(&filters[count], "kind_4_counting_header", COUNTING_KIND, 10, 0.01, 10);
    filters[count].name = "kind_4_counting_header"; /* a counting filter's, as kind 4 */
    filters[count++].bytes[6] = CUCKOO_KIND;

    /* The cuckoo kind's own rules, in the order of section 5, on a small valid one. */
    make_cuckoo(&base, "base", 0, 0, 10, 0.01, 10);
    static const struct {
        const char *name;
        size_t offset;
        int width; /* 0: the length plus value (modulo 2^64) */
        uint64_t value;
    } cuckoo_broken[] = {
        {"cuckoo_f_0", 8, 1, 0},
        {"cuckoo_f_33", 8, 1, 33},
        {"cuckoo_slots_8", 9, 1, 8},
        {"cuckoo_slots_0", 9, 1, 0},
        {"cuckoo_buckets_0", 16, 8, 0},
        {"cuckoo_buckets_max", 16, 8, UINT64_MAX},         /* the length does not fit */
        {"cuckoo_buckets_2_60", 16, 8, UINT64_C(1) << 60}, /* 32-bit fingerprints: nor here */
        {"cuckoo_buckets_7", 16, 8, 7},
        {"cuckoo_length_plus_1", 0, 0, 1},
        {"cuckoo_length_minus_1", 0, 0, UINT64_MAX},
        {"cuckoo_n_0", 24, 8, 0},
        {"cuckoo_keys_over_slots", 40, 8, 0}, /* 4 B + 1, below */
        {"cuckoo_reserved_10", 10, 1, 1},
        {"cuckoo_reserved_15", 15, 1, 0x80},
        {"cuckoo_reserved_48", 48, 1, 1},
        {"cuckoo_reserved_63", 63, 1, 0xFF},
        {"cuckoo_newer_reader", 4, 2, 0x0404},
    };
    for (size_t i = 0; i < sizeof cuckoo_broken / sizeof cuckoo_broken[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = cuckoo_broken[i].name;
        if (strcmp(f->name, "cuckoo_keys_over_slots") == 0) {
            poke(f, 40, 4 * le_buckets(f) + 1, 8);
        } else if (strcmp(f->name, "cuckoo_buckets_2_60") == 0) {
            poke(f, 8, 32, 1);
            poke(f, 16, cuckoo_broken[i].value, 8);
        } else if (cuckoo_broken[i].width > 0) {
            poke(f, cuckoo_broken[i].offset, cuckoo_broken[i].value, cuckoo_broken[i].width);
        } else if (cuckoo_broken[i].value == 1) {
            f->bytes[f->size++] = 0;
        } else {
            f->size--;
        }
    }
    static const struct {
        const char *name;
        double p;
    } cuckoo_bad_rates[] = {{"cuckoo_p_0", 0.0}, {"cuckoo_p_2", 2.0}, {"cuckoo_p_nan", NAN}};
    for (size_t i = 0; i < sizeof cuckoo_bad_rates / sizeof cuckoo_bad_rates[0]; i++) {
        filter *f = &filters[count++];
        *f = base;
        f->name = cuckoo_bad_rates[i].name;
        poke_p(f, cuckoo_bad_rates[i].p);
    }
    return count;
}
