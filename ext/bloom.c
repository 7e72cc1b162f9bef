/*
** bloom.c: SQL glue and entry point of the sqlite-bloom extension.
**
** Load it with ".load ./bloom" in the sqlite3 shell, or with
** sqlite3_load_extension(db, "path/to/bloom", 0, &err). Compiled with
** -DSQLITE_CORE, call sqlite3_bloom_init() yourself (sqlite3_auto_extension).
**
** SQL behaviour:
**
**  (1) bloom_build(KEY, N, P) is an aggregate returning a Bloom filter BLOB
**      sized for N distinct keys at false-positive rate P: m bits with
**      m = ceil(-N ln P / (ln 2)^2) rounded up to whole 64-bit words, and
**      k = max(1, round(m/N ln 2)) hash functions, m taken before rounding.
**
**  (2) N must be a whole number >= 1 (an integral REAL such as 1e6 counts).
**      P must be a REAL strictly between 0 and 1. Both must be the
**      same on every row of a group. A P that needs more than 64 hash
**      functions (below about 4e-20) is an error.
**
**  (3) Keys follow SQL equality without affinity: an INTEGER and a REAL of
**      the same value are the same key (1 and 1.0, 0 and -0.0); TEXT is
**      hashed as its UTF-8 bytes whatever the database encoding; a BLOB as
**      its bytes; TEXT, BLOB and numbers never equal each other. No
**      collation is applied.
**
**  (4) bloom_build skips NULL keys and does not count them. Over zero rows
**      it returns NULL; over rows whose keys are all NULL it returns an empty
**      filter. Each GROUP BY group gets its own filter.
**
**  (5) bloom_might_contain(FILTER, KEY) returns 0 when KEY was certainly
**      never added to FILTER and 1 when it possibly was. Every key added
**      returns 1. A NULL FILTER or a NULL KEY returns NULL.
**
**  (6) A FILTER that is not a valid filter BLOB (not a BLOB, too short, bad
**      magic, newer format, bad k or m, wrong length, non-zero reserved
**      bytes) is an error naming the function and the reason; the header is
**      checked against the BLOB's length before any bit is read.
**
**  (7) A filter larger than SQLITE_LIMIT_LENGTH is a SQLITE_TOOBIG error
**      that says how many bytes it would need; a failed allocation is
**      SQLITE_NOMEM. Memory comes from sqlite3_malloc64 only: one allocation
**      per filter built, none per probe.
**
**  (8) bloom_version() returns the extension's version.
*/
#include "sqlite3ext.h"
#if !defined(SQLITE_CORE) && !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
/* SQLite's routines, which sqlite3ext.h calls through sqlite3_api: stored by every load, from
** whichever thread opens a connection, while other threads call the functions. An atomic makes
** that no data race; relaxed is enough, the table it points to is SQLite's and never changes.
** Without C11 atomics it is SQLite's usual plain pointer; with SQLITE_CORE there is none. */
static _Atomic(const sqlite3_api_routines *) bloom_api;
#define sqlite3_api atomic_load_explicit(&bloom_api, memory_order_relaxed)
#define BLOOM_STORE_API(routines) atomic_store_explicit(&bloom_api, routines, memory_order_relaxed)
#else
SQLITE_EXTENSION_INIT1
#define BLOOM_STORE_API(routines) SQLITE_EXTENSION_INIT2(routines)
#endif

#include "bloom_core.h"
#include "sqlite_bloom.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#ifndef BLOOM_VERSION
#error "BLOOM_VERSION must be defined by the build (CMake's project version)"
#endif

#if defined(_WIN32)
#define BLOOM_EXPORT __declspec(dllexport)
#else
#define BLOOM_EXPORT __attribute__((visibility("default")))
#endif

/* The oldest SQLite the extension runs on. */
#define MIN_SQLITE_VERSION 3031000

/* Longest prefix of a TEXT value quoted in an error message, in characters. */
#define QUOTED_TEXT_MAX 40

