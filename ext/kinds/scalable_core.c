/*
** scalable_core.c: the scalable Bloom filter kind. See scalable_core.h for the
** contracts and docs/format.md for the bytes.
*/
#include "scalable_core.h"

#include "filter_info.h"
#include "little_endian.h"

#include <string.h>

/* Offsets of the header's fields, after the prelude. */
enum {
    OFF_STAGE_LAYOUT = 8,
    OFF_GROWTH = 9,
    OFF_STAGES = 10,
    OFF_RESERVED_A = 11, /* 5 bytes */
    OFF_N = 16,
    OFF_P = 24,
    OFF_TIGHTENING = 32,
    OFF_KEYS = 40
};

int scalable_stage_target(const scalable_header *h, int i, uint64_t *n, double *p) {
    uint64_t capacity = h->n;
    double rate = h->p * (1.0 - h->tightening);
    for (int j = 0; j < i; j++) {
        if (capacity > UINT64_MAX / h->growth) {
            return 0;
        }
        capacity *= h->growth;
        rate *= h->tightening;
    }
    *n = capacity;
    *p = rate;
    return 1;
}

filter_status scalable_size(uint64_t n, double p, int stage_layout, int growth, double tightening,
                            scalable_header *out, bloom_header *first, double *bytes_needed) {
    uint64_t first_n;
    double first_p, stage_bytes = 0;
    memset(out, 0, sizeof *out);
    *bytes_needed = 0;
    if (n < 1 || filter_check_rate(p) != FILTER_OK || growth < 2 || growth > UINT8_MAX ||
        !(tightening > 0.0 && tightening < 1.0)) {
        return FILTER_BAD_ARGUMENT;
    }
    out->stage_layout = (uint8_t)stage_layout;
    out->growth = (uint8_t)growth;
    out->stages = 1;
    out->n = n;
    out->p = p;
    out->tightening = tightening;
    scalable_stage_target(out, 0, &first_n, &first_p);
    filter_status status = bloom_size(first_n, first_p, stage_layout, first, &stage_bytes);
    *bytes_needed = FILTER_HEADER_BYTES + stage_bytes;
    if (status == FILTER_OK && *bytes_needed > FILTER_MAX_BYTES) {
        status = FILTER_TOO_BIG;
    }
    return status;
}

void scalable_write_header(uint8_t *blob, const scalable_header *h) {
    memset(blob, 0, FILTER_HEADER_BYTES);
    filter_write_prelude(blob, &scalable_kind);
    blob[OFF_STAGE_LAYOUT] = h->stage_layout;
    blob[OFF_GROWTH] = h->growth;
    blob[OFF_STAGES] = h->stages;
    le_store64(blob + OFF_N, h->n);
    le_store64(blob + OFF_P, le_double_bits(h->p));
    le_store64(blob + OFF_TIGHTENING, le_double_bits(h->tightening));
    le_store64(blob + OFF_KEYS, h->keys);
}

scalable_header scalable_header_of(const filter_view *f) {
    scalable_header h;
    h.stage_layout = f->blob[OFF_STAGE_LAYOUT];
    h.growth = f->blob[OFF_GROWTH];
    h.stages = f->blob[OFF_STAGES];
    h.n = le_load64(f->blob + OFF_N);
    h.p = le_bits_double(le_load64(f->blob + OFF_P));
    h.tightening = le_bits_double(le_load64(f->blob + OFF_TIGHTENING));
    h.keys = le_load64(f->blob + OFF_KEYS);
    return h;
}

/* The Bloom header of a stage whose header is at head, of the given layout (as validated). */
static bloom_header scalable_stage_header(const uint8_t *head, int layout) {
    filter_view stage = {bloom_kind_of_layout(layout), 0, 0, 0, head, 0};
    return bloom_header_of(&stage);
}

void scalable_stage_at(const filter_view *f, int i, scalable_stage *stage) {
    int layout = f->blob[OFF_STAGE_LAYOUT];
    stage->offset = FILTER_HEADER_BYTES;
    for (int j = 0;; j++) {
        stage->header = scalable_stage_header(f->blob + stage->offset, layout);
        stage->bytes = bloom_blob_bytes(stage->header.m);
        if (j == i) {
            return;
        }
        stage->offset += stage->bytes;
    }
}

