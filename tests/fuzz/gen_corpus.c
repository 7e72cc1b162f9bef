/*
** gen_corpus.c: writes the seed corpora of the fuzz targets.
**
** Usage: gen_corpus DIR, where DIR holds the directories fuzz_core, fuzz_sql, fuzz_roundtrip,
** fuzz_live, fuzz_shadow, fuzz_parquet_footer and fuzz_wasm_reader. check_corpus.cmake runs it
** to check (or update) the committed corpus/: every file there is written by this program,
** nothing is edited by hand. A corpus written by a file of its own is named in gen_corpus.h.
**
** fuzz_core gets filter BLOBs: valid ones of every kind (empty, with keys,
** full, at k's cap, of a newer writer; counting filters with saturated
** counters; cuckoo filters nearly full, full, with 1- and 32-bit fingerprints
** and one bucket; binary fuse filters built as bloom_build builds them) and one
** BLOB for every validation rule it breaks. fuzz_sql
** gets each of those as its first filter, with keys and build parameters of
** every kind (the kinds bloom_build builds taken from the table of kinds and
** tests/test_kinds.h), and targets of the in-place functions. fuzz_roundtrip
** gets keys of every type under every form of bloom_build, with corruptions.
** fuzz_live gets sequences of operations on a live table of every kind; fuzz_shadow, on one
** whose shadow tables' rows are changed (gen_corpus_shadow.c). fuzz_parquet_footer
** gets the footers and Bloom filters of tests/parquet's files, and a footer of every Thrift type.
** fuzz_wasm_reader gets two valid filters of each kind and a refused one, each with probes of
** every key type and formats of doubles.
*/
#include "../test_kinds.h"
#include "filter_kinds.h"
#include "fuzz_input.h"
#include "fuzz_live.h"
#include "gen_corpus.h"
#include "kind_list.h"
#include "parquet_footer.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends one corruption of fuzz_roundtrip's input: a flip of mask at offset (modulo the
** filter's length). */
static void put_flip(seed *s, unsigned offset, unsigned mask) {
    put_u8(s, 0);
    put_u16(s, offset);
    put_u8(s, mask);
}

/* Appends a row of the table rows of fuzz_sql: the INTEGER key, n, p and the layout. */
static void put_row(seed *s, int64_t key, int64_t n, double p, const char *layout) {
    put_integer(s, FUZZ_INTEGER, key);
    put_integer(s, FUZZ_INTEGER, n);
    put_real(s, p);
    put_text(s, layout);
}

/* The kind of the seed called name, whose name begins with the kind's ("cuckoo_full"), or NULL
** ("kind_9"). */
static const filter_kind *kind_of_seed(const char *name) {
    for (size_t i = 0; i < FILTER_KIND_COUNT; i++) {
        const filter_kind *kind = filter_kind_at(i);
        if (strncmp(name, kind->name, strlen(kind->name)) == 0) {
            return kind;
        }
    }
    return NULL;
}

/* The layout argument of bloom_build for the i-th seed: the kinds bloom_build builds, in the
** order of the table of kinds, in turn. */
static const char *layout_in_turn(size_t i) {
    const filter_kind *built[FILTER_KIND_COUNT];
    size_t count = 0;
    for (size_t k = 0; k < FILTER_KIND_COUNT; k++) {
        if (test_kind_of(filter_kind_at(k))->builder == BUILT_BY_BLOOM_BUILD) {
            built[count++] = filter_kind_at(k);
        }
    }
    return built[i % count]->name;
}

/* The filter of filters named name. */
static const filter *find_filter(const filter *filters, size_t count, const char *name) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(filters[i].name, name) == 0) {
            return &filters[i];
        }
    }
    fuzz_fail("no filter %s", name);
}

