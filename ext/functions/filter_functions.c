/*
** filter_functions.c: the SQL functions every kind answers: bloom_build,
** bloom_might_contain, bloom_add, bloom_union and bloom_info. They read and
** check the arguments, then hand the kind-specific work to the filter's kind
** (its core, filter_kind, and its SQL side, sql_kind). docs/functions.md
** states their behaviour as numbered rules, cited here as "rule N (title)".
*/
#include "filter_functions.h"

#include "filter_kinds.h"
#include "sql_args.h"
#include "sql_error.h"
#include "sql_filter.h"
#include "sql_kind_table.h"
#include "sql_memory.h"

#include <string.h>

/* bloom_might_contain(FILTER, KEY): rules 7 (probe) and 8 (validation). */
static void bloom_might_contain_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    filter_view f;
    key_hash key;
    if (sql_read_probe_filter(ctx, "bloom_might_contain", "filter", argv, &f) != SQL_FILTER_READ ||
        sql_read_key(ctx, argv[1], &f, &key) != SQL_KEY_READ) {
        return;
    }
    int answer = f.kind->might_contain(&f, key);
    char why[FILTER_REFUSAL_MAX];
    if (!answer && f.kind->probe_advice != NULL && /* the one kind with advice: Parquet's */
        filter_probe_refused(&f, key, sqlite3_value_type(argv[1]), why)) {
        sql_error_probe_refused(ctx, "bloom_might_contain", argv[1], why);
        return;
    }
    sqlite3_result_int(ctx, answer);
}

/* bloom_add and bloom_remove: a copy of FILTER with KEY added, or removed when removing
** (rules 9 (add) and 20 (remove)); FILTER itself for a NULL KEY. */
static void bloom_change_filter(sqlite3_context *ctx, sqlite3_value **argv, const char *func,
                                int removing) {
    filter_view f, copy;
    key_hash key;
    uint8_t *blob;
    if (sql_read_filter_arg(ctx, func, argv[0], argv[1], &f) != SQL_FILTER_READ) {
        return;
    }
    int read = sql_read_key(ctx, argv[1], &f, &key);
    if (read == SQL_KEY_NULL) {
        sqlite3_result_blob64(ctx, f.blob, f.bytes, SQLITE_TRANSIENT); /* a handle's too */
        return;
    }
    filter_ability ability = removing ? FILTER_REMOVES : FILTER_ADDS;
    if (!filter_kind_can(f.kind, ability)) {
        sql_error_cannot(ctx, func, f.kind, ability);
        return;
    }
    if (read != SQL_KEY_READ || (blob = sql_copy_filter(ctx, &f, &copy)) == NULL) {
        return;
    }
    uint64_t bytes = f.bytes;
    filter_status status =
        removing ? filter_remove(f.kind, blob, key) : filter_add(f.kind, blob, key);
    if (status == FILTER_FULL && filter_kind_can(f.kind, FILTER_GROWS)) {
        if (!sql_kind_grow(ctx, func, &blob, &bytes)) {
            sqlite3_free(blob);
            return;
        }
        status = filter_add(f.kind, blob, key); /* a grown filter has room */
    }
    if (status == FILTER_OK) {
        sql_result_filter(ctx, blob, bytes);
        return;
    }
    sqlite3_free(blob); /* memory cannot fail: FILTER_ABSENT, FILTER_FULL or FILTER_REFUSED */
    if (status == FILTER_ABSENT) {
        sql_error_not_removed(ctx, func, argv[1]);
    } else if (status == FILTER_REFUSED) {
        char type[FILTER_TYPE_TEXT_MAX];
        sql_error_refused(ctx, func, argv[1], f.kind->value_type(&f, type));
    } else {
        sql_error_full(ctx, func, "the key", f.kind);
    }
}

/* bloom_add(FILTER, KEY): rule 9 (add). */
static void bloom_add_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    bloom_change_filter(ctx, argv, "bloom_add", 0);
}

