/*
** fuzz_core_scalable.c: the oracle of the scalable Bloom kind (5), from
** docs/format.md 4.5: its validation (the header, then each stage as a Bloom
** filter sized for its place), its model (a key some stage may hold not added,
** any other set in the last stage, merge stage by stage), and the checks of
** scalable_core's own functions, of growth (grow_size and filter_grow, against
** the model) and of merges of filters grown apart.
*/
#include "fuzz_core.h"

#include <stdlib.h>
#include <string.h>

/* Offsets of the scalable kind's own header fields. */
enum {
    OFF_STAGE_LAYOUT = 8,
    OFF_GROWTH = 9,
    OFF_STAGES = 10,
    OFF_SCALABLE_N = 16,
    OFF_SCALABLE_P = 24,
    OFF_TIGHTENING = 32
};

/* The fields of a scalable filter, read from its bytes. */
typedef struct scalable_fields {
    unsigned layout, growth, stages;
    uint64_t n;
    double p, r; /* the compound rate, and the tightening ratio */
    uint64_t keys;
} scalable_fields;

static scalable_fields scalable_fields_of(const uint8_t *blob) {
    scalable_fields s;
    s.layout = blob[OFF_STAGE_LAYOUT];
    s.growth = blob[OFF_GROWTH];
    s.stages = blob[OFF_STAGES];
    s.n = little_endian(blob + OFF_SCALABLE_N, 8);
    s.p = double_at(blob + OFF_SCALABLE_P);
    s.r = double_at(blob + OFF_TIGHTENING);
    s.keys = little_endian(blob + OFF_KEYS, 8);
    return s;
}

static int scalable_is_reserved(size_t offset) {
    return (offset >= 11 && offset < 16) || offset >= 48;
}

/* Stage i's capacity, n growth^i, and rate, p (1 - r) r^i multiplied out in that order (the
** rates are compared exactly); 0 when the capacity passes 2^64 - 1. */
static int stage_target(const scalable_fields *s, unsigned i, uint64_t *n, double *p) {
    uint64_t capacity = s->n;
    double rate = s->p * (1.0 - s->r);
    for (unsigned j = 0; j < i; j++) {
        if (capacity > UINT64_MAX / s->growth) {
            return 0;
        }
        capacity *= s->growth;
        rate *= s->r;
    }
    *n = capacity;
    *p = rate;
    return 1;
}

static int scalable_valid(const uint8_t *blob, size_t size, char *why) {
    scalable_fields s = scalable_fields_of(blob);
    char text[32];
    if (s.layout != BLOOM_LAYOUT_STANDARD && s.layout != BLOOM_LAYOUT_BLOCKED) {
        return refuse(why, "corrupt filter: stage layout %u is not 1 or 2", s.layout);
    }
    if (s.growth < 2) {
        return refuse(why, "corrupt filter: growth %u is less than 2", s.growth);
    }
    if (s.stages < 1 || s.stages > STAGES_MAX) {
        return refuse(why, "corrupt filter: %u stages, not 1 to %d", s.stages, STAGES_MAX);
    }
    if (!(s.r > 0.0 && s.r < 1.0)) {
        return refuse(why, "corrupt filter: tightening ratio %s is not between 0 and 1",
                      rate_text(text, s.r));
    }
    if (!n_p_ok(s.n, s.p, why)) {
        return 0;
    }
    if (size < FILTER_HEADER_BYTES + (size_t)s.stages * (FILTER_HEADER_BYTES + 8)) {
        return refuse(why, "corrupt filter: %zu bytes cannot hold %u stages", size, s.stages);
    }
    return reserved_ok(blob, scalable_is_reserved, why);
}