/* Length of the well-formed UTF-8 character at t[0..avail) (no overlong form, surrogate or
** code point above U+10FFFF), or 0 when there is none. */
static int utf8_char_length(const unsigned char *t, int avail) {
    unsigned char second_low = 0x80, second_high = 0xBF;
    int length;
    if (t[0] < 0x80) {
        return 1;
    } else if (t[0] >= 0xC2 && t[0] <= 0xDF) {
        length = 2;
    } else if (t[0] >= 0xE0 && t[0] <= 0xEF) {
        length = 3;
        second_low = t[0] == 0xE0 ? 0xA0 : 0x80;
        second_high = t[0] == 0xED ? 0x9F : 0xBF;
    } else if (t[0] >= 0xF0 && t[0] <= 0xF4) {
        length = 4;
        second_low = t[0] == 0xF0 ? 0x90 : 0x80;
        second_high = t[0] == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (length > avail || t[1] < second_low || t[1] > second_high) {
        return 0;
    }
    for (int i = 2; i < length; i++) {
        if ((t[i] & 0xC0) != 0x80) {
            return 0;
        }
    }
    return length;
}

/* Whether the character at t (length bytes) is a control character: C0, DEL or C1. */
static int is_control(const unsigned char *t, int length) {
    return (length == 1 && (t[0] < 0x20 || t[0] == 0x7F)) ||
           (length == 2 && t[0] == 0xC2 && t[1] < 0xA0);
}

/*
** Appends TEXT t of the given bytes, quoted, as error messages show it: its
** first QUOTED_TEXT_MAX characters then ... if cut, with control characters
** and bytes that are not UTF-8 as \xNN, so a message never carries raw bytes.
*/
static void append_quoted_text(sqlite3_str *s, const unsigned char *t, int bytes) {
    sqlite3_str_appendchar(s, 1, '\'');
    for (int i = 0, chars = 0; i < bytes; chars++) {
        int length = utf8_char_length(t + i, bytes - i);
        if (chars == QUOTED_TEXT_MAX) {
            sqlite3_str_appendall(s, "'...");
            return;
        }
        if (length == 0 || is_control(t + i, length)) {
            for (int byte = 0; byte < (length ? length : 1); byte++) {
                sqlite3_str_appendf(s, "\\x%02X", t[i + byte]);
            }
            length = length ? length : 1;
        } else if (t[i] == '\'') {
            sqlite3_str_appendall(s, "''");
        } else {
            sqlite3_str_append(s, (const char *)t + i, length);
        }
        i += length;
    }
    sqlite3_str_appendchar(s, 1, '\'');
}

/* Appends REAL v for a message: 15 significant digits as SQLite shows them, or 17 when 15
** would show a fractional v as a whole number, or v as the same text as other. */
static void append_real(sqlite3_str *s, double v, double other) {
    char text[40], other_text[40];
    sqlite3_snprintf(sizeof text, text, "%!.15g", v);
    sqlite3_snprintf(sizeof other_text, other_text, "%!.15g", other);
    size_t length = strlen(text);
    int looks_whole = length > 2 && strcmp(text + length - 2, ".0") == 0;
    int hides = (looks_whole && isfinite(v) && v != floor(v)) ||
                (v != other && strcmp(text, other_text) == 0);
    sqlite3_str_appendf(s, hides ? "%!.17g" : "%!.15g", v);
}

/* Appends v to s the way error messages show a value: NULL, 42, 1.5, 'text', a BLOB. */
static void append_value(sqlite3_str *s, sqlite3_value *v) {
    const unsigned char *text;
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        sqlite3_str_appendall(s, "NULL");
        break;
    case SQLITE_INTEGER:
        sqlite3_str_appendf(s, "%lld", sqlite3_value_int64(v));
        break;
    case SQLITE_FLOAT:
        append_real(s, sqlite3_value_double(v), sqlite3_value_double(v));
        break;
    case SQLITE_TEXT:
        text = sqlite3_value_text(v);
        append_quoted_text(s, text ? text : (const unsigned char *)"",
                           text ? sqlite3_value_bytes(v) : 0);
        break;
    default:
        sqlite3_str_appendf(s, "a BLOB of %d bytes", sqlite3_value_bytes(v));
        break;
    }
}

