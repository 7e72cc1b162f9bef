/*
** fuzz_roundtrip.c: libFuzzer target, a round-trip oracle through SQL.
**
** Keys of every type taken from the input (INTEGER, REAL with integral values and -0.0,
** TEXT in UTF-8 and UTF-16, BLOB, zeroblob, NULL) go into a table; bloom_build makes a filter
** of them with parameters taken from the input. Then, or the program aborts:
**  - every non-NULL key probes 1, an INTEGER key also as the equal REAL, an integral REAL
**    key also as the equal INTEGER (docs/format.md, "Keys");
**  - with n given, the filter is byte for byte the union of filters built over groups of the
**    rows, and the empty filter with each key added in turn by bloom_add;
**  - the filter with bits flipped, truncated or extended (by other input bytes) gives every
**    reading function an error or an answer, never a crash; when only the bit array changed,
**    an answer.
**
** Input (see fuzz_input.h for values):
**   1 byte   configuration: modulo 3, the text encoding; divided by 4, modulo 4, the call:
**            bloom_build(k), (k, n, p), (k, n, p, 'standard'), (k, n, p, 'blocked');
**            bit 4: n bound as an integral REAL
**   2 bytes  n: 0 is NULL (sized for the distinct keys), others 1 + (n - 1) % 4096
**   2 bytes  p: 0.5 * 10^(-18.5 * p / 65535), from 0.5 down to 1.6e-19 (k <= 64); for the
**            blocked layout 0.5 * 10^(-5.7 * p / 65535), down to 1e-6: its sizing takes 3 ms
**            there but 0.4 s at 1e-19, paid by each build here (fuzz_sql goes down there)
**   1 byte   modulo 4, plus 1: the number of groups of the union
**   1 byte   modulo 65: the number of keys, then each key as a value
**   1 byte   modulo 9: the number of corruptions, then each: 1 byte modulo 3, the kind;
**            0: flip, 2 bytes offset (modulo the length) and 1 byte mask (0 flips bit 0);
**            1: truncate, 2 bytes new length (modulo the length); 2: append, 1 byte
*/
#include "bloom_core.h"
#include "fuzz_db.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_KEYS = 64, MAX_CORRUPTIONS = 8, MAX_CAPACITY = 4096, MAX_GROUPS = 4 };

/* SQLITE_LIMIT_LENGTH: above any filter of MAX_CAPACITY keys at a rate of 1.6e-19. */
enum { MAX_FILTER_BYTES = 1 << 20 };

/* The kinds of corruption. */
enum { FLIP, TRUNCATE, APPEND, CORRUPTION_KINDS };

/* The parameters of bloom_build, bound as ?1 n, ?2 p, ?3 layout, and ?4 the groups. */
enum { PARAMETER_N, PARAMETER_P, PARAMETER_LAYOUT, PARAMETER_GROUPS, PARAMETERS };

/* The arguments after the key of the four calls of bloom_build. */
static const char *const build_arguments[4] = {"", ", ?1, ?2", ", ?1, ?2, ?3", ", ?1, ?2, ?3"};

/* A text fuzz value of the NUL-terminated text. */
static fuzz_value text_value(const char *text) {
    fuzz_value v = {FUZZ_TEXT, 0, 0.0, (const uint8_t *)text, strlen(text)};
    return v;
}

/* Reads the configuration and the parameters of bloom_build into parameters; returns the
** index of the call in build_arguments. */
static int take_parameters(fuzz_input *in, uint8_t configuration, fuzz_value *parameters) {
    int call = (configuration / 4) % 4;
    uint16_t n = fuzz_take_u16(in), p = fuzz_take_u16(in);
    fuzz_value null = {FUZZ_NULL, 0, 0.0, NULL, 0};
    parameters[PARAMETER_N] = null;
    if (n != 0) {
        parameters[PARAMETER_N].tag = configuration & 16 ? FUZZ_INTEGRAL_REAL : FUZZ_INTEGER;
        parameters[PARAMETER_N].integer = 1 + (n - 1) % MAX_CAPACITY;
        parameters[PARAMETER_N].real = (double)parameters[PARAMETER_N].integer;
    }
    parameters[PARAMETER_P] = null;
    parameters[PARAMETER_P].tag = FUZZ_REAL;
    parameters[PARAMETER_P].real = 0.5 * pow(10.0, -(call == 3 ? 5.7 : 18.5) * p / 65535.0);
    parameters[PARAMETER_LAYOUT] = text_value(call == 3 ? "blocked" : "standard");
    parameters[PARAMETER_GROUPS] = null;
    parameters[PARAMETER_GROUPS].tag = FUZZ_INTEGER;
    parameters[PARAMETER_GROUPS].integer = 1 + fuzz_take_u8(in) % MAX_GROUPS;
    return call;
}

