/*
** bench.c: what bloom_build and bloom_might_contain cost inside SQLite, side
** by side with what they are measured against. A program that prints
** figures, not a test: these machines are shared and noisy, so every case is
** run several times, alternating with the cases it is compared with, and the
** median is kept.
**
** Usage: bloom_bench EXTENSION [--quick] [--dir DIR] [--charts DIR] [TABLE...]
**
** TABLE is any of: core probe build exact forms scale live vacuum scalable
** countmin cuckoo livetable index parquet size (default: all). --quick shrinks
** the data (no 100M or 10M keys, fewer runs) to check that everything runs.
** DIR (default .) receives the database files the exact lookups need. --charts
** DIR (made if missing) receives, as tables 1, 11a and 13 print, their figures
** as the data files of docs/charts (probe_cost.dat, insert_cost.dat,
** bits_per_key.dat), which tests/bench/charts.sh draws.
*/
#include "bench.h"
#include "twin.h"

#define XXH_INLINE_ALL /* the floors hash as a probe does, with XXH3 compiled in */
#include <xxhash.h>

/* noop(filter, key): the floor, SQLite's cost of calling a two-argument function. */
static void noop_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    sqlite3_result_int(ctx, 0);
}

/* The XXH3-64 hash of a key as the floors take it: an INTEGER's 8 bytes, as a probe hashes it
** (no conversion to text), else the bytes of its TEXT or BLOB. */
static uint64_t floor_hash(sqlite3_value *key) {
    if (sqlite3_value_type(key) == SQLITE_INTEGER) {
        sqlite3_int64 v = sqlite3_value_int64(key);
        return XXH3_64bits(&v, sizeof v);
    }
    const void *bytes = sqlite3_value_blob(key);
    return XXH3_64bits(bytes, (size_t)sqlite3_value_bytes(key));
}

/* floor_hash by XXH64 (seed 0), the hash Parquet fixes for its filters. */
static uint64_t floor_hash_parquet(sqlite3_value *key) {
    if (sqlite3_value_type(key) == SQLITE_INTEGER) {
        sqlite3_int64 v = sqlite3_value_int64(key);
        return XXH64(&v, sizeof v, 0);
    }
    const void *bytes = sqlite3_value_blob(key);
    return XXH64(bytes, (size_t)sqlite3_value_bytes(key), 0);
}

/* floor_hash by Spark's two passes of its Murmur3_x86_32 (h1 with seed 0, h2 with seed h1:
** key_hash_spark_long, key_hash_spark_bytes), the hash Spark fixes for its filters: the two
** 32-bit halves of the result. */
static uint64_t floor_hash_spark(sqlite3_value *key) {
    uint32_t h1, h2;
    if (sqlite3_value_type(key) == SQLITE_INTEGER) {
        sqlite3_int64 v = sqlite3_value_int64(key);
        h1 = key_hash_spark_long(v, 0);
        h2 = key_hash_spark_long(v, h1);
    } else {
        const void *bytes = sqlite3_value_blob(key);
        size_t length = (size_t)sqlite3_value_bytes(key);
        h1 = key_hash_spark_bytes(bytes, length, 0);
        h2 = key_hash_spark_bytes(bytes, length, h1);
    }
    return (uint64_t)h1 | (uint64_t)h2 << 32;
}

/* One byte of the filter argv[0], picked by h, as a result. */
static void floor_touch(sqlite3_context *ctx, sqlite3_value **argv, uint64_t h) {
    const unsigned char *filter = sqlite3_value_blob(argv[0]);
    int bytes = sqlite3_value_bytes(argv[0]);
    sqlite3_result_int(ctx, filter != NULL && bytes > 0 ? filter[h % (uint64_t)bytes] & 1 : 0);
}

/* floor(filter, key): the hash-and-touch floor of a probe (the least a probe can do): reads
** both arguments, hashes the key by XXH3-64 (floor_hash) and reads one byte of the filter that
** the hash picks. */
static void floor_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    floor_touch(ctx, argv, floor_hash(argv[1]));
}

/* floor_xxh64(filter, key): floor with the key hashed by XXH64, as a Parquet probe must. */
static void floor_xxh64_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    floor_touch(ctx, argv, floor_hash_parquet(argv[1]));
}

/* floor_spark(filter, key): floor with the key hashed as Spark hashes it (floor_hash_spark). */
static void floor_spark_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    floor_touch(ctx, argv, floor_hash_spark(argv[1]));
}

/* The step of hashagg: reads the three arguments and adds the key's hash by hash to the sum. */
static void hashagg_add(sqlite3_context *ctx, sqlite3_value **argv,
                        uint64_t (*hash)(sqlite3_value *)) {
    uint64_t *sum = sqlite3_aggregate_context(ctx, sizeof *sum);
    sqlite3_int64 n = sqlite3_value_int64(argv[1]);
    double p = sqlite3_value_double(argv[2]);
    if (sum != NULL && n > 0 && p > 0) {
        *sum += hash(argv[0]);
    }
}

