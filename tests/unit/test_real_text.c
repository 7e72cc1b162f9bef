/*
** test_real_text.c: a double's exact decimal value, rounded ties to even or away from zero,
** and the two texts of bloom_info's reals (real_text): SQLite's %!.15g forms, and the C
** library's digits wherever the rounding place is not a tie.
*/
#include "real_text.h"
#include "unit.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* real_text_significant of v with digits digits. */
static const char *significant(double v, int digits) {
    static char text[REAL_TEXT_SIZE];
    size_t length = real_text_significant(text, sizeof text, v, digits);
    CHECK(length == strlen(text));
    return text;
}

/* real_text_fixed of v with decimals decimals. */
static const char *fixed(double v, int decimals) {
    static char text[REAL_TEXT_SIZE];
    size_t length = real_text_fixed(text, sizeof text, v, decimals);
    CHECK(length == strlen(text));
    return text;
}

/* The exact digits, and a tie at either rule. */
void test_real_decimal(void) {
    real_decimal d;
    real_decimal_of(0.1, &d);
    CHECK_U64((uint64_t)d.count,
              55); /* 0.1000000000000000055511151231257827021181583404541015625 */
    CHECK(d.point == 0 && memcmp(d.digits, "1000000000000000055511151231257827", 34) == 0);
    real_decimal_of(5e-324, &d); /* the smallest subnormal: 2^-1074, 751 digits */
    CHECK_U64((uint64_t)d.count, 751);
    CHECK(d.point == -323 && memcmp(d.digits, "4940656458412", 13) == 0);
    real_decimal_of(0.0, &d);
    CHECK(d.count == 0 && d.point == 0);

    real_decimal_of(2.5, &d);
    real_decimal_round(&d, 1, REAL_TIES_EVEN);
    CHECK(d.count == 1 && d.digits[0] == '2' && d.point == 1);
    real_decimal_of(2.5, &d);
    real_decimal_round(&d, 1, REAL_TIES_AWAY);
    CHECK(d.count == 1 && d.digits[0] == '3' && d.point == 1);
    real_decimal_of(9.5, &d); /* a carry past the first digit */
    real_decimal_round(&d, 1, REAL_TIES_AWAY);
    CHECK(d.count == 1 && d.digits[0] == '1' && d.point == 2);
    real_decimal_of(0.04, &d); /* a rounding place before the digits */
    real_decimal_round(&d, d.point + 1, REAL_TIES_AWAY);
    CHECK(d.count == 0 && d.point == 0);
    real_decimal_of(0.06, &d);
    real_decimal_round(&d, d.point + 1, REAL_TIES_AWAY);
    CHECK(d.count == 1 && d.digits[0] == '1' && d.point == 0);

    char text[8];
    CHECK_U64(real_text_exponent(text, 'e', 5), 4);
    CHECK_STR(text, "e+05");
    CHECK_U64(real_text_exponent(text, 'E', -324), 5);
    CHECK_STR(text, "E-324");
}

