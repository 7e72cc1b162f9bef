/*
** sql_error.c: error messages naming the function and the value. See
** sql_error.h.
*/
#include "sql_error.h"

#include "filter.h"
#include "filter_kinds.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* Longest prefix of a TEXT value quoted in an error message, in characters. */
#define QUOTED_TEXT_MAX 40

/* Length of the well-formed UTF-8 character at t[0..avail) (no overlong form, surrogate or
** code point above U+10FFFF), or 0 when there is none. */
static int sql_error_utf8_length(const unsigned char *t, int avail) {
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
static int sql_error_is_control(const unsigned char *t, int length) {
    return (length == 1 && (t[0] < 0x20 || t[0] == 0x7F)) ||
           (length == 2 && t[0] == 0xC2 && t[1] < 0xA0);
}

void sql_append_text(sqlite3_str *s, const unsigned char *t, int bytes) {
    sqlite3_str_appendchar(s, 1, '\'');
    for (int i = 0, chars = 0; i < bytes; chars++) {
        int length = sql_error_utf8_length(t + i, bytes - i);
        if (chars == QUOTED_TEXT_MAX) {
            sqlite3_str_appendall(s, "'...");
            return;
        }
        if (length == 0 || sql_error_is_control(t + i, length)) {
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
        sql_append_text(s, text ? text : (const unsigned char *)"",
                        text ? sqlite3_value_bytes(v) : 0);
        break;
    default:
        sqlite3_str_appendf(s, "a BLOB of %d byte%s", sqlite3_value_bytes(v),
                            sqlite3_value_bytes(v) == 1 ? "" : "s");
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
        message[length] = '\0';
    }
    /* The result's text becomes the error's message: handed over, not copied, so that no
    ** allocation can lose it (sqlite3_result_error's copy fails silently). */
    sqlite3_result_text(ctx, message, length, sqlite3_free);
    sqlite3_result_error_code(ctx, SQLITE_ERROR);
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

sqlite3_str *sql_error_start(const char *func, const char *what, sqlite3_value *v) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: %s, got ", func, what);
    sql_append_value(s, v);
    return s;
}

void sql_error_value(sqlite3_context *ctx, const char *func, const char *what, sqlite3_value *v) {
    sql_error_from_str(ctx, sql_error_start(func, what, v));
}

/* Whether the bytes of a TEXT value are the hex digits of a filter: an even number of them,
** starting with the magic's 53514246. */
static int sql_error_is_filter_hex(const unsigned char *text, int bytes) {
    static const char magic[] = "53514246";
    if (bytes < 8 || bytes % 2 != 0 || sqlite3_strnicmp((const char *)text, magic, 8) != 0) {
        return 0;
    }
    for (int i = 8; i < bytes; i++) {
        unsigned char c = text[i] | 0x20; /* lower case for letters */
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return 0;
        }
    }
    return 1;
}

/* Whether v is a BLOB that filter_open accepts. */
static int sql_error_is_filter(sqlite3_value *v) {
    filter_view f;
    char why[FILTER_WHY_MAX];
    const uint8_t *blob = sqlite3_value_blob(v);
    return sqlite3_value_type(v) == SQLITE_BLOB && blob != NULL &&
           filter_open(blob, (uint64_t)sqlite3_value_bytes(v), &f, why) == FILTER_OK;
}

void sql_error_not_a_filter(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                            sqlite3_value *key, const char *why) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    const unsigned char *text = sqlite3_value_type(v) == SQLITE_TEXT ? sqlite3_value_text(v) : NULL;
    int bytes = sqlite3_value_bytes(v);
    if (why != NULL) {
        sqlite3_str_appendf(s, "%s: %s", func, why);
    } else {
        sqlite3_str_appendf(s, "%s: the filter must be a BLOB, got ", func);
        sql_append_value(s, v);
    }
    if (key != NULL && sql_error_is_filter(key)) {
        sqlite3_str_appendf(s, "; the filter comes first: %s(filter, key)", func);
    } else if (text != NULL && bytes >= 4 && memcmp(text, "SQBF", 4) == 0) {
        sqlite3_str_appendall(s, "; this TEXT holds a filter's bytes: pass the BLOB itself, not "
                                 "CAST(filter AS TEXT)");
    } else if (text != NULL && sql_error_is_filter_hex(text, bytes)) {
        sqlite3_str_appendall(s, "; this TEXT is a filter in hex: pass the BLOB itself (hex() is "
                                 "for display), or unhex() it on SQLite 3.41 and later");
    }
    sql_error_from_str(ctx, s);
}

void sql_error_cannot(sqlite3_context *ctx, const char *func, const filter_kind *kind,
                      filter_ability ability) {
    char why[FILTER_WHY_MAX];
    filter_kind_refusal(kind, ability, why);
    sql_errorf(ctx, "%s: %s", func, why);
}

/* A message about key that starts "FUNC: the key KEY", for the caller to end. */
static sqlite3_str *sql_key_message(const char *func, sqlite3_value *key) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: the key ", func);
    sql_append_value(s, key);
    return s;
}

void sql_error_not_removed(sqlite3_context *ctx, const char *func, sqlite3_value *key) {
    sqlite3_str *s = sql_key_message(func, key);
    sqlite3_str_appendall(s, " is not in the filter; nothing was removed");
    sql_error_from_str(ctx, s);
}

char *sql_refused_message(const char *func, sqlite3_value *key, const char *type) {
    sqlite3_str *s = sql_key_message(func, key);
    sqlite3_str_appendf(s, " is not a value of the filter's type, %s; nothing was added", type);
    return sqlite3_str_finish(s);
}

/* Sets the error of ctx to message, from sqlite3_malloc, and frees it; NOMEM when it is NULL. */
static void sql_error_message(sqlite3_context *ctx, char *message) {
    if (message == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sql_errorf(ctx, "%s", message);
    sqlite3_free(message);
}

void sql_error_refused(sqlite3_context *ctx, const char *func, sqlite3_value *key,
                       const char *type) {
    sql_error_message(ctx, sql_refused_message(func, key, type));
}

void sql_error_probe_refused(sqlite3_context *ctx, const char *func, sqlite3_value *key,
                             const char *why) {
    sqlite3_str *s = sql_key_message(func, key);
    sqlite3_str_appendchar(s, 1, ' ');
    sqlite3_str_appendall(s, why);
    sql_error_from_str(ctx, s);
}

char *sql_full_message(const char *func, const char *what, const filter_kind *kind) {
    return sqlite3_mprintf("%s: no room for %s in the '%s' filter, %s; nothing was added", func,
                           what, kind->name,
                           kind->full_advice != NULL ? kind->full_advice : "which is full");
}

void sql_error_full(sqlite3_context *ctx, const char *func, const char *what,
                    const filter_kind *kind) {
    sql_error_message(ctx, sql_full_message(func, what, kind));
}