/* Inserts the keys of the input into the table keys; returns how many. */
static int insert_keys(sqlite3 *db, fuzz_input *in) {
    int count = fuzz_take_u8(in) % (MAX_KEYS + 1);
    sqlite3_stmt *insert = fuzz_db_prepare(db, "INSERT INTO keys VALUES (?1)");
    for (int i = 0; i < count; i++) {
        fuzz_value key = fuzz_take_value(in);
        fuzz_db_bind(insert, 1, &key);
        if (fuzz_db_run(insert) != SQLITE_DONE) {
            fuzz_fail("cannot insert key %d: %s", i, sqlite3_errmsg(db));
        }
    }
    fuzz_db_finalize(insert);
    return count;
}

/* Binds parameters to every parameter stmt has. */
static void bind_parameters(sqlite3_stmt *stmt, const fuzz_value *parameters) {
    for (int index = 1; index <= sqlite3_bind_parameter_count(stmt); index++) {
        fuzz_db_bind(stmt, index, &parameters[index - 1]);
    }
}

/* Runs sql, a query of one row and one column, with parameters bound; returns a copy of the
** BLOB it gives (NULL for NULL) and sets *size. Aborts on an error or any other result. */
static uint8_t *query_blob(sqlite3 *db, const char *sql, const fuzz_value *parameters,
                           size_t *size) {
    sqlite3_stmt *stmt = fuzz_db_prepare(db, sql);
    uint8_t *blob = NULL;
    bind_parameters(stmt, parameters);
    if (fuzz_db_step(stmt) != SQLITE_ROW) {
        fuzz_fail("%s: %s", sql, sqlite3_errmsg(db));
    }
    *size = (size_t)sqlite3_column_bytes(stmt, 0);
    if (sqlite3_column_type(stmt, 0) == SQLITE_BLOB) {
        blob = malloc(*size + 1);
        if (blob == NULL) {
            fuzz_fail("out of memory for %zu bytes", *size);
        }
        memcpy(blob, sqlite3_column_blob(stmt, 0), *size);
    } else if (sqlite3_column_type(stmt, 0) != SQLITE_NULL) {
        fuzz_fail("%s gives a %s", sql, sqlite3_column_text(stmt, 0));
    }
    if (fuzz_db_step(stmt) != SQLITE_DONE) {
        fuzz_fail("%s gives more than a row", sql);
    }
    fuzz_db_reset(stmt, SQLITE_DONE);
    fuzz_db_finalize(stmt);
    return blob;
}

/* Like query_blob for sql, a format with one %s for the arguments of bloom_build. */
static uint8_t *query_build(sqlite3 *db, const char *sql_format, int call,
                            const fuzz_value *parameters, size_t *size) {
    char *sql = sqlite3_mprintf(sql_format, build_arguments[call]);
    if (sql == NULL) {
        fuzz_fail("out of memory for %s", sql_format);
    }
    uint8_t *blob = query_blob(db, sql, parameters, size);
    sqlite3_free(sql);
    return blob;
}

/* 2^63 as a double: the first REAL above every INTEGER. */
#define TWO_TO_THE_63 9223372036854775808.0

/* Steps probe, whose ?1 and ?2 are bound; returns its answer, or -1 if it is not 0 or 1. */
static int probe_answer(sqlite3_stmt *probe) {
    if (fuzz_db_step(probe) != SQLITE_ROW) {
        fuzz_fail("probing a key: %s", sqlite3_errmsg(sqlite3_db_handle(probe)));
    }
    int answer =
        sqlite3_column_type(probe, 0) == SQLITE_INTEGER ? sqlite3_column_int(probe, 0) : -1;
    fuzz_db_reset(probe, SQLITE_ROW);
    return answer == 0 || answer == 1 ? answer : -1;
}

/* Probes with key bound as ?2 of probe, whose ?1 is bound to the filter. */
static int probe_key(sqlite3_stmt *probe, sqlite3_value *key) {
    if (sqlite3_bind_value(probe, 2, key) != SQLITE_OK) {
        fuzz_fail("binding a key: %s", sqlite3_errmsg(sqlite3_db_handle(probe)));
    }
    return probe_answer(probe);
}