/* bloom_remove(FILTER, KEY): rule 20 (remove). */
static void bloom_remove_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    bloom_change_filter(ctx, argv, "bloom_remove", 1);
}

/* bloom_union(A, B): rule 10 (union). */
static void bloom_union_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    sql_union_of_two(ctx, "bloom_union", sql_read_filter_arg, argv);
}

/* bloom_union(FILTER), one row: rule 10 (union). */
static void bloom_union_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    sql_union_step(ctx, "bloom_union", sql_read_filter_arg, argv[0]);
}

/* bloom_handle(FILTER): rule 18 (handle). The view, then a copy of the bytes it points to. */
static void bloom_handle_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    filter_view f;
    if (sql_read_filter_arg(ctx, "bloom_handle", argv[0], NULL, &f) != SQL_FILTER_READ) {
        return;
    }
    filter_view *handle = sqlite3_malloc64(sizeof *handle + f.bytes);
    if (handle == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    *handle = f;
    handle->blob = memcpy(handle + 1, f.blob, f.bytes);
    sqlite3_result_pointer(ctx, handle, SQL_FILTER_HANDLE, sqlite3_free);
}

/* bloom_info(FILTER): rule 11 (info). The prelude's fields, then the kind's. */
static void bloom_info_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    filter_view f;
    if (sql_read_filter_arg(ctx, "bloom_info", argv[0], NULL, &f) == SQL_FILTER_READ) {
        sql_info_result(ctx, &f);
    }
}

/* The arguments of bloom_build that hold N, P and the kind. */
enum { CAPACITY_ARGUMENT = 1, RATE_ARGUMENT = 2, KIND_ARGUMENT = 3 };

/* The rate bloom_build(KEY) uses (rule 4 (sized at the end)). */
#define DEFAULT_RATE 0.01

/* Initial and largest number of slots of the key set of a filter sized at the end: 16 bytes
** a slot, at most 3/4 full, in one allocation under SQLite's limit of about 2 GB. A test build
** sets a small maximum to reach it. */
#define FIRST_SET_CAPACITY 1024
#ifndef BLOOM_SET_SLOTS_MAX
#define BLOOM_SET_SLOTS_MAX (UINT64_C(1) << 26)
#endif

/* Whether bloom_build builds kind: from n and p, or from its whole set of keys. */
static int bloom_build_builds(const sql_kind *kind) {
    return kind->build_size != NULL || kind->build_whole != NULL;
}

/* Whether func builds kind: bloom_build from n and p or from all its keys, bloom_empty (empty
** set) from n and p. */
static int bloom_build_lists(const sql_kind *kind, int empty) {
    return empty ? kind->build_size != NULL : bloom_build_builds(kind);
}

/* The longest variant of a kind read from the kind argument, with its NUL. */
enum { KIND_VARIANT_MAX = 64 };

/* The text after kind's name (in any case) and a space in the kind argument v, for a kind that
** takes a variant (read_variant), copied into buf (KIND_VARIANT_MAX bytes; "" when longer); NULL
** when v is not kind's name so followed. */
static const char *bloom_build_variant_text(sqlite3_value *v, const sql_kind *kind, char *buf) {
    size_t length = strlen(kind->kind->name);
    if (kind->read_variant == NULL || sqlite3_value_type(v) != SQLITE_TEXT) {
        return NULL;
    }
    size_t bytes = (size_t)sqlite3_value_bytes(v);
    const char *text = sqlite3_value_blob(v);
    if (text == NULL || bytes < length + 1 || text[length] != ' ' ||
        sqlite3_strnicmp(text, kind->kind->name, (int)length) != 0) {
        return NULL;
    }
    size_t rest = bytes - length - 1 < KIND_VARIANT_MAX ? bytes - length - 1 : 0;
    memcpy(buf, text + length + 1, rest);
    buf[rest] = '\0';
    return buf;
}