double scalable_compound_rate(const double *rates, int stages) {
    double none = 1.0;
    for (int i = 0; i < stages; i++) {
        none *= 1.0 - rates[i];
    }
    return 1.0 - none;
}

/* The kind's validate: the header alone; the stages are validate_body's. */
static filter_status scalable_kind_validate(const filter_view *f, char *why) {
    scalable_header h = scalable_header_of(f);
    char r_text[32];
    if (h.stage_layout != BLOOM_LAYOUT_STANDARD && h.stage_layout != BLOOM_LAYOUT_BLOCKED) {
        return filter_invalid(why, "corrupt filter: stage layout %u is not 1 or 2", h.stage_layout);
    }
    if (h.growth < 2) {
        return filter_invalid(why, "corrupt filter: growth %u is less than 2", h.growth);
    }
    if (h.stages < 1 || h.stages > SCALABLE_STAGES_MAX) {
        return filter_invalid(why, "corrupt filter: %u stages, not 1 to %d", h.stages,
                              SCALABLE_STAGES_MAX);
    }
    if (!(h.tightening > 0.0 && h.tightening < 1.0)) {
        return filter_invalid(why, "corrupt filter: tightening ratio %s is not between 0 and 1",
                              filter_format_double(r_text, h.tightening));
    }
    if (filter_check_capacity(h.n, h.p, why) != FILTER_OK) {
        return FILTER_INVALID;
    }
    /* Each stage is at least a header and a word. */
    if (f->bytes < FILTER_HEADER_BYTES + (uint64_t)h.stages * (FILTER_HEADER_BYTES + 8)) {
        return filter_invalid(why, "corrupt filter: %llu bytes cannot hold %u stages",
                              (unsigned long long)f->bytes, h.stages);
    }
    return filter_check_reserved(f, OFF_RESERVED_A, OFF_N, why);
}

/* Checks the header of stage i, at head, starting at offset of a filter with header h (of
** bytes bytes): a Bloom filter of the stage layout and key hash, sized as stage i is, whose
** BLOB ends within the filter. Its length, into *stage_bytes. */
static filter_status scalable_validate_stage(const filter_view *f, const scalable_header *h, int i,
                                             const uint8_t *head, uint64_t offset,
                                             uint64_t *stage_bytes, char *why) {
    uint64_t left = f->bytes - offset, m = le_load64(head + BLOOM_OFF_M), n;
    filter_view stage;
    char stage_why[FILTER_WHY_MAX], p_text[32];
    double p;
    if (bloom_blob_bytes(m) > left) {
        return filter_invalid(why,
                              "corrupt filter: stage %d of m = %llu bits does not fit in "
                              "the %llu bytes after byte %llu",
                              i, (unsigned long long)m, (unsigned long long)left,
                              (unsigned long long)offset);
    }
    *stage_bytes = bloom_blob_bytes(m);
    int id = filter_read_prelude(head, *stage_bytes, &stage, stage_why);
    if (id < 0) {
        return filter_invalid(why, "corrupt filter: stage %d: %s", i, stage_why);
    }
    if (id != h->stage_layout || stage.hash != f->hash) {
        return filter_invalid(why,
                              "corrupt filter: stage %d is of kind %d and hash %u, not %u "
                              "and %u",
                              i, id, stage.hash, h->stage_layout, f->hash);
    }
    if (filter_check_kind(&stage, bloom_kind_of_layout(id), stage_why) != FILTER_OK) {
        return filter_invalid(why, "corrupt filter: stage %d: %s", i, stage_why);
    }
    bloom_header bh = bloom_header_of(&stage);
    if (!scalable_stage_target(h, i, &n, &p) || bh.n != n || bh.p != p) {
        return filter_invalid(why,
                              "corrupt filter: stage %d is sized for n = %llu at p = %s, "
                              "not as stage %d of this filter",
                              i, (unsigned long long)bh.n, filter_format_double(p_text, bh.p), i);
    }
    if (bh.keys > bh.n) {
        return filter_invalid(why,
                              "corrupt filter: stage %d holds %llu keys, more than its "
                              "capacity of %llu",
                              i, (unsigned long long)bh.keys, (unsigned long long)bh.n);
    }
    return FILTER_OK;
}

