/*
** sql_stored.c: a filter in a table's cell, in place. See sql_stored.h.
*/
#include "sql_stored.h"

#include "filter_kinds.h"
#include "sql_error.h"
#include "sql_kind.h"
#include "sql_target.h"

#include <string.h>

/* The argument of the in-place functions that names the row. */
enum { ROWID_ARGUMENT = 2 };

/* Reads ROWID: an INTEGER, or a REAL with an integer's value. 0 after setting the error. */
static int stored_read_rowid(sqlite3_context *ctx, const char *func, sqlite3_value *v,
                             sqlite3_int64 *rowid) {
    double r = sqlite3_value_double(v);
    if (sqlite3_value_type(v) == SQLITE_INTEGER) {
        *rowid = sqlite3_value_int64(v);
        return 1;
    }
    if (sqlite3_value_type(v) == SQLITE_FLOAT && r >= -9223372036854775808.0 &&
        r < 9223372036854775808.0 && r == (double)(sqlite3_int64)r) {
        *rowid = (sqlite3_int64)r;
        return 1;
    }
    sql_error_value(ctx, func, "rowid must be an integer", v);
    return 0;
}

/* Checks that the cell of rowid holds a BLOB, by the target's query of its type. 0 after
** setting the error. */
static int stored_check_cell(sqlite3_context *ctx, const char *func, const stored_target *t,
                             sqlite3_int64 rowid) {
    sqlite3_stmt *q = t->type_query;
    sqlite3_bind_int64(q, 1, rowid);
    int rc = sqlite3_step(q);
    char type[8] = "";
    if (rc == SQLITE_ROW) {
        const unsigned char *text = sqlite3_column_text(q, 0);
        sqlite3_snprintf(sizeof type, type, "%s", text != NULL ? (const char *)text : "");
    }
    sqlite3_reset(q);
    if (rc == SQLITE_DONE) {
        sql_errorf(ctx, "%s: no row with rowid %lld in %s.%s", func, rowid, t->schema, t->table);
    } else if (rc != SQLITE_ROW) {
        sql_errorf(ctx, "%s: cannot read %s.%s.%s: %s", func, t->schema, t->table, t->column_arg,
                   sqlite3_errstr(rc));
    } else if (strcmp(type, "blob") != 0) {
        sql_errorf(ctx, "%s: the filter must be a BLOB, got %s in %s.%s.%s, rowid %lld", func,
                   strcmp(type, "null") == 0      ? "NULL"
                   : strcmp(type, "text") == 0    ? "TEXT"
                   : strcmp(type, "integer") == 0 ? "INTEGER"
                                                  : "REAL",
                   t->schema, t->table, t->column_arg, rowid);
    }
    return rc == SQLITE_ROW && strcmp(type, "blob") == 0;
}

/* Opens the blob handle of the cell and reads and validates the header. 0 after setting the
** error. */
static int stored_open_cell(stored_filter *s, const stored_target *t, sqlite3_int64 rowid,
                            int writable) {
    sqlite3 *db = sqlite3_context_db_handle(s->ctx);
    int rc = sqlite3_blob_open(db, t->schema, t->table, t->column_arg, rowid, writable, &s->blob);
    if (rc != SQLITE_OK) {
        sql_errorf(s->ctx, "%s: cannot %s %s: %s", s->func, writable ? "write" : "read", s->where,
                   sqlite3_errmsg(db));
        sqlite3_result_error_code(s->ctx, rc);
        return 0;
    }
    uint64_t bytes = (uint64_t)sqlite3_blob_bytes(s->blob);
    int head = bytes < FILTER_HEADER_BYTES ? (int)bytes : FILTER_HEADER_BYTES;
    char why[FILTER_WHY_MAX];
    memset(s->header, 0, sizeof s->header);
    rc = sqlite3_blob_read(s->blob, s->header, head, 0);
    if (rc != SQLITE_OK) {
        s->rc = rc;
        stored_io_error(s);
        return 0;
    }
    filter_status status = filter_open_header(s->header, bytes, &s->view, why);
    if (status == FILTER_OK && s->view.kind->validate_body != NULL) {
        filter_io io = stored_io(s);
        status = s->view.kind->validate_body(&s->view, &io, why);
    }
    if (status == FILTER_IO_FAILED) {
        stored_io_error(s);
        return 0;
    }
    if (status != FILTER_OK) {
        sql_errorf(s->ctx, "%s: %s (%s)", s->func, why, s->where);
        return 0;
    }
    return 1;
}

/* How often stored_open checks a target whose schema changed under it before it gives up. */
enum { STORED_ATTEMPTS = 3 };

