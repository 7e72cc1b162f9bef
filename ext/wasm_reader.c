/*
** wasm_reader.c: the core as a WebAssembly module, the reader of the npm
** package's sqlite-bloom/filter (ext/packages/npm/filter_reader.js): a filter
** BLOB validated by filter_open, a key hashed by filter_hash_key and answered
** by its kind's might_contain, as bloom_might_contain does (rules 7 (probe) and
** 8 (validation)), and bloom_info's JSON (rule 11 (info)), without SQLite.
** Built for wasm32 only (ext/packages/npm/wasm.cmake), never into bloom.so.
**
** No allocation: the JavaScript side puts the filter's bytes, then each key,
** into the module's memory above wasm_reader_base(), growing that memory with
** memory.grow itself. An instance reads one filter, kept here once opened.
*/
#include "filter_kinds.h"
#include "key_hash.h"
#include "kind_list.h"
#include "wasm_format.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* A function the module exports, under its name without the room's prefix. */
#define WASM_READER_EXPORT(name) __attribute__((export_name(#name)))

/* The end of the module's data and stack: the memory above it is the JavaScript side's. */
extern unsigned char __heap_base;

/* The filter the last wasm_reader_open accepted, and the message of the last it refused. */
static filter_view wasm_reader_filter;
static char wasm_reader_why[FILTER_WHY_MAX];

/* The first byte above the module's own memory, at a multiple of 16: the filter goes there. */
WASM_READER_EXPORT(base) uint32_t wasm_reader_base(void) {
    return ((uint32_t)(uintptr_t)&__heap_base + 15) & ~(uint32_t)15;
}

/* Validates the bytes bytes at offset as filter_open does: 1, the filter then the one probed,
** or 0 with the reason at wasm_reader_message(). */
WASM_READER_EXPORT(open) int wasm_reader_open(uint32_t offset, uint32_t bytes) {
    const uint8_t *blob = (const uint8_t *)(uintptr_t)offset;
    return filter_open(blob, bytes, &wasm_reader_filter, wasm_reader_why) == FILTER_OK;
}

/* The reason the last wasm_reader_open refused its bytes, NUL-terminated, without a function
** name. */
WASM_READER_EXPORT(message) const char *wasm_reader_message(void) {
    return wasm_reader_why;
}

/* The answer of the filter for key: 1 when it may hold it, 0 when it certainly does not. */
static int wasm_reader_answer(const key_value *key) {
    const filter_view *f = &wasm_reader_filter;
    return f->kind->might_contain(f, filter_hash_key(f, key));
}

/* A JavaScript number as SQL holds it (rule 5 (keys)): an INTEGER when integral in the 64-bit
** range, else a REAL. The caller has made NaN, which SQL holds as NULL, no key. */
WASM_READER_EXPORT(probe_number) int wasm_reader_probe_number(double v) {
    key_value key = {.type = KEY_TAG_REAL, .real = v};
    if (v >= -9223372036854775808.0 && v < 9223372036854775808.0 && (double)(int64_t)v == v) {
        key.type = KEY_TAG_INTEGER;
        key.integer = (int64_t)v;
    }
    return wasm_reader_answer(&key);
}

/* An INTEGER key. */
WASM_READER_EXPORT(probe_integer) int wasm_reader_probe_integer(int64_t v) {
    key_value key = {.type = KEY_TAG_INTEGER, .integer = v};
    return wasm_reader_answer(&key);
}

/* A TEXT (UTF-8) or BLOB key of length bytes at offset; type is KEY_TAG_TEXT or KEY_TAG_BLOB. */
WASM_READER_EXPORT(probe_bytes)
int wasm_reader_probe_bytes(int type, uint32_t offset, uint32_t length) {
    key_value key = {.type = type == KEY_TAG_TEXT ? KEY_TAG_TEXT : KEY_TAG_BLOB,
                     .bytes = (const void *)(uintptr_t)offset,
                     .length = length};
    return wasm_reader_answer(&key);
}

/* ---- bloom_info ---- */

/* JSON text written into capacity bytes at at; length counts what did not fit too. */
typedef struct wasm_reader_json {
    char *at;
    size_t capacity;
    size_t length;
} wasm_reader_json;