/* The stages of the scalable filter blob (whose header is valid), as section 5 checks them:
** each a Bloom filter of the stage layout and the filter's hash, as filter_open would accept its
** header alone, sized as its place says (stage_target), holding at most its capacity; the
** stages filling the BLOB and their keys adding up to the header's (a sum past 2^64 - 1, which
** no header holds, is refused as soon as it passes). */
static int scalable_valid_body(const uint8_t *blob, size_t size, char *why) {
    scalable_fields s = scalable_fields_of(blob);
    size_t offset = FILTER_HEADER_BYTES;
    uint64_t keys = 0;
    char stage_why[FILTER_WHY_MAX], text[32];
    for (unsigned i = 0; i < s.stages; i++) {
        const uint8_t *head = blob + offset;
        uint64_t left = size - offset, n;
        double p;
        if (left < FILTER_HEADER_BYTES) {
            return refuse(why,
                          "corrupt filter: stage %u starts at byte %zu, too near the end of %zu "
                          "bytes",
                          i, offset, size);
        }
        uint64_t m = little_endian(head + OFF_M, 8);
        uint64_t stage_bytes = FILTER_HEADER_BYTES + (m / 64 + (m % 64 != 0)) * 8;
        if (stage_bytes > left) {
            return refuse(why,
                          "corrupt filter: stage %u of m = %llu bits does not fit in the %llu "
                          "bytes after byte %zu",
                          i, (unsigned long long)m, (unsigned long long)left, offset);
        }
        if (!spec_prelude_accepts(head, (size_t)stage_bytes, stage_why)) {
            return refuse(why, "corrupt filter: stage %u: %s", i, stage_why);
        }
        if (head[FILTER_OFF_KIND] != s.layout || head[FILTER_OFF_HASH] != blob[FILTER_OFF_HASH]) {
            return refuse(why, "corrupt filter: stage %u is of kind %u and hash %u, not %u and %u",
                          i, head[FILTER_OFF_KIND], head[FILTER_OFF_HASH], s.layout,
                          blob[FILTER_OFF_HASH]);
        }
        if (!spec_accepts(head, (size_t)stage_bytes, stage_why, 1)) {
            return refuse(why, "corrupt filter: stage %u: %s", i, stage_why);
        }
        bloom_header h = bloom_fields_of(head);
        if (!stage_target(&s, i, &n, &p) || h.n != n || memcmp(&h.p, &p, sizeof p) != 0) {
            return refuse(why,
                          "corrupt filter: stage %u is sized for n = %llu at p = %s, not as stage "
                          "%u of this filter",
                          i, (unsigned long long)h.n, rate_text(text, h.p), i);
        }
        if (h.keys > h.n) {
            return refuse(why,
                          "corrupt filter: stage %u holds %llu keys, more than its capacity of "
                          "%llu",
                          i, (unsigned long long)h.keys, (unsigned long long)h.n);
        }
        if (h.keys > UINT64_MAX - keys) {
            return refuse(why,
                          "corrupt filter: %llu keys added, but its stages hold more than %llu",
                          (unsigned long long)s.keys, (unsigned long long)UINT64_MAX);
        }
        keys += h.keys;
        offset += (size_t)stage_bytes;
    }
    if (offset != size) {
        return refuse(why, "corrupt filter: the stages end at byte %zu, the BLOB has %zu", offset,
                      size);
    }
    if (keys != s.keys) {
        return refuse(why, "corrupt filter: %llu keys added, but its stages hold %llu",
                      (unsigned long long)s.keys, (unsigned long long)keys);
    }
    return 1;
}

static void scalable_encode_header(uint8_t *out, const uint8_t *blob) {
    scalable_fields s = scalable_fields_of(blob);
    scalable_header h = {
        (uint8_t)s.layout, (uint8_t)s.growth, (uint8_t)s.stages, s.n, s.p, s.r, s.keys};
    scalable_write_header(out, &h);
}

/* The offset of each stage of the accepted scalable filter blob into offsets (STAGES_MAX);
** returns how many. */
static unsigned stage_offsets(const uint8_t *blob, uint64_t *offsets) {
    unsigned stages = blob[OFF_STAGES];
    uint64_t offset = FILTER_HEADER_BYTES;
    for (unsigned i = 0; i < stages; i++) {
        offsets[i] = offset;
        uint64_t m = bloom_fields_of(blob + offset).m;
        offset += FILTER_HEADER_BYTES + m / 8;
    }
    return stages;
}

/* A key is in a scalable filter when a stage, a Bloom filter, may hold it. */
static int scalable_probe(const uint8_t *blob, key_hash key) {
    uint64_t offsets[STAGES_MAX];
    unsigned stages = stage_offsets(blob, offsets);
    for (unsigned i = 0; i < stages; i++) {
        if (bloom_model_probe(blob + offsets[i], key)) {
            return 1;
        }
    }
    return 0;
}