/* fuzz_sql: each filter as ?1, with a key it holds (for a filter of a kind other than the Bloom
** layouts key 7, which saturates counting_saturated and finds no room in cuckoo_full), a valid
** ?3 and two rows of each layout in turn; then seeds for the other paths: encodings, keys and
** build parameters of every kind, length limits, and the in-place functions' targets,
** query_only and rollback. */
static void write_sql_corpus(const char *dir, const filter *filters, size_t count) {
    const filter *standard = &filters[1], *blocked = &filters[3];
    const filter *counting = find_filter(filters, count, "counting_100_keys");
    seed s;
    for (size_t i = 0; i < count; i++) {
        s.size = 0;
        put_u8(&s, 0);
        put_string(&s, FUZZ_BLOB, filters[i].bytes, filters[i].size);
        const filter_kind *kind = kind_of_seed(filters[i].name);
        int holds_7 = kind != NULL && !test_kind_of(kind)->bloom_layout;
        put_integer(&s, FUZZ_INTEGER, holds_7 ? 7 : 5);
        put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
        put_u8(&s, 2);
        put_row(&s, 1, 100, 0.01, layout_in_turn(i));
        put_row(&s, 2, 100, 0.01, layout_in_turn(i));
        write_file(dir, "fuzz_sql", filters[i].name, s.bytes, s.size);
    }

    /* The in-place functions: a counting filter in the cell, and each table of their second
    ** round with a column and a rowid (the byte's fields: table, column << 3, rowid << 5);
    ** then under query_only, and rolled back. */
    static const struct {
        const char *name;
        unsigned configuration, target;
    } in_place[] = {
        {"in_place_cells_row_2", 0, 0 | 0 << 3 | 1 << 5},
        {"in_place_main_cells_upper_f_real_rowid", 0, 1 | 1 << 3 | 4 << 5},
        {"in_place_temp_cells", 0, 2 | 0 << 3 | 0 << 5},
        {"in_place_locked", 0, 3 | 0 << 3 | 0 << 5},
        {"in_place_indexed", 0, 4 | 0 << 3 | 0 << 5},
        {"in_place_view", 0, 5 | 0 << 3 | 0 << 5},
        {"in_place_no_rowid", 0, 6 | 0 << 3 | 0 << 5},
        {"in_place_table_integer", 0, 7 | 0 << 3 | 0 << 5},
        {"in_place_text_column", 0, 0 | 2 << 3 | 0 << 5},
        {"in_place_no_column", 0, 0 | 3 << 3 | 0 << 5},
        {"in_place_no_row", 0, 0 | 0 << 3 | 3 << 5},
        {"in_place_rowid_1_5", 0, 0 | 0 << 3 | 5 << 5},
        {"in_place_rowid_text", 0, 0 | 0 << 3 | 6 << 5},
        {"in_place_query_only", 32, 0},
        {"in_place_rolled_back", 64, 1 << 5},
        {"in_place_utf16be_query_only_rolled_back", 32 + 64 + 2, 2 << 5},
    };
    for (size_t i = 0; i < sizeof in_place / sizeof in_place[0]; i++) {
        s.size = 0;
        put_u8(&s, in_place[i].configuration);
        put_string(&s, FUZZ_BLOB, counting->bytes, counting->size);
        put_integer(&s, FUZZ_INTEGER, 7);
        put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
        put_u8(&s, 2);
        put_row(&s, 7, 100, 0.01, "counting");
        put_row(&s, 8, 100, 0.01, "counting");
        put_u8(&s, in_place[i].target);
        write_file(dir, "fuzz_sql", in_place[i].name, s.bytes, s.size);
    }

    /* The in-place functions on cuckoo filters: key 7 added and removed; no room for it (the
    ** cell unchanged, the error "no room"); a union without room, of two full filters. */
    static const struct {
        const char *name, *cell, *other;
    } cuckoo_in_place[] = {
        {"in_place_cuckoo", "cuckoo_100_keys", "cuckoo_empty"},
        {"in_place_cuckoo_full", "cuckoo_full", "cuckoo_nearly_full"},
        {"in_place_cuckoo_one_bucket", "cuckoo_b_1", "cuckoo_b_1"},
        {"union_cuckoo_full", "cuckoo_full", "cuckoo_full"},
    };
    for (size_t i = 0; i < sizeof cuckoo_in_place / sizeof cuckoo_in_place[0]; i++) {
        const filter *cell = find_filter(filters, count, cuckoo_in_place[i].cell);
        const filter *other = find_filter(filters, count, cuckoo_in_place[i].other);
        s.size = 0;
        put_u8(&s, 0);
        put_string(&s, FUZZ_BLOB, cell->bytes, cell->size);
        put_integer(&s, FUZZ_INTEGER, 7);
        put_string(&s, FUZZ_BLOB, other->bytes, other->size);
        put_u8(&s, 2);
        put_row(&s, 7, 100, 0.01, "cuckoo");
        put_row(&s, 8, 100, 0.01, "cuckoo");
        put_u8(&s, 1 << 5);
        write_file(dir, "fuzz_sql", cuckoo_in_place[i].name, s.bytes, s.size);
    }

    /* Parquet filters: the INTEGER 7 added in place to an INT64 filter; a TEXT refused by it (the
    ** cell unchanged) and a union with an INT32 filter refused; a build whose first key, the
    ** INTEGER 7, makes it INT64, which takes the REAL 7.0 and refuses 'seven' and 1.5; a build
    ** of REALs (DOUBLE) with both zeros and the INTEGER 0, probed with -0.0. */
    static const struct {
        const char *name, *cell, *other;
        int text_key;
    } parquet_in_place[] = {
        {"in_place_parquet", "parquet_100_keys", "parquet_empty", 0},
        {"in_place_parquet_refused", "parquet_100_keys", "parquet_int32", 1},
    };
    for (size_t i = 0; i < sizeof parquet_in_place / sizeof parquet_in_place[0]; i++) {
        const filter *cell = find_filter(filters, count, parquet_in_place[i].cell);
        const filter *other = find_filter(filters, count, parquet_in_place[i].other);
        s.size = 0;
        put_u8(&s, 0);
        put_string(&s, FUZZ_BLOB, cell->bytes, cell->size);
        if (parquet_in_place[i].text_key) {
            put_text(&s, "seven");
        } else {
            put_integer(&s, FUZZ_INTEGER, 7);
        }
        put_string(&s, FUZZ_BLOB, other->bytes, other->size);
        put_u8(&s, 2);
        put_row(&s, 7, 100, 0.01, "parquet");
        put_row(&s, 8, 100, 0.01, "parquet");
        put_u8(&s, 1 << 5);
        write_file(dir, "fuzz_sql", parquet_in_place[i].name, s.bytes, s.size);
    }
    const filter *doubles = find_filter(filters, count, "parquet_double");
    for (int reals = 0; reals < 2; reals++) {
        s.size = 0;
        put_u8(&s, 0);
        put_string(&s, FUZZ_BLOB, doubles->bytes, doubles->size);
        put_special_real(&s, 0); /* -0.0 */
        put_null(&s);
        put_u8(&s, 4);
        for (int row = 0; row < 4; row++) {
            if (reals) {
                if (row == 2) {
                    put_integer(&s, FUZZ_INTEGER, 0);
                } else if (row == 3) {
                    put_real(&s, 1.5);
                } else {
                    put_real(&s, row == 0 ? 0.0 : 1e300);
                }
            } else if (row < 2) {
                put_integer(&s, row == 0 ? FUZZ_INTEGER : FUZZ_INTEGRAL_REAL, 7);
            } else if (row == 2) {
                put_text(&s, "seven");
            } else {
                put_real(&s, 1.5);
            }
            put_integer(&s, FUZZ_INTEGER, 20);
            put_real(&s, 0.01);
            put_text(&s, "parquet");
        }
        write_file(dir, "fuzz_sql", reals ? "parquet_build_reals" : "parquet_build_types", s.bytes,
                   s.size);
    }

    /* The in-place functions on scalable filters and sketches: key 7 (not yet added) grows
    ** scalable_full in place; scalable_64_stages cannot grow (the cell unchanged); growing past a
    ** length limit of 200 bytes (SQLITE_TOOBIG); a sketch counted in place, a sketch at its
    ** largest total (no room), a sketch under query_only and rolled back. */
    static const struct {
        const char *name, *cell, *other, *layout;
        unsigned configuration;
        int64_t key;
    } grown_in_place[] = {
        {"in_place_scalable_grows", "scalable_full", "scalable_empty", "scalable", 0, 1000},
        {"in_place_scalable_64_stages", "scalable_64_stages", "scalable_63_stages", "scalable", 0,
         1000},
        {"in_place_scalable_past_length_limit", "scalable_full", "scalable_full", "scalable", 6 * 4,
         1000},
        {"in_place_scalable_rolled_back", "scalable_3_stages_full", "scalable_5_stages", "scalable",
         64, 1000},
        {"in_place_countmin", "countmin_100_keys", "countmin_empty", "standard", 0, 7},
        {"in_place_countmin_total_max", "countmin_total_max", "countmin_total_max_less_1",
         "standard", 0, 7},
        {"in_place_countmin_conservative_query_only", "countmin_conservative_100_keys",
         "countmin_100_keys", "standard", 32 + 64, 7},
    };
    for (size_t i = 0; i < sizeof grown_in_place / sizeof grown_in_place[0]; i++) {
        const filter *cell = find_filter(filters, count, grown_in_place[i].cell);
        const filter *other = find_filter(filters, count, grown_in_place[i].other);
        s.size = 0;
        put_u8(&s, grown_in_place[i].configuration);
        put_string(&s, FUZZ_BLOB, cell->bytes, cell->size);
        put_integer(&s, FUZZ_INTEGER, grown_in_place[i].key);
        put_string(&s, FUZZ_BLOB, other->bytes, other->size);
        put_u8(&s, 3);
        put_row(&s, 7, 3, 0.01, grown_in_place[i].layout);
        put_row(&s, 8, 2, 0.01, grown_in_place[i].layout);
        put_row(&s, 7, 1, 0.01, grown_in_place[i].layout);
        put_u8(&s, 1 << 5);
        write_file(dir, "fuzz_sql", grown_in_place[i].name, s.bytes, s.size);
    }

    /* Count-min builds from the rows: counts (n) with repeated keys of every type, the
    ** conservative update, counts adding up past 2^63 - 1, counts that are not whole numbers,
    ** epsilon and delta (p) at their edges: delta below e^-64, a sketch past the length limit. */
    static const struct {
        const char *name;
        unsigned configuration;
        int64_t counts[3];
        double p;
        const char *update;
    } sketch_builds[] = {
        {"countmin_counts", 0, {3, 4, 0}, 0.01, "plain"},
        {"countmin_conservative_counts", 1, {1, 1000, 7}, 0.1, "CONSERVATIVE"},
        {"countmin_counts_past_total_max", 0, {INT64_MAX, 1, 2}, 0.1, "plain"},
        {"countmin_delta_below_e_64", 0, {1, 2, 3}, 1e-28, "plain"},
        {"countmin_past_length_limit", 7 * 4, {1, 2, 3}, 0.001, "conservative"},
        {"countmin_bad_update", 2, {1, 2, 3}, 0.3, "median"},
    };
    const filter *sketch = find_filter(filters, count, "countmin_100_keys");
    for (size_t i = 0; i < sizeof sketch_builds / sizeof sketch_builds[0]; i++) {
        s.size = 0;
        put_u8(&s, sketch_builds[i].configuration);
        put_string(&s, FUZZ_BLOB, sketch->bytes, sketch->size);
        put_integer(&s, FUZZ_INTEGER, 7);
        put_string(&s, FUZZ_BLOB, sketch->bytes, sketch->size);
        put_u8(&s, 6);
        for (int row = 0; row < 6; row++) {
            switch (row % 3) {
            case 0:
                put_integer(&s, FUZZ_INTEGER, 7);
                break;
            case 1:
                put_text(&s, "seven");
                break;
            default:
                put_integer(&s, FUZZ_INTEGRAL_REAL, 7); /* the INTEGER 7's key */
                break;
            }
            put_integer(&s, row == 5 ? FUZZ_INTEGRAL_REAL : FUZZ_INTEGER,
                        sketch_builds[i].counts[row % 3]);
            put_real(&s, sketch_builds[i].p);
            put_text(&s, sketch_builds[i].update);
        }
        write_file(dir, "fuzz_sql", sketch_builds[i].name, s.bytes, s.size);
    }

    /* Sketches of other widths and depths to merge; epsilon or the update changing between the
    ** rows; a scalable filter whose second stage would need 65 hash functions. */
    const filter *deep = find_filter(filters, count, "countmin_depth_64");
    s.size = 0;
    put_u8(&s, 0);
    put_string(&s, FUZZ_BLOB, sketch->bytes, sketch->size);
    put_integer(&s, FUZZ_INTEGER, 7);
    put_string(&s, FUZZ_BLOB, deep->bytes, deep->size);
    put_u8(&s, 0);
    write_file(dir, "fuzz_sql", "countmin_union_other_geometry", s.bytes, s.size);
    s.size = 0;
    put_u8(&s, 0);
    put_string(&s, FUZZ_BLOB, sketch->bytes, sketch->size);
    put_integer(&s, FUZZ_INTEGER, 7);
    put_null(&s);
    put_u8(&s, 3);
    put_row(&s, 1, 2, 0.1, "plain");
    put_row(&s, 2, 2, 0.1, "plain");
    put_row(&s, 3, 2, 0.2, "plain");
    write_file(dir, "fuzz_sql", "countmin_epsilon_changes", s.bytes, s.size);
    s.size = 0;
    put_u8(&s, 0);
    put_string(&s, FUZZ_BLOB, sketch->bytes, sketch->size);
    put_integer(&s, FUZZ_INTEGER, 7);
    put_null(&s);
    put_u8(&s, 2);
    put_row(&s, 1, 2, 0.1, "plain");
    put_row(&s, 2, 2, 0.1, "conservative");
    write_file(dir, "fuzz_sql", "countmin_update_changes", s.bytes, s.size);
    s.size = 0;
    put_u8(&s, 0);
    put_null(&s);
    put_integer(&s, FUZZ_INTEGER, 7);
    put_null(&s);
    put_u8(&s, 2);
    put_row(&s, 1, 1, 2e-19, "scalable");
    put_row(&s, 2, 1, 2e-19, "scalable");
    write_file(dir, "fuzz_sql", "scalable_cannot_grow_hashes", s.bytes, s.size);

    /* UTF-16le, blocked filters, TEXT keys, auto-sized builds ('BLOCKED' in capitals). */
    s.size = 0;
    put_u8(&s, 1);
    put_string(&s, FUZZ_BLOB, blocked->bytes, blocked->size);
    put_text(&s, "h\xC3\xA9llo");
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_u8(&s, 3);
    for (int row = 0; row < 3; row++) {
        put_text(&s, row == 0 ? "" : row == 1 ? "\xFF\xFE not UTF-8" : "'quoted'");
        put_null(&s);
        put_real(&s, 0.001);
        put_text(&s, "BLOCKED");
    }
    write_file(dir, "fuzz_sql", "utf16le_text_auto_sized", s.bytes, s.size);

    /* UTF-16be, keys of the other types; n as an integral REAL. */
    s.size = 0;
    put_u8(&s, 2);
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_string(&s, FUZZ_TEXT16, "h\0i\0", 4);
    put_string(&s, FUZZ_BLOB, blocked->bytes, blocked->size);
    put_u8(&s, 4);
    put_special_real(&s, 0); /* -0.0 */
    put_integer(&s, FUZZ_INTEGRAL_REAL, 1000);
    put_real(&s, 1e-6);
    put_text(&s, "standard");
    put_string(&s, FUZZ_BLOB, "\0\1\2", 3);
    put_integer(&s, FUZZ_INTEGRAL_REAL, 1000);
    put_real(&s, 1e-6);
    put_text(&s, "standard");
    put_u8(&s, FUZZ_ZEROBLOB);
    put_u16(&s, 17);
    put_integer(&s, FUZZ_INTEGRAL_REAL, 1000);
    put_real(&s, 1e-6);
    put_text(&s, "standard");
    put_special_real(&s, 8); /* 2^53 */
    put_integer(&s, FUZZ_INTEGRAL_REAL, 1000);
    put_real(&s, 1e-6);
    put_text(&s, "standard");
    write_file(dir, "fuzz_sql", "utf16be_key_types", s.bytes, s.size);

    /* Build parameters out of range or changing between rows, one per row. */
    s.size = 0;
    put_u8(&s, 0);
    put_null(&s);
    put_integer(&s, FUZZ_INTEGER, 7);
    put_string(&s, FUZZ_BLOB, blocked->bytes, blocked->size);
    put_u8(&s, 8);
    put_row(&s, 1, 0, 0.01, "standard");                   /* n = 0 */
    put_row(&s, 2, -1, 0.01, "standard");                  /* n < 0 */
    put_row(&s, 3, INT64_MAX, 0.01, "standard");           /* too big */
    put_row(&s, 4, 100, 1e-20, "standard");                /* k > 64 */
    put_row(&s, 5, 100, 0.6, "blocked");                   /* p > 0.5 for blocked */
    put_row(&s, 6, 100, 0.01, "quotient");                 /* unknown layout */
    put_row(&s, 7, 100, 0.01, "standard");                 /* valid */
    put_row(&s, 8, 100, nextafter(0.01, 1.0), "standard"); /* a p that differs */
    write_file(dir, "fuzz_sql", "bad_build_parameters", s.bytes, s.size);

    /* The cuckoo kind's build parameters: p below its limit and at its edge, n NULL (rule 4
    ** (sized at the end): it needs n), one key 8 times (?2 the ninth), more keys than n holds. */
    static const struct {
        const char *name;
        int rows;
        int64_t key, n; /* n 0: NULL; key -1: the row's number */
        double p;
    } cuckoo_builds[] = {
        {"cuckoo_p_1e-9", 2, -1, 100, 1e-9},     {"cuckoo_p_2e-9", 2, -1, 100, 2e-9},
        {"cuckoo_auto_sized", 2, -1, 0, 0.01},   {"cuckoo_key_8_times", 8, 5, 100, 0.01},
        {"cuckoo_over_capacity", 8, -1, 1, 0.5},
    };
    for (size_t i = 0; i < sizeof cuckoo_builds / sizeof cuckoo_builds[0]; i++) {
        s.size = 0;
        put_u8(&s, 0);
        put_string(&s, FUZZ_BLOB, counting->bytes, counting->size);
        put_integer(&s, FUZZ_INTEGER, 5);
        put_null(&s);
        put_u8(&s, cuckoo_builds[i].rows);
        for (int row = 0; row < cuckoo_builds[i].rows; row++) {
            put_integer(&s, FUZZ_INTEGER, cuckoo_builds[i].key < 0 ? row : cuckoo_builds[i].key);
            if (cuckoo_builds[i].n == 0) {
                put_null(&s);
            } else {
                put_integer(&s, FUZZ_INTEGER, cuckoo_builds[i].n);
            }
            put_real(&s, cuckoo_builds[i].p);
            put_text(&s, "cuckoo");
        }
        write_file(dir, "fuzz_sql", cuckoo_builds[i].name, s.bytes, s.size);
    }

    /* Valid parameters, but the layout changes between rows. */
    s.size = 0;
    put_u8(&s, 0);
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_integer(&s, FUZZ_INTEGER, 1);
    put_string(&s, FUZZ_BLOB, blocked->bytes, blocked->size);
    put_u8(&s, 2);
    put_row(&s, 1, 100, 0.01, "standard");
    put_row(&s, 2, 100, 0.01, "blocked");
    write_file(dir, "fuzz_sql", "layout_changes", s.bytes, s.size);

    /* The Parquet kind with a physical type (rule 27 (Parquet filters)): named in any case,
    ** with a length, one it cannot name, and a type that changes between rows. */
    s.size = 0;
    put_u8(&s, 0);
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_integer(&s, FUZZ_INTEGER, 1);
    put_null(&s);
    put_u8(&s, 6);
    put_row(&s, 1, 100, 0.01, "parquet INT32");
    put_row(&s, 2, 100, 0.01, "PARQUET int32");
    put_row(&s, 3, 100, 0.01, "parquet FIXED_LEN_BYTE_ARRAY(8)");
    put_row(&s, 4, 100, 0.01, "parquet FLOAT");
    put_row(&s, 5, 100, 0.01, "parquet INT8");
    put_row(&s, 6, 100, 0.01, "parquet ");
    write_file(dir, "fuzz_sql", "parquet_typed_kinds", s.bytes, s.size);

    /* A 40-byte length limit: messages cut, filters too big. */
    s.size = 0;
    put_u8(&s, 3 * 4);
    put_text(&s, "a text filter \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9 cut");
    put_integer(&s, FUZZ_INTEGER, 5);
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_u8(&s, 1);
    put_row(&s, 1, 100, 0.01, "standard");
    write_file(dir, "fuzz_sql", "length_limit_40", s.bytes, s.size);

    /* Incompatible filters to merge. */
    s.size = 0;
    put_u8(&s, 0);
    put_string(&s, FUZZ_BLOB, standard->bytes, standard->size);
    put_integer(&s, FUZZ_INTEGER, 5);
    put_string(&s, FUZZ_BLOB, filters[4].bytes, filters[4].size);
    put_u8(&s, 0);
    write_file(dir, "fuzz_sql", "union_incompatible", s.bytes, s.size);
}