/* stored_open's steps but the last: the target found (checked), the cell's type checked and
** the cell opened. 0 after setting the error. */
static int stored_open_checked(stored_filter *s, sqlite3_value **argv, int writable,
                               sqlite3_int64 rowid) {
    s->target = target_find(s->ctx, s->func, argv, writable, rowid);
    int ok = s->target != NULL && stored_check_cell(s->ctx, s->func, s->target, rowid);
    if (ok) {
        s->where = sqlite3_mprintf("%s.%s.%s, rowid %lld", s->target->schema, s->target->table,
                                   s->target->column_arg, rowid);
        if (s->where == NULL) {
            sqlite3_result_error_nomem(s->ctx);
            ok = 0;
        }
    }
    return ok && stored_open_cell(s, s->target, rowid, writable);
}

int stored_open(sqlite3_context *ctx, const char *func, sqlite3_value **argv, int writable,
                stored_filter *s) {
    sqlite3_int64 rowid;
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->func = func;
    if (!stored_read_rowid(ctx, func, argv[ROWID_ARGUMENT], &rowid)) {
        return 0;
    }
    s->rowid = rowid;
    for (int attempt = 1; attempt <= STORED_ATTEMPTS; attempt++) {
        int unchanged =
            stored_open_checked(s, argv, writable, rowid) ? target_unchanged(ctx, s->target) : -1;
        if (unchanged == 1) {
            return 1;
        }
        if (unchanged == 0) {
            target_forget(ctx, s->target); /* the next attempt checks it again */
        }
        stored_close(s);
        s->ctx = ctx;
        s->func = func;
        s->rowid = rowid;
        if (unchanged < 0) {
            return 0;
        }
    }
    sql_errorf(ctx,
               "%s: the schema of %s changed while the call checked it, %d times over; run the "
               "statement again",
               func, (const char *)sqlite3_value_text(argv[0]), STORED_ATTEMPTS);
    return 0;
}

/* The line of s that holds byte offset, read from the cell the first time. NULL when the read
** failed (s->rc says why). */
static stored_line *stored_line_at(stored_filter *s, uint64_t offset) {
    uint64_t index = offset / STORED_LINE_BYTES;
    for (int i = s->line_count - 1; i >= 0; i--) {
        if (s->lines[i].index == index) {
            return &s->lines[i];
        }
    }
    if (s->line_count == s->line_capacity) {
        int capacity = s->line_capacity ? 2 * s->line_capacity : 16;
        stored_line *grown = sqlite3_realloc64(s->lines, (uint64_t)capacity * sizeof *grown);
        if (grown == NULL) {
            s->rc = SQLITE_NOMEM;
            return NULL;
        }
        s->lines = grown;
        s->line_capacity = capacity;
    }
    stored_line *line = &s->lines[s->line_count];
    uint64_t start = index * STORED_LINE_BYTES;
    line->index = index;
    line->bytes = (uint32_t)(s->view.bytes - start < STORED_LINE_BYTES ? s->view.bytes - start
                                                                       : STORED_LINE_BYTES);
    s->rc = sqlite3_blob_read(s->blob, line->was, (int)line->bytes, (int)start);
    if (s->rc != SQLITE_OK) {
        return NULL;
    }
    memcpy(line->now, line->was, line->bytes);
    s->line_count++;
    return line;
}

/* Which way stored_transfer copies. */
typedef enum stored_direction { STORED_TO_BUFFER, STORED_TO_LINES } stored_direction;

/* Copies n bytes at offset between buf and the lines of s, reading lines as needed, the way
** direction says. 0, or 1 when a read failed (s->rc says why). */
static int stored_transfer(stored_filter *s, uint64_t offset, uint8_t *buf, uint32_t n,
                           stored_direction direction) {
    while (n > 0) {
        stored_line *line = stored_line_at(s, offset);
        if (line == NULL) {
            return 1;
        }
        uint32_t at = (uint32_t)(offset % STORED_LINE_BYTES);
        uint32_t part = line->bytes - at < n ? line->bytes - at : n;
        if (direction == STORED_TO_LINES) {
            memcpy(line->now + at, buf, part);
        } else {
            memcpy(buf, line->now + at, part);
        }
        offset += part;
        buf += part;
        n -= part;
    }
    return 0;
}

/* stored_io's read and write. */
static int stored_io_read(void *state, uint64_t offset, uint8_t *buf, uint32_t n) {
    return stored_transfer(state, offset, buf, n, STORED_TO_BUFFER);
}

static int stored_io_write(void *state, uint64_t offset, const uint8_t *buf, uint32_t n) {
    return stored_transfer(state, offset, (uint8_t *)buf, n, STORED_TO_LINES);
}

filter_io stored_io(stored_filter *s) {
    filter_io io = {s, stored_io_read, stored_io_write};
    return io;
}

