/*
** fuzz_parquet_footer.c: libFuzzer target for parquet_footer, the reader of Parquet footers
** and Bloom filter headers. The input is taken three ways, each as hostile as a file can be:
**  - as a footer (a Thrift compact FileMetaData): parquet_footer_leaves, then
**    parquet_footer_scan with exactly that scratch, must agree (the same error, or a walk), and
**    every chunk visited must point inside the input, count its row groups from 0 and its
**    columns from 0 in each, have a path of 1 to 64 elements exactly when it has metadata,
**    offsets, lengths and counts of -1 or more (-1 only when absent), a type length exactly for
**    a FIXED_LEN_BYTE_ARRAY, and the same created_by; a walk stopped after its k-th chunk
**    returns PARQUET_STOPPED after visiting the same k chunks;
**  - as a BloomFilterHeader: a header read has a length within the input and a numBytes that
**    is a positive multiple of 32, reads the same from its own bytes alone and as truncated
**    from one byte fewer; parquet_bloom_header_write of that numBytes reads back;
**  - as a whole file: parquet_footer_locate puts the footer inside it, after the leading PAR1's
**    room, and the footer found is scanned as above.
** Every footer is also rewritten (parquet_footer_rewrite, what bloom_parquet_write writes): with
** no place, it is its own bytes, or refused; with places for chunks the walk found with
** metadata (offsets and lengths taken from the input), the length counted is the length written,
** a buffer a byte shorter is refused, and the footer written walks as the footer did, chunk for
** chunk, but for those chunks' Bloom filter offsets and lengths, which are the places'; with
** places taken from the input bytes, out of order or naming chunks that are not there, it
** returns, refusing with a message or not. Every refusal has a message. AddressSanitizer checks
** every byte read and written.
*/
#include "fuzz_input.h"
#include "little_endian.h"
#include "parquet_footer.h"

#include <stdlib.h>
#include <string.h>

/* The chunks whose digests a walk keeps, one after each; the chunks it keeps whole; the places a
** rewrite gives at most. */
enum { DIGESTS_KEPT = 64, CHUNKS_KEPT = 256, PLACES_MAX = 16 };

/* A chunk a walk kept: where it is, its Bloom filter offset and length, and a digest of all the
** rest. */
typedef struct kept_chunk {
    uint32_t row_group, column;
    int has_metadata;
    int64_t offset, length;
    uint64_t rest;
} kept_chunk;

/* What a walk saw: a digest of the chunks, their count, and what it checks them against. */
typedef struct walk_seen {
    const uint8_t *footer;
    size_t size;
    uint64_t digest;
    uint64_t digest_after[DIGESTS_KEPT]; /* [i]: after chunk i + 1 */
    uint32_t visits;
    uint32_t stop_after; /* 0: never stop */
    uint32_t next_row_group, next_column;
    parquet_text created_by;
    kept_chunk kept[CHUNKS_KEPT]; /* the first chunks visited */
} walk_seen;

/* A digest of bytes, mixed into h. */
static uint64_t digest_bytes(uint64_t h, const uint8_t *bytes, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h = (h ^ bytes[i]) * 0x100000001B3ull;
    }
    return (h ^ n) * 0x100000001B3ull;
}

/* Aborts unless text, when present, lies inside the footer. */
static void check_inside(const walk_seen *w, parquet_text text, const char *what) {
    if (text.bytes == NULL) {
        return;
    }
    if (text.bytes < w->footer || (size_t)(text.bytes - w->footer) > w->size ||
        text.length > w->size - (size_t)(text.bytes - w->footer)) {
        fuzz_fail("%s points outside the footer", what);
    }
}

/* Mixes v into the digest. */
static void digest_add(walk_seen *w, uint64_t v) {
    w->digest = (w->digest ^ v) * 0x100000001B3ull;
}

