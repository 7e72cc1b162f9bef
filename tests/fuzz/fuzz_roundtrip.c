/*
** fuzz_roundtrip.c: libFuzzer target, a round-trip oracle through SQL.
**
** Keys of every type taken from the input (INTEGER, REAL with integral values and -0.0,
** TEXT in UTF-8 and UTF-16, BLOB, zeroblob, NULL) go into a table; bloom_build makes a filter
** of them with parameters taken from the input. Then, or the program aborts:
**  - every non-NULL key probes 1, an INTEGER key also as the equal REAL, an integral REAL
**    key also as the equal INTEGER (docs/format.md, "Keys");
**  - with n given, the filter is byte for byte the union of filters built over groups of the
**    rows, and the empty filter with each key added in turn by bloom_add; with n NULL, the
**    filter built with n the d distinct keys it holds (rule 4 (sized at the end));
**  - a counting or cuckoo filter: removing each key in turn by bloom_remove succeeds, the keys
**    not yet removed still probe 1, and at the end (for a counting filter, unless a counter
**    saturated) every counter or slot and the count of keys are 0 (the rest of the header
**    unchanged); with n NULL, an error (rule 4 (sized at the end));
**  - a cuckoo filter (rule 21 (cuckoo)): its bytes depend on the order of the adds, so the
**    union of the groups need only answer like it: the same header and slots in use, every key
**    probing 1. A cuckoo filter may have no room: then bloom_build fails with the error "no
**    room", and so does one of the adds to the empty filter key by key; the union, and the
**    adds to a corrupted filter, may fail so too;
**  - the filter with bits flipped, truncated or extended (by other input bytes) gives every
**    reading function, and the in-place functions on it stored in a table, an error or an
**    answer, never a crash; when only the body changed, an answer (but from the removes, and
**    "no room" from the adds to a cuckoo filter).
**
** Input (see fuzz_input.h for values):
**   1 byte   configuration: modulo 3, the text encoding; divided by 4, modulo 6, the call:
**            bloom_build(k), (k, n, p), (k, n, p, 'standard'), (k, n, p, 'blocked'),
**            (k, n, p, 'counting'), (k, n, p, 'cuckoo'); bit 7: n bound as an integral REAL
**   2 bytes  n: 0 is NULL (sized for the distinct keys), others 1 + (n - 1) % 4096
**   2 bytes  p: 0.5 * 10^(-18.5 * p / 65535), from 0.5 down to 1.6e-19 (k <= 64: the standard
**            and counting layouts); for the blocked layout 0.5 * 10^(-5.7 * p / 65535), down
**            to 1e-6: its sizing takes 3 ms there but 0.4 s at 1e-19, paid by each build here
**            (fuzz_sql goes down there); for the cuckoo layout 0.5 * 10^(-8.4 * p / 65535),
**            down to 2e-9 (fingerprints of at most 32 bits)
**   1 byte   modulo 4, plus 1: the number of groups of the union
**   1 byte   modulo 65: the number of keys, then each key as a value
**   1 byte   modulo 9: the number of corruptions, then each: 1 byte modulo 3, the kind;
**            0: flip, 2 bytes offset (modulo the length) and 1 byte mask (0 flips bit 0);
**            1: truncate, 2 bytes new length (modulo the length); 2: append, 1 byte
*/
#include "filter_kinds.h"
#include "bloom_core.h"
#include "countmin_core.h"
#include "cuckoo_core.h"
#include "fuzz_db.h"
#include "scalable_core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_KEYS = 64, MAX_CORRUPTIONS = 8, MAX_CAPACITY = 4096, MAX_GROUPS = 4 };

/* SQLITE_LIMIT_LENGTH: above any filter of MAX_CAPACITY keys at a rate of 1.6e-19. */
enum { MAX_FILTER_BYTES = 1 << 20 };

/* Offsets of n and of the count of keys in the header of every kind (a scalable filter's n: its
** first stage's, at 16; a count-min sketch's total where the others count their keys). */
enum { N_OFFSET = 24, SCALABLE_N_OFFSET = 16, KEYS_OFFSET = 40 };

/* The kinds of corruption. */
enum { FLIP, TRUNCATE, APPEND, CORRUPTION_KINDS };

/* The parameters of bloom_build, bound as ?1 n, ?2 p, ?3 layout, and ?4 the groups. */
enum { PARAMETER_N, PARAMETER_P, PARAMETER_LAYOUT, PARAMETER_GROUPS, PARAMETERS };

