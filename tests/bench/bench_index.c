/*
** bench_index.c: table 11c, the index over many filters of a live table (see bench.c).
*/
#include "bench.h"

/* The numbers of names 11c loads (quick: smaller), the keys a name holds, and the filters'
** parameters: the (blocked, n = 100, p = 0.0001). */
enum { INDEX_SIZES = 3, KEYS_A_NAME = 100, INDEX_N = 100 };
#define INDEX_P 0.0001

/* What one number of names measured. */
typedef struct index_run {
    sqlite3_int64 names;
    double load;            /* seconds a key, the bulk load */
    double optimize;        /* seconds, 'optimize' */
    double lookup;          /* seconds a lookup by key, the index made */
    double unindexed;       /* seconds a lookup by key without it (small tables only), or 0 */
    double primary;         /* seconds a primary-key lookup of an ordinary table */
    double floor;           /* seconds k reads of rows of a bit a name through a BLOB handle */
    double cold;            /* seconds a lookup with SQLite's default page cache (2 MB) */
    double false_names;     /* a lookup of an absent key: names returned */
    sqlite3_int64 missed;   /* present keys whose name was not returned */
    double index_megabytes; /* the index's rows */
} index_run;

/* A prepared statement of sql on lb's connection; exits on failure. */
static sqlite3_stmt *prepare_index(bench *lb, const char *sql) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(lb->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(lb, sql);
    }
    return stmt;
}

/* Runs the lookup stmt of key: the names it returns, into *names; 1 into *found when one of them
** is expected (NULL: none looked for). */
static void lookup_names(bench *lb, sqlite3_stmt *stmt, sqlite3_int64 key, const char *expected,
                         sqlite3_int64 *names, int *found) {
    int rc;
    sqlite3_bind_int64(stmt, 1, key);
    *names = 0;
    *found = 0;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        ++*names;
        const char *name = (const char *)sqlite3_column_text(stmt, 0);
        *found |= expected != NULL && name != NULL && strcmp(name, expected) == 0;
    }
    if (rc != SQLITE_DONE) {
        die(lb, sqlite3_sql(stmt));
    }
    sqlite3_reset(stmt);
}

/* Seconds a lookup of probes keys by stmt (half present, half absent), in the order of the seed;
** counts present keys missed and false names of absent keys into *missed and *false_names. */
static double timed_lookups(bench *lb, sqlite3_stmt *stmt, sqlite3_int64 names, int probes,
                            sqlite3_int64 *missed, sqlite3_int64 *false_names) {
    uint64_t state = 11;
    *missed = 0;
    *false_names = 0;
    double start = now();
    for (int i = 0; i < probes; i++) {
        uint64_t r = next_random(&state);
        sqlite3_int64 key = (sqlite3_int64)(r % (uint64_t)(names * KEYS_A_NAME)), count;
        char expected[32];
        int found;
        if (i % 2 == 0) {
            snprintf(expected, sizeof expected, "part-%lld", (long long)(key / KEYS_A_NAME));
            lookup_names(lb, stmt, key, expected, &count, &found);
            *missed += !found;
        } else {
            lookup_names(lb, stmt, -1 - key, NULL, &count, &found);
            *false_names += count;
        }
    }
    return (now() - start) / probes;
}

/* Seconds a primary-key lookup of catalog, probes of them. */
static double timed_primary(bench *lb, sqlite3_stmt *stmt, sqlite3_int64 names, int probes) {
    uint64_t state = 11;
    sqlite3_int64 count;
    int found;
    double start = now();
    for (int i = 0; i < probes; i++) {
        lookup_names(lb, stmt, (sqlite3_int64)(next_random(&state) % (uint64_t)names), NULL, &count,
                     &found);
    }
    return (now() - start) / probes;
}

/* Seconds k reads of random rows of slices (rows rows of names bits: as many rows, of as many
** bytes, as the index holds) through one BLOB handle moved from row to row: the least a lookup
** that reads k rows of a bit a filter can cost. */
static double timed_floor(bench *lb, sqlite3_int64 rows, int k, int probes) {
    sqlite3_blob *blob = NULL;
    uint64_t state = 5, sum = 0;
    if (sqlite3_blob_open(lb->db, "main", "slices", "bits", 1, 0, &blob) != SQLITE_OK) {
        die(lb, "sqlite3_blob_open of slices");
    }
    int bytes = sqlite3_blob_bytes(blob);
    uint8_t *row = malloc((size_t)bytes);
    if (row == NULL) {
        die(lb, "out of memory");
    }
    double start = now();
    for (int i = 0; i < probes; i++) {
        for (int j = 0; j < k; j++) {
            sqlite3_int64 id = 1 + (sqlite3_int64)(next_random(&state) % (uint64_t)rows);
            if (sqlite3_blob_reopen(blob, id) != SQLITE_OK ||
                sqlite3_blob_read(blob, row, bytes, 0) != SQLITE_OK) {
                die(lb, "reading a row of slices");
            }
            sum += row[j % bytes];
        }
    }
    double seconds = (now() - start) / probes;
    sqlite3_blob_close(blob);
    free(row);
    return sum == UINT64_MAX ? 0 : seconds;
}