static void wasm_reader_appendf(wasm_reader_json *json, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void wasm_reader_appendf(wasm_reader_json *json, const char *format, ...) {
    size_t room = json->length < json->capacity ? json->capacity - json->length : 0;
    va_list args;
    va_start(args, format);
    int written =
        wasm_format_vsnprintf(room > 0 ? json->at + json->length : NULL, room, format, args);
    va_end(args);
    if (written > 0) {
        json->length += (size_t)written;
    }
}

/* ,"name":v with 15 significant digits, as the SQL side's %!.15g reads back in JSON. */
static void wasm_reader_real(wasm_reader_json *json, const char *name, double v) {
    wasm_reader_appendf(json, ",\"%s\":%.15g", name, v);
}

/* ,"name":v with one decimal, or null when infinite: the SQL side's sql_json_number. */
static void wasm_reader_tenths(wasm_reader_json *json, const char *name, double v) {
    if (v == INFINITY || v == -INFINITY) {
        wasm_reader_appendf(json, ",\"%s\":null", name);
    } else {
        wasm_reader_appendf(json, ",\"%s\":%.1f", name, v);
    }
}

/* ,"name":v for a count. */
static void wasm_reader_count(wasm_reader_json *json, const char *name, uint64_t v) {
    wasm_reader_appendf(json, ",\"%s\":%llu", name, (unsigned long long)v);
}

/* The Bloom fields that the two Bloom kinds and the counting kind share (bloom_sql_info). */
static void wasm_reader_bloom_fields(wasm_reader_json *json, const filter_view *f,
                                     const bloom_header *h, const bloom_fill *fill,
                                     const char *positions) {
    wasm_reader_count(json, "k", h->k);
    wasm_reader_count(json, "m", h->m);
    wasm_reader_count(json, "bytes", f->bytes);
    wasm_reader_count(json, "n", h->n);
    wasm_reader_real(json, "p", h->p);
    wasm_reader_count(json, "keys_added", h->keys);
    wasm_reader_count(json, positions, fill->bits_set);
    wasm_reader_real(json, "fill_ratio", fill->fill_ratio);
    wasm_reader_tenths(json, "estimated_keys", fill->estimated_keys);
    wasm_reader_tenths(json, "estimated_keys_error", fill->estimated_keys_se);
    wasm_reader_real(json, "estimated_fp_rate", fill->estimated_fp_rate);
    wasm_reader_appendf(json, ",\"over_capacity\":%s", fill->over_capacity ? "true" : "false");
}

/* Each kind's fields, as its SQL side's info writes them (ext/NAME_sql.c): one function a kind,
** named after it in kind_list.h, so that a kind without one does not compile. */
static void wasm_reader_info_bloom_standard(wasm_reader_json *json, const filter_view *f) {
    bloom_header h = bloom_header_of(f);
    bloom_fill fill = bloom_measure(&h, bloom_bits(f));
    wasm_reader_bloom_fields(json, f, &h, &fill, "bits_set");
}

static void wasm_reader_info_bloom_blocked(wasm_reader_json *json, const filter_view *f) {
    wasm_reader_info_bloom_standard(json, f);
}

static void wasm_reader_info_counting(wasm_reader_json *json, const filter_view *f) {
    bloom_header h = bloom_header_of(f);
    h.layout = BLOOM_LAYOUT_STANDARD;
    counting_fill counters = counting_measure(&h, f->blob + FILTER_HEADER_BYTES);
    double in_use = (double)counters.nonzero / (double)h.m;
    bloom_fill fill = bloom_estimate(&h, counters.nonzero, pow(in_use, h.k));
    wasm_reader_bloom_fields(json, f, &h, &fill, "counters_nonzero");
    wasm_reader_count(json, "counter_bits", COUNTING_COUNTER_BITS);
    wasm_reader_count(json, "counters_saturated", counters.saturated);
}

static void wasm_reader_info_cuckoo(wasm_reader_json *json, const filter_view *f) {
    cuckoo_header h = cuckoo_header_of(f);
    uint64_t used = cuckoo_slots_used(f), slots = h.buckets * CUCKOO_SLOTS;
    wasm_reader_count(json, "fingerprint_bits", h.fingerprint_bits);
    wasm_reader_count(json, "buckets", h.buckets);
    wasm_reader_count(json, "slots_per_bucket", CUCKOO_SLOTS);
    wasm_reader_count(json, "bytes", f->bytes);
    wasm_reader_count(json, "n", h.n);
    wasm_reader_real(json, "p", h.p);
    wasm_reader_count(json, "keys_added", h.keys);
    wasm_reader_count(json, "slots_used", used);
    wasm_reader_real(json, "load_factor", (double)used / (double)slots);
    wasm_reader_real(json, "estimated_fp_rate", cuckoo_fp_rate(&h, used));
    wasm_reader_appendf(json, ",\"over_capacity\":%s", h.keys > h.n ? "true" : "false");
}

static void wasm_reader_info_scalable(wasm_reader_json *json, const filter_view *f) {
    scalable_header h = scalable_header_of(f);
    double rates[SCALABLE_STAGES_MAX];
    uint64_t capacity = 0;
    for (int i = 0; i < h.stages; i++) {
        uint64_t n;
        double p;
        scalable_stage_target(&h, i, &n, &p); /* validation checked that each fits */
        capacity = filter_add_counts(capacity, n);
    }
    wasm_reader_appendf(json, ",\"stage_layout\":\"%s\"",
                        bloom_kind_of_layout(h.stage_layout)->name);
    wasm_reader_count(json, "growth", h.growth);
    wasm_reader_real(json, "tightening", h.tightening);
    wasm_reader_count(json, "bytes", f->bytes);
    wasm_reader_count(json, "n", h.n);
    wasm_reader_real(json, "p", h.p);
    wasm_reader_count(json, "keys_added", h.keys);
    wasm_reader_count(json, "capacity", capacity);
    wasm_reader_count(json, "stage_count", h.stages);
    wasm_reader_appendf(json, ",\"stages\":[");
    for (int i = 0; i < h.stages; i++) {
        scalable_stage s;
        scalable_stage_at(f, i, &s);
        bloom_fill fill = bloom_measure(&s.header, f->blob + s.offset + FILTER_HEADER_BYTES);
        rates[i] = fill.estimated_fp_rate;
        wasm_reader_appendf(json, "%s{\"n\":%llu", i == 0 ? "" : ",",
                            (unsigned long long)s.header.n);
        wasm_reader_real(json, "p", s.header.p);
        wasm_reader_count(json, "k", s.header.k);
        wasm_reader_count(json, "m", s.header.m);
        wasm_reader_count(json, "bytes", s.bytes);
        wasm_reader_count(json, "keys_added", s.header.keys);
        wasm_reader_count(json, "bits_set", fill.bits_set);
        wasm_reader_real(json, "fill_ratio", fill.fill_ratio);
        wasm_reader_real(json, "estimated_fp_rate", fill.estimated_fp_rate);
        wasm_reader_appendf(json, "}");
    }
    wasm_reader_appendf(json, "]");
    wasm_reader_real(json, "estimated_fp_rate", scalable_compound_rate(rates, h.stages));
}

static void wasm_reader_info_countmin(wasm_reader_json *json, const filter_view *f) {
    countmin_header h = countmin_header_of(f);
    uint64_t counters = h.width * h.depth, nonzero = 0;
    for (uint64_t i = 0; i < counters; i++) {
        const uint8_t *counter = f->blob + FILTER_HEADER_BYTES + i * (COUNTMIN_COUNTER_BITS / 8);
        static const uint8_t zero[COUNTMIN_COUNTER_BITS / 8];
        nonzero += memcmp(counter, zero, sizeof zero) != 0;
    }
    wasm_reader_count(json, "width", h.width);
    wasm_reader_count(json, "depth", h.depth);
    wasm_reader_count(json, "counter_bits", COUNTMIN_COUNTER_BITS);
    wasm_reader_appendf(json, ",\"update\":\"%s\"", countmin_update_name(h.update));
    wasm_reader_real(json, "epsilon", h.epsilon);
    wasm_reader_real(json, "delta", h.delta);
    wasm_reader_count(json, "bytes", f->bytes);
    wasm_reader_count(json, "total", h.total);
    wasm_reader_real(json, "error_bound", h.epsilon * (double)h.total);
    wasm_reader_count(json, "counters_nonzero", nonzero);
}

static void wasm_reader_info_parquet(wasm_reader_json *json, const filter_view *f) {
    parquet_header h = parquet_header_of(f);
    uint64_t bits = (uint64_t)h.blocks * PARQUET_BLOCK_BYTES * 8, set;
    double rate;
    parquet_fill(f, &set, &rate);
    const char *type = parquet_type_name(h.type);
    if (type != NULL) {
        wasm_reader_appendf(json, ",\"physical_type\":\"%s\"", type);
    } else {
        wasm_reader_appendf(json, ",\"physical_type\":null");
    }
    if (h.type == PARQUET_FIXED_LEN_BYTE_ARRAY) {
        wasm_reader_count(json, "type_length", h.type_length);
    }
    wasm_reader_count(json, "k", 8);
    wasm_reader_count(json, "blocks", h.blocks);
    wasm_reader_count(json, "bitset_bytes", bits / 8);
    wasm_reader_count(json, "bytes", f->bytes);
    if (h.n != 0) {
        wasm_reader_count(json, "n", h.n);
        wasm_reader_real(json, "p", h.p);
    } else {
        wasm_reader_appendf(json, ",\"n\":null,\"p\":null");
    }
    wasm_reader_count(json, "keys_added", h.keys);
    wasm_reader_count(json, "bits_set", set);
    wasm_reader_real(json, "fill_ratio", (double)set / (double)bits);
    wasm_reader_real(json, "estimated_fp_rate", rate);
}

static void wasm_reader_info_fuse(wasm_reader_json *json, const filter_view *f) {
    fuse_header h = fuse_header_of(f);
    wasm_reader_count(json, "fingerprint_bits", h.fingerprint_bits);
    wasm_reader_count(json, "arity", FUSE_ARITY);
    wasm_reader_count(json, "segment_length", UINT64_C(1) << h.segment_bits);
    wasm_reader_count(json, "segments", h.segments);
    wasm_reader_count(json, "slots", fuse_slots(&h));
    wasm_reader_count(json, "seed", h.seed);
    wasm_reader_count(json, "bytes", f->bytes);
    wasm_reader_count(json, "n", h.n);
    wasm_reader_real(json, "p", h.p);
    wasm_reader_count(json, "keys_added", h.keys);
    if (h.keys > 0) {
        wasm_reader_real(json, "bits_per_key", 8.0 * (double)f->bytes / (double)h.keys);
        wasm_reader_real(json, "estimated_fp_rate", ldexp(1.0, -(int)h.fingerprint_bits));
    } else {
        wasm_reader_appendf(json, ",\"bits_per_key\":null,\"estimated_fp_rate\":0");
    }
    wasm_reader_appendf(json, ",\"over_capacity\":%s", h.keys > h.n ? "true" : "false");
}

/* Writes the JSON text of bloom_info(filter) into the capacity bytes at offset, NUL-terminated
** when it fits; returns its length without the NUL, also when it does not fit (the caller then
** asks again with more room). O(the filter's bytes). */
WASM_READER_EXPORT(info) uint32_t wasm_reader_info(uint32_t offset, uint32_t capacity) {
    const filter_view *f = &wasm_reader_filter;
    wasm_reader_json json = {.at = (char *)(uintptr_t)offset, .capacity = capacity};
    wasm_reader_appendf(&json,
                        "{\"format_version\":%u,\"min_reader_version\":%u,\"layout\":\"%s\","
                        "\"hash\":\"%s\"",
                        f->version, f->min_reader_version, f->kind->name, key_hash_name(f->hash));
#define WASM_READER_INFO_OF(id, name)                                                              \
    if (f->kind == &name##_kind) {                                                                 \
        wasm_reader_info_##name(&json, f);                                                         \
    }
    FILTER_KINDS(WASM_READER_INFO_OF)
#undef WASM_READER_INFO_OF
    wasm_reader_appendf(&json, "}");
    return (uint32_t)json.length;
}
