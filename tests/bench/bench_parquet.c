/*
** bench_parquet.c: table 12, Parquet filters against the floors (see bench.c).
*/
#include "bench.h"

/* 12. Parquet filters against the floors: probes and builds over 1M TEXT keys. */
void table_parquet(bench *b) {
    const sqlite3_int64 keys = b->quick ? 100000 : 1000000, in_filter = keys / 10;
    printf("\n### 12. Parquet filters and the floors\n\n");
    printf("Over %lld TEXT keys ('key ' || i), median of %d runs, in turns. Probes: "
           "`SELECT sum(f(?1, x)) FROM tkeys` with a filter of the first %lld keys at p = 0.01, "
           "against `noop`, the floor of a call, and `floor`, the hash-and-touch floor: a "
           "function that reads both arguments, hashes the key by XXH3-64 and reads one byte "
           "of the filter; `floor_xxh64`, the same with the key hashed by XXH64, as Parquet "
           "fixes; `twin` is the other SQLite Bloom extension's design "
           "(tests/bench/twin.h) over the parquet filter's bytes. Builds: `bloom_build(x, n, "
           "p, kind)` over all the keys (n = their number), against `hashagg`, an aggregate "
           "that reads its three arguments and hashes each key.\n\n",
           (long long)keys, b->runs, (long long)in_filter);
    exec_over_series(b, keys,
                     "CREATE TABLE tkeys(x TEXT); INSERT INTO tkeys %s SELECT 'key ' || i FROM s;");
    int blocked_bytes, parquet_bytes;
    char *sql = format("SELECT bloom_build(x, %lld, 0.01, 'blocked') FROM tkeys WHERE rowid <= "
                       "%lld",
                       (long long)in_filter, (long long)in_filter);
    void *blocked = fetch_blob(b, sql, &blocked_bytes);
    sqlite3_free(sql);
    sql = format("SELECT bloom_build(x, %lld, 0.01, 'parquet') FROM tkeys WHERE rowid <= %lld",
                 (long long)in_filter, (long long)in_filter);
    void *parquet = fetch_blob(b, sql, &parquet_bytes);
    sqlite3_free(sql);
    query probes[] = {
        {"noop", "SELECT sum(noop(?1, x)) FROM tkeys", parquet, parquet_bytes},
        {"floor", "SELECT sum(floor(?1, x)) FROM tkeys", parquet, parquet_bytes},
        {"floor_xxh64", "SELECT sum(floor_xxh64(?1, x)) FROM tkeys", parquet, parquet_bytes},
        {"blocked", "SELECT sum(bloom_might_contain(?1, x)) FROM tkeys", blocked, blocked_bytes},
        {"parquet", "SELECT sum(bloom_might_contain(?1, x)) FROM tkeys", parquet, parquet_bytes},
        {"twin", "SELECT sum(twin(?1, x)) FROM tkeys", parquet, parquet_bytes},
    };
    enum { NOOP, FLOOR, FLOOR_XXH64, BLOCKED, PARQUET, TWIN, PROBES };
    _Static_assert(sizeof probes / sizeof probes[0] == PROBES, "a name for each probe");
    double medians[PROBES];
    time_in_turns(b, probes, PROBES, medians);
    printf("| probe | filter bytes | ns/row | ratio to floor | ratio to floor_xxh64 | ratio to "
           "noop |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < PROBES; i++) {
        printf("| %s | %d | %.1f | %.2f | %.2f | %.2f |\n", probes[i].label, probes[i].bytes,
               medians[i] * 1e9 / (double)keys, medians[i] / medians[FLOOR],
               medians[i] / medians[FLOOR_XXH64], medians[i] / medians[NOOP]);
    }
    printf("\ntwin / parquet: %.2f.\n\n", medians[TWIN] / medians[PARQUET]);
    free(blocked);
    free(parquet);
    /* Builds against the build floor (table 2 compares literals with bound parameters). */
    static const char *const kinds[] = {"standard", "blocked", "parquet"};
    query builds[1 + 3];
    builds[0] = (query){
        "hashagg", format("SELECT hashagg(x, %lld, 0.01) FROM tkeys", (long long)keys), NULL, 0};
    for (int k = 0; k < 3; k++) {
        builds[1 + k] = (query){
            kinds[k],
            format("SELECT bloom_build(x, %lld, 0.01, '%s') FROM tkeys", (long long)keys, kinds[k]),
            NULL, 0};
    }
    double build_medians[1 + 3];
    time_in_turns(b, builds, 1 + 3, build_medians);
    printf("| build | ns/key | ratio to hashagg |\n|---|---|---|\n");
    for (int i = 0; i < 1 + 3; i++) {
        printf("| %s | %.1f | %.2f |\n", builds[i].label, build_medians[i] * 1e9 / (double)keys,
               build_medians[i] / build_medians[0]);
        sqlite3_free(builds[i].sql);
    }
    exec(b, "DROP TABLE tkeys");
}
