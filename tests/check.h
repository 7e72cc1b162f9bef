/*
** check.h: the assertion macros of the C tests. Each test program calls
** CHECK* as often as it likes and ends main() with check_report(), which
** prints the tally and fails the program if any check failed or none ran.
*/
#ifndef BLOOM_CHECK_H
#define BLOOM_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_count, check_failures;

/* Records one check; prints where it failed. */
static int check_record(int ok, const char *file, int line, const char *what) {
    check_count++;
    if (!ok) {
        check_failures++;
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
    return ok;
}

#define CHECK(cond) check_record((cond) != 0, __FILE__, __LINE__, #cond)

#define CHECK_U64(actual, expected)                                                                \
    do {                                                                                           \
        unsigned long long a_ = (actual), e_ = (expected);                                         \
        if (!check_record(a_ == e_, __FILE__, __LINE__, #actual " == " #expected))                 \
            fprintf(stderr, "    got %llu, expected %llu\n", a_, e_);                              \
    } while (0)

#define CHECK_STR(actual, expected)                                                                \
    do {                                                                                           \
        const char *a_ = (actual), *e_ = (expected);                                               \
        if (!check_record(a_ != NULL && strcmp(a_, e_) == 0, __FILE__, __LINE__,                   \
                          #actual " == " #expected))                                               \
            fprintf(stderr, "    got      \"%s\"\n    expected \"%s\"\n", a_ ? a_ : "(null)", e_); \
    } while (0)

/* Prints the tally; returns the exit status of the test program. */
static int check_report(const char *name) {
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures == 0 && check_count > 0 ? 0 : 1;
}

#endif /* BLOOM_CHECK_H */
