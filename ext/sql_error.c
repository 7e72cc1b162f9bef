/*
** sql_error.c: error messages naming the function and the value. See
** sql_error.h.
*/
#include "sql_error.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* Longest prefix of a TEXT value quoted in an error message, in characters. */
#define QUOTED_TEXT_MAX 40

/* Length of the well-formed UTF-8 character at t[0..avail) (no overlong form, surrogate or
** code point above U+10FFFF), or 0 when there is none. */
static int utf8_char_length(const unsigned char *t, int avail) {
    unsigned char second_low = 0x80, second_high = 0xBF;
    int length;
    if (t[0] < 0x80) {
        return 1;
    } else if (t[0] >= 0xC2 && t[0] <= 0xDF) {
        length = 2;
    } else if (t[0] >= 0xE0 && t[0] <= 0xEF) {
        length = 3;
        second_low = t[0] == 0xE0 ? 0xA0 : 0x80;
        second_high = t[0] == 0xED ? 0x9F : 0xBF;
    } else if (t[0] >= 0xF0 && t[0] <= 0xF4) {
        length = 4;
        second_low = t[0] == 0xF0 ? 0x90 : 0x80;
        second_high = t[0] == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (length > avail || t[1] < second_low || t[1] > second_high) {
        return 0;
    }
    for (int i = 2; i < length; i++) {
        if ((t[i] & 0xC0) != 0x80) {
            return 0;
        }
    }
    return length;
}

/* Whether the character at t (length bytes) is a control character: C0, DEL or C1. */
static int is_control(const unsigned char *t, int length) {
    return (length == 1 && (t[0] < 0x20 || t[0] == 0x7F)) ||
           (length == 2 && t[0] == 0xC2 && t[1] < 0xA0);
}

/*
** Appends TEXT t of the given bytes, quoted, as error messages show it: its
** first QUOTED_TEXT_MAX characters then ... if cut, with control characters
** and bytes that are not UTF-8 as \xNN, so a message never carries raw bytes.
*/
static void append_quoted_text(sqlite3_str *s, const unsigned char *t, int bytes) {
    sqlite3_str_appendchar(s, 1, '\'');
    for (int i = 0, chars = 0; i < bytes; chars++) {
        int length = utf8_char_length(t + i, bytes - i);
        if (chars == QUOTED_TEXT_MAX) {
            sqlite3_str_appendall(s, "'...");
            return;
        }
        if (length == 0 || is_control(t + i, length)) {
            for (int byte = 0; byte < (length ? length : 1); byte++) {
                sqlite3_str_appendf(s, "\\x%02X", t[i + byte]);
            }
            length = length ? length : 1;
        } else if (t[i] == '\'') {
            sqlite3_str_appendall(s, "''");
        } else {
            sqlite3_str_append(s, (const char *)t + i, length);
        }
        i += length;
    }
    sqlite3_str_appendchar(s, 1, '\'');
}

void sql_append_real(sqlite3_str *s, double v, double other) {
    char text[40], other_text[40];
    sqlite3_snprintf(sizeof text, text, "%!.15g", v);
    sqlite3_snprintf(sizeof other_text, other_text, "%!.15g", other);
    size_t length = strlen(text);
    int looks_whole = length > 2 && strcmp(text + length - 2, ".0") == 0;
    int hides = (looks_whole && isfinite(v) && v != floor(v)) ||
                (v != other && strcmp(text, other_text) == 0);
    sqlite3_str_appendf(s, hides ? "%!.17g" : "%!.15g", v);
}

void sql_append_value(sqlite3_str *s, sqlite3_value *v) {
    const unsigned char *text;
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        sqlite3_str_appendall(s, "NULL");
        break;
    case SQLITE_INTEGER:
        sqlite3_str_appendf(s, "%lld", sqlite3_value_int64(v));
        break;
    case SQLITE_FLOAT:
        sql_append_real(s, sqlite3_value_double(v), sqlite3_value_double(v));
        break;
    case SQLITE_TEXT:
        text = sqlite3_value_text(v);
        append_quoted_text(s, text ? text : (const unsigned char *)"",
                           text ? sqlite3_value_bytes(v) : 0);
        break;
    default:
        sqlite3_str_appendf(s, "a BLOB of %d bytes", sqlite3_value_bytes(v));
        break;
    }
}

int sql_error_from_str(sqlite3_context *ctx, sqlite3_str *s) {
    int rc = sqlite3_str_errcode(s), length = sqlite3_str_length(s);
    char *message = sqlite3_str_finish(s);
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    if (rc != SQLITE_OK || message == NULL) {
        sqlite3_free(message);
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    if (length > limit) {
        length = limit;
        while (length > 0 && (message[length] & 0xC0) == 0x80) {
            length--;
        }
    }
    sqlite3_result_error(ctx, message, length);
    sqlite3_free(message);
    return 1;
}

int sql_errorf(sqlite3_context *ctx, const char *format, ...) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    va_list ap;
    va_start(ap, format);
    sqlite3_str_vappendf(s, format, ap);
    va_end(ap);
    return sql_error_from_str(ctx, s);
}

void sql_error_value(sqlite3_context *ctx, const char *func, const char *what, sqlite3_value *v) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: %s, got ", func, what);
    sql_append_value(s, v);
    sql_error_from_str(ctx, s);
}
