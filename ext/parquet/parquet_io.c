/*
** parquet_io.c: a Parquet file through stdio at 64-bit offsets. See parquet_io.h.
*/
#if !defined(_WIN32)
/* fseeko and ftello, with a 64-bit off_t on 32-bit hosts too; the strict -std=c11 hides them. */
#define _FILE_OFFSET_BITS 64
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#endif

#include "sql_api.h"

#include "parquet_io.h"

#include <errno.h>
#include <string.h>

#if !defined(_WIN32)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#endif

/* Writes errno's text, or fallback when errno is 0, to why. */
static void parquet_io_reason(char why[PARQUET_IO_WHY_MAX], const char *fallback) {
    snprintf(why, PARQUET_IO_WHY_MAX, "%s", errno != 0 ? strerror(errno) : fallback);
}

FILE *parquet_io_open(const char *path, const char **why_not) {
#if defined(_WIN32)
    struct _stat64 st;
    if (_stat64(path, &st) == 0 && (st.st_mode & _S_IFMT) == _S_IFDIR) {
        *why_not = strerror(EISDIR);
        return NULL;
    }
    FILE *file = fopen(path, "rb");
    *why_not = file == NULL ? strerror(errno) : NULL;
    if (file != NULL) {
        setvbuf(file, NULL, _IONBF, 0); /* reads are few and large: no copy through a buffer */
    }
    return file;
#else
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        *why_not = strerror(errno);
        return NULL;
    }
    struct stat st;
    FILE *file = NULL;
    if (fstat(fd, &st) != 0) {
        *why_not = strerror(errno);
    } else if (!S_ISREG(st.st_mode)) {
        *why_not = S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file";
    } else if ((file = fdopen(fd, "rb")) == NULL) {
        *why_not = strerror(errno);
    } else {
        setvbuf(file, NULL, _IONBF, 0); /* reads are few and large: no copy through a buffer */
    }
    if (file == NULL) {
        close(fd);
    }
    return file;
#endif
}

/* Moves the file to offset: 0, or -1 with errno. */
static int parquet_io_seek(FILE *file, uint64_t offset) {
#if defined(_WIN32)
    return _fseeki64(file, (__int64)offset, SEEK_SET);
#else
    return fseeko(file, (off_t)offset, SEEK_SET);
#endif
}

int parquet_io_size(FILE *file, uint64_t *size, char why[PARQUET_IO_WHY_MAX]) {
    errno = 0;
#if defined(_WIN32)
    __int64 end = _fseeki64(file, 0, SEEK_END) == 0 ? _ftelli64(file) : -1;
#else
    off_t end = fseeko(file, 0, SEEK_END) == 0 ? ftello(file) : -1;
#endif
    if (end < 0) {
        parquet_io_reason(why, "its size cannot be told");
        return -1;
    }
    *size = (uint64_t)end;
    return 0;
}

int parquet_io_read(FILE *file, uint64_t offset, void *out, size_t bytes,
                    char why[PARQUET_IO_WHY_MAX]) {
    errno = 0;
    if (parquet_io_seek(file, offset) == 0 && fread(out, 1, bytes, file) == bytes) {
        return 0;
    }
    if (errno != 0) {
        parquet_io_reason(why, "");
    } else {
        snprintf(why, PARQUET_IO_WHY_MAX, "it ends before byte %llu",
                 (unsigned long long)(offset + bytes));
    }
    return -1;
}

int parquet_io_load_footer(FILE *file, int limit, parquet_io_footer *footer, int *cannot_read,
                           char *why) {
    char reason[PARQUET_IO_WHY_MAX];
    uint8_t tail[PARQUET_TAIL_BYTES] = {0}, head[PARQUET_MAGIC_BYTES];
    uint64_t size = 0, offset = 0;
    uint32_t length = 0;
    *cannot_read = 1;
    if (parquet_io_size(file, &size, reason) != 0 ||
        (size >= PARQUET_MIN_FILE_BYTES &&
         parquet_io_read(file, size - PARQUET_TAIL_BYTES, tail, sizeof tail, reason) != 0)) {
        snprintf(why, PARQUET_WHY_MAX, "%s", reason);
        return SQLITE_ERROR;
    }
    *cannot_read = 0;
    if (parquet_footer_locate(size, tail, &offset, &length, why) != PARQUET_OK) {
        return SQLITE_ERROR;
    }
    if (parquet_io_read(file, 0, head, sizeof head, reason) != 0) {
        *cannot_read = 1;
        snprintf(why, PARQUET_WHY_MAX, "%s", reason);
        return SQLITE_ERROR;
    }
    if (parquet_head_check(head, why) != PARQUET_OK) {
        return SQLITE_ERROR;
    }
    if (limit < 0 || length > (uint32_t)limit) {
        snprintf(why, PARQUET_WHY_MAX, "a footer of %u bytes, more than SQLITE_LIMIT_LENGTH (%d)",
                 length, limit);
        return SQLITE_TOOBIG;
    }
    uint8_t *bytes = sqlite3_malloc64(length);
    if (bytes == NULL) {
        return SQLITE_NOMEM;
    }
    if (parquet_io_read(file, offset, bytes, length, reason) != 0) {
        sqlite3_free(bytes);
        *cannot_read = 1;
        snprintf(why, PARQUET_WHY_MAX, "%s", reason);
        return SQLITE_ERROR;
    }
    *footer =
        (parquet_io_footer){.size = size, .data_end = offset, .bytes = bytes, .length = length};
    return SQLITE_OK;
}

FILE *parquet_io_create(const char *path, int *exists, const char **why_not) {
    /* "x" (C11): created exclusively, O_CREAT | O_EXCL, which fails on any name that is there. */
    errno = 0;
#if defined(_WIN32)
    /* msvcrt's fopen ignores "x": _O_EXCL through _open. */
    int fd = _open(path, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
    FILE *file = fd >= 0 ? _fdopen(fd, "wb") : NULL;
    if (fd >= 0 && file == NULL) {
        _close(fd);
    }
#else
    FILE *file = fopen(path, "wbx");
#endif
    *exists = file == NULL && errno == EEXIST;
    *why_not = file == NULL ? (errno != 0 ? strerror(errno) : "it cannot be created") : NULL;
    return file;
}

int parquet_io_write(FILE *file, const void *bytes, size_t n, char why[PARQUET_IO_WHY_MAX]) {
    errno = 0;
    if (n == 0 || fwrite(bytes, 1, n, file) == n) {
        return 0;
    }
    parquet_io_reason(why, "a write failed");
    return -1;
}

int parquet_io_close_written(FILE *file, char why[PARQUET_IO_WHY_MAX]) {
    errno = 0;
    if (fclose(file) == 0) {
        return 0;
    }
    parquet_io_reason(why, "closing it failed");
    return -1;
}