/* The kind the kind argument v names, a kind's name in any case (rule 3 (parameters)), trying
** first the kind of the group's first row (NULL if none), without a copy of the argument
** (sql_text_is), or followed by a variant it takes (bloom_build_variant_text); or the kind one
** of whose other names it is (sql_kind_other_named). NULL if none. */
static const sql_kind *bloom_build_find_kind(sqlite3_value *v, const sql_kind *first) {
    const sql_kind *kind;
    char variant[KIND_VARIANT_MAX];
    if (first != NULL && sql_text_is(v, first->kind->name)) {
        return first;
    }
    for (size_t i = 0; (kind = sql_kind_at(i)) != NULL; i++) {
        if (sql_text_is(v, kind->kind->name) || bloom_build_variant_text(v, kind, variant)) {
            return kind;
        }
    }
    return sql_kind_other_named(v);
}

/* Reads into *variant the variant that the kind argument v (NULL: none) names after kind's name
** (bloom_build_variant_text, read_variant); 0 when it names none. Returns 0 after setting the
** error of func for a variant that kind does not take. */
static int bloom_build_read_variant(sqlite3_context *ctx, const char *func, const sql_kind *kind,
                                    sqlite3_value *v, uint64_t *variant) {
    char buf[KIND_VARIANT_MAX];
    const char *text = v != NULL ? bloom_build_variant_text(v, kind, buf) : NULL;
    *variant = 0;
    if (text == NULL || kind->read_variant(text, variant)) {
        return 1;
    }
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: a '%s' kind may name %s, got ", func, kind->kind->name,
                        kind->variant_help);
    sql_append_value(s, v);
    sql_error_from_str(ctx, s);
    return 0;
}

/* Reads the kind argument of func (bloom_build_find_kind); the error lists the kinds func
** builds (bloom_empty when empty is set). Returns NULL after setting the error. */
static const sql_kind *bloom_build_read_kind(sqlite3_context *ctx, const char *func,
                                             sqlite3_value *v, const sql_kind *first, int empty) {
    const sql_kind *kind = bloom_build_find_kind(v, first);
    if (kind != NULL) {
        return kind;
    }
    sqlite3_str *s = sqlite3_str_new(NULL);
    sqlite3_str_appendf(s, "%s: kind must be ", func);
    size_t last = 0; /* the last kind it builds, for the " or " */
    for (size_t i = 0; (kind = sql_kind_at(i)) != NULL; i++) {
        last = bloom_build_lists(kind, empty) ? i : last;
    }
    for (size_t i = 0; (kind = sql_kind_at(i)) != NULL; i++) {
        if (bloom_build_lists(kind, empty)) {
            const char *separator = i == 0 ? "" : i == last ? " or " : ", ";
            sqlite3_str_appendf(s, "%s'%s'", separator, kind->kind->name);
        }
    }
    sqlite3_str_appendall(s, ", got ");
    sql_append_value(s, v);
    sql_error_from_str(ctx, s);
    return NULL;
}

/* Writes "NULL" or n for messages about N into buf (24 bytes). */
static const char *bloom_build_capacity_text(uint64_t n, char *buf) {
    if (n == 0) {
        return "NULL";
    }
    sqlite3_snprintf(24, buf, "%llu", (unsigned long long)n);
    return buf;
}

