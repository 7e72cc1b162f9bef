/*
** unit.h: what the files of test_core share: one tally of checks for the whole
** program, test keys, the format's bytes, the golden fixtures, a filter_io that
** counts and fails, the checks of a refused filter, the view the _io operations
** read, the test vectors of docs/format.md, the recipe by which the tests make a
** filter of each kind, and the tests of each file, in the order test_core.c runs
** them.
*/
#ifndef BLOOM_UNIT_H
#define BLOOM_UNIT_H

#include "filter_kinds.h"
#include "kind_list.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* check.h's CHECK macros, their checks counted once for the program: check_record is
** unit_check_record, which test_core.c defines as check.h's own, so that check_report there
** counts the checks of every file. The other files leave check.h's functions unused. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include "../check.h"
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#define check_record unit_check_record

/* Records one check in the program's tally; prints where it failed. */
int unit_check_record(int ok, const char *file, int line, const char *what);

/* ---- Keys and numbers ---------------------------------------------------------------- */

/* Section 4.1's mix, the splitmix64 finalizer, written from its words. */
uint64_t model_mix(uint64_t z);

/* splitmix64: a small deterministic generator for test keys. */
uint64_t next_random(uint64_t *state);

/* Whether a and b are the same hash. */
int same_hash(key_hash a, key_hash b);

/* Key i of a test set: an INTEGER, REAL, TEXT or BLOB in turn, distinct for distinct i. */
key_hash mixed_key(int64_t i);

/* ---- Bytes of the format ------------------------------------------------------------- */

/* Writes value's 8 little-endian bytes at offset. */
void store64(uint8_t *blob, size_t offset, uint64_t value);

/* The 8 little-endian bytes at offset. */
uint64_t load64(const uint8_t *blob, size_t offset);

/* The filter's count of keys (offset 40, in every kind). */
uint64_t keys_of(const uint8_t *blob);

/* A header with just what positions need: m bits, k and the layout. */
bloom_header header_of(uint64_t m, uint32_t k, int layout);

/* ---- The golden fixtures (tests/golden/README.md) ------------------------------------ */

enum { GOLDEN_NAME_MAX = 64 };

/* The 19 non-NULL keys of tests/golden/README.md, in its order, into keys (32); their count. */
size_t golden_keys(key_hash *keys);

/* The name of the golden fixture of kind, <name>_v<format version>.hex, into name
** (GOLDEN_NAME_MAX bytes); name. */
const char *golden_name(const filter_kind *kind, char *name);

/* Reads the fixture GOLDEN_DIR/file into buf (cap bytes); its length, 0 if it cannot be read. */
size_t read_golden_file(const char *golden_dir, const char *file, uint8_t *buf, size_t cap);

/* Reads the golden fixture of kind into buf (cap bytes); its length. */
size_t read_golden(const char *golden_dir, const filter_kind *kind, uint8_t *buf, size_t cap);

/* Prints the bytes built in place of the fixture file, which they do not match. */
void print_built(const char *file, const uint8_t *built, uint64_t bytes);

/* ---- A filter_io that counts and fails ----------------------------------------------- */

/* A filter_io over a BLOB in memory that counts its calls and writes, and fails the call
** numbered fail_at (from 0; -1: none). */
typedef struct counted_io {
    uint8_t *blob;
    int calls, writes, fail_at;
} counted_io;

/* A filter_io over blob whose state is state, its counts set to 0, failing the call fail_at. */
filter_io counted(counted_io *state, uint8_t *blob, int fail_at);

/* ---- Refused filters ----------------------------------------------------------------- */

/* Checks that filter_open refuses blob (bytes long) with the message. */
void expect_invalid(const uint8_t *blob, uint64_t bytes, const char *expected);

/* expect_invalid of a copy of the filter valid (len bytes, at most 256) whose byte at offset
** is value (an offset past len changes no byte). */
void check_invalid(const uint8_t *valid, size_t len, size_t offset, uint8_t value,
                   const char *expected);

/* expect_invalid of blob with the width little-endian bytes of value at offset, which are then
** restored. */
void expect_invalid_at(uint8_t *blob, uint64_t bytes, size_t offset, uint64_t value, int width,
                       const char *expected);

/* expect_invalid_at with value at each reserved byte of blob's header in turn, [from, to) and
** [FILTER_OFF_RESERVED_TAIL, 64), the message naming the byte. */
void expect_reserved_invalid(uint8_t *blob, uint64_t bytes, size_t from, size_t to, uint8_t value);

