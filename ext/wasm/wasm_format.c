/*
** wasm_format.c: snprintf and vsnprintf without stdio. See wasm_format.h.
**
** A double is written from its exact decimal value (real_text.h), rounded at
** the place the conversion asks for, to nearest with ties to even.
*/
#include "wasm_format.h"

#include "real_text.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The flags of one conversion. */
enum {
    WASM_FORMAT_LEFT = 1,  /* '-' */
    WASM_FORMAT_ZERO = 2,  /* '0' */
    WASM_FORMAT_PLUS = 4,  /* '+' */
    WASM_FORMAT_SPACE = 8, /* ' ' */
    WASM_FORMAT_ALT = 16   /* '#' */
};

static void wasm_format_repeat(real_text_out *out, char c, size_t count) {
    for (size_t i = 0; i < count; i++) {
        real_text_put(out, c);
    }
}

static void wasm_format_write(real_text_out *out, const char *text, size_t length) {
    for (size_t i = 0; i < length; i++) {
        real_text_put(out, text[i]);
    }
}

/* Writes d to out (NULL: counts only) in fixed notation with precision fraction digits, or in
** exponent notation ('e' or 'E' in exponent) with precision digits after the first; the point
** when there are fraction digits or alt. Returns the length. */
static size_t wasm_format_digits(real_text_out *out, const real_decimal *d, int precision,
                                 char exponent, int alt) {
    real_text_out counter = {NULL, 0, 0};
    real_text_out *to = out != NULL ? out : &counter;
    size_t start = to->length;
    if (exponent == 0) {
        if (d->point <= 0) {
            real_text_put(to, '0');
        }
        for (int i = 0; i < d->point; i++) {
            real_text_put(to, real_decimal_digit(d, i));
        }
        if (precision > 0 || alt) {
            real_text_put(to, '.');
        }
        for (int i = 0; i < precision; i++) {
            real_text_put(to, real_decimal_digit(d, d->point + i));
        }
    } else {
        int power = d->count == 0 ? 0 : d->point - 1;
        real_text_put(to, real_decimal_digit(d, 0));
        if (precision > 0 || alt) {
            real_text_put(to, '.');
        }
        for (int i = 1; i <= precision; i++) {
            real_text_put(to, real_decimal_digit(d, i));
        }
        char text[8];
        wasm_format_write(to, text, real_text_exponent(text, exponent, power));
    }
    return to->length - start;
}

/* Writes prefix and a body of body bytes, which write_body puts (called with out, or with NULL
** to count) padded to width as the flags say: zeros between them when zero_pad. */
static void wasm_format_padded(real_text_out *out, int flags, int width, const char *prefix,
                               size_t body, int zero_pad, const char *text, const real_decimal *d,
                               int precision, char exponent) {
    size_t length = strlen(prefix) + body;
    size_t pad = width > 0 && (size_t)width > length ? (size_t)width - length : 0;
    if (!(flags & WASM_FORMAT_LEFT) && !zero_pad) {
        wasm_format_repeat(out, ' ', pad);
    }
    wasm_format_write(out, prefix, strlen(prefix));
    if (!(flags & WASM_FORMAT_LEFT) && zero_pad) {
        wasm_format_repeat(out, '0', pad);
    }
    if (d != NULL) {
        wasm_format_digits(out, d, precision, exponent, flags & WASM_FORMAT_ALT);
    } else {
        wasm_format_write(out, text, body);
    }
    if (flags & WASM_FORMAT_LEFT) {
        wasm_format_repeat(out, ' ', pad);
    }
}

