/*
** parquet_files.c: bloom_parquet_filters(path), an eponymous table-valued function over the
** Bloom filters of a Parquet file (rule 29 (Parquet files)). It declares
**
**     CREATE TABLE x(row_group INTEGER, column_path TEXT, physical_type TEXT, filter BLOB,
**                    num_values INTEGER, bloom_filter_offset INTEGER,
**                    bloom_filter_length INTEGER, created_by TEXT, problem TEXT, path HIDDEN)
**
** a row for each column chunk whose metadata names a Bloom filter offset, in the footer's order.
** The file is hostile input: it is read with stdio at 64-bit offsets; the footer, bounded by the
** file and by SQLITE_LIMIT_LENGTH, is walked by parquet_footer (an error names the function, the
** path and what is wrong); a filter's header and bitset are read only when the row's filter or
** problem is asked for, each offset and length checked to lie in the file's data (after the
** leading PAR1, before the footer). A filter that cannot be used is no guess: its filter is NULL
** and problem says why. DIRECTONLY: not in triggers or views, which a database file could bring.
*/
#include "sql_api.h"

#include "parquet_files.h"

#include "filter.h"
#include "parquet_core.h"
#include "parquet_footer.h"
#include "parquet_io.h"
#include "sql_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The columns, in the order of the declaration. */
enum {
    COLUMN_ROW_GROUP,
    COLUMN_COLUMN_PATH,
    COLUMN_PHYSICAL_TYPE,
    COLUMN_FILTER,
    COLUMN_NUM_VALUES,
    COLUMN_OFFSET,
    COLUMN_LENGTH,
    COLUMN_CREATED_BY,
    COLUMN_PROBLEM,
    COLUMN_PATH
};

static const char files_declaration[] =
    "CREATE TABLE x(row_group INTEGER, column_path TEXT, physical_type TEXT, filter BLOB, "
    "num_values INTEGER, bloom_filter_offset INTEGER, bloom_filter_length INTEGER, "
    "created_by TEXT, problem TEXT, path HIDDEN)";

static const char files_function[] = "bloom_parquet_filters";

/* The most bytes read for a filter's header when the footer gives no bloom_filter_length: every
** header a writer makes is at most PARQUET_BLOOM_HEADER_MAX, and fields added to the format
** later would have to add more than 200 bytes to be refused. */
enum { FILES_HEADER_WINDOW = 256 };

/* Parquet's Type enum value BOOLEAN, which parquet_core's types leave out (its 0 is "untyped"). */
enum { PARQUET_TYPE_BOOLEAN = 0 };

/* The created_by of @dsnp/parquetjs (1.8.7 writes it without a version), whose filters of any
** other type than BYTE_ARRAY hold the hashes of the values' decimal text (issue 23; its INT64
** filters in tests/parquet/parquetjs.parquet do): a reader following the format would take
** them as not holding the values they were built from. */
#define PARQUETJS "@dsnp/parquetjs"

/* A row: a column chunk with a Bloom filter offset. */
typedef struct files_row {
    sqlite3_int64 row_group;
    char *column_path; /* its path_in_schema, dotted */
    int32_t physical_type;
    int32_t type_length; /* -1 but for FIXED_LEN_BYTE_ARRAY */
    sqlite3_int64 num_values;
    sqlite3_int64 offset;
    sqlite3_int64 length; /* -1 when the footer gives none */
    int encrypted;
} files_row;

/* The table: the connection, for its length limit. */
typedef struct files_table {
    sqlite3_vtab base;
    sqlite3 *db;
} files_table;

/* A cursor: the file, its rows, and the current row's filter once read. */
typedef struct files_cursor {
    sqlite3_vtab_cursor base;
    FILE *file;
    uint64_t data_end; /* where the footer starts: filters lie in [4, data_end) */
    sqlite3_value *path;
    char *created_by; /* NULL when the footer has none */
    files_row *rows;
    size_t count, capacity, at;
    int read;        /* the current row's filter or problem is read */
    uint8_t *filter; /* its filter BLOB (sqlite3_malloc64), or NULL */
    uint64_t filter_bytes;
    char *problem;                       /* why it has no filter (sqlite3_malloc), or NULL */
    int error;                           /* the first error of the scan's visitor: SQLITE_NOMEM */
    char read_error[PARQUET_IO_WHY_MAX]; /* why the last read failed */
} files_cursor;