/* The 2 bytes of fuzz_roundtrip's p that give the rate closest to p, for a call of
** bloom_build that takes p down to bottom (see fuzz_roundtrip.c). */
static unsigned rate_bytes(double p, double bottom) {
    return (unsigned)lround(65535.0 * log10(p / 0.5) / log10(bottom / 0.5));
}

/* Appends keys of every type to s, for fuzz_roundtrip. */
static void put_keys_of_every_type(seed *s) {
    static const int64_t integers[] = {0, 1, -1, INT64_MIN, INT64_MAX, 9007199254740993};
    put_u8(s, 23);
    for (size_t i = 0; i < sizeof integers / sizeof integers[0]; i++) {
        put_integer(s, FUZZ_INTEGER, integers[i]);
    }
    put_integer(s, FUZZ_INTEGRAL_REAL, 42);
    put_integer(s, FUZZ_INTEGRAL_REAL, INT64_MIN);
    put_special_real(s, 0);  /* -0.0 */
    put_special_real(s, 10); /* 2^63 */
    put_special_real(s, 15); /* NaN, bound as NULL */
    put_real(s, 1.5);
    put_real(s, 1e300);
    put_text(s, "hello");
    put_text(s, "");
    put_text(s, "\xC3\xBC");
    put_text(s, "\xC0\xAF not UTF-8");
    put_string(s, FUZZ_TEXT16, "h\0\xFC\0", 4);
    put_string(s, FUZZ_BLOB, "hello", 5);
    put_string(s, FUZZ_BLOB, "", 0);
    put_u8(s, FUZZ_ZEROBLOB);
    put_u16(s, 5);
    put_null(s);
    put_integer(s, FUZZ_INTEGER, 5); /* a repeated key */
}

/* Appends keys that saturate counters: the INTEGER 5 twenty times, the TEXT 'x' three times,
** for fuzz_roundtrip. */
static void put_repeated_keys(seed *s) {
    put_u8(s, 23);
    for (int i = 0; i < 20; i++) {
        put_integer(s, FUZZ_INTEGER, 5);
    }
    for (int i = 0; i < 3; i++) {
        put_text(s, "x");
    }
}

/* The calls of bloom_build in fuzz_roundtrip's configuration byte. */
enum { KEY_ONLY, N_P, STANDARD, BLOCKED, COUNTING, CUCKOO, SCALABLE, COUNTMIN, CALLS };

/* fuzz_roundtrip's configuration byte for the encoding (0 to 2), the call, n as an integral REAL
** (bit 7) and the conservative update (bit 5): modulo 3, the encoding; divided by 4, modulo 8,
** the call. */
static unsigned roundtrip_configuration(unsigned encoding, unsigned call, int n_as_real,
                                        int conservative) {
    for (unsigned c = 0; c < 256; c++) {
        if (c % 3 == encoding && (c / 4) % CALLS == call && (c >= 128) == (n_as_real != 0) &&
            ((c & 32) != 0) == (conservative != 0)) {
            return c;
        }
    }
    fuzz_fail("no configuration byte for encoding %u, call %u", encoding, call);
}