/* A double by conversion f, e, E, g or G. */
static void wasm_format_double(real_text_out *out, double v, char conversion, int flags, int width,
                               int precision) {
    int upper = conversion == 'E' || conversion == 'G';
    /* From the sign bit, as the C library: -0.0 and a NaN with its sign bit set are negative. */
    const char *sign = signbit(v)                    ? "-"
                       : (flags & WASM_FORMAT_PLUS)  ? "+"
                       : (flags & WASM_FORMAT_SPACE) ? " "
                                                     : "";
    if (v != v || v - v != 0) { /* NaN, or an infinity */
        const char *text = v != v ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        wasm_format_padded(out, flags & ~WASM_FORMAT_ZERO, width, sign, 3, 0, text, NULL, 0, 0);
        return;
    }
    real_decimal d;
    real_decimal_of(v, &d);
    if (precision < 0) {
        precision = 6;
    }
    char exponent = 0;
    if (conversion == 'f') {
        real_decimal_round(&d, d.point + precision, REAL_TIES_EVEN);
    } else if (conversion == 'e' || conversion == 'E') {
        real_decimal_round(&d, precision + 1, REAL_TIES_EVEN);
        exponent = conversion;
    } else { /* g, G: precision significant digits, fixed for a power from -4 to precision - 1 */
        if (precision == 0) {
            precision = 1;
        }
        real_decimal_round(&d, precision, REAL_TIES_EVEN);
        int power = d.count == 0 ? 0 : d.point - 1;
        if (power >= -4 && power < precision) {
            precision -= power + 1;
            if (!(flags & WASM_FORMAT_ALT)) {
                int fraction = d.count - d.point;
                precision = fraction > 0 ? fraction : 0;
            }
        } else {
            precision -= 1;
            exponent = upper ? 'E' : 'e';
            if (!(flags & WASM_FORMAT_ALT)) {
                precision = d.count > 1 ? d.count - 1 : 0;
            }
        }
    }
    size_t body = wasm_format_digits(NULL, &d, precision, exponent, flags & WASM_FORMAT_ALT);
    wasm_format_padded(out, flags, width, sign, body, (flags & WASM_FORMAT_ZERO) != 0, NULL, &d,
                       precision, exponent);
}

/* An integer by conversion d, i, u, x, X: its magnitude, and whether it is negative. */
static void wasm_format_integer(real_text_out *out, uint64_t magnitude, int negative,
                                char conversion, int flags, int width, int precision) {
    char text[24];
    int length = 0;
    unsigned base = conversion == 'x' || conversion == 'X' ? 16 : 10;
    const char *digits = conversion == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    for (uint64_t left = magnitude; left != 0; left /= base) {
        text[sizeof text - 1 - length++] = digits[left % base];
    }
    int wanted = precision < 0 ? 1 : precision; /* fewest digits: %.0d of 0 writes none */
    const char *prefix = negative                                 ? "-"
                         : conversion != 'd' && conversion != 'i' ? ""
                         : (flags & WASM_FORMAT_PLUS)             ? "+"
                         : (flags & WASM_FORMAT_SPACE)            ? " "
                                                                  : "";
    if (base == 16 && (flags & WASM_FORMAT_ALT) && magnitude != 0) {
        prefix = conversion == 'X' ? "0X" : "0x";
    }
    size_t zeros = wanted > length ? (size_t)(wanted - length) : 0;
    size_t body = zeros + (size_t)length;
    size_t all = strlen(prefix) + body;
    size_t pad = width > 0 && (size_t)width > all ? (size_t)width - all : 0;
    if ((flags & WASM_FORMAT_ZERO) && !(flags & WASM_FORMAT_LEFT) && precision < 0) {
        zeros += pad;
        pad = 0;
    }
    if (!(flags & WASM_FORMAT_LEFT)) {
        wasm_format_repeat(out, ' ', pad);
    }
    wasm_format_write(out, prefix, strlen(prefix));
    wasm_format_repeat(out, '0', zeros);
    wasm_format_write(out, text + sizeof text - length, (size_t)length);
    if (flags & WASM_FORMAT_LEFT) {
        wasm_format_repeat(out, ' ', pad);
    }
}

/* Reads a width or precision at *format: digits, or '*' from args. */
static int wasm_format_number(const char **format, va_list *args) {
    if (**format == '*') {
        (*format)++;
        return va_arg(*args, int);
    }
    int n = 0;
    while (**format >= '0' && **format <= '9') {
        n = n * 10 + (*(*format)++ - '0');
    }
    return n;
}

