/*
** parquet_io.h: a Parquet file through stdio at 64-bit offsets, for bloom_parquet_filters (rule
** 29 (Parquet files)) and bloom_parquet_write: a regular file opened for reading without
** waiting, its size, reads at an offset, its footer found, checked and read whole; and a new
** file created (never one that is there), written and closed.
*/
#ifndef PARQUET_IO_H
#define PARQUET_IO_H

#include "sql_api.h"

#include "parquet_footer.h"

#include <stdint.h>
#include <stdio.h>

enum { PARQUET_IO_WHY_MAX = 64 }; /* room for the reason a read or write failed */

/* Opens path for reading: the FILE (unbuffered: reads are few and large), or NULL with the reason
** in *why_not. On POSIX systems only a regular file (not a directory, a FIFO that would wait for a
** writer, a device), opened without waiting. */
FILE *parquet_io_open(const char *path, const char **why_not);

/* The open file's size into *size: 0, or -1 with the reason in why. */
int parquet_io_size(FILE *file, uint64_t *size, char why[PARQUET_IO_WHY_MAX]);

/* Reads bytes bytes at offset into out: 0, or -1 with the reason in why (an error, or the file
** ending first, as one shortened since its size was taken does). */
int parquet_io_read(FILE *file, uint64_t offset, void *out, size_t bytes,
                    char why[PARQUET_IO_WHY_MAX]);

/* A file's footer, read whole. */
typedef struct parquet_io_footer {
    uint64_t size;     /* the file's bytes */
    uint64_t data_end; /* where the footer starts: the file's data is bytes [4, data_end) */
    uint8_t *bytes;    /* the footer, from sqlite3_malloc64: the caller frees it */
    uint32_t length;
} parquet_io_footer;

/*
** Finds, checks and reads the footer of the open file, of at most limit bytes (the connection's
** SQLITE_LIMIT_LENGTH): SQLITE_OK with *footer; SQLITE_ERROR with why (PARQUET_WHY_MAX bytes) and
** *cannot_read 1 when a read failed (why: the reason), 0 when the file is not a Parquet file this
** reads (why: parquet_footer_locate's or parquet_head_check's message); SQLITE_TOOBIG with why;
** SQLITE_NOMEM. The footer is checked for its place only, not walked.
*/
int parquet_io_load_footer(FILE *file, int limit, parquet_io_footer *footer, int *cannot_read,
                           char *why);

/* Creates path for writing, a file that must not be there (a symbolic link there, even dangling,
** counts): the FILE, or NULL with the reason in *why_not and *exists 1 when the path was taken.
** Nothing that is there is ever truncated or replaced. */
FILE *parquet_io_create(const char *path, int *exists, const char **why_not);

/* Writes bytes bytes to the file: 0, or -1 with the reason in why. */
int parquet_io_write(FILE *file, const void *bytes, size_t n, char why[PARQUET_IO_WHY_MAX]);

/* Closes a file written, flushing what stdio holds: 0, or -1 with the reason in why (the file
** is closed either way). */
int parquet_io_close_written(FILE *file, char why[PARQUET_IO_WHY_MAX]);

#endif /* PARQUET_IO_H */