/* ---- Views for the _io operations ---------------------------------------------------- */

/* Opens blob (bytes long) into *view as the _io operations read a filter: its blob a copy of
** the header alone, in header (FILTER_HEADER_BYTES); filter_open's status. */
filter_status open_header_view(const uint8_t *blob, uint64_t bytes, filter_view *view,
                               uint8_t *header);

/* ---- The test vectors of docs/format.md ---------------------------------------------- */

/* Parses hex digits of s (up to a '`' or the end) into out; returns the byte count. */
size_t parse_hex(const char *s, uint8_t *out, size_t cap);

/* s without its trailing spaces. */
char *trim(char *s);

/* The hash of a key written as a SQL literal (42, 1.5, 'text', x'hex'), as SQL would type it. */
key_hash hash_of_literal(const char *key);

/* The positions of key in a filter with header h, as "1 2 3", into buf (128 bytes). */
const char *positions_text(const bloom_header *h, key_hash key, char *buf);

/* Calls row(line, context) on each line of the document at format_path between the lines
** "<!-- section:begin -->" and "<!-- section:end -->"; the number of lines it returned 1 for
** (0 after a failed check when the document cannot be read). */
int format_section_rows(const char *format_path, const char *section,
                        int (*row)(const char *line, void *context), void *context);

/* The bytes of the lines of that section that begin with a hex digit (their bytes written in
** pairs of digits, spaces between them), into out (cap bytes); their count. */
size_t format_section_bytes(const char *format_path, const char *section, uint8_t *out, size_t cap);

/* ---- How the tests make a filter of each kind ---------------------------------------- */

/*
** A kind's recipe: NAME_recipe, for each NAME of kind_list.h, in the kind's file of tests (a
** kind without one does not link). A kind of the cell model (cell_model.h) has the layout
** whose sizing and positions it has, the bits of a cell of its body and its header writer; a
** kind outside it has, instead, the test of its golden fixtures, and tests of its own for
** the rest.
*/
typedef struct kind_recipe {
    const filter_kind *kind;
    int positions;      /* the BLOOM_LAYOUT_* of its sizing and positions; 0 for the cuckoo kind */
    unsigned cell_bits; /* a bit, or a counter; 0 for the cuckoo kind, whose m is its buckets
                        ** and k its fingerprint bits */
    void (*write_header)(uint8_t *blob, const bloom_header *h); /* from m, k, n, p and keys */
    /* Optional: the m and k that bloom_build gives the kind for n and p, or why not; NULL:
    ** bloom_size's, in its layout. */
    filter_status (*size)(uint64_t n, double p, uint64_t *m, uint32_t *k);
    int removes;  /* docs/format.md: its filters remove keys */
    int fills_up; /* a key may find no room (FILTER_FULL): some of 1,500 keys in a filter sized
                  ** for 1,000, and its golden filter merged into itself */
    size_t golden_bytes; /* the length of its golden fixture */
    /* A kind outside the cell model: the test of its golden fixtures; NULL for the others. */
    void (*own_golden)(const char *golden_dir);
    /* Optional: the keys its golden filter holds, hashed as it hashes them, into keys (32); their
    ** count. NULL: golden_keys (a kind that takes every key, by key hash 1). */
    size_t (*golden_keys)(key_hash *keys);
} kind_recipe;

#define UNIT_RECIPE_DECLARE(id, name) extern const kind_recipe name##_recipe;
FILTER_KINDS(UNIT_RECIPE_DECLARE)

/* The recipe of kind, an entry of the table of kinds. */
const kind_recipe *recipe_of(const filter_kind *kind);

/* Writes an empty filter of kind with m cells, k, n and p into blob (cap bytes); returns its
** length, 64 + m cells of the kind's bits (a cuckoo filter: 64 + ceil(4 m k / 8)), or 0 if it
** does not fit or the kind is outside the cell model. */
size_t make_filter(const filter_kind *kind, uint64_t m, uint32_t k, uint64_t n, double p,
                   uint8_t *blob, size_t cap);

/* make_filter with the m and k that bloom_build gives kind for n and p. */
size_t make_sized(const filter_kind *kind, uint64_t n, double p, uint8_t *blob, size_t cap);

/* ---- The tests, by file, in the order test_core.c runs them -------------------------- */

/* test_key_hash.c */
void test_key_canonicalisation(void);
void test_hash_set(void);
void test_little_endian(void);