/* The kind's count_io: each stage's header, read one after the other (at most
** SCALABLE_STAGES_MAX reads), and the stages filling the BLOB; their keys into *count. */
static filter_status scalable_kind_count_io(const filter_view *f, filter_io *io, uint64_t *count,
                                            char *why) {
    scalable_header h = scalable_header_of(f);
    uint64_t offset = FILTER_HEADER_BYTES, keys = 0, stage_bytes = 0;
    for (int i = 0; i < h.stages; i++) {
        uint8_t head[FILTER_HEADER_BYTES];
        if (f->bytes - offset < FILTER_HEADER_BYTES) {
            return filter_invalid(why,
                                  "corrupt filter: stage %d starts at byte %llu, too near "
                                  "the end of %llu bytes",
                                  i, (unsigned long long)offset, (unsigned long long)f->bytes);
        }
        if (io->read(io->state, offset, head, FILTER_HEADER_BYTES) != 0) {
            return FILTER_IO_FAILED;
        }
        filter_status status = scalable_validate_stage(f, &h, i, head, offset, &stage_bytes, why);
        if (status != FILTER_OK) {
            return status;
        }
        uint64_t stage_keys = le_load64(head + BLOOM_OFF_KEYS);
        if (stage_keys > UINT64_MAX - keys) { /* each is at most its n, but n_i can be 2^64 - 1 */
            return filter_invalid(why,
                                  "corrupt filter: %llu keys added, but its stages hold "
                                  "more than %llu",
                                  (unsigned long long)h.keys, (unsigned long long)UINT64_MAX);
        }
        keys += stage_keys;
        offset += stage_bytes;
    }
    if (offset != f->bytes) {
        return filter_invalid(why,
                              "corrupt filter: the stages end at byte %llu, the BLOB has "
                              "%llu",
                              (unsigned long long)offset, (unsigned long long)f->bytes);
    }
    *count = keys;
    return FILTER_OK;
}

/* The kind's validate_body: count_io's checks, and the stages' keys adding up to the count. */
static filter_status scalable_kind_validate_body(const filter_view *f, filter_io *io, char *why) {
    scalable_header h = scalable_header_of(f);
    uint64_t keys;
    filter_status status = scalable_kind_count_io(f, io, &keys, why);
    if (status != FILTER_OK) {
        return status;
    }
    if (keys != h.keys) {
        return filter_invalid(why, "corrupt filter: %llu keys added, but its stages hold %llu",
                              (unsigned long long)h.keys, (unsigned long long)keys);
    }
    return FILTER_OK;
}

/* The kind's might_contain: whether any stage may hold key. */
static int scalable_kind_might_contain(const filter_view *f, key_hash key) {
    int layout = f->blob[OFF_STAGE_LAYOUT], stages = f->blob[OFF_STAGES];
    const uint8_t *starts[SCALABLE_STAGES_MAX], *stage = f->blob + FILTER_HEADER_BYTES;
    for (int i = 0; i < stages; i++) {
        starts[i] = stage;
        stage += bloom_blob_bytes(le_load64(stage + BLOOM_OFF_M));
    }
    for (int i = stages - 1; i >= 0; i--) { /* the last first: it holds about half the keys */
        bloom_header h = scalable_stage_header(starts[i], layout);
        if (bloom_test(starts[i] + FILTER_HEADER_BYTES, &h, key)) {
            return 1;
        }
    }
    return 0;
}

/* The kind's write_header. */
static void scalable_kind_write_header(uint8_t *dst, const filter_view *f) {
    scalable_header h = scalable_header_of(f);
    scalable_write_header(dst, &h);
}