/* A key a stage may hold is not added again; any other goes into the last stage, counted there
** and in the header, unless it holds its capacity: FILTER_FULL (growing is the caller's). */
static filter_status scalable_add(uint8_t *blob, key_hash key, int *was_absent) {
    uint64_t offsets[STAGES_MAX];
    unsigned stages = stage_offsets(blob, offsets);
    uint8_t *last = blob + offsets[stages - 1];
    *was_absent = !scalable_probe(blob, key);
    if (!*was_absent) {
        return FILTER_OK;
    }
    if (bloom_fields_of(last).keys >= bloom_fields_of(last).n) {
        return FILTER_FULL;
    }
    int ignored;
    bloom_model_add(last, key, &ignored);
    store_u64(blob + OFF_KEYS, scalable_fields_of(blob).keys + 1);
    return FILTER_OK;
}

/* Stage by stage, as far as src has stages: the bits ORed, the keys summed (at most the stage's
** n: compatible checked it); the header's keys summed (modulo 2^64, as the code adds them: two
** headers may hold keys adding up past 2^64 - 1, crafted stages of n up to 2^64 - 1). */
static filter_status scalable_model_merge(uint8_t *dst, const uint8_t *src) {
    uint64_t to[STAGES_MAX], from[STAGES_MAX];
    stage_offsets(dst, to);
    unsigned stages = stage_offsets(src, from);
    for (unsigned i = 0; i < stages; i++) {
        bloom_header a = bloom_fields_of(dst + to[i]), b = bloom_fields_of(src + from[i]);
        for (uint64_t j = 0; j < a.m / 8; j++) {
            dst[to[i] + FILTER_HEADER_BYTES + j] |= src[from[i] + FILTER_HEADER_BYTES + j];
        }
        store_u64(dst + to[i] + OFF_KEYS, a.keys + b.keys);
    }
    store_u64(dst + OFF_KEYS, scalable_fields_of(dst).keys + scalable_fields_of(src).keys);
    return FILTER_OK;
}

/* Scalable filters merge when built alike (stage layout, growth, n, p, ratio) and, stage by
** stage as far as both go, of the same m and k (their n and p are then the same too) and
** holding together at most the stage's capacity (section 4.5, "Union"). */
static int scalable_compatible(const uint8_t *a, const uint8_t *b) {
    scalable_fields x = scalable_fields_of(a), y = scalable_fields_of(b);
    uint64_t ao[STAGES_MAX], bo[STAGES_MAX];
    if (x.layout != y.layout || x.growth != y.growth || x.n != y.n || x.p != y.p || x.r != y.r) {
        return 0;
    }
    unsigned sa = stage_offsets(a, ao), sb = stage_offsets(b, bo);
    for (unsigned i = 0; i < sa && i < sb; i++) {
        bloom_header ha = bloom_fields_of(a + ao[i]), hb = bloom_fields_of(b + bo[i]);
        if (ha.m != hb.m || ha.k != hb.k || ha.keys > ha.n || hb.keys > ha.n - ha.keys) {
            return 0;
        }
    }
    return 1;
}

/* ---- Growth, merges and the kind's own functions ---- */

/* Integer keys a growth check adds after the input's, and the largest filter it grows to: a
** filter of n = 1 grows to 5 stages. */
enum { GROWTH_KEYS = 24, GROWN_BYTES_MAX = 1 << 16 };

/* The lowest rate of a blocked stage a growth check sizes: blocked sizing takes 2 ms there
** (0.16 s at 1e-19), and a growth sizes the next stage twice. */
#define BLOCKED_STAGE_P_MIN 1e-6

/* Writes the header of a stage of a scalable filter, a Bloom filter of kind h->layout and format
** version 1 with h's fields and no key, from 4.1's fields (not by the kind's writer). */
static void encode_stage_header(uint8_t *out, const bloom_header *h) {
    static const uint8_t prelude[8] = {'S', 'Q', 'B', 'F', 1, 1, 0, KEY_HASH_XXH3_128};
    uint64_t p_bits;
    memset(out, 0, FILTER_HEADER_BYTES);
    memcpy(out, prelude, sizeof prelude);
    out[FILTER_OFF_KIND] = h->layout;
    for (int i = 0; i < 4; i++) {
        out[OFF_K + i] = (uint8_t)(h->k >> (8 * i));
    }
    store_u64(out + OFF_M, h->m);
    store_u64(out + OFF_N, h->n);
    memcpy(&p_bits, &h->p, sizeof p_bits);
    store_u64(out + OFF_P, p_bits);
}

