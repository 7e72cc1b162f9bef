/*
** parquet_writer.c: bloom_parquet_write(SOURCE, DESTINATION, COLUMN_PATH, ROW_GROUP, FILTER), an
** aggregate that writes a copy of a Parquet file with 'parquet' filters in it (rule 31 (Parquet
** writes)):
**
**   1. The group's first row: SOURCE is opened (a regular file), its footer found, read and
**      walked as bloom_parquet_filters reads it (parquet_io, parquet_footer_scan) into its
**      columns (each leaf's path and physical type, the same in every row group) and its chunks
**      (a byte each: with metadata, encrypted, with its data in another file, given a filter),
**      and checked by a rewrite that gives no chunk a filter (parquet_footer_rewrite); then
**      DESTINATION is created, a file that must not be there, and SOURCE's bytes up to its footer
**      are copied into it.
**   2. Every row: SOURCE and DESTINATION must be the first row's; COLUMN_PATH names a leaf,
**      ROW_GROUP one of its row groups, or every one (NULL); FILTER must be a 'parquet' filter of
**      the leaf's physical type; no chunk is given a filter twice. The filter's bloom_to_parquet
**      bytes are appended to DESTINATION, once for all the row groups it goes to.
**   3. The end of the group: the footer rewritten, each chunk given a filter pointing at its
**      bytes (bloom_filter_offset, bloom_filter_length), then the footer's length and PAR1. The
**      result is the number of chunks given a filter. An error, then or on a row before, removes
**      DESTINATION.
**
** DIRECTONLY: it writes files, which no view or trigger of a database file may make it do.
*/
#include "sql_api.h"

#include "parquet_writer.h"

#include "filter.h"
#include "filter_kinds.h"
#include "parquet_core.h"
#include "parquet_footer.h"
#include "parquet_io.h"
#include "sql_args.h"
#include "sql_error.h"
#include "sql_memory.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char writer_function[] = "bloom_parquet_write";

enum {
    WRITER_COPY_BYTES = 1 << 20, /* SOURCE's data is copied a MiB at a time */
    WRITER_COLUMNS_LISTED = 12,  /* the columns a message of a column not found lists */
    WRITER_TYPE_BOOLEAN = 0      /* Parquet's BOOLEAN, which parquet_core's types leave out */
};

/* What is known of a column chunk, a byte each. */
enum {
    CHUNK_METADATA = 1,  /* it has its ColumnMetaData */
    CHUNK_ENCRYPTED = 2, /* crypto_metadata or encrypted_column_metadata */
    CHUNK_ELSEWHERE = 4, /* its data is in another file (file_path) */
    CHUNK_GIVEN = 8      /* a row gave it a filter */
};

/* A leaf of the schema, as its chunks with metadata give it. */
typedef struct writer_column {
    char *path; /* path_in_schema joined by '.' (sqlite3_malloc); NULL: no chunk said */
    int path_bytes;
    int32_t physical_type;
    int32_t type_length; /* a FIXED_LEN_BYTE_ARRAY's, else -1 */
} writer_column;

/* A row's filter: its column, its row group (-1: every one), and where its bytes are. */
typedef struct writer_row {
    uint32_t column;
    int64_t row_group;
    int64_t offset;
    int32_t length;
} writer_row;

/* The aggregate's context. */
typedef struct writer_state {
    int started;                         /* the first row set up what follows */
    int failed;                          /* an error was set: the end removes DESTINATION */
    sqlite3_value *source, *destination; /* the first row's */
    FILE *in, *out;                      /* out: DESTINATION, once created, until closed */
    int created;                         /* DESTINATION was created here */
    parquet_io_footer footer;            /* SOURCE's */
    uint32_t leaves, row_groups;
    writer_column *columns; /* leaves of them */
    uint8_t *chunks;        /* row_groups * leaves, row group by row group */
    size_t chunk_capacity;
    writer_row *rows;
    size_t count, capacity;
    uint64_t end;       /* DESTINATION's length so far: where the next filter goes */
    int64_t given;      /* chunks given a filter */
    int scan_rc;        /* an error of the scan's visitor: SQLITE_NOMEM, or SQLITE_ERROR... */
    char *scan_message; /* ...with this message (sqlite3_malloc) */
} writer_state;