/*
** Makes the text built in s the error of ctx and frees s: cut to the
** connection's SQLITE_LIMIT_LENGTH (at a character boundary) so that SQLite
** keeps it; NOMEM if building it failed. Returns 1 when the error is the text.
** Messages are built with sqlite3_str_new(NULL), which the limit does not cap.
*/
static int result_error_str(sqlite3_context *ctx, sqlite3_str *s) {
    int rc = sqlite3_str_errcode(s), length = sqlite3_str_length(s);
    char *message = sqlite3_str_finish(s);
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    if (rc != SQLITE_OK || message == NULL) {
        sqlite3_free(message);
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    if (length > limit) {
        length = limit;
        while (length > 0 && (message[length] & 0xC0) == 0x80) {
            length--;
        }
    }
    sqlite3_result_error(ctx, message, length);
    sqlite3_free(message);
    return 1;
}

/* Sets the error of ctx to a formatted message; returns as result_error_str. */
static int result_errorf(sqlite3_context *ctx, const char *format, ...) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    va_list ap;
    va_start(ap, format);
    sqlite3_str_vappendf(s, format, ap);
    va_end(ap);
    return result_error_str(ctx, s);
}

/* Reports "FUNC: WHAT, got VALUE" as the error of ctx. */
static void result_error_value(sqlite3_context *ctx, const char *func, const char *what,
                               sqlite3_value *v) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: %s, got ", func, what);
    append_value(s, v);
    result_error_str(ctx, s);
}

/* Hashes a non-NULL key by SQL equality (rule 3). Returns 0 after setting a NOMEM error. */
static int hash_key(sqlite3_context *ctx, sqlite3_value *key, bloom_hash *out) {
    const void *bytes;
    switch (sqlite3_value_type(key)) {
    case SQLITE_INTEGER:
        *out = bloom_hash_integer(sqlite3_value_int64(key));
        return 1;
    case SQLITE_FLOAT:
        *out = bloom_hash_real(sqlite3_value_double(key));
        return 1;
    case SQLITE_TEXT:
        bytes = sqlite3_value_text(key); /* UTF-8, converted from UTF-16 if need be */
        if (bytes == NULL) {
            break;
        }
        *out = bloom_hash_text(bytes, (size_t)sqlite3_value_bytes(key));
        return 1;
    default:
        bytes = sqlite3_value_blob(key);
        if (bytes == NULL && sqlite3_value_bytes(key) != 0) {
            break; /* a zeroblob() that could not be expanded */
        }
        *out = bloom_hash_blob(bytes, (size_t)sqlite3_value_bytes(key));
        return 1;
    }
    sqlite3_result_error_nomem(ctx);
    return 0;
}

/*
** Decodes and validates the filter argument v of func (rule 6). Returns 1 and
** sets *header and *bits for a valid filter; otherwise sets the error, returns 0.
*/
static int read_filter(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                       bloom_header *header, const uint8_t **bits) {
    if (sqlite3_value_type(v) != SQLITE_BLOB) {
        result_error_value(ctx, func, "the filter must be a BLOB", v);
        return 0;
    }
    const uint8_t *blob = sqlite3_value_blob(v);
    int bytes = sqlite3_value_bytes(v);
    if (blob == NULL && bytes != 0) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    char why[BLOOM_WHY_MAX];
    if (bloom_read_header(blob, (uint64_t)bytes, header, why) != BLOOM_OK) {
        result_errorf(ctx, "%s: %s", func, why);
        return 0;
    }
    *bits = blob + BLOOM_HEADER_BYTES;
    return 1;
}

/* bloom_might_contain(FILTER, KEY): rules 5 and 6. */
static void might_contain_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    bloom_header header;
    const uint8_t *bits;
    bloom_hash h;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        return;
    }
    if (!read_filter(ctx, "bloom_might_contain", argv[0], &header, &bits)) {
        return;
    }
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL || !hash_key(ctx, argv[1], &h)) {
        return;
    }
    sqlite3_result_int(ctx, bloom_test(bits, &header, h));
}