/* Checks a chunk against the promises of parquet_footer.h and folds it into the digest. */
static int walk_visit(void *state, const parquet_chunk *c) {
    walk_seen *w = state;
    if (w->visits == 0) {
        w->created_by = c->created_by;
    }
    if (c->row_group == w->next_row_group + 1 && c->column == 0) {
        w->next_row_group++;
        w->next_column = 0;
    }
    if (c->row_group != w->next_row_group || c->column != w->next_column) {
        fuzz_fail("chunk %u/%u visited after %u/%u", c->row_group, c->column, w->next_row_group,
                  w->next_column);
    }
    w->next_column++;
    if (c->created_by.bytes != w->created_by.bytes ||
        c->created_by.length != w->created_by.length) {
        fuzz_fail("created_by changed between chunks");
    }
    check_inside(w, c->created_by, "created_by");
    check_inside(w, c->file_path, "file_path");
    digest_add(w, c->file_path.bytes != NULL ? c->file_path.length : UINT64_MAX);
    if (c->path_count > PARQUET_MAX_PATH || (c->path_count == 0) == (c->has_metadata != 0)) {
        fuzz_fail("a path of %u elements, with metadata %d", c->path_count, c->has_metadata);
    }
    for (uint32_t i = 0; i < c->path_count; i++) {
        check_inside(w, c->path[i], "a path element");
        digest_add(w, c->path[i].length);
    }
    int fixed = c->physical_type == PARQUET_TYPE_FIXED_LEN_BYTE_ARRAY;
    if (c->num_values < -1 || c->bloom_filter_offset < -1 || c->bloom_filter_length < -1 ||
        c->type_length < -1 ||
        (c->has_metadata && (c->num_values < 0 || fixed != (c->type_length >= 0))) ||
        (!c->has_metadata && (c->physical_type != -1 || c->num_values != -1 ||
                              c->bloom_filter_offset != -1 || c->bloom_filter_length != -1))) {
        fuzz_fail("chunk %u/%u: type %d, length %d, values %lld, filter %lld+%lld", c->row_group,
                  c->column, c->physical_type, c->type_length, (long long)c->num_values,
                  (long long)c->bloom_filter_offset, (long long)c->bloom_filter_length);
    }
    digest_add(w, (uint64_t)c->row_group << 32 | c->column);
    digest_add(w, (uint64_t)(uint32_t)c->physical_type << 32 | (uint32_t)c->type_length);
    digest_add(w, (uint64_t)c->num_values);
    digest_add(w, (uint64_t)c->bloom_filter_offset);
    digest_add(w, (uint64_t)c->bloom_filter_length);
    digest_add(w, (uint64_t)(c->encrypted * 2 + c->has_metadata));
    if (w->visits < DIGESTS_KEPT) {
        w->digest_after[w->visits] = w->digest;
    }
    if (w->visits < CHUNKS_KEPT) {
        uint64_t rest = 0xCBF29CE484222325ull;
        for (uint32_t i = 0; i < c->path_count; i++) {
            rest = digest_bytes(rest, c->path[i].bytes, c->path[i].length);
        }
        if (c->file_path.bytes != NULL) {
            rest = digest_bytes(rest, c->file_path.bytes, c->file_path.length);
        }
        int64_t numbers[] = {c->physical_type, c->type_length, c->num_values, c->encrypted,
                             c->created_by.bytes != NULL ? (int64_t)c->created_by.length : -1};
        rest = digest_bytes(rest, (const uint8_t *)numbers, sizeof numbers);
        w->kept[w->visits] =
            (kept_chunk){c->row_group,           c->column, c->has_metadata, c->bloom_filter_offset,
                         c->bloom_filter_length, rest};
    }
    w->visits++;
    return w->stop_after != 0 && w->visits >= w->stop_after;
}

/* Aborts unless a refusal left a message. */
static void check_message(parquet_status status, const char *why, const char *what) {
    if (status != PARQUET_OK && status != PARQUET_STOPPED &&
        (why[0] == '\0' || memchr(why, '\0', PARQUET_WHY_MAX) == NULL)) {
        fuzz_fail("%s refused without a message", what);
    }
}

/* Walks footer[0, size), with its leaves counted first, stopping after stop_after chunks (0:
** never); returns the status and what was seen. */
static parquet_status walk(const uint8_t *footer, size_t size, uint32_t stop_after, walk_seen *w,
                           char *why) {
    memset(w, 0, sizeof *w);
    w->footer = footer;
    w->size = size;
    w->stop_after = stop_after;
    uint32_t leaves = 0;
    char leaves_why[PARQUET_WHY_MAX] = "";
    parquet_status counted = parquet_footer_leaves(footer, size, &leaves, leaves_why);
    check_message(counted, leaves_why, "parquet_footer_leaves");
    int32_t *scratch =
        counted == PARQUET_OK && leaves > 0 ? malloc(sizeof(int32_t) * leaves) : NULL;
    if (counted == PARQUET_OK && leaves > 0 && scratch == NULL) {
        fuzz_fail("out of memory for %u leaves", leaves);
    }
    why[0] = '\0';
    parquet_status status = parquet_footer_scan(footer, size, scratch, leaves, walk_visit, w, why);
    free(scratch);
    check_message(status, why, "parquet_footer_scan");
    if (counted != PARQUET_OK && (status != counted || strcmp(why, leaves_why) != 0)) {
        fuzz_fail("the leaves refused (%s), the scan said %d (%s)", leaves_why, status, why);
    }
    if (status == PARQUET_STOPPED && (stop_after == 0 || w->visits != stop_after)) {
        fuzz_fail("stopped after %u chunks, asked %u", w->visits, stop_after);
    }
    return status;
}