/* The calls of bloom_build: the arguments after the key, and the layout bound as ?3. */
enum {
    CALL_KEY_ONLY,
    CALL_N_P,
    CALL_STANDARD,
    CALL_BLOCKED,
    CALL_COUNTING,
    CALL_CUCKOO,
    CALL_SCALABLE,
    CALL_COUNTMIN, /* cms_build(k, ?1, ?2, ?2, ?3): n the count, p epsilon and delta */
    CALLS
};
static const char *const build_arguments[CALLS] = {
    "", ", ?1, ?2", ", ?1, ?2, ?3", ", ?1, ?2, ?3", ", ?1, ?2, ?3", ", ?1, ?2, ?3", ", ?1, ?2, ?3",
    ""};
static const char *const layouts[CALLS] = {"standard", "standard", "standard", "blocked",
                                           "counting", "cuckoo",   "scalable", "plain"};

/* The decades of p below 0.5 that the input reaches, by call: the blocked and cuckoo layouts
** stop above their limits, the scalable one where its seventh stage (64 keys from n = 1) still
** takes at most 64 hash functions, the count-min sketch at epsilon = delta = 0.005 (width 544,
** depth 6) (see the opening comment). */
static double rate_decades(int call) {
    switch (call) {
    case CALL_BLOCKED:
        return 5.7;
    case CALL_CUCKOO:
        return 8.4;
    case CALL_SCALABLE:
        return 15.0;
    case CALL_COUNTMIN:
        return 2.0;
    default:
        return 18.5;
    }
}

/* The configuration bits that bind n as an integral REAL, and choose the conservative update
** of a count-min sketch. */
enum { N_AS_REAL = 128, CONSERVATIVE = 32 };

/* A text fuzz value of the NUL-terminated text. */
static fuzz_value text_value(const char *text) {
    fuzz_value v = {FUZZ_TEXT, 0, 0.0, (const uint8_t *)text, strlen(text)};
    return v;
}

