/*
** real_text.h: a double as decimal text, from its exact value. A finite double
** is m 2^e, a number with a finite decimal expansion (at most 767 significant
** digits); real_decimal_of writes it out and real_decimal_round rounds it at
** any place, ties to even (the C library's printf) or away from zero (SQLite's
** printf on a tie). On top of them, the two forms of bloom_info's reals
** (filter_info.c), the same text wherever the core runs: in bloom.so, where
** SQLite's printf rounded near-ties differently from version to version, and
** in the WebAssembly reader, whose printf (wasm_format.c) is C's. Plain C, no
** allocation, no state.
*/
#ifndef REAL_TEXT_H
#define REAL_TEXT_H

#include <stddef.h>

enum {
    REAL_DECIMAL_DIGITS = 811, /* room for 90 base-10^9 limbs: every double's digits, and more */
    REAL_TEXT_SIZE = 32        /* room for real_text_significant's text at 17 digits and a NUL */
};

/* How a rounding place that falls exactly halfway between two numbers goes. */
typedef enum real_ties { REAL_TIES_EVEN, REAL_TIES_AWAY } real_ties;

/* A decimal number: digits[0..count) with no leading or trailing zero (none for 0), the value
** 0.d0 d1 d2... times 10^point. */
typedef struct real_decimal {
    char digits[REAL_DECIMAL_DIGITS];
    int count;
    int point;
} real_decimal;

/* The exact decimal value of |v|, a finite double, into *d. */
void real_decimal_of(double v, real_decimal *d);

/* Rounds *d to its first keep digits (keep may be 0 or less: the rounding place lies before
** them), to nearest, a tie as ties says; no trailing zero is left. */
void real_decimal_round(real_decimal *d, int keep, real_ties ties);

/* A text being written: its first size - 1 bytes kept in buf (NULL when size is 0), all of it
** counted in length. */
typedef struct real_text_out {
    char *buf;
    size_t size;
    size_t length;
} real_text_out;

/* Appends c to out, kept if there is room. */
void real_text_put(real_text_out *out, char c);

/* Digit i of d, counted from its first ('0' past its ends). */
char real_decimal_digit(const real_decimal *d, int i);

/* Writes letter (e or E), the sign of power and its magnitude in at least two digits, and a
** NUL, to buf (8 bytes at least: |power| < 10000), and returns the length, 4 to 6. */
size_t real_text_exponent(char *buf, char letter, int power);

/* v with digits (1 to 17) significant digits, rounded to nearest, ties away from zero, in the
** form of SQLite's %!.<digits>g: fixed notation for a power of ten from -4 to digits - 1, else
** d.ddde+XX (at least two exponent digits); trailing zeros dropped, but always a point and a
** digit after it ("1.0", "1.0e+20"); "-" before a negative value; "null" for an infinity or a
** NaN, which JSON cannot hold. Writes at most size bytes, NUL-terminated when size > 0, and
** returns the text's length; REAL_TEXT_SIZE bytes always hold it. */
size_t real_text_significant(char *buf, size_t size, double v, int digits);

/* v with decimals digits after the point (%.<decimals>f), rounded to nearest, ties away from
** zero; "-" before a negative value, "null" for an infinity or a NaN. Writes as
** real_text_significant; REAL_TEXT_SIZE bytes hold it for one decimal and |v| < 10^27. */
size_t real_text_fixed(char *buf, size_t size, double v, int decimals);

#endif /* REAL_TEXT_H */