/* Probes with the number equal to key of the other numeric type, when there is one (decided
** in C, exactly, not by SQLite's comparison, which some builds make with 64-bit long double);
** returns 1 when there is none. */
static int probe_equal_number(sqlite3_stmt *probe, sqlite3_value *key) {
    int rc = SQLITE_DONE;
    if (sqlite3_value_type(key) == SQLITE_INTEGER) {
        sqlite3_int64 i = sqlite3_value_int64(key);
        double r = (double)i;
        if (r < TWO_TO_THE_63 && (sqlite3_int64)r == i) {
            rc = sqlite3_bind_double(probe, 2, r);
        }
    } else if (sqlite3_value_type(key) == SQLITE_FLOAT) {
        double r = sqlite3_value_double(key);
        if (r == floor(r) && r >= -TWO_TO_THE_63 && r < TWO_TO_THE_63) {
            rc = sqlite3_bind_int64(probe, 2, (sqlite3_int64)r);
        }
    }
    if (rc == SQLITE_DONE) {
        return 1;
    }
    if (rc != SQLITE_OK) {
        fuzz_fail("binding a key: %s", sqlite3_errmsg(sqlite3_db_handle(probe)));
    }
    return probe_answer(probe);
}

/* Aborts unless every non-NULL key probes 1 in filter, also as the equal number of the
** other numeric type when there is one. */
static void check_keys_probe_one(sqlite3 *db, const uint8_t *filter, size_t size) {
    sqlite3_stmt *keys = fuzz_db_prepare(db, "SELECT rowid, k FROM keys WHERE k IS NOT NULL");
    sqlite3_stmt *probe = fuzz_db_prepare(db, "SELECT bloom_might_contain(?1, ?2)");
    int rc;
    fuzz_db_bind_blob(probe, 1, filter, size);
    while ((rc = fuzz_db_step(keys)) == SQLITE_ROW) {
        sqlite3_value *key = sqlite3_column_value(keys, 1);
        int as_is = probe_key(probe, key);
        int as_other = probe_equal_number(probe, key);
        if (as_is != 1 || as_other != 1) {
            fuzz_fail("key %lld, %s, probes %d, as the equal number of the other type %d",
                      (long long)sqlite3_column_int64(keys, 0), sqlite3_column_text(keys, 1), as_is,
                      as_other);
        }
    }
    if (rc != SQLITE_DONE) {
        fuzz_fail("probing the keys: %s", sqlite3_errmsg(db));
    }
    fuzz_db_reset(keys, rc);
    fuzz_db_finalize(keys);
    fuzz_db_finalize(probe);
}

/* Aborts unless the blob of other_size bytes is filter. */
static void check_same_filter(const uint8_t *filter, size_t size, const uint8_t *other,
                              size_t other_size, const char *what) {
    if (other == NULL || other_size != size || memcmp(other, filter, size) != 0) {
        fuzz_fail("%s differs from the filter built over every key", what);
    }
}

/* Aborts unless the empty filter with the count keys added one by one is filter. */
static void check_added_one_by_one(sqlite3 *db, int call, const fuzz_value *parameters,
                                   const uint8_t *filter, size_t size) {
    size_t added_size;
    uint8_t *added = query_build(db, "SELECT bloom_build(NULL%s)", call, parameters, &added_size);
    sqlite3_stmt *keys = fuzz_db_prepare(db, "SELECT k FROM keys ORDER BY rowid");
    sqlite3_stmt *step_one = fuzz_db_prepare(db, "SELECT bloom_add(?1, ?2)");
    int rc;
    if (added == NULL) {
        fuzz_fail("bloom_build over no key gives NULL");
    }
    /* Each row's key, bound to a second statement that adds it to the filter so far. */
    while ((rc = fuzz_db_step(keys)) == SQLITE_ROW) {
        int bound = sqlite3_bind_value(step_one, 2, sqlite3_column_value(keys, 0));
        if (bound != SQLITE_OK) {
            fuzz_fail("binding a key: %s", sqlite3_errstr(bound));
        }
        fuzz_db_bind_blob(step_one, 1, added, added_size);
        if (fuzz_db_step(step_one) != SQLITE_ROW ||
            sqlite3_column_type(step_one, 0) != SQLITE_BLOB) {
            fuzz_fail("bloom_add: %s", sqlite3_errmsg(db));
        }
        added_size = (size_t)sqlite3_column_bytes(step_one, 0);
        free(added);
        added = malloc(added_size);
        if (added == NULL) {
            fuzz_fail("out of memory for %zu bytes", added_size);
        }
        memcpy(added, sqlite3_column_blob(step_one, 0), added_size);
        if (fuzz_db_step(step_one) != SQLITE_DONE) {
            fuzz_fail("bloom_add gives more than a row");
        }
        fuzz_db_reset(step_one, SQLITE_DONE);
    }
    fuzz_db_reset(keys, rc);
    fuzz_db_finalize(keys);
    fuzz_db_finalize(step_one);
    check_same_filter(filter, size, added, added_size, "the filter added to key by key");
    free(added);
}

