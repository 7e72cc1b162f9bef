/*
** sql_memory.h: advice on memory the extension allocates (through SQLite).
*/
#ifndef SQL_MEMORY_H
#define SQL_MEMORY_H

#include <stdint.h>

/*
** Advises the kernel to back the whole 2 MB pages inside [p, p + bytes) with
** huge pages (Linux, transparent huge pages in "madvise" mode or "always").
** For memory read and written at random, such as a large filter being built or
** the key set of a filter sized at the end: an access then waits for one miss,
** not a TLB miss too. The memory is SQLite's allocation; only the advice is
** ours, and a refusal costs only speed.
*/
void sql_advise_huge_pages(void *p, uint64_t bytes);

#endif /* SQL_MEMORY_H */
