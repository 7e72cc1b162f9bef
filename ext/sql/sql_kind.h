/*
** sql_kind.h: what a kind gives the SQL functions every kind shares
** (filter_functions.c): its part of bloom_build, filled by name; and the help
** every kind's SQL side uses to allocate and grow a filter. The rest (probe,
** add, union, bloom_info's fields) goes through the kind's core (filter_kind,
** filter_kinds.h). The table of SQL kinds is sql_kind_table.h.
*/
#ifndef SQL_KIND_H
#define SQL_KIND_H

#include "sql_api.h"

#include "filter.h"
#include "key_set.h"

struct sql_kind;

/* Key hashes a build sized at the end holds before it inserts them into its key set. */
enum { BUILD_PENDING_KEYS = 64 };

/* The state of bloom_build for one group (of bloom_empty for a call): the first member of
** every kind's own state, zeroed before the first row. */
typedef struct build_state {
    const struct sql_kind *kind;
    const char *func;  /* the SQL function, for messages: bloom_build or bloom_empty */
    int failed;        /* a row failed: xFinal only frees */
    uint64_t n;        /* the capacity N, or 0 when the filter is sized at the end */
    double p;          /* the rate P */
    uint64_t keys;     /* non-NULL keys added, counting repeats */
    key_set seen;      /* sized at the end: the distinct key hashes so far */
    int pending_count; /* and how many more wait in pending */
    key_hash pending[BUILD_PENDING_KEYS];
    uint8_t *blob; /* the filter, once sized */
    uint64_t bytes;
    uint64_t *whole;         /* a kind built whole (build_whole): the h1 of each key so far */
    uint64_t whole_count;    /* keys in whole, counting repeats */
    uint64_t whole_capacity; /* and the room it has */
    uint64_t variant;        /* the kind's variant (read_variant), 0 when its name stood alone */
    /* The kind argument of the group's first row, as bytes, for the quick check of later rows
    ** (0 bytes: none, or too long to keep, so that every row is read the long way). */
    uint8_t kind_text_bytes;
    char kind_text[47];
} build_state;

/* The most arguments a live table of one kind takes. */
enum { SQL_TABLE_ARGUMENTS_MAX = 3 };

/*
** The arguments a live table (rule 26 (live table)) of a kind takes besides kind: their names,
** in the order the SELECT of its empty filter binds them (?1, ?2, ...), the first `required` of
** them needed; how messages call the table's filters and one of them, and list the arguments;
** and that SELECT, by a function whose name (empty_function) begins its errors.
*/
typedef struct sql_table_arguments {
    const char *names[SQL_TABLE_ARGUMENTS_MAX];
    int required;
    const char *filters;   /* "count-min sketches" */
    const char *filter;    /* "count-min sketch" */
    const char *listed;    /* "epsilon and delta (and update)" */
    const char *empty_sql; /* "SELECT cms_empty(?1, ?2, coalesce(?3, 'plain'))" */
    const char *empty_function;
} sql_table_arguments;

typedef struct sql_kind {
    const filter_kind *kind;  /* its core */
    size_t build_state_bytes; /* the size of its state: a build_state, then its own fields */
    /* Optional: on the first row of a group, in xStep (or in a scalar), what the kind works
    ** out once: its variant (st->variant) taken into its own state, and what sizing at st->p can
    ** work out once for the statement, which the kind may keep as auxdata on argument
    ** rate_argument, the P argument (-1 when P is not an argument). */
    void (*build_plan)(sqlite3_context *ctx, build_state *st, int rate_argument);
    /* Optional: for a kind whose name the kind argument may follow with a space and a variant
    ** ('parquet INT32': a Parquet filter's physical type), the variant that text names, as a
    ** number of the kind's own other than 0, into *variant; 0 when it names none. NULL: the
    ** kind's name stands alone. */
    int (*read_variant)(const char *text, uint64_t *variant);
    /* With read_variant: what the variant names and may be, for the error. */
    const char *variant_help;
    /* Optional (with build_add and build_finish): sizes the filter for n keys at st->p and
    ** allocates st->blob, with no key in it; 0 after setting the error (rule 13 (memory and
    ** limits)). NULL: bloom_build cannot build the kind, whose own aggregate, named by
    ** build_instead, does. */
    int (*build_size)(sqlite3_context *ctx, build_state *st, uint64_t n);
    /* Optional: the hash of key (read from value) for the filter st builds, into *out, for a
    ** kind whose keys hash by what the build saw before (a Parquet filter takes its type from its
    ** first key); 0 after setting the error of a key it cannot take. NULL: sql_kind_hash_key. */
    int (*build_hash)(sqlite3_context *ctx, build_state *st, sqlite3_value *value,
                      const key_value *key, key_hash *out);
    /* Optional: a static kind, built once from its whole set of keys: at the end of the group,
    ** makes st->blob from the keys kept in st->whole (their order and repeats do not matter),
    ** with scratch memory it allocates and frees; 0 after setting the error. Keys are then kept
    ** instead of added: build_size and build_add are not called, nor needed. */
    int (*build_whole)(sqlite3_context *ctx, build_state *st);
    /* Adds key to st->blob: FILTER_OK, or FILTER_FULL when it has no room. */
    filter_status (*build_add)(build_state *st, key_hash key);
    /* Writes st->keys into st->blob as the keys added, before it becomes the result. NULL:
    ** adding kept the count. */
    void (*build_finish)(build_state *st);
    /* 1 when each repeat of a key counts (so that it can be removed as often as it was added):
    ** then a filter sized at the end, from the distinct keys, could not hold the repeats, and
    ** bloom_build needs N (rule 4 (sized at the end)). */
    int counts_repeats;
    /* A kind bloom_build cannot build: what builds it, for the message. */
    const char *build_instead;
    /* Optional: other names users give the kind ("count-min"), NULL-terminated, which the
    ** argument kind answers as its own name: bloom_build then says what builds it, a live table
    ** what its name is (rule 14 (errors)). */
    const char *const *other_names;
    /* Optional: the arguments a live table of the kind takes, for a kind that takes others than
    ** n and p (a sketch's epsilon, delta and update). NULL: n and p, as bloom_empty takes them. */
    const sql_table_arguments *table_arguments;
} sql_kind;

/* The hash of key for a filter being built by st: by its kind's hash (filter_hash_key). */
key_hash sql_kind_hash_key(const build_state *st, const key_value *key);

/*
** Allocates st->blob, zeroed, of bytes_needed bytes for a filter for n keys (sizing said
** fits: whether the core could size it at all) and sets st->bytes; 0 after setting the error:
** TOOBIG, naming n, p and the bytes, when it does not fit or is over SQLITE_LIMIT_LENGTH
** (rule 13 (memory and limits)), or NOMEM.
*/
int sql_kind_allocate(sqlite3_context *ctx, build_state *st, uint64_t n, double bytes_needed,
                      int fits);

/* Grows the filter in *blob (*bytes long, from sqlite3_malloc64, one this code wrote, of a kind
** that grows) by the room its kind's grow_size asks for, reallocating it. Returns 1, or 0 after
** setting the error of func, the filter unchanged: it cannot grow, or would pass
** SQLITE_LIMIT_LENGTH, or NOMEM. */
int sql_kind_grow(sqlite3_context *ctx, const char *func, uint8_t **blob, uint64_t *bytes);

/* Why a filter cannot grow, and what to do, by its kind's grow_size's status. */
const char *sql_kind_cannot_grow_reason(filter_status status);

#endif /* SQL_KIND_H */
