/*
** fuzz_live.c: libFuzzer target for the bloom virtual table (rule 26 (live table)): a
** sequence of operations on a live table, on two connections to one database, checked
** against a model of plain filter BLOBs changed by the SQL functions.
**
** Input (see fuzz_input.h for values, fuzz_live.h for the constants):
**   1 byte   configuration: bits 0-1 the page size (512, 1024, 4096, 65536: a chunk of 448 to
**            65,472 bytes, so that filters span one to many chunks); bits 2-3, modulo 3, the
**            text encoding; bits 4-5 SQLITE_LIMIT_LENGTH (SQLite's, 1 MB, 20000, 5000: a
**            scalable filter meets it as it grows); bit 6, 32 bytes reserved a page; bit 7,
**            lazy: the table is checked against the model by LIVE_SNAPSHOT and at the end
**            only, not after every operation
**   4 bytes  the parameters of the first CREATE VIRTUAL TABLE t USING bloom(...): a byte, its
**            kind (its low four bits modulo live_kind_choices(): a kind a live table takes, of
**            the table of kinds, or none; with flags: an argument of the other family, the kind
**            as a bare word, p before n), 2 bytes n (1 + the value modulo 2500), a byte p (the
**            index of p_texts modulo 8; for a sketch: epsilon, delta and update, 2 bits each)
**   then up to MAX_OPS operations, each an opcode byte and its operands (fuzz_live.h):
**            adds (one key, with a count, two rows in one statement, a range of integers by
**            INSERT ... SELECT), a filter made by name (bit 7: by 'allocate'), removes by name and
*key and by key in
**            every filter, a filter dropped (or all), a BLOB loaded (a fuzz value, a model
**            filter, one with a byte changed or cut, one built by bloom_build) under a
**            conflict clause, probes, snapshots, BEGIN, COMMIT, ROLLBACK, SAVEPOINT,
**            ROLLBACK TO, RELEASE, DROP TABLE, CREATE, ALTER TABLE RENAME, PRAGMA
**            integrity_check (bit 7: after INSERT INTO t(t) VALUES ('optimize'), the index
**            made, which changes no filter), and a scan by key (SELECT live_change(name, ...)
**            FROM t WHERE key = ?) whose function removes the key from each filter found, or
**            drops it, by a statement of its own. Bit 7 of an opcode runs an add, a remove, a
**            probe or a snapshot on the second connection (a write only while the first has no
**            transaction).
** A key operand takes a key of a pool of 8 (1, 2, 'k', x'6b', 1.0, -0.0, a 70-byte TEXT,
** NULL), or a fuzz value that replaces one; names are NULL, 'a', 'b', 7, '7', 2.5, '' and
** x'61' (refused); counts NULL, 0, 1, 3, -1, 1.5, 2^63 - 1 and 2^62.
**
** The database is a memdb (file:/fuzz_live?vfs=memdb) that both connections share, with
** journal_mode = MEMORY. The model is, for each connection's view (the first's, and what is
** committed, which the second sees), whether t exists and by which name, its template (the
** BLOB of bloom_empty or cms_empty for its arguments, on a third connection) and its filters
** in the order of their ids, each a name and a BLOB: a new filter is the template, a key is
** added by bloom_add (cms_add of the count), removed by bloom_remove, a loaded BLOB is the
** BLOB with its header as filter_copy writes it. Savepoints keep copies of the model; every
** statement is atomic: what a failing one did is undone.
**
** What makes it fail (fuzz_fail): a result code other than SQLITE_ERROR, SQLITE_CONSTRAINT,
** SQLITE_FULL and SQLITE_TOOBIG (SQLITE_BUSY and SQLITE_LOCKED for the second connection's
** reads); a statement that fails where the model's functions do not, or the other way round
** (a cuckoo filter or a sketch with no room, a scalable filter that cannot grow or would
** pass the length limit, a kind that cannot remove, a BLOB that filter_open refuses, a name
** in use, a missing template, a count on a filter or not a whole number from 0, a BLOB name);
** an error "no room" on one side only; the transaction open or not other than the model says
** (a failing statement ending it); after an operation, SELECT name, filter FROM t listing
** other names or other bytes than the model, in another order; a probe (SELECT name, key,
** count FROM t WHERE key = ?, key IS ?, by name and key, by a correlated EXISTS) answering
** other than bloom_might_contain (cms_count) of the model's filters, key not the key asked
** for, count not a sketch's estimate (NULL for a filter), key = ? COLLATE NOCASE no error; a
** statement of live_change failing where the model's does not, or the other way round; the
** second connection seeing other than what is committed; PRAGMA integrity_check not ok, or a
** chunk on an overflow page.
**
** FUZZ_LIVE_TRACE set prints each statement on the table as SQL, with its values and errors.
*/
#include "filter_kinds.h"
#include "../test_kinds.h"
#include "fuzz_db.h"
#include "fuzz_live.h"
#include "sqlite_bloom.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_OPS = 64,
    MAX_FILTERS = LIVE_NAMES, /* one a name */
    MAX_SAVEPOINTS = 16,
    MESSAGE_BYTES = 512,
    SQL_BYTES = 1024,
    RANGE_KEYS = 64
};

/* The database both connections open. */
static const char database_uri[] = "file:/fuzz_live?vfs=memdb";

static const int page_sizes[4] = {512, 1024, 4096, 65536};
static const int length_limits[4] = {0 /* SQLite's */, 1 << 20, 20000, 5000};

/* The operands, as SQL literals. */
static const char *const initial_keys[LIVE_KEY_POOL] = {
    "1",
    "2",
    "'k'",
    "x'6b'",
    "1.0",
    "-0.0",
    "'a key of seventy bytes, longer than a line of the cache: 0123456789'",
    "NULL"};
static const char *const name_literals[LIVE_NAMES] = {"NULL", "'a'", "'b'", "7",
                                                      "'7'",  "2.5", "''",  "x'61'"};
static const char *const count_literals[LIVE_COUNTS] = {
    "NULL", "0", "1", "3", "-1", "1.5", "9223372036854775807", "4611686018427387904"};

/* The parameters' texts. */
static const char *const p_texts[8] = {"0.5",   "0.2",   "0.1", "0.01",
                                       "0.001", "1e-05", "1.5", "'0.01'"};
static const char *const epsilon_texts[4] = {"0.5", "0.1", "0.03", "0.01"};
static const char *const delta_texts[4] = {"0.5", "0.1", "0.01", "0.001"};
static const char *const update_texts[4] = {NULL, "'plain'", "'conservative'", "'max'"};
static const char *const savepoint_names[LIVE_SAVEPOINT_NAMES] = {"s0", "s1", "s2"};

/* A filter of the model: its name (named 0: the unnamed filter) and its BLOB; for a kind that
** counts by steps, the count it was made with and the steps of the adds and removes since, from
** which the live table's count is made (docs/format.md, 7). */
typedef struct model_filter {
    int named;
    char *name;
    uint8_t *bytes;
    size_t size;
    uint64_t base;
    int64_t steps;
} model_filter;

/* What a connection sees of the table. */
typedef struct model {
    int exists;
    int renamed;             /* called t2 rather than t */
    uint8_t *template_bytes; /* NULL: made without arguments */
    size_t template_size;
    size_t count;
    model_filter filters[MAX_FILTERS];
} model;

/* A savepoint: its name, the model when it began, whether it began the transaction. */
typedef struct savepoint {
    int name;
    int began;
    model state;
} savepoint;

/* The statements of the third connection, which runs the model's functions. */
enum {
    OR_ADD,
    OR_CMS_ADD,
    OR_REMOVE,
    OR_MIGHT,
    OR_CMS_COUNT,
    OR_IS,
    OR_VALUE,
    OR_TEXT,
    OR_STATEMENTS
};
static const char *const oracle_sql[OR_STATEMENTS] = {"SELECT bloom_add(?1, ?2)",
                                                      "SELECT cms_add(?1, ?2, ?3)",
                                                      "SELECT bloom_remove(?1, ?2)",
                                                      "SELECT bloom_might_contain(?1, ?2)",
                                                      "SELECT cms_count(?1, ?2)",
                                                      "SELECT ?1 IS ?2",
                                                      "SELECT ?1",
                                                      "SELECT ?1 || ''"};

/* What the model says a statement does: fail or not, with "no room" or not. */
typedef struct expectation {
    int error;
    int no_room;
    const char *why; /* for a failure's message */
} expectation;

/* What one input runs on: its connections, the model of each connection's view, the operands. */
typedef struct harness {
    fuzz_input in;
    sqlite3 *db, *db2, *oracle;
    sqlite3_stmt *oracle_stmt[OR_STATEMENTS];
    int lazy;
    int trace;       /* FUZZ_LIVE_TRACE set: the statements on the table printed */
    model now;       /* the first connection's */
    model committed; /* the second's */
    int began;       /* BEGIN (not a SAVEPOINT) opened the transaction */
    savepoint savepoints[MAX_SAVEPOINTS];
    int savepoint_count;
    sqlite3_value *keys[LIVE_KEY_POOL];
    /* Keys a fuzz value replaced in the pool during the operation, which may still use them
    ** (two rows, two probes): freed when the next operation starts. */
    sqlite3_value *replaced[2 * LIVE_KEY_POOL];
    int replaced_count;
    sqlite3_value *names[LIVE_NAMES];
    sqlite3_value *counts[LIVE_COUNTS];
    char message[MESSAGE_BYTES]; /* the last statement's error */
    int nested[MAX_FILTERS];     /* the result codes of live_change's statements */
    int nested_count;
} harness;

