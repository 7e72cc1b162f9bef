/*
** allocator.h: wrapping SQLite's allocator (SQLITE_CONFIG_MALLOC) in the C tests.
*/
#ifndef BLOOM_TEST_ALLOCATOR_H
#define BLOOM_TEST_ALLOCATOR_H

#include <sqlite3.h>

#include <stdio.h>
#include <stdlib.h>

/* Installs SQLite's allocator with xMalloc and xRealloc replaced by x_malloc and x_realloc,
** keeping the original in *original for them to call; exits, naming program, on failure.
** Call before SQLite is initialized. */
static void wrap_sqlite_allocator(sqlite3_mem_methods *original, void *(*x_malloc)(int),
                                  void *(*x_realloc)(void *, int), const char *program) {
    sqlite3_mem_methods wrapped;
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, original) != SQLITE_OK) {
        fprintf(stderr, "%s: cannot read the allocator\n", program);
        exit(2);
    }
    wrapped = *original;
    wrapped.xMalloc = x_malloc;
    wrapped.xRealloc = x_realloc;
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &wrapped) != SQLITE_OK) {
        fprintf(stderr, "%s: cannot install the allocator\n", program);
        exit(2);
    }
}

#endif
