/*
** fuzz_core_shared.c: the helpers every file of fuzz_core uses (fuzz_core.h):
** the format's bytes read and written as docs/format.md says, section 5's
** messages and the rules every kind shares, and a filter_io that checks that
** each access stays in the BLOB, counts them and fails the one it is told to,
** with the check of an _io operation through it.
*/
#include "fuzz_core.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The format's bytes ---- */

uint64_t little_endian(const uint8_t *bytes, size_t length) {
    uint64_t v = 0;
    for (size_t i = 0; i < length && i < 8; i++) {
        v |= (uint64_t)bytes[i] << (8 * i);
    }
    return v;
}

void store_u64(uint8_t *bytes, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        bytes[i] = (uint8_t)(v >> (8 * i));
    }
}

double double_at(const uint8_t *bytes) {
    uint64_t bits = little_endian(bytes, 8);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

uint64_t saturating_sum(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

int bit_is_set(const uint8_t *bits, uint64_t pos) {
    return (bits[pos / 8] >> (pos % 8)) & 1;
}

uint8_t *duplicate(const uint8_t *bytes, size_t length) {
    uint8_t *copy = malloc(length > 0 ? length : 1);
    if (copy == NULL) {
        fuzz_fail("out of memory for %zu bytes", length);
    }
    memcpy(copy, bytes, length);
    return copy;
}

/* ---- Section 5's messages, and the rules every kind shares ---- */

int refuse(char *why, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, FILTER_WHY_MAX, format, ap);
    va_end(ap);
    return 0;
}

const char *rate_text(char *buf, double p) {
    if (p != p) {
        return "NaN";
    }
    if (isinf(p)) {
        return p > 0 ? "Inf" : "-Inf";
    }
    snprintf(buf, 32, "%.15g", p);
    return buf;
}

int n_p_ok(uint64_t n, double p, char *why) {
    char p_text[32];
    if (n == 0) {
        return refuse(why, "corrupt filter: capacity n = 0");
    }
    if (!(p > 0.0 && p < 1.0)) {
        return refuse(why, "corrupt filter: p = %s is not between 0 and 1", rate_text(p_text, p));
    }
    return 1;
}

/* The first reserved byte of blob that breaks the rule (0, unless a newer writer wrote it), or
** -1. */
static int bad_reserved_byte(const uint8_t *blob, int (*is_reserved)(size_t)) {
    if (blob[FILTER_OFF_VERSION] > FILTER_FORMAT_VERSION) {
        return -1;
    }
    for (size_t i = 8; i < FILTER_HEADER_BYTES; i++) {
        if (is_reserved(i) && blob[i] != 0) {
            return (int)i;
        }
    }
    return -1;
}

int reserved_ok(const uint8_t *blob, int (*is_reserved)(size_t), char *why) {
    int reserved = bad_reserved_byte(blob, is_reserved);
    if (reserved >= 0) {
        return refuse(why, "corrupt filter: reserved byte %d is 0x%02X, not 0", reserved,
                      blob[reserved]);
    }
    return 1;
}

filter_view open_bytes(const uint8_t *blob, uint64_t bytes, const char *what) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(blob, bytes, &view, why) != FILTER_OK) {
        fuzz_fail("%s is refused: %s", what, why);
    }
    return view;
}

filter_status add_then_remove(const filter_view *f, key_hash key, uint8_t **copy) {
    uint8_t *blob = duplicate(f->blob, f->bytes);
    filter_io io = filter_io_memory(blob);
    filter_view added;
    char why[FILTER_WHY_MAX];
    int was_absent;
    filter_status status = f->kind->add_io(f, &io, key, &was_absent);
    if (status == FILTER_OK && (filter_open(blob, f->bytes, &added, why) != FILTER_OK ||
                                f->kind->remove_io(&added, &io, key) != FILTER_OK)) {
        fuzz_fail("a key added to a '%s' filter is not removed", f->kind->name);
    }
    *copy = blob;
    return status;
}

/* ---- A checked filter_io ---- */