/* A new filter BLOB: header h, written as this format version, and a copy of bits.
** Returns NULL after setting a NOMEM error. */
static uint8_t *copy_filter(sqlite3_context *ctx, bloom_header *h, const uint8_t *bits) {
    uint8_t *blob = sqlite3_malloc64(bloom_blob_bytes(h->m));
    if (blob == NULL) {
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    h->version = h->min_reader_version = BLOOM_FORMAT_VERSION;
    memcpy(blob + BLOOM_HEADER_BYTES, bits, h->m / 8);
    return blob;
}

/* Writes header h into blob and hands blob to SQLite as the result, without a copy. */
static void result_filter(sqlite3_context *ctx, uint8_t *blob, const bloom_header *h) {
    bloom_write_header(blob, h);
    sqlite3_result_blob64(ctx, blob, bloom_blob_bytes(h->m), sqlite3_free);
}

/* Aggregate state of bloom_build, zeroed by SQLite before the first row. */
typedef struct build_state {
    int started;         /* the first row has set n and p */
    int failed;          /* a row failed: xFinal only frees */
    bloom_header header; /* n (0: sized at the end), p, then m and k; keys counts keys added */
    uint8_t *blob;       /* header and bit array, allocated once sized */
    bloom_hash_set seen; /* sized at the end: the distinct hashes of the keys so far */
    bloom_blocked_design design; /* blocked layout: its design for p (p 0 until known) */
} build_state;

/* The argument of bloom_build that holds P. */
#define RATE_ARGUMENT 2

/* The rate bloom_build(KEY) uses, and the layout without a LAYOUT argument. */
#define DEFAULT_RATE 0.01
#define DEFAULT_LAYOUT BLOOM_LAYOUT_STANDARD

/* Initial and largest number of slots of the hash set of a filter sized at the end: 16 bytes
** a slot, at most 3/4 full, in one allocation under SQLite's limit of about 2 GB. A test build
** sets a small maximum to reach it. */
#define FIRST_SET_CAPACITY 1024
#ifndef BLOOM_SET_SLOTS_MAX
#define BLOOM_SET_SLOTS_MAX (UINT64_C(1) << 26)
#endif

/*
** Reads N (rule 2) into *n: 0 for NULL (size at the end). Returns 0 after
** setting the error if it is neither NULL nor a whole number >= 1.
*/
static int read_capacity(sqlite3_context *ctx, sqlite3_value *v, uint64_t *n) {
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        *n = 0;
        return 1;
    case SQLITE_INTEGER:
        if (sqlite3_value_int64(v) >= 1) {
            *n = (uint64_t)sqlite3_value_int64(v);
            return 1;
        }
        break;
    case SQLITE_FLOAT: {
        double r = sqlite3_value_double(v);
        if (r >= 9223372036854775808.0) {
            result_error_value(ctx, "bloom_build", "n must be at most 9223372036854775807", v);
            return 0;
        }
        if (r >= 1.0 && r == floor(r)) {
            *n = (uint64_t)r;
            return 1;
        }
        break;
    }
    }
    result_error_value(ctx, "bloom_build", "n must be a whole number >= 1 or NULL", v);
    return 0;
}

/* Reads P (rule 2) into *p. Returns 0 after setting the error if it is not strictly in (0, 1). */
static int read_rate(sqlite3_context *ctx, sqlite3_value *v, double *p) {
    if (sqlite3_value_type(v) == SQLITE_FLOAT) {
        *p = sqlite3_value_double(v);
        if (*p > 0.0 && *p < 1.0) {
            return 1;
        }
    }
    result_error_value(ctx, "bloom_build", "p must be between 0 and 1 (exclusive)", v);
    return 0;
}

/* The name of a layout, as bloom_build and bloom_info spell it. */
static const char *layout_name(int layout) {
    return layout == BLOOM_LAYOUT_BLOCKED ? "blocked" : "standard";
}

/* Reads LAYOUT, 'standard' or 'blocked' in any case, into *layout. Returns 0 after setting
** the error otherwise. */
static int read_layout(sqlite3_context *ctx, sqlite3_value *v, int *layout) {
    const char *text = (const char *)sqlite3_value_text(v);
    if (sqlite3_value_type(v) == SQLITE_TEXT && text != NULL) {
        for (int candidate = BLOOM_LAYOUT_STANDARD; candidate <= BLOOM_LAYOUT_BLOCKED;
             candidate++) {
            if (sqlite3_stricmp(text, layout_name(candidate)) == 0) {
                *layout = candidate;
                return 1;
            }
        }
    }
    result_error_value(ctx, "bloom_build", "layout must be 'standard' or 'blocked'", v);
    return 0;
}

