/*
** kind_list.h: every kind of filter, named once. FILTER_KINDS(X) expands
** X(ID, NAME) for each, in the order of their ids (1, 2, ..., which the
** table of kinds checks as it compiles): ID is the prelude's kind byte,
** NAME_kind its core (filter_kind, in its header below) and NAME_sql its SQL
** side (sql_kind, in NAME_sql.h). The table of kinds (filter_kinds.c) and the
** SQL side's (sql_kind_table.c) are both made from it, so that a kind without its
** SQL side does not link. The first is bloom_build's default. A new kind adds
** its line, and its core's header here.
*/
#ifndef KIND_LIST_H
#define KIND_LIST_H

#include "bloom_core.h"
#include "counting_core.h"
#include "countmin_core.h"
#include "cuckoo_core.h"
#include "fuse_core.h"
#include "parquet_core.h"
#include "scalable_core.h"
#include "spark_core.h"

#define FILTER_KINDS(X)                                                                            \
    X(BLOOM_LAYOUT_STANDARD, bloom_standard)                                                       \
    X(BLOOM_LAYOUT_BLOCKED, bloom_blocked)                                                         \
    X(COUNTING_KIND, counting)                                                                     \
    X(CUCKOO_KIND, cuckoo)                                                                         \
    X(SCALABLE_KIND, scalable)                                                                     \
    X(COUNTMIN_KIND, countmin)                                                                     \
    X(PARQUET_KIND, parquet)                                                                       \
    X(FUSE_KIND, fuse)                                                                             \
    X(SPARK_KIND, spark)

/* The number of kinds. */
#define FILTER_KIND_ONE(id, name) +1
enum { FILTER_KIND_COUNT = 0 FILTER_KINDS(FILTER_KIND_ONE) };

#endif /* KIND_LIST_H */