/* ---- The model ---- */

/* Frees what f holds and empties it. */
static void filter_clear(model_filter *f) {
    free(f->name);
    free(f->bytes);
    memset(f, 0, sizeof *f);
}

/* A copy of size bytes from malloc (size 0: a valid pointer all the same). */
static void *copy_bytes(const void *bytes, size_t size) {
    void *copy = malloc(size > 0 ? size : 1);
    if (copy == NULL) {
        fuzz_fail("out of memory for %zu bytes", size);
    }
    if (size > 0) {
        memcpy(copy, bytes, size);
    }
    return copy;
}

/* Frees what m holds and empties it. */
static void model_clear(model *m) {
    for (size_t i = 0; i < m->count; i++) {
        filter_clear(&m->filters[i]);
    }
    free(m->template_bytes);
    memset(m, 0, sizeof *m);
}

/* Makes dst (emptied first) a deep copy of src. */
static void model_copy(model *dst, const model *src) {
    model_clear(dst);
    dst->exists = src->exists;
    dst->renamed = src->renamed;
    dst->count = src->count;
    if (src->template_bytes != NULL) {
        dst->template_bytes = copy_bytes(src->template_bytes, src->template_size);
        dst->template_size = src->template_size;
    }
    for (size_t i = 0; i < src->count; i++) {
        const model_filter *f = &src->filters[i];
        dst->filters[i].named = f->named;
        dst->filters[i].name = f->named ? copy_bytes(f->name, strlen(f->name) + 1) : NULL;
        dst->filters[i].bytes = copy_bytes(f->bytes, f->size);
        dst->filters[i].size = f->size;
        dst->filters[i].base = f->base;
        dst->filters[i].steps = f->steps;
    }
}

/* The table's name in m. */
static const char *table_of(const model *m) {
    return m->renamed ? "t2" : "t";
}

/* Whether a name value is one a filter can have: NULL or not a BLOB. */
static int name_valid(sqlite3_value *name) {
    return sqlite3_value_type(name) != SQLITE_BLOB;
}

/* The filter of m called name (a valid name value), or NULL. */
static model_filter *model_find(model *m, sqlite3_value *name) {
    const char *text =
        sqlite3_value_type(name) == SQLITE_NULL ? NULL : (const char *)sqlite3_value_text(name);
    for (size_t i = 0; i < m->count; i++) {
        model_filter *f = &m->filters[i];
        if (text == NULL ? !f->named : f->named && strcmp(f->name, text) == 0) {
            return f;
        }
    }
    return NULL;
}

/* The view of the model's filter f (a BLOB filter_open accepts). */
static filter_view view_of(const model_filter *f) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(f->bytes, f->size, &view, why) != FILTER_OK) {
        fuzz_fail("the model holds a filter filter_open refuses: %s", why);
    }
    return view;
}

/* The 8-byte little-endian count at offset of bytes. */
static uint64_t count_at(const uint8_t *bytes, size_t offset) {
    uint64_t count = 0;
    for (int i = 7; i >= 0; i--) {
        count = count << 8 | bytes[offset + (size_t)i];
    }
    return count;
}

/* Appends to m a filter called name of size bytes (a copy); returns it. */
static model_filter *model_append(model *m, sqlite3_value *name, const uint8_t *bytes,
                                  size_t size) {
    if (m->count == MAX_FILTERS) {
        fuzz_fail("more than %d filters in the model", MAX_FILTERS);
    }
    model_filter *f = &m->filters[m->count++];
    f->named = sqlite3_value_type(name) != SQLITE_NULL;
    if (f->named) {
        const char *text = (const char *)sqlite3_value_text(name);
        f->name = copy_bytes(text, strlen(text) + 1);
    }
    f->bytes = copy_bytes(bytes, size);
    f->size = size;
    const filter_kind *kind = view_of(f).kind;
    f->base = kind->count_by_steps ? count_at(bytes, kind->count_offset) : 0;
    return f;
}

/* Drops the filter f of m, keeping the others' order. */
static void model_remove(model *m, model_filter *f) {
    size_t at = (size_t)(f - m->filters);
    filter_clear(f);
    memmove(&m->filters[at], &m->filters[at + 1], (m->count - at - 1) * sizeof *f);
    m->count--;
    memset(&m->filters[m->count], 0, sizeof *f);
}

/* The kind of the model's filter f (a BLOB filter_open accepts). */
static const filter_kind *kind_of(const model_filter *f) {
    return view_of(f).kind;
}

/* The count a live table's snapshot of the model's filter f has: for a kind that counts by
** steps, its base plus its steps, stopped at 0 and at the kind's most; else its BLOB's. */
static uint64_t live_count_of(const model_filter *f) {
    filter_view view = view_of(f);
    if (!view.kind->count_by_steps) {
        return count_at(f->bytes, view.kind->count_offset);
    }
    uint64_t most = view.kind->count_limit != NULL ? view.kind->count_limit(&view) : UINT64_MAX;
    uint64_t below = f->steps < 0 ? (uint64_t)(-(f->steps + 1)) + 1 : 0;
    uint64_t total =
        f->steps >= 0     ? (f->base > UINT64_MAX - (uint64_t)f->steps ? UINT64_MAX
                                                                       : f->base + (uint64_t)f->steps)
        : f->base > below ? f->base - below
                          : 0;
    return total < most ? total : most;
}

/* ---- The third connection: the model's functions ---- */

/* Binds value (NULL: SQL NULL) to parameter index of stmt; aborts on failure. */
static void bind(sqlite3_stmt *stmt, int index, sqlite3_value *value) {
    int rc =
        value != NULL ? sqlite3_bind_value(stmt, index, value) : sqlite3_bind_null(stmt, index);
    if (rc != SQLITE_OK) {
        fuzz_fail("binding parameter %d: %s", index, sqlite3_errstr(rc));
    }
}

/* Steps the oracle's statement which once: returns the code, copying a failure's message. */
static int oracle_step(harness *h, int which) {
    sqlite3_stmt *stmt = h->oracle_stmt[which];
    int rc = sqlite3_step(stmt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        snprintf(h->message, sizeof h->message, "%s", sqlite3_errmsg(h->oracle));
        if (rc != SQLITE_ERROR && rc != SQLITE_TOOBIG) {
            fuzz_fail("%s: result code %d: %s", oracle_sql[which], rc, h->message);
        }
    }
    return rc;
}

/* Resets the oracle's statement which and clears its bindings. */
static void oracle_reset(harness *h, int which) {
    sqlite3_reset(h->oracle_stmt[which]);
    sqlite3_clear_bindings(h->oracle_stmt[which]);
}

/* The value column 0 of "SELECT ?1" gives for a fuzz value (NULL when it does not fit the
** length limit), to free with sqlite3_value_free. */
static sqlite3_value *value_of(harness *h, const fuzz_value *v) {
    fuzz_db_bind(h->oracle_stmt[OR_VALUE], 1, v);
    if (oracle_step(h, OR_VALUE) != SQLITE_ROW) {
        fuzz_fail("SELECT ?1: %s", h->message);
    }
    sqlite3_value *copy = sqlite3_value_dup(sqlite3_column_value(h->oracle_stmt[OR_VALUE], 0));
    oracle_reset(h, OR_VALUE);
    if (copy == NULL) {
        fuzz_fail("out of memory for a value");
    }
    return copy;
}

/* The value of a BLOB of size bytes. */
static sqlite3_value *blob_value(harness *h, const uint8_t *bytes, size_t size) {
    fuzz_value v = {FUZZ_BLOB, 0, 0.0, bytes, size};
    return value_of(h, &v);
}

/* The value of the SQL expression literal (its first row's first column; NULL if none), on db. */
static sqlite3_value *evaluate(sqlite3 *db, const char *sql, int *rc_out) {
    sqlite3_stmt *stmt = NULL;
    sqlite3_value *v = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        v = sqlite3_value_dup(sqlite3_column_value(stmt, 0));
        if (v == NULL) {
            fuzz_fail("out of memory for a value");
        }
    }
    sqlite3_finalize(stmt);
    if (rc_out != NULL) {
        *rc_out = rc;
    } else if (rc != SQLITE_ROW) {
        fuzz_fail("%s: %s", sql, sqlite3_errmsg(db));
    }
    return v;
}

/* Whether an error message is a "no room" one: its text after the function's or table's name
** (a value it quotes may say anything). */
static int says_no_room(const char *message) {
    const char *colon = strchr(message, ':');
    return colon != NULL && strncmp(colon, ": no room for ", 14) == 0;
}

/* Runs the oracle's change which (OR_ADD, OR_CMS_ADD, OR_REMOVE) on f with key (and count):
** 0 with f's BLOB replaced by the result, or 1 after an error (*no_room when it says so). */
static int oracle_change(harness *h, int which, model_filter *f, sqlite3_value *key,
                         sqlite3_value *count, int *no_room) {
    sqlite3_stmt *stmt = h->oracle_stmt[which];
    fuzz_db_bind_blob(stmt, 1, f->bytes, f->size);
    bind(stmt, 2, key);
    if (which == OR_CMS_ADD) {
        bind(stmt, 3, count);
    }
    int rc = oracle_step(h, which);
    if (rc == SQLITE_ROW) {
        f->steps += which == OR_REMOVE ? -1 : 1; /* (read only for a kind that counts by steps) */
        if (sqlite3_column_type(stmt, 0) != SQLITE_BLOB) {
            fuzz_fail("%s gives no BLOB", oracle_sql[which]);
        }
        size_t size = (size_t)sqlite3_column_bytes(stmt, 0);
        if (size == f->size) { /* most changes keep the length: no allocation */
            memcpy(f->bytes, sqlite3_column_blob(stmt, 0), size);
        } else {
            uint8_t *bytes = copy_bytes(sqlite3_column_blob(stmt, 0), size);
            free(f->bytes);
            f->bytes = bytes;
            f->size = size;
        }
    } else {
        *no_room = says_no_room(h->message);
    }
    oracle_reset(h, which);
    return rc != SQLITE_ROW;
}

