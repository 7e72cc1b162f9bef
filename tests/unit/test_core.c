/*
** test_core.c: unit tests of the pure C core, without SQLite: the runner. The tests of each
** room of ext/ are in its file (test_key_hash.c, test_filter.c, test_bloom.c, ...; unit.h
** lists them); this runs them, room by room from the bottom of the layers, and reports the
** checks of all.
**
** Usage: test_core GOLDEN_DIR FORMAT
**
** GOLDEN_DIR is tests/golden, whose fixtures are rebuilt here; FORMAT is docs/format.md, whose
** test vectors are checked here.
*/
#include "unit.h"

#undef check_record /* here, check.h's own: the program's one tally */

int unit_check_record(int ok, const char *file, int line, const char *what) {
    return check_record(ok, file, line, what);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s GOLDEN_DIR FORMAT\n", argv[0]);
        return 2;
    }
    const char *golden_dir = argv[1], *format_path = argv[2];

    test_key_canonicalisation();
    test_hash_set();
    test_little_endian();

    test_reduce();

    test_prelude_validation();
    test_container_helpers();
    test_filter_io();
    test_filter_info();
    test_real_decimal();
    test_real_text_significant();
    test_real_text_fixed();

    test_sizing_formulas();
    test_sizing_anchors();
    test_sizing_errors();
    test_bloom_kinds();
    test_header_bytes();
    test_bloom_validation();
    test_positions_closed_form();
    test_positions_wide();
    test_small_filters_track_the_model();
    test_no_false_negatives();
    test_format_vectors(format_path);
    test_measure();
    test_compatibility_and_merge();
    test_blocked_positions();
    test_blocked_model_closed_form();
    test_blocked_sizing();
    test_blocked_filters();
    test_blocked_io_calls();

    test_counting_kind();
    test_counting_golden(golden_dir);
    test_counting_add_remove();
    test_counting_coinciding_positions();
    test_counting_saturation();
    test_counting_merge();
    test_counting_validation();
    test_counting_model();

    test_cuckoo_kind();
    test_cuckoo_sizing();
    test_cuckoo_validation();
    test_cuckoo_alt();
    test_cuckoo_model();
    test_cuckoo_repeats();
    test_cuckoo_merge();
    test_cuckoo_golden(golden_dir);
    test_cuckoo_measure();
    test_cuckoo_io_failures();

    test_scalable_kind();
    test_scalable_sizing();
    test_scalable_grow();
    test_scalable_grow_limits();
    test_scalable_grow_io();
    test_scalable_io();
    test_scalable_validation();
    test_scalable_merge();
    test_scalable_format_vectors(format_path);

    test_countmin_kind();
    test_countmin_sizing();
    test_countmin_updates();
    test_countmin_io();
    test_countmin_validation();
    test_countmin_merge();
    test_countmin_format_vectors(format_path);
    test_fuse_kind();
    test_fuse_sizing();
    test_fuse_distinct();
    test_fuse_builds();
    test_fuse_same_set_same_bytes();
    test_fuse_empty_and_one();
    test_fuse_validation();
    test_fuse_io();
    test_fuse_format_vectors(format_path);
    test_parquet_kind();
    test_parquet_sizing();
    test_parquet_model_rate();
    test_parquet_format_vectors(format_path);
    test_parquet_keys();
    test_parquet_adds();
    test_parquet_io();
    test_parquet_validation();
    test_parquet_merge();
    test_parquet_from_bitset();
    test_parquet_vector_code();
    test_spark_kind();
    test_spark_shared_vectors(golden_dir);
    test_spark_sizing();
    test_spark_bytes();
    test_spark_validation();
    test_spark_io();
    test_spark_merge();

    test_parquet_locate();
    test_parquet_footer_scan();
    test_parquet_footer_truncations();
    test_parquet_footer_bad_lengths();
    test_parquet_footer_nesting();
    test_parquet_footer_structure();
    test_parquet_footer_file_path();
    test_parquet_bloom_header();
    test_parquet_bloom_header_refused();
    test_parquet_footer_rewrite_fields();
    test_parquet_footer_rewrite_chunks();
    test_parquet_footer_rewrite_refused();

    test_kind_table();
    test_kind_indexes();
    test_kind_named();
    test_kind_can();
    test_kind_count_offset();
    test_kind_refusal();
    test_hash_key();
    test_compatible_needs_merge();
    test_golden(golden_dir);
    test_kind_operations(golden_dir);
    test_io_matches_memory();
    return check_report("test_core");
}
