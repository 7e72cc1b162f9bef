/*
** sql_stored.h: a filter stored in a table's cell, read and written in place
** through SQLite's incremental BLOB I/O (rule 19 (in place)): only the
** header and the bytes an operation touches are read, and only the bytes it
** changes are written, all of them or none.
*/
#ifndef SQL_STORED_H
#define SQL_STORED_H

#include "sql_api.h"

#include "filter.h"

/* Bytes of the pieces a stored filter is read in: one cache line of the blocked layout. */
enum { STORED_LINE_BYTES = 64 };

/* A piece of the stored BLOB as read, and as an operation left it. */
typedef struct stored_line {
    uint64_t index; /* offset / STORED_LINE_BYTES */
    uint32_t bytes; /* STORED_LINE_BYTES, less at the BLOB's end */
    uint8_t was[STORED_LINE_BYTES];
    uint8_t now[STORED_LINE_BYTES];
} stored_line;

/* A filter open in its cell. */
typedef struct stored_filter {
    sqlite3_context *ctx;
    const char *func;
    char *where; /* "schema.table.column, rowid R", for messages */
    sqlite3_blob *blob;
    uint8_t header[FILTER_HEADER_BYTES];
    filter_view view; /* of header; bytes is the whole BLOB's */
    int rc;           /* SQLite's code of a read or write that failed */
    stored_line *lines;
    int line_count, line_capacity;
    sqlite3_int64 rowid;
    struct stored_target *target; /* the column, checked (sql_target.h) */
} stored_filter;

/*
** Opens the filter in the cell that the arguments TABLE, COLUMN and ROWID
** (argv[0..2]) of func name, for writing when writable: checks the column for
** a reader or a writer (sql_target.h), that the cell holds a BLOB, then reads
** and validates its header. Returns 1, or 0 after setting the error (s then
** needs no close).
*/
int stored_open(sqlite3_context *ctx, const char *func, sqlite3_value **argv, int writable,
                stored_filter *s);

/* The filter_io of s: reads from the cell, writes kept until stored_commit. */
filter_io stored_io(stored_filter *s);

/* Sets the error of an operation on s that failed with FILTER_IO_FAILED. */
void stored_io_error(stored_filter *s);

/* Writes every byte the operations changed, and the header as this code writes the kind, all
** or none: after a failed write, what was written is written back. Returns 1, or 0 after
** setting the error. */
int stored_commit(stored_filter *s);

/* Adds key to the filter of s, whose add_io answered FILTER_FULL, by growing a copy of the
** whole filter and replacing the cell with it by an UPDATE (a kind that grows; nothing written
** through s before). Returns 1, or 0 after setting the error, the cell unchanged. */
int stored_add_growing(stored_filter *s, key_hash key);

/* Closes s, dropping what was not committed. */
void stored_close(stored_filter *s);

#endif /* SQL_STORED_H */