/* fuzz_roundtrip: every call of bloom_build, every layout, the three encodings, small and
** large rates, with corruptions of the bits only, of the header, and of the length. */
static void write_roundtrip_corpus(const char *dir) {
    static const struct {
        const char *name;
        unsigned encoding, call;
        int n_as_real;
        unsigned n;
        double p;
        unsigned groups;
        int corruption;   /* 0 none, 1 bits only, 2 header, 3 truncated, 4 extended */
        int repeated;     /* keys repeated: counters saturate, a cuckoo filter has no room */
        int conservative; /* a count-min sketch's update */
    } seeds[] = {
        {"key_only", 0, KEY_ONLY, 0, 0, 0.01, 1, 1, 0, 0},
        {"n_p", 0, N_P, 0, 100, 0.01, 2, 2, 0, 0},
        {"n_p_standard_utf16le", 1, STANDARD, 0, 100, 0.001, 3, 3, 0, 0},
        {"n_p_blocked", 0, BLOCKED, 0, 100, 0.01, 4, 4, 0, 0},
        {"n_p_blocked_utf16be", 2, BLOCKED, 0, 30, 0.1, 2, 1, 0, 0},
        {"auto_sized_blocked", 0, BLOCKED, 0, 0, 0.01, 1, 2, 0, 0},
        {"integral_real_n", 0, STANDARD, 1, 50, 0.05, 2, 0, 0, 0},
        {"tiny_p_standard", 0, STANDARD, 0, 20, 2e-19, 3, 1, 0, 0},
        {"tiny_p_blocked", 0, BLOCKED, 0, 20, 1e-6, 3, 2, 0, 0},
        {"large_p_blocked", 0, BLOCKED, 0, 20, 0.5, 2, 3, 0, 0},
        {"n_p_counting", 0, COUNTING, 0, 100, 0.01, 2, 1, 0, 0},
        {"n_p_counting_utf16be", 2, COUNTING, 0, 30, 0.1, 3, 2, 0, 0},
        {"auto_sized_counting", 1, COUNTING, 1, 0, 0.01, 1, 3, 0, 0},
        {"tiny_p_counting", 0, COUNTING, 0, 20, 2e-19, 2, 4, 0, 0},
        {"counting_saturated", 0, COUNTING, 1, 10, 0.1, 3, 1, 1, 0},
        {"standard_repeated_keys", 0, STANDARD, 0, 10, 0.1, 2, 0, 1, 0},
        {"n_p_cuckoo", 0, CUCKOO, 0, 100, 0.01, 2, 1, 0, 0},
        {"n_p_cuckoo_utf16le", 1, CUCKOO, 1, 30, 0.1, 3, 2, 0, 0},
        {"auto_sized_cuckoo", 2, CUCKOO, 0, 0, 0.01, 1, 0, 0, 0},
        {"tiny_p_cuckoo", 0, CUCKOO, 0, 20, 2e-9, 4, 4, 0, 0},
        {"large_p_cuckoo", 0, CUCKOO, 0, 25, 0.5, 2, 3, 0, 0},
        {"cuckoo_no_room", 0, CUCKOO, 0, 1, 0.01, 2, 0, 0, 0},
        {"cuckoo_repeated_keys", 0, CUCKOO, 0, 10, 0.1, 2, 0, 1, 0},
        {"n_p_scalable", 0, SCALABLE, 0, 100, 0.01, 2, 1, 0, 0},
        {"scalable_grows", 0, SCALABLE, 0, 1, 0.01, 2, 1, 0, 0},
        {"scalable_grows_utf16be", 2, SCALABLE, 1, 3, 0.1, 3, 2, 0, 0},
        {"scalable_grows_4_groups", 1, SCALABLE, 0, 2, 0.3, 4, 4, 0, 0},
        {"auto_sized_scalable", 0, SCALABLE, 0, 0, 0.01, 1, 3, 0, 0},
        {"tiny_p_scalable", 0, SCALABLE, 0, 2, 1e-15, 2, 1, 0, 0},
        {"scalable_repeated_keys", 0, SCALABLE, 0, 1, 0.5, 2, 0, 1, 0},
        {"countmin", 0, COUNTMIN, 0, 1, 0.01, 2, 1, 0, 0},
        {"countmin_conservative", 1, COUNTMIN, 0, 3, 0.05, 3, 2, 0, 1},
        {"countmin_repeated_keys", 0, COUNTMIN, 1, 7, 0.1, 2, 1, 1, 0},
        {"countmin_conservative_repeated_utf16be", 2, COUNTMIN, 0, 4096, 0.5, 4, 3, 1, 1},
        {"countmin_null_count", 0, COUNTMIN, 0, 0, 0.01, 2, 4, 0, 1},
        {"countmin_smallest_epsilon", 0, COUNTMIN, 0, 2, 0.005, 2, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        seed s = {.size = 0};
        put_u8(&s, roundtrip_configuration(seeds[i].encoding, seeds[i].call, seeds[i].n_as_real,
                                           seeds[i].conservative));
        put_u16(&s, seeds[i].n);
        double decades = seeds[i].call == BLOCKED    ? 5.7
                         : seeds[i].call == CUCKOO   ? 8.4
                         : seeds[i].call == SCALABLE ? 15.0
                         : seeds[i].call == COUNTMIN ? 2.0
                                                     : 18.5;
        put_u16(&s, rate_bytes(seeds[i].p, 0.5 * pow(10.0, -decades)));
        put_u8(&s, seeds[i].groups - 1);
        if (seeds[i].repeated) {
            put_repeated_keys(&s);
        } else {
            put_keys_of_every_type(&s);
        }
        switch (seeds[i].corruption) {
        case 1: /* two flips in the bit array */
            put_u8(&s, 2);
            put_flip(&s, 64, 0xFF);
            put_flip(&s, 65535, 0x10);
            break;
        case 2: /* a flip of k */
            put_u8(&s, 1);
            put_flip(&s, 8, 0x40);
            break;
        case 3: /* truncated into the header */
            put_u8(&s, 1);
            put_u8(&s, 1);
            put_u16(&s, 40);
            break;
        case 4: /* one byte more */
            put_u8(&s, 1);
            put_u8(&s, 2);
            put_u8(&s, 0);
            break;
        default:
            put_u8(&s, 0);
            break;
        }
        write_file(dir, "fuzz_roundtrip", seeds[i].name, s.bytes, s.size);
    }
}

/* ---- fuzz_live ---- */

/* fuzz_live's pools (fuzz_live.c): the keys 1, 2, 'k', x'6b', 1.0, -0.0, a 70-byte TEXT, NULL;
** the names NULL, 'a', 'b', 7, '7', 2.5, '', x'61'; the counts NULL, 0, 1, 3, -1, 1.5, 2^63 - 1,
** 2^62; the rates 0.5, 0.2, 0.1, 0.01, 0.001, 1e-05, 1.5, '0.01'. */
enum { KEY_1, KEY_2, KEY_K, KEY_K_BLOB, KEY_1_REAL, KEY_MINUS_0, KEY_LONG, KEY_NULL };
enum { NAME_NULL, NAME_A, NAME_B, NAME_7, NAME_7_TEXT, NAME_2_5, NAME_EMPTY, NAME_BLOB };
enum { COUNT_NULL, COUNT_0, COUNT_1, COUNT_3, COUNT_MINUS_1, COUNT_1_5, COUNT_MAX, COUNT_2_62 };
enum { P_HALF, P_0_2, P_0_1, P_0_01, P_0_001, P_1E_5, P_1_5, P_TEXT };

/* fuzz_live's configuration byte: page size index (512, 1024, 4096, 65536), encoding (0 to 2),
** length limit index (SQLite's, 1 MB, 20000, 5000), and flags (LIVE_RESERVE, LIVE_LAZY). */
static unsigned live_configuration(unsigned page, unsigned encoding, unsigned limit,
                                   unsigned flags) {
    return page | encoding << LIVE_ENCODING_SHIFT | limit << LIVE_LIMIT_SHIFT | flags;
}

/* Appends a live table's parameters: the kind choice (with flags), n and p's index; for a sketch
** (a kind built by cms_build), rate holds the indexes of epsilon and delta and update's (2 bits
** each). */
static void put_live_parameters(seed *s, unsigned choice, unsigned n, unsigned rate) {
    put_u8(s, choice);
    put_u16(s, n - 1);
    put_u8(s, rate);
}

/* Appends fuzz_live operation op with its operand bytes (a count of them, then each). */
static void put_live_op(seed *s, unsigned op, int count, ...) {
    va_list operands;
    put_u8(s, op);
    va_start(operands, count);
    for (int i = 0; i < count; i++) {
        put_u8(s, (unsigned)va_arg(operands, int));
    }
    va_end(operands);
}

/* Appends LIVE_LOAD of a BLOB (a fuzz value) as the filter called name. */
static void put_live_load_blob(seed *s, unsigned conflict, unsigned name, const void *bytes,
                               size_t size) {
    put_live_op(s, LIVE_LOAD, 3, conflict, name, LIVE_SOURCE_VALUE);
    put_string(s, FUZZ_BLOB, bytes, size);
}

/* Appends LIVE_LOAD of a BLOB that bloom_build (cms_build) makes of keys integers, for a table
** of the parameters choice, n and rate. */
static void put_live_load_built(seed *s, unsigned conflict, unsigned name, unsigned choice,
                                unsigned n, unsigned rate, unsigned keys) {
    put_live_op(s, LIVE_LOAD, 3, conflict, name, LIVE_SOURCE_BUILT);
    put_live_parameters(s, choice, n, rate);
    put_u8(s, keys - 1);
}

/* Appends the operations every kind's seed runs: adds, a range, probes on both connections,
** removes (an error for the kinds that cannot), snapshots and the integrity check. */
static void put_live_kind_ops(seed *s) {
    put_live_op(s, LIVE_ADD, 2, NAME_A, KEY_1);
    put_live_op(s, LIVE_ADD, 2, NAME_B, KEY_K);
    put_live_op(s, LIVE_ADD_RANGE, 3, NAME_A, 0, 39);
    put_live_op(s, LIVE_ADD_RANGE, 3, NAME_NULL, 1, 19);
    put_live_op(s, LIVE_ADD_TWO, 4, NAME_7, KEY_K_BLOB, NAME_2_5, KEY_LONG);
    put_live_op(s, LIVE_PROBE, 3, NAME_A, KEY_1, KEY_1_REAL);
    put_live_op(s, LIVE_PROBE, 3, NAME_7_TEXT, KEY_K_BLOB, KEY_K);
    put_live_op(s, LIVE_REMOVE, 2, NAME_A, KEY_1);
    put_live_op(s, LIVE_REMOVE_EVERYWHERE, 1, KEY_K);
    put_live_op(s, LIVE_SNAPSHOT | LIVE_SECOND, 0);
    put_live_op(s, LIVE_PROBE | LIVE_SECOND, 3, NAME_B, KEY_K, KEY_2);
    put_live_op(s, LIVE_INTEGRITY, 0);
}

/* fuzz_live: each kind a table makes, on small pages; transactions and savepoints; the second
** connection's adds, removes and probes; loaded BLOBs (built, copied, changed, cut, and the
** filters of fuzz_core, valid or not); full cuckoo filters, sketches and a scalable filter at
** the length limit; DROP, CREATE (with refused arguments) and RENAME; names; encodings. */
static void write_live_corpus(const char *dir, const filter *filters, size_t count) {
    /* Each kind a live table takes: n 1000 at 1 % (a scalable filter 10, so that it grows; a sketch
    ** epsilon 0.03 and delta 0.01), then the kind left out, and bare and reordered arguments. */
    const struct {
        const char *name;
        unsigned choice, n, rate;
    } others[] = {
        {"default_kind", live_default_kind(), 500, P_0_1},
        {"countmin_conservative_bare_kind", live_choice("countmin") | LIVE_BARE_KIND, 1,
         1 | 1 << 2 | 2 << 4},
        {"cuckoo_bare_kind_reordered", live_choice("cuckoo") | LIVE_BARE_KIND | LIVE_REORDERED, 300,
         P_0_001},
    };
    char name[128];
    seed s;
    const filter_kind *kind;
    for (unsigned i = 0; (kind = live_kind_at(i)) != NULL; i++) {
        int sketch = test_kind_of(kind)->builder == BUILT_BY_CMS_BUILD;
        s.size = 0;
        put_u8(&s, live_configuration(0, 0, 0, 0));
        put_live_parameters(&s, i,
                            sketch                    ? 1
                            : kind->grow_size != NULL ? 10
                                                      : 1000,
                            sketch ? 2 | 2 << 2 | 0 << 4 : P_0_01);
        put_live_kind_ops(&s);
        write_file(dir, "fuzz_live", kind->name, s.bytes, s.size);
    }
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        s.size = 0;
        put_u8(&s, live_configuration(0, 0, 0, 0));
        put_live_parameters(&s, others[i].choice, others[i].n, others[i].rate);
        put_live_kind_ops(&s);
        snprintf(name, sizeof name, "%s", others[i].name);
        write_file(dir, "fuzz_live", name, s.bytes, s.size);
    }

    /* A counting filter of some 130 chunks of 448 bytes, 1,280 keys added in one statement. */
    s.size = 0;
    put_u8(&s, live_configuration(0, 0, 0, LIVE_LAZY));
    put_live_parameters(&s, live_choice("counting"), 2500, P_1E_5);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_NULL, 0, 192 + 39);
    put_live_op(&s, LIVE_REMOVE_EVERYWHERE, 1, KEY_1);
    put_live_op(&s, LIVE_SNAPSHOT, 0);
    put_live_op(&s, LIVE_INTEGRITY, 0);
    write_file(dir, "fuzz_live", "counting_many_chunks", s.bytes, s.size);

    /* Transactions: savepoints rolled back to and released, a transaction a savepoint begins and
    ** its release commits, a rollback; the second connection locked out, then seeing the
    ** commit. */
    s.size = 0;
    put_u8(&s, live_configuration(1, 0, 0, 0));
    put_live_parameters(&s, live_choice("blocked"), 2000, P_0_01);
    put_live_op(&s, LIVE_BEGIN, 0);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_1);
    put_live_op(&s, LIVE_SAVEPOINT, 1, 0);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_A, 1, 30);
    put_live_op(&s, LIVE_ADD, 2, NAME_B, KEY_K);
    put_live_op(&s, LIVE_ROLLBACK_TO, 1, 0);
    put_live_op(&s, LIVE_SAVEPOINT, 1, 1);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_2);
    put_live_op(&s, LIVE_RELEASE, 1, 1);
    put_live_op(&s, LIVE_PROBE | LIVE_SECOND, 3, NAME_A, KEY_1, KEY_2);
    put_live_op(&s, LIVE_RELEASE, 1, 2);
    put_live_op(&s, LIVE_COMMIT, 0);
    put_live_op(&s, LIVE_PROBE | LIVE_SECOND, 3, NAME_A, KEY_1, KEY_2);
    put_live_op(&s, LIVE_SAVEPOINT, 1, 2);
    put_live_op(&s, LIVE_ADD, 2, NAME_7, KEY_LONG);
    put_live_op(&s, LIVE_RELEASE, 1, 2);
    put_live_op(&s, LIVE_SNAPSHOT | LIVE_SECOND, 0);
    put_live_op(&s, LIVE_BEGIN, 0);
    put_live_op(&s, LIVE_DROP_FILTER, 1, NAME_A);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_B, 2, 63);
    put_live_op(&s, LIVE_ROLLBACK, 0);
    put_live_op(&s, LIVE_COMMIT, 0);
    put_live_op(&s, LIVE_BEGIN, 0);
    put_live_op(&s, LIVE_ADD, 2, NAME_EMPTY, KEY_MINUS_0);
    write_file(dir, "fuzz_live", "transactions", s.bytes, s.size);

    /* The second connection writes; the first's cache must see it. */
    s.size = 0;
    put_u8(&s, live_configuration(0, 0, 0, 0));
    put_live_parameters(&s, live_choice("counting"), 800, P_0_01);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_1);
    put_live_op(&s, LIVE_PROBE, 3, NAME_A, KEY_K, KEY_1);
    put_live_op(&s, LIVE_ADD | LIVE_SECOND, 2, NAME_A, KEY_K);
    put_live_op(&s, LIVE_PROBE, 3, NAME_A, KEY_K, KEY_1);
    put_live_op(&s, LIVE_ADD_RANGE | LIVE_SECOND, 3, NAME_B, 0, 50);
    put_live_op(&s, LIVE_REMOVE_EVERYWHERE | LIVE_SECOND, 1, KEY_1);
    put_live_op(&s, LIVE_SNAPSHOT, 0);
    put_live_op(&s, LIVE_ADD, 2, NAME_B, KEY_LONG);
    put_live_op(&s, LIVE_SNAPSHOT | LIVE_SECOND, 0);
    write_file(dir, "fuzz_live", "second_connection", s.bytes, s.size);

    /* Counts at their ends, which a live filter stops only where they are read: a cuckoo
    ** filter counting all its slots with 5 keys, a counting filter counting none with 100, one
    ** counting 2^64 - 1; keys added and removed, snapshots on both connections. */
    s.size = 0;
    put_u8(&s, live_configuration(0, 0, 0, 0));
    put_live_parameters(&s, live_no_arguments(), 1, 0);
    const filter *full_count = find_filter(filters, count, "cuckoo_keys_max");
    filter no_count = *find_filter(filters, count, "counting_100_keys");
    const filter *most_count = find_filter(filters, count, "counting_keys_max");
    poke(&no_count, 40, 0, 8);
    put_live_load_blob(&s, LIVE_ABORT, NAME_A, full_count->bytes, full_count->size);
    put_live_load_blob(&s, LIVE_ABORT, NAME_B, no_count.bytes, no_count.size);
    put_live_load_blob(&s, LIVE_ABORT, NAME_7, most_count->bytes, most_count->size);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_K);
    put_live_op(&s, LIVE_REMOVE, 2, NAME_A, KEY_1);
    put_live_op(&s, LIVE_REMOVE, 2, NAME_B, KEY_1);
    put_live_op(&s, LIVE_ADD, 2, NAME_B, KEY_K);
    put_live_op(&s, LIVE_ADD, 2, NAME_7, KEY_K);
    put_live_op(&s, LIVE_REMOVE | LIVE_SECOND, 2, NAME_7, KEY_2);
    put_live_op(&s, LIVE_SNAPSHOT, 0);
    put_live_op(&s, LIVE_SNAPSHOT | LIVE_SECOND, 0);
    put_live_op(&s, LIVE_INTEGRITY, 0);
    write_file(dir, "fuzz_live", "count_ends", s.bytes, s.size);

    /* The index over the filters: a Bloom table of several filters, 'optimize', probes by key,
    ** then keys added to an indexed filter, a filter made, one loaded over another, one of
    ** another geometry, one dropped, a scan by key that removes, a rollback, the index made
    ** again and checked, and the table renamed (its command column with it). */
    s.size = 0;
    put_u8(&s, live_configuration(1, 0, 0, 0));
    put_live_parameters(&s, live_choice("blocked"), 200, P_0_01);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_A, 0, 40);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_B, 30, 40);
    put_live_op(&s, LIVE_ADD_TWO, 4, NAME_7, KEY_K_BLOB, NAME_2_5, KEY_LONG);
    put_live_op(&s, LIVE_INTEGRITY | LIVE_SECOND, 0);
    put_live_op(&s, LIVE_PROBE, 3, NAME_A, KEY_1, KEY_K_BLOB);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_K);
    put_live_op(&s, LIVE_ADD, 2, NAME_EMPTY, KEY_2);
    put_live_load_built(&s, LIVE_REPLACE, NAME_B, live_choice("blocked"), 200, P_0_01, 20);
    put_live_load_built(&s, LIVE_ABORT, NAME_7_TEXT, live_choice("standard"), 100, P_0_001, 20);
    put_live_op(&s, LIVE_DROP_FILTER, 1, NAME_2_5);
    put_live_op(&s, LIVE_PROBE | LIVE_SECOND, 3, NAME_A, KEY_K, KEY_2);
    put_live_op(&s, LIVE_SCAN_CHANGE, 2, 0, KEY_LONG);
    put_live_op(&s, LIVE_BEGIN, 0);
    put_live_op(&s, LIVE_INTEGRITY | LIVE_SECOND, 0);
    put_live_op(&s, LIVE_ADD, 2, NAME_NULL, KEY_1_REAL);
    put_live_op(&s, LIVE_ROLLBACK, 0);
    put_live_op(&s, LIVE_INTEGRITY | LIVE_SECOND, 0);
    put_live_op(&s, LIVE_RENAME, 0);
    put_live_op(&s, LIVE_INTEGRITY | LIVE_SECOND, 0);
    put_live_op(&s, LIVE_REMOVE_EVERYWHERE, 1, KEY_K);
    put_live_op(&s, LIVE_SNAPSHOT | LIVE_SECOND, 0);
    write_file(dir, "fuzz_live", "index", s.bytes, s.size);

    /* A table of loaded filters: one built of every kind, keys added to them, a name in use
    ** (an error, ignored, replaced), a copy, a byte changed, cut short and a byte longer. */
    s.size = 0;
    put_u8(&s, live_configuration(0, 0, 0, 0));
    put_live_parameters(&s, live_no_arguments(), 1, 0);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_1);
    put_live_load_built(&s, LIVE_ABORT, NAME_A, live_choice("standard"), 100, P_0_01, 30);
    put_live_load_built(&s, LIVE_ABORT, NAME_B, live_choice("blocked"), 100, P_0_01, 30);
    put_live_load_built(&s, LIVE_ABORT, NAME_7, live_choice("counting"), 100, P_0_01, 30);
    put_live_load_built(&s, LIVE_ABORT, NAME_2_5, live_choice("cuckoo"), 100, P_0_01, 30);
    put_live_load_built(&s, LIVE_ABORT, NAME_EMPTY, live_choice("scalable"), 10, P_0_01, 30);
    put_live_load_built(&s, LIVE_ABORT, NAME_NULL, live_choice("countmin"), 1, 1 | 1 << 2, 30);
    put_live_load_built(&s, LIVE_ABORT, NAME_A, live_choice("standard"), 100, P_0_01, 5);
    put_live_load_built(&s, LIVE_IGNORE, NAME_A, live_choice("standard"), 100, P_0_01, 5);
    put_live_load_built(&s, LIVE_REPLACE, NAME_A, live_choice("counting"), 100, P_0_1, 5);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_K);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_NULL, KEY_K, COUNT_3);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_EMPTY, 1, 63);
    put_live_op(&s, LIVE_REMOVE_EVERYWHERE, 1, KEY_1);
    put_live_op(&s, LIVE_REMOVE, 2, NAME_7, KEY_1);
    put_live_op(&s, LIVE_LOAD, 4, LIVE_REPLACE, NAME_B, LIVE_SOURCE_COPY, 3);
    put_live_op(&s, LIVE_LOAD, 6, LIVE_ABORT, NAME_7_TEXT, LIVE_SOURCE_FLIPPED, 0, 70, 0, 0x10);
    put_live_op(&s, LIVE_LOAD, 6, LIVE_REPLACE, NAME_7_TEXT, LIVE_SOURCE_FLIPPED, 0, 8, 0, 0x01);
    put_live_op(&s, LIVE_LOAD, 5, LIVE_REPLACE, NAME_B, LIVE_SOURCE_CUT, 1, 100, 0);
    put_live_op(&s, LIVE_LOAD, 5, LIVE_REPLACE, NAME_B, LIVE_SOURCE_CUT, 1, 0xFF, 0xFF);
    put_live_op(&s, LIVE_PROBE, 3, NAME_A, KEY_K, KEY_1);
    write_file(dir, "fuzz_live", "loads", s.bytes, s.size);

    /* The filters of fuzz_core, loaded as fuzz values: valid ones take keys, the others are
    ** refused. */
    static const char *const loaded[] = {
        "blocked_100_keys",
        "counting_saturated",
        "cuckoo_full",
        "cuckoo_newer_writer_reserved",
        "scalable_3_stages_full",
        "scalable_blocked_stages",
        "countmin_100_keys",
        "countmin_total_max",
        "standard_full",
        "bad_magic",
        "length_plus_1",
        "scalable_stage_bad_magic",
        "parquet_100_keys",
        "parquet_float",
        "fuse_100_keys",
        "fuse_empty",
    };
    for (size_t i = 0; i < sizeof loaded / sizeof loaded[0]; i++) {
        const filter *f = find_filter(filters, count, loaded[i]);
        s.size = 0;
        put_u8(&s, live_configuration(i % 3, 0, 0, 0));
        put_live_parameters(&s, live_no_arguments(), 1, 0);
        put_live_load_blob(&s, LIVE_ABORT, NAME_NULL, f->bytes, f->size);
        put_live_op(&s, LIVE_ADD, 2, NAME_NULL, KEY_K);
        put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_NULL, KEY_K, COUNT_3);
        put_live_op(&s, LIVE_PROBE, 3, NAME_NULL, KEY_K, KEY_1);
        put_live_op(&s, LIVE_REMOVE, 2, NAME_NULL, KEY_K);
        put_live_op(&s, LIVE_SNAPSHOT | LIVE_SECOND, 0);
        snprintf(name, sizeof name, "load_%s", loaded[i]);
        write_file(dir, "fuzz_live", name, s.bytes, s.size);
    }

    /* A cuckoo filter for one key: a range finds no room (the statement undone), the same key
    ** added until it has none, removed. */
    s.size = 0;
    put_u8(&s, live_configuration(2, 0, 0, 0));
    put_live_parameters(&s, live_choice("cuckoo"), 1, P_0_01);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_NULL, 0, 19);
    for (int i = 0; i < 9; i++) {
        put_live_op(&s, LIVE_ADD, 2, NAME_NULL, KEY_1);
    }
    put_live_op(&s, LIVE_REMOVE, 2, NAME_NULL, KEY_1);
    put_live_op(&s, LIVE_ADD, 2, NAME_NULL, KEY_1_REAL);
    put_live_op(&s, LIVE_PROBE, 3, NAME_NULL, KEY_1, KEY_2);
    write_file(dir, "fuzz_live", "cuckoo_no_room", s.bytes, s.size);

    /* A scalable filter of n = 1 grown by ranges, up to the length limit of 5000 bytes and past
    ** it (SQLITE_TOOBIG). */
    s.size = 0;
    put_u8(&s, live_configuration(0, 0, 3, LIVE_LAZY));
    put_live_parameters(&s, live_choice("scalable"), 1, P_0_01);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_NULL, 0, 63);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_NULL, 1, 192 + 7);
    put_live_op(&s, LIVE_SNAPSHOT, 0);
    put_live_op(&s, LIVE_ADD_RANGE, 3, NAME_NULL, 2, 255);
    put_live_op(&s, LIVE_PROBE, 3, NAME_NULL, KEY_1, KEY_2);
    write_file(dir, "fuzz_live", "scalable_grows_to_limit", s.bytes, s.size);

    /* Counts of a conservative sketch: whole numbers from 0, others refused, past the largest
    ** total (no room); a count on a filter refused. */
    s.size = 0;
    put_u8(&s, live_configuration(0, 0, 0, 0));
    put_live_parameters(&s, live_choice("countmin"), 1, 1 | 2 << 2 | 2 << 4);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_NULL, KEY_K, COUNT_3);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_NULL, KEY_K, COUNT_0);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_NULL, KEY_K, COUNT_MINUS_1);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_NULL, KEY_K, COUNT_1_5);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_NULL, KEY_1, COUNT_2_62);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_NULL, KEY_2, COUNT_2_62);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_NULL, KEY_NULL, COUNT_MAX);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_K);
    put_live_op(&s, LIVE_PROBE, 3, NAME_NULL, KEY_K, KEY_1);
    put_live_op(&s, LIVE_REMOVE_EVERYWHERE, 1, KEY_K);
    put_live_load_built(&s, LIVE_ABORT, NAME_B, live_choice("blocked"), 100, P_0_01, 3);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_B, KEY_K, COUNT_3);
    write_file(dir, "fuzz_live", "countmin_counts", s.bytes, s.size);

    /* DROP TABLE, CREATE of other kinds, arguments CREATE refuses, ALTER TABLE RENAME. */
    s.size = 0;
    put_u8(&s, live_configuration(0, 0, 0, 0));
    put_live_parameters(&s, live_choice("standard") | LIVE_MISPLACED, 100, P_0_01);
    put_live_op(&s, LIVE_ADD, 2, NAME_NULL, KEY_1);
    put_live_op(&s, LIVE_CREATE, 0);
    put_live_parameters(&s, live_choice("blocked"), 100, P_1_5);
    put_live_op(&s, LIVE_CREATE, 0);
    put_live_parameters(&s, live_choice("blocked"), 100, P_TEXT);
    put_live_op(&s, LIVE_CREATE, 0);
    put_live_parameters(&s, live_choice("countmin") | LIVE_MISPLACED, 1, 0);
    put_live_op(&s, LIVE_CREATE, 0);
    put_live_parameters(&s, live_choice("countmin"), 1, 3 << 4);
    put_live_op(&s, LIVE_CREATE, 0);
    put_live_parameters(&s, live_choice("counting"), 300, P_0_01);
    put_live_op(&s, LIVE_CREATE, 0);
    put_live_parameters(&s, live_choice("standard"), 300, P_0_01);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_K);
    put_live_op(&s, LIVE_RENAME, 0);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_1);
    put_live_op(&s, LIVE_PROBE | LIVE_SECOND, 3, NAME_A, KEY_K, KEY_1);
    put_live_op(&s, LIVE_DROP_TABLE, 0);
    put_live_op(&s, LIVE_PROBE, 3, NAME_A, KEY_K, KEY_1);
    put_live_op(&s, LIVE_CREATE, 0);
    put_live_parameters(&s, live_choice("countmin"), 1, 0);
    put_live_op(&s, LIVE_ADD_COUNT, 3, NAME_A, KEY_K, COUNT_3);
    put_live_op(&s, LIVE_RENAME, 0);
    put_live_op(&s, LIVE_SNAPSHOT | LIVE_SECOND, 0);
    put_live_op(&s, LIVE_DROP_TABLE, 0);
    put_live_op(&s, LIVE_CREATE, 0);
    put_live_parameters(&s, live_no_arguments(), 1, 0);
    put_live_op(&s, LIVE_ADD, 2, NAME_A, KEY_K);
    put_live_op(&s, LIVE_ENSURE, 1, NAME_A);
    write_file(dir, "fuzz_live", "create_drop_rename", s.bytes, s.size);

    /* Names: made, numbers as their text, '' beside NULL, a BLOB refused; dropped one by one,
    ** then all. */
    s.size = 0;
    put_u8(&s, live_configuration(0, 0, 0, 0));
    put_live_parameters(&s, live_choice("blocked"), 100, P_0_01);
    for (unsigned n = NAME_NULL; n <= NAME_BLOB; n++) {
        put_live_op(&s, LIVE_ENSURE, 1, n);
    }
    put_live_op(&s, LIVE_ADD, 2, NAME_7_TEXT, KEY_K);
    put_live_op(&s, LIVE_PROBE, 3, NAME_7, KEY_K, KEY_1);
    put_live_op(&s, LIVE_DROP_FILTER, 1, NAME_7);
    put_live_op(&s, LIVE_DROP_FILTER, 1, NAME_BLOB);
    put_live_op(&s, LIVE_DROP_FILTER, 1, NAME_EMPTY);
    put_live_op(&s, LIVE_ADD, 2, NAME_2_5, KEY_K);
    put_live_op(&s, LIVE_DROP_FILTER, 1, 0x80);
    put_live_op(&s, LIVE_ADD, 2, NAME_B, KEY_K);
    write_file(dir, "fuzz_live", "names", s.bytes, s.size);

    /* Keys of fuzz values in UTF-16 databases, lazy, a page with reserved bytes; a scan that
    ** removes the key from each filter it finds. */
    for (unsigned encoding = 1; encoding <= 2; encoding++) {
        s.size = 0;
        put_u8(&s, live_configuration(encoding == 1 ? 2 : 0, encoding, encoding == 1 ? 1 : 3,
                                      LIVE_LAZY | (encoding == 2 ? LIVE_RESERVE : 0)));
        put_live_parameters(&s, live_choice("counting"), 400, P_0_01);
        put_live_op(&s, LIVE_ADD, 1, NAME_A);
        put_u8(&s, LIVE_NEW_KEY | KEY_2);
        put_text(&s, "caf\xc3\xa9");
        put_live_op(&s, LIVE_ADD, 1, NAME_B);
        put_u8(&s, LIVE_NEW_KEY | KEY_1);
        put_string(&s, FUZZ_TEXT16, "k\0e\0y\0", 6);
        put_live_op(&s, LIVE_ADD, 2, NAME_B, KEY_2);
        put_live_op(&s, LIVE_PROBE, 3, NAME_A, KEY_2, KEY_1);
        put_live_op(&s, LIVE_SCAN_CHANGE, 2, 1, KEY_2);
        put_live_op(&s, LIVE_PROBE, 3, NAME_B, KEY_2, KEY_1);
        put_live_op(&s, LIVE_SNAPSHOT, 0);
        snprintf(name, sizeof name, "utf16%s_keys", encoding == 1 ? "le" : "be");
        write_file(dir, "fuzz_live", name, s.bytes, s.size);
    }

    /* Pages of 65,536 bytes: every filter one chunk. */
    s.size = 0;
    put_u8(&s, live_configuration(3, 0, 0, 0));
    put_live_parameters(&s, live_choice("standard"), 2500, P_1E_5);
    put_live_kind_ops(&s);
    write_file(dir, "fuzz_live", "page_65536", s.bytes, s.size);
}