/* Sets the table's error message to text (sqlite3_malloc'd; NULL: out of memory); returns rc,
** or SQLITE_NOMEM without text. */
static int files_error(sqlite3_vtab *vtab, int rc, char *text) {
    sqlite3_free(vtab->zErrMsg);
    vtab->zErrMsg = text;
    return text != NULL ? rc : SQLITE_NOMEM;
}

/* The message "bloom_parquet_filters: BEFORE'PATH'AFTER" (AFTER a format), from sqlite3_malloc
** (NULL: out of memory). */
static char *files_vmessage(const files_cursor *c, const char *before, const char *after,
                            va_list ap) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: %s", files_function, before);
    sql_append_value(s, c->path);
    sqlite3_str_vappendf(s, after, ap);
    return sqlite3_str_finish(s);
}

/* Sets the table's error to files_vmessage's text; returns rc. */
static int files_errorf(files_cursor *c, int rc, const char *before, const char *after, ...) {
    va_list ap;
    va_start(ap, after);
    char *text = files_vmessage(c, before, after, ap);
    va_end(ap);
    return files_error(c->base.pVtab, rc, text);
}

/* files_vmessage's text, from sqlite3_malloc. */
static char *files_message(const files_cursor *c, const char *before, const char *after, ...) {
    va_list ap;
    va_start(ap, after);
    char *text = files_vmessage(c, before, after, ap);
    va_end(ap);
    return text;
}

/* ---- The table ------------------------------------------------------------------------- */

/* xConnect (also in xCreate's place: the function is eponymous only): declares the columns, and
** DIRECTONLY (not in triggers or views), which SQLite 3.31.0, the oldest the extension loads
** into, has. */
static int files_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                         sqlite3_vtab **out, char **error) {
    (void)aux;
    (void)argc;
    (void)argv;
    (void)error;
    int rc = sqlite3_declare_vtab(db, files_declaration);
    if (rc == SQLITE_OK) {
        rc = sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    }
    if (rc != SQLITE_OK) {
        return rc;
    }
    files_table *t = sqlite3_malloc(sizeof *t);
    if (t == NULL) {
        return SQLITE_NOMEM;
    }
    memset(t, 0, sizeof *t);
    t->db = db;
    *out = &t->base;
    return SQLITE_OK;
}

/* xDisconnect. */
static int files_disconnect(sqlite3_vtab *vtab) {
    sqlite3_free(vtab);
    return SQLITE_OK;
}

/* xBestIndex: the plan takes path = ? as its one argument. A path constraint this plan cannot
** use (a join's, before its table) makes the plan impossible; no path at all is an error. */
static int files_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info) {
    int path = -1, unusable = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->iColumn != COLUMN_PATH || c->op != SQLITE_INDEX_CONSTRAINT_EQ) {
            continue;
        }
        if (!c->usable) {
            unusable = 1;
        } else if (path < 0) {
            path = i;
        }
    }
    if (path < 0 && unusable) {
        return SQLITE_CONSTRAINT;
    }
    if (path < 0) {
        return files_error(vtab, SQLITE_ERROR,
                           sqlite3_mprintf("%s: needs the path of a Parquet file: SELECT * FROM "
                                           "%s('file.parquet')",
                                           files_function, files_function));
    }
    info->aConstraintUsage[path].argvIndex = 1;
    info->aConstraintUsage[path].omit = 1;
    info->estimatedCost = 1000.0;
    info->estimatedRows = 100;
    return SQLITE_OK;
}

/* ---- Cursors ---------------------------------------------------------------------------- */

