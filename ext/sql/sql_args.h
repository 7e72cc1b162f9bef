/*
** sql_args.h: reading the arguments every filter function shares: a filter,
** a key, a capacity, a rate. Each returns 1 on success, or 0 after setting
** an error that names the function (rule 14 (errors)). They are inline:
** each runs on every row of a probe or a build, where a call apiece cost 24
** instructions a probe and 70 a row of bloom_build (callgrind).
*/
#ifndef SQL_ARGS_H
#define SQL_ARGS_H

#include "sql_api.h"

#include "filter.h"
#include "filter_kinds.h"
#include "key_hash.h"
#include "sql_error.h"

#include <math.h>
#include <string.h>

/* Reads a non-NULL FILTER argument: a BLOB that filter_open accepts (rule 8 (validation)).
** key, the function's KEY argument or NULL, serves the error message (a swapped call). */
static inline int sql_read_filter(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                                  sqlite3_value *key, filter_view *out) {
    if (sqlite3_value_type(v) != SQLITE_BLOB) {
        sql_error_not_a_filter(ctx, func, v, key, NULL);
        return 0;
    }
    const uint8_t *blob = sqlite3_value_blob(v);
    int bytes = sqlite3_value_bytes(v);
    if (blob == NULL && bytes != 0) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    char why[FILTER_WHY_MAX];
    if (filter_open(blob, (uint64_t)bytes, out, why) != FILTER_OK) {
        sql_error_not_a_filter(ctx, func, v, key, why);
        return 0;
    }
    return 1;
}

/* The pointer type of a filter handle (bloom_handle): a filter_view, then the filter's bytes. */
#define SQL_FILTER_HANDLE "sqlite-bloom filter handle"

/* What sql_read_filter_arg found. */
enum { SQL_FILTER_ERROR = 0, SQL_FILTER_READ = 1, SQL_FILTER_NULL = 2 };

/* Reads a FILTER argument that may be NULL or a handle (rule 18 (handle)): SQL_FILTER_READ with
** *out, SQL_FILTER_NULL, or SQL_FILTER_ERROR after setting the error. */
static inline int sql_read_filter_arg(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                                      sqlite3_value *key, filter_view *out) {
    if (sqlite3_value_type(v) == SQLITE_NULL) { /* a pointer value is NULL to SQL */
        const filter_view *handle = sqlite3_value_pointer(v, SQL_FILTER_HANDLE);
        if (handle == NULL) {
            return SQL_FILTER_NULL;
        }
        *out = *handle;
        return SQL_FILTER_READ;
    }
    return sql_read_filter(ctx, func, v, key, out) ? SQL_FILTER_READ : SQL_FILTER_ERROR;
}

/* Inline wherever called, so that reading a key and hashing it make one dispatch on its type
** (callgrind: a probe took 24 instructions more when the compiler kept them apart). */
#if defined(__GNUC__)
#define SQL_ARGS_INLINE static inline __attribute__((always_inline))
#else
#define SQL_ARGS_INLINE static inline
#endif

/* What sql_read_key_value and sql_read_key found. */
enum { SQL_KEY_ERROR = 0, SQL_KEY_READ = 1, SQL_KEY_NULL = 2 };

/* Reads a KEY as it is compared, SQL equality without affinity (rule 5 (keys)), into *out (its
** bytes the value's, valid while it is): SQL_KEY_READ, or SQL_KEY_NULL for a NULL (no key), or
** SQL_KEY_ERROR when SQLite could not convert it (out of memory). */
SQL_ARGS_INLINE int sql_key_value_of(sqlite3_value *v, key_value *out) {
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        return SQL_KEY_NULL;
    case SQLITE_INTEGER:
        out->type = KEY_TAG_INTEGER;
        out->integer = sqlite3_value_int64(v);
        return SQL_KEY_READ;
    case SQLITE_FLOAT:
        out->type = KEY_TAG_REAL;
        out->real = sqlite3_value_double(v);
        return SQL_KEY_READ;
    case SQLITE_TEXT:
        out->type = KEY_TAG_TEXT;
        out->bytes = sqlite3_value_text(v); /* UTF-8, converted from UTF-16 if need be */
        if (out->bytes == NULL) {
            break;
        }
        out->length = (size_t)sqlite3_value_bytes(v);
        return SQL_KEY_READ;
    default:
        out->type = KEY_TAG_BLOB;
        out->bytes = sqlite3_value_blob(v);
        out->length = (size_t)sqlite3_value_bytes(v);
        if (out->bytes == NULL && out->length != 0) {
            break; /* a zeroblob() that could not be expanded */
        }
        return SQL_KEY_READ;
    }
    return SQL_KEY_ERROR;
}

/* sql_key_value_of, setting NOMEM for SQL_KEY_ERROR. */
SQL_ARGS_INLINE int sql_read_key_value(sqlite3_context *ctx, sqlite3_value *v, key_value *out) {
    int read = sql_key_value_of(v, out);
    if (read == SQL_KEY_ERROR) {
        sqlite3_result_error_nomem(ctx);
    }
    return read;
}