/* Sizes the filter of st for n keys at rate p in its layout and allocates it, keeping the
** count of keys added. Returns 0 after setting the error. */
static int size_filter(sqlite3_context *ctx, build_state *st, uint64_t n, double p) {
    double bytes_needed;
    uint64_t keys = st->header.keys;
    int layout = st->header.layout;
    bloom_status status =
        bloom_size_designed(n, p, layout, &st->design, &st->header, &bytes_needed);
    st->header.keys = keys;
    st->header.layout = (uint8_t)layout;
    if (status == BLOOM_TOO_MANY_HASHES) {
        result_errorf(ctx, "bloom_build: p = %!.15g needs %u hash functions, more than %d", p,
                      (unsigned)st->header.k, BLOOM_K_MAX);
        return 0;
    }
    if (status == BLOOM_RATE_TOO_HIGH) {
        result_errorf(ctx, "bloom_build: the blocked layout needs p <= %!.15g, got %!.15g",
                      BLOOM_BLOCKED_P_MAX, p);
        return 0;
    }
    if (status == BLOOM_BAD_ARGUMENT) { /* read_capacity and read_rate let none through */
        result_errorf(ctx, "bloom_build: cannot size a filter for n = %llu at p = %!.15g",
                      (unsigned long long)n, p);
        return 0;
    }
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    if (status == BLOOM_TOO_BIG || bytes_needed > (double)limit) {
        if (result_errorf(ctx,
                          "bloom_build: a filter for n = %llu at p = %!.15g needs %.0f bytes, "
                          "more than the length limit of %d bytes",
                          (unsigned long long)n, p, bytes_needed, limit)) {
            sqlite3_result_error_code(ctx, SQLITE_TOOBIG);
        }
        return 0;
    }
    uint64_t bytes = bloom_blob_bytes(st->header.m);
    st->blob = sqlite3_malloc64(bytes);
    if (st->blob == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    memset(st->blob, 0, bytes);
    return 1;
}

/* Writes "NULL" or n for messages about N into buf (24 bytes). */
static const char *capacity_text(uint64_t n, char *buf) {
    if (n == 0) {
        return "NULL";
    }
    sqlite3_snprintf(24, buf, "%llu", (unsigned long long)n);
    return buf;
}

/*
** Sets st->design for rate p: the costly part of sizing a blocked filter,
** which depends on p alone. It is kept as auxdata on the P argument, which
** SQLite keeps for the whole statement in an aggregate's xStep, so the groups
** of a GROUP BY compute it once; it is used only for the same p. (Not from
** xFinal: SQLite calls that without a statement to keep auxdata with.) A p
** that sizing will refuse is left to size_filter, which says why.
*/
static void design_blocked(sqlite3_context *ctx, build_state *st, double p) {
    const bloom_blocked_design *kept = sqlite3_get_auxdata(ctx, RATE_ARGUMENT);
    if (kept != NULL && kept->p == p) {
        st->design = *kept;
        return;
    }
    if (p > BLOOM_BLOCKED_P_MAX || -log2(p) > BLOOM_K_MAX + 1 ||
        bloom_design_blocked(p, &st->design) != BLOOM_OK) {
        return;
    }
    bloom_blocked_design *copy = sqlite3_malloc(sizeof *copy);
    if (copy != NULL) { /* without it, each group computes its own */
        *copy = st->design;
        sqlite3_set_auxdata(ctx, RATE_ARGUMENT, copy, sqlite3_free);
    }
}

/* Checks that n, p and the layout equal those of the group's first row (rule 2). */
static int same_parameters(sqlite3_context *ctx, const build_state *st, uint64_t n, double p,
                           int layout) {
    char now[24], first[24];
    if (layout != st->header.layout) {
        result_errorf(ctx,
                      "bloom_build: layout must be the same for all rows of a group, got '%s' "
                      "after '%s'",
                      layout_name(layout), layout_name(st->header.layout));
        return 0;
    }
    if (n != st->header.n) {
        result_errorf(ctx,
                      "bloom_build: n must be the same for all rows of a group, got %s after %s",
                      capacity_text(n, now), capacity_text(st->header.n, first));
        return 0;
    }
    if (p != st->header.p) {
        sqlite3_str *s = sqlite3_str_new(NULL);
        sqlite3_str_appendall(s, "bloom_build: p must be the same for all rows of a group, got ");
        append_real(s, p, st->header.p);
        sqlite3_str_appendall(s, " after ");
        append_real(s, st->header.p, p);
        result_error_str(ctx, s);
        return 0;
    }
    return 1;
}

/* Doubles the slots of a hash set (allocates its first ones when it has none). Returns 0
** after setting a NOMEM error. */
static int grow_set(sqlite3_context *ctx, bloom_hash_set *seen) {
    bloom_hash_set grown = {NULL, seen->capacity ? 2 * seen->capacity : FIRST_SET_CAPACITY, 0, 0};
    grown.slots = sqlite3_malloc64(grown.capacity * sizeof(bloom_hash));
    if (grown.slots == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    memset(grown.slots, 0, grown.capacity * sizeof(bloom_hash));
    bloom_hash_set_move(seen, &grown);
    sqlite3_free(seen->slots);
    *seen = grown;
    return 1;
}

/* Adds h to the hash set of st, which is kept at most 3/4 full (so there is always room for
** one more) and up to BLOOM_SET_SLOTS_MAX slots. Returns 0 after setting the error. */
static int remember_hash(sqlite3_context *ctx, build_state *st, bloom_hash h) {
    bloom_hash_set *seen = &st->seen;
    if (seen->capacity == 0 && !grow_set(ctx, seen)) {
        return 0;
    }
    if (!bloom_hash_set_insert(seen, h) || seen->count * 4 <= seen->capacity * 3) {
        return 1; /* a repeat, or room left */
    }
    if (seen->capacity == BLOOM_SET_SLOTS_MAX) {
        result_errorf(ctx,
                      "bloom_build: more than %llu distinct keys to size a filter for; give n "
                      "instead of NULL",
                      (unsigned long long)(BLOOM_SET_SLOTS_MAX / 4 * 3));
        return 0;
    }
    return grow_set(ctx, seen);
}

/* One row of bloom_build: rules 1 to 4. Returns 0 after setting the error. */
static int build_row(sqlite3_context *ctx, build_state *st, int argc, sqlite3_value **argv) {
    uint64_t n = 0;
    double p = DEFAULT_RATE;
    int layout = DEFAULT_LAYOUT;
    bloom_hash h;
    if ((argc > 1 && !read_capacity(ctx, argv[1], &n)) ||
        (argc > 2 && !read_rate(ctx, argv[2], &p)) ||
        (argc > 3 && !read_layout(ctx, argv[3], &layout))) {
        return 0;
    }
    if (!st->started) {
        st->started = 1;
        st->header.n = n;
        st->header.p = p;
        st->header.layout = (uint8_t)layout;
        if (layout == BLOOM_LAYOUT_BLOCKED) {
            design_blocked(ctx, st, p);
        }
        if (n > 0 && !size_filter(ctx, st, n, p)) {
            return 0;
        }
    } else if (!same_parameters(ctx, st, n, p, layout)) {
        return 0;
    }
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        return 1;
    }
    if (!hash_key(ctx, argv[0], &h) || (st->blob == NULL && !remember_hash(ctx, st, h))) {
        return 0;
    }
    if (st->blob != NULL) {
        bloom_set(st->blob + BLOOM_HEADER_BYTES, &st->header, h);
    }
    st->header.keys++;
    return 1;
}

/* bloom_build(KEY [, N, P [, LAYOUT]]), one row. */
static void build_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    build_state *st = sqlite3_aggregate_context(ctx, sizeof *st);
    if (st == NULL) {
        sqlite3_result_error_nomem(ctx);
    } else if (!st->failed && !build_row(ctx, st, argc, argv)) {
        st->failed = 1;
    }
}