/* test_hash_math.c */
void test_reduce(void);

/* test_filter.c: the container */
void test_prelude_validation(void);
void test_container_helpers(void);
void test_filter_io(void);
void test_filter_info(void);

/* test_real_text.c */
void test_real_decimal(void);
void test_real_text_significant(void);
void test_real_text_fixed(void);

/* test_bloom.c */
void test_sizing_formulas(void);
void test_sizing_anchors(void);
void test_sizing_errors(void);
void test_bloom_kinds(void);
void test_header_bytes(void);
void test_bloom_validation(void);
void test_positions_closed_form(void);
void test_positions_wide(void);
void test_small_filters_track_the_model(void);
void test_no_false_negatives(void);
void test_format_vectors(const char *format_path);
void test_measure(void);
void test_compatibility_and_merge(void);
void test_blocked_positions(void);
void test_blocked_model_closed_form(void);
void test_blocked_sizing(void);
void test_blocked_filters(void);
void test_blocked_io_calls(void);

/* test_counting.c */
void test_counting_kind(void);
void test_counting_golden(const char *golden_dir);
void test_counting_add_remove(void);
void test_counting_coinciding_positions(void);
void test_counting_saturation(void);
void test_counting_merge(void);
void test_counting_validation(void);
void test_counting_model(void);

/* test_cuckoo.c */
void test_cuckoo_kind(void);
void test_cuckoo_sizing(void);
void test_cuckoo_validation(void);
void test_cuckoo_alt(void);
void test_cuckoo_model(void);
void test_cuckoo_repeats(void);
void test_cuckoo_merge(void);
void test_cuckoo_golden(const char *golden_dir);
void test_cuckoo_measure(void);
void test_cuckoo_io_failures(void);

/* test_scalable.c */
void test_scalable_kind(void);
void test_scalable_sizing(void);
void test_scalable_grow(void);
void test_scalable_grow_limits(void);
void test_scalable_grow_io(void);
void test_scalable_io(void);
void test_scalable_validation(void);
void test_scalable_merge(void);
void test_scalable_format_vectors(const char *format_path);

/* test_fuse.c */
void test_fuse_kind(void);
void test_fuse_sizing(void);
void test_fuse_distinct(void);
void test_fuse_builds(void);
void test_fuse_same_set_same_bytes(void);
void test_fuse_empty_and_one(void);
void test_fuse_validation(void);
void test_fuse_io(void);
void test_fuse_format_vectors(const char *format_path);

/* test_parquet.c */
void test_parquet_kind(void);
void test_parquet_sizing(void);
void test_parquet_model_rate(void);
void test_parquet_format_vectors(const char *format_path);
void test_parquet_keys(void);
void test_parquet_adds(void);
void test_parquet_io(void);
void test_parquet_validation(void);
void test_parquet_merge(void);
void test_parquet_from_bitset(void);
void test_parquet_vector_code(void);
/* test_countmin.c */
void test_countmin_kind(void);
void test_countmin_sizing(void);
void test_countmin_updates(void);
void test_countmin_io(void);
void test_countmin_validation(void);
void test_countmin_merge(void);
void test_countmin_format_vectors(const char *format_path);

/* test_spark.c */
void test_spark_kind(void);
void test_spark_shared_vectors(const char *golden_dir);
void test_spark_sizing(void);
void test_spark_bytes(void);
void test_spark_validation(void);
void test_spark_io(void);
void test_spark_merge(void);

/* test_parquet_footer.c */
void test_parquet_locate(void);
void test_parquet_footer_scan(void);
void test_parquet_footer_truncations(void);
void test_parquet_footer_bad_lengths(void);
void test_parquet_footer_nesting(void);
void test_parquet_footer_structure(void);
void test_parquet_footer_file_path(void);
void test_parquet_bloom_header(void);
void test_parquet_bloom_header_refused(void);
void test_parquet_footer_rewrite_fields(void);
void test_parquet_footer_rewrite_chunks(void);
void test_parquet_footer_rewrite_refused(void);

/* test_filter.c: the table of kinds */
void test_kind_table(void);
void test_kind_indexes(void);
void test_kind_named(void);
void test_kind_can(void);
void test_kind_count_offset(void);
void test_kind_refusal(void);
void test_hash_key(void);
void test_compatible_needs_merge(void);
void test_golden(const char *golden_dir);
void test_kind_operations(const char *golden_dir);
void test_io_matches_memory(void);

#endif /* BLOOM_UNIT_H */
