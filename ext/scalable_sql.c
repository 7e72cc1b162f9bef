/*
** scalable_sql.c: the SQL side of the scalable Bloom filter kind: its part of
** bloom_build (rules 1 (build) and 2 (sizing)) and of bloom_info (rule 11
** (info)). Adding, growing and probing go through its core
** (scalable_core.h) and the shared functions.
*/
#include "scalable_sql.h"

#include "bloom_core.h"
#include "filter_kinds.h"
#include "scalable_core.h"
#include "sql_error.h"
#include "sql_json.h"

/* Sizes the filter with one stage for n keys and allocates it, empty. Returns 0 after setting
** the error. */
static int scalable_sql_build_size(sqlite3_context *ctx, build_state *common, uint64_t n) {
    scalable_header h;
    bloom_header first;
    double bytes_needed;
    filter_status status = scalable_size(n, common->p, BLOOM_LAYOUT_STANDARD, SCALABLE_GROWTH,
                                         SCALABLE_TIGHTENING, &h, &first, &bytes_needed);
    if (status == FILTER_TOO_MANY_HASHES) {
        sql_errorf(ctx,
                   "%s: p = %!.15g needs a first stage of rate %!.15g, which needs %u hash "
                   "functions, more than %d",
                   common->func, common->p, first.p, (unsigned)first.k, BLOOM_K_MAX);
        return 0;
    }
    if (!sql_kind_allocate(ctx, common, n, bytes_needed, status == FILTER_OK)) {
        return 0;
    }
    scalable_write_header(common->blob, &h);
    bloom_write_header(common->blob + FILTER_HEADER_BYTES, &first);
    return 1;
}

/* Adds key; FILTER_FULL when the last stage holds its capacity (the shared code grows it). */
static filter_status scalable_sql_build_add(build_state *common, key_hash key) {
    return filter_add(&scalable_kind, common->blob, key);
}

/* Appends stage i of f to the "stages" list of bloom_info, with its rate as measured into
** *rate. O(its m). */
static void scalable_sql_stage_info(sqlite3_str *json, const filter_view *f, int i, double *rate) {
    scalable_stage s;
    scalable_stage_at(f, i, &s);
    bloom_fill fill = bloom_measure(&s.header, f->blob + s.offset + FILTER_HEADER_BYTES);
    *rate = fill.estimated_fp_rate;
    sqlite3_str_appendf(json,
                        "%s{\"n\":%llu,\"p\":%!.15g,\"k\":%u,\"m\":%llu,\"bytes\":%llu,"
                        "\"keys_added\":%llu,\"bits_set\":%llu,\"fill_ratio\":%!.15g,"
                        "\"estimated_fp_rate\":%!.15g}",
                        i == 0 ? "" : ",", (unsigned long long)s.header.n, s.header.p,
                        (unsigned)s.header.k, (unsigned long long)s.header.m,
                        (unsigned long long)s.bytes, (unsigned long long)s.header.keys,
                        (unsigned long long)fill.bits_set, fill.fill_ratio, fill.estimated_fp_rate);
}

/* The fields of bloom_info: the header, each stage, and the compound rate they give. O(size). */
static void scalable_sql_info(sqlite3_str *json, const filter_view *f) {
    scalable_header h = scalable_header_of(f);
    double rates[SCALABLE_STAGES_MAX];
    uint64_t capacity = 0;
    for (int i = 0; i < h.stages; i++) {
        uint64_t n;
        double p;
        scalable_stage_target(&h, i, &n, &p); /* validation checked that each fits */
        capacity = filter_add_counts(capacity, n);
    }
    sqlite3_str_appendf(json,
                        ",\"stage_layout\":\"%s\",\"growth\":%u,\"tightening\":%!.15g,"
                        "\"bytes\":%llu,\"n\":%llu,\"p\":%!.15g,\"keys_added\":%llu,"
                        "\"capacity\":%llu,\"stage_count\":%u,\"stages\":[",
                        bloom_kind_of_layout(h.stage_layout)->name, h.growth, h.tightening,
                        (unsigned long long)f->bytes, (unsigned long long)h.n, h.p,
                        (unsigned long long)h.keys, (unsigned long long)capacity, h.stages);
    for (int i = 0; i < h.stages; i++) {
        scalable_sql_stage_info(json, f, i, &rates[i]);
    }
    sqlite3_str_appendf(json, "],\"estimated_fp_rate\":%!.15g",
                        scalable_compound_rate(rates, h.stages));
}

/* Repeats are not held (a key any stage may hold is not added again): it can be sized at the
** end. Adding keeps the header's count of keys: nothing to finish. */
const sql_kind scalable_sql = {
    .kind = &scalable_kind,
    .build_state_bytes = sizeof(build_state),
    .build_size = scalable_sql_build_size,
    .build_add = scalable_sql_build_add,
    .info = scalable_sql_info,
};