/* bloom_build: sizes a filter for the distinct keys seen if N was NULL, then hands the filter
** to SQLite without copying it. NULL over zero rows. */
static void build_final(sqlite3_context *ctx) {
    build_state *st = sqlite3_aggregate_context(ctx, 0);
    if (st == NULL) {
        return;
    }
    if (!st->failed && st->blob == NULL) {
        uint64_t distinct = bloom_hash_set_size(&st->seen);
        if (size_filter(ctx, st, distinct > 0 ? distinct : 1, st->header.p)) {
            bloom_set_all(st->blob + BLOOM_HEADER_BYTES, &st->header, &st->seen);
        }
    }
    sqlite3_free(st->seen.slots);
    if (!st->failed && st->blob != NULL) {
        result_filter(ctx, st->blob, &st->header);
    } else {
        sqlite3_free(st->blob);
    }
    st->blob = NULL;
}

/* bloom_add(FILTER, KEY): a copy of FILTER with KEY added; FILTER unchanged for a NULL KEY. */
static void add_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    bloom_header header;
    const uint8_t *bits;
    bloom_hash h;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
        !read_filter(ctx, "bloom_add", argv[0], &header, &bits)) {
        return;
    }
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    if (!hash_key(ctx, argv[1], &h)) {
        return;
    }
    uint8_t *blob = copy_filter(ctx, &header, bits);
    if (blob != NULL) {
        bloom_set(blob + BLOOM_HEADER_BYTES, &header, h);
        header.keys = bloom_add_counts(header.keys, 1);
        result_filter(ctx, blob, &header);
    }
}

