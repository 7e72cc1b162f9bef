/*
** fuzz_input.c: reading fuzz inputs (see fuzz_input.h).
*/
#include "fuzz_input.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void fuzz_fail(const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    fputs("fuzz: ", stderr);
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

double fuzz_special_real(unsigned i) {
    static const double reals[FUZZ_SPECIAL_REALS] = {
        -0.0,
        0.0,
        0.01,
        0.5,
        0.9999999999999999,
        1.0,
        1e-19,
        1e-20,
        9007199254740992.0,     /* 2^53 */
        9007199254740994.0,     /* 2^53 + 2 */
        9223372036854775808.0,  /* 2^63: just outside the integer range */
        -9223372036854775808.0, /* -2^63: just inside */
        1e300,
        INFINITY,
        -INFINITY,
        NAN,
    };
    return reals[i % FUZZ_SPECIAL_REALS];
}

uint8_t fuzz_take_u8(fuzz_input *in) {
    const uint8_t *byte;
    return fuzz_take_bytes(in, 1, &byte) == 1 ? byte[0] : 0;
}

uint16_t fuzz_take_u16(fuzz_input *in) {
    uint16_t low = fuzz_take_u8(in);
    return (uint16_t)(low | fuzz_take_u8(in) << 8);
}

uint64_t fuzz_take_u64(fuzz_input *in) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 8) {
        v |= (uint64_t)fuzz_take_u8(in) << shift;
    }
    return v;
}

size_t fuzz_take_bytes(fuzz_input *in, size_t want, const uint8_t **bytes) {
    static const uint8_t nothing[1] = {0};
    size_t taken = want < in->size ? want : in->size;
    if (taken == 0) {
        *bytes = nothing; /* never NULL: a NULL pointer would bind as SQL NULL */
        return 0;
    }
    *bytes = in->data;
    in->data += taken;
    in->size -= taken;
    return taken;
}

size_t fuzz_take_string(fuzz_input *in, const uint8_t **bytes) {
    return fuzz_take_bytes(in, fuzz_take_u16(in), bytes);
}

/* The int64 whose two's complement bits are v. */
static int64_t signed_from_bits(uint64_t v) {
    return v <= INT64_MAX ? (int64_t)v : -(int64_t)(UINT64_MAX - v) - 1;
}

fuzz_value fuzz_take_value(fuzz_input *in) {
    fuzz_value v = {(fuzz_value_tag)(fuzz_take_u8(in) % FUZZ_VALUE_TAGS), 0, 0.0, NULL, 0};
    uint64_t bits;
    switch (v.tag) {
    case FUZZ_INTEGER:
        v.integer = signed_from_bits(fuzz_take_u64(in));
        break;
    case FUZZ_REAL:
        bits = fuzz_take_u64(in);
        memcpy(&v.real, &bits, sizeof v.real);
        break;
    case FUZZ_INTEGRAL_REAL:
        v.real = (double)signed_from_bits(fuzz_take_u64(in));
        break;
    case FUZZ_SPECIAL_REAL:
        v.real = fuzz_special_real(fuzz_take_u8(in));
        break;
    case FUZZ_TEXT:
    case FUZZ_TEXT16:
    case FUZZ_BLOB:
        v.length = fuzz_take_string(in, &v.bytes);
        break;
    case FUZZ_ZEROBLOB:
        v.integer = fuzz_take_u16(in);
        break;
    default: /* FUZZ_NULL: no payload */
        break;
    }
    return v;
}
