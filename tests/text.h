/*
** text.h: a growable NUL-terminated string in the C library's heap (outside SQLite's
** accounting), for the C tests that collect results as text.
*/
#ifndef BLOOM_TEST_TEXT_H
#define BLOOM_TEST_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable string: data[0..len) and a NUL, in cap bytes; {0} is empty, unallocated. */
typedef struct text {
    char *data;
    size_t len, cap;
} text;

/* Appends the n bytes at s to t, keeping it NUL-terminated; exits when out of memory. */
static inline void text_append(text *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->data = realloc(t->data, t->cap);
        if (t->data == NULL) {
            fprintf(stderr, "out of memory in the test itself\n");
            exit(2);
        }
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

/* Empties t, keeping its buffer. */
static inline void text_clear(text *t) {
    t->len = 0;
    if (t->data != NULL) {
        t->data[0] = '\0';
    }
}

#endif