io_target io_new(void) {
    io_target t = {.header = malloc(FILTER_HEADER_BYTES)};
    if (t.header == NULL) {
        fuzz_fail("out of memory for a header");
    }
    return t;
}

void io_close(io_target *t) {
    free(t->header);
}

/* Aborts unless n bytes at offset lie in t's BLOB; counts the access; whether it is to fail. */
static int checked_access(io_target *t, uint64_t offset, uint32_t n, const char *what) {
    if (offset > t->bytes || n > t->bytes - offset) {
        fuzz_fail("a %s of %u bytes at %llu, in a BLOB of %llu", what, n,
                  (unsigned long long)offset, (unsigned long long)t->bytes);
    }
    return ++t->calls == t->fail_at;
}

static int checked_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    io_target *t = state;
    if (checked_access(t, offset, n, "read")) {
        return 1;
    }
    return t->memory.read(t->memory.state, offset, buf, n);
}

static int checked_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    io_target *t = state;
    if (checked_access(t, offset, n, "write")) {
        return 1;
    }
    t->writes++;
    return t->memory.write(t->memory.state, offset, buf, n);
}

void io_open(io_target *t, uint8_t *blob, const filter_view *f, unsigned fail_at) {
    char why[FILTER_WHY_MAX];
    memcpy(t->header, blob, FILTER_HEADER_BYTES);
    if (filter_open_header(t->header, f->bytes, &t->view, why) != FILTER_OK ||
        t->view.kind != f->kind) {
        fuzz_fail("the header of a filter the kind wrote is refused: %s", why);
    }
    t->blob = blob;
    t->bytes = f->bytes;
    t->memory = filter_io_memory(blob);
    t->calls = t->writes = 0;
    t->fail_at = fail_at;
}

filter_io io_of(io_target *t, int checked) {
    filter_io io = {t, checked_read, checked_write};
    return checked ? io : t->memory;
}

/* Runs operation op with key on t; *answer gets might_contain_io's answer or add_io's
** was_absent. */
static filter_status run_io(io_target *t, int checked, int op, key_hash key, int *answer) {
    filter_io io = io_of(t, checked);
    const filter_kind *kind = t->view.kind;
    *answer = -1;
    switch (op) {
    case OP_MIGHT_CONTAIN:
        return kind->might_contain_io(&t->view, &io, key, answer);
    case OP_ADD:
        return kind->add_io(&t->view, &io, key, answer);
    default:
        return kind->remove_io(&t->view, &io, key);
    }
}

filter_status check_io(io_target *t, const filter_view *f, uint8_t *blob, int op, key_hash key,
                       int *answer) {
    static const char *const names[] = {"might_contain_io", "add_io", "remove_io"};
    uint8_t *checked = duplicate(blob, f->bytes), *failed = duplicate(blob, f->bytes);
    uint8_t *before = duplicate(blob, f->bytes);
    int checked_answer, failed_answer;
    io_open(t, blob, f, 0);
    filter_status status = run_io(t, 0, op, key, answer);
    io_open(t, checked, f, 0);
    filter_status checked_status = run_io(t, 1, op, key, &checked_answer);
    unsigned calls = t->calls, writes = t->writes;
    if (checked_status != status || checked_answer != *answer ||
        memcmp(checked, blob, f->bytes) != 0) {
        fuzz_fail("%s gives another result through another filter_io", names[op]);
    }
    if (status == FILTER_IO_FAILED ||
        ((status == FILTER_ABSENT || status == FILTER_REFUSED) && writes != 0) ||
        (op == OP_MIGHT_CONTAIN && writes != 0)) {
        fuzz_fail("%s returns %d after %u writes", names[op], status, writes);
    }
    if (status != FILTER_OK) { /* what it wrote is discarded, as its caller does */
        memcpy(blob, before, f->bytes);
    }
    if (calls > 0) {
        io_open(t, failed, f, 1 + (unsigned)(key.h1 % calls));
        if (run_io(t, 1, op, key, &failed_answer) != FILTER_IO_FAILED) {
            fuzz_fail("%s does not report a failed read or write", names[op]);
        }
    }
    free(checked);
    free(failed);
    free(before);
    return status;
}