/* Reads the configuration and the parameters of bloom_build into parameters; returns the
** index of the call in build_arguments. */
static int take_parameters(fuzz_input *in, uint8_t configuration, fuzz_value *parameters) {
    int call = (configuration / 4) % CALLS;
    uint16_t n = fuzz_take_u16(in), p = fuzz_take_u16(in);
    fuzz_value null = {FUZZ_NULL, 0, 0.0, NULL, 0};
    parameters[PARAMETER_N] = null;
    if (n != 0) {
        parameters[PARAMETER_N].tag = configuration & N_AS_REAL ? FUZZ_INTEGRAL_REAL : FUZZ_INTEGER;
        parameters[PARAMETER_N].integer = 1 + (n - 1) % MAX_CAPACITY;
        parameters[PARAMETER_N].real = (double)parameters[PARAMETER_N].integer;
    }
    parameters[PARAMETER_P] = null;
    parameters[PARAMETER_P].tag = FUZZ_REAL;
    parameters[PARAMETER_P].real = 0.5 * pow(10.0, -rate_decades(call) * p / 65535.0);
    parameters[PARAMETER_LAYOUT] = text_value(
        call == CALL_COUNTMIN && configuration & CONSERVATIVE ? "conservative" : layouts[call]);
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

/* Whether the error of db is a cuckoo filter's "no room" (rule 21 (cuckoo)). */
static int no_room(sqlite3 *db) {
    return strstr(sqlite3_errmsg(db), ": no room for ") != NULL;
}

/* Whether the error of db is a refused union of scalable filters, one of whose stages would hold
** more keys than it is sized for (rule 22 (scalable)). */
static int incompatible(sqlite3 *db) {
    return strstr(sqlite3_errmsg(db), ": incompatible filters: together their stage ") != NULL;
}

/* What *full asks of query_blob before the call: the error "no room" only, or also a refused
** union of scalable filters. */
enum { NO_ROOM_ONLY = 0, OR_INCOMPATIBLE = 2 };

/* Runs sql, a query of one row and one column, with parameters bound; returns a copy of the
** BLOB it gives (NULL for NULL) and sets *size. Aborts on an error or any other result, but
** for the error "no room" when full is not NULL (or "incompatible" when *full is
** OR_INCOMPATIBLE): then returns NULL with *full set to 1. */
static uint8_t *query_blob(sqlite3 *db, const char *sql, const fuzz_value *parameters, size_t *size,
                           int *full) {
    sqlite3_stmt *stmt = fuzz_db_prepare(db, sql);
    uint8_t *blob = NULL;
    bind_parameters(stmt, parameters);
    int rc = fuzz_db_step(stmt);
    if (rc == SQLITE_ERROR && full != NULL &&
        (no_room(db) || (*full == OR_INCOMPATIBLE && incompatible(db)))) {
        *full = 1;
        *size = 0;
        fuzz_db_reset(stmt, rc);
        fuzz_db_finalize(stmt);
        return NULL;
    }
    if (rc != SQLITE_ROW) {
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
                            const fuzz_value *parameters, size_t *size, int *full) {
    char *sql = sqlite3_mprintf(sql_format, build_arguments[call]);
    if (sql == NULL) {
        fuzz_fail("out of memory for %s", sql_format);
    }
    uint8_t *blob = query_blob(db, sql, parameters, size, full);
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

/* Aborts unless every non-NULL key of a row after first_rowid probes 1 in filter, also as the
** equal number of the other numeric type when there is one. */
static void check_keys_probe_one(sqlite3 *db, const uint8_t *filter, size_t size,
                                 sqlite3_int64 first_rowid) {
    sqlite3_stmt *keys =
        fuzz_db_prepare(db, "SELECT rowid, k FROM keys WHERE k IS NOT NULL AND rowid > ?1");
    sqlite3_stmt *probe = fuzz_db_prepare(db, "SELECT bloom_might_contain(?1, ?2)");
    int rc;
    if (sqlite3_bind_int64(keys, 1, first_rowid) != SQLITE_OK) {
        fuzz_fail("binding a rowid: %s", sqlite3_errmsg(db));
    }
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

/* Applies func (bloom_add, bloom_remove, or cms_add with count) to the filter in *blob (*size
** bytes, from malloc) with the key of each row whose rowid is in [first, last], in order,
** replacing *blob; aborts on an error, but for the error "no room" when full is not NULL: then
** stops there, *blob as before that key, with *full set. */
static void apply_each_key(sqlite3 *db, const char *func, uint8_t **blob, size_t *size,
                           sqlite3_int64 first, sqlite3_int64 last, int *full,
                           const fuzz_value *count) {
    char *sql =
        sqlite3_mprintf(count != NULL ? "SELECT %s(?1, ?2, ?3)" : "SELECT %s(?1, ?2)", func);
    sqlite3_stmt *keys =
        fuzz_db_prepare(db, "SELECT k FROM keys WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid");
    sqlite3_stmt *step_one = fuzz_db_prepare(db, sql != NULL ? sql : "");
    int rc;
    sqlite3_free(sql);
    if (sqlite3_bind_int64(keys, 1, first) != SQLITE_OK ||
        sqlite3_bind_int64(keys, 2, last) != SQLITE_OK) {
        fuzz_fail("binding a rowid: %s", sqlite3_errmsg(db));
    }
    /* Each row's key, bound to a second statement that applies it to the filter so far. */
    while ((rc = fuzz_db_step(keys)) == SQLITE_ROW) {
        int bound = sqlite3_bind_value(step_one, 2, sqlite3_column_value(keys, 0));
        if (bound != SQLITE_OK) {
            fuzz_fail("binding a key: %s", sqlite3_errstr(bound));
        }
        fuzz_db_bind_blob(step_one, 1, *blob, *size);
        if (count != NULL) {
            fuzz_db_bind(step_one, 3, count);
        }
        int stepped = fuzz_db_step(step_one);
        if (stepped == SQLITE_ERROR && full != NULL && no_room(db)) {
            *full = 1;
            fuzz_db_reset(step_one, stepped);
            break;
        }
        if (stepped != SQLITE_ROW || sqlite3_column_type(step_one, 0) != SQLITE_BLOB) {
            fuzz_fail("%s: %s", func, sqlite3_errmsg(db));
        }
        *size = (size_t)sqlite3_column_bytes(step_one, 0);
        free(*blob);
        *blob = malloc(*size);
        if (*blob == NULL) {
            fuzz_fail("out of memory for %zu bytes", *size);
        }
        memcpy(*blob, sqlite3_column_blob(step_one, 0), *size);
        if (fuzz_db_step(step_one) != SQLITE_DONE) {
            fuzz_fail("%s gives more than a row", func);
        }
        fuzz_db_reset(step_one, SQLITE_DONE);
    }
    fuzz_db_reset(keys, rc);
    fuzz_db_finalize(keys);
    fuzz_db_finalize(step_one);
}

/* Aborts unless the empty filter with the keys added one by one is filter; or, when filter is
** NULL (a cuckoo filter that bloom_build found no room for), unless one of those adds fails
** with the error "no room". */
static void check_added_one_by_one(sqlite3 *db, int call, const fuzz_value *parameters,
                                   const uint8_t *filter, size_t size) {
    size_t added_size;
    int full = 0;
    uint8_t *added =
        query_build(db, "SELECT bloom_build(NULL%s)", call, parameters, &added_size, NULL);
    if (added == NULL) {
        fuzz_fail("bloom_build over no key gives NULL");
    }
    apply_each_key(db, "bloom_add", &added, &added_size, 1, MAX_KEYS,
                   call == CALL_CUCKOO ? &full : NULL, NULL);
    if (filter == NULL) {
        if (!full) {
            fuzz_fail("bloom_build has no room for the keys, bloom_add key by key has");
        }
    } else if (full) {
        fuzz_fail("bloom_add key by key has no room for the keys, bloom_build has");
    } else {
        check_same_filter(filter, size, added, added_size, "the filter added to key by key");
    }
    free(added);
}

/* Aborts unless a counting or cuckoo filter with n NULL over the rows is an error, or NULL over
** no row (rule 4 (sized at the end): it needs n). */
static void check_needs_n(sqlite3 *db, const fuzz_value *parameters, int rows) {
    sqlite3_stmt *stmt = fuzz_db_prepare(db, "SELECT bloom_build(k, ?1, ?2, ?3) FROM keys");
    bind_parameters(stmt, parameters);
    int rc = fuzz_db_step(stmt);
    if (rows > 0 ? rc != SQLITE_ERROR
                 : rc != SQLITE_ROW || sqlite3_column_type(stmt, 0) != SQLITE_NULL) {
        fuzz_fail("a '%s' filter sized at the end over %d rows: result code %d",
                  (const char *)parameters[PARAMETER_LAYOUT].bytes, rows, rc);
    }
    fuzz_db_reset(stmt, rc == SQLITE_ROW ? fuzz_db_step(stmt) : rc);
    fuzz_db_finalize(stmt);
}

/* Aborts unless filter, built with n NULL, is the filter built with n = d, the distinct keys it
** was sized for (its header's n), the same p and layout (rule 4 (sized at the end)). */
static void check_sized_at_the_end(sqlite3 *db, int call, const fuzz_value *parameters,
                                   const uint8_t *filter, size_t size) {
    fuzz_value given[PARAMETERS];
    size_t given_size;
    uint64_t d = 0;
    int n_offset = call == CALL_SCALABLE ? SCALABLE_N_OFFSET : N_OFFSET;
    for (int i = 0; i < 8; i++) {
        d |= (uint64_t)filter[n_offset + i] << (8 * i);
    }
    memcpy(given, parameters, sizeof given);
    given[PARAMETER_N].tag = FUZZ_INTEGER;
    given[PARAMETER_N].integer = (int64_t)d;
    if (call == CALL_KEY_ONLY) {
        given[PARAMETER_P].real = 0.01; /* bloom_build(key) is bloom_build(key, NULL, 0.01) */
    }
    uint8_t *built = query_build(db, "SELECT bloom_build(k%s) FROM keys",
                                 call == CALL_KEY_ONLY ? CALL_N_P : call, given, &given_size, NULL);
    if (call == CALL_SCALABLE && built != NULL && given_size == size) {
        /* Its one stage holds the d keys, each added unless it was a false positive of those
        ** before it, in another order (rule 22 (scalable)): the counts of keys may differ, the
        ** bits may not. */
        memcpy(built + KEYS_OFFSET, filter + KEYS_OFFSET, 8);
        memcpy(built + FILTER_HEADER_BYTES + KEYS_OFFSET,
               filter + FILTER_HEADER_BYTES + KEYS_OFFSET, 8);
    }
    check_same_filter(filter, size, built, given_size, "the filter built with n the keys it holds");
    free(built);
}

/* Whether byte offset of the valid filter (size bytes) is in a header: the filter's, or for a
** scalable filter one of its stages'. */
static int in_a_header(const uint8_t *filter, size_t size, size_t offset) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (offset < FILTER_HEADER_BYTES) {
        return 1;
    }
    if (filter_open(filter, size, &view, why) != FILTER_OK) {
        fuzz_fail("a filter bloom_build made is refused: %s", why);
    }
    if (view.kind->id != SCALABLE_KIND) {
        return 0;
    }
    for (int i = 0; i < scalable_header_of(&view).stages; i++) {
        scalable_stage stage;
        scalable_stage_at(&view, i, &stage);
        if (offset >= stage.offset && offset < stage.offset + FILTER_HEADER_BYTES) {
            return 1;
        }
    }
    return 0;
}

/* The key that docs/format.md's "Keys" makes of v (as the extension reads a KEY), into *key;
** 0 for a NULL, no key. */
static int key_of(sqlite3_value *v, key_hash *key) {
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        return 0;
    case SQLITE_INTEGER:
        *key = key_hash_integer(sqlite3_value_int64(v));
        break;
    case SQLITE_FLOAT:
        *key = key_hash_real(sqlite3_value_double(v));
        break;
    case SQLITE_TEXT: {
        const unsigned char *text = sqlite3_value_text(v);
        *key = key_hash_text(text, (size_t)sqlite3_value_bytes(v));
        break;
    }
    default:
        *key = key_hash_blob(sqlite3_value_blob(v), (size_t)sqlite3_value_bytes(v));
        break;
    }
    return 1;
}

/* The estimate cms_count gives of the key v in the sketch (size bytes), or -1 for NULL. */
static sqlite3_int64 estimate_of(sqlite3 *db, const uint8_t *sketch, size_t size,
                                 sqlite3_value *v) {
    sqlite3_stmt *stmt = fuzz_db_prepare(db, "SELECT cms_count(?1, ?2)");
    fuzz_db_bind_blob(stmt, 1, sketch, size);
    if (sqlite3_bind_value(stmt, 2, v) != SQLITE_OK || fuzz_db_step(stmt) != SQLITE_ROW) {
        fuzz_fail("cms_count: %s", sqlite3_errmsg(db));
    }
    sqlite3_int64 estimate =
        sqlite3_column_type(stmt, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(stmt, 0);
    fuzz_db_reset(stmt, SQLITE_ROW);
    fuzz_db_finalize(stmt);
    return estimate;
}

/* Aborts unless, for every key of the rows, its estimate in sketch (size bytes) is at least its
** true count (count times the rows of an equal key, by the extension's keys: computed here, not
** by SQL's =) and at most its estimate in plain, the plain sketch of the same rows; a NULL key
** has none; bloom_might_contain answers 1 exactly when the estimate is above 0. */
static void check_estimates(sqlite3 *db, const uint8_t *sketch, const uint8_t *plain, size_t size,
                            const fuzz_value *count, const char *what) {
    sqlite3_stmt *rows = fuzz_db_prepare(db, "SELECT k FROM keys ORDER BY rowid");
    sqlite3_stmt *probe = fuzz_db_prepare(db, "SELECT bloom_might_contain(?1, ?2)");
    key_hash keys[MAX_KEYS];
    sqlite3_value *values[MAX_KEYS];
    int present[MAX_KEYS], n = 0, rc;
    uint64_t per_row = count->tag == FUZZ_NULL ? 0 : (uint64_t)count->integer;
    while ((rc = fuzz_db_step(rows)) == SQLITE_ROW && n < MAX_KEYS) {
        /* Hashed from a copy of its own: reading the text of a UTF-16 value converts it in
        ** place, and a key bound again after that (lone surrogates made UTF-8 and back) need not
        ** be the key the table holds. */
        sqlite3_value *hashed = sqlite3_value_dup(sqlite3_column_value(rows, 0));
        values[n] = sqlite3_value_dup(sqlite3_column_value(rows, 0));
        if (values[n] == NULL || hashed == NULL) {
            fuzz_fail("out of memory for a key");
        }
        present[n] = key_of(hashed, &keys[n]);
        sqlite3_value_free(hashed);
        n++;
    }
    fuzz_db_reset(rows, rc == SQLITE_ROW ? fuzz_db_step(rows) : rc);
    fuzz_db_bind_blob(probe, 1, sketch, size);
    for (int i = 0; i < n; i++) {
        uint64_t truth = 0;
        for (int j = 0; j < n; j++) {
            truth +=
                present[i] && present[j] && keys[i].h1 == keys[j].h1 && keys[i].h2 == keys[j].h2
                    ? per_row
                    : 0;
        }
        sqlite3_int64 estimate = estimate_of(db, sketch, size, values[i]);
        sqlite3_int64 upper = estimate_of(db, plain, size, values[i]);
        int answer = present[i] ? probe_key(probe, values[i]) : -1;
        if (present[i] ? estimate < 0 || (uint64_t)estimate < truth || estimate > upper ||
                             answer != (estimate > 0)
                       : estimate != -1) {
            fuzz_fail("%s: key %d of count %llu has the estimate %lld (the plain sketch's %lld), "
                      "probes %d",
                      what, i, (unsigned long long)truth, (long long)estimate, (long long)upper,
                      answer);
        }
    }
    for (int i = 0; i < n; i++) {
        sqlite3_value_free(values[i]);
    }
    fuzz_db_finalize(rows);
    fuzz_db_finalize(probe);
}

/*
** The count-min round trip (rule 23 (count-min sketch)): the sketch of the rows, each key
** counted n (NULL: not counted) by cms_build with epsilon = delta = p and the update of the
** configuration. Every key's estimate is at least its count, and at most the plain sketch's for
** a conservative one (check_estimates); the total is n times the keys that are not NULL; the
** union of sketches of groups of the rows is the sketch byte for byte (plain), or keeps every
** count below the plain sketch's (conservative); cms_empty with each key added in turn by
** cms_add is the sketch byte for byte. Returns the sketch (malloc, *size bytes) to corrupt, or
** NULL over no row.
*/
static uint8_t *check_countmin(sqlite3 *db, fuzz_value *parameters, int rows, size_t *size) {
    static const char build[] = "SELECT cms_build(k, ?1, ?2, ?2, ?3) FROM keys";
    size_t plain_size, united_size, added_size;
    int conservative = strcmp((const char *)parameters[PARAMETER_LAYOUT].bytes, "plain") != 0;
    uint8_t *sketch = query_blob(db, build, parameters, size, NULL);
    if (sketch == NULL) {
        if (rows != 0) {
            fuzz_fail("cms_build over %d rows gives NULL", rows);
        }
        return NULL;
    }
    fuzz_value layout = parameters[PARAMETER_LAYOUT];
    parameters[PARAMETER_LAYOUT] = text_value("plain");
    uint8_t *plain = query_blob(db, build, parameters, &plain_size, NULL);
    parameters[PARAMETER_LAYOUT] = layout;
    if (plain == NULL || plain_size != *size) {
        fuzz_fail("a plain sketch of other size than a conservative one");
    }
    check_estimates(db, sketch, plain, *size, &parameters[PARAMETER_N], "the sketch");
    uint64_t total = 0, expected = 0;
    for (int i = 0; i < 8; i++) {
        total |= (uint64_t)sketch[KEYS_OFFSET + i] << (8 * i);
    }
    sqlite3_stmt *keys = fuzz_db_prepare(db, "SELECT count(k) FROM keys");
    if (fuzz_db_step(keys) != SQLITE_ROW) {
        fuzz_fail("counting the keys: %s", sqlite3_errmsg(db));
    }
    if (parameters[PARAMETER_N].tag != FUZZ_NULL) {
        expected =
            (uint64_t)sqlite3_column_int64(keys, 0) * (uint64_t)parameters[PARAMETER_N].integer;
    }
    fuzz_db_reset(keys, SQLITE_ROW);
    fuzz_db_finalize(keys);
    if (total != expected) {
        fuzz_fail("a sketch's total is %llu, not %llu", (unsigned long long)total,
                  (unsigned long long)expected);
    }
    uint8_t *united = query_blob(db,
                                 "SELECT cms_union(s) FROM (SELECT cms_build(k, ?1, ?2, ?2, ?3) AS "
                                 "s FROM keys GROUP BY rowid % ?4)",
                                 parameters, &united_size, NULL);
    if (!conservative) {
        check_same_filter(sketch, *size, united, united_size, "the union of the groups");
    } else if (united == NULL || united_size != *size) {
        fuzz_fail("the union of the groups has another size than the sketch of every row");
    } else {
        check_estimates(db, united, plain, *size, &parameters[PARAMETER_N],
                        "the union of the groups");
    }
    uint8_t *added = query_blob(db, "SELECT cms_empty(?2, ?2, ?3)", parameters, &added_size, NULL);
    apply_each_key(db, "cms_add", &added, &added_size, 1, MAX_KEYS, NULL, &parameters[PARAMETER_N]);
    check_same_filter(sketch, *size, added, added_size, "the sketch added to key by key");
    free(plain);
    free(united);
    free(added);
    return sketch;
}

/* Whether a counter of the counting filter (size bytes) is at 15. */
static int has_saturated_counter(const uint8_t *filter, size_t size) {
    for (size_t i = FILTER_HEADER_BYTES; i < size; i++) {
        if ((filter[i] & 0x0F) == 0x0F || (filter[i] & 0xF0) == 0xF0) {
            return 1;
        }
    }
    return 0;
}

/* The slots in use of the cuckoo filter (size bytes), which bloom_build wrote. */
static uint64_t slots_used(const uint8_t *filter, size_t size) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(filter, size, &view, why) != FILTER_OK || view.kind->id != CUCKOO_KIND) {
        fuzz_fail("a cuckoo filter is refused: %s", why);
    }
    return cuckoo_slots_used(&view);
}

/* Aborts unless the cuckoo filter united (united_size bytes), the union of filters built over
** groups of the rows, answers like filter, built over every row: the same header (the keys
** summed, the n and p of the first) and slots in use, every key probing 1 (rule 21 (cuckoo):
** the fingerprints lie elsewhere). */
static void check_same_answers(sqlite3 *db, const uint8_t *filter, size_t size,
                               const uint8_t *united, size_t united_size) {
    if (united == NULL || united_size != size || memcmp(united, filter, FILTER_HEADER_BYTES) != 0) {
        fuzz_fail("the union of the groups has another header than the filter over every key");
    }
    if (slots_used(united, size) != slots_used(filter, size)) {
        fuzz_fail("the union of the groups has %llu slots in use, the filter over every key %llu",
                  (unsigned long long)slots_used(united, size),
                  (unsigned long long)slots_used(filter, size));
    }
    check_keys_probe_one(db, united, united_size, 0);
}

/* Aborts unless the keys of the count rows, removed in turn from the counting or cuckoo filter,
** are removed, those not yet removed (after the first half) still probe 1, and, unless a
** counter saturated (saturates: the kind has counters), every counter or slot and the count of
** keys end at 0, the rest of the header unchanged. */
static void check_removed_one_by_one(sqlite3 *db, const uint8_t *filter, size_t size, int count,
                                     int saturates) {
    size_t removed_size = size;
    uint8_t *removed = malloc(size);
    if (removed == NULL) {
        fuzz_fail("out of memory for %zu bytes", size);
    }
    memcpy(removed, filter, size);
    apply_each_key(db, "bloom_remove", &removed, &removed_size, 1, count / 2, NULL, NULL);
    check_keys_probe_one(db, removed, removed_size, count / 2);
    apply_each_key(db, "bloom_remove", &removed, &removed_size, count / 2 + 1, count, NULL, NULL);
    if (removed_size != size) {
        fuzz_fail("bloom_remove changes the length of a filter");
    }
    if (!saturates || !has_saturated_counter(filter, size)) {
        static const uint8_t zero_keys[8] = {0};
        for (size_t i = 0; i < size; i++) {
            int keys = i >= KEYS_OFFSET && i < KEYS_OFFSET + 8;
            uint8_t expected = i >= FILTER_HEADER_BYTES ? 0
                               : keys                   ? zero_keys[i - KEYS_OFFSET]
                                                        : filter[i];
            if (removed[i] != expected) {
                fuzz_fail("byte %zu of the filter with every key removed is 0x%02X, not 0x%02X", i,
                          removed[i], expected);
            }
        }
    }
    free(removed);
}

/* Applies the corruptions of the input to blob (*size bytes, room for MAX_CORRUPTIONS more), a
** copy of filter; returns whether the headers (in_a_header) and the length are intact. */
static int corrupt(fuzz_input *in, const uint8_t *filter, uint8_t *blob, size_t *size) {
    int count = fuzz_take_u8(in) % (MAX_CORRUPTIONS + 1), intact = 1;
    size_t original = *size; /* the length while intact */
    for (int i = 0; i < count; i++) {
        int kind = fuzz_take_u8(in) % CORRUPTION_KINDS;
        if (kind == FLIP) {
            uint16_t offset = fuzz_take_u16(in);
            uint8_t mask = fuzz_take_u8(in);
            if (*size > 0) {
                blob[offset % *size] ^= mask ? mask : 1;
                intact = intact && !in_a_header(filter, original, offset % *size);
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
** filter, and to the in-place functions with corrupted stored in the table cells; aborts on an
** error when intact says the headers and length are unchanged (but from a remove: the key may
** not be in the filter, or the kind cannot remove; for a cuckoo filter, the error "no room"
** from what adds; for a scalable filter, a union that a stage cannot hold; and the count-min
** functions, which refuse the other kinds). */
static void check_corrupted(sqlite3 *db, const uint8_t *corrupted, size_t corrupted_size,
                            const uint8_t *filter, size_t size, int intact, int kind) {
    enum { ANSWERS, MAY_FAIL, ADDS, UNITES, SKETCH };
    static const struct {
        const char *sql;
        int when_intact; /* ANSWERS; MAY_FAIL; ADDS, may have no room; UNITES, also a union a
                         ** stage cannot hold; SKETCH, answers for a count-min sketch */
    } queries[] = {
        {"SELECT bloom_might_contain(?1, k) FROM keys", ANSWERS},
        {"SELECT bloom_info(?1)", ANSWERS},
        {"SELECT bloom_add(?1, k) FROM keys", ADDS},
        {"SELECT bloom_remove(?1, k) FROM keys", MAY_FAIL},
        {"SELECT bloom_union(?1, ?2), bloom_union(?2, ?1)", UNITES},
        {"SELECT bloom_union(column1) FROM (VALUES (?2), (?1), (?2))", UNITES},
        {"SELECT cms_count(?1, k), cms_add(?1, k, 3), cms_info(?1) FROM keys", SKETCH},
        {"SELECT cms_union(?1, ?2), cms_union(?2, ?1)", SKETCH},
        {"INSERT INTO cells VALUES (?1)", ANSWERS},
        {"SELECT bloom_might_contain_in_place('cells', 'f', 1, k) FROM keys", ANSWERS},
        {"SELECT bloom_add_in_place('cells', 'f', 1, k) FROM keys", ADDS},
        {"SELECT bloom_remove_in_place('cells', 'f', 1, k) FROM keys", MAY_FAIL},
        {"SELECT cms_add_in_place('cells', 'f', 1, k), cms_count_in_place('cells', 'f', 1, k) "
         "FROM keys",
         SKETCH},
    };
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        sqlite3_stmt *stmt = fuzz_db_prepare(db, queries[i].sql);
        if (sqlite3_bind_parameter_count(stmt) >= 1) {
            fuzz_db_bind_blob(stmt, 1, corrupted, corrupted_size);
        }
        if (sqlite3_bind_parameter_count(stmt) == 2) {
            fuzz_db_bind_blob(stmt, 2, filter, size);
        }
        int rc = fuzz_db_run(stmt);
        int when = queries[i].when_intact;
        int may_fail = when == MAY_FAIL || (when == SKETCH && kind != COUNTMIN_KIND) ||
                       ((when == ADDS || when == UNITES) && kind == CUCKOO_KIND && no_room(db)) ||
                       (when == UNITES && kind == SCALABLE_KIND && incompatible(db));
        if (rc != SQLITE_DONE && intact && !may_fail) {
            fuzz_fail("%s: %s, with only bits changed", queries[i].sql, sqlite3_errmsg(db));
        }
        fuzz_db_finalize(stmt);
    }
}

/* The corruptions of the input applied to a copy of filter (size bytes), checked
** (check_corrupted). */
static void check_corruptions(sqlite3 *db, fuzz_input *in, const uint8_t *filter, size_t size) {
    uint8_t *corrupted = malloc(size + MAX_CORRUPTIONS);
    size_t corrupted_size = size;
    if (corrupted == NULL) {
        fuzz_fail("out of memory for %zu bytes", size);
    }
    memcpy(corrupted, filter, size);
    int intact = corrupt(in, filter, corrupted, &corrupted_size);
    check_corrupted(db, corrupted, corrupted_size, filter, size, intact, filter[FILTER_OFF_KIND]);
    free(corrupted);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    fuzz_value parameters[PARAMETERS];
    size_t filter_size, union_size;
    uint8_t configuration = fuzz_take_u8(&in);
    int call = take_parameters(&in, configuration, parameters);
    sqlite3 *db =
        fuzz_db_open(configuration % FUZZ_ENCODINGS, "CREATE TABLE keys(k); CREATE TABLE cells(f)");
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, MAX_FILTER_BYTES);
    int keys = insert_keys(db, &in), full = 0, cuckoo = call == CALL_CUCKOO;
    if (call == CALL_COUNTMIN) {
        uint8_t *sketch = check_countmin(db, parameters, keys, &filter_size);
        if (sketch != NULL) {
            check_corruptions(db, &in, sketch, filter_size);
        }
        free(sketch);
        fuzz_db_close(db);
        return 0;
    }
    if ((call == CALL_COUNTING || cuckoo) && parameters[PARAMETER_N].tag == FUZZ_NULL) {
        check_needs_n(db, parameters, keys);
        fuzz_db_close(db);
        return 0;
    }
    uint8_t *filter = query_build(db, "SELECT bloom_build(k%s) FROM keys", call, parameters,
                                  &filter_size, cuckoo ? &full : NULL);
    if (full) {
        check_added_one_by_one(db, call, parameters, NULL, 0);
        fuzz_db_close(db);
        return 0;
    }
    if (filter == NULL) {
        if (keys != 0) {
            fuzz_fail("bloom_build over %d rows gives NULL", keys);
        }
        fuzz_db_close(db);
        return 0;
    }
    check_keys_probe_one(db, filter, filter_size, 0);
    if (call > 0 && parameters[PARAMETER_N].tag != FUZZ_NULL) {
        int scalable = call == CALL_SCALABLE, union_full = scalable ? OR_INCOMPATIBLE : 0;
        uint8_t *united =
            query_build(db,
                        "SELECT bloom_union(f) FROM (SELECT bloom_build(k%s) AS f "
                        "FROM keys GROUP BY rowid %% ?4)",
                        call, parameters, &union_size, cuckoo || scalable ? &union_full : NULL);
        if (scalable) {
            /* The groups' stages hold other keys than the filter's (rule 22 (scalable)): the
            ** union, when its stages can hold them, holds every key. */
            if (union_full != 1) {
                check_keys_probe_one(db, united, union_size, 0);
            }
        } else if (!cuckoo) {
            check_same_filter(filter, filter_size, united, union_size, "the union of the groups");
        } else if (!union_full) {
            check_same_answers(db, filter, filter_size, united, union_size);
        }
        free(united);
        check_added_one_by_one(db, call, parameters, filter, filter_size);
    }
    if (parameters[PARAMETER_N].tag == FUZZ_NULL || call == CALL_KEY_ONLY) {
        check_sized_at_the_end(db, call, parameters, filter, filter_size);
    }
    if (call == CALL_COUNTING || cuckoo) {
        check_removed_one_by_one(db, filter, filter_size, keys, call == CALL_COUNTING);
    }
    check_corruptions(db, &in, filter, filter_size);
    free(filter);
    fuzz_db_close(db);
    return 0;
}