/* hashagg(key, n, p): the floor of a build (the least an aggregate can do): reads its three
** arguments and hashes each key by XXH3-64 (floor_hash) into a sum it returns. */
static void hashagg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    hashagg_add(ctx, argv, floor_hash);
}

/* hashagg_spark(key, n, p): hashagg with the keys hashed as Spark hashes them (floor_hash_spark).
 */
static void hashagg_spark_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    hashagg_add(ctx, argv, floor_hash_spark);
}

static void hashagg_final(sqlite3_context *ctx) {
    uint64_t *sum = sqlite3_aggregate_context(ctx, 0);
    sqlite3_result_int64(ctx, sum != NULL ? (sqlite3_int64)*sum : 0);
}

/* Whether name is among the tables asked for (all when none is). */
static int wanted(int argc, char **argv, int first, const char *name) {
    if (first >= argc) {
        return 1;
    }
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], name) == 0) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    bench b = {NULL, 5, 0, ".", NULL, NULL};
    char *err = NULL;
    int arg = 2;
    if (argc < 2) {
        fprintf(stderr,
                "usage: %s EXTENSION [--quick] [--dir DIR] [--charts DIR] [core probe build exact "
                "forms scale live vacuum scalable countmin cuckoo livetable index parquet size]\n",
                argv[0]);
        return 2;
    }
    for (; arg < argc && strncmp(argv[arg], "--", 2) == 0; arg++) {
        if (strcmp(argv[arg], "--quick") == 0) {
            b.quick = 1;
            b.runs = 3;
        } else if (strcmp(argv[arg], "--dir") == 0 && arg + 1 < argc) {
            b.dir = argv[++arg];
        } else if (strcmp(argv[arg], "--charts") == 0 && arg + 1 < argc) {
            b.charts = argv[++arg];
            mkdir(b.charts, 0777); /* chart_open says so if it still cannot write there */
        } else {
            fprintf(stderr, "bloom_bench: unknown option %s\n", argv[arg]);
            return 2;
        }
    }
    b.extension = argv[1];
    char *path = format("%s/bench_main.db", b.dir);
    remove(path);
    if (sqlite3_open(path, &b.db) != SQLITE_OK ||
        sqlite3_db_config(b.db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(b.db, argv[1], NULL, &err) != SQLITE_OK ||
        sqlite3_create_function(b.db, "twin", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                twin_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(b.db, "noop", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                noop_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(b.db, "floor", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                floor_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(b.db, "floor_xxh64", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                floor_xxh64_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(b.db, "floor_spark", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                floor_spark_func, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(b.db, "hashagg", 3, SQLITE_UTF8 | SQLITE_INNOCUOUS, NULL, NULL,
                                hashagg_step, hashagg_final) != SQLITE_OK ||
        sqlite3_create_function(b.db, "hashagg_spark", 3, SQLITE_UTF8 | SQLITE_INNOCUOUS, NULL,
                                NULL, hashagg_spark_step, hashagg_final) != SQLITE_OK) {
        fprintf(stderr, "bloom_bench: cannot start: %s\n", err ? err : sqlite3_errmsg(b.db));
        return 2;
    }
    sqlite3_stmt *version = NULL;
    if (sqlite3_prepare_v2(b.db, "SELECT bloom_version()", -1, &version, NULL) != SQLITE_OK ||
        sqlite3_step(version) != SQLITE_ROW) {
        die(&b, "bloom_version()");
    }
    printf("## sqlite-bloom benchmark\n\nSQLite %s, sqlite-bloom %s, %s mode.\n",
           sqlite3_libversion(), (const char *)sqlite3_column_text(version, 0),
           b.quick ? "quick" : "full");
    sqlite3_finalize(version);
    char *cte = series(1000000);
    char *keys = format("CREATE TABLE keys(x INTEGER); INSERT INTO keys %s SELECT i FROM s;", cte);
    exec(&b, keys);
    sqlite3_free(cte);
    sqlite3_free(keys);
    static const struct {
        const char *name;
        void (*print)(bench *);
    } tables[] = {{"core", table_core},
                  {"probe", table_probe},
                  {"build", table_build},
                  {"exact", table_exact},
                  {"forms", table_forms},
                  {"scale", table_scale},
                  {"live", table_live},
                  {"vacuum", table_vacuum},
                  {"scalable", table_scalable},
                  {"countmin", table_countmin},
                  {"cuckoo", table_cuckoo_slack},
                  {"livetable", table_live_table},
                  {"index", table_index},
                  {"parquet", table_parquet},
                  {"size", table_size}};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (wanted(argc, argv, arg, tables[i].name)) {
            tables[i].print(&b);
        }
    }
    sqlite3_close(b.db);
    remove(path);
    sqlite3_free(path);
    return 0;
}