/* Loads names names of KEYS_A_NAME keys into a live table of a new database, makes its index
** and times its lookups against their floors, runs times in turns. */
static index_run index_measure(bench *b, sqlite3_int64 names, int probes, int k, sqlite3_int64 m) {
    char *path, *wal;
    bench lb = open_bench_file(b, "bench_index.db", &path, &wal);
    index_run run = {.names = names};
    const int runs = b->runs < LIVE_RUNS_MAX ? b->runs : LIVE_RUNS_MAX;
    char *cte = series(names * KEYS_A_NAME);
    char *setup = format("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                         "CREATE VIRTUAL TABLE parts USING bloom(kind = 'blocked', n = %d, "
                         "p = %g); CREATE TABLE catalog(id INTEGER PRIMARY KEY, name TEXT); "
                         "CREATE TABLE slices(id INTEGER PRIMARY KEY, bits BLOB);",
                         INDEX_N, INDEX_P);
    exec(&lb, setup);
    char *load = format("BEGIN; INSERT INTO parts(name, key) %s SELECT 'part-' || (i / %d), i "
                        "FROM (SELECT i - 1 AS i FROM s); COMMIT;",
                        cte, KEYS_A_NAME);
    double start = now();
    exec(&lb, load);
    run.load = (now() - start) / (double)(names * KEYS_A_NAME);
    truncate_wal(&lb, wal);
    start = now();
    exec(&lb, "INSERT INTO parts(parts) VALUES ('optimize')");
    run.optimize = now() - start;
    truncate_wal(&lb, wal);
    run.index_megabytes =
        (double)fetch_int(&lb, "SELECT sum(length(data)) FROM parts_chunks WHERE id < 0") / 1e6;
    char *catalog = format("INSERT INTO catalog %s SELECT i - 1, 'part-' || (i - 1) FROM s "
                           "WHERE i <= %lld; INSERT INTO slices %s SELECT i, randomblob(%lld) "
                           "FROM s WHERE i <= %lld;",
                           cte, (long long)names, cte, (long long)(names + 7) / 8, (long long)m);
    exec(&lb, catalog);
    truncate_wal(&lb, wal);
    /* A page cache that holds the index and the filters' list, read once beforehand. */
    exec(&lb, "PRAGMA cache_size = -1000000");
    sqlite3_stmt *lookup = prepare_index(&lb, "SELECT name FROM parts WHERE key = ?1");
    sqlite3_stmt *primary = prepare_index(&lb, "SELECT name FROM catalog WHERE id = ?1");
    sqlite3_int64 missed, false_names, total_missed = 0;
    (void)timed_lookups(&lb, lookup, names, probes, &missed, &false_names);
    (void)timed_floor(&lb, m, k, probes);
    double lookups[LIVE_RUNS_MAX], primaries[LIVE_RUNS_MAX], floors[LIVE_RUNS_MAX];
    for (int r = 0; r < runs; r++) {
        lookups[r] = timed_lookups(&lb, lookup, names, probes, &missed, &false_names);
        primaries[r] = timed_primary(&lb, primary, names, probes);
        floors[r] = timed_floor(&lb, m, k, probes);
        total_missed += missed;
    }
    run.lookup = median(lookups, runs);
    run.primary = median(primaries, runs);
    run.floor = median(floors, runs);
    run.false_names = (double)false_names / (probes / 2);
    sqlite3_finalize(lookup);
    sqlite3_finalize(primary);
    /* SQLite's default page cache, on a connection of its own. */
    bench cold = lb;
    cold.db = open_live(b, path);
    lookup = prepare_index(&cold, "SELECT name FROM parts WHERE key = ?1");
    for (int r = 0; r < runs; r++) {
        lookups[r] = timed_lookups(&cold, lookup, names, probes, &missed, &false_names);
        total_missed += missed;
    }
    run.cold = median(lookups, runs);
    sqlite3_finalize(lookup);
    sqlite3_close(cold.db);
    /* Without the index, where a lookup probes every filter (small tables: it grows with them). */
    if (names <= 10000) {
        exec(&lb, "DELETE FROM parts_chunks WHERE id < 0");
        bench plain = lb;
        plain.db = open_live(b, path);
        exec(&plain, "PRAGMA cache_size = -1000000");
        lookup = prepare_index(&plain, "SELECT name FROM parts WHERE key = ?1");
        (void)timed_lookups(&plain, lookup, names, probes / 10, &missed, &false_names);
        run.unindexed = timed_lookups(&plain, lookup, names, probes / 10, &missed, &false_names);
        total_missed += missed;
        sqlite3_finalize(lookup);
        sqlite3_close(plain.db);
    }
    run.missed = total_missed;
    sqlite3_free(cte);
    sqlite3_free(setup);
    sqlite3_free(load);
    sqlite3_free(catalog);
    close_bench_file(&lb, path, wal);
    return run;
}

void table_index(bench *b) {
    const sqlite3_int64 sizes[INDEX_SIZES] = {1000, b->quick ? 3000 : 10000,
                                              b->quick ? 10000 : 100000};
    const int probes = b->quick ? 400 : 2000;
    char *k_sql = format("SELECT json_extract(bloom_info(bloom_empty(%d, %g, 'blocked')), '$.k')",
                         INDEX_N, INDEX_P);
    char *m_sql = format("SELECT json_extract(bloom_info(bloom_empty(%d, %g, 'blocked')), '$.m')",
                         INDEX_N, INDEX_P);
    const int k = (int)fetch_int(b, k_sql);
    const sqlite3_int64 m = fetch_int(b, m_sql);
    sqlite3_free(k_sql);
    sqlite3_free(m_sql);
    index_run runs[INDEX_SIZES];
    for (int i = 0; i < INDEX_SIZES; i++) {
        runs[i] = index_measure(b, sizes[i], probes, k, m);
    }
    printf("\n### 11c. The index over many filters of a live table\n\n");
    printf("A live table `parts` of 'blocked' filters for n = %d at p = %g, a name each %d keys "
           "(INTEGERs; name i holds %d i to %d i + %d), loaded by one `INSERT INTO parts(name, "
           "key) SELECT ...` in a transaction; then `INSERT INTO parts(parts) VALUES ('optimize')` "
           "makes the index. A lookup is `SELECT name FROM parts WHERE key = ?1`, its names read, "
           "over %d keys, half of them present (each must return its name: missed counts those "
           "that did not) and half absent (their names are false). Against: a primary-key lookup "
           "`SELECT name FROM catalog WHERE id = ?1` of an ordinary table of the same database, "
           "and the floor of any index read by rows: %d reads (the filters' k) of random rows of a "
           "table of %lld rows (the filters' m) of a bit a name (%s) through one BLOB handle moved "
           "from row to row. The page cache holds "
           "the index (`PRAGMA cache_size = -1000000`, read once before); the cold column is a "
           "new connection with SQLite's default cache of 2 MB. Median of %d runs, in turns; the "
           "load and 'optimize' once.\n\n",
           INDEX_N, INDEX_P, KEYS_A_NAME, KEYS_A_NAME, KEYS_A_NAME, KEYS_A_NAME - 1, probes, k,
           (long long)m, "names / 8 bytes", b->runs < LIVE_RUNS_MAX ? b->runs : LIVE_RUNS_MAX);
    printf("| names | load, µs a key | load / 1,000 names' | optimize, s | optimize / load | "
           "index, MB | lookup, µs | primary key, µs | lookup / primary key | lookup / 1,000 "
           "names' | floor (k rows), µs | floor / 1,000 names' | lookup / floor | cold cache, µs | "
           "without the index, "
           "µs | false names a lookup (2 N p + 0.5) | missed |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < INDEX_SIZES; i++) {
        const index_run *r = &runs[i];
        char unindexed[32] = "";
        if (r->unindexed > 0) {
            snprintf(unindexed, sizeof unindexed, "%.0f", r->unindexed * 1e6);
        }
        double load_seconds = r->load * (double)(r->names * KEYS_A_NAME);
        printf("| %lld | %.2f | %.2f | %.2f | %.2f | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f | "
               "%.2f | %.2f | %.0f | %s | %.2f (%.1f) | %lld |\n",
               (long long)r->names, r->load * 1e6, r->load / runs[0].load, r->optimize,
               r->optimize / load_seconds, r->index_megabytes, r->lookup * 1e6, r->primary * 1e6,
               r->lookup / r->primary, r->lookup / runs[0].lookup, r->floor * 1e6,
               r->floor / runs[0].floor, r->lookup / r->floor, r->cold * 1e6, unindexed,
               r->false_names, 2 * (double)r->names * INDEX_P + 0.5, (long long)r->missed);
        if (r->missed != 0) {
            die(b, "a lookup missed the name of a key it holds");
        }
    }
    fflush(stdout);
}