/* Reads a KEY and hashes it as the filter f hashes its keys (filter_hash_key): sql_read_key_value's
** results, the hash into *out. */
SQL_ARGS_INLINE int sql_read_key(sqlite3_context *ctx, sqlite3_value *v, const filter_view *f,
                                 key_hash *out) {
    key_value key;
    int read = sql_read_key_value(ctx, v, &key);
    if (read == SQL_KEY_READ) {
        *out = filter_hash_key(f, &key);
    }
    return read;
}

/* Whether a capacity N and a rate P look swapped (rule 14 (errors)): N a REAL strictly between 0
** and 1, P a number >= 1. */
static inline int sql_looks_swapped(sqlite3_value *n, sqlite3_value *p) {
    double fraction = sqlite3_value_type(n) == SQLITE_FLOAT ? sqlite3_value_double(n) : 0;
    int p_type = sqlite3_value_type(p);
    return fraction > 0 && fraction < 1 && (p_type == SQLITE_INTEGER || p_type == SQLITE_FLOAT) &&
           sqlite3_value_double(p) >= 1;
}

/* Starts the error of a capacity v that is not a whole number >= 1 (or NULL, where
** null_allowed), for the caller to add to and hand to sql_error_from_str. */
static inline sqlite3_str *sql_capacity_error(const char *func, sqlite3_value *v,
                                              int null_allowed) {
    return sql_error_start(func,
                           null_allowed ? "n must be a whole number >= 1 or NULL"
                                        : "n must be a whole number >= 1",
                           v);
}

/* Appends to the error of a capacity that N and P seem swapped, then form, the order of the
** call's arguments ("bloom_build(key, n, p)"), or, when NULL, what each of them is. */
static inline void sql_append_swapped(sqlite3_str *s, const char *form) {
    if (form != NULL) {
        sqlite3_str_appendf(s, "; n and p seem swapped: the order is %s", form);
    } else {
        sqlite3_str_appendall(
            s, "; n and p seem swapped: n is the number of keys, p the false-positive rate");
    }
}

/* Reads a capacity N (rule 3 (parameters)) into *n: a whole number >= 1, or NULL (*n = 0)
** where null_allowed. rate, the call's P, and form, the order of its arguments, serve the
** error when the two look swapped (sql_looks_swapped). */
static inline int sql_read_capacity(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                                    sqlite3_value *rate, const char *form, int null_allowed,
                                    uint64_t *n) {
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        *n = 0;
        if (null_allowed) {
            return 1;
        }
        break;
    case SQLITE_INTEGER:
        if (sqlite3_value_int64(v) >= 1) {
            *n = (uint64_t)sqlite3_value_int64(v);
            return 1;
        }
        break;
    case SQLITE_FLOAT: {
        double r = sqlite3_value_double(v);
        if (r >= 9223372036854775808.0) {
            sql_error_value(ctx, func, "n must be at most 9223372036854775807", v);
            return 0;
        }
        if (r >= 1.0 && r == floor(r)) {
            *n = (uint64_t)r;
            return 1;
        }
        break;
    }
    }
    sqlite3_str *s = sql_capacity_error(func, v, null_allowed);
    if (sql_looks_swapped(v, rate)) {
        sql_append_swapped(s, form);
    }
    sql_error_from_str(ctx, s);
    return 0;
}

/* Reads a false-positive rate P (rule 3 (parameters)): a REAL that filter_check_rate accepts. */
static inline int sql_read_rate(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                                double *p) {
    int type = sqlite3_value_type(v);
    if (type == SQLITE_FLOAT) {
        *p = sqlite3_value_double(v);
        if (filter_check_rate(*p) == FILTER_OK) {
            return 1;
        }
    }
    sqlite3_str *s = sql_error_start(func, "p must be between 0 and 1 (exclusive)", v);
    double percent = sqlite3_value_double(v);
    if ((type == SQLITE_FLOAT || type == SQLITE_INTEGER) && percent >= 1 && percent <= 100) {
        sqlite3_str_appendall(s, "; p is a fraction: ");
        sql_append_value(s, v);
        sqlite3_str_appendf(s, " %% is %!.15g", percent / 100);
    }
    sql_error_from_str(ctx, s);
    return 0;
}

/* Whether v is TEXT that reads as name in any case, as sqlite3_stricmp of its text says (the
** text ends at its first NUL), without sqlite3_value_text: a parameter bound with its length, as
** client libraries bind TEXT, has no NUL after it, and SQLite copies the parameter into an
** aggregate's argument again on every row, so sqlite3_value_text would allocate a terminated
** copy on every row (a build 1.7 times slower than with a literal). sqlite3_value_bytes makes
** a UTF-16 value UTF-8 first; sqlite3_value_blob then gives those bytes as they are. */
static inline int sql_text_is(sqlite3_value *v, const char *name) {
    size_t length = strlen(name);
    if (sqlite3_value_type(v) != SQLITE_TEXT) {
        return 0;
    }
    size_t bytes = (size_t)sqlite3_value_bytes(v);
    const char *text = sqlite3_value_blob(v);
    return bytes >= length && text != NULL &&
           (memcmp(text, name, length) == 0 || sqlite3_strnicmp(text, name, (int)length) == 0) &&
           (bytes == length || text[length] == '\0');
}

#endif /* SQL_ARGS_H */
