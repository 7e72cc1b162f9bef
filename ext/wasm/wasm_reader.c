/*
** wasm_reader.c: the core as a WebAssembly module, the reader of the npm
** package's sqlite-bloom/filter (ext/packages/npm/filter_reader.js): a filter
** BLOB validated by filter_open, a key hashed by filter_hash_key and answered
** by its kind's might_contain, as bloom_might_contain does (rules 7 (probe) and
** 8 (validation)), and bloom_info's JSON (rule 11 (info)), without SQLite.
** Built for wasm32 (ext/packages/npm/wasm.cmake), and natively for its fuzz
** target only, never into bloom.so. See wasm_reader.h for the contracts.
**
** No allocation: the JavaScript side puts the filter's bytes, then each key,
** into the module's memory above wasm_reader_base(), growing that memory with
** memory.grow itself. An instance reads one filter, kept here once opened.
*/
#include "wasm_reader.h"

#include "filter_info.h"
#include "filter_kinds.h"
#include "key_hash.h"

/* The filter the last wasm_reader_open accepted, and the message of the last it refused. */
static filter_view wasm_reader_filter;
static char wasm_reader_why[FILTER_REFUSAL_MAX]; /* FILTER_WHY_MAX and more */

#if defined(__wasm__)
/* The end of the module's data and stack: the memory above it is the JavaScript side's. */
extern unsigned char __heap_base;

WASM_READER_EXPORT(base) uint32_t wasm_reader_base(void) {
    return ((uint32_t)(uintptr_t)&__heap_base + 15) & ~(uint32_t)15;
}
#endif

WASM_READER_EXPORT(open) int wasm_reader_open(wasm_address offset, uint32_t bytes) {
    const uint8_t *blob = (const uint8_t *)(uintptr_t)offset;
    return filter_open(blob, bytes, &wasm_reader_filter, wasm_reader_why) == FILTER_OK;
}

WASM_READER_EXPORT(message) const char *wasm_reader_message(void) {
    return wasm_reader_why;
}

/* The answer of the filter for key: 1 when it may hold it, 0 when it certainly does not, 2 when
** it refuses the probe (filter_probe_refused), with why as the message. */
static int wasm_reader_answer(const key_value *key) {
    const filter_view *f = &wasm_reader_filter;
    key_hash hash = filter_hash_key(f, key);
    int answer = f->kind->might_contain(f, hash);
    return !answer && filter_probe_refused(f, hash, key->type, wasm_reader_why) ? 2 : answer;
}

WASM_READER_EXPORT(probe_number) int wasm_reader_probe_number(double v) {
    key_value key = {.type = KEY_TAG_REAL, .real = v};
    if (v >= -9223372036854775808.0 && v < 9223372036854775808.0 && (double)(int64_t)v == v) {
        key.type = KEY_TAG_INTEGER;
        key.integer = (int64_t)v;
    }
    return wasm_reader_answer(&key);
}

WASM_READER_EXPORT(probe_integer) int wasm_reader_probe_integer(int64_t v) {
    key_value key = {.type = KEY_TAG_INTEGER, .integer = v};
    return wasm_reader_answer(&key);
}

WASM_READER_EXPORT(probe_bytes)
int wasm_reader_probe_bytes(int type, wasm_address offset, uint32_t length) {
    key_value key = {.type = type == KEY_TAG_TEXT ? KEY_TAG_TEXT : KEY_TAG_BLOB,
                     .bytes = (const void *)(uintptr_t)offset,
                     .length = length};
    return wasm_reader_answer(&key);
}

/* ---- bloom_info ---- */

/* An info_sink that writes into capacity bytes at at; length counts what did not fit too. */
typedef struct wasm_reader_json {
    info_sink sink; /* first: the callbacks get this struct */
    char *at;
    size_t capacity;
    size_t length;
} wasm_reader_json;

/* The info_sink's text: as much of it as fits with a NUL after it, all of it counted. */
static void wasm_reader_text(info_sink *sink, const char *text) {
    wasm_reader_json *json = (wasm_reader_json *)sink;
    for (; *text != '\0'; text++, json->length++) {
        if (json->length + 1 < json->capacity) {
            json->at[json->length] = *text;
        }
    }
}

WASM_READER_EXPORT(info) uint32_t wasm_reader_info(wasm_address offset, uint32_t capacity) {
    wasm_reader_json json = {{wasm_reader_text, 0}, (char *)(uintptr_t)offset, capacity, 0};
    filter_info(&wasm_reader_filter, &json.sink);
    if (capacity > 0) {
        json.at[json.length < capacity ? json.length : capacity - 1] = '\0';
    }
    return (uint32_t)json.length;
}
