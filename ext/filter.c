/*
** filter.c: the prelude of every filter BLOB and the kind table it dispatches
** on. See filter.h and docs/format.md.
*/
#include "filter.h"

#include "bloom_core.h"
#include "counting_core.h"
#include "countmin_core.h"
#include "cuckoo_core.h"
#include "scalable_core.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const uint8_t filter_magic[4] = {'S', 'Q', 'B', 'F'};

/* The kind table: every kind this code reads and writes, at the index of its id less 1. A new
** kind adds one line. */
static const filter_kind *const kinds[] = {
    &bloom_standard_kind, /* 1 */
    &bloom_blocked_kind,  /* 2 */
    &counting_kind,       /* 3 */
    &cuckoo_kind,         /* 4 */
    &scalable_kind,       /* 5 */
    &countmin_kind,       /* 6 */
};

const filter_kind *filter_kind_at(size_t i) {
    return i < sizeof kinds / sizeof kinds[0] ? kinds[i] : NULL;
}

const filter_kind *filter_kind_by_id(int id) {
    const filter_kind *kind = filter_kind_at((size_t)id - 1);
    return kind != NULL && kind->id == id ? kind : NULL;
}

filter_status filter_invalid(char *why, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, FILTER_WHY_MAX, format, ap);
    va_end(ap);
    return FILTER_INVALID;
}

filter_status filter_open_header(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why) {
    why[0] = '\0';
    out->kind = NULL;
    if (bytes < FILTER_HEADER_BYTES) {
        return filter_invalid(why,
                              "not a Bloom filter: length %llu is shorter than the %d-byte header",
                              (unsigned long long)bytes, FILTER_HEADER_BYTES);
    }
    if (memcmp(blob + FILTER_OFF_MAGIC, filter_magic, sizeof filter_magic) != 0) {
        return filter_invalid(
            why, "not a Bloom filter: magic is x'%02X%02X%02X%02X', not x'53514246' (SQBF)",
            blob[0], blob[1], blob[2], blob[3]);
    }
    out->blob = blob;
    out->bytes = bytes;
    out->version = blob[FILTER_OFF_VERSION];
    out->min_reader_version = blob[FILTER_OFF_MIN_READER];
    if (out->min_reader_version == 0 || out->version < out->min_reader_version) {
        return filter_invalid(why,
                              "corrupt filter: format version %u with minimum reader version %u",
                              out->version, out->min_reader_version);
    }
    if (out->min_reader_version > FILTER_FORMAT_VERSION) {
        return filter_invalid(why,
                              "filter format version %u needs a reader of version %u or later; "
                              "this one reads version %d",
                              out->version, out->min_reader_version, FILTER_FORMAT_VERSION);
    }
    out->kind = filter_kind_by_id(blob[FILTER_OFF_KIND]);
    if (out->kind == NULL) {
        return filter_invalid(why, "corrupt filter: unknown kind %u", blob[FILTER_OFF_KIND]);
    }
    if (out->min_reader_version < out->kind->format_version) {
        return filter_invalid(why,
                              "corrupt filter: kind %u is of format version %u, read by "
                              "readers of version %u and later, not %u",
                              out->kind->id, out->kind->format_version, out->kind->format_version,
                              out->min_reader_version);
    }
    out->hash = blob[FILTER_OFF_HASH];
    if (!key_hash_is_known(out->hash)) {
        return filter_invalid(why, "corrupt filter: unknown hash %u", out->hash);
    }
    return out->kind->validate(out, why);
}

filter_status filter_open(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why) {
    filter_status status = filter_open_header(blob, bytes, out, why);
    if (status != FILTER_OK || out->kind->validate_body == NULL) {
        return status;
    }
    filter_io io = filter_io_memory((uint8_t *)blob); /* read only */
    return out->kind->validate_body(out, &io, why);
}

filter_status filter_check_capacity(uint64_t n, double p, char *why) {
    char p_text[32];
    if (n == 0) {
        return filter_invalid(why, "corrupt filter: capacity n = 0");
    }
    if (filter_check_rate(p) != FILTER_OK) {
        return filter_invalid(why, "corrupt filter: p = %s is not between 0 and 1",
                              filter_format_double(p_text, p));
    }
    return FILTER_OK;
}