/* The kind's add: nothing when a stage may hold key; else into the last stage, or
** FILTER_FULL when it holds its capacity. */
static filter_status scalable_kind_add(uint8_t *blob, key_hash key) {
    filter_view f = {&scalable_kind, 0, 0, 0, blob, 0};
    scalable_header h = scalable_header_of(&f);
    uint8_t *stage = blob + FILTER_HEADER_BYTES, *last = stage;
    bloom_header last_header = {0};
    for (int i = 0; i < h.stages; i++) {
        last_header = scalable_stage_header(stage, h.stage_layout);
        if (bloom_test(stage + FILTER_HEADER_BYTES, &last_header, key)) {
            return FILTER_OK;
        }
        last = stage;
        stage += bloom_blob_bytes(last_header.m);
    }
    if (last_header.keys >= last_header.n) {
        return FILTER_FULL;
    }
    bloom_set(last + FILTER_HEADER_BYTES, &last_header, key);
    le_store64(last + BLOOM_OFF_KEYS, last_header.keys + 1);
    le_store64(blob + OFF_KEYS, h.keys + 1);
    return FILTER_OK;
}

/* The kind's compatible: the same first stage, rate and ratios, and stages that together hold
** no more keys than they are sized for. */
static filter_status scalable_kind_compatible(const filter_view *a, const filter_view *b,
                                              char *why) {
    scalable_header ha = scalable_header_of(a), hb = scalable_header_of(b);
    char pa[32], pb[32];
    if (ha.stage_layout != hb.stage_layout || ha.growth != hb.growth || ha.n != hb.n ||
        ha.p != hb.p || ha.tightening != hb.tightening) {
        return filter_invalid(why,
                              "incompatible filters: scalable filters built with n = %llu, "
                              "p = %s and with n = %llu, p = %s; build both with the same n "
                              "and p",
                              (unsigned long long)ha.n, filter_format_double(pa, ha.p),
                              (unsigned long long)hb.n, filter_format_double(pb, hb.p));
    }
    for (int i = 0; i < ha.stages && i < hb.stages; i++) {
        scalable_stage sa, sb;
        scalable_stage_at(a, i, &sa);
        scalable_stage_at(b, i, &sb);
        /* Validation ties a stage's n and p to the header, not its m and k: merge reads and
        ** writes each stage by a's m. */
        if (bloom_check_compatible(&sa.header, &sb.header, why) != FILTER_OK) {
            return FILTER_INVALID;
        }
        if (sb.header.keys > sa.header.n - sa.header.keys) { /* a's keys <= its n: no wrap */
            return filter_invalid(
                why,
                "incompatible filters: together their stage %d would hold "
                "%llu keys, more than the %llu it is sized for; build one "
                "filter from both sets of keys",
                i, (unsigned long long)filter_add_counts(sa.header.keys, sb.header.keys),
                (unsigned long long)sa.header.n);
        }
    }
    return FILTER_OK;
}

/* The kind's merge: stage by stage, the bits ORed and the keys summed. */
static filter_status scalable_kind_merge(uint8_t *blob, const filter_view *f) {
    filter_view into = {&scalable_kind, 0, 0, 0, blob, 0};
    scalable_header h = scalable_header_of(&into), from_header = scalable_header_of(f);
    for (int i = 0; i < from_header.stages; i++) {
        scalable_stage to, from;
        scalable_stage_at(&into, i, &to);
        scalable_stage_at(f, i, &from);
        bloom_merge(blob + to.offset + FILTER_HEADER_BYTES,
                    f->blob + from.offset + FILTER_HEADER_BYTES, to.header.m);
        le_store64(blob + to.offset + BLOOM_OFF_KEYS, to.header.keys + from.header.keys);
    }
    le_store64(blob + OFF_KEYS, filter_add_counts(h.keys, from_header.keys));
    return FILTER_OK;
}

/* A stage read through io: its header, a view of it and an io over its bytes. */
typedef struct scalable_io_stage {
    uint8_t head[FILTER_HEADER_BYTES];
    filter_view view;
    filter_io_part part;
    uint64_t offset;
} scalable_io_stage;