void stored_io_error(stored_filter *s) {
    if (s->rc == SQLITE_OK) { /* not from a read or write: a bug, reported as one */
        s->rc = SQLITE_INTERNAL;
    }
    if (s->rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(s->ctx);
        return;
    }
    sql_errorf(s->ctx, "%s: cannot read or write %s: %s", s->func, s->where, sqlite3_errstr(s->rc));
    sqlite3_result_error_code(s->ctx, s->rc);
}

/* Rewrites the header, as the operations left it, as this code writes its kind (docs/format.md,
** section 2: a writer writes its own versions and reserved bytes 0). */
static int stored_normalize_header(stored_filter *s) {
    uint8_t now[FILTER_HEADER_BYTES], written[FILTER_HEADER_BYTES];
    if (stored_transfer(s, 0, now, FILTER_HEADER_BYTES, STORED_TO_BUFFER) != 0) {
        return 0;
    }
    filter_view f = s->view;
    f.blob = now;
    f.kind->write_header(written, &f);
    return stored_transfer(s, 0, written, FILTER_HEADER_BYTES, STORED_TO_LINES) == 0;
}

int stored_commit(stored_filter *s) {
    int i = 0, rc = SQLITE_OK;
    if (!stored_normalize_header(s)) {
        stored_io_error(s);
        return 0;
    }
    for (; i < s->line_count && rc == SQLITE_OK; i++) {
        stored_line *line = &s->lines[i];
        if (memcmp(line->now, line->was, line->bytes) != 0) {
            rc = sqlite3_blob_write(s->blob, line->now, (int)line->bytes,
                                    (int)(line->index * STORED_LINE_BYTES));
        }
    }
    if (rc == SQLITE_OK) {
        return 1;
    }
    for (int j = 0; j < i - 1; j++) { /* the lines written before the one that failed */
        stored_line *line = &s->lines[j];
        if (memcmp(line->now, line->was, line->bytes) != 0) {
            sqlite3_blob_write(s->blob, line->was, (int)line->bytes,
                               (int)(line->index * STORED_LINE_BYTES));
        }
    }
    sql_errorf(s->ctx, "%s: cannot write %s: %s", s->func, s->where, sqlite3_errstr(rc));
    sqlite3_result_error_code(s->ctx, rc);
    return 0;
}

/* Replaces the cell of s with blob (bytes long) by its UPDATE, after closing the blob handle.
** Returns 1, or 0 after setting the error. */
static int stored_replace_cell(stored_filter *s, const uint8_t *blob, uint64_t bytes) {
    sqlite3 *db = sqlite3_context_db_handle(s->ctx);
    sqlite3_stmt *update = NULL;
    /* The cell stays open until the UPDATE has run (which expires it): its lock keeps the
    ** schema stored_open checked. */
    if (!target_check_update(s->ctx, s->func, s->target, s->rowid)) {
        return 0;
    }
    int rc = sqlite3_prepare_v2(db, s->target->update_sql, -1, &update, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(update, 1, s->rowid);
        rc = sqlite3_bind_blob64(update, 2, blob, bytes, SQLITE_STATIC);
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(update);
        rc = rc == SQLITE_DONE ? SQLITE_OK : sqlite3_reset(update);
    }
    if (rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(s->ctx);
    } else if (rc != SQLITE_OK && sql_errorf(s->ctx, "%s: cannot write %s: %s", s->func, s->where,
                                             sqlite3_errmsg(db))) {
        sqlite3_result_error_code(s->ctx, rc);
    }
    sqlite3_finalize(update);
    sqlite3_blob_close(s->blob);
    s->blob = NULL;
    return rc == SQLITE_OK;
}

int stored_add_growing(stored_filter *s, key_hash key) {
    uint64_t bytes = s->view.bytes;
    uint8_t *blob = sqlite3_malloc64(bytes);
    int rc = blob == NULL ? SQLITE_NOMEM : sqlite3_blob_read(s->blob, blob, (int)bytes, 0);
    int ok = rc == SQLITE_OK;
    if (!ok) {
        s->rc = rc;
        stored_io_error(s);
    }
    ok = ok && sql_kind_grow(s->ctx, s->func, &blob, &bytes);
    ok = ok && filter_add(s->view.kind, blob, key) == FILTER_OK && /* a grown filter has room */
         stored_replace_cell(s, blob, bytes);
    sqlite3_free(blob);
    return ok;
}

void stored_close(stored_filter *s) {
    sqlite3_blob_close(s->blob);
    sqlite3_free(s->lines);
    sqlite3_free(s->where);
    target_release(s->target);
    memset(s, 0, sizeof *s);
}