filter_status filter_check_reserved(const filter_view *f, int from, int to, char *why) {
    static const uint8_t zeros[FILTER_HEADER_BYTES] = {0};
    const uint8_t *blob = f->blob;
    if (f->version > FILTER_FORMAT_VERSION ||
        (memcmp(blob + from, zeros, (size_t)(to - from)) == 0 &&
         memcmp(blob + FILTER_OFF_RESERVED_TAIL, zeros,
                FILTER_HEADER_BYTES - FILTER_OFF_RESERVED_TAIL) == 0)) {
        return FILTER_OK; /* the byte-by-byte search below runs only on a corrupt header */
    }
    for (int i = from; i < FILTER_HEADER_BYTES; i++) {
        if ((i < to || i >= FILTER_OFF_RESERVED_TAIL) && blob[i] != 0) {
            return filter_invalid(why, "corrupt filter: reserved byte %d is 0x%02X, not 0", i,
                                  blob[i]);
        }
    }
    return FILTER_OK;
}

filter_status filter_compatible(const filter_view *a, const filter_view *b, char *why) {
    if (a->kind != b->kind) {
        return filter_invalid(why,
                              "incompatible filters: a '%s' filter and a '%s' one; build both "
                              "with the same n, p and layout",
                              a->kind->name, b->kind->name);
    }
    if (a->hash != b->hash) {
        return filter_invalid(why, "incompatible filters: hash %u and hash %u", a->hash, b->hash);
    }
    return a->kind->compatible(a, b, why);
}

filter_status filter_add(const filter_kind *kind, uint8_t *blob, key_hash key) {
    if (kind->add != NULL) {
        return kind->add(blob, key);
    }
    filter_view f = {kind, 0, 0, 0, blob, 0}; /* the _io operations read its header alone */
    filter_io io = filter_io_memory(blob);
    int was_absent;
    return kind->add_io(&f, &io, key, &was_absent); /* memory cannot fail */
}

void filter_copy(uint8_t *dst, const filter_view *f) {
    f->kind->write_header(dst, f);
    memcpy(dst + FILTER_HEADER_BYTES, f->blob + FILTER_HEADER_BYTES,
           f->bytes - FILTER_HEADER_BYTES);
}

void filter_write_prelude(uint8_t *blob, const filter_kind *kind, int hash) {
    memcpy(blob + FILTER_OFF_MAGIC, filter_magic, sizeof filter_magic);
    blob[FILTER_OFF_VERSION] = kind->format_version;
    blob[FILTER_OFF_MIN_READER] = kind->format_version;
    blob[FILTER_OFF_KIND] = kind->id;
    blob[FILTER_OFF_HASH] = (uint8_t)hash;
}

/* filter_io_memory's read and write. */
static int memory_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    memcpy(buf, (const uint8_t *)state + offset, n);
    return 0;
}

static int memory_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    memcpy((uint8_t *)state + offset, buf, n);
    return 0;
}

filter_io filter_io_memory(uint8_t *blob) {
    filter_io io = {blob, memory_read, memory_write};
    return io;
}

/* filter_io_part_init's read and write. */
static int part_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    filter_io_part *part = state;
    return part->whole->read(part->whole->state, part->base + offset, buf, n);
}

static int part_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    filter_io_part *part = state;
    return part->whole->write(part->whole->state, part->base + offset, buf, n);
}

void filter_io_part_init(filter_io_part *part, filter_io *whole, uint64_t base) {
    part->io.state = part;
    part->io.read = part_read;
    part->io.write = part_write;
    part->whole = whole;
    part->base = base;
}

const char *filter_format_double(char *buf, double v) {
    char raw[40];
    size_t out = 0;
    if (v != v) {
        return strcpy(buf, "NaN");
    }
    if (v == INFINITY || v == -INFINITY) {
        return strcpy(buf, v > 0 ? "Inf" : "-Inf");
    }
    snprintf(raw, sizeof raw, "%.15g", v);
    for (size_t i = 0; raw[i] != '\0' && out < 31; i++) {
        char c = raw[i];
        int plain = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e';
        if (plain) {
            buf[out++] = c;
        } else if (out == 0 || buf[out - 1] != '.') {
            buf[out++] = '.'; /* the decimal point, one or more bytes in some locales */
        }
    }
    buf[out] = '\0';
    return buf;
}
