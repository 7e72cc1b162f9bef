/*
** wasm_format.h: snprintf and vsnprintf for the WebAssembly reader
** (wasm_reader.c), in the conversions the core and the reader use, so that
** the module needs none of the C library's stdio: the wasm build compiles
** every file with snprintf and vsnprintf named as these
** (ext/packages/npm/wasm.cmake). Plain C, no allocation, no state; built
** natively too, where tests/wasm/test_format.c holds it to the C library's
** output.
**
** Conversions: d, i, u, x, X, c, s, %, and for doubles f, e, E, g, G with
** their exact decimal value rounded to nearest, ties to even (as glibc does);
** flags '-', '0', '+', ' ', '#'; a width and a precision (digits or '*');
** length modifiers hh, h, l, ll, z, j, t. Infinities and NaN as "inf",
** "nan", signed by their sign bit as any double (uppercase for E and G).
** Anything else is written as it is.
*/
#ifndef WASM_FORMAT_H
#define WASM_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* C's vsnprintf: writes at most size bytes of the text, NUL-terminated when size > 0, to buf,
** and returns the length of the whole text. */
int wasm_format_vsnprintf(char *buf, size_t size, const char *format, va_list args);

/* C's snprintf, as wasm_format_vsnprintf. */
int wasm_format_snprintf(char *buf, size_t size, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif /* WASM_FORMAT_H */