/* Rewrites footer[0, size) with places, counted, then written into a buffer of exactly that
** length (a copy), and refused in one a byte shorter: the status, and the bytes written (malloc'd,
** the caller frees them) in *out. */
static parquet_status rewrite(const uint8_t *footer, size_t size, const parquet_bloom_place *places,
                              size_t count, uint8_t **out, size_t *out_size) {
    char why[PARQUET_WHY_MAX] = "";
    size_t counted = 0, written = 0;
    *out = NULL;
    parquet_status status =
        parquet_footer_rewrite(footer, size, places, count, NULL, 0, &counted, why);
    check_message(status, why, "parquet_footer_rewrite");
    if (status != PARQUET_OK) {
        return status;
    }
    uint8_t *bytes = malloc(counted > 0 ? counted : 1);
    if (bytes == NULL) {
        fuzz_fail("out of memory for a footer of %zu bytes", counted);
    }
    if (parquet_footer_rewrite(footer, size, places, count, bytes, counted, &written, why) !=
            PARQUET_OK ||
        written != counted) {
        fuzz_fail("a footer counted as %zu bytes was written as %zu (%s)", counted, written, why);
    }
    if (counted > 0) {
        uint8_t *shorter = malloc(counted - 1 > 0 ? counted - 1 : 1);
        if (shorter == NULL) {
            fuzz_fail("out of memory");
        }
        why[0] = '\0';
        if (parquet_footer_rewrite(footer, size, places, count, shorter, counted - 1, &written,
                                   why) != PARQUET_INVALID ||
            why[0] == '\0') {
            fuzz_fail("a footer of %zu bytes written into %zu", counted, counted - 1);
        }
        free(shorter);
    }
    *out = bytes;
    *out_size = counted;
    return PARQUET_OK;
}

/* The rewrite checks, for a footer whose walk gave status and saw *seen. */
static void check_rewrite(const uint8_t *footer, size_t size, parquet_status status,
                          const walk_seen *seen) {
    uint8_t *out = NULL;
    size_t out_size = 0;
    /* No place: the same bytes. */
    parquet_status same = rewrite(footer, size, NULL, 0, &out, &out_size);
    if (same == PARQUET_OK && (out_size != size || memcmp(out, footer, size) != 0)) {
        fuzz_fail("a footer rewritten without a place is not its own bytes");
    }
    free(out);
    /* Places taken from the input, in any order, for any chunk: a status. */
    parquet_bloom_place places[PLACES_MAX];
    size_t count = 0;
    for (size_t at = 0; at + 12 <= size && count < PLACES_MAX; at += 1 + size / PLACES_MAX) {
        places[count++] =
            (parquet_bloom_place){footer[at] & 3, footer[at + 1] & 7,
                                  (int64_t)(le_load64(footer + at + 2) >> (footer[at + 10] & 63)),
                                  (int32_t)(le_load32(footer + at + 8) >> (footer[at + 11] & 31))};
    }
    rewrite(footer, size, places, count, &out, &out_size);
    free(out);
    /* Places for chunks the walk found with metadata: the walk of the footer written. */
    if (status != PARQUET_OK || same != PARQUET_OK) {
        return;
    }
    uint32_t kept = seen->visits < CHUNKS_KEPT ? seen->visits : CHUNKS_KEPT;
    int chosen[CHUNKS_KEPT] = {0};
    count = 0;
    for (uint32_t i = 0; i < kept && count < PLACES_MAX; i++) {
        uint8_t pick = footer[(i * 7u) % size];
        if (seen->kept[i].has_metadata && (pick & 1)) {
            chosen[i] = 1;
            places[count++] = (parquet_bloom_place){seen->kept[i].row_group, seen->kept[i].column,
                                                    (int64_t)(size * 3 + pick) << (pick & 31),
                                                    (int32_t)(pick * 0x01010101u >> 1)};
        }
    }
    if (rewrite(footer, size, places, count, &out, &out_size) != PARQUET_OK) {
        fuzz_fail("a footer walked and rewritten without a place is refused %zu places", count);
    }
    static walk_seen again_walk; /* no state kept: each call fills it first */
    walk_seen *again = &again_walk;
    char why[PARQUET_WHY_MAX];
    if (walk(out, out_size, 0, again, why) != PARQUET_OK || again->visits != seen->visits) {
        fuzz_fail("the footer rewritten walks otherwise: %s", why);
    }
    for (uint32_t i = 0, p = 0; i < kept; i++) {
        const kept_chunk *a = &seen->kept[i], *b = &again->kept[i];
        int64_t offset = chosen[i] ? places[p].offset : a->offset;
        int64_t length = chosen[i] ? places[p].length : a->length;
        p += (uint32_t)chosen[i];
        if (a->row_group != b->row_group || a->column != b->column ||
            a->has_metadata != b->has_metadata || a->rest != b->rest || b->offset != offset ||
            b->length != length) {
            fuzz_fail("chunk %u/%u rewritten: filter %lld+%lld, expected %lld+%lld", a->row_group,
                      a->column, (long long)b->offset, (long long)b->length, (long long)offset,
                      (long long)length);
        }
    }
    free(out);
}

