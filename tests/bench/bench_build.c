/*
** bench_build.c: table 2, the build against its floors (see bench.c).
*/
#include "bench.h"

/* The query of table 2 that builds a filter of layout over keys, n given or sized at the end, in
** its shortest form: bloom_build's defaults (the first kind, p = 0.01) left out. */
static char *build_floor_query(const filter_kind *layout, int sized_at_end) {
    if (layout != filter_kind_at(0)) {
        return format("SELECT bloom_build(x, %s, 0.01, '%s') FROM keys",
                      sized_at_end ? "NULL" : "1000000", layout->name);
    }
    return format("SELECT bloom_build(x%s) FROM keys", sized_at_end ? "" : ", 1000000, 0.01");
}

/* 2, then: bloom_build with n, p and the kind as literals against the same bound as parameters,
** in turns, for each kind it builds, n given, then sized at the end where the kind can be. */
static void table_build_bound(bench *b) {
    printf("\nThe same with n, p and the kind bound (`SELECT bloom_build(x, ?1, ?2, ?3) FROM "
           "keys`, the kind as client libraries bind TEXT: with its length), in turns with the "
           "literals; the thread's CPU time.\n\n");
    const filter_kind *kinds[FILTER_KIND_COUNT];
    int kind_count = kinds_where(is_built_by_bloom_build, kinds), count = 0;
    kind_count = b->quick ? 1 : kind_count; /* quick: the first kind alone */
    build_arguments arguments[2 * FILTER_KIND_COUNT];
    const build_arguments *bound[4 * FILTER_KIND_COUNT];
    query queries[4 * FILTER_KIND_COUNT];
    for (int sized_at_end = 0; sized_at_end < 2; sized_at_end++) {
        for (int k = 0; k < kind_count; k++) {
            if (sized_at_end && !test_kind_of(kinds[k])->sized_at_end) {
                continue;
            }
            build_arguments *a = &arguments[count / 2];
            *a = (build_arguments){sized_at_end ? 0 : 1000000, 0.01, kinds[k]->name};
            bound[count] = NULL;
            queries[count++] = (query){kinds[k]->name,
                                       format("SELECT bloom_build(x, %s, 0.01, '%s') FROM keys",
                                              sized_at_end ? "NULL" : "1000000", kinds[k]->name),
                                       NULL, 0};
            bound[count] = a;
            queries[count++] = (query){
                kinds[k]->name, format("SELECT bloom_build(x, ?1, ?2, ?3) FROM keys"), NULL, 0};
        }
    }
    double medians[4 * FILTER_KIND_COUNT];
    bench_clock = CLOCK_THREAD_CPUTIME_ID; /* in memory: what the other load does not inflate */
    time_bound_in_turns(b, queries, bound, count, medians);
    bench_clock = CLOCK_MONOTONIC;
    printf("| kind | n | literals, ns/row | bound, ns/row | bound / literals |\n"
           "|---|---|---|---|---|\n");
    for (int i = 0; i < count; i += 2) {
        printf("| %s | %s | %.1f | %.1f | %.2f |\n", queries[i].label,
               bound[i + 1]->n > 0 ? "1000000" : "NULL", medians[i] * 1e9 / 1e6,
               medians[i + 1] * 1e9 / 1e6, medians[i + 1] / medians[i]);
    }
    for (int i = 0; i < count; i++) {
        sqlite3_free(queries[i].sql);
    }
}

/* 2, continued: the build of each kind whose format fixes another hash than XXH3 (its
** own_hashagg, tests/test_kinds.h), n given, against the hashagg that hashes as it must. */
static void table_build_own_floor(bench *b, const filter_kind **kinds, int kind_count) {
    for (int k = 0; k < kind_count; k++) {
        const char *own = test_kind_of(kinds[k])->own_hashagg;
        if (own == NULL) {
            continue;
        }
        query queries[2] = {{own, format("SELECT %s(x, 1000000, 0.01) FROM keys", own), NULL, 0},
                            {kinds[k]->name, build_floor_query(kinds[k], 0), NULL, 0}};
        double medians[2];
        time_in_turns(b, queries, 2, medians);
        printf("\n`%s` hashes each key as the '%s' kind must: %.1f ns/row; `%s`, %.1f ns/row, is "
               "%.2f times it.\n",
               own, kinds[k]->name, medians[0] * 1e9 / 1e6, queries[1].sql, medians[1] * 1e9 / 1e6,
               medians[1] / medians[0]);
        sqlite3_free(queries[0].sql);
        sqlite3_free(queries[1].sql);
    }
}

/* 2. The build against count(x) and hashagg: each layout of a Bloom filter and each kind built
** whole, n given, then sized at the end, against the first kind's build of the same n; then
** every kind's build with its parameters as literals and bound (table_build_bound). */
void table_build(bench *b) {
    printf("\n### 2. Build floor\n\n");
    printf("Over the 1,000,000 rows of `keys`, median of %d runs, in turns. `hashagg(x, n, p)` "
           "is the floor of a build, an aggregate that reads its three arguments and hashes "
           "each key by XXH3-64 (an INTEGER as its 8 bytes); the last column sets each build "
           "against the first kind's with the same n.\n\n",
           b->runs);
    const filter_kind *kinds[FILTER_KIND_COUNT];
    int kind_count = kinds_where(is_probe_kind, kinds), count = 0;
    query queries[2 + 2 * FILTER_KIND_COUNT];
    int first[2 + 2 * FILTER_KIND_COUNT]; /* the query of the first kind with the same n */
    queries[count++] = (query){"count", "SELECT count(x) FROM keys", NULL, 0};
    queries[count++] = (query){"hashagg", "SELECT hashagg(x, 1000000, 0.01) FROM keys", NULL, 0};
    for (int sized_at_end = 0; sized_at_end < 2; sized_at_end++) {
        int group = count;
        for (int k = 0; k < kind_count; k++) {
            if (sized_at_end && !test_kind_of(kinds[k])->sized_at_end) {
                continue;
            }
            first[count] = group;
            queries[count++] =
                (query){kinds[k]->name, build_floor_query(kinds[k], sized_at_end), NULL, 0};
        }
    }
    double medians[2 + 2 * FILTER_KIND_COUNT];
    time_in_turns(b, queries, count, medians);
    printf("| query | ns/row | ratio to count(x) | ratio to hashagg | ratio to the first kind's "
           "|\n|---|---|---|---|---|\n");
    for (int i = 0; i < count; i++) {
        printf("| `%s` | %.1f | %.2f | %.2f |", queries[i].sql, medians[i] * 1e9 / 1e6,
               medians[i] / medians[0], medians[i] / medians[1]);
        if (i >= 2) {
            printf(" %.2f |\n", medians[i] / medians[first[i]]);
        } else {
            printf(" - |\n");
        }
    }
    for (int i = 2; i < count; i++) {
        sqlite3_free(queries[i].sql);
    }
    table_build_own_floor(b, kinds, kind_count);
    table_build_bound(b);
}