/* ---- fuzz_parquet_footer ---- */

#ifndef BLOOM_PARQUET_FIXTURES
#error "BLOOM_PARQUET_FIXTURES must name tests/parquet (tests/fuzz/CMakeLists.txt defines it)"
#endif

/* The largest fixture of tests/parquet read here. */
enum { MAX_FIXTURE_BYTES = 8192 };

/* Reads the fixture tests/parquet/name whole into f's bytes; aborts if it cannot. */
static void read_fixture(const char *name, seed *f) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", BLOOM_PARQUET_FIXTURES, name);
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        fuzz_fail("cannot read %s", path);
    }
    f->size = fread(f->bytes, 1, MAX_FIXTURE_BYTES, in);
    if (ferror(in) || !feof(in) || fclose(in) != 0) {
        fuzz_fail("cannot read %s whole (at most %d bytes)", path, MAX_FIXTURE_BYTES);
    }
}

/* The first Bloom filter offset a footer's walk finds. */
static int first_filter(void *state, const parquet_chunk *chunk) {
    *(int64_t *)state = chunk->bloom_filter_offset;
    return chunk->bloom_filter_offset >= 0;
}

/* Appends the bytes listed. */
#define PUT_LITERAL(s, ...)                                                                        \
    put_bytes(s, (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}))