/* What the model's filter f answers for key (not NULL): bloom_might_contain, or for a sketch
** its estimate (cms_count) into *estimate. A key of an SQL type no value of a Parquet filter has
** is an error there, and absent from the table (rule 27 (Parquet filters)): 0. */
static int oracle_probe(harness *h, const model_filter *f, sqlite3_value *key, int64_t *estimate) {
    int which = filter_kind_can(kind_of(f), FILTER_COUNTS) ? OR_CMS_COUNT : OR_MIGHT;
    sqlite3_stmt *stmt = h->oracle_stmt[which];
    fuzz_db_bind_blob(stmt, 1, f->bytes, f->size);
    bind(stmt, 2, key);
    int step = oracle_step(h, which);
    if (step != SQLITE_ROW && which == OR_MIGHT &&
        strstr(h->message, " is a value of the filter's type, ") != NULL) {
        oracle_reset(h, which);
        *estimate = 0;
        return 0;
    }
    if (step != SQLITE_ROW || sqlite3_column_type(stmt, 0) != SQLITE_INTEGER) {
        fuzz_fail("%s on a model filter: %s", oracle_sql[which], h->message);
    }
    int64_t answer = sqlite3_column_int64(stmt, 0);
    oracle_reset(h, which);
    *estimate = answer;
    return answer > 0;
}

/* Whether a IS b, as SQL says. */
static int oracle_is(harness *h, sqlite3_value *a, sqlite3_value *b) {
    bind(h->oracle_stmt[OR_IS], 1, a);
    bind(h->oracle_stmt[OR_IS], 2, b);
    if (oracle_step(h, OR_IS) != SQLITE_ROW) {
        fuzz_fail("SELECT ?1 IS ?2: %s", h->message);
    }
    int is = sqlite3_column_int(h->oracle_stmt[OR_IS], 0);
    oracle_reset(h, OR_IS);
    return is;
}

/* Whether the key column v of a probe is the key asked for: SQL says v IS key, but for TEXT,
** which the table keeps as UTF-8 and SQLite gives back in the database's encoding: then v is the
** key's UTF-8 text as SQLite converts it to that encoding (U+FFFF becomes U+FFFD in UTF-16). */
static int key_column_is(harness *h, sqlite3_value *v, sqlite3_value *key) {
    if (sqlite3_value_type(key) != SQLITE_TEXT) {
        return oracle_is(h, v, key);
    }
    sqlite3_value *copy = sqlite3_value_dup(key), *column = sqlite3_value_dup(v); /* unchanged */
    sqlite3_stmt *stmt = h->oracle_stmt[OR_TEXT];
    if (copy == NULL || column == NULL || sqlite3_value_type(column) != SQLITE_TEXT) {
        sqlite3_value_free(copy);
        sqlite3_value_free(column);
        return 0;
    }
    const unsigned char *utf8 = sqlite3_value_text(copy);
    if (sqlite3_bind_text64(stmt, 1, (const char *)utf8, (sqlite3_uint64)sqlite3_value_bytes(copy),
                            SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK ||
        oracle_step(h, OR_TEXT) != SQLITE_ROW) {
        fuzz_fail("SELECT ?1 || '': %s", h->message);
    }
    const unsigned char *expected = sqlite3_column_text(stmt, 0), *got = sqlite3_value_text(column);
    int length = sqlite3_column_bytes(stmt, 0);
    int same = got != NULL && expected != NULL && sqlite3_value_bytes(column) == length &&
               memcmp(got, expected, (size_t)length) == 0;
    oracle_reset(h, OR_TEXT);
    sqlite3_value_free(copy);
    sqlite3_value_free(column);
    return same;
}

/* ---- The table ---- */

/* A row of a statement on the table, handed to a row_fn with its argument. */
typedef void (*row_fn)(harness *h, sqlite3_stmt *stmt, void *arg);

/* Writes sql with each '@' replaced by table into out (SQL_BYTES). */
static void sql_for(char *out, const char *sql, const char *table) {
    size_t used = 0;
    for (const char *c = sql; *c != '\0'; c++) {
        const char *piece = *c == '@' ? table : c;
        size_t length = *c == '@' ? strlen(table) : 1;
        if (used + length >= SQL_BYTES) {
            fuzz_fail("a statement longer than %d bytes", SQL_BYTES);
        }
        memcpy(out + used, piece, length);
        used += length;
    }
    out[used] = '\0';
}

/* Whether rc is a code that a statement on the table may end with: an error the table or
** SQLite raises (a missing table), or on the second connection (second) the lock of the first. */
static int allowed_code(int rc, int second) {
    switch (rc & 0xFF) {
    case SQLITE_DONE:
    case SQLITE_ERROR:
    case SQLITE_CONSTRAINT:
    case SQLITE_FULL:
    case SQLITE_TOOBIG:
        return 1;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return second;
    default:
        return 0;
    }
}

/* Prints a statement run on the table, its values and its outcome to stderr (FUZZ_LIVE_TRACE
** set), as SQL a shell could run. */
static void trace_statement(int second, const char *sql, sqlite3_value *const *values, int count,
                            int rc, const char *message) {
    fprintf(stderr, "%s%s;", second ? "-- second connection:\n" : "", sql);
    for (int i = 0; i < count; i++) {
        sqlite3_value *v = values[i];
        int type = v != NULL ? sqlite3_value_type(v) : SQLITE_NULL;
        fprintf(stderr, "%s?%d = ", i == 0 ? "  -- " : ", ", i + 1);
        if (type == SQLITE_BLOB) {
            const uint8_t *bytes = sqlite3_value_blob(v);
            int length = sqlite3_value_bytes(v);
            fprintf(stderr, "x'");
            for (int j = 0; bytes != NULL && j < length && j < 96; j++) {
                fprintf(stderr, "%02x", bytes[j]);
            }
            fprintf(stderr, "%s' (%d bytes)", length > 96 ? "..." : "", length);
        } else if (type == SQLITE_TEXT) { /* (of a copy: the value keeps its encoding) */
            sqlite3_value *copy = sqlite3_value_dup(v);
            fprintf(stderr, "'%s'", copy != NULL ? (const char *)sqlite3_value_text(copy) : "");
            sqlite3_value_free(copy);
        } else if (type == SQLITE_FLOAT) {
            fprintf(stderr, "%.17g", sqlite3_value_double(v));
        } else {
            fprintf(stderr, "%s",
                    type == SQLITE_NULL ? "NULL" : (const char *)sqlite3_value_text(v));
        }
    }
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "\n-- error %d: %s", rc, message);
    }
    fprintf(stderr, "\n");
}

/* Runs sql (its '@' the table's name in m) on the first connection or the second, with values
** bound to ?1..., calling row for every row: returns SQLITE_DONE or the error (a failed
** prepare's too), its message in h->message. */
static int run(harness *h, int second, const model *m, const char *sql,
               sqlite3_value *const *values, int count, row_fn row, void *arg) {
    sqlite3 *db = second ? h->db2 : h->db;
    char text[SQL_BYTES];
    sqlite3_stmt *stmt = NULL;
    sql_for(text, sql, table_of(m));
    h->message[0] = '\0';
    int rc = sqlite3_prepare_v2(db, text, -1, &stmt, NULL);
    if (rc == SQLITE_OK) {
        for (int i = 0; i < count; i++) {
            bind(stmt, i + 1, values[i]);
        }
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            if (row != NULL) {
                row(h, stmt, arg);
            }
        }
        sqlite3_finalize(stmt);
    }
    if (rc != SQLITE_DONE) {
        snprintf(h->message, sizeof h->message, "%s", sqlite3_errmsg(db));
    }
    if (h->trace) {
        trace_statement(second, text, values, count, rc, h->message);
    }
    if (!allowed_code(rc, second)) {
        fuzz_fail("%s: result code %d (%s): %s", text, rc, sqlite3_errstr(rc), h->message);
    }
    return rc;
}

/* Whether the first connection has a transaction open, in the model. */
static int in_transaction(const harness *h) {
    return h->began || h->savepoint_count > 0;
}

/* Whether the second connection may write now: while the first has no transaction (its lock). */
static int second_may_write(const harness *h) {
    return !in_transaction(h);
}

/* Whether a read on the second connection that ended with rc met the first's lock: any error
** while the first has a transaction open (a schema that cannot be read for the lock is "no
** such table"). */
static int locked_out(const harness *h, int second, int rc) {
    return second && rc != SQLITE_DONE && in_transaction(h);
}

/* Aborts unless SQLite's transaction of the first connection is the model's, after what. */
static void check_transaction(harness *h, const char *what) {
    int open = !sqlite3_get_autocommit(h->db);
    if (open != in_transaction(h)) {
        fuzz_fail("after %s (%s), the transaction is %s; the model's is %s", what, h->message,
                  open ? "open" : "closed", open ? "closed" : "open");
    }
}