/* Reads the header of the stage at offset of f through io into *s. */
static filter_status scalable_read_stage(const filter_view *f, filter_io *io, uint64_t offset,
                                         scalable_io_stage *s) {
    if (io->read(io->state, offset, s->head, FILTER_HEADER_BYTES) != 0) {
        return FILTER_IO_FAILED;
    }
    const filter_kind *kind = bloom_kind_of_layout(f->blob[OFF_STAGE_LAYOUT]);
    filter_view view = {kind, BLOOM_FORMAT_VERSION, BLOOM_FORMAT_VERSION, f->hash, s->head, 0};
    view.bytes = bloom_blob_bytes(le_load64(s->head + BLOOM_OFF_M));
    s->view = view;
    s->offset = offset;
    filter_io_part_init(&s->part, io, offset);
    return FILTER_OK;
}

/* Probes the stages of f through io for key: *answer 1 when one may hold it, else 0 with the
** last stage in *last. */
static filter_status scalable_probe_stages(const filter_view *f, filter_io *io, key_hash key,
                                           int *answer, scalable_io_stage *last) {
    uint64_t offset = FILTER_HEADER_BYTES;
    int stages = f->blob[OFF_STAGES];
    *answer = 0;
    for (int i = 0; i < stages && !*answer; i++) {
        filter_status status = scalable_read_stage(f, io, offset, last);
        if (status == FILTER_OK) {
            status = last->view.kind->might_contain_io(&last->view, &last->part.io, key, answer);
        }
        if (status != FILTER_OK) {
            return status;
        }
        offset += last->view.bytes;
    }
    return FILTER_OK;
}

/* The kind's might_contain_io. */
static filter_status scalable_kind_might_contain_io(const filter_view *f, filter_io *io,
                                                    key_hash key, int *answer) {
    scalable_io_stage stage;
    return scalable_probe_stages(f, io, key, answer, &stage);
}

/* The kind's add_io, as add. */
static filter_status scalable_kind_add_io(const filter_view *f, filter_io *io, key_hash key,
                                          int *was_absent) {
    scalable_io_stage last;
    int answer, absent;
    uint8_t keys[8];
    filter_status status = scalable_probe_stages(f, io, key, &answer, &last);
    *was_absent = 0;
    if (status != FILTER_OK || answer) {
        return status;
    }
    bloom_header h = bloom_header_of(&last.view);
    if (h.keys >= h.n) {
        return FILTER_FULL;
    }
    status = last.view.kind->add_io(&last.view, &last.part.io, key, &absent);
    if (status != FILTER_OK) {
        return status;
    }
    *was_absent = 1;
    le_store64(keys, scalable_header_of(f).keys + 1);
    return io->write(io->state, OFF_KEYS, keys, sizeof keys) != 0 ? FILTER_IO_FAILED : FILTER_OK;
}

/* The header of the stage a filter with header h would grow by, into *stage, with the bytes
** it needs. */
static filter_status scalable_next_stage(const scalable_header *h, bloom_header *stage,
                                         double *bytes) {
    uint64_t n;
    double p;
    *bytes = 0;
    if (h->stages >= SCALABLE_STAGES_MAX) {
        return FILTER_BAD_ARGUMENT;
    }
    if (!scalable_stage_target(h, h->stages, &n, &p)) {
        return FILTER_TOO_BIG;
    }
    return bloom_size(n, p, h->stage_layout, stage, bytes);
}

/* The kind's grow_size: one more stage. */
static filter_status scalable_kind_grow_size(const filter_view *f, uint64_t *bytes) {
    scalable_header h = scalable_header_of(f);
    bloom_header stage;
    double stage_bytes;
    filter_status status = scalable_next_stage(&h, &stage, &stage_bytes);
    /* In integers: a double near 2^61 cannot tell one byte from the next. */
    if (status == FILTER_OK && (f->bytes > (uint64_t)FILTER_MAX_BYTES ||
                                (uint64_t)stage_bytes > (uint64_t)FILTER_MAX_BYTES - f->bytes)) {
        status = FILTER_TOO_BIG;
    }
    *bytes = status == FILTER_OK ? f->bytes + (uint64_t)stage_bytes : 0;
    return status;
}

