/*
** fuzz_db.c: the database side of the SQL fuzz targets (see fuzz_db.h).
*/
#include "fuzz_db.h"

#include "sqlite_bloom.h" /* the entry point (ext/extension.c), compiled here with -DSQLITE_CORE */

sqlite3 *fuzz_db_open(unsigned encoding, const char *schema) {
    static const char *const pragmas[FUZZ_ENCODINGS] = {
        "PRAGMA encoding = 'UTF-8'",
        "PRAGMA encoding = 'UTF-16le'",
        "PRAGMA encoding = 'UTF-16be'",
    };
    sqlite3 *db = NULL;
    char *error = NULL;
    int rc = sqlite3_open(":memory:", &db);
    if (rc != SQLITE_OK) {
        fuzz_fail("sqlite3_open: %s", sqlite3_errstr(rc));
    }
    fuzz_db_exec(db, pragmas[encoding % FUZZ_ENCODINGS]);
    fuzz_db_exec(db, schema);
    rc = sqlite3_bloom_init(db, &error, NULL);
    if (rc != SQLITE_OK) {
        fuzz_fail("sqlite3_bloom_init: %s", error ? error : sqlite3_errstr(rc));
    }
    return db;
}

void fuzz_db_close(sqlite3 *db) {
    int rc = sqlite3_close(db);
    if (rc != SQLITE_OK) {
        fuzz_fail("sqlite3_close: %s", sqlite3_errstr(rc));
    }
}

sqlite3_stmt *fuzz_db_prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        fuzz_fail("cannot prepare %s: %s", sql, sqlite3_errmsg(db));
    }
    return stmt;
}

void fuzz_db_finalize(sqlite3_stmt *stmt) {
    int rc = sqlite3_finalize(stmt);
    if (rc != SQLITE_OK) {
        fuzz_fail("sqlite3_finalize: %s", sqlite3_errstr(rc));
    }
}

void fuzz_db_exec(sqlite3 *db, const char *sql) {
    char *error = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) {
        fuzz_fail("%s: %s", sql, error ? error : "(no message)");
    }
}

/* Binds v as its tag says; returns the code of sqlite3_bind_*. */
static int bind_value(sqlite3_stmt *stmt, int index, const fuzz_value *v) {
    switch (v->tag) {
    case FUZZ_INTEGER:
        return sqlite3_bind_int64(stmt, index, v->integer);
    case FUZZ_REAL:
    case FUZZ_INTEGRAL_REAL:
    case FUZZ_SPECIAL_REAL:
        return sqlite3_bind_double(stmt, index, v->real);
    case FUZZ_TEXT:
        return sqlite3_bind_text64(stmt, index, (const char *)v->bytes, v->length, SQLITE_TRANSIENT,
                                   SQLITE_UTF8);
    case FUZZ_TEXT16:
        return sqlite3_bind_text64(stmt, index, (const char *)v->bytes, v->length & ~(size_t)1,
                                   SQLITE_TRANSIENT, SQLITE_UTF16);
    case FUZZ_BLOB:
        return sqlite3_bind_blob64(stmt, index, v->bytes, v->length, SQLITE_TRANSIENT);
    case FUZZ_ZEROBLOB:
        return sqlite3_bind_zeroblob64(stmt, index, (sqlite3_uint64)v->integer);
    default: /* FUZZ_NULL */
        return sqlite3_bind_null(stmt, index);
    }
}

void fuzz_db_bind(sqlite3_stmt *stmt, int index, const fuzz_value *v) {
    int rc = bind_value(stmt, index, v);
    if (rc == SQLITE_TOOBIG) {
        rc = sqlite3_bind_null(stmt, index);
    }
    if (rc != SQLITE_OK) {
        fuzz_fail("binding parameter %d: %s", index, sqlite3_errstr(rc));
    }
}

void fuzz_db_bind_blob(sqlite3_stmt *stmt, int index, const uint8_t *bytes, size_t length) {
    int rc = sqlite3_bind_blob64(stmt, index, bytes, length, SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) {
        fuzz_fail("binding a BLOB of %zu bytes to parameter %d: %s", length, index,
                  sqlite3_errstr(rc));
    }
}

/* Steps stmt once; aborts on a result code that is none of those fuzz_db_step allows, nor
** SQLITE_AUTH and SQLITE_READONLY when in_place. */
static int step(sqlite3_stmt *stmt, int in_place) {
    int rc = sqlite3_step(stmt);
    int allowed = rc == SQLITE_ROW || rc == SQLITE_DONE || rc == SQLITE_ERROR ||
                  rc == SQLITE_TOOBIG || (in_place && (rc == SQLITE_AUTH || rc == SQLITE_READONLY));
    if (!allowed) {
        fuzz_fail("%s: result code %d (%s): %s", sqlite3_sql(stmt), rc, sqlite3_errstr(rc),
                  sqlite3_errmsg(sqlite3_db_handle(stmt)));
    }
    return rc;
}

int fuzz_db_step(sqlite3_stmt *stmt) {
    return step(stmt, 0);
}

int fuzz_db_step_in_place(sqlite3_stmt *stmt) {
    return step(stmt, 1);
}

void fuzz_db_reset(sqlite3_stmt *stmt, int last_step) {
    int rc = sqlite3_reset(stmt);
    int expected = last_step == SQLITE_ROW || last_step == SQLITE_DONE ? SQLITE_OK : last_step;
    if (rc != expected) {
        fuzz_fail("%s: reset gave %d after step gave %d", sqlite3_sql(stmt), rc, last_step);
    }
}

int fuzz_db_run(sqlite3_stmt *stmt) {
    int rc;
    while ((rc = fuzz_db_step(stmt)) == SQLITE_ROW) {
    }
    fuzz_db_reset(stmt, rc);
    return rc;
}

int fuzz_db_run_in_place(sqlite3_stmt *stmt) {
    int rc;
    while ((rc = fuzz_db_step_in_place(stmt)) == SQLITE_ROW) {
    }
    fuzz_db_reset(stmt, rc);
    return rc;
}