/* Checks that n, p and the kind (with its variant, read from the kind argument kind_arg, NULL
** if none) equal those of the group's first row (rule 3 (parameters)). */
static int bloom_build_same_parameters(sqlite3_context *ctx, const build_state *st, uint64_t n,
                                       double p, const sql_kind *kind, sqlite3_value *kind_arg) {
    char now[24], first[24];
    uint64_t variant = 0;
    if (kind != st->kind) {
        sql_errorf(ctx,
                   "bloom_build: kind must be the same for all rows of a group, got '%s' "
                   "after '%s'",
                   kind->kind->name, st->kind->kind->name);
        return 0;
    }
    if (kind->read_variant != NULL &&
        !bloom_build_read_variant(ctx, "bloom_build", kind, kind_arg, &variant)) {
        return 0;
    }
    if (variant != st->variant) {
        sqlite3_str *s = sqlite3_str_new(NULL);
        sqlite3_str_appendall(s,
                              "bloom_build: kind must be the same for all rows of a group, got ");
        sql_append_value(s, kind_arg);
        if (st->kind_text_bytes > 0) {
            sqlite3_str_appendf(s, " after '%.*s'", (int)st->kind_text_bytes, st->kind_text);
        } else {
            sqlite3_str_appendf(s, " after another in the group's first row");
        }
        sql_error_from_str(ctx, s);
        return 0;
    }
    if (n != st->n) {
        sql_errorf(ctx, "bloom_build: n must be the same for all rows of a group, got %s after %s",
                   bloom_build_capacity_text(n, now), bloom_build_capacity_text(st->n, first));
        return 0;
    }
    if (p != st->p) {
        sqlite3_str *s = sqlite3_str_new(NULL);
        sqlite3_str_appendall(s, "bloom_build: p must be the same for all rows of a group, got ");
        sql_append_real(s, p, st->p);
        sqlite3_str_appendall(s, " after ");
        sql_append_real(s, st->p, p);
        sql_error_from_str(ctx, s);
        return 0;
    }
    return 1;
}

