/*
** bench_countmin.c: table 9, the count-min sketch (see bench.c).
*/
#include "bench.h"

/* Draws of ranks 1..keys with chance proportional to 1 / rank^s: the cumulative distribution,
** searched. */
typedef struct zipf {
    double *cdf;
    uint64_t keys;
} zipf;

static zipf zipf_make(bench *b, uint64_t keys, double s) {
    zipf z = {malloc(sizeof(double) * keys), keys};
    double sum = 0;
    if (z.cdf == NULL) {
        die(b, "out of memory");
    }
    for (uint64_t r = 1; r <= keys; r++) {
        sum += pow((double)r, -s);
        z.cdf[r - 1] = sum;
    }
    for (uint64_t r = 0; r < keys; r++) {
        z.cdf[r] /= sum;
    }
    z.cdf[keys - 1] = 1.0;
    return z;
}

static uint64_t zipf_draw(const zipf *z, uint64_t *state) {
    double u = (double)(next_random(state) >> 11) * 0x1.0p-53;
    uint64_t lo = 0, hi = z->keys - 1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (z->cdf[mid] < u) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo + 1;
}

/* Runs sql (one statement, ?1 bound to each value) for the values v[0..count-1] in one
** transaction. */
static void insert_all(bench *b, const char *sql, const sqlite3_int64 *v, uint64_t count) {
    sqlite3_stmt *stmt = NULL;
    exec(b, "BEGIN");
    if (sqlite3_prepare_v2(b->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(b, sql);
    }
    for (uint64_t i = 0; i < count; i++) {
        sqlite3_bind_int64(stmt, 1, v[i]);
        if (sqlite3_step(stmt) != SQLITE_DONE) {
            die(b, sql);
        }
        sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
    exec(b, "COMMIT");
}

void table_countmin(bench *b) {
    bench_clock = CLOCK_THREAD_CPUTIME_ID; /* restored at the end */
    static const double settings[][2] = {{0.001, 0.01}, {0.0001, 0.01}, {0.0001, 0.001}};
    enum { SETTINGS = 3, MAIN = 1 };
    const uint64_t keys = b->quick ? 100000 : 1000000, events = b->quick ? 1000000 : 10000000;
    const double exponent = 1.0;
    uint64_t state = 20261204, *exact = calloc(keys + 1, sizeof(uint64_t));
    sqlite3_int64 *values = malloc(sizeof(sqlite3_int64) * (events > keys ? events : keys));
    if (exact == NULL || values == NULL) {
        die(b, "out of memory");
    }
    /* The stream: events(key), in the order drawn. */
    zipf z = zipf_make(b, keys, exponent);
    for (uint64_t i = 0; i < events; i++) {
        uint64_t rank = zipf_draw(&z, &state);
        exact[rank]++;
        values[i] = (sqlite3_int64)rank;
    }
    free(z.cdf);
    exec(b, "DROP TABLE IF EXISTS events; CREATE TABLE events(key INTEGER);"
            "DROP TABLE IF EXISTS probes; CREATE TABLE probes(key INTEGER);");
    insert_all(b, "INSERT INTO events VALUES (?1)", values, events);
    /* The probes: every key of 1..keys once, in a random order. */
    for (uint64_t i = 0; i < keys; i++) {
        values[i] = (sqlite3_int64)i + 1;
    }
    for (uint64_t i = keys - 1; i > 0; i--) {
        uint64_t j = next_random(&state) % (i + 1);
        sqlite3_int64 t = values[i];
        values[i] = values[j];
        values[j] = t;
    }
    insert_all(b, "INSERT INTO probes VALUES (?1)", values, keys);
    free(values);
    /* The exact counts, in a file of their own to measure its size. */
    char *path = format("%s/bench_counts.db", b->dir);
    remove(path);
    char *attach = format("ATTACH %Q AS exact", path);
    exec(b, attach);
    exec(b, "CREATE TABLE exact.counts(key INTEGER PRIMARY KEY, c INTEGER);"
            "INSERT INTO exact.counts SELECT key, count(*) FROM events GROUP BY key;");
    uint64_t seen = 0, top = 0;
    for (uint64_t r = 1; r <= keys; r++) {
        seen += exact[r] > 0;
        top = exact[r] > top ? exact[r] : top;
    }
    if ((uint64_t)fetch_int(b, "SELECT count(*) FROM exact.counts") != seen) {
        die(b, "GROUP BY and the stream disagree");
    }
    sqlite3_int64 counts_bytes =
        fetch_int(b, "SELECT page_count * page_size FROM pragma_page_count('exact'), "
                     "pragma_page_size('exact')");
    printf("\n### 9. Count-min sketch on a Zipf stream\n\n");
    printf("A stream of %llu events over the keys 1 to %llu, Zipf-distributed with exponent s = "
           "%.1f (key r drawn with chance proportional to 1/r^s, by the benchmark's splitmix64 "
           "from seed 20261204): %llu keys seen, the most frequent %llu times. The events in "
           "`events(key INTEGER)`, in the order drawn. A sketch `cms_build(key, epsilon, delta)` "
           "(plain) or `cms_build(key, 1, epsilon, delta, 'conservative')` over the table, then "
           "the estimate of every key of 1..%llu (countmin_estimate, the code of cms_count; "
           "their sum checked against `sum(cms_count(?1, key))`) against the exact count. "
           "Error = estimate - count (never below 0: checked); N = %llu.\n\n",
           (unsigned long long)events, (unsigned long long)keys, exponent, (unsigned long long)seen,
           (unsigned long long)top, (unsigned long long)keys, (unsigned long long)events);
    printf("| epsilon | delta | update | width x depth | bytes | epsilon N | keys within epsilon "
           "N | share (at least 1 - delta) | largest error | mean error | keys exact | build s "
           "(one run) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    void *sketches[2] = {NULL, NULL};
    int sketch_bytes[2] = {0, 0};
    char *builds[2] = {NULL, NULL};
    for (int s = 0; s < SETTINGS; s++) {
        for (int update = 0; update < 2; update++) {
            double epsilon = settings[s][0], delta = settings[s][1];
            char *sql = update == 0
                            ? format("SELECT cms_build(key, %g, %g) FROM events", epsilon, delta)
                            : format("SELECT cms_build(key, 1, %g, %g, 'conservative') "
                                     "FROM events",
                                     epsilon, delta);
            int bytes;
            double start = now();
            void *sketch = fetch_blob(b, sql, &bytes);
            double build_seconds = now() - start;
            filter_view f;
            char why[FILTER_WHY_MAX];
            if (filter_open(sketch, (uint64_t)bytes, &f, why) != FILTER_OK) {
                die(b, why);
            }
            countmin_header h = countmin_header_of(&f);
            if (h.total != events) {
                die(b, "the sketch's total is not the number of events");
            }
            double bound = epsilon * (double)events, error_sum = 0;
            uint64_t within = 0, largest = 0, exact_keys = 0, estimate_sum = 0;
            for (uint64_t r = 1; r <= keys; r++) {
                uint64_t estimate = countmin_estimate(&f, key_hash_integer((int64_t)r));
                if (estimate < exact[r]) {
                    die(b, "a count-min estimate is below the true count");
                }
                uint64_t error = estimate - exact[r];
                within += (double)error <= bound;
                exact_keys += error == 0;
                largest = error > largest ? error : largest;
                error_sum += (double)error;
                estimate_sum += estimate;
            }
            if ((uint64_t)fetch_int_bound(b, "SELECT sum(cms_count(?1, key)) FROM probes", sketch,
                                          bytes) != estimate_sum) {
                die(b, "cms_count and countmin_estimate disagree");
            }
            printf("| %g | %g | %s | %llu x %u | %d | %.0f | %llu | %.4f %% | %llu | %.1f | %.2f "
                   "%% | %.1f |\n",
                   epsilon, delta, countmin_update_name(h.update), (unsigned long long)h.width,
                   (unsigned)h.depth, bytes, bound, (unsigned long long)within,
                   100.0 * (double)within / (double)keys, (unsigned long long)largest,
                   error_sum / (double)keys, 100.0 * (double)exact_keys / (double)keys,
                   build_seconds);
            fflush(stdout);
            if (s == MAIN) {
                sketches[update] = sketch;
                sketch_bytes[update] = bytes;
                builds[update] = sql;
            } else {
                free(sketch);
                sqlite3_free(sql);
            }
        }
    }
    printf("\nThe exact counts, `counts(key INTEGER PRIMARY KEY, c INTEGER)` from the GROUP BY, "
           "take %lld bytes in a file of their own.\n",
           (long long)counts_bytes);
    /* Building, against count(key) and the exact GROUP BY. */
    query build_queries[] = {
        {"count", "SELECT count(key) FROM events", NULL, 0},
        {"group", "SELECT key, count(*) FROM events GROUP BY key", NULL, 0},
        {"plain", builds[0], NULL, 0},
        {"conservative", builds[1], NULL, 0},
    };
    enum { BUILDS = sizeof build_queries / sizeof build_queries[0] };
    double bt[BUILDS];
    time_in_turns(b, build_queries, BUILDS, bt);
    printf("\nBuilding, epsilon = %g, delta = %g, over the %llu rows of `events`, median of %d "
           "runs in turns:\n\n",
           settings[MAIN][0], settings[MAIN][1], (unsigned long long)events, b->runs);
    printf("| query | ns/event | ratio to the GROUP BY |\n|---|---|---|\n");
    for (int i = 0; i < BUILDS; i++) {
        printf("| `%s` | %.1f | %.2f |\n", build_queries[i].sql, bt[i] * 1e9 / (double)events,
               bt[i] / bt[1]);
    }
    /* Querying, against the indexed lookup. */
    const char *lookup = "SELECT sum((SELECT c FROM exact.counts WHERE counts.key = probes.key)) "
                         "FROM probes";
    query query_queries[] = {
        {"noop", "SELECT sum(noop(?1, key)) FROM probes", sketches[0], sketch_bytes[0]},
        {"plain", "SELECT sum(cms_count(?1, key)) FROM probes", sketches[0], sketch_bytes[0]},
        {"conservative", "SELECT sum(cms_count(?1, key)) FROM probes", sketches[1],
         sketch_bytes[1]},
        {"lookup", (char *)lookup, NULL, 0},
    };
    enum { QUERIES = sizeof query_queries / sizeof query_queries[0] };
    double qt[QUERIES], large_cache;
    sqlite3_int64 found = 0;
    run_once(b, &query_queries[3], &found);
    if ((uint64_t)found != events) {
        die(b, "the exact counts do not add up to the events");
    }
    time_in_turns(b, query_queries, QUERIES, qt);
    char *cache = format("PRAGMA exact.cache_size = %lld", -(counts_bytes / 1024) * 2);
    exec(b, cache);
    sqlite3_free(cache);
    run_once(b, &query_queries[3], NULL); /* warm the cache */
    time_in_turns(b, &query_queries[3], 1, &large_cache);
    exec(b, "PRAGMA exact.cache_size = -2000");
    printf("\nQuerying: the %llu keys of `probes(key)` (every key of 1..%llu once, in a random "
           "order), the sketch (%d bytes) bound to ?1, against the exact count looked up in "
           "`counts` by its INTEGER PRIMARY KEY, with SQLite's default 2 MB page cache and "
           "with one that holds the table. Median of %d runs in turns.\n\n",
           (unsigned long long)keys, (unsigned long long)keys, sketch_bytes[0], b->runs);
    printf("| query | ns/row | ratio to the lookup |\n|---|---|---|\n");
    for (int i = 0; i < QUERIES; i++) {
        printf("| `%s`%s%s | %.1f | %.2f |\n", query_queries[i].sql,
               i == 1   ? ", plain"
               : i == 2 ? ", conservative"
                        : "",
               i == 3 ? ", 2 MB page cache" : "", qt[i] * 1e9 / (double)keys, qt[i] / qt[3]);
    }
    printf("| `%s`, page cache holding the table | %.1f | %.2f |\n", lookup,
           large_cache * 1e9 / (double)keys, large_cache / qt[3]);
    fflush(stdout);
    exec(b, "DETACH exact; DROP TABLE events; DROP TABLE probes;");
    remove(path);
    sqlite3_free(path);
    sqlite3_free(attach);
    for (int i = 0; i < 2; i++) {
        free(sketches[i]);
        sqlite3_free(builds[i]);
    }
    free(exact);
    bench_clock = CLOCK_MONOTONIC;
}