/* The state of a snapshot check: the model and the next filter. */
typedef struct snapshot_check {
    const model *m;
    size_t next;
    const char *who;
} snapshot_check;

/* A row of SELECT name, filter FROM t: the model's next filter, name and bytes. */
static void snapshot_row(harness *h, sqlite3_stmt *stmt, void *arg) {
    snapshot_check *c = arg;
    (void)h;
    if (c->next >= c->m->count) {
        fuzz_fail("%s: the table has more than the model's %zu filters", c->who, c->m->count);
    }
    const model_filter *f = &c->m->filters[c->next];
    const char *name = (const char *)sqlite3_column_text(stmt, 0);
    if ((name != NULL) != f->named || (name != NULL && strcmp(name, f->name) != 0)) {
        fuzz_fail("%s: filter %zu is called %s, the model's %s", c->who, c->next,
                  name != NULL ? name : "NULL", f->named ? f->name : "NULL");
    }
    if (sqlite3_column_type(stmt, 1) != SQLITE_BLOB) {
        fuzz_fail("%s: filter %zu (%s) is no BLOB", c->who, c->next, f->named ? f->name : "NULL");
    }
    size_t size = (size_t)sqlite3_column_bytes(stmt, 1);
    const uint8_t *bytes = sqlite3_column_blob(stmt, 1);
    size_t count_offset = kind_of(f)->count_offset; /* 0: no count */
    uint64_t count = count_offset != 0 ? live_count_of(f) : 0;
    if (size == f->size && count_offset != 0 && count_at(bytes, count_offset) != count) {
        fuzz_fail("%s: filter %zu (%s) counts %llu, the model %llu", c->who, c->next,
                  f->named ? f->name : "NULL", (unsigned long long)count_at(bytes, count_offset),
                  (unsigned long long)count);
    }
    size_t after = count_offset != 0 ? count_offset + 8 : 0; /* the bytes past the count */
    if (size != f->size || memcmp(bytes, f->bytes, count_offset) != 0 ||
        memcmp(bytes + after, f->bytes + after, size - after) != 0) {
        size_t at = 0;
        while (at < size && at < f->size && bytes[at] == f->bytes[at]) {
            at++;
        }
        fuzz_fail("%s: filter %zu (%s) has %zu bytes, the model's %zu, first differing at %zu",
                  c->who, c->next, f->named ? f->name : "NULL", size, f->size, at);
    }
    c->next++;
}

/* Aborts unless SELECT name, filter FROM t on the first connection (or the second) gives the
** model m's filters, in order (no table when m has none). */
static void check_snapshot(harness *h, int second, const model *m) {
    snapshot_check c = {m, 0, second ? "second connection" : "first connection"};
    int rc = run(h, second, m, "SELECT name, filter FROM @", NULL, 0, snapshot_row, &c);
    if (locked_out(h, second, rc)) {
        return;
    }
    if ((rc == SQLITE_DONE) != m->exists) {
        fuzz_fail("%s: SELECT name, filter FROM %s: %s; the model's table %s", c.who, table_of(m),
                  rc == SQLITE_DONE ? "no error" : h->message, m->exists ? "exists" : "does not");
    }
    if (c.next != m->count) {
        fuzz_fail("%s: the table has %zu filters, the model %zu", c.who, c.next, m->count);
    }
}

/* The state of a probe's check: the model, its key, the row expected next. */
typedef struct probe_check {
    const model *m;
    sqlite3_value *key;
    size_t next;
    const char *who;
    int64_t count; /* count(*) */
} probe_check;

/* The index of the first filter of c's model at or after from that answers 1 for c's key (its
** estimate into *estimate), or the model's count. */
static size_t next_answering(harness *h, const probe_check *c, size_t from, int64_t *estimate) {
    while (from < c->m->count && !oracle_probe(h, &c->m->filters[from], c->key, estimate)) {
        from++;
    }
    return from;
}

/* A row of SELECT name, key, count FROM t WHERE key = ?: the next filter that answers 1. */
static void probe_row(harness *h, sqlite3_stmt *stmt, void *arg) {
    probe_check *c = arg;
    int64_t estimate = 0;
    size_t at = next_answering(h, c, c->next, &estimate);
    const char *name = (const char *)sqlite3_column_text(stmt, 0);
    if (at == c->m->count) {
        fuzz_fail("%s: a probe finds filter %s, which the model's do not hold", c->who,
                  name != NULL ? name : "NULL");
    }
    const model_filter *f = &c->m->filters[at];
    if ((name != NULL) != f->named || (name != NULL && strcmp(name, f->name) != 0)) {
        fuzz_fail("%s: a probe finds filter %s, the model's next one is %s", c->who,
                  name != NULL ? name : "NULL", f->named ? f->name : "NULL");
    }
    if (!key_column_is(h, sqlite3_column_value(stmt, 1), c->key)) {
        fuzz_fail("%s: a probe's key column is %s, not the key asked for", c->who,
                  (const char *)sqlite3_column_text(stmt, 1));
    }
    int sketch = filter_kind_can(kind_of(f), FILTER_COUNTS);
    int type = sqlite3_column_type(stmt, 2);
    if (sketch ? type != SQLITE_INTEGER || sqlite3_column_int64(stmt, 2) != estimate
               : type != SQLITE_NULL) {
        fuzz_fail("%s: filter %s's count column is %s, the model's %lld", c->who,
                  f->named ? f->name : "NULL", (const char *)sqlite3_column_text(stmt, 2),
                  sketch ? (long long)estimate : -1LL);
    }
    c->next = at + 1;
}

/* A row of a SELECT count(*). */
static void count_row(harness *h, sqlite3_stmt *stmt, void *arg) {
    (void)h;
    ((probe_check *)arg)->count = sqlite3_column_int64(stmt, 0);
}

/* Aborts unless the table (on the first connection, or the second) answers for key as the
** model m's filters: the filters that might hold it, the one called name, and a correlated
** EXISTS for key and other. */
static void check_probe(harness *h, int second, const model *m, sqlite3_value *name,
                        sqlite3_value *key, sqlite3_value *other) {
    const char *who = second ? "second connection" : "first connection";
    probe_check c = {m, key, 0, who, 0};
    int64_t estimate;
    sqlite3_value *values[2] = {key, NULL};
    int rc = run(h, second, m, "SELECT name, key, count FROM @ WHERE key = ?1", values, 1,
                 probe_row, &c);
    if (locked_out(h, second, rc)) {
        return;
    }
    if ((rc == SQLITE_DONE) != m->exists) {
        fuzz_fail("%s: a probe: %s; the model's table %s", who,
                  rc == SQLITE_DONE ? "no error" : h->message, m->exists ? "exists" : "does not");
    }
    if (!m->exists) {
        return;
    }
    if (sqlite3_value_type(key) != SQLITE_NULL &&
        next_answering(h, &c, c.next, &estimate) != m->count) {
        fuzz_fail("%s: a probe misses a filter that the model's answers 1 for", who);
    }
    /* key IS ?, which holds as key = ? does; a collation, which is an error. */
    int64_t answering = 0;
    for (size_t i = 0; sqlite3_value_type(key) != SQLITE_NULL && i < m->count; i++) {
        answering += oracle_probe(h, &m->filters[i], key, &estimate);
    }
    c.count = -1;
    rc = run(h, second, m, "SELECT count(*) FROM @ WHERE key IS ?1", values, 1, count_row, &c);
    if (!locked_out(h, second, rc) && (rc != SQLITE_DONE || c.count != answering)) {
        fuzz_fail("%s: key IS ? finds %lld filters (%s), the model %lld", who, (long long)c.count,
                  h->message, (long long)answering);
    }
    rc = run(h, second, m, "SELECT count(*) FROM @ WHERE key = ?1 COLLATE NOCASE", values, 1, NULL,
             NULL);
    if (!locked_out(h, second, rc) && rc == SQLITE_DONE) {
        fuzz_fail("%s: key = ? COLLATE NOCASE is no error", who);
    }
    /* By name and key. */
    model_filter *f = name_valid(name) ? model_find((model *)m, name) : NULL;
    int64_t expected =
        f != NULL && sqlite3_value_type(key) != SQLITE_NULL && oracle_probe(h, f, key, &estimate);
    values[0] = name;
    values[1] = key;
    c.count = -1;
    rc = run(h, second, m, "SELECT count(*) FROM @ WHERE name IS ?1 AND key = ?2", values, 2,
             count_row, &c);
    if (!locked_out(h, second, rc) && (rc != SQLITE_DONE || c.count != expected)) {
        fuzz_fail("%s: a probe by name and key answers %lld (%s), the model %lld", who,
                  (long long)c.count, h->message, (long long)expected);
    }
    /* A correlated EXISTS, a cursor a row. */
    expected = 0;
    values[0] = key;
    values[1] = other;
    for (int i = 0; i < 2; i++) {
        if (sqlite3_value_type(values[i]) != SQLITE_NULL) {
            probe_check any = {m, values[i], 0, who, 0};
            expected += next_answering(h, &any, 0, &estimate) < m->count;
        }
    }
    c.count = -1;
    rc = run(h, second, m,
             "SELECT count(*) FROM (SELECT ?1 AS k UNION ALL SELECT ?2) AS q "
             "WHERE EXISTS (SELECT 1 FROM @ WHERE key = q.k)",
             values, 2, count_row, &c);
    if (!locked_out(h, second, rc) && (rc != SQLITE_DONE || c.count != expected)) {
        fuzz_fail("%s: a correlated probe counts %lld (%s), the model %lld", who,
                  (long long)c.count, h->message, (long long)expected);
    }
}

