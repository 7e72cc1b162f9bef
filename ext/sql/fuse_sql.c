/*
** fuse_sql.c: the SQL side of the binary fuse kind: its part of bloom_build
** (rules 1 (build) and 30 (static filters)), built whole from the group's keys
** at its end. Probing and bloom_info's fields go through its core
** (fuse_core.h); nothing adds to, removes from or merges a built filter.
*/
#include "fuse_sql.h"

#include "fuse_core.h"
#include "sql_error.h"
#include "sql_memory.h"

/* The smallest p a binary fuse filter serves: 2^-FUSE_FINGERPRINT_MAX. */
#define FUSE_P_MIN (1.0 / 4294967296.0)

/* The most bytes of scratch a build allocates at once: what SQLite allocates (sqlite3_malloc64
** refuses 2^31 - 256 and more). A test build sets a small maximum. */
#ifndef BLOOM_FUSE_PIECE_MAX
#define BLOOM_FUSE_PIECE_MAX (UINT64_C(0x7FFFFF00) - 1)
#endif

/* Sorts the kept keys of st and drops their repeats (st->whole_count becomes the distinct
** keys). Returns 0 after setting a NOMEM error. */
static int fuse_sql_distinct(sqlite3_context *ctx, build_state *st) {
    if (st->whole_count == 0) {
        return 1;
    }
    uint64_t *buffer = sqlite3_malloc64(st->whole_count * sizeof *buffer);
    if (buffer == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    sql_advise_huge_pages(buffer, st->whole_count * sizeof *buffer); /* written at random */
    st->whole_count = fuse_distinct_keys(st->whole, st->whole_count, buffer);
    sqlite3_free(buffer);
    return 1;
}

/* Sizes the filter for the distinct keys of st and allocates it, empty. Returns 0 after
** setting the error. */
static int fuse_sql_size(sqlite3_context *ctx, build_state *st, fuse_header *h) {
    uint64_t n = st->n > 0 ? st->n : (st->whole_count > 0 ? st->whole_count : 1);
    double bytes_needed;
    filter_status status = fuse_size(st->whole_count, n, st->p, h, &bytes_needed);
    if (status == FILTER_TOO_MANY_HASHES) {
        sql_errorf(ctx,
                   "%s: a 'fuse' filter needs p >= %!.3g (fingerprints of at most %d bits), "
                   "got %!.15g",
                   st->func, FUSE_P_MIN, FUSE_FINGERPRINT_MAX, st->p);
        return 0;
    }
    return sql_kind_allocate(ctx, st, n, bytes_needed, status == FILTER_OK);
}

/* Frees the arrays of scratch. */
static void fuse_sql_free_scratch(fuse_scratch *scratch) {
    sqlite3_free(scratch->hashes);
    sqlite3_free(scratch->order);
    sqlite3_free(scratch->counts);
}

/* The kind's build_whole: the keys sorted without repeats, the filter sized for them and built
** with scratch memory of 13 bytes a slot. */
static int fuse_sql_build_whole(sqlite3_context *ctx, build_state *st) {
    fuse_header h;
    if (!fuse_sql_distinct(ctx, st) || !fuse_sql_size(ctx, st, &h)) {
        return 0;
    }
    uint64_t slots = fuse_slots(&h);
    if (slots * sizeof(uint64_t) > BLOOM_FUSE_PIECE_MAX) {
        if (sql_errorf(ctx,
                       "%s: a 'fuse' filter of %llu keys needs %llu bytes of scratch in one "
                       "piece, more than SQLite allocates at once",
                       st->func, (unsigned long long)st->whole_count,
                       (unsigned long long)(slots * 8))) {
            sqlite3_result_error_code(ctx, SQLITE_TOOBIG);
        }
        return 0;
    }
    fuse_scratch scratch = {sqlite3_malloc64(slots * sizeof *scratch.hashes),
                            sqlite3_malloc64(slots * sizeof *scratch.order),
                            sqlite3_malloc64(slots)};
    filter_status status = FILTER_OK;
    if (scratch.hashes == NULL || scratch.order == NULL || scratch.counts == NULL) {
        sqlite3_result_error_nomem(ctx);
        status = FILTER_BAD_ARGUMENT;
    } else {
        /* Each read and written at random (the order as keys are peeled from anywhere). */
        sql_advise_huge_pages(scratch.hashes, slots * sizeof *scratch.hashes);
        sql_advise_huge_pages(scratch.order, slots * sizeof *scratch.order);
        sql_advise_huge_pages(scratch.counts, slots);
        status = fuse_build(st->blob, &h, st->whole, &scratch);
        if (status != FILTER_OK) {
            sql_errorf(ctx, "%s: no seed of the first %d built a 'fuse' filter of %llu keys",
                       st->func, FUSE_SEEDS, (unsigned long long)st->whole_count);
        }
    }
    fuse_sql_free_scratch(&scratch);
    return status == FILTER_OK;
}

/* Static: built once from the group's keys, never an empty filter to add to. */
const sql_kind fuse_sql = {
    .kind = &fuse_kind,
    .build_state_bytes = sizeof(build_state),
    .build_whole = fuse_sql_build_whole,
};