/* Whether a growth check may grow a scalable filter with these fields: its next stage is not a
** blocked one below BLOCKED_STAGE_P_MIN. */
static int may_grow(const scalable_fields *s) {
    uint64_t n;
    double p;
    return s->layout != BLOOM_LAYOUT_BLOCKED || !stage_target(s, s->stages, &n, &p) ||
           p >= BLOCKED_STAGE_P_MIN;
}

/*
** Grows the scalable filter *blob (*bytes long, from malloc, accepted) as the SQL functions do
** (grow_size, a larger copy, filter_grow), and the model *model alike: a stage of n growth^i keys
*at
** p (1 - r) r^i, sized by bloom_size, empty, after the last, and the header rewritten by the
** kind's writer with one stage more. Returns 0, both left as they were, when the kind cannot
** grow (FILTER_BAD_ARGUMENT at STAGES_MAX stages, FILTER_TOO_BIG past 2^64 - 1 keys or
** FILTER_MAX_BYTES bytes, or bloom_size's status) or the filter would pass GROWN_BYTES_MAX.
** Aborts unless grow_size's status and size are the model's and the grown filter is accepted.
*/
static int grow_both(uint8_t **blob, uint8_t **model, uint64_t *bytes) {
    filter_view view = open_bytes(*blob, *bytes, "a scalable filter to grow");
    scalable_fields s = scalable_fields_of(*model);
    bloom_header stage = {0};
    double stage_bytes = 0;
    uint64_t grown = 1, n;
    double p;
    filter_status expected = FILTER_BAD_ARGUMENT;
    if (s.stages < STAGES_MAX) {
        expected = stage_target(&s, s.stages, &n, &p)
                       ? bloom_size(n, p, (int)s.layout, &stage, &stage_bytes)
                       : FILTER_TOO_BIG;
    }
    if (expected == FILTER_OK && (double)*bytes + stage_bytes > FILTER_MAX_BYTES) {
        expected = FILTER_TOO_BIG;
    }
    filter_status status = view.kind->grow_size(&view, &grown);
    if (status != expected ||
        (status == FILTER_OK ? grown != *bytes + (uint64_t)stage_bytes : grown != 0)) {
        fuzz_fail("grow_size returns %d and %llu bytes, the model %d and %.17g", status,
                  (unsigned long long)grown, expected, (double)*bytes + stage_bytes);
    }
    if (status != FILTER_OK || grown > GROWN_BYTES_MAX) {
        return 0;
    }
    uint8_t *larger = realloc(*blob, grown), *larger_model = realloc(*model, grown);
    if (larger == NULL || larger_model == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)grown);
    }
    filter_grow(view.kind, larger, *bytes, grown);
    memset(larger_model + *bytes, 0, grown - *bytes);
    encode_stage_header(larger_model + *bytes, &stage);
    uint8_t header[FILTER_HEADER_BYTES];
    scalable_encode_header(header, larger_model);
    header[OFF_STAGES] = (uint8_t)(s.stages + 1);
    memcpy(larger_model, header, FILTER_HEADER_BYTES);
    if (memcmp(larger, larger_model, grown) != 0) {
        fuzz_fail("a scalable filter grown to %u stages differs from the model", s.stages + 1);
    }
    open_bytes(larger, grown, "a grown scalable filter");
    *blob = larger;
    *model = larger_model;
    *bytes = grown;
    return 1;
}

/* Aborts unless each of keys probes 1 in the scalable filter blob (bytes long), through
** might_contain, might_contain_io and the model. */
static void check_all_probe(io_target *t, const uint8_t *blob, uint64_t bytes, const key_hash *keys,
                            size_t count) {
    filter_view view = open_bytes(blob, bytes, "a grown scalable filter");
    uint8_t *scratch = duplicate(blob, bytes);
    for (size_t i = 0; i < count; i++) {
        int answer;
        if (view.kind->might_contain(&view, keys[i]) != 1 ||
            check_io(t, &view, scratch, OP_MIGHT_CONTAIN, keys[i], &answer) != FILTER_OK ||
            answer != 1 || scalable_probe(blob, keys[i]) != 1) {
            fuzz_fail("key %zu of %zu added to a scalable filter probes 0", i, count);
        }
    }
    free(scratch);
}

