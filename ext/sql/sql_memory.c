/*
** sql_memory.c: advice on memory the extension allocates. See sql_memory.h.
*/
/* madvise and MADV_HUGEPAGE, which the strict -std=c11 of the build hides without it. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE
#endif

#include "sql_memory.h"

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