/* xOpen. */
static int files_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out) {
    (void)vtab;
    files_cursor *c = sqlite3_malloc(sizeof *c);
    if (c == NULL) {
        return SQLITE_NOMEM;
    }
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

/* Forgets the current row's filter and problem. */
static void files_forget_filter(files_cursor *c) {
    sqlite3_free(c->filter);
    sqlite3_free(c->problem);
    c->filter = NULL;
    c->problem = NULL;
    c->read = 0;
}

/* Closes the file and frees the rows: the cursor as xOpen made it. */
static void files_reset(files_cursor *c) {
    files_forget_filter(c);
    if (c->file != NULL) {
        fclose(c->file);
    }
    for (size_t i = 0; i < c->count; i++) {
        sqlite3_free(c->rows[i].column_path);
    }
    sqlite3_free(c->rows);
    sqlite3_free(c->created_by);
    sqlite3_value_free(c->path);
    c->file = NULL;
    c->rows = NULL;
    c->created_by = NULL;
    c->path = NULL;
    c->count = c->capacity = c->at = 0;
    c->data_end = 0;
    c->error = SQLITE_OK;
}

/* xClose. */
static int files_close(sqlite3_vtab_cursor *cursor) {
    files_cursor *c = (files_cursor *)cursor;
    files_reset(c);
    sqlite3_free(c);
    return SQLITE_OK;
}

/* ---- The file --------------------------------------------------------------------------- */

/* Reads bytes bytes at offset of the open file into out: 0, or -1 with the reason in the
** cursor's read_error. */
static int files_read(files_cursor *c, uint64_t offset, void *out, size_t bytes) {
    return parquet_io_read(c->file, offset, out, bytes, c->read_error);
}

/* The scan's visitor: a chunk with a Bloom filter offset becomes a row. */
static int files_visit(void *state, const parquet_chunk *chunk) {
    files_cursor *c = state;
    if (chunk->bloom_filter_offset < 0) {
        return 0;
    }
    if (c->created_by == NULL && chunk->created_by.bytes != NULL) {
        c->created_by = sqlite3_mprintf("%.*s", (int)chunk->created_by.length,
                                        (const char *)chunk->created_by.bytes);
        if (c->created_by == NULL) {
            c->error = SQLITE_NOMEM;
            return 1;
        }
    }
    if (c->count == c->capacity) {
        size_t capacity = c->capacity != 0 ? 2 * c->capacity : 16;
        files_row *rows = sqlite3_realloc64(c->rows, (uint64_t)capacity * sizeof *rows);
        if (rows == NULL) {
            c->error = SQLITE_NOMEM;
            return 1;
        }
        c->rows = rows;
        c->capacity = capacity;
    }
    sqlite3_str *s = sqlite3_str_new(NULL);
    for (uint32_t i = 0; i < chunk->path_count; i++) {
        sqlite3_str_appendf(s, "%s%.*s", i > 0 ? "." : "", (int)chunk->path[i].length,
                            (const char *)chunk->path[i].bytes);
    }
    char *column_path = sqlite3_str_finish(s);
    if (column_path == NULL) {
        c->error = SQLITE_NOMEM;
        return 1;
    }
    c->rows[c->count++] = (files_row){.row_group = chunk->row_group,
                                      .column_path = column_path,
                                      .physical_type = chunk->physical_type,
                                      .type_length = chunk->type_length,
                                      .num_values = chunk->num_values,
                                      .offset = chunk->bloom_filter_offset,
                                      .length = chunk->bloom_filter_length,
                                      .encrypted = chunk->encrypted};
    return 0;
}

/* Walks the footer, read whole, into the cursor's rows. */
static int files_scan(files_cursor *c, const uint8_t *footer, uint32_t bytes) {
    char why[PARQUET_WHY_MAX];
    uint32_t leaves = 0;
    parquet_status status = parquet_footer_leaves(footer, bytes, &leaves, why);
    if (status != PARQUET_OK) {
        return files_errorf(c, SQLITE_ERROR, "", ": %s", why);
    }
    int32_t *scratch = sqlite3_malloc64(((uint64_t)leaves + 1) * sizeof *scratch);
    if (scratch == NULL) {
        return SQLITE_NOMEM;
    }
    status = parquet_footer_scan(footer, bytes, scratch, leaves, files_visit, c, why);
    sqlite3_free(scratch);
    if (status == PARQUET_STOPPED) {
        return c->error;
    }
    return status == PARQUET_OK ? SQLITE_OK : files_errorf(c, SQLITE_ERROR, "", ": %s", why);
}

/* Finds the footer of the open file, reads it (at most SQLITE_LIMIT_LENGTH bytes) and scans it
** into the rows. */
static int files_load(files_cursor *c) {
    char why[PARQUET_WHY_MAX];
    int cannot_read = 0;
    parquet_io_footer footer;
    int limit = sqlite3_limit(((files_table *)c->base.pVtab)->db, SQLITE_LIMIT_LENGTH, -1);
    int rc = parquet_io_load_footer(c->file, limit, &footer, &cannot_read, why);
    if (rc == SQLITE_NOMEM) {
        return rc;
    }
    if (rc != SQLITE_OK) {
        return cannot_read ? files_errorf(c, rc, "cannot read ", ": %s", why)
                           : files_errorf(c, rc, "", ": %s", why);
    }
    rc = files_scan(c, footer.bytes, footer.length);
    sqlite3_free(footer.bytes);
    c->data_end = footer.data_end;
    return rc;
}

/* xFilter: opens the file named by the path argument and reads its footer into rows. */
static int files_filter(sqlite3_vtab_cursor *cursor, int idx_num, const char *idx_str, int argc,
                        sqlite3_value **argv) {
    (void)idx_num;
    (void)idx_str;
    (void)argc;
    files_cursor *c = (files_cursor *)cursor;
    files_reset(c);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        return SQLITE_OK; /* no file, no rows */
    }
    c->path = sqlite3_value_dup(argv[0]);
    if (c->path == NULL) {
        return SQLITE_NOMEM;
    }
    if (sqlite3_value_type(c->path) != SQLITE_TEXT) {
        return files_errorf(c, SQLITE_ERROR, "the path must be TEXT, got ", "");
    }
    const char *path = (const char *)sqlite3_value_text(c->path);
    if (path == NULL) {
        return SQLITE_NOMEM;
    }
    if (strlen(path) != (size_t)sqlite3_value_bytes(c->path)) {
        return files_errorf(c, SQLITE_ERROR, "the path must be TEXT without NUL, got ", "");
    }
    const char *why_not;
    c->file = parquet_io_open(path, &why_not);
    if (c->file == NULL) {
        return files_errorf(c, SQLITE_ERROR, "cannot open ", ": %s", why_not);
    }
    return files_load(c);
}