/* ---- Statements against the model ---- */

/* Drops the savepoints from index from on. */
static void savepoints_drop(harness *h, int from) {
    while (h->savepoint_count > from) {
        model_clear(&h->savepoints[--h->savepoint_count].state);
    }
}

/* The index of the innermost savepoint called name, or -1. */
static int savepoint_find(const harness *h, int name) {
    for (int i = h->savepoint_count - 1; i >= 0; i--) {
        if (h->savepoints[i].name == name) {
            return i;
        }
    }
    return -1;
}

/* The transaction ends: committed (the model's view becomes what is committed) or rolled back. */
static void transaction_end(harness *h, int commit) {
    savepoints_drop(h, 0);
    h->began = 0;
    if (commit) {
        model_copy(&h->committed, &h->now);
    } else {
        model_copy(&h->now, &h->committed);
    }
}

/* Checks a statement's code rc against what the model expected (e), on the first connection
** or the second, then makes next the model of that connection's view if it succeeded (else
** frees it): what was committed too when no transaction is open. */
static void settle(harness *h, int second, int rc, const expectation *e, model *next,
                   const char *what) {
    int failed = rc != SQLITE_DONE;
    if (failed != e->error) {
        fuzz_fail("%s %s: %s; the model %s", what, failed ? "fails" : "succeeds",
                  failed ? h->message : "no error", e->error ? e->why : "succeeds");
    }
    if (failed && e->no_room != says_no_room(h->message)) {
        fuzz_fail("%s fails with %s; the model %s no room", what, h->message,
                  e->no_room ? "has" : "does not say it has");
    }
    if (!failed) {
        model swap = h->now;
        h->now = *next;
        *next = swap;
    }
    model_clear(next);
    if (!second) {
        check_transaction(h, what);
    }
    if (!in_transaction(h)) {
        model_copy(&h->committed, &h->now);
    }
}

/* Sets e to an expected error for why; returns 1. */
static int expect_error(expectation *e, const char *why) {
    e->error = 1;
    e->why = why;
    return 1;
}

/* The filter of next called name for an INSERT: made from the template if there is none;
** NULL after setting the expected error (no table, a BLOB name, no template). */
static model_filter *filter_for(model *next, sqlite3_value *name, expectation *e) {
    if (!next->exists) {
        expect_error(e, "has no table");
        return NULL;
    }
    if (!name_valid(name)) {
        expect_error(e, "refuses a BLOB name");
        return NULL;
    }
    model_filter *f = model_find(next, name);
    if (f == NULL && next->template_bytes == NULL) {
        expect_error(e, "has no template to make a filter from");
        return NULL;
    }
    return f != NULL ? f : model_append(next, name, next->template_bytes, next->template_size);
}

/* Adds key (count times, count NULL: once) to the filter of next called name, as one row of an
** INSERT does: 0, or 1 after setting the expected error. */
static int model_insert(harness *h, model *next, sqlite3_value *name, sqlite3_value *key,
                        sqlite3_value *count, expectation *e) {
    model_filter *f = filter_for(next, name, e);
    if (f == NULL) {
        return 1;
    }
    int sketch = filter_kind_can(kind_of(f), FILTER_COUNTS);
    int count_type = count != NULL ? sqlite3_value_type(count) : SQLITE_NULL;
    if (count_type != SQLITE_NULL && !sketch) {
        return expect_error(e, "refuses a count for a filter");
    }
    if (count_type != SQLITE_NULL &&
        (count_type != SQLITE_INTEGER || sqlite3_value_int64(count) < 0)) {
        return expect_error(e, "refuses a count that is not a whole number from 0");
    }
    if (sqlite3_value_type(key) == SQLITE_NULL) {
        return 0; /* a NULL key adds nothing */
    }
    sqlite3_value *one = count_type == SQLITE_NULL ? h->counts[2] : count;
    if (oracle_change(h, sketch ? OR_CMS_ADD : OR_ADD, f, key, one, &e->no_room)) {
        return expect_error(e, "fails to add the key");
    }
    return 0;
}

/* Removes key from the filter f of next as a row of DELETE found by key does (f answers 1 for
** it): 0, or 1 after setting the expected error (a kind that cannot remove). */
static int model_remove_key(harness *h, model_filter *f, sqlite3_value *key, expectation *e) {
    int no_room = 0;
    if (!filter_kind_can(kind_of(f), FILTER_REMOVES)) {
        return expect_error(e, "cannot remove the key");
    }
    /* An error (FILTER_ABSENT: a false positive found it) leaves the filter as it was. */
    (void)oracle_change(h, OR_REMOVE, f, key, NULL, &no_room);
    return 0;
}

/* ---- Operands ---- */

/* Frees the keys the last operation replaced in the pool. */
static void free_replaced_keys(harness *h) {
    while (h->replaced_count > 0) {
        sqlite3_value_free(h->replaced[--h->replaced_count]);
    }
}

/* A key operand: an entry of the pool, or a fuzz value that replaces one (kept until the next
** operation, which the operation may still use). */
static sqlite3_value *take_key(harness *h) {
    uint8_t b = fuzz_take_u8(&h->in);
    int i = b % LIVE_KEY_POOL;
    if (b >= LIVE_NEW_KEY) {
        fuzz_value v = fuzz_take_value(&h->in);
        if (h->replaced_count == (int)(sizeof h->replaced / sizeof h->replaced[0])) {
            fuzz_fail("more keys replaced in one operation than kept");
        }
        h->replaced[h->replaced_count++] = h->keys[i];
        h->keys[i] = value_of(h, &v);
    }
    return h->keys[i];
}

/* A name operand. */
static sqlite3_value *take_name(harness *h) {
    return h->names[fuzz_take_u8(&h->in) % LIVE_NAMES];
}

/* A table's parameters: CREATE's arguments and what the model makes of them. */
typedef struct parameters {
    char arguments[256]; /* between the parentheses; "" for none */
    char empty_sql[256]; /* the template's SELECT; "" for none */
    char build_sql[512]; /* bloom_build (cms_build) over ?1 integers; "" for none */
    int misplaced;       /* an argument CREATE refuses */
} parameters;

/* Takes a table's parameters (4 bytes, the header comment says how). */
static parameters take_parameters(harness *h) {
    static const char series[] =
        "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?1) ";
    parameters p;
    uint8_t choice = fuzz_take_u8(&h->in);
    unsigned n = 1 + fuzz_take_u16(&h->in) % 2500;
    uint8_t rate = fuzz_take_u8(&h->in);
    if (live_kind_choices() > LIVE_CHOICE_MASK + 1) {
        fuzz_fail("%u choices of kind, more than the %d bits of the choice", live_kind_choices(),
                  LIVE_CHOICE_MASK + 1);
    }
    unsigned which = (choice & LIVE_CHOICE_MASK) % live_kind_choices();
    int reordered = (choice & LIVE_REORDERED) != 0;
    const filter_kind *kind = live_kind_at(which);
    memset(&p, 0, sizeof p);
    p.misplaced = (choice & LIVE_MISPLACED) != 0 && which != live_no_arguments();
    if (which == live_no_arguments()) {
        return p;
    }
    if (kind != NULL && test_kind_of(kind)->builder == BUILT_BY_CMS_BUILD) {
        const char *epsilon = epsilon_texts[rate % 4], *delta = delta_texts[(rate / 4) % 4];
        const char *update = update_texts[(rate / 16) % 4];
        snprintf(p.arguments, sizeof p.arguments, "kind = %s%s%s, %s = %s, %s = %s%s%s%s",
                 choice & LIVE_BARE_KIND ? "" : "'", kind->name, choice & LIVE_BARE_KIND ? "" : "'",
                 reordered ? "delta" : "epsilon", reordered ? delta : epsilon,
                 reordered ? "epsilon" : "delta", reordered ? epsilon : delta,
                 update != NULL ? ", update = " : "", update != NULL ? update : "",
                 p.misplaced ? ", n = 5" : "");
        snprintf(p.empty_sql, sizeof p.empty_sql, "SELECT cms_empty(%s, %s, %s)", epsilon, delta,
                 update != NULL ? update : "'plain'");
        snprintf(p.build_sql, sizeof p.build_sql, "%sSELECT cms_build(i, 1, %s, %s, %s) FROM s",
                 series, epsilon, delta, update != NULL ? update : "'plain'");
        return p;
    }
    const char *name = kind == NULL ? filter_kind_at(0)->name : kind->name;
    const char *rate_text = p_texts[rate % 8];
    char kind_argument[64] = "";
    if (kind != NULL) {
        snprintf(kind_argument, sizeof kind_argument,
                 choice & LIVE_BARE_KIND ? "kind = %s, " : "kind = '%s', ", name);
    }
    if (reordered) {
        snprintf(p.arguments, sizeof p.arguments, "p = %s, %sn = %u%s", rate_text, kind_argument, n,
                 p.misplaced ? ", epsilon = 0.1" : "");
    } else {
        snprintf(p.arguments, sizeof p.arguments, "%sn = %u, p = %s%s", kind_argument, n, rate_text,
                 p.misplaced ? ", epsilon = 0.1" : "");
    }
    snprintf(p.empty_sql, sizeof p.empty_sql, "SELECT bloom_empty(%u, %s, '%s')", n, rate_text,
             name);
    snprintf(p.build_sql, sizeof p.build_sql, "%sSELECT bloom_build(i, %u, %s, '%s') FROM s",
             series, n, rate_text, name);
    return p;
}

