/*
** wasm_reader.h: the exports of the WebAssembly reader (wasm_reader.c), the
** functions ext/packages/npm/filter_reader.js calls, each exported under its
** name without the wasm_reader_ prefix. Built natively too, for its fuzz target
** (tests/fuzz/fuzz_wasm_reader.c), where an address is a pointer.
*/
#ifndef WASM_READER_H
#define WASM_READER_H

#include <stdint.h>

#if defined(__wasm__)
/* A function the module exports, under its name without the room's prefix. */
#define WASM_READER_EXPORT(name) __attribute__((export_name(#name)))
/* An address in the module's memory, as JavaScript passes it. */
typedef uint32_t wasm_address;
#else
#define WASM_READER_EXPORT(name)
typedef uintptr_t wasm_address;
#endif

#if defined(__wasm__)
/* The first byte above the module's own memory, at a multiple of 16: the filter goes there. */
uint32_t wasm_reader_base(void);
#endif

/* Validates the bytes bytes at offset as filter_open does: 1, the filter then the one probed
** (its bytes must stay there), or 0 with the reason at wasm_reader_message(). */
int wasm_reader_open(wasm_address offset, uint32_t bytes);

/* The reason the last wasm_reader_open refused its bytes, NUL-terminated, without a function
** name. */
const char *wasm_reader_message(void);

/* A JavaScript number as SQL holds it (rule 5 (keys)): an INTEGER when integral in the 64-bit
** range, else a REAL; 1 when the filter may hold it, 0 when it certainly does not, 2 when the
** filter refuses a key of its SQL type (filter_probe_refused), the end of bloom_might_contain's
** message then at wasm_reader_message(). The caller has made NaN, which SQL holds as NULL, no
** key. */
int wasm_reader_probe_number(double v);

/* An INTEGER key, answered as wasm_reader_probe_number. */
int wasm_reader_probe_integer(int64_t v);

/* A TEXT (UTF-8) key when type is KEY_TAG_TEXT, else a BLOB key, of length bytes at offset,
** answered as wasm_reader_probe_number. */
int wasm_reader_probe_bytes(int type, wasm_address offset, uint32_t length);

/* Writes the JSON text of bloom_info(filter) into the capacity bytes at offset, NUL-terminated
** when it fits; returns its length without the NUL, also when it does not fit (the caller then
** asks again with more room). O(the filter's bytes). */
uint32_t wasm_reader_info(wasm_address offset, uint32_t capacity);

#endif /* WASM_READER_H */