/* Applies the corruptions of the input to blob (*size bytes, room for MAX_CORRUPTIONS more);
** returns whether the header and the length are intact. */
static int corrupt(fuzz_input *in, uint8_t *blob, size_t *size) {
    int count = fuzz_take_u8(in) % (MAX_CORRUPTIONS + 1), intact = 1;
    for (int i = 0; i < count; i++) {
        int kind = fuzz_take_u8(in) % CORRUPTION_KINDS;
        if (kind == FLIP) {
            uint16_t offset = fuzz_take_u16(in);
            uint8_t mask = fuzz_take_u8(in);
            if (*size > 0) {
                blob[offset % *size] ^= mask ? mask : 1;
                intact &= offset % *size >= FILTER_HEADER_BYTES;
            }
        } else if (kind == TRUNCATE) {
            uint16_t length = fuzz_take_u16(in);
            if (*size > 0) {
                *size = length % *size;
                intact = 0;
            }
        } else {
            blob[(*size)++] = fuzz_take_u8(in);
            intact = 0;
        }
    }
    return intact;
}

/* Gives corrupted (?1) with the intact filter (?2) and each key to every function reading a
** filter; aborts on an error when intact says the header and length are unchanged. */
static void check_corrupted(sqlite3 *db, const uint8_t *corrupted, size_t corrupted_size,
                            const uint8_t *filter, size_t size, int intact) {
    static const char *const queries[] = {
        "SELECT bloom_might_contain(?1, k) FROM keys",
        "SELECT bloom_info(?1)",
        "SELECT bloom_add(?1, k) FROM keys",
        "SELECT bloom_union(?1, ?2), bloom_union(?2, ?1)",
        "SELECT bloom_union(column1) FROM (VALUES (?2), (?1), (?2))",
    };
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        sqlite3_stmt *stmt = fuzz_db_prepare(db, queries[i]);
        fuzz_db_bind_blob(stmt, 1, corrupted, corrupted_size);
        if (sqlite3_bind_parameter_count(stmt) == 2) {
            fuzz_db_bind_blob(stmt, 2, filter, size);
        }
        if (fuzz_db_run(stmt) != SQLITE_DONE && intact) {
            fuzz_fail("%s: %s, with only bits changed", queries[i], sqlite3_errmsg(db));
        }
        fuzz_db_finalize(stmt);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    fuzz_value parameters[PARAMETERS];
    size_t filter_size, union_size;
    uint8_t configuration = fuzz_take_u8(&in);
    int call = take_parameters(&in, configuration, parameters);
    sqlite3 *db = fuzz_db_open(configuration % FUZZ_ENCODINGS, "CREATE TABLE keys(k)");
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, MAX_FILTER_BYTES);
    int keys = insert_keys(db, &in);
    uint8_t *filter =
        query_build(db, "SELECT bloom_build(k%s) FROM keys", call, parameters, &filter_size);
    if (filter == NULL) {
        if (keys != 0) {
            fuzz_fail("bloom_build over %d rows gives NULL", keys);
        }
        fuzz_db_close(db);
        return 0;
    }
    check_keys_probe_one(db, filter, filter_size);
    if (call > 0 && parameters[PARAMETER_N].tag != FUZZ_NULL) {
        uint8_t *united = query_build(db,
                                      "SELECT bloom_union(f) FROM (SELECT bloom_build(k%s) AS f "
                                      "FROM keys GROUP BY rowid %% ?4)",
                                      call, parameters, &union_size);
        check_same_filter(filter, filter_size, united, union_size, "the union of the groups");
        free(united);
        check_added_one_by_one(db, call, parameters, filter, filter_size);
    }
    uint8_t *corrupted = malloc(filter_size + MAX_CORRUPTIONS);
    size_t corrupted_size = filter_size;
    if (corrupted == NULL) {
        fuzz_fail("out of memory for %zu bytes", filter_size);
    }
    memcpy(corrupted, filter, filter_size);
    int intact = corrupt(&in, corrupted, &corrupted_size);
    check_corrupted(db, corrupted, corrupted_size, filter, filter_size, intact);
    free(corrupted);
    free(filter);
    fuzz_db_close(db);
    return 0;
}