/* ---- Operations ---- */

/* INSERT INTO t(name, key [, count]) of one row, or two rows (name2, key2) in one statement. */
static void op_add(harness *h, int second, int with_count, int two) {
    sqlite3_value *values[4];
    values[0] = take_name(h);
    values[1] = take_key(h);
    values[2] = with_count ? h->counts[fuzz_take_u8(&h->in) % LIVE_COUNTS] : NULL;
    if (two) {
        values[2] = take_name(h);
        values[3] = take_key(h);
    }
    if (second && !second_may_write(h)) {
        return; /* the first connection's lock */
    }
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, second ? &h->committed : &h->now);
    if (!model_insert(h, &next, values[0], values[1], with_count ? values[2] : NULL, &e) && two) {
        (void)model_insert(h, &next, values[2], values[3], NULL, &e);
    }
    const char *sql = two          ? "INSERT INTO @(name, key) VALUES (?1, ?2), (?3, ?4)"
                      : with_count ? "INSERT INTO @(name, key, count) VALUES (?1, ?2, ?3)"
                                   : "INSERT INTO @(name, key) VALUES (?1, ?2)";
    int rc = run(h, second, &next, sql, values, two ? 4 : with_count ? 3 : 2, NULL, NULL);
    settle(h, second, rc, &e, &next, sql);
}

/* INSERT INTO t(name, key) SELECT of count integers from base + 1, in order. */
static void op_add_range(harness *h, int second) {
    sqlite3_value *name = take_name(h);
    int64_t base = (fuzz_take_u8(&h->in) % 4) * 100;
    uint8_t b = fuzz_take_u8(&h->in);
    int count = (1 + b % RANGE_KEYS) * (b >= 192 ? 32 : 1);
    if (second && !second_may_write(h)) {
        return;
    }
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, second ? &h->committed : &h->now);
    for (int i = 1; i <= count; i++) {
        fuzz_value v = {FUZZ_INTEGER, base + i, 0.0, NULL, 0};
        sqlite3_value *key = value_of(h, &v);
        int failed = model_insert(h, &next, name, key, NULL, &e);
        sqlite3_value_free(key);
        if (failed) {
            break;
        }
    }
    fuzz_value first = {FUZZ_INTEGER, base, 0.0, NULL, 0};
    fuzz_value last = {FUZZ_INTEGER, count, 0.0, NULL, 0};
    sqlite3_value *values[3] = {name, value_of(h, &first), value_of(h, &last)};
    const char *sql = "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < "
                      "?3) INSERT INTO @(name, key) SELECT ?1, ?2 + i FROM s";
    int rc = run(h, second, &next, sql, values, 3, NULL, NULL);
    sqlite3_value_free(values[1]);
    sqlite3_value_free(values[2]);
    settle(h, second, rc, &e, &next, "INSERT INTO t(name, key) SELECT");
}

/* INSERT INTO t(name), or with allocate INSERT INTO t(t, name) VALUES ('allocate', ?): the
** filter made if there is none, its bytes as they were (allocate: every chunk given a row). */
static void op_ensure(harness *h, int allocate) {
    sqlite3_value *name = take_name(h);
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, &h->now);
    (void)filter_for(&next, name, &e);
    int rc = run(h, 0, &next,
                 allocate ? "INSERT INTO @(@, name) VALUES ('allocate', ?1)"
                          : "INSERT INTO @(name) VALUES (?1)",
                 &name, 1, NULL, NULL);
    settle(h, 0, rc, &e, &next,
           allocate ? "INSERT INTO t(t, name) VALUES ('allocate', ?)" : "INSERT INTO t(name)");
}

/* DELETE FROM t WHERE name IS ? AND key = ?: the key removed from that filter. */
static void op_remove(harness *h) {
    sqlite3_value *values[2] = {take_name(h), take_key(h)};
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, &h->now);
    int64_t estimate;
    if (!next.exists) {
        expect_error(&e, "has no table");
    } else if (name_valid(values[0]) && sqlite3_value_type(values[1]) != SQLITE_NULL) {
        model_filter *f = model_find(&next, values[0]);
        if (f != NULL && oracle_probe(h, f, values[1], &estimate)) {
            (void)model_remove_key(h, f, values[1], &e);
        }
    }
    const char *sql = "DELETE FROM @ WHERE name IS ?1 AND key = ?2";
    int rc = run(h, 0, &next, sql, values, 2, NULL, NULL);
    settle(h, 0, rc, &e, &next, sql);
}

/* DELETE FROM t WHERE key = ?: the key removed from every filter that might hold it. */
static void op_remove_everywhere(harness *h, int second) {
    sqlite3_value *key = take_key(h);
    if (second && !second_may_write(h)) {
        return;
    }
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, second ? &h->committed : &h->now);
    int64_t estimate;
    if (!next.exists) {
        expect_error(&e, "has no table");
    } else if (sqlite3_value_type(key) != SQLITE_NULL) {
        for (size_t i = 0; i < next.count; i++) {
            if (oracle_probe(h, &next.filters[i], key, &estimate) &&
                model_remove_key(h, &next.filters[i], key, &e)) {
                break;
            }
        }
    }
    const char *sql = "DELETE FROM @ WHERE key = ?1";
    int rc = run(h, second, &next, sql, &key, 1, NULL, NULL);
    settle(h, second, rc, &e, &next, sql);
}

/* DELETE FROM t WHERE name IS ? (the filter dropped), or with bit 7 DELETE FROM t. */
static void op_drop_filter(harness *h) {
    uint8_t b = fuzz_take_u8(&h->in);
    sqlite3_value *name = h->names[b % LIVE_NAMES];
    int all = (b & 0x80) != 0;
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, &h->now);
    if (!next.exists) {
        expect_error(&e, "has no table");
    } else if (all) {
        while (next.count > 0) {
            model_remove(&next, &next.filters[0]);
        }
    } else if (name_valid(name)) {
        model_filter *f = model_find(&next, name);
        if (f != NULL) {
            model_remove(&next, f);
        }
    }
    const char *sql = all ? "DELETE FROM @" : "DELETE FROM @ WHERE name IS ?1";
    int rc = run(h, 0, &next, sql, &name, all ? 0 : 1, NULL, NULL);
    settle(h, 0, rc, &e, &next, sql);
}

/* The model filter of index b (modulo their count), or NULL when there is none. */
static const model_filter *model_filter_at(const harness *h, uint8_t b) {
    return h->now.count > 0 ? &h->now.filters[b % h->now.count] : NULL;
}

/* The BLOB LIVE_LOAD loads, from the source the input names: a value to free. */
static sqlite3_value *take_source(harness *h) {
    uint8_t source = fuzz_take_u8(&h->in) % LIVE_SOURCES;
    if (source == LIVE_SOURCE_VALUE) {
        fuzz_value v = fuzz_take_value(&h->in);
        return value_of(h, &v);
    }
    if (source == LIVE_SOURCE_BUILT) {
        parameters p = take_parameters(h);
        fuzz_value keys = {FUZZ_INTEGER, 1 + fuzz_take_u8(&h->in) % RANGE_KEYS, 0.0, NULL, 0};
        sqlite3_value *built = NULL, *count = value_of(h, &keys);
        sqlite3_stmt *stmt = NULL;
        if (p.build_sql[0] != '\0' &&
            sqlite3_prepare_v2(h->oracle, p.build_sql, -1, &stmt, NULL) == SQLITE_OK) {
            bind(stmt, 1, count);
            if (sqlite3_step(stmt) == SQLITE_ROW) {
                built = sqlite3_value_dup(sqlite3_column_value(stmt, 0));
            }
        }
        sqlite3_finalize(stmt);
        sqlite3_value_free(count);
        return built != NULL ? built : value_of(h, &(fuzz_value){FUZZ_NULL, 0, 0.0, NULL, 0});
    }
    const model_filter *f = model_filter_at(h, fuzz_take_u8(&h->in));
    uint16_t at = source != LIVE_SOURCE_COPY ? fuzz_take_u16(&h->in) : 0;
    uint8_t mask = source == LIVE_SOURCE_FLIPPED ? fuzz_take_u8(&h->in) : 0;
    if (f == NULL) {
        return value_of(h, &(fuzz_value){FUZZ_NULL, 0, 0.0, NULL, 0});
    }
    size_t size = f->size;
    uint8_t *bytes = malloc(size + 1); /* room for a byte more */
    if (bytes == NULL) {
        fuzz_fail("out of memory for %zu bytes", size + 1);
    }
    memcpy(bytes, f->bytes, size);
    bytes[size] = 0;
    if (source == LIVE_SOURCE_FLIPPED) {
        bytes[at % size] ^= mask != 0 ? mask : 1;
    } else if (source == LIVE_SOURCE_CUT) {
        size = at == 0xFFFF ? size + 1 : at % (size + 1);
    }
    sqlite3_value *v = blob_value(h, bytes, size);
    free(bytes);
    return v;
}