/* A footer whose FileMetaData holds fields of every Thrift type that a reader skips. */
static void put_every_type_footer(seed *s) {
    PUT_LITERAL(s, 0x15, 0x02);                   /* version (1): 1 */
    PUT_LITERAL(s, 0x19, 0x2C);                   /* schema (2): a list of 2 structs */
    PUT_LITERAL(s, 0x55, 0x02, 0x00);             /*   the root: num_children (5) 1 */
    PUT_LITERAL(s, 0x15, 0x0E, 0x15, 0x20, 0x00); /*   a leaf: type (1) 7, type_length (2) 16 */
    PUT_LITERAL(s, 0x16, 0x14);                   /* num_rows (3): 10 */
    PUT_LITERAL(s, 0x19, 0x1C);                   /* row_groups (4): a list of 1 struct */
    PUT_LITERAL(s, 0x19, 0x1C);                   /*   columns (1): a list of 1 struct */
    PUT_LITERAL(s, 0x26, 0x00);                   /*     file_offset (2): 0 */
    PUT_LITERAL(s, 0x1C);                         /*     meta_data (3) */
    PUT_LITERAL(s, 0x15, 0x0E);                   /*       type (1): 7, FIXED_LEN_BYTE_ARRAY */
    PUT_LITERAL(s, 0x29, 0x18, 0x01, 'u');        /*       path_in_schema (3): ["u"] */
    PUT_LITERAL(s, 0x26, 0x14);                   /*       num_values (5): 10 */
    PUT_LITERAL(s, 0x96, 0x08);                   /*       bloom_filter_offset (14): 4 */
    PUT_LITERAL(s, 0x15, 0x60);                   /*       bloom_filter_length (15): 48 */
    PUT_LITERAL(s, 0x00, 0x00, 0x00); /*     the ends of meta_data, the chunk, the group */
    PUT_LITERAL(s, 0x28, 0x04, 't', 'e', 's', 't');     /* created_by (6): "test" */
    PUT_LITERAL(s, 0x01, 0x28);                         /* field 20, long form: true */
    PUT_LITERAL(s, 0x12);                               /* 21: false */
    PUT_LITERAL(s, 0x13, 0xFF);                         /* 22: an i8 */
    PUT_LITERAL(s, 0x14, 0xD7, 0x04);                   /* 23: an i16, -300 */
    PUT_LITERAL(s, 0x17, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F); /* 24: a double, 1.0 */
    PUT_LITERAL(s, 0x19, 0x31, 0x01, 0x02, 0x01);       /* 25: a list of 3 booleans */
    PUT_LITERAL(s, 0x1A, 0x1C, 0x00);                   /* 26: a set of 1 empty struct */
    PUT_LITERAL(s, 0x1B, 0x00);                         /* 27: an empty map */
    PUT_LITERAL(s, 0x1B, 0x01, 0x86, 0x01, 'a', 0x02);  /* 28: a map, "a" to 1 */
    PUT_LITERAL(s, 0x1D, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); /* 29: a uuid */
    PUT_LITERAL(s, 0x1C, 0x1C, 0x00, 0x00); /* 30: a struct holding a struct */
    PUT_LITERAL(s, 0x00);
}