/* ---- A row's filter ----------------------------------------------------------------------- */

/* Sets the current row's problem, a formatted sentence; returns SQLITE_OK, or SQLITE_NOMEM. */
static int files_problem(files_cursor *c, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    c->problem = sqlite3_vmprintf(format, ap);
    va_end(ap);
    return c->problem != NULL ? SQLITE_OK : SQLITE_NOMEM;
}

/* Reads the row's BloomFilterHeader into *h: SQLITE_OK with *h, or with a problem; SQLITE_ERROR
** with *error when the file cannot be read. */
static int files_read_header(files_cursor *c, const files_row *row, parquet_bloom_header *h,
                             char **error) {
    uint64_t room = c->data_end - (uint64_t)row->offset;
    uint64_t window = room < FILES_HEADER_WINDOW ? room : FILES_HEADER_WINDOW;
    if (row->length >= 0 && (uint64_t)row->length < window) {
        window = (uint64_t)row->length;
    }
    uint8_t bytes[FILES_HEADER_WINDOW];
    if (files_read(c, (uint64_t)row->offset, bytes, (size_t)window) != 0) {
        *error = files_message(c, "cannot read ", ": %s", c->read_error);
        return *error != NULL ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    char why[PARQUET_WHY_MAX];
    parquet_status status = parquet_bloom_header_read(bytes, (size_t)window, h, why);
    if (status == PARQUET_OK) {
        return SQLITE_OK;
    }
    if (status == PARQUET_INVALID) {
        return files_problem(c, "%s", why);
    }
    if (row->length >= 0 && window == (uint64_t)row->length) {
        return files_problem(c, "its header runs past its bloom_filter_length, %lld bytes",
                             (long long)row->length);
    }
    if (window == room) {
        return files_problem(c, "its header runs past the file's data, which ends at byte %llu",
                             (unsigned long long)c->data_end);
    }
    return files_problem(c, "its header is longer than the %d bytes this reader reads",
                         FILES_HEADER_WINDOW);
}

/* Reads the current row's filter into the cursor, or the problem that keeps it from one:
** SQLITE_OK; SQLITE_ERROR with *error (from sqlite3_malloc) when the file cannot be read;
** SQLITE_NOMEM. */
static int files_read_filter(files_cursor *c, char **error) {
    const files_row *row = &c->rows[c->at];
    c->read = 1;
    if (row->encrypted) {
        return files_problem(c, "its column is encrypted, and so is its filter");
    }
    if (c->created_by != NULL && strncmp(c->created_by, PARQUETJS, strlen(PARQUETJS)) == 0 &&
        row->physical_type != PARQUET_BYTE_ARRAY) {
        return files_problem(c,
                             "written by %s, which hashes a number as its decimal text, not as "
                             "Parquet's plain encoding: its filter would miss values the column "
                             "holds",
                             PARQUETJS);
    }
    if (row->offset < PARQUET_MAGIC_BYTES || (uint64_t)row->offset >= c->data_end) {
        return files_problem(c,
                             "bloom_filter_offset %lld is outside the file's data, bytes %d to "
                             "%llu",
                             (long long)row->offset, PARQUET_MAGIC_BYTES,
                             (unsigned long long)c->data_end - 1);
    }
    parquet_bloom_header h = {0, 0};
    int rc = files_read_header(c, row, &h, error);
    if (rc != SQLITE_OK || c->problem != NULL) {
        return rc;
    }
    uint64_t bytes = (uint64_t)h.header_bytes + h.num_bytes;
    if (row->length >= 0 && (uint64_t)row->length != bytes) {
        return files_problem(c,
                             "its bloom_filter_length is %lld bytes, its header says %u and a "
                             "bitset of %u",
                             (long long)row->length, h.header_bytes, h.num_bytes);
    }
    if (bytes > c->data_end - (uint64_t)row->offset) {
        return files_problem(c,
                             "its bitset of %u bytes runs past the file's data, which ends at "
                             "byte %llu",
                             h.num_bytes, (unsigned long long)c->data_end);
    }
    if (row->physical_type == PARQUET_TYPE_BOOLEAN) {
        return files_problem(c, "its column is BOOLEAN, which no 'parquet' filter is");
    }
    if (parquet_type_name(row->physical_type) == NULL) {
        return files_problem(c, "its physical type, %d, is none of Parquet's", row->physical_type);
    }
    char why[FILTER_WHY_MAX];
    uint32_t type_length = row->type_length > 0 ? (uint32_t)row->type_length : 0;
    if (parquet_check_bitset(h.num_bytes, row->physical_type, type_length, why) != FILTER_OK) {
        return files_problem(c, "%s", why);
    }
    uint64_t blob_bytes = parquet_blob_bytes(h.num_bytes / PARQUET_BLOCK_BYTES);
    int limit = sqlite3_limit(((files_table *)c->base.pVtab)->db, SQLITE_LIMIT_LENGTH, -1);
    if (blob_bytes > (uint64_t)limit) {
        return files_problem(c,
                             "its filter would be %llu bytes, more than SQLITE_LIMIT_LENGTH (%d)",
                             (unsigned long long)blob_bytes, limit);
    }
    uint8_t *bitset = sqlite3_malloc64(h.num_bytes);
    c->filter = sqlite3_malloc64(blob_bytes);
    if (bitset == NULL || c->filter == NULL) {
        sqlite3_free(bitset);
        return SQLITE_NOMEM;
    }
    if (files_read(c, (uint64_t)row->offset + h.header_bytes, bitset, h.num_bytes) != 0) {
        *error = files_message(c, "cannot read ", ": %s", c->read_error);
        rc = *error != NULL ? SQLITE_ERROR : SQLITE_NOMEM;
    } else {
        parquet_filter_from_bitset(c->filter, bitset, h.num_bytes, row->physical_type, type_length);
        c->filter_bytes = blob_bytes;
    }
    sqlite3_free(bitset);
    return rc;
}

/* xNext. */
static int files_next(sqlite3_vtab_cursor *cursor) {
    files_cursor *c = (files_cursor *)cursor;
    files_forget_filter(c);
    c->at++;
    return SQLITE_OK;
}

/* xEof. */
static int files_eof(sqlite3_vtab_cursor *cursor) {
    const files_cursor *c = (const files_cursor *)cursor;
    return c->at >= c->count;
}

/* Gives the current row's filter, or its problem, to ctx: read once a row. */
static void files_result_filter(files_cursor *c, sqlite3_context *ctx, int column) {
    char *error = NULL;
    int rc = c->read ? SQLITE_OK : files_read_filter(c, &error);
    if (rc == SQLITE_NOMEM) {
        files_forget_filter(c);
        sqlite3_result_error_nomem(ctx);
    } else if (rc != SQLITE_OK) {
        files_forget_filter(c);
        sqlite3_result_error(ctx, error, -1);
        sqlite3_free(error);
    } else if (column == COLUMN_FILTER && c->filter != NULL) {
        sqlite3_result_blob64(ctx, c->filter, c->filter_bytes, SQLITE_TRANSIENT);
    } else if (column == COLUMN_PROBLEM && c->problem != NULL) {
        sqlite3_result_text(ctx, c->problem, -1, SQLITE_TRANSIENT);
    }
}

/* Parquet's name of a physical type, BOOLEAN too (which no 'parquet' filter is); NULL for a
** value the format does not define. */
static const char *files_type_name(int32_t type) {
    return type == PARQUET_TYPE_BOOLEAN ? "BOOLEAN" : parquet_type_name(type);
}

/* Gives v to ctx, or NULL when it is -1 (absent). */
static void files_result_count(sqlite3_context *ctx, sqlite3_int64 v) {
    if (v >= 0) {
        sqlite3_result_int64(ctx, v);
    }
}

/* xColumn. */
static int files_column(sqlite3_vtab_cursor *cursor, sqlite3_context *ctx, int column) {
    files_cursor *c = (files_cursor *)cursor;
    const files_row *row = &c->rows[c->at];
    switch (column) {
    case COLUMN_ROW_GROUP:
        sqlite3_result_int64(ctx, row->row_group);
        break;
    case COLUMN_COLUMN_PATH:
        sqlite3_result_text(ctx, row->column_path, -1, SQLITE_TRANSIENT);
        break;
    case COLUMN_PHYSICAL_TYPE:
        if (files_type_name(row->physical_type) != NULL) {
            sqlite3_result_text(ctx, files_type_name(row->physical_type), -1, SQLITE_STATIC);
        }
        break;
    case COLUMN_FILTER:
    case COLUMN_PROBLEM:
        files_result_filter(c, ctx, column);
        break;
    case COLUMN_NUM_VALUES:
        files_result_count(ctx, row->num_values);
        break;
    case COLUMN_OFFSET:
        files_result_count(ctx, row->offset);
        break;
    case COLUMN_LENGTH:
        files_result_count(ctx, row->length);
        break;
    case COLUMN_CREATED_BY:
        if (c->created_by != NULL) {
            sqlite3_result_text(ctx, c->created_by, -1, SQLITE_TRANSIENT);
        }
        break;
    default: /* COLUMN_PATH */
        sqlite3_result_value(ctx, c->path);
        break;
    }
    return SQLITE_OK;
}

/* xRowid: the row's place, from 0. */
static int files_rowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid) {
    *rowid = (sqlite3_int64)((const files_cursor *)cursor)->at;
    return SQLITE_OK;
}

/* The module: eponymous only (no xCreate), read-only, no transactions. */
static const sqlite3_module files_module = {
    .iVersion = 0,
    .xCreate = NULL, /* no CREATE VIRTUAL TABLE: the function is its own table */
    .xConnect = files_connect,
    .xBestIndex = files_best_index,
    .xDisconnect = files_disconnect,
    .xDestroy = NULL,
    .xOpen = files_open,
    .xClose = files_close,
    .xFilter = files_filter,
    .xNext = files_next,
    .xEof = files_eof,
    .xColumn = files_column,
    .xRowid = files_rowid,
    .xUpdate = NULL, /* read-only */
    .xBegin = NULL,
    .xSync = NULL,
    .xCommit = NULL,
    .xRollback = NULL,
    .xFindFunction = NULL,
    .xRename = NULL,
    .xSavepoint = NULL,
    .xRelease = NULL,
    .xRollbackTo = NULL,
    .xShadowName = NULL,
};

int parquet_files_register(sqlite3 *db) {
    return sqlite3_create_module_v2(db, files_function, &files_module, NULL, NULL);
}