/* Doubles the slots of a key set (allocates its first ones when it has none). Returns 0
** after setting a NOMEM error. */
static int bloom_build_grow_set(sqlite3_context *ctx, key_set *seen) {
    key_set grown = {NULL, seen->capacity ? 2 * seen->capacity : FIRST_SET_CAPACITY, 0, 0};
    grown.slots = sqlite3_malloc64(grown.capacity * sizeof(key_hash));
    if (grown.slots == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    sql_advise_huge_pages(grown.slots, grown.capacity * sizeof(key_hash));
    memset(grown.slots, 0, grown.capacity * sizeof(key_hash));
    key_set_move(seen, &grown);
    sqlite3_free(seen->slots);
    *seen = grown;
    return 1;
}

/* Inserts the pending keys of st into its key set, which is kept at most 3/4 full (so there
** is always room for one more) and up to BLOOM_SET_SLOTS_MAX slots (rule 4 (sized at the
** end)): the slots grown first for all of them, prefetched, then filled. Returns 0 after
** setting the error. */
static int bloom_build_insert_pending(sqlite3_context *ctx, build_state *st) {
    key_set *seen = &st->seen;
    while (seen->capacity < BLOOM_SET_SLOTS_MAX &&
           (seen->capacity == 0 ||
            (seen->count + (uint64_t)st->pending_count) * 4 > seen->capacity * 3)) {
        if (!bloom_build_grow_set(ctx, seen)) {
            return 0;
        }
    }
    for (int i = 0; i < st->pending_count; i++) {
        key_set_prefetch(seen, st->pending[i]);
    }
    for (int i = 0; i < st->pending_count; i++) {
        if (key_set_insert(seen, st->pending[i]) && seen->count * 4 > seen->capacity * 3) {
            sql_errorf(ctx,
                       "bloom_build: more than %llu distinct keys to size a filter for; give n "
                       "instead of NULL",
                       (unsigned long long)(BLOOM_SET_SLOTS_MAX / 4 * 3));
            return 0;
        }
    }
    st->pending_count = 0;
    return 1;
}

/* Key sets from this size on, larger than a core's cache, take keys a batch at a time. */
#define BATCHED_SET_BYTES (UINT64_C(1) << 20)

/* Adds key to those of st that wait for the key set, inserting them when there are enough
** (at once while the set is small). Returns 0 after setting the error. */
static int bloom_build_remember_key(sqlite3_context *ctx, build_state *st, key_hash key) {
    int batch = st->seen.capacity * sizeof(key_hash) >= BATCHED_SET_BYTES ? BUILD_PENDING_KEYS : 1;
    st->pending[st->pending_count++] = key;
    return st->pending_count < batch || bloom_build_insert_pending(ctx, st);
}

/* Checks that func can build a filter of kind (rules 1 (build) and 17 (empty)): bloom_build
** from N and P or from all its keys, bloom_empty from N and P. 0 after setting the error, which
** names what builds it. */
static int bloom_build_check_kind(sqlite3_context *ctx, const char *func, const sql_kind *kind,
                                  int empty) {
    if (kind->build_whole != NULL && empty) {
        sql_errorf(ctx,
                   "%s: a '%s' filter is built once from all its keys, never empty: use "
                   "bloom_build(key, n, p, '%s')",
                   func, kind->kind->name, kind->kind->name);
        return 0;
    }
    if (!bloom_build_builds(kind)) {
        sql_errorf(ctx, "%s: a '%s' filter is not built from n and p: use %s", func,
                   kind->kind->name, kind->build_instead);
        return 0;
    }
    return 1;
}

/* Adds key to the filter of st, growing it when it is full and its kind grows. FILTER_OK, or
** FILTER_FULL, or FILTER_INVALID after setting the error of growing. */
static filter_status bloom_build_add(sqlite3_context *ctx, build_state *st, key_hash key) {
    filter_status status = st->kind->build_add(st, key);
    if (status != FILTER_FULL || !filter_kind_can(st->kind->kind, FILTER_GROWS)) {
        return status;
    }
    if (!sql_kind_grow(ctx, st->func, &st->blob, &st->bytes)) {
        return FILTER_INVALID;
    }
    return st->kind->build_add(st, key); /* a grown filter has room */
}

/* Adds key to the filter of st (build_add). Returns 0 after setting the error. */
static int bloom_build_key(sqlite3_context *ctx, build_state *st, key_hash key) {
    filter_status status = bloom_build_add(ctx, st, key);
    if (status == FILTER_FULL) {
        sql_error_full(ctx, st->func, "a key", st->kind->kind);
    }
    return status == FILTER_OK;
}

/* Most keys a build of a kind built whole keeps, counting repeats: 8 bytes each in one
** allocation, which SQLite keeps under 2^31 - 256 bytes. A test build sets a small maximum. */
#ifndef BLOOM_WHOLE_KEYS_MAX
#define BLOOM_WHOLE_KEYS_MAX ((UINT64_C(1) << 28) - 64)
#endif

/* Gives the kept keys of st room for room keys (at most BLOOM_WHOLE_KEYS_MAX). Returns 0, the
** keys and their room unchanged, when SQLite has not the memory. */
static int bloom_build_room_whole(build_state *st, uint64_t room) {
    room = room > BLOOM_WHOLE_KEYS_MAX ? BLOOM_WHOLE_KEYS_MAX : room;
    uint64_t *larger = sqlite3_realloc64(st->whole, room * sizeof *larger);
    if (larger == NULL) {
        return 0;
    }
    sql_advise_huge_pages(larger, room * sizeof *larger); /* a static kind's sort scatters */
    st->whole = larger;
    st->whole_capacity = room;
    return 1;
}

/* Keeps the first 64 bits of key for a kind built whole at the end of the group (rule 30
** (static filters)), growing the room by half. Returns 0 after setting the error. */
static int bloom_build_keep_whole(sqlite3_context *ctx, build_state *st, key_hash key) {
    if (st->whole_count == st->whole_capacity) {
        if (st->whole_capacity >= BLOOM_WHOLE_KEYS_MAX) {
            sql_errorf(ctx, "bloom_build: a '%s' filter is built from at most %llu keys",
                       st->kind->kind->name, (unsigned long long)BLOOM_WHOLE_KEYS_MAX);
            return 0;
        }
        if (!bloom_build_room_whole(st, st->whole_capacity + st->whole_capacity / 2 + 1024)) {
            sqlite3_result_error_nomem(ctx);
            return 0;
        }
    }
    st->whole[st->whole_count++] = key.h1;
    return 1;
}

/* The state of the group on its first row, for the kind and parameters of that row; sized now
** when n is given. Returns NULL after setting the error. */
static build_state *bloom_build_start_group(sqlite3_context *ctx, int argc, const sql_kind *kind,
                                            uint64_t n, double p, sqlite3_value *kind_arg) {
    build_state *st = sqlite3_aggregate_context(ctx, (int)kind->build_state_bytes);
    if (st == NULL) {
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    st->kind = kind;
    st->func = "bloom_build";
    st->n = n;
    st->p = p;
    if (!bloom_build_check_kind(ctx, "bloom_build", kind, 0) ||
        !bloom_build_read_variant(ctx, "bloom_build", kind, kind_arg, &st->variant)) {
        st->failed = 1;
        return NULL;
    }
    if (n == 0 && kind->counts_repeats) {
        sql_errorf(ctx,
                   "bloom_build: a '%s' filter counts every repeat of a key, so it cannot be "
                   "sized at the end from the distinct keys: give n",
                   kind->kind->name);
        st->failed = 1;
        return NULL;
    }
    if (kind->build_plan != NULL) {
        kind->build_plan(ctx, st, argc > RATE_ARGUMENT ? RATE_ARGUMENT : -1);
    }
    if (n > 0 && kind->build_whole != NULL) {
        (void)bloom_build_room_whole(st, n); /* else grown as the keys come, or the error then */
    }
    if (n > 0 && kind->build_whole == NULL && !kind->build_size(ctx, st, n)) {
        st->failed = 1;
        return NULL;
    }
    return st;
}

/* Keeps the kind argument v of the group's first row in st, when short enough, for
** bloom_build_same_as_first. */
static void bloom_build_keep_kind_text(build_state *st, sqlite3_value *v) {
    int bytes = sqlite3_value_type(v) == SQLITE_TEXT ? sqlite3_value_bytes(v) : 0;
    const void *text = bytes > 0 ? sqlite3_value_blob(v) : NULL;
    if (text != NULL && (size_t)bytes <= sizeof st->kind_text) {
        memcpy(st->kind_text, text, (size_t)bytes);
        st->kind_text_bytes = (uint8_t)bytes;
    }
}

/* Whether the N, P and KIND of a later row of a group are certainly its first row's, found
** with the fewest calls into SQLite: N the same INTEGER (or NULL), P the same REAL, KIND the
** same bytes of TEXT. 0 says only that the row must be read the long way (rule 3 (parameters)),
** which gives an error for what differs. */
static int bloom_build_same_as_first(const build_state *st, int argc, sqlite3_value **argv) {
    if (argc > CAPACITY_ARGUMENT) {
        int type = sqlite3_value_type(argv[CAPACITY_ARGUMENT]);
        if (type == SQLITE_INTEGER
                ? st->n == 0 || (uint64_t)sqlite3_value_int64(argv[CAPACITY_ARGUMENT]) != st->n
                : type != SQLITE_NULL || st->n != 0) {
            return 0;
        }
    }
    if (argc > RATE_ARGUMENT && (sqlite3_value_type(argv[RATE_ARGUMENT]) != SQLITE_FLOAT ||
                                 sqlite3_value_double(argv[RATE_ARGUMENT]) != st->p)) {
        return 0;
    }
    if (argc > KIND_ARGUMENT) {
        sqlite3_value *v = argv[KIND_ARGUMENT];
        const void *text;
        return st->kind_text_bytes > 0 && sqlite3_value_type(v) == SQLITE_TEXT &&
               sqlite3_value_bytes(v) == st->kind_text_bytes &&
               (text = sqlite3_value_blob(v)) != NULL &&
               memcmp(text, st->kind_text, st->kind_text_bytes) == 0;
    }
    return 1;
}

/* Reads the N, P and KIND of a row of bloom_build into *n, *p and *kind (rule 3 (parameters)),
** each left as it is when the call has no such argument. Returns 0 after setting the error. */
static int bloom_build_read_parameters(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                                       const build_state *st, uint64_t *n, double *p,
                                       const sql_kind **kind) {
    return (argc <= CAPACITY_ARGUMENT ||
            sql_read_capacity(ctx, "bloom_build", argv[CAPACITY_ARGUMENT], argv[RATE_ARGUMENT],
                              argc > KIND_ARGUMENT ? "bloom_build(key, n, p, kind)"
                                                   : "bloom_build(key, n, p)",
                              1, n)) &&
           (argc <= RATE_ARGUMENT || sql_read_rate(ctx, "bloom_build", argv[RATE_ARGUMENT], p)) &&
           (argc <= KIND_ARGUMENT ||
            (*kind = bloom_build_read_kind(ctx, "bloom_build", argv[KIND_ARGUMENT],
                                           st ? st->kind : NULL, 0)) != NULL);
}

/* bloom_build(KEY [, N, P [, KIND]]), one row: rules 1 (build) to 6 (nulls and groups). */
static void bloom_build_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    build_state *st = sqlite3_aggregate_context(ctx, 0);
    const sql_kind *kind = st != NULL ? st->kind : sql_kind_at(0); /* without a kind argument */
    uint64_t n = 0;
    double p = DEFAULT_RATE;
    key_hash key;
    if (st != NULL && st->failed) {
        return;
    }
    sqlite3_value *kind_arg = argc > KIND_ARGUMENT ? argv[KIND_ARGUMENT] : NULL;
    int quick = st != NULL && bloom_build_same_as_first(st, argc, argv);
    int ok = quick || bloom_build_read_parameters(ctx, argc, argv, st, &n, &p, &kind);
    if (ok && st == NULL) {
        st = bloom_build_start_group(ctx, argc, kind, n, p, kind_arg);
        ok = st != NULL;
        if (ok && kind_arg != NULL) {
            bloom_build_keep_kind_text(st, kind_arg);
        }
    } else if (ok && !quick) {
        ok = bloom_build_same_parameters(ctx, st, n, p, kind, kind_arg);
    }
    key_value value;
    int read = ok ? sql_read_key_value(ctx, argv[0], &value) : SQL_KEY_NULL;
    if (read == SQL_KEY_READ) {
        ok = st->kind->build_hash != NULL ? st->kind->build_hash(ctx, st, argv[0], &value, &key)
                                          : (key = sql_kind_hash_key(st, &value), 1);
        ok = ok && (st->kind->build_whole != NULL ? bloom_build_keep_whole(ctx, st, key)
                    : st->blob != NULL            ? bloom_build_key(ctx, st, key)
                                                  : bloom_build_remember_key(ctx, st, key));
        st->keys += ok;
    }
    ok = ok && read != SQL_KEY_ERROR;
    if (!ok && st != NULL) {
        st->failed = 1;
    }
}

/* Writes into the filter of st what its kind writes last (build_finish), if anything. */
static void bloom_build_finish_filter(build_state *st) {
    if (st->kind->build_finish != NULL) {
        st->kind->build_finish(st);
    }
}

/* bloom_build: the filter, sized now for the distinct keys seen if N was NULL, handed to
** SQLite without a copy. NULL over zero rows. */
static void bloom_build_final(sqlite3_context *ctx) {
    build_state *st = sqlite3_aggregate_context(ctx, 0);
    if (st == NULL) {
        return;
    }
    if (st->kind->build_whole != NULL) {
        st->failed = st->failed || !st->kind->build_whole(ctx, st);
    } else if (!st->failed && st->blob == NULL && bloom_build_insert_pending(ctx, st)) {
        uint64_t distinct = key_set_size(&st->seen), cursor = 0;
        key_hash key;
        if (st->kind->build_size(ctx, st, distinct > 0 ? distinct : 1)) {
            while (!st->failed && key_set_next(&st->seen, &cursor, &key)) {
                st->failed = !bloom_build_key(ctx, st, key);
            }
        }
    }
    sqlite3_free(st->seen.slots);
    st->seen.slots = NULL;
    sqlite3_free(st->whole);
    st->whole = NULL;
    if (!st->failed && st->blob != NULL) {
        bloom_build_finish_filter(st);
        sql_result_filter(ctx, st->blob, st->bytes);
    } else {
        sqlite3_free(st->blob);
    }
    st->blob = NULL;
}

/* bloom_empty(N, P [, KIND]): rule 17 (empty). The state of bloom_build, for a moment. */
static void bloom_empty_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    const sql_kind *kind = sql_kind_at(0);
    uint64_t n;
    double p;
    if (!sql_read_capacity(ctx, "bloom_empty", argv[0], argv[1],
                           argc > 2 ? "bloom_empty(n, p, kind)" : "bloom_empty(n, p)", 0, &n) ||
        !sql_read_rate(ctx, "bloom_empty", argv[1], &p) ||
        (argc > 2 &&
         (kind = bloom_build_read_kind(ctx, "bloom_empty", argv[2], NULL, 1)) == NULL) ||
        !bloom_build_check_kind(ctx, "bloom_empty", kind, 1)) {
        return;
    }
    build_state *st = sqlite3_malloc64(kind->build_state_bytes);
    if (st == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    memset(st, 0, kind->build_state_bytes);
    st->kind = kind;
    st->func = "bloom_empty";
    st->n = n;
    st->p = p;
    if (!bloom_build_read_variant(ctx, "bloom_empty", kind, argc > 2 ? argv[2] : NULL,
                                  &st->variant)) {
        sqlite3_free(st);
        return;
    }
    if (kind->build_plan != NULL) {
        kind->build_plan(ctx, st, 1);
    }
    if (kind->build_size(ctx, st, n)) {
        bloom_build_finish_filter(st);
        sql_result_filter(ctx, st->blob, st->bytes);
    }
    sqlite3_free(st);
}

const sql_function filter_functions[] = {
    {.name = "bloom_build",
     .nargs = 1,
     .step = bloom_build_step,
     .final = bloom_build_final,
     .effects = SQL_PURE},
    {.name = "bloom_build",
     .nargs = 3,
     .step = bloom_build_step,
     .final = bloom_build_final,
     .effects = SQL_PURE},
    {.name = "bloom_build",
     .nargs = 4,
     .step = bloom_build_step,
     .final = bloom_build_final,
     .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS_AGGREGATE("bloom_build",
                                  "the forms are bloom_build(key), bloom_build(key, n, p) and "
                                  "bloom_build(key, n, p, kind); for p alone, "
                                  "bloom_build(key, NULL, p)"),
    {.name = "bloom_empty", .nargs = 2, .func = bloom_empty_func, .effects = SQL_PURE},
    {.name = "bloom_empty", .nargs = 3, .func = bloom_empty_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_empty",
                        "the forms are bloom_empty(n, p) and bloom_empty(n, p, kind)"),
    {.name = "bloom_might_contain",
     .nargs = 2,
     .func = bloom_might_contain_func,
     .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_might_contain", "the form is bloom_might_contain(filter, key)"),
    {.name = "bloom_info", .nargs = 1, .func = bloom_info_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_info", "the form is bloom_info(filter)"),
    {.name = "bloom_handle", .nargs = 1, .func = bloom_handle_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_handle", "the form is bloom_handle(filter)"),
    {.name = "bloom_add", .nargs = 2, .func = bloom_add_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_add", "the form is bloom_add(filter, key)"),
    {.name = "bloom_remove", .nargs = 2, .func = bloom_remove_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_remove", "the form is bloom_remove(filter, key)"),
    {.name = "bloom_union", .nargs = 2, .func = bloom_union_func, .effects = SQL_PURE},
    {.name = "bloom_union",
     .nargs = 1,
     .step = bloom_union_step,
     .final = sql_union_final,
     .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_union", "the forms are bloom_union(a, b), a scalar, and "
                                       "bloom_union(filter), an aggregate"),
    {.name = NULL}, /* the end */
};