/* Adds key (the index-th) to the scalable filter blob (bytes long) by add, by add_io through
** filter_io_memory (check_io: also through the checked filter_io, with a read or write failing)
** and to model by the model, which must agree in status, answer and bytes; blob and model
** change only when the add succeeds. Returns the status. */
static filter_status add_three(io_target *t, uint8_t *blob, uint8_t *model, uint64_t bytes,
                               key_hash key, size_t index) {
    filter_view view = open_bytes(blob, bytes, "a scalable filter added to");
    uint8_t *in_memory = duplicate(blob, bytes), *via_io = duplicate(blob, bytes);
    int answer, was_absent;
    filter_status status = filter_add(view.kind, in_memory, key);
    filter_status io_status = check_io(t, &view, via_io, OP_ADD, key, &answer);
    filter_status model_status = scalable_add(model, key, &was_absent);
    if (status != io_status || status != model_status ||
        (status == FILTER_OK && (answer != was_absent || memcmp(in_memory, via_io, bytes) != 0 ||
                                 memcmp(in_memory, model, bytes) != 0))) {
        fuzz_fail("adding key %zu to a scalable filter: add %d, add_io %d, the model %d; the "
                  "bytes %s",
                  index, status, io_status, model_status,
                  memcmp(in_memory, model, bytes) != 0 ? "differ" : "agree");
    }
    if (status == FILTER_OK) {
        memcpy(blob, in_memory, bytes);
    } else if (status != FILTER_FULL) {
        fuzz_fail("adding to a scalable filter returns %d", status);
    }
    free(in_memory);
    free(via_io);
    return status;
}

/*
** Adds keys, in turn, to a copy of the scalable filter start (*bytes long, accepted), by the
** kind and the model (add_three). A key that finds the last stage full (FILTER_FULL) grows both
** (grow_both) and then goes in. Stops at the first key it cannot add, the filter unable to
** grow. Returns the filter (malloc), *bytes its length, *added how many keys went in: each
** probes 1 once added, and all of them after each growth and at the end.
*/
static uint8_t *add_growing(const uint8_t *start, uint64_t *bytes, const key_hash *keys,
                            size_t count, size_t *added) {
    uint8_t *blob = duplicate(start, *bytes), *model = duplicate(start, *bytes);
    io_target t = io_new();
    for (*added = 0; *added < count; (*added)++) {
        key_hash key = keys[*added];
        if (add_three(&t, blob, model, *bytes, key, *added) == FILTER_FULL) {
            scalable_fields now = scalable_fields_of(blob);
            if (!may_grow(&now) || !grow_both(&blob, &model, bytes)) {
                break;
            }
            check_all_probe(&t, blob, *bytes, keys, *added);
            if (add_three(&t, blob, model, *bytes, key, *added) != FILTER_OK) {
                fuzz_fail("a grown scalable filter has no room for a key");
            }
        }
        filter_view view = open_bytes(blob, *bytes, "a scalable filter added to");
        if (view.kind->might_contain(&view, key) != 1) {
            fuzz_fail("key %zu added to a scalable filter probes 0", *added);
        }
    }
    check_all_probe(&t, blob, *bytes, keys, *added);
    free(model);
    io_close(&t);
    return blob;
}