/* The kind's grow_io: the next stage's header after the last stage (its body is the caller's
** zeros), then the header that counts it. */
static filter_status scalable_kind_grow_io(const filter_view *f, filter_io *io) {
    scalable_header h = scalable_header_of(f);
    bloom_header stage;
    double stage_bytes;
    uint8_t header[FILTER_HEADER_BYTES];
    scalable_next_stage(&h, &stage, &stage_bytes); /* grow_size said it fits */
    bloom_write_header(header, &stage);
    if (io->write(io->state, f->bytes, header, sizeof header) != 0) {
        return FILTER_IO_FAILED;
    }
    h.stages++;
    scalable_write_header(header, &h);
    return io->write(io->state, 0, header, sizeof header) != 0 ? FILTER_IO_FAILED : FILTER_OK;
}

/* Appends stage i of f to the "stages" list of bloom_info, with its rate as measured into
** *rate. O(its m). */
static void scalable_stage_info(const filter_view *f, int i, double *rate, info_sink *sink) {
    scalable_stage s;
    scalable_stage_at(f, i, &s);
    bloom_fill fill = bloom_measure(&s.header, f->blob + s.offset + FILTER_HEADER_BYTES);
    *rate = fill.estimated_fp_rate;
    info_object_begin(sink);
    info_count(sink, "n", s.header.n);
    info_real(sink, "p", s.header.p);
    info_count(sink, "k", s.header.k);
    info_count(sink, "m", s.header.m);
    info_count(sink, "bytes", s.bytes);
    info_count(sink, "keys_added", s.header.keys);
    info_count(sink, "bits_set", fill.bits_set);
    info_real(sink, "fill_ratio", fill.fill_ratio);
    info_real(sink, "estimated_fp_rate", fill.estimated_fp_rate);
    info_object_end(sink);
}

/* The fields of bloom_info: the header, each stage, and the compound rate they give. O(size). */
static void scalable_kind_info(const filter_view *f, info_sink *sink) {
    scalable_header h = scalable_header_of(f);
    double rates[SCALABLE_STAGES_MAX];
    uint64_t capacity = 0;
    for (int i = 0; i < h.stages; i++) {
        uint64_t n = 0;
        double p;
        scalable_stage_target(&h, i, &n, &p); /* validation checked that each fits */
        capacity = filter_add_counts(capacity, n);
    }
    info_string(sink, "stage_layout", bloom_kind_of_layout(h.stage_layout)->name);
    info_count(sink, "growth", h.growth);
    info_real(sink, "tightening", h.tightening);
    info_count(sink, "bytes", f->bytes);
    info_count(sink, "n", h.n);
    info_real(sink, "p", h.p);
    info_count(sink, "keys_added", h.keys);
    info_count(sink, "capacity", capacity);
    info_count(sink, "stage_count", h.stages);
    info_list_begin(sink, "stages");
    for (int i = 0; i < h.stages; i++) {
        scalable_stage_info(f, i, &rates[i], sink);
    }
    info_list_end(sink);
    info_real(sink, "estimated_fp_rate", scalable_compound_rate(rates, h.stages));
}

const filter_kind scalable_kind = {
    .id = SCALABLE_KIND,
    .name = "scalable",
    .format_version = SCALABLE_FORMAT_VERSION,
    .key_hash = KEY_HASH_XXH3_128,
    .count_offset = OFF_KEYS,
    .validate = scalable_kind_validate,
    .validate_body = scalable_kind_validate_body,
    .count_io = scalable_kind_count_io,
    .might_contain = scalable_kind_might_contain,
    .write_header = scalable_kind_write_header,
    .add = scalable_kind_add,
    .compatible = scalable_kind_compatible,
    .merge = scalable_kind_merge,
    .might_contain_io = scalable_kind_might_contain_io,
    .add_io = scalable_kind_add_io,
    .grow_size = scalable_kind_grow_size,
    .grow_io = scalable_kind_grow_io,
    .info = scalable_kind_info,
};