/* The footer checks: a whole walk, then one stopped inside it, then the rewrites. */
static void check_footer(const uint8_t *footer, size_t size) {
    walk_seen whole, part;
    char why[PARQUET_WHY_MAX];
    parquet_status status = walk(footer, size, 0, &whole, why);
    if (status == PARQUET_STOPPED) {
        fuzz_fail("a walk that never stops stopped");
    }
    check_rewrite(footer, size, status, &whole);
    if (whole.visits == 0) {
        return;
    }
    uint32_t kept = whole.visits < DIGESTS_KEPT ? whole.visits : DIGESTS_KEPT;
    uint32_t k = 1 + (uint32_t)(size % kept);
    parquet_status stopped = walk(footer, size, k, &part, why);
    if (stopped != PARQUET_STOPPED || part.visits != k) {
        fuzz_fail("a walk to stop after %u of %u chunks gave %d after %u", k, whole.visits, stopped,
                  part.visits);
    }
    if (part.digest != whole.digest_after[k - 1]) {
        fuzz_fail("the walk stopped after %u chunks saw other chunks", k);
    }
}

/* The BloomFilterHeader checks. */
static void check_bloom_header(const uint8_t *data, size_t size) {
    parquet_bloom_header h = {0, 0}, again = {0, 0};
    char why[PARQUET_WHY_MAX] = "";
    parquet_status status = parquet_bloom_header_read(data, size, &h, why);
    check_message(status, why, "parquet_bloom_header_read");
    if (status != PARQUET_OK) {
        return;
    }
    if (h.header_bytes == 0 || h.header_bytes > size || h.num_bytes == 0 || h.num_bytes % 32 != 0 ||
        h.num_bytes > INT32_MAX) {
        fuzz_fail("a header of %u bytes for numBytes %u", h.header_bytes, h.num_bytes);
    }
    uint8_t *exact = malloc(h.header_bytes);
    if (exact == NULL) {
        fuzz_fail("out of memory");
    }
    memcpy(exact, data, h.header_bytes);
    if (parquet_bloom_header_read(exact, h.header_bytes, &again, why) != PARQUET_OK ||
        again.header_bytes != h.header_bytes || again.num_bytes != h.num_bytes) {
        fuzz_fail("the header reads otherwise from its own %u bytes", h.header_bytes);
    }
    if (parquet_bloom_header_read(exact, h.header_bytes - 1, &again, why) != PARQUET_TRUNCATED) {
        fuzz_fail("the header's %u bytes less one are not truncated", h.header_bytes);
    }
    free(exact);
    uint8_t written[PARQUET_BLOOM_HEADER_MAX];
    size_t length = parquet_bloom_header_write(written, h.num_bytes);
    if (parquet_bloom_header_read(written, length, &again, why) != PARQUET_OK ||
        again.header_bytes != length || again.num_bytes != h.num_bytes) {
        fuzz_fail("the header written for numBytes %u reads otherwise", h.num_bytes);
    }
}

/* The file checks: the footer located inside the input, then walked. */
static void check_file(const uint8_t *data, size_t size) {
    char why[PARQUET_WHY_MAX] = "";
    check_message(parquet_head_check(data, why), why, "parquet_head_check");
    uint64_t offset = 0;
    uint32_t length = 0;
    const uint8_t *tail = size >= PARQUET_TAIL_BYTES ? data + size - PARQUET_TAIL_BYTES : data;
    parquet_status status = parquet_footer_locate(size, tail, &offset, &length, why);
    check_message(status, why, "parquet_footer_locate");
    if (status != PARQUET_OK) {
        return;
    }
    if (length == 0 || offset < PARQUET_MAGIC_BYTES ||
        offset + length + PARQUET_TAIL_BYTES != size) {
        fuzz_fail("a footer of %u bytes at %llu in a file of %zu", length,
                  (unsigned long long)offset, size);
    }
    check_footer(data + offset, length);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    check_footer(data, size);
    check_bloom_header(data, size);
    if (size >= PARQUET_MAGIC_BYTES) {
        check_file(data, size);
    }
    return 0;
}
