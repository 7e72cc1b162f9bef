/*
** real_text.c: a double as decimal text, from its exact value. See real_text.h.
**
** m 2^e, with m < 2^53, is the integer m 2^e when e >= 0, and m 5^-e divided by
** 10^-e when e < 0, so its digits come from a big integer in base 10^9.
*/
#include "real_text.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum {
    REAL_DECIMAL_LIMBS = 90,       /* base-10^9 limbs of 767 digits, and more */
    REAL_DECIMAL_LIMB = 1000000000 /* a limb's base */
};

/* Multiplies the count limbs at limb by factor (< 2^32), growing count by the carry. */
static void real_decimal_multiply(uint32_t *limb, int *count, uint32_t factor) {
    uint64_t carry = 0;
    for (int i = 0; i < *count; i++) {
        uint64_t t = (uint64_t)limb[i] * factor + carry;
        limb[i] = (uint32_t)(t % REAL_DECIMAL_LIMB);
        carry = t / REAL_DECIMAL_LIMB;
    }
    while (carry != 0) {
        limb[(*count)++] = (uint32_t)(carry % REAL_DECIMAL_LIMB);
        carry /= REAL_DECIMAL_LIMB;
    }
}

void real_decimal_of(double v, real_decimal *d) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int biased = (int)(bits >> 52 & 0x7FF);
    uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
    int e = biased == 0 ? -1074 : biased - 1075;
    if (biased != 0) {
        m |= UINT64_C(1) << 52;
    }
    d->count = 0;
    d->point = 0;
    if (m == 0) {
        return;
    }
    while ((m & 1) == 0 && e < 0) {
        m >>= 1;
        e++;
    }
    uint32_t limb[REAL_DECIMAL_LIMBS];
    int limbs = 0;
    for (; m != 0; m /= REAL_DECIMAL_LIMB) {
        limb[limbs++] = (uint32_t)(m % REAL_DECIMAL_LIMB);
    }
    for (int left = e; left > 0; left -= 29) { /* times 2^e, 2^29 at a time */
        real_decimal_multiply(limb, &limbs, UINT32_C(1) << (left < 29 ? left : 29));
    }
    for (int left = -e; left > 0; left -= 13) { /* times 5^-e, 5^13 at a time */
        uint32_t factor = 1;
        for (int i = 0; i < (left < 13 ? left : 13); i++) {
            factor *= 5;
        }
        real_decimal_multiply(limb, &limbs, factor);
    }
    for (int i = limbs - 1; i >= 0; i--) {
        char nine[9];
        for (int j = 8; j >= 0; j--) {
            nine[j] = (char)('0' + limb[i] % 10);
            limb[i] /= 10;
        }
        for (int j = 0; j < 9; j++) {
            if (d->count > 0 || nine[j] != '0') {
                d->digits[d->count++] = nine[j];
            }
        }
    }
    d->point = d->count + (e < 0 ? e : 0);
    while (d->digits[d->count - 1] == '0') {
        d->count--;
    }
}

void real_decimal_round(real_decimal *d, int keep, real_ties ties) {
    if (keep >= d->count) {
        return;
    }
    int up = 0;
    if (keep >= 0) {
        char next = d->digits[keep];
        int odd = keep > 0 && (d->digits[keep - 1] - '0') % 2 == 1;
        int tie_up = ties == REAL_TIES_AWAY || odd;
        up = next > '5' || (next == '5' && (keep + 1 < d->count || tie_up));
    }
    d->count = keep > 0 ? keep : 0;
    if (up) {
        int i = d->count - 1;
        while (i >= 0 && d->digits[i] == '9') {
            i--;
        }
        if (i < 0) { /* 99.9 becomes 100, or a rounding place before the digits reached 1 */
            d->digits[0] = '1';
            d->count = 1;
            d->point = keep > 0 ? d->point + 1 : d->point - keep + 1;
        } else {
            d->digits[i]++;
            d->count = i + 1;
        }
    }
    while (d->count > 0 && d->digits[d->count - 1] == '0') {
        d->count--;
    }
    if (d->count == 0) {
        d->point = 0;
    }
}

char real_decimal_digit(const real_decimal *d, int i) {
    return i >= 0 && i < d->count ? d->digits[i] : '0';
}

void real_text_put(real_text_out *out, char c) {
    if (out->length + 1 < out->size) {
        out->buf[out->length] = c;
    }
    out->length++;
}

static void real_text_puts(real_text_out *out, const char *text) {
    while (*text != '\0') {
        real_text_put(out, *text++);
    }
}

/* Ends the text with its NUL and returns its length. */
static size_t real_text_end(real_text_out *out) {
    if (out->size > 0) {
        out->buf[out->length < out->size ? out->length : out->size - 1] = '\0';
    }
    return out->length;
}

/* Writes d's digits from first to end (exclusive), zeros past its ends, or "0" when there are
** none. */
static void real_text_digits(real_text_out *out, const real_decimal *d, int first, int end) {
    if (first >= end) {
        real_text_put(out, '0');
    }
    for (int i = first; i < end; i++) {
        real_text_put(out, real_decimal_digit(d, i));
    }
}

size_t real_text_exponent(char *buf, char letter, int power) {
    size_t length = 0;
    buf[length++] = letter;
    buf[length++] = power < 0 ? '-' : '+';
    unsigned magnitude = (unsigned)(power < 0 ? -power : power);
    char reversed[4];
    int count = 0;
    do {
        reversed[count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude != 0);
    if (count < 2) {
        reversed[count++] = '0';
    }
    while (count > 0) {
        buf[length++] = reversed[--count];
    }
    buf[length] = '\0';
    return length;
}

/* Starts the text of v: "null" for an infinity or a NaN, returning 0; else its exact value into
** *d, for the caller to round, and a "-" before a negative v, returning 1. */
static int real_text_begin(real_text_out *out, double v, real_decimal *d) {
    if (!isfinite(v)) {
        real_text_puts(out, "null");
        return 0;
    }
    real_decimal_of(v, d);
    if (v < 0) {
        real_text_put(out, '-');
    }
    return 1;
}

size_t real_text_significant(char *buf, size_t size, double v, int digits) {
    real_text_out out = {buf, size, 0};
    real_decimal d;
    if (!real_text_begin(&out, v, &d)) {
        return real_text_end(&out);
    }
    real_decimal_round(&d, digits, REAL_TIES_AWAY);
    int power = d.count == 0 ? 0 : d.point - 1;
    if (power >= -4 && power < digits) {
        real_text_digits(&out, &d, 0, d.point);
        real_text_put(&out, '.');
        real_text_digits(&out, &d, d.point, d.count);
    } else {
        real_text_digits(&out, &d, 0, 1);
        real_text_put(&out, '.');
        real_text_digits(&out, &d, 1, d.count);
        char exponent[8];
        real_text_exponent(exponent, 'e', power);
        real_text_puts(&out, exponent);
    }
    return real_text_end(&out);
}

size_t real_text_fixed(char *buf, size_t size, double v, int decimals) {
    real_text_out out = {buf, size, 0};
    real_decimal d;
    if (!real_text_begin(&out, v, &d)) {
        return real_text_end(&out);
    }
    real_decimal_round(&d, d.point + decimals, REAL_TIES_AWAY);
    real_text_digits(&out, &d, 0, d.point);
    if (decimals > 0) {
        real_text_put(&out, '.');
        for (int i = 0; i < decimals; i++) {
            real_text_put(&out, real_decimal_digit(&d, d.point + i));
        }
    }
    return real_text_end(&out);
}