/* The forms SQLite's %!.15g writes (printf('%!.15g', v) on 3.40 and 3.53 gave each), a tie
** away from zero, and the C library's digits for 100,000 doubles that are no tie. */
void test_real_text_significant(void) {
    CHECK_STR(significant(0.0, 15), "0.0");
    CHECK_STR(significant(-0.0, 15), "0.0");
    CHECK_STR(significant(1.0, 15), "1.0");
    CHECK_STR(significant(100.0, 15), "100.0");
    CHECK_STR(significant(0.01, 15), "0.01");
    CHECK_STR(significant(0.0001, 15), "0.0001");
    CHECK_STR(significant(1e-5, 15), "1.0e-05");
    CHECK_STR(significant(1e20, 15), "1.0e+20");
    CHECK_STR(significant(1e100, 15), "1.0e+100");
    CHECK_STR(significant(2.5e-300, 15), "2.5e-300");
    CHECK_STR(significant(123456789012345.0, 15), "123456789012345.0");
    CHECK_STR(significant(1234567890123456.0, 15), "1.23456789012346e+15");
    CHECK_STR(significant(999999999999999.9, 15), "1.0e+15");
    CHECK_STR(significant(0.1 + 0.2, 15), "0.3");
    CHECK_STR(significant(-2.5, 15), "-2.5");
    CHECK_STR(significant(5e-324, 15), "4.94065645841247e-324");
    CHECK_STR(significant(DBL_MAX, 15), "1.79769313486232e+308");
    CHECK_STR(significant(0.1, 17), "0.10000000000000001");
    CHECK_STR(significant(INFINITY, 15), "null");
    CHECK_STR(significant(-INFINITY, 15), "null");
    CHECK_STR(significant(NAN, 15), "null");
    /* An exact tie at the 15th digit: 0.009998321533203125 is 655.25 / 2^16. The C library
    ** rounds it to even, SQLite's printf (3.31, 3.40, 3.53) and this code away from zero. */
    CHECK_STR(significant(0.009998321533203125, 15), "0.00999832153320313");
    CHECK_STR(significant(-0.009998321533203125, 15), "-0.00999832153320313");
    char c_text[40];
    snprintf(c_text, sizeof c_text, "%.15g", 0.009998321533203125);
    CHECK_STR(c_text, "0.00999832153320312");

    /* No tie: the C library's value. Doubles from random bits, and ratios i / 2^j (the fill
    ** ratios of bloom_info, some of them ties, left out here). */
    uint64_t state = 42;
    int compared = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t bits = next_random(&state);
        double v;
        if (i % 2 == 0) {
            memcpy(&v, &bits, sizeof v);
        } else {
            v = ldexp((double)(bits >> 11), -(int)(bits % 70));
        }
        if (!isfinite(v)) {
            continue;
        }
        real_decimal d;
        real_decimal_of(v, &d);
        if (d.count == 16 && d.digits[15] == '5') {
            continue; /* a tie at the 15th digit */
        }
        char ours[REAL_TEXT_SIZE];
        real_text_significant(ours, sizeof ours, v, 15);
        snprintf(c_text, sizeof c_text, "%.15g", v);
        if (!CHECK(strtod(ours, NULL) == strtod(c_text, NULL))) {
            fprintf(stderr, "    %.17g: '%s', the C library '%s'\n", v, ours, c_text);
            break;
        }
        compared++;
    }
    CHECK(compared > 99000);
}

/* One decimal, as the estimates of bloom_info: ties away from zero, the C library's digits
** for what is no tie, a sign kept on a negative value that rounds to 0. */
void test_real_text_fixed(void) {
    CHECK_STR(fixed(0.0, 1), "0.0");
    CHECK_STR(fixed(0.25, 1), "0.3");
    CHECK_STR(fixed(2.25, 1), "2.3");
    CHECK_STR(fixed(0.35, 1), "0.3"); /* 0.34999999999999997779...: no tie */
    CHECK_STR(fixed(-0.04, 1), "-0.0");
    CHECK_STR(fixed(-0.06, 1), "-0.1");
    CHECK_STR(fixed(99.96, 1), "100.0");
    CHECK_STR(fixed(123456789.0, 1), "123456789.0");
    CHECK_STR(fixed(2.5, 0), "3");
    CHECK_STR(fixed(NAN, 1), "null");
    char text[4];
    CHECK_U64(real_text_fixed(text, sizeof text, 12345.0, 1), 7); /* cut, NUL-terminated */
    CHECK_STR(text, "123");

    uint64_t state = 7;
    for (int i = 0; i < 20000; i++) {
        double v = (double)(next_random(&state) >> 20) / 1024.0 + 0.01; /* never a tie */
        char ours[REAL_TEXT_SIZE], c_text[40];
        real_text_fixed(ours, sizeof ours, v, 1);
        snprintf(c_text, sizeof c_text, "%.1f", v);
        if (!CHECK(strcmp(ours, c_text) == 0)) {
            fprintf(stderr, "    %.17g: '%s', the C library '%s'\n", v, ours, c_text);
            break;
        }
    }
}