/* A footer whose ColumnMetaData has its fields out of order, as a rewrite meets them: 15 first,
** 14 in the long form after 20, an id past 15 after it in the short form, a boolean, a nested
** struct (statistics) and an id in the long form past any delta. */
static void put_any_order_footer(seed *s) {
    PUT_LITERAL(s, 0x29, 0x2C);                   /* schema (2): a list of 2 structs */
    PUT_LITERAL(s, 0x55, 0x02, 0x00);             /*   the root: num_children (5) 1 */
    PUT_LITERAL(s, 0x15, 0x04, 0x00);             /*   a leaf: type (1) 2, INT64 */
    PUT_LITERAL(s, 0x29, 0x1C);                   /* row_groups (4): a list of 1 struct */
    PUT_LITERAL(s, 0x19, 0x1C);                   /*   columns (1): a list of 1 struct */
    PUT_LITERAL(s, 0x26, 0x00);                   /*     file_offset (2): 0 */
    PUT_LITERAL(s, 0x1C);                         /*     meta_data (3): */
    PUT_LITERAL(s, 0xF5, 0x5E);                   /*       bloom_filter_length (15): 47 */
    PUT_LITERAL(s, 0x05, 0x02, 0x04);             /*       type (1), long form: 2 */
    PUT_LITERAL(s, 0x29, 0x18, 0x02, 'i', 'd');   /*       path_in_schema (3): ["id"] */
    PUT_LITERAL(s, 0x26, 0x14);                   /*       num_values (5): 10 */
    PUT_LITERAL(s, 0x7C, 0x58, 0x01, 0x01, 0x00); /*       statistics (12): max "\x01" */
    PUT_LITERAL(s, 0x06, 0x28, 0x02);             /*       20, long form: an i64, 1 */
    PUT_LITERAL(s, 0x06, 0x1C, 0x08);             /*       bloom_filter_offset (14), long: 4 */
    PUT_LITERAL(s, 0x31);                         /*       17: true */
    PUT_LITERAL(s, 0x08, 0xD0, 0x0F, 0x00);       /*       1000, long form: an empty binary */
    PUT_LITERAL(s, 0x00, 0x00, 0x00); /*     the ends of meta_data, the chunk, the group */
    PUT_LITERAL(s, 0x00);
}