/* ---- Messages ----------------------------------------------------------------------------- */

/* A message begun: "bloom_parquet_write: ". */
static sqlite3_str *writer_message(void) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: ", writer_function);
    return s;
}

/* Makes s the error of ctx with code rc (SQLITE_ERROR, SQLITE_TOOBIG); returns 0. */
static int writer_error(sqlite3_context *ctx, sqlite3_str *s, int rc) {
    if (sql_error_from_str(ctx, s) && rc != SQLITE_ERROR) {
        sqlite3_result_error_code(ctx, rc);
    }
    return 0;
}

/* The error "bloom_parquet_write: BEFORE'SOURCE'AFTER" (AFTER a format) with code rc; returns 0. */
static int writer_source_error(sqlite3_context *ctx, const writer_state *st, int rc,
                               const char *before, const char *after, ...) {
    sqlite3_str *s = writer_message();
    sqlite3_str_appendall(s, before);
    sql_append_value(s, st->source);
    va_list ap;
    va_start(ap, after);
    sqlite3_str_vappendf(s, after, ap);
    va_end(ap);
    return writer_error(ctx, s, rc);
}

/* Appends "column 'PATH' of source 'SOURCE'". */
static void writer_append_column(sqlite3_str *s, const writer_state *st, sqlite3_value *path) {
    sqlite3_str_appendall(s, "column ");
    sql_append_value(s, path);
    sqlite3_str_appendall(s, " of source ");
    sql_append_value(s, st->source);
}

/* ---- The source --------------------------------------------------------------------------- */

