/*
** filter_info.c: the JSON text of bloom_info. See filter_info.h.
*/
#include "filter_info.h"

#include "key_hash.h"
#include "real_text.h"

#include <math.h>

/* Appends the separator a value needs where it is: a comma unless it comes first. */
static void info_separate(info_sink *sink) {
    if (!sink->first) {
        sink->text(sink, ",");
    }
    sink->first = 0;
}

/* Appends "name": after the separator the field needs. */
static void info_name(info_sink *sink, const char *name) {
    info_separate(sink);
    sink->text(sink, "\"");
    sink->text(sink, name);
    sink->text(sink, "\":");
}

void filter_info(const filter_view *f, info_sink *sink) {
    sink->text(sink, "{");
    sink->first = 1;
    info_count(sink, "format_version", f->version);
    info_count(sink, "min_reader_version", f->min_reader_version);
    info_string(sink, "layout", f->kind->name);
    info_string(sink, "hash", key_hash_name(f->hash));
    f->kind->info(f, sink);
    sink->text(sink, "}");
    sink->first = 0;
}

/* Writes the digits of v, after a '-' when negative, into text (22 bytes); returns where they
** begin. */
static const char *info_digits(char *text, uint64_t v, int negative) {
    size_t at = 21;
    text[at] = '\0';
    do {
        text[--at] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    if (negative) {
        text[--at] = '-';
    }
    return text + at;
}

void info_count(info_sink *sink, const char *name, uint64_t v) {
    char text[22]; /* 2^64 - 1 has 20 digits */
    info_name(sink, name);
    sink->text(sink, info_digits(text, v, 0));
}

void info_integer(info_sink *sink, const char *name, int64_t v) {
    char text[22]; /* -2^63 has 19 digits */
    info_name(sink, name);
    sink->text(sink, info_digits(text, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0));
}

void info_real(info_sink *sink, const char *name, double v) {
    char text[REAL_TEXT_SIZE];
    real_text_significant(text, sizeof text, v, 15);
    info_name(sink, name);
    sink->text(sink, text);
}

void info_estimate(info_sink *sink, const char *name, double v) {
    if (isinf(v)) {
        info_null(sink, name);
        return;
    }
    char text[REAL_TEXT_SIZE];
    real_text_fixed(text, sizeof text, v, 1);
    info_name(sink, name);
    sink->text(sink, text);
}

void info_string(info_sink *sink, const char *name, const char *v) {
    if (v == NULL) {
        info_null(sink, name);
        return;
    }
    info_name(sink, name);
    sink->text(sink, "\"");
    sink->text(sink, v);
    sink->text(sink, "\"");
}

void info_flag(info_sink *sink, const char *name, int v) {
    info_name(sink, name);
    sink->text(sink, v ? "true" : "false");
}

void info_null(info_sink *sink, const char *name) {
    info_name(sink, name);
    sink->text(sink, "null");
}

void info_list_begin(info_sink *sink, const char *name) {
    info_name(sink, name);
    sink->text(sink, "[");
    sink->first = 1;
}

void info_list_end(info_sink *sink) {
    sink->text(sink, "]");
    sink->first = 0;
}

void info_object_begin(info_sink *sink) {
    info_separate(sink);
    sink->text(sink, "{");
    sink->first = 1;
}

void info_object_end(info_sink *sink) {
    sink->text(sink, "}");
    sink->first = 0;
}