/* INSERT [OR IGNORE | OR REPLACE] INTO t(name, filter): a BLOB loaded as a new filter. */
static void op_load(harness *h) {
    static const char *const sql[LIVE_CONFLICTS] = {
        "INSERT INTO @(name, filter) VALUES (?1, ?2)",
        "INSERT OR IGNORE INTO @(name, filter) VALUES (?1, ?2)",
        "INSERT OR REPLACE INTO @(name, filter) VALUES (?1, ?2)",
    };
    int conflict = fuzz_take_u8(&h->in) % LIVE_CONFLICTS;
    sqlite3_value *values[2] = {take_name(h), take_source(h)};
    sqlite3_value *blob = values[1];
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, &h->now);
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (sqlite3_value_type(blob) == SQLITE_NULL) {
        (void)filter_for(&next, values[0], &e); /* neither key nor filter */
    } else if (!next.exists) {
        expect_error(&e, "has no table");
    } else if (!name_valid(values[0])) {
        expect_error(&e, "refuses a BLOB name");
    } else if (sqlite3_value_type(blob) != SQLITE_BLOB) {
        expect_error(&e, "refuses a filter that is not a BLOB");
    } else if (sqlite3_value_bytes(blob) == 0 ||
               filter_open(sqlite3_value_blob(blob), (uint64_t)sqlite3_value_bytes(blob), &view,
                           why) != FILTER_OK) {
        expect_error(&e, "refuses a BLOB filter_open refuses");
    } else if (!filter_kind_can(view.kind, FILTER_PROBES_IN_PLACE)) {
        expect_error(&e, "refuses a kind that cannot be probed in place");
    } else {
        model_filter *existing = model_find(&next, values[0]);
        if (existing != NULL && conflict == LIVE_ABORT) {
            expect_error(&e, "refuses a name in use");
        } else if (existing == NULL || conflict == LIVE_REPLACE) {
            if (existing != NULL) {
                model_remove(&next, existing);
            }
            /* The header as this code writes the kind, as filter_copy and the table do. */
            model_filter *f = model_append(&next, values[0], sqlite3_value_blob(blob),
                                           (size_t)sqlite3_value_bytes(blob));
            view.kind->write_header(f->bytes, &view);
        }
    }
    int rc = run(h, 0, &next, sql[conflict], values, 2, NULL, NULL);
    settle(h, 0, rc, &e, &next, sql[conflict]);
    sqlite3_value_free(blob);
}

/* Probes the table, on the first connection or the second. */
static void op_probe(harness *h, int second) {
    sqlite3_value *name = take_name(h), *key = take_key(h);
    int other = fuzz_take_u8(&h->in) % LIVE_KEY_POOL;
    check_probe(h, second, second ? &h->committed : &h->now, name, key, h->keys[other]);
}

/* Runs a transaction statement sql on the first connection: returns whether it succeeded,
** aborting if it did so other than expected. */
static int run_transaction(harness *h, const char *sql, int expected) {
    int rc = run(h, 0, &h->now, sql, NULL, 0, NULL, NULL);
    if ((rc == SQLITE_DONE) != expected) {
        fuzz_fail("%s %s: %s", sql, rc == SQLITE_DONE ? "succeeds" : "fails",
                  rc == SQLITE_DONE ? "the model expected an error" : h->message);
    }
    return rc == SQLITE_DONE;
}

/* BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK TO, RELEASE. */
static void op_transaction(harness *h, int op) {
    char sql[64];
    switch (op) {
    case LIVE_BEGIN:
        if (run_transaction(h, "BEGIN", !in_transaction(h))) {
            h->began = 1;
        }
        break;
    case LIVE_COMMIT:
    case LIVE_ROLLBACK:
        if (run_transaction(h, op == LIVE_COMMIT ? "COMMIT" : "ROLLBACK", in_transaction(h))) {
            transaction_end(h, op == LIVE_COMMIT);
        }
        break;
    default: {
        int name = fuzz_take_u8(&h->in) % LIVE_SAVEPOINT_NAMES, at = savepoint_find(h, name);
        const char *verb = op == LIVE_SAVEPOINT ? "SAVEPOINT"
                           : op == LIVE_RELEASE ? "RELEASE"
                                                : "ROLLBACK TO";
        snprintf(sql, sizeof sql, "%s %s", verb, savepoint_names[name]);
        if (op == LIVE_SAVEPOINT) {
            if (h->savepoint_count == MAX_SAVEPOINTS) {
                return;
            }
            int began = !in_transaction(h);
            (void)run_transaction(h, sql, 1);
            savepoint *s = &h->savepoints[h->savepoint_count++];
            s->name = name;
            s->began = began;
            memset(&s->state, 0, sizeof s->state);
            model_copy(&s->state, &h->now);
        } else if (run_transaction(h, sql, at >= 0)) {
            if (op == LIVE_RELEASE) {
                int began = h->savepoints[at].began;
                savepoints_drop(h, at);
                if (began) {
                    transaction_end(h, 1);
                }
            } else {
                savepoints_drop(h, at + 1);
                model_copy(&h->now, &h->savepoints[at].state);
            }
        }
    }
    }
    check_transaction(h, sql);
}

/* DROP TABLE t. */
static void op_drop_table(harness *h) {
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, &h->now);
    if (!next.exists) {
        expect_error(&e, "has no table");
    }
    int renamed = next.renamed;
    model_clear(&next);
    next.renamed = renamed;
    int rc = run(h, 0, &h->now, "DROP TABLE @", NULL, 0, NULL, NULL);
    settle(h, 0, rc, &e, &next, "DROP TABLE");
}

/* CREATE VIRTUAL TABLE t USING bloom(...) with the parameters p. */
static void op_create(harness *h, const parameters *p) {
    expectation e = {0, 0, NULL};
    model next = {0};
    char sql[SQL_BYTES];
    model_copy(&next, &h->now);
    if (next.exists) {
        expect_error(&e, "has the table already");
    } else if (p->misplaced) {
        expect_error(&e, "refuses an argument of the other family");
    } else {
        int renamed = next.renamed, rc;
        model_clear(&next);
        next.renamed = renamed;
        next.exists = 1;
        if (p->empty_sql[0] != '\0') {
            sqlite3_value *empty = evaluate(h->oracle, p->empty_sql, &rc);
            if (empty == NULL || sqlite3_value_type(empty) != SQLITE_BLOB) {
                expect_error(&e, "cannot make the empty filter");
            } else {
                next.template_bytes =
                    copy_bytes(sqlite3_value_blob(empty), (size_t)sqlite3_value_bytes(empty));
                next.template_size = (size_t)sqlite3_value_bytes(empty);
            }
            sqlite3_value_free(empty);
        }
    }
    snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE @ USING bloom%s%s%s",
             p->arguments[0] != '\0' ? "(" : "", p->arguments, p->arguments[0] != '\0' ? ")" : "");
    int rc = run(h, 0, &next, sql, NULL, 0, NULL, NULL);
    settle(h, 0, rc, &e, &next, "CREATE VIRTUAL TABLE");
}

/* ALTER TABLE t RENAME TO t2, or back. */
static void op_rename(harness *h) {
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, &h->now);
    if (!next.exists) {
        expect_error(&e, "has no table");
    }
    next.renamed = !next.renamed;
    const char *sql = h->now.renamed ? "ALTER TABLE @ RENAME TO t" : "ALTER TABLE @ RENAME TO t2";
    int rc = run(h, 0, &h->now, sql, NULL, 0, NULL, NULL);
    settle(h, 0, rc, &e, &next, "ALTER TABLE RENAME");
}

/* A row of PRAGMA integrity_check: "ok". */
static void integrity_row(harness *h, sqlite3_stmt *stmt, void *arg) {
    (void)h;
    (void)arg;
    const char *text = (const char *)sqlite3_column_text(stmt, 0);
    if (text == NULL || strcmp(text, "ok") != 0) {
        fuzz_fail("PRAGMA integrity_check: %s", text != NULL ? text : "NULL");
    }
}

/* A row of the count of chunks' overflow pages: 0. */
static void overflow_row(harness *h, sqlite3_stmt *stmt, void *arg) {
    (void)h;
    (void)arg;
    if (sqlite3_column_int64(stmt, 0) != 0) {
        fuzz_fail("%lld overflow pages of chunks: a chunk's row does not fit its page",
                  (long long)sqlite3_column_int64(stmt, 0));
    }
}

/* INSERT INTO t(t) VALUES ('optimize'): the index made, the filters as they were. */
static void op_optimize(harness *h) {
    expectation e = {0, 0, NULL};
    model next = {0};
    model_copy(&next, &h->now);
    if (!next.exists) {
        expect_error(&e, "has no table");
    }
    int rc = run(h, 0, &h->now, "INSERT INTO @(@) VALUES ('optimize')", NULL, 0, NULL, NULL);
    settle(h, 0, rc, &e, &next, "INSERT INTO t(t) VALUES ('optimize')");
}

/* PRAGMA integrity_check is ok, and no chunk's row spills to an overflow page. */
static void op_integrity(harness *h) {
    if (run(h, 0, &h->now, "PRAGMA integrity_check", NULL, 0, integrity_row, NULL) != SQLITE_DONE ||
        run(h, 0, &h->now,
            "SELECT count(*) FROM dbstat WHERE name GLOB '*_chunks' AND pagetype = 'overflow'",
            NULL, 0, overflow_row, NULL) != SQLITE_DONE) {
        fuzz_fail("checking the database: %s", h->message);
    }
}

/* live_change(name, key), a function of the first connection: in a statement of its own, runs
** DELETE FROM t WHERE name IS name AND key = key (key NULL: WHERE name IS name), and notes its
** result code in h->nested. */
static void change_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    harness *h = sqlite3_user_data(ctx);
    (void)argc;
    int drop = sqlite3_value_type(argv[1]) == SQLITE_NULL;
    const char *sql =
        drop ? "DELETE FROM @ WHERE name IS ?1" : "DELETE FROM @ WHERE name IS ?1 AND key = ?2";
    int rc = run(h, 0, &h->now, sql, argv, drop ? 1 : 2, NULL, NULL);
    if (h->nested_count == MAX_FILTERS) {
        fuzz_fail("live_change called more often than there are filters");
    }
    h->nested[h->nested_count++] = rc;
    sqlite3_result_null(ctx);
}