/* Reads a path argument, name (source, destination): TEXT without NUL, into *path. 0 after
** setting the error. */
static int writer_read_path(sqlite3_context *ctx, sqlite3_value *v, const char *name,
                            const char **path) {
    char what[96];
    if (sqlite3_value_type(v) != SQLITE_TEXT) {
        snprintf(what, sizeof what, "%s must be TEXT, the path of a file", name);
        sql_error_value(ctx, writer_function, what, v);
        return 0;
    }
    *path = (const char *)sqlite3_value_text(v);
    if (*path == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    if (strlen(*path) != (size_t)sqlite3_value_bytes(v)) {
        snprintf(what, sizeof what, "%s must be TEXT without NUL", name);
        sql_error_value(ctx, writer_function, what, v);
        return 0;
    }
    return 1;
}

/* The scan's visitor: each chunk's byte; each leaf's path and type, from its first chunk with
** metadata, which every other must repeat. */
static int writer_visit(void *state, const parquet_chunk *chunk) {
    writer_state *st = state;
    uint64_t wanted = ((uint64_t)chunk->row_group + 1) * st->leaves;
    if (chunk->row_group >= st->row_groups) {
        size_t before = (size_t)st->row_groups * st->leaves;
        uint8_t *grown = wanted <= SIZE_MAX
                             ? sql_grown(st->chunks, &st->chunk_capacity, (size_t)wanted, 1, 256)
                             : NULL;
        if (grown == NULL) {
            st->scan_rc = SQLITE_NOMEM;
            return 1;
        }
        st->chunks = grown;
        memset(st->chunks + before, 0, (size_t)wanted - before);
        st->row_groups = chunk->row_group + 1;
    }
    st->chunks[(size_t)chunk->row_group * st->leaves + chunk->column] =
        (uint8_t)((chunk->has_metadata ? CHUNK_METADATA : 0) |
                  (chunk->encrypted ? CHUNK_ENCRYPTED : 0) |
                  (chunk->file_path.bytes != NULL ? CHUNK_ELSEWHERE : 0));
    if (!chunk->has_metadata) {
        return 0;
    }
    sqlite3_str *s = sqlite3_str_new(NULL);
    for (uint32_t i = 0; i < chunk->path_count; i++) {
        sqlite3_str_appendf(s, "%s%.*s", i > 0 ? "." : "", (int)chunk->path[i].length,
                            (const char *)chunk->path[i].bytes);
    }
    int bytes = sqlite3_str_length(s), rc = sqlite3_str_errcode(s);
    char *path = sqlite3_str_finish(s); /* NULL when empty: a path of empty names */
    if (rc == SQLITE_OK && path == NULL) {
        path = sqlite3_malloc(1);
        if (path != NULL) {
            path[0] = '\0';
        }
    }
    if (rc != SQLITE_OK || path == NULL) {
        sqlite3_free(path);
        st->scan_rc = SQLITE_NOMEM;
        return 1;
    }
    writer_column *column = &st->columns[chunk->column];
    if (column->path == NULL) {
        *column = (writer_column){.path = path,
                                  .path_bytes = bytes,
                                  .physical_type = chunk->physical_type,
                                  .type_length = chunk->type_length};
        return 0;
    }
    int same = column->path_bytes == bytes && memcmp(column->path, path, (size_t)bytes) == 0 &&
               column->physical_type == chunk->physical_type;
    if (!same) {
        s = sqlite3_str_new(NULL);
        sqlite3_str_appendf(s, "row group %u, column chunk %u: its path_in_schema ",
                            chunk->row_group, chunk->column);
        sql_append_text(s, (const unsigned char *)path, bytes);
        sqlite3_str_appendf(s, " and type %d, where an earlier row group's are ",
                            chunk->physical_type);
        sql_append_text(s, (const unsigned char *)column->path, column->path_bytes);
        sqlite3_str_appendf(s, " and %d", column->physical_type);
        st->scan_message = sqlite3_str_finish(s);
        st->scan_rc = st->scan_message != NULL ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    sqlite3_free(path);
    return !same;
}

/* Walks SOURCE's footer into the columns and chunks, and checks that it can be rewritten. 0
** after setting the error. */
static int writer_scan(sqlite3_context *ctx, writer_state *st) {
    char why[PARQUET_WHY_MAX];
    const uint8_t *footer = st->footer.bytes;
    uint32_t length = st->footer.length;
    parquet_status status = parquet_footer_leaves(footer, length, &st->leaves, why);
    if (status != PARQUET_OK) {
        return writer_source_error(ctx, st, SQLITE_ERROR, "source ", ": %s", why);
    }
    st->columns = sqlite3_malloc64(((uint64_t)st->leaves + 1) * sizeof *st->columns);
    if (st->columns != NULL) {
        memset(st->columns, 0, ((size_t)st->leaves + 1) * sizeof *st->columns);
    }
    int32_t *scratch = sqlite3_malloc64(((uint64_t)st->leaves + 1) * sizeof *scratch);
    if (scratch == NULL || st->columns == NULL) {
        sqlite3_free(scratch);
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    status = parquet_footer_scan(footer, length, scratch, st->leaves, writer_visit, st, why);
    sqlite3_free(scratch);
    if (status == PARQUET_STOPPED && st->scan_rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    if (status == PARQUET_STOPPED) {
        return writer_source_error(ctx, st, SQLITE_ERROR, "source ", ": %s", st->scan_message);
    }
    size_t bytes = 0;
    if (status == PARQUET_OK) {
        status = parquet_footer_rewrite(footer, length, NULL, 0, NULL, 0, &bytes, why);
    }
    if (status != PARQUET_OK) {
        return writer_source_error(ctx, st, SQLITE_ERROR, "source ", ": %s", why);
    }
    return 1;
}

/* Copies SOURCE's bytes before its footer to DESTINATION. 0 after setting the error. */
static int writer_copy_data(sqlite3_context *ctx, writer_state *st) {
    char why[PARQUET_IO_WHY_MAX];
    uint64_t total = st->footer.data_end;
    size_t room = total < WRITER_COPY_BYTES ? (size_t)total : WRITER_COPY_BYTES;
    uint8_t *buffer = sqlite3_malloc64(room > 0 ? room : 1);
    if (buffer == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    int ok = 1;
    for (uint64_t at = 0; ok && at < total;) {
        size_t n = total - at < room ? (size_t)(total - at) : room;
        if (parquet_io_read(st->in, at, buffer, n, why) != 0) {
            ok = writer_source_error(ctx, st, SQLITE_ERROR, "cannot read source ", ": %s", why);
        } else if (parquet_io_write(st->out, buffer, n, why) != 0) {
            sqlite3_str *s = writer_message();
            sqlite3_str_appendall(s, "cannot write destination ");
            sql_append_value(s, st->destination);
            sqlite3_str_appendf(s, ": %s", why);
            ok = writer_error(ctx, s, SQLITE_ERROR);
        }
        at += n;
    }
    sqlite3_free(buffer);
    st->end = total;
    return ok;
}

/* The group's first row: SOURCE read and walked, DESTINATION created and given SOURCE's data.
** 0 after setting the error. */
static int writer_start(sqlite3_context *ctx, writer_state *st, sqlite3_value **argv) {
    const char *source, *destination, *why_not;
    if (!writer_read_path(ctx, argv[0], "source", &source) ||
        !writer_read_path(ctx, argv[1], "destination", &destination)) {
        return 0;
    }
    st->source = sqlite3_value_dup(argv[0]);
    st->destination = sqlite3_value_dup(argv[1]);
    if (st->source == NULL || st->destination == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    st->started = 1;
    st->in = parquet_io_open(source, &why_not);
    if (st->in == NULL) {
        return writer_source_error(ctx, st, SQLITE_ERROR, "cannot open source ", ": %s", why_not);
    }
    char why[PARQUET_WHY_MAX];
    int cannot_read = 0;
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    int rc = parquet_io_load_footer(st->in, limit, &st->footer, &cannot_read, why);
    if (rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    if (rc != SQLITE_OK) {
        return writer_source_error(ctx, st, rc, cannot_read ? "cannot read source " : "source ",
                                   ": %s", why);
    }
    if (!writer_scan(ctx, st)) {
        return 0;
    }
    int exists = 0;
    st->out = parquet_io_create(destination, &exists, &why_not);
    if (st->out == NULL) {
        sqlite3_str *s = writer_message();
        sqlite3_str_appendall(s, exists ? "destination " : "cannot create destination ");
        sql_append_value(s, st->destination);
        if (exists) {
            sqlite3_str_appendall(s, " exists: the function writes a new file, never over one");
        } else {
            sqlite3_str_appendf(s, ": %s", why_not);
        }
        return writer_error(ctx, s, SQLITE_ERROR);
    }
    st->created = 1;
    return writer_copy_data(ctx, st);
}

/* Checks that argument i, name, is the first row's (rule 31 (Parquet writes)). 0 after setting
** the error. */
static int writer_same(sqlite3_context *ctx, sqlite3_value *v, sqlite3_value *first,
                       const char *name) {
    const void *now = sqlite3_value_type(v) == SQLITE_TEXT ? sqlite3_value_text(v) : NULL;
    int bytes = sqlite3_value_bytes(v);
    if (now != NULL && bytes == sqlite3_value_bytes(first) &&
        memcmp(now, sqlite3_value_text(first), (size_t)bytes) == 0) {
        return 1;
    }
    sqlite3_str *s = writer_message();
    sqlite3_str_appendf(s, "%s must be the same for all rows of a group, got ", name);
    sql_append_value(s, v);
    sqlite3_str_appendall(s, " after ");
    sql_append_value(s, first);
    return writer_error(ctx, s, SQLITE_ERROR);
}

/* ---- A row ------------------------------------------------------------------------------- */

/* Finds the leaf COLUMN_PATH names into *column. 0 after setting the error. */
static int writer_find_column(sqlite3_context *ctx, const writer_state *st, sqlite3_value *v,
                              uint32_t *column) {
    if (sqlite3_value_type(v) != SQLITE_TEXT) {
        sql_error_value(ctx, writer_function,
                        "column_path must be TEXT, a column's path_in_schema joined by '.'", v);
        return 0;
    }
    const char *text = (const char *)sqlite3_value_text(v);
    int bytes = sqlite3_value_bytes(v);
    if (text == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    uint32_t found = 0;
    for (uint32_t c = 0; c < st->leaves; c++) {
        const writer_column *col = &st->columns[c];
        if (col->path != NULL && col->path_bytes == bytes &&
            memcmp(col->path, text, (size_t)bytes) == 0) {
            *column = c;
            found++;
        }
    }
    if (found == 1) {
        return 1;
    }
    sqlite3_str *s = writer_message();
    if (found > 1) {
        sqlite3_str_appendall(s, "column_path ");
        sql_append_value(s, v);
        sqlite3_str_appendf(s, " names %u columns of source ", found);
        sql_append_value(s, st->source);
        sqlite3_str_appendall(s, ", whose names hold a '.'");
        return writer_error(ctx, s, SQLITE_ERROR);
    }
    sqlite3_str_appendall(s, "no column ");
    sql_append_value(s, v);
    sqlite3_str_appendall(s, " in source ");
    sql_append_value(s, st->source);
    uint32_t listed = 0, named = 0;
    for (uint32_t c = 0; c < st->leaves; c++) {
        const writer_column *col = &st->columns[c];
        if (col->path == NULL) {
            continue;
        }
        if (listed < WRITER_COLUMNS_LISTED) {
            sqlite3_str_appendall(s, listed == 0 ? "; its columns are " : ", ");
            sql_append_text(s, (const unsigned char *)col->path, col->path_bytes);
            listed++;
        }
        named++;
    }
    if (named > listed) {
        sqlite3_str_appendf(s, " and %u more", named - listed);
    }
    return writer_error(ctx, s, SQLITE_ERROR);
}

/* Reads ROW_GROUP: NULL (every row group: -1) or an INTEGER naming one of SOURCE's, into
** *row_group. 0 after setting the error. */
static int writer_read_row_group(sqlite3_context *ctx, const writer_state *st, sqlite3_value *v,
                                 int64_t *row_group) {
    if (sqlite3_value_type(v) == SQLITE_NULL) {
        *row_group = -1;
        return 1;
    }
    if (sqlite3_value_type(v) != SQLITE_INTEGER) {
        sql_error_value(ctx, writer_function,
                        "row_group must be an INTEGER from 0, or NULL for every row group", v);
        return 0;
    }
    *row_group = sqlite3_value_int64(v);
    if (*row_group >= 0 && *row_group < (int64_t)st->row_groups) {
        return 1;
    }
    sqlite3_str *s = writer_message();
    sqlite3_str_appendf(s, "row_group %lld is not in source ", (long long)*row_group);
    sql_append_value(s, st->source);
    if (st->row_groups == 1) {
        sqlite3_str_appendall(s, ", whose only row group is 0");
    } else {
        sqlite3_str_appendf(s, ", whose row groups are 0 to %u", st->row_groups - 1);
    }
    return writer_error(ctx, s, SQLITE_ERROR);
}

/* Reads FILTER, a 'parquet' filter of the physical type of the column PATH names, into *f. 0
** after setting the error. */
static int writer_read_filter(sqlite3_context *ctx, const writer_state *st, sqlite3_value *v,
                              sqlite3_value *path, const writer_column *column, filter_view *f) {
    char type[FILTER_TYPE_TEXT_MAX], filter_type[FILTER_TYPE_TEXT_MAX];
    uint32_t length = column->type_length > 0 ? (uint32_t)column->type_length : 0;
    const char *column_type = parquet_type_text(column->physical_type, length, type);
    if (column->physical_type == WRITER_TYPE_BOOLEAN ||
        parquet_type_name(column->physical_type) == NULL) {
        sqlite3_str *s = writer_message();
        writer_append_column(s, st, path);
        if (column->physical_type == WRITER_TYPE_BOOLEAN) {
            sqlite3_str_appendall(s, " is BOOLEAN, which no 'parquet' filter is");
        } else {
            sqlite3_str_appendf(s, " is of physical type %d, none of Parquet's",
                                column->physical_type);
        }
        return writer_error(ctx, s, SQLITE_ERROR);
    }
    int read = sql_read_filter_arg(ctx, writer_function, v, NULL, f);
    if (read == SQL_FILTER_ERROR) {
        return 0;
    }
    if (read == SQL_FILTER_NULL) {
        sqlite3_str *s = writer_message();
        sqlite3_str_appendall(s, "the filter for ");
        writer_append_column(s, st, path);
        sqlite3_str_appendf(s,
                            " is NULL: a subquery that found no row? (an empty filter is "
                            "bloom_empty(n, p, 'parquet %s'))",
                            column_type);
        return writer_error(ctx, s, SQLITE_ERROR);
    }
    if (f->kind != &parquet_kind) {
        sqlite3_str *s = writer_message();
        sqlite3_str_appendall(s, "the filter for ");
        writer_append_column(s, st, path);
        sqlite3_str_appendf(s,
                            " is a '%s' filter, not a Parquet one; build one with "
                            "bloom_build(key, n, p, 'parquet %s')",
                            f->kind->name, column_type);
        return writer_error(ctx, s, SQLITE_ERROR);
    }
    parquet_header h = parquet_header_of(f);
    int fits = h.type != PARQUET_UNTYPED && (int32_t)h.type == column->physical_type &&
               (h.type_length == 0 || h.type_length == length);
    if (fits) {
        return 1;
    }
    sqlite3_str *s = writer_message();
    writer_append_column(s, st, path);
    sqlite3_str_appendf(
        s, " is %s, the filter %s%s; build it with bloom_build(key, n, p, 'parquet %s')",
        column_type, h.type == PARQUET_UNTYPED ? "has " : "",
        parquet_type_text(h.type, h.type_length, filter_type), column_type);
    return writer_error(ctx, s, SQLITE_ERROR);
}

/* Checks the chunks a row gives a filter: none encrypted, without metadata, with its data
** elsewhere, or given one already. 0 after setting the error. */
static int writer_check_chunks(sqlite3_context *ctx, const writer_state *st, sqlite3_value *path,
                               uint32_t column, int64_t row_group) {
    uint32_t first = row_group < 0 ? 0 : (uint32_t)row_group;
    uint32_t last = row_group < 0 ? st->row_groups - 1 : (uint32_t)row_group;
    for (uint32_t g = first; g <= last; g++) {
        uint8_t chunk = st->chunks[(size_t)g * st->leaves + column];
        const char *problem =
            chunk & CHUNK_GIVEN       ? " is given a filter twice"
            : chunk & CHUNK_ENCRYPTED ? " is encrypted, and its filter would have to be: "
                                        "bloom_parquet_write does not encrypt"
            : !(chunk & CHUNK_METADATA)
                ? " has no metadata (ColumnChunk.meta_data) to give a filter"
            : chunk & CHUNK_ELSEWHERE ? " keeps its data in another file (its file_path), whose "
                                        "filter would be there"
                                      : NULL;
        if (problem != NULL) {
            sqlite3_str *s = writer_message();
            sqlite3_str_appendf(s, "row group %u of ", g);
            writer_append_column(s, st, path);
            sqlite3_str_appendall(s, problem);
            return writer_error(ctx, s, SQLITE_ERROR);
        }
    }
    return 1;
}

/* Appends the filter's bloom_to_parquet bytes to DESTINATION, for the row kept. 0 after setting
** the error. */
static int writer_append_filter(sqlite3_context *ctx, writer_state *st, const filter_view *f,
                                uint32_t column, int64_t row_group) {
    uint8_t header[PARQUET_BLOOM_HEADER_MAX];
    uint64_t bitset = f->bytes - FILTER_HEADER_BYTES;
    size_t header_bytes = parquet_bloom_header_write(header, (uint32_t)bitset);
    char why[PARQUET_IO_WHY_MAX];
    writer_row *rows = sql_grown(st->rows, &st->capacity, st->count + 1, sizeof *rows, 8);
    if (rows == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    st->rows = rows;
    if (parquet_io_write(st->out, header, header_bytes, why) != 0 ||
        parquet_io_write(st->out, f->blob + FILTER_HEADER_BYTES, (size_t)bitset, why) != 0) {
        sqlite3_str *s = writer_message();
        sqlite3_str_appendall(s, "cannot write destination ");
        sql_append_value(s, st->destination);
        sqlite3_str_appendf(s, ": %s", why);
        return writer_error(ctx, s, SQLITE_ERROR);
    }
    rows[st->count++] = (writer_row){.column = column,
                                     .row_group = row_group,
                                     .offset = (int64_t)st->end,
                                     .length = (int32_t)(header_bytes + bitset)};
    st->end += header_bytes + bitset;
    uint32_t first = row_group < 0 ? 0 : (uint32_t)row_group;
    uint32_t last = row_group < 0 ? st->row_groups - 1 : (uint32_t)row_group;
    for (uint32_t g = first; g <= last; g++) {
        st->chunks[(size_t)g * st->leaves + column] |= CHUNK_GIVEN;
        st->given++;
    }
    return 1;
}

/* A row: its column, row group and filter checked, the filter appended. 0 after setting the
** error. */
static int writer_add(sqlite3_context *ctx, writer_state *st, sqlite3_value **argv) {
    uint32_t column = 0;
    int64_t row_group = -1;
    filter_view f;
    if (st->row_groups == 0) {
        return writer_source_error(ctx, st, SQLITE_ERROR, "source ",
                                   " has no row groups: no column chunk to give a filter");
    }
    return writer_find_column(ctx, st, argv[2], &column) &&
           writer_read_row_group(ctx, st, argv[3], &row_group) &&
           writer_read_filter(ctx, st, argv[4], argv[2], &st->columns[column], &f) &&
           writer_check_chunks(ctx, st, argv[2], column, row_group) &&
           writer_append_filter(ctx, st, &f, column, row_group);
}

/* bloom_parquet_write(SOURCE, DESTINATION, COLUMN_PATH, ROW_GROUP, FILTER), a row: rule 31
** (Parquet writes). */
static void bloom_parquet_write_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    writer_state *st = sqlite3_aggregate_context(ctx, sizeof *st);
    if (st == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (st->failed) {
        return; /* SQLite stops at the error set: a row after one is not seen */
    }
    int ok = st->started ? writer_same(ctx, argv[0], st->source, "source") &&
                               writer_same(ctx, argv[1], st->destination, "destination")
                         : writer_start(ctx, st, argv);
    if (!ok || !writer_add(ctx, st, argv)) {
        st->failed = 1;
    }
}

/* ---- The end ------------------------------------------------------------------------------ */

/* Orders places by row group, then column. */
static int writer_place_order(const void *a, const void *b) {
    const parquet_bloom_place *x = a, *y = b;
    if (x->row_group != y->row_group) {
        return x->row_group < y->row_group ? -1 : 1;
    }
    return x->column < y->column ? -1 : x->column > y->column;
}

/* Writes the footer, with each chunk given a filter pointing at it, its length and PAR1, and
** closes DESTINATION. 0 after setting the error. */
static int writer_finish(sqlite3_context *ctx, writer_state *st) {
    parquet_bloom_place *places = sqlite3_malloc64(((uint64_t)st->given + 1) * sizeof *places);
    if (places == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    size_t count = 0;
    for (size_t i = 0; i < st->count; i++) {
        const writer_row *row = &st->rows[i];
        uint32_t first = row->row_group < 0 ? 0 : (uint32_t)row->row_group;
        uint32_t last = row->row_group < 0 ? st->row_groups - 1 : (uint32_t)row->row_group;
        for (uint32_t g = first; g <= last; g++) {
            places[count++] = (parquet_bloom_place){g, row->column, row->offset, row->length};
        }
    }
    qsort(places, count, sizeof *places, writer_place_order);
    char why[PARQUET_WHY_MAX];
    size_t bytes = 0;
    const uint8_t *footer = st->footer.bytes;
    parquet_status status =
        parquet_footer_rewrite(footer, st->footer.length, places, count, NULL, 0, &bytes, why);
    int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
    uint8_t *written = NULL;
    int ok = 1;
    if (status != PARQUET_OK) {
        ok = writer_source_error(ctx, st, SQLITE_ERROR, "source ", ": %s", why);
    } else if (bytes > (size_t)limit) {
        sqlite3_str *s = writer_message();
        sqlite3_str_appendall(s, "the footer of destination ");
        sql_append_value(s, st->destination);
        sqlite3_str_appendf(s, " would be %llu bytes, more than SQLITE_LIMIT_LENGTH (%d)",
                            (unsigned long long)bytes, limit);
        ok = writer_error(ctx, s, SQLITE_TOOBIG);
    } else if ((written = sqlite3_malloc64(bytes + PARQUET_TAIL_BYTES)) == NULL) {
        sqlite3_result_error_nomem(ctx);
        ok = 0;
    } else if (parquet_footer_rewrite(footer, st->footer.length, places, count, written, bytes,
                                      &bytes, why) != PARQUET_OK) {
        ok = writer_source_error(ctx, st, SQLITE_ERROR, "source ", ": %s", why);
    }
    sqlite3_free(places);
    char reason[PARQUET_IO_WHY_MAX];
    if (ok) {
        uint8_t *tail = written + bytes;
        tail[0] = (uint8_t)bytes;
        tail[1] = (uint8_t)(bytes >> 8);
        tail[2] = (uint8_t)(bytes >> 16);
        tail[3] = (uint8_t)(bytes >> 24);
        memcpy(tail + 4, "PAR1", PARQUET_MAGIC_BYTES);
        FILE *out = st->out;
        st->out = NULL;
        if (parquet_io_write(out, written, bytes + PARQUET_TAIL_BYTES, reason) != 0) {
            fclose(out);
            ok = 0;
        } else if (parquet_io_close_written(out, reason) != 0) {
            ok = 0;
        }
        if (!ok) {
            sqlite3_str *s = writer_message();
            sqlite3_str_appendall(s, "cannot write destination ");
            sql_append_value(s, st->destination);
            sqlite3_str_appendf(s, ": %s", reason);
            writer_error(ctx, s, SQLITE_ERROR);
        }
    }
    sqlite3_free(written);
    return ok;
}

/* Closes the files, removes DESTINATION when the group failed after creating it, and frees the
** state's memory. */
static void writer_release(writer_state *st) {
    if (st->in != NULL) {
        fclose(st->in);
    }
    if (st->out != NULL) {
        fclose(st->out);
    }
    if (st->failed && st->created) {
        remove((const char *)sqlite3_value_text(st->destination));
    }
    for (uint32_t c = 0; st->columns != NULL && c < st->leaves; c++) {
        sqlite3_free(st->columns[c].path);
    }
    sqlite3_free(st->columns);
    sqlite3_free(st->chunks);
    sqlite3_free(st->rows);
    sqlite3_free(st->footer.bytes);
    sqlite3_free(st->scan_message);
    sqlite3_value_free(st->source);
    sqlite3_value_free(st->destination);
}

/* bloom_parquet_write, the end of the group: rule 31 (Parquet writes). NULL over no row.
**
** SQLite also ends the group of a statement it abandons (releasing the aggregate's context
** calls this), which it does not tell; the one case it shows is an allocation that failed (the
** connection's error code is then SQLITE_NOMEM until the statement ends): the group has failed,
** and DESTINATION is removed. */
static void bloom_parquet_write_final(sqlite3_context *ctx) {
    writer_state *st = sqlite3_aggregate_context(ctx, 0);
    if (st == NULL) {
        return;
    }
    if (!st->failed && st->started &&
        sqlite3_errcode(sqlite3_context_db_handle(ctx)) == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(ctx);
        st->failed = 1;
    }
    if (!st->failed && st->started) {
        if (writer_finish(ctx, st)) {
            sqlite3_result_int64(ctx, st->given);
        } else {
            st->failed = 1;
        }
    }
    writer_release(st);
}

const sql_function parquet_writer_functions[] = {
    {.name = "bloom_parquet_write",
     .nargs = 5,
     .step = bloom_parquet_write_step,
     .final = bloom_parquet_write_final,
     .effects = SQL_WRITES_FILES},
    SQL_WRONG_ARGUMENTS_AGGREGATE("bloom_parquet_write",
                                  "the form is bloom_parquet_write(source, destination, "
                                  "column_path, row_group, filter)"),
    {.name = NULL}, /* the end */
};
