/*
** bloom_sql.h: the SQL side of the standard and blocked Bloom kinds
** (bloom_sql.c), for the table of the kinds' SQL sides (sql_kind_table.c), and the
** parts of it that kinds built on a Bloom filter (the counting filter) share.
*/
#ifndef BLOOM_SQL_H
#define BLOOM_SQL_H

#include "sql_api.h"

#include "bloom_core.h"
#include "bloom_model.h"
#include "sql_kind.h"

extern const sql_kind bloom_standard_sql, bloom_blocked_sql;

/*
** Sizes a filter of layout's positions for n keys at common->p, whose
** positions take position_bits bits each (1 for a bit, 4 for a counter), and
** allocates common->blob, zeroed, and common->bytes; header receives the
** sizing. design is the blocked layout's for p, or NULL. Returns 0 after
** setting the error (rule 13 (memory and limits)).
*/
int bloom_sql_size(sqlite3_context *ctx, build_state *common, uint64_t n, int layout,
                   const bloom_blocked_design *design, unsigned position_bits,
                   bloom_header *header);

#endif /* BLOOM_SQL_H */