/* The footer of types.parquet rewritten with a filter for every chunk that has one, as
** bloom_parquet_write writes it (each at the end of the data, 47 bytes). */
static void put_rewritten_footer(seed *s, const uint8_t *footer, uint32_t length,
                                 uint64_t data_end) {
    static parquet_bloom_place places[64];
    static uint8_t written[MAX_FIXTURE_BYTES];
    char why[PARQUET_WHY_MAX];
    size_t count = 0, bytes = 0;
    for (uint32_t column = 0; column < 9; column++) {
        places[count++] = (parquet_bloom_place){0, column, (int64_t)data_end + 47 * column, 47};
    }
    if (parquet_footer_rewrite(footer, length, places, count, written, sizeof written, &bytes,
                               why) != PARQUET_OK) {
        fuzz_fail("types.parquet's footer rewritten: %s", why);
    }
    put_bytes(s, written, bytes);
}

/* fuzz_parquet_footer: the footers of tests/parquet's files, one of them whole; their first
** Bloom filters with their headers (DuckDB's, @dsnp/parquetjs's empty unions); the header
** Parquet writers store for 8,192 bytes; a footer of every Thrift type, alone and in a file; a
** footer whose chunk has its fields out of order, and types.parquet's footer rewritten by
** parquet_footer_rewrite, for the rewrites. */
static void write_parquet_corpus(const char *dir) {
    static const char *const fixtures[] = {"types", "row_groups", "no_filters", "parquetjs"};
    static seed f, s;
    char name[64], why[PARQUET_WHY_MAX];
    int32_t scratch[64];
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        snprintf(name, sizeof name, "%s.parquet", fixtures[i]);
        read_fixture(name, &f);
        uint64_t offset;
        uint32_t length, leaves;
        if (parquet_footer_locate(f.size, f.bytes + f.size - PARQUET_TAIL_BYTES, &offset, &length,
                                  why) != PARQUET_OK ||
            parquet_footer_leaves(f.bytes + offset, length, &leaves, why) != PARQUET_OK ||
            leaves > 64) {
            fuzz_fail("%s: %s", name, why);
        }
        snprintf(name, sizeof name, "footer_%s", fixtures[i]);
        write_file(dir, "fuzz_parquet_footer", name, f.bytes + offset, length);
        if (i == 0) {
            write_file(dir, "fuzz_parquet_footer", "file_types", f.bytes, f.size);
            s.size = 0;
            put_rewritten_footer(&s, f.bytes + offset, length, offset);
            write_file(dir, "fuzz_parquet_footer", "footer_types_rewritten", s.bytes, s.size);
        }
        int64_t at = -1;
        parquet_footer_scan(f.bytes + offset, length, scratch, leaves, first_filter, &at, why);
        parquet_bloom_header header;
        if (at >= 0 && parquet_bloom_header_read(f.bytes + at, offset - (uint64_t)at, &header,
                                                 why) == PARQUET_OK) {
            snprintf(name, sizeof name, "bloom_%s", fixtures[i]);
            write_file(dir, "fuzz_parquet_footer", name, f.bytes + at,
                       header.header_bytes + header.num_bytes);
        }
    }
    uint8_t header[PARQUET_BLOOM_HEADER_MAX];
    write_file(dir, "fuzz_parquet_footer", "bloom_header_8192", header,
               parquet_bloom_header_write(header, 8192));
    s.size = 0;
    put_every_type_footer(&s);
    write_file(dir, "fuzz_parquet_footer", "footer_every_type", s.bytes, s.size);
    uint32_t length = (uint32_t)s.size;
    s.size = 0;
    put_bytes(&s, "PAR1", 4);
    put_every_type_footer(&s);
    put_bytes(&s, (const uint8_t[]){length & 0xFF, length >> 8 & 0xFF, 0, 0}, 4);
    put_bytes(&s, "PAR1", 4);
    write_file(dir, "fuzz_parquet_footer", "file_every_type", s.bytes, s.size);
    s.size = 0;
    put_any_order_footer(&s);
    write_file(dir, "fuzz_parquet_footer", "footer_any_order", s.bytes, s.size);
}

/* ---- fuzz_wasm_reader ---- */

/* The operations of a fuzz_wasm_reader seed after its filter: numbers (integral, fractional, at
** and past the 64-bit range, -0.0, infinite), INTEGERs held and not, a TEXT, a BLOB, and the
** formats bloom_info writes and others. */
static void put_reader_operations(seed *s) {
    static const double numbers[] = {
        0.0, 1.0, 99.0, 0.5, -0.0, 9223372036854775808.0, -9223372036854775808.0, 1e300, INFINITY};
    static const int64_t integers[] = {0, 1, 7, 99, 100000, INT64_MIN};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        put_u8(s, 0);
        put_real_bits(s, numbers[i]);
    }
    for (size_t i = 0; i < sizeof integers / sizeof integers[0]; i++) {
        put_u8(s, 1);
        put_u64(s, (uint64_t)integers[i]);
    }
    put_u8(s, 2);
    put_u8(s, 0); /* TEXT */
    put_u16(s, 12);
    put_bytes(s, "key 00000001", 12);
    put_u8(s, 2);
    put_u8(s, 1); /* BLOB */
    put_u16(s, 2);
    put_bytes(s, "\x00\x01", 2);
    /* %.15g (g: 2), %.1f (f: 0), %+#20.5e, %-0 12.0G into too small a room: (flags, conversion
    ** 8 * c + flags), width, precision, room, the double. */
    static const struct {
        unsigned choice, width, precision, room;
        double v;
    } formats[] = {{16, 0, 15, 95, 0.1},
                   {0, 0, 1, 95, 2.25},
                   {14, 20, 5, 95, -1e-300},
                   {39, 12, 0, 7, 123456789.0}};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        put_u8(s, 3);
        put_u8(s, formats[i].choice);
        put_u8(s, formats[i].width);
        put_u8(s, formats[i].precision);
        put_u8(s, formats[i].room);
        put_real_bits(s, formats[i].v);
    }
}

/* fuzz_wasm_reader: the first two filters of each kind that filter_open accepts, and the first
** it refuses, each followed by the same operations. */
static void write_wasm_reader_corpus(const char *dir, const filter *filters, size_t count) {
    static seed s;
    unsigned taken[256] = {0};
    int refused_taken = 0;
    for (size_t i = 0; i < count; i++) {
        filter_view view;
        char why[FILTER_WHY_MAX];
        int accepted = filter_open(filters[i].bytes, filters[i].size, &view, why) == FILTER_OK;
        if (accepted ? taken[view.kind->id]++ >= 2 : refused_taken++ > 0) {
            continue;
        }
        s.size = 0;
        put_u16(&s, (unsigned)filters[i].size);
        put_bytes(&s, filters[i].bytes, filters[i].size);
        put_reader_operations(&s);
        write_file(dir, "fuzz_wasm_reader", filters[i].name, s.bytes, s.size);
    }
}

int main(int argc, char **argv) {
    static filter filters[MAX_FILTERS];
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    size_t count = 0;
#define GEN_SEEDS_CALL(id, name) count += name##_seed_filters(filters + count);
    FILTER_KINDS(GEN_SEEDS_CALL)
    if (count > MAX_FILTERS) {
        fuzz_fail("%zu filters, room for %d", count, MAX_FILTERS);
    }
    for (size_t i = 0; i < count; i++) {
        write_file(argv[1], "fuzz_core", filters[i].name, filters[i].bytes, filters[i].size);
    }
    write_sql_corpus(argv[1], filters, count);
    write_roundtrip_corpus(argv[1]);
    write_live_corpus(argv[1], filters, count);
    write_parquet_corpus(argv[1]);
    write_wasm_reader_corpus(argv[1], filters, count);
    write_shadow_corpus(argv[1]);
    return 0;
}
