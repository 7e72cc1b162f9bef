/*
** sql_memory.c: memory the extension allocates: arrays that grow, and advice. See sql_memory.h.
*/
/* madvise and MADV_HUGEPAGE, which the strict -std=c11 of the build hides without it. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE
#endif

#include "sql_memory.h"

#include "sql_api.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

void sql_advise_huge_pages(void *p, uint64_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (end > start) {
        madvise((void *)start, end - start, MADV_HUGEPAGE);
    }
#else
    (void)p;
    (void)bytes;
#endif
}

void *sql_grown(void *items, size_t *capacity, size_t wanted, size_t item_bytes, size_t first) {
    size_t grown = *capacity == 0 ? first : *capacity;
    while (grown < wanted) {
        grown *= 2;
    }
    void *more = sqlite3_realloc64(items, (sqlite3_uint64)grown * item_bytes);
    if (more != NULL) {
        *capacity = grown;
    }
    return more;
}
