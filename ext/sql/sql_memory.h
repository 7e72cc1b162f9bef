/*
** sql_memory.h: memory the extension allocates (through SQLite): arrays that grow, and advice.
*/
#ifndef SQL_MEMORY_H
#define SQL_MEMORY_H

#include <stddef.h>
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

/* The array items, of *capacity items of item_bytes (sqlite3_malloc64's, or NULL), grown to hold
** at least wanted: its capacity doubled, from first, its new capacity into *capacity. NULL when
** memory runs out, items and *capacity as they were. */
void *sql_grown(void *items, size_t *capacity, size_t wanted, size_t item_bytes, size_t first);

#endif /* SQL_MEMORY_H */
