/*
** filter.c: the prelude of every filter BLOB, and what every kind uses to
** read and check its own header. See filter.h and docs/format.md.
*/
#include "filter.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const uint8_t filter_magic[4] = {'S', 'Q', 'B', 'F'};

filter_status filter_invalid(char *why, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, FILTER_WHY_MAX, format, ap);
    va_end(ap);
    return FILTER_INVALID;
}

int filter_read_prelude(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why) {
    why[0] = '\0';
    out->kind = NULL;
    if (bytes < FILTER_HEADER_BYTES) {
        filter_invalid(why, "not a Bloom filter: length %llu is shorter than the %d-byte header",
                       (unsigned long long)bytes, FILTER_HEADER_BYTES);
        return -1;
    }
    if (memcmp(blob + FILTER_OFF_MAGIC, filter_magic, sizeof filter_magic) != 0) {
        filter_invalid(why,
                       "not a Bloom filter: magic is x'%02X%02X%02X%02X', not x'53514246' (SQBF)",
                       blob[0], blob[1], blob[2], blob[3]);
        return -1;
    }
    out->blob = blob;
    out->bytes = bytes;
    out->version = blob[FILTER_OFF_VERSION];
    out->min_reader_version = blob[FILTER_OFF_MIN_READER];
    out->hash = blob[FILTER_OFF_HASH];
    if (out->min_reader_version == 0 || out->version < out->min_reader_version) {
        filter_invalid(why, "corrupt filter: format version %u with minimum reader version %u",
                       out->version, out->min_reader_version);
        return -1;
    }
    if (out->min_reader_version > FILTER_FORMAT_VERSION) {
        filter_invalid(why,
                       "filter format version %u needs a reader of version %u or later; this one "
                       "reads version %d",
                       out->version, out->min_reader_version, FILTER_FORMAT_VERSION);
        return -1;
    }
    return blob[FILTER_OFF_KIND];
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

filter_status filter_check_kind(filter_view *f, const filter_kind *kind, char *why) {
    f->kind = kind;
    if (f->min_reader_version < kind->format_version) {
        return filter_invalid(why,
                              "corrupt filter: kind %u is of format version %u, read by "
                              "readers of version %u and later, not %u",
                              kind->id, kind->format_version, kind->format_version,
                              f->min_reader_version);
    }
    if (!key_hash_is_known(f->hash)) {
        return filter_invalid(why, "corrupt filter: unknown hash %u", f->hash);
    }
    if (f->hash != kind->key_hash) {
        return filter_invalid(why, "corrupt filter: kind %u hashes its keys by hash %u, not %u",
                              kind->id, kind->key_hash, f->hash);
    }
    return kind->validate(f, why);
}

void filter_write_prelude(uint8_t *blob, const filter_kind *kind) {
    memcpy(blob + FILTER_OFF_MAGIC, filter_magic, sizeof filter_magic);
    blob[FILTER_OFF_VERSION] = kind->format_version;
    blob[FILTER_OFF_MIN_READER] = kind->format_version;
    blob[FILTER_OFF_KIND] = kind->id;
    blob[FILTER_OFF_HASH] = kind->key_hash;
}

/* filter_io_memory's read and write. */
static int filter_memory_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    memcpy(buf, (const uint8_t *)state + offset, n);
    return 0;
}

static int filter_memory_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    memcpy((uint8_t *)state + offset, buf, n);
    return 0;
}

filter_io filter_io_memory(uint8_t *blob) {
    filter_io io = {blob, filter_memory_read, filter_memory_write};
    return io;
}

/* filter_io_part_init's read and write. */
static int filter_part_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    filter_io_part *part = state;
    return part->whole->read(part->whole->state, part->base + offset, buf, n);
}

static int filter_part_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    filter_io_part *part = state;
    return part->whole->write(part->whole->state, part->base + offset, buf, n);
}

void filter_io_part_init(filter_io_part *part, filter_io *whole, uint64_t base) {
    part->io.state = part;
    part->io.read = filter_part_read;
    part->io.write = filter_part_write;
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
