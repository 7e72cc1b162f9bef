/*
** info_text.h: bloom_info's JSON as a reader without SQLite writes it: filter_info
** (ext/core/filter_info.h) through an info_sink into a text.h string. For the tests that hold the
*core's JSON to what its readers write (tests/unit's
** test_filter.c, tests/fuzz/fuzz_wasm_reader.c).
*/
#ifndef BLOOM_TEST_INFO_TEXT_H
#define BLOOM_TEST_INFO_TEXT_H

#include "filter_info.h"
#include "text.h"

/* An info_sink into out. */
typedef struct info_text {
    info_sink sink; /* first: the callbacks get this struct */
    text out;
} info_text;

/* Appends s as it is. */
static inline void info_text_text(info_sink *sink, const char *s) {
    text_append(&((info_text *)sink)->out, s, strlen(s));
}

/* An info_text with no text yet (free its out.data when done). */
static inline info_text info_text_new(void) {
    info_text t = {{info_text_text, 0}, {0}};
    return t;
}

#endif