/* Checks that filter b can be merged into a; sets the error of func otherwise. */
static int compatible(sqlite3_context *ctx, const char *func, const bloom_header *a,
                      const bloom_header *b) {
    char why[BLOOM_WHY_MAX];
    if (bloom_check_compatible(a, b, why) != BLOOM_OK) {
        result_errorf(ctx, "%s: %s", func, why);
        return 0;
    }
    return 1;
}

/* bloom_union(A, B): the union of two compatible filters; NULL if either is NULL. */
static void union_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    bloom_header a, b;
    const uint8_t *a_bits, *b_bits;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL ||
        !read_filter(ctx, "bloom_union", argv[0], &a, &a_bits) ||
        !read_filter(ctx, "bloom_union", argv[1], &b, &b_bits) ||
        !compatible(ctx, "bloom_union", &a, &b)) {
        return;
    }
    uint8_t *blob = copy_filter(ctx, &a, a_bits);
    if (blob != NULL) {
        bloom_merge(blob + BLOOM_HEADER_BYTES, b_bits, a.m);
        a.keys = bloom_add_counts(a.keys, b.keys);
        result_filter(ctx, blob, &a);
    }
}

/* Aggregate state of bloom_union(FILTER), zeroed by SQLite before the first row. */
typedef struct union_state {
    int failed;          /* a row failed: xFinal only frees */
    uint8_t *blob;       /* the union so far, allocated on the first non-NULL filter */
    bloom_header header; /* its header; keys sums the keys added to every filter */
} union_state;

/* bloom_union(FILTER), one row: merges FILTER in, skipping NULLs. */
static void union_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    union_state *st = sqlite3_aggregate_context(ctx, sizeof *st);
    bloom_header h;
    const uint8_t *bits;
    if (st == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (st->failed || sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        return;
    }
    if (!read_filter(ctx, "bloom_union", argv[0], &h, &bits) ||
        (st->blob != NULL && !compatible(ctx, "bloom_union", &st->header, &h))) {
        st->failed = 1;
    } else if (st->blob == NULL) {
        st->header = h;
        st->blob = copy_filter(ctx, &st->header, bits);
        st->failed = st->blob == NULL;
    } else {
        bloom_merge(st->blob + BLOOM_HEADER_BYTES, bits, h.m);
        st->header.keys = bloom_add_counts(st->header.keys, h.keys);
    }
}

/* bloom_union(FILTER): the union of every non-NULL filter; NULL if there is none. */
static void union_final(sqlite3_context *ctx) {
    union_state *st = sqlite3_aggregate_context(ctx, 0);
    if (st == NULL) {
        return;
    }
    if (!st->failed && st->blob != NULL) {
        result_filter(ctx, st->blob, &st->header);
    } else {
        sqlite3_free(st->blob);
    }
    st->blob = NULL;
}

/* Appends a JSON number, or null for an infinite value. */
static void append_json_number(sqlite3_str *s, const char *format, double v) {
    if (isinf(v)) {
        sqlite3_str_appendall(s, "null");
    } else {
        sqlite3_str_appendf(s, format, v);
    }
}