/* Aborts unless scalable_size, for the parameters of the scalable filter s, sizes a filter of
** one empty stage sized by bloom_size for stage 0's target, with s's parameters, and says how
** many bytes it needs (also when too big). Returns that filter, written as bloom_build writes
** it (malloc, *bytes long), or NULL when it is not sized or larger than GROWN_BYTES_MAX. */
static uint8_t *fresh_scalable(const scalable_fields *s, uint64_t *bytes) {
    scalable_header out;
    bloom_header first, expected_first;
    double needed, stage_bytes = 0;
    uint64_t n;
    double p;
    stage_target(s, 0, &n, &p);
    if (s->layout == BLOOM_LAYOUT_BLOCKED && p < BLOCKED_STAGE_P_MIN) {
        return NULL;
    }
    filter_status expected = bloom_size(n, p, (int)s->layout, &expected_first, &stage_bytes);
    double total = FILTER_HEADER_BYTES + stage_bytes;
    if (expected == FILTER_OK && total > FILTER_MAX_BYTES) {
        expected = FILTER_TOO_BIG;
    }
    filter_status status =
        scalable_size(s->n, s->p, (int)s->layout, (int)s->growth, s->r, &out, &first, &needed);
    if (status != expected || needed != total) {
        fuzz_fail("scalable_size returns %d and %.17g bytes, the model %d and %.17g", status,
                  needed, expected, total);
    }
    if (status != FILTER_OK || total > GROWN_BYTES_MAX) {
        return NULL;
    }
    uint8_t stage_header[FILTER_HEADER_BYTES];
    *bytes = (uint64_t)total;
    uint8_t *blob = calloc(1, (size_t)*bytes);
    if (blob == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)*bytes);
    }
    scalable_write_header(blob, &out);
    bloom_write_header(blob + FILTER_HEADER_BYTES, &first);
    encode_stage_header(stage_header, &expected_first);
    scalable_fields written = scalable_fields_of(blob);
    if (written.layout != s->layout || written.growth != s->growth || written.stages != 1 ||
        written.n != s->n || memcmp(&written.p, &s->p, sizeof s->p) != 0 ||
        memcmp(&written.r, &s->r, sizeof s->r) != 0 || written.keys != 0 ||
        memcmp(blob + FILTER_HEADER_BYTES, stage_header, FILTER_HEADER_BYTES) != 0) {
        fuzz_fail("scalable_size gives another header or first stage than the model");
    }
    open_bytes(blob, *bytes, "a scalable filter scalable_size sized");
    return blob;
}

/* Aborts unless the kind's compatible accepts the scalable filters a and b (of a_keys and
** b_keys, which probe 1 in them), in either order, when the model does; and then unless their
** merge, the shorter into a copy of the longer (as bloom_union does), is the model's, accepted,
** and holds every key of both. */
static void check_scalable_merge(const uint8_t *a, uint64_t a_bytes, const uint8_t *b,
                                 uint64_t b_bytes, const key_hash *a_keys, size_t a_count,
                                 const key_hash *b_keys, size_t b_count) {
    const uint8_t *longer = a_bytes >= b_bytes ? a : b, *shorter = a_bytes >= b_bytes ? b : a;
    uint64_t longer_bytes = a_bytes >= b_bytes ? a_bytes : b_bytes;
    uint64_t shorter_bytes = a_bytes >= b_bytes ? b_bytes : a_bytes;
    filter_view into = open_bytes(longer, longer_bytes, "a scalable filter");
    filter_view from = open_bytes(shorter, shorter_bytes, "a scalable filter");
    char why[FILTER_WHY_MAX];
    filter_status status = filter_compatible(&into, &from, why);
    int expected = scalable_compatible(longer, shorter);
    if ((status != FILTER_OK && status != FILTER_INVALID) || (status == FILTER_OK) != expected ||
        filter_compatible(&from, &into, why) != status) {
        fuzz_fail("compatible of two scalable filters returns %d, the model %s", status,
                  expected ? "accepts" : "refuses");
    }
    if (status != FILTER_OK) {
        return;
    }
    uint8_t *merged = duplicate(longer, longer_bytes), *model = duplicate(longer, longer_bytes);
    if (into.kind->merge(merged, &from) != FILTER_OK ||
        scalable_model_merge(model, shorter) != FILTER_OK ||
        memcmp(merged, model, longer_bytes) != 0) {
        fuzz_fail("merging two scalable filters differs from the model");
    }
    filter_view view = open_bytes(merged, longer_bytes, "a merged scalable filter");
    for (size_t i = 0; i < a_count + b_count; i++) {
        key_hash key = i < a_count ? a_keys[i] : b_keys[i - a_count];
        if (view.kind->might_contain(&view, key) != 1) {
            fuzz_fail("key %zu of two merged scalable filters probes 0", i);
        }
    }
    free(merged);
    free(model);
}