int wasm_format_vsnprintf(char *buf, size_t size, const char *format, va_list args) {
    real_text_out out = {buf, size, 0};
    va_list ap;
    va_copy(ap, args);
    while (*format != '\0') {
        const char *start = format;
        if (*format != '%') {
            real_text_put(&out, *format++);
            continue;
        }
        format++;
        static const char flag_names[] = "-0+ #"; /* in the order of the WASM_FORMAT_ flags */
        int flags = 0;
        for (;; format++) {
            const char *flag = *format != '\0' ? strchr(flag_names, *format) : NULL;
            if (flag == NULL) {
                break;
            }
            flags |= 1 << (flag - flag_names);
        }
        int width = wasm_format_number(&format, &ap), precision = -1;
        if (width < 0) { /* a negative '*' width is the '-' flag */
            flags |= WASM_FORMAT_LEFT;
            width = -width;
        }
        if (*format == '.') {
            format++;
            precision = wasm_format_number(&format, &ap);
            if (precision < 0) {
                precision = -1;
            }
        }
        int longs = 0; /* 1: l; 2: ll, j; 3: z, t; -1: h; -2: hh */
        for (;; format++) {
            if (*format == 'l' || *format == 'j') {
                longs += *format == 'j' ? 2 : 1;
            } else if (*format == 'z' || *format == 't') {
                longs = 3;
            } else if (*format == 'h') {
                longs--;
            } else {
                break;
            }
        }
        char conversion = *format != '\0' ? *format++ : '\0';
        switch (conversion) {
        case 'd':
        case 'i': {
            int64_t v = longs >= 2   ? (longs == 3 ? (int64_t)va_arg(ap, ptrdiff_t)
                                                   : (int64_t)va_arg(ap, long long))
                        : longs == 1 ? (int64_t)va_arg(ap, long)
                                     : (int64_t)va_arg(ap, int);
            v = longs == -1 ? (short)v : longs == -2 ? (signed char)v : v;
            uint64_t magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
            wasm_format_integer(&out, magnitude, v < 0, conversion, flags, width, precision);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            uint64_t v = longs >= 2   ? (longs == 3 ? (uint64_t)va_arg(ap, size_t)
                                                    : (uint64_t)va_arg(ap, unsigned long long))
                         : longs == 1 ? (uint64_t)va_arg(ap, unsigned long)
                                      : (uint64_t)va_arg(ap, unsigned);
            v = longs == -1 ? (unsigned short)v : longs == -2 ? (unsigned char)v : v;
            wasm_format_integer(&out, v, 0, conversion, flags, width, precision);
            break;
        }
        case 'f':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
            wasm_format_double(&out, va_arg(ap, double), conversion, flags, width, precision);
            break;
        case 'c': {
            char c = (char)va_arg(ap, int);
            wasm_format_padded(&out, flags & ~WASM_FORMAT_ZERO, width, "", 1, 0, &c, NULL, 0, 0);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            s = s != NULL ? s : "(null)";
            size_t length = 0;
            while (s[length] != '\0' && (precision < 0 || length < (size_t)precision)) {
                length++;
            }
            wasm_format_padded(&out, flags & ~WASM_FORMAT_ZERO, width, "", length, 0, s, NULL, 0,
                               0);
            break;
        }
        case '%':
            real_text_put(&out, '%');
            break;
        default: /* not a conversion of this file's: written as it is */
            wasm_format_write(&out, start, (size_t)(format - start));
            break;
        }
    }
    va_end(ap);
    if (size > 0) {
        buf[out.length < size ? out.length : size - 1] = '\0';
    }
    return (int)out.length;
}

int wasm_format_snprintf(char *buf, size_t size, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int length = wasm_format_vsnprintf(buf, size, format, args);
    va_end(args);
    return length;
}