/* bloom_info(FILTER): the header and what the fill tells, as JSON text. O(m). */
static void info_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    bloom_header h;
    const uint8_t *bits;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
        !read_filter(ctx, "bloom_info", argv[0], &h, &bits)) {
        return;
    }
    bloom_fill f = bloom_measure(&h, bits);
    sqlite3_str *s = sqlite3_str_new(sqlite3_context_db_handle(ctx));
    sqlite3_str_appendf(s,
                        "{\"format_version\":%u,\"min_reader_version\":%u,\"layout\":\"%s\","
                        "\"hash\":\"xxh3-128\",\"k\":%u,\"m\":%llu,\"bytes\":%llu,\"n\":%llu,"
                        "\"p\":%!.15g,\"keys_added\":%llu,\"bits_set\":%llu,\"fill_ratio\":%!.15g,"
                        "\"estimated_keys\":",
                        h.version, h.min_reader_version, layout_name(h.layout), (unsigned)h.k,
                        (unsigned long long)h.m, (unsigned long long)bloom_blob_bytes(h.m),
                        (unsigned long long)h.n, h.p, (unsigned long long)h.keys,
                        (unsigned long long)f.bits_set, f.fill_ratio);
    append_json_number(s, "%.1f", f.estimated_keys);
    sqlite3_str_appendall(s, ",\"estimated_keys_error\":");
    append_json_number(s, "%.1f", f.estimated_keys_se);
    sqlite3_str_appendf(s, ",\"estimated_fp_rate\":%!.15g,\"over_capacity\":%s}",
                        f.estimated_fp_rate, f.over_capacity ? "true" : "false");
    int rc = sqlite3_str_errcode(s);
    char *json = sqlite3_str_finish(s);
    if (rc == SQLITE_OK && json != NULL) {
        sqlite3_result_text(ctx, json, -1, sqlite3_free);
        return;
    }
    sqlite3_free(json);
    if (rc == SQLITE_TOOBIG) { /* longer than SQLITE_LIMIT_LENGTH */
        sqlite3_result_error_toobig(ctx);
    } else {
        sqlite3_result_error_nomem(ctx);
    }
}

/* bloom_version(): rule 8. */
static void version_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, BLOOM_VERSION, -1, SQLITE_STATIC);
}

BLOOM_EXPORT int sqlite3_bloom_init(sqlite3 *db, char **pzErrMsg,
                                    const sqlite3_api_routines *pApi) {
    static const struct {
        const char *name;
        int nargs;
        void (*func)(sqlite3_context *, int, sqlite3_value **);
        void (*step)(sqlite3_context *, int, sqlite3_value **);
        void (*final)(sqlite3_context *);
    } functions[] = {
        {"bloom_version", 0, version_func, NULL, NULL},
        {"bloom_build", 1, NULL, build_step, build_final},
        {"bloom_build", 3, NULL, build_step, build_final},
        {"bloom_build", 4, NULL, build_step, build_final},
        {"bloom_might_contain", 2, might_contain_func, NULL, NULL},
        {"bloom_info", 1, info_func, NULL, NULL},
        {"bloom_add", 2, add_func, NULL, NULL},
        {"bloom_union", 2, union_func, NULL, NULL},
        {"bloom_union", 1, NULL, union_step, union_final},
    };
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    BLOOM_STORE_API(pApi);
    /* sqlite3_str (3.25) and SQLITE_INNOCUOUS (3.31): refuse older libraries, whose
    ** routine tables end before what this code calls. */
    if (sqlite3_libversion_number() < MIN_SQLITE_VERSION) {
        if (pzErrMsg != NULL) {
            *pzErrMsg = sqlite3_mprintf("bloom: needs SQLite 3.31.0 or later, this is %s",
                                        sqlite3_libversion());
        }
        return SQLITE_ERROR;
    }
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        int rc = sqlite3_create_function(db, functions[i].name, functions[i].nargs, flags, NULL,
                                         functions[i].func, functions[i].step, functions[i].final);
        if (rc != SQLITE_OK) {
            if (pzErrMsg != NULL) {
                *pzErrMsg = sqlite3_mprintf("bloom: cannot register %s(): %s", functions[i].name,
                                            sqlite3_errmsg(db));
            }
            return rc;
        }
    }
    return SQLITE_OK;
}