/* SELECT live_change(name, ...) FROM t WHERE key = ?: the key removed (bit 0), or the filter
** dropped, by a statement of its own for each filter of the scan, as the scan goes on. */
static void op_scan_change(harness *h) {
    int remove = fuzz_take_u8(&h->in) & 1;
    sqlite3_value *values[2] = {take_key(h), NULL};
    values[1] = remove ? values[0] : NULL;
    expectation e = {0, 0, NULL};
    int expected[MAX_FILTERS], count = 0;
    model next = {0};
    model_copy(&next, &h->now);
    int64_t estimate;
    if (!next.exists) {
        expect_error(&e, "has no table");
    } else if (sqlite3_value_type(values[0]) != SQLITE_NULL) {
        for (size_t i = 0; i < next.count; i++) {
            if (!oracle_probe(h, &next.filters[i], values[0], &estimate)) {
                continue;
            }
            expectation nested = {0, 0, NULL};
            if (!remove) {
                model_remove(&next, &next.filters[i--]);
            } else {
                (void)model_remove_key(h, &next.filters[i], values[0], &nested);
            }
            expected[count++] = nested.error;
        }
    }
    const char *sql = "SELECT live_change(name, ?2) FROM @ WHERE key = ?1";
    h->nested_count = 0;
    int rc = run(h, 0, &next, sql, values, 2, NULL, NULL);
    if (rc == SQLITE_DONE && h->nested_count != count) {
        fuzz_fail("%s: %d filters changed, the model %d", sql, h->nested_count, count);
    }
    for (int i = 0; rc == SQLITE_DONE && i < count; i++) {
        if ((h->nested[i] != SQLITE_DONE) != expected[i]) {
            fuzz_fail("%s: change %d %s; the model's %s", sql, i,
                      h->nested[i] != SQLITE_DONE ? "fails" : "succeeds",
                      expected[i] ? "fails" : "succeeds");
        }
    }
    settle(h, 0, rc, &e, &next, sql);
}

/* Runs one operation from the input. */
static void run_op(harness *h) {
    free_replaced_keys(h);
    uint8_t b = fuzz_take_u8(&h->in);
    int op = (b & 0x7F) % LIVE_OPS, second = (b & LIVE_SECOND) != 0;
    switch (op) {
    case LIVE_ADD:
    case LIVE_ADD_COUNT:
    case LIVE_ADD_TWO:
        op_add(h, second && op == LIVE_ADD, op == LIVE_ADD_COUNT, op == LIVE_ADD_TWO);
        break;
    case LIVE_ADD_RANGE:
        op_add_range(h, second);
        break;
    case LIVE_ENSURE:
        op_ensure(h, second);
        break;
    case LIVE_REMOVE:
        op_remove(h);
        break;
    case LIVE_REMOVE_EVERYWHERE:
        op_remove_everywhere(h, second);
        break;
    case LIVE_DROP_FILTER:
        op_drop_filter(h);
        break;
    case LIVE_LOAD:
        op_load(h);
        break;
    case LIVE_PROBE:
        op_probe(h, second);
        break;
    case LIVE_SNAPSHOT:
        check_snapshot(h, second, second ? &h->committed : &h->now);
        break;
    case LIVE_DROP_TABLE:
        op_drop_table(h);
        break;
    case LIVE_CREATE: {
        parameters p = take_parameters(h);
        op_create(h, &p);
        break;
    }
    case LIVE_RENAME:
        op_rename(h);
        break;
    case LIVE_INTEGRITY:
        if (second) {
            op_optimize(h);
        }
        op_integrity(h);
        break;
    case LIVE_SCAN_CHANGE:
        op_scan_change(h);
        break;
    default:
        op_transaction(h, op);
        break;
    }
    if (!h->lazy) {
        check_snapshot(h, 0, &h->now);
    }
}

/* ---- Connections ---- */

/* Opens a connection to uri with journal_mode = MEMORY, the length limit (0: SQLite's) and the
** extension registered. */
static sqlite3 *open_connection(const char *uri, int limit) {
    sqlite3 *db = NULL;
    char *error = NULL;
    int rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
                             NULL);
    if (rc != SQLITE_OK) {
        fuzz_fail("sqlite3_open_v2(%s): %s", uri, db != NULL ? sqlite3_errmsg(db) : "no memory");
    }
    fuzz_db_exec(db, "PRAGMA journal_mode = MEMORY; PRAGMA temp_store = MEMORY");
    if (limit > 0) {
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, limit);
    }
    rc = sqlite3_bloom_init(db, &error, NULL);
    if (rc != SQLITE_OK) {
        fuzz_fail("sqlite3_bloom_init: %s", error != NULL ? error : sqlite3_errstr(rc));
    }
    return db;
}

/* Opens the three connections as the configuration byte says, and the model's statements. */
static void harness_open(harness *h, uint8_t config) {
    static const char *const encodings[FUZZ_ENCODINGS] = {"PRAGMA encoding = 'UTF-8'",
                                                          "PRAGMA encoding = 'UTF-16le'",
                                                          "PRAGMA encoding = 'UTF-16be'"};
    char pragma[64];
    int limit = length_limits[(config >> LIVE_LIMIT_SHIFT) % 4];
    const char *encoding = encodings[((config >> LIVE_ENCODING_SHIFT) % 4) % FUZZ_ENCODINGS];
    h->lazy = (config & LIVE_LAZY) != 0;
    h->trace = getenv("FUZZ_LIVE_TRACE") != NULL;
    h->db = open_connection(database_uri, limit);
    sqlite3_value *tables = evaluate(h->db, "SELECT count(*) FROM sqlite_schema", NULL);
    if (sqlite3_value_int(tables) != 0) {
        fuzz_fail("the database of the last input is still there");
    }
    sqlite3_value_free(tables);
    fuzz_db_exec(h->db, encoding);
    snprintf(pragma, sizeof pragma, "PRAGMA page_size = %d", page_sizes[config % 4]);
    fuzz_db_exec(h->db, pragma);
    if (config & LIVE_RESERVE) {
        int reserve = 32;
        (void)sqlite3_file_control(h->db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
    }
    if (sqlite3_create_function(h->db, "live_change", 2, SQLITE_UTF8, h, change_func, NULL, NULL) !=
        SQLITE_OK) {
        fuzz_fail("registering live_change: %s", sqlite3_errmsg(h->db));
    }
    h->db2 = open_connection(database_uri, limit);
    h->oracle = open_connection(":memory:", limit);
    fuzz_db_exec(h->oracle, encoding);
    for (int i = 0; i < OR_STATEMENTS; i++) {
        h->oracle_stmt[i] = fuzz_db_prepare(h->oracle, oracle_sql[i]);
    }
    for (int i = 0; i < LIVE_KEY_POOL; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT %s", initial_keys[i]);
        h->keys[i] = evaluate(h->oracle, sql, NULL);
    }
    for (int i = 0; i < LIVE_NAMES; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "SELECT %s", name_literals[i]);
        h->names[i] = evaluate(h->oracle, sql, NULL);
    }
    for (int i = 0; i < LIVE_COUNTS; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "SELECT %s", count_literals[i]);
        h->counts[i] = evaluate(h->oracle, sql, NULL);
    }
}

/* Closes the connections and frees the model. */
static void harness_close(harness *h) {
    for (int i = 0; i < OR_STATEMENTS; i++) {
        fuzz_db_finalize(h->oracle_stmt[i]);
    }
    for (int i = 0; i < LIVE_KEY_POOL; i++) {
        sqlite3_value_free(h->keys[i]);
    }
    free_replaced_keys(h);
    for (int i = 0; i < LIVE_NAMES; i++) {
        sqlite3_value_free(h->names[i]);
    }
    for (int i = 0; i < LIVE_COUNTS; i++) {
        sqlite3_value_free(h->counts[i]);
    }
    fuzz_db_close(h->db2);
    fuzz_db_close(h->db);
    fuzz_db_close(h->oracle);
    savepoints_drop(h, 0);
    model_clear(&h->now);
    model_clear(&h->committed);
}

/* The checks at the end: every filter and key on the first connection, then after a rollback of
** what is not committed, on both; the database's integrity. */
static void finish(harness *h) {
    check_snapshot(h, 0, &h->now);
    for (int i = 0; i < LIVE_KEY_POOL; i++) {
        check_probe(h, 0, &h->now, h->names[i], h->keys[i], h->keys[(i + 1) % LIVE_KEY_POOL]);
    }
    if (in_transaction(h)) {
        op_transaction(h, LIVE_ROLLBACK);
    }
    check_snapshot(h, 0, &h->now);
    check_snapshot(h, 1, &h->committed);
    for (int i = 0; i < LIVE_KEY_POOL; i += 3) {
        check_probe(h, 1, &h->committed, h->names[i], h->keys[i], h->keys[i + 1]);
    }
    op_integrity(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static harness h;
    memset(&h, 0, sizeof h);
    h.in.data = data;
    h.in.size = size;
    harness_open(&h, fuzz_take_u8(&h.in));
    parameters p = take_parameters(&h);
    op_create(&h, &p);
    for (int i = 0; i < MAX_OPS && h.in.size > 0; i++) {
        run_op(&h);
    }
    finish(&h);
    harness_close(&h);
    return 0;
}
