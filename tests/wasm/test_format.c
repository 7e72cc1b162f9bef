/*
** test_format.c: ext/wasm/wasm_format.c, the snprintf of the WebAssembly reader,
** against the C library's snprintf (glibc's: doubles from their exact value,
** rounded to nearest, ties to even), built natively: every conversion the core
** and the reader write (%d, %u, %lu, %llu, %02X, %s, %.15g, %.1f), the others
** the file offers, flags, widths, precisions and truncation, and doubles of
** every kind: random bit patterns, subnormals, powers of ten and their
** neighbours, integers whose 16th digit is a tie, binary fractions that are
** ties at one decimal.
*/
#include "wasm_format.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation" /* SAME_TRUNCATED truncates on purpose */
#endif

static int failures, checks;

/* Formats with both and compares text and length; with size 200 and, for truncation, 0, 1, 7. */
#define SAME(...)                                                                                  \
    do {                                                                                           \
        char want[800], got[800];                                                                  \
        int want_length = snprintf(want, sizeof want, __VA_ARGS__);                                \
        int got_length = wasm_format_snprintf(got, sizeof got, __VA_ARGS__);                       \
        checks++;                                                                                  \
        if (want_length != got_length || strcmp(want, got) != 0) {                                 \
            if (failures++ < 20) {                                                                 \
                fprintf(stderr, "line %d: %s: libc '%s' (%d), wasm_format '%s' (%d)\n", __LINE__,  \
                        #__VA_ARGS__, want, want_length, got, got_length);                         \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define SAME_TRUNCATED(size, ...)                                                                  \
    do {                                                                                           \
        char want[64], got[64];                                                                    \
        memset(want, 'x', sizeof want);                                                            \
        memset(got, 'x', sizeof got);                                                              \
        int want_length = snprintf(want, size, __VA_ARGS__);                                       \
        int got_length = wasm_format_snprintf(got, size, __VA_ARGS__);                             \
        checks++;                                                                                  \
        if (want_length != got_length || memcmp(want, got, sizeof want) != 0) {                    \
            if (failures++ < 20) {                                                                 \
                fprintf(stderr, "line %d: size %d: %s differs\n", __LINE__, (int)(size),           \
                        #__VA_ARGS__);                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static uint64_t state = 0x9E3779B97F4A7C15u;

static uint64_t next(void) { /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Du;
}

/* Every double conversion of the reader and of C, on v. */
static void doubles(double v) {
    SAME("%.15g", v);
    SAME("%.1f", v);
    SAME("%.17g", v);
    SAME("%g", v);
    SAME("%e", v);
    SAME("%.0e", v);
    SAME("%.3E", v);
    char leading[32];
    snprintf(leading, sizeof leading, "%.17e", fabs(v));
    if (leading[0] != '9') { /* glibc's %#g where rounding reaches a power of ten: see main */
        SAME("%#.3g", v);
    }
    SAME("%G", v);
    if (fabs(v) < 1e30) { /* fixed notation of large values: checked on a few below */
        SAME("%f", v);
        SAME("%.0f", v);
        SAME("%#.0f", v);
        SAME("%12.3f|", v);
        SAME("%-14.4g|", v);
        SAME("%+.2e", v);
        SAME("% 012.4f", v);
        SAME("%015.6g", v);
    }
}

int main(void) {
    /* Integers, as the core's messages write them. */
    const long long signed_values[] = {
        0,       1,       -1,        7,         10,           99,           -100,
        INT_MAX, INT_MIN, LLONG_MAX, LLONG_MIN, 4294967295LL, -4294967296LL};
    for (size_t i = 0; i < sizeof signed_values / sizeof signed_values[0]; i++) {
        long long v = signed_values[i];
        SAME("%d", (int)v);
        SAME("%i|%5d|%-5d|%05d|%+d|% d|%.3d|%.0d", (int)v, (int)v, (int)v, (int)v, (int)v, (int)v,
             (int)v, (int)v);
        SAME("%u %x %X %02X %#x %#X %8.3x", (unsigned)v, (unsigned)v, (unsigned)v, (unsigned)v,
             (unsigned)v, (unsigned)v, (unsigned)v);
        SAME("%ld %lu %lx", (long)v, (unsigned long)v, (unsigned long)v);
        SAME("%lld %llu %llX %jd", v, (unsigned long long)v, (unsigned long long)v, (intmax_t)v);
        SAME("%hd %hu %hhd %hhu %zu %td", (short)v, (unsigned short)v, (signed char)v,
             (unsigned char)v, (size_t)v, (ptrdiff_t)v);
        SAME("%*d|%-*d|%.*d|%*d", 6, (int)v, 6, (int)v, 4, (int)v, -6, (int)v);
    }
    SAME("%llu", 18446744073709551615ULL);
    SAME("corrupt filter: reserved byte %d is 0x%02X, not 0", 63, 0xAB);
    SAME("not a Bloom filter: magic is x'%02X%02X%02X%02X', not x'53514246' (SQBF)", 0, 1, 0x5A,
         0xFF);
    SAME("%s%s values of %lu bytes: only %s has a length", "a ", "FIXED", 16ul, "it");

    /* Strings and characters. */
    SAME("%s|%.3s|%10s|%-10s|%.0s|%c|%3c|%-3c|%%|100%%", "standard", "standard", "cuckoo", "fuse",
         "x", 'k', 'k', 'k');
    SAME("%s", "");
    SAME("a '%s' filter cannot %s%s", "fuse", "add keys", "; build a ");

    /* Truncation: the length of the whole text, the bytes past size untouched. */
    for (int size = 0; size < 12; size++) {
        SAME_TRUNCATED(size, "corrupt filter: %llu buckets", 12345678901ULL);
        SAME_TRUNCATED(size, "%.15g|%s", 0.01, "tail");
    }

    /* Doubles: special values, the edges, powers of ten and their neighbours. */
    const double special[] = {0.0,
                              -0.0,
                              1.0,
                              -1.0,
                              0.5,
                              0.1,
                              0.01,
                              0.001,
                              1e-9,
                              0.2,
                              0.8,
                              1.5,
                              2.5,
                              -2.5,
                              0.25,
                              0.75,
                              0.05,
                              0.15,
                              0.35,
                              9.95,
                              9.5,
                              99.5,
                              999999.5,
                              123456.789,
                              1e15,
                              1e16,
                              1e17,
                              1e21,
                              1e22,
                              1e23,
                              1e300,
                              1e308,
                              DBL_MAX,
                              -DBL_MAX,
                              DBL_MIN,
                              -DBL_MIN,
                              DBL_TRUE_MIN,
                              4.9e-324,
                              2.2250738585072009e-308,
                              DBL_EPSILON,
                              1 - DBL_EPSILON / 2,
                              9007199254740992.0,
                              9007199254740993.0,
                              9223372036854775808.0,
                              18446744073709551616.0,
                              1234567890123455.0,
                              1234567890123465.0,
                              0.999999999999999,
                              0.9999999999999995,
                              9.999999999999995,
                              99999999999999.95,
                              5e-5,
                              4.99999e-5,
                              1e-4,
                              9.99995e-5,
                              INFINITY,
                              -INFINITY,
                              NAN,
                              -NAN};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        doubles(special[i]);
        SAME("%f|%.0f|%.3f", special[i], special[i], special[i]); /* large ones in fixed too */
    }
    for (int e = -330; e <= 310; e++) {
        double v = pow(10.0, e);
        doubles(v);
        doubles(nextafter(v, 0));
        doubles(nextafter(v, INFINITY));
        doubles(-v / 3);
    }
    /* Integers with a 16th significant digit of 5, exact: ties at 15 digits. */
    for (int i = 0; i < 2000; i++) {
        double v = (double)((int64_t)(next() % 900000000000000ULL + 100000000000000ULL) * 10 + 5);
        doubles(v);
        doubles(v / 1024); /* and their binary fractions */
    }
    /* Binary fractions: ties at one decimal (x.25, x.75) and at others. */
    for (int i = -5000; i <= 5000; i++) {
        doubles(i / 64.0);
        doubles(i * 0.05);
    }
    /* Random doubles: any bit pattern (not NaN), and values in the ranges filters hold. */
    for (int i = 0; i < 20000; i++) {
        uint64_t bits = next();
        double v;
        memcpy(&v, &bits, sizeof v);
        if (v == v) {
            doubles(v);
        }
        double u = (double)(next() >> 11) / 9007199254740992.0; /* [0, 1) */
        doubles(u);
        doubles(u * pow(10.0, (int)(next() % 40) - 20));
        doubles(ldexp(u, (int)(next() % 2100) - 1074));
    }
    /* Where glibc is not C: %#.3g of 999.6 rounds to 1.00e+03, which C writes with the two digits
    ** the precision asks for ("1.00e+03"), and glibc 2.36 as "1.e+03". */
    char text[32];
    wasm_format_snprintf(text, sizeof text, "%#.3g|%#.3g|%.3g", 999.6, 1000.0, 999.6);
    checks++;
    if (strcmp(text, "1.00e+03|1.00e+03|1e+03") != 0) {
        failures++;
        fprintf(stderr, "%%#.3g of 999.6: '%s'\n", text);
    }
    if (failures > 0) {
        fprintf(stderr, "%d of %d formats differ from the C library's\n", failures, checks);
        return 1;
    }
    printf("%d formats: each the C library's, byte for byte\n", checks);
    return 0;
}
