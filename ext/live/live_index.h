/*
** live_index.h: a live table's index over its filters (rule 26 (live table), docs/format.md
** section 7): which of many filters might hold a key, from a few rows whatever their number.
**
** Filters of a kind that probes by bits (probe_bits) and of one geometry (the same bits tested
** for a key) form a class; each filter of a class is a column, and the index keeps its bits
** transposed: the row of position b of a group of columns holds bit b of each of them, so that a
** key's k rows, ANDed, are the columns that might hold it. INSERT INTO t(t) VALUES ('optimize')
** makes it (live_index_build); a filter changed or dropped since, or made since, has no column
** that answers for it (its class's stale row says so) and is probed itself. Its rows are rows of
** %_chunks at negative ids, below every filter's:
**
**   id = -1 - (class << 48 | group << 32 | position)
**     position < a filter's body bits: the group's bits at that position (absent: all 0)
**     position LIVE_INDEX_MAP: the group's columns' filter ids, 4 bytes each
**     position LIVE_INDEX_STALE: the group's stale columns, a bit each (absent: none)
**     group LIVE_INDEX_HEAD, position 0: the class: a filter's header, its length, the columns
**     and the columns a row holds
*/
#ifndef LIVE_INDEX_H
#define LIVE_INDEX_H

#include "live_rows.h"

#include <stddef.h>

/* A filter that might hold a key: its id, and whether the index answered for it (1) or it is to
** be probed (0). */
typedef struct live_candidate {
    sqlite3_int64 id;
    int known;
} live_candidate;

/* The candidates of a lookup, an array that grows. */
typedef struct live_candidates {
    live_candidate *items;
    size_t count, capacity;
} live_candidates;

/* Reads the index's rows into s, once after its list of filters was read (live_store_load):
** its classes, each column's filter, and the filters no column answers for. SQLITE_OK, or
** SQLITE_CORRUPT_VTAB with the store's error naming the row that does not fit. */
int live_index_load(live_store *s);

/* Whether s has an index (after live_index_load). */
int live_index_present(const live_store *s);

/* Before f changes or goes: its column answers no more (its bit in the stale row written), and f
** is probed itself. */
int live_index_forget(live_store *s, live_filter *f);

/* After f was made: no column answers for it. */
int live_index_added(live_store *s, live_filter *f);

/* The filters that might hold key into c (emptied first), in the order of their ids: those of
** the columns whose rows of its bits are all set (known), and those no column answers for. */
int live_index_candidates(live_store *s, const key_value *key, live_candidates *c);

/* Frees what c holds. */
void live_candidates_free(live_candidates *c);

/* 'optimize': makes the index again from every filter of s, its rows replaced; a table with an
** index is written as storage version 2. */
int live_index_build(live_store *s);

/* Checks the index's rows (PRAGMA integrity_check, quick_check): each a row of a class, group
** and position that exist, of its length; unless quick, each column that answers equal to its
** filter's bits. SQLITE_OK, or SQLITE_CORRUPT_VTAB with the store's error naming the first
** problem. */
int live_index_integrity(live_store *s, int quick);

#endif /* LIVE_INDEX_H */