/*
** The scalable kind's own functions: scalable_header_of, scalable_stage_at,
** scalable_stage_target, scalable_compound_rate and scalable_size against the bytes and the
** model. Then growth and merges: the input's first half of keys and GROWTH_KEYS integers added
** to f, growing it (add_growing), the second half and other integers to a fresh filter of f's
** parameters, and the two merged (check_scalable_merge).
*/
static void scalable_check_own(const filter_view *f, const key_hash *keys, size_t count) {
    scalable_header h = scalable_header_of(f);
    scalable_fields s = scalable_fields_of(f->blob);
    uint64_t offsets[STAGES_MAX];
    double rates[STAGES_MAX], none = 1.0;
    if (h.stage_layout != s.layout || h.growth != s.growth || h.stages != s.stages || h.n != s.n ||
        memcmp(&h.p, &s.p, sizeof h.p) != 0 || memcmp(&h.tightening, &s.r, sizeof s.r) != 0 ||
        h.keys != s.keys) {
        fuzz_fail("scalable_header_of decodes other fields than the bytes hold");
    }
    unsigned stages = stage_offsets(f->blob, offsets);
    for (unsigned i = 0; i < stages; i++) {
        scalable_stage stage;
        bloom_header expected = bloom_fields_of(f->blob + offsets[i]);
        scalable_stage_at(f, (int)i, &stage);
        if (stage.offset != offsets[i] || stage.bytes != FILTER_HEADER_BYTES + expected.m / 8 ||
            stage.header.layout != expected.layout || stage.header.k != expected.k ||
            stage.header.m != expected.m || stage.header.n != expected.n ||
            memcmp(&stage.header.p, &expected.p, sizeof expected.p) != 0 ||
            stage.header.keys != expected.keys) {
            fuzz_fail("scalable_stage_at(%u) gives other fields than the bytes hold", i);
        }
        rates[i] = bloom_measure(&stage.header, f->blob + stage.offset + FILTER_HEADER_BYTES)
                       .estimated_fp_rate;
        none *= 1.0 - rates[i];
    }
    if (scalable_compound_rate(rates, (int)stages) != 1.0 - none) {
        fuzz_fail("scalable_compound_rate is %.17g, not %.17g",
                  scalable_compound_rate(rates, (int)stages), 1.0 - none);
    }
    for (unsigned i = 0; i <= STAGES_MAX; i++) {
        uint64_t n = 0, expected_n = 0;
        double p = 0, expected_p = 0;
        int fits = scalable_stage_target(&h, (int)i, &n, &p);
        if (fits != stage_target(&s, i, &expected_n, &expected_p) ||
            (fits && (n != expected_n || memcmp(&p, &expected_p, sizeof p) != 0))) {
            fuzz_fail("scalable_stage_target(%u) gives %llu and %.17g, the model %llu and %.17g", i,
                      (unsigned long long)n, p, (unsigned long long)expected_n, expected_p);
        }
    }

    size_t half = count / 2, a_added, b_added;
    key_hash a_keys[MAX_KEYS + GROWTH_KEYS], b_keys[MAX_KEYS + GROWTH_KEYS];
    memcpy(a_keys, keys, half * sizeof *keys);
    memcpy(b_keys, keys + half, (count - half) * sizeof *keys);
    for (int i = 0; i < GROWTH_KEYS; i++) {
        a_keys[half + i] = key_hash_integer(INT64_C(1) << 40 | i);
        b_keys[count - half + i] = key_hash_integer(INT64_C(2) << 40 | i);
    }
    uint64_t a_bytes = f->bytes, b_bytes;
    uint8_t *a = add_growing(f->blob, &a_bytes, a_keys, half + GROWTH_KEYS, &a_added);
    uint8_t *fresh = fresh_scalable(&s, &b_bytes);
    if (fresh != NULL) {
        uint8_t *b = add_growing(fresh, &b_bytes, b_keys, count - half + GROWTH_KEYS, &b_added);
        check_scalable_merge(a, a_bytes, b, b_bytes, a_keys, a_added, b_keys, b_added);
        free(b);
        free(fresh);
    }
    free(a);
}

const kind_oracle scalable_oracle = {.id = SCALABLE_KIND,
                                     .is_reserved = scalable_is_reserved,
                                     .valid = scalable_valid,
                                     .valid_body = scalable_valid_body,
                                     .compatible = scalable_compatible,
                                     .encode_header = scalable_encode_header,
                                     .probe = scalable_probe,
                                     .add = scalable_add,
                                     .merge = scalable_model_merge,
                                     .check_own = scalable_check_own};
