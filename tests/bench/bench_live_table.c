/*
** bench_live_table.c: tables 11a and 11b, live tables (see bench.c).
*/
#include "bench.h"

/* 11a's inserts: into a table without a trigger, through a trigger into a live table, through a
** trigger calling bloom_add_in_place on the same filter stored as a BLOB, through a trigger
** into an ordinary table (the least a trigger that writes a row costs), and through a trigger
** that rewrites a random row of a copy of the chunk rows (the least a filter kept in page-sized
** rows of the database costs). */
enum {
    LIVE_TABLE_SIZES = 4,
    PLAIN_INSERT = 0,
    LIVE_INSERT,
    IN_PLACE_INSERT,
    HELD_LIVE_INSERT,     /* LIVE_INSERT with a page cache that holds the chunks, read beforehand */
    TABLE_TRIGGER_INSERT, /* through a trigger that inserts the name into an ordinary table */
    PAGE_TRIGGER_INSERT,  /* through a trigger that updates a random row of a chunk rows' copy */
    TABLE_INSERT_CASES
};

/* Names of HELD_LIVE_INSERT's inserts start past the others', so that its keys are new. */
#define HELD_NAMES_FROM 1000000000LL

/* A prepared statement of sql on lb's connection; exits on failure. */
static sqlite3_stmt *prepare(bench *lb, const char *sql) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(lb->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(lb, sql);
    }
    return stmt;
}

/* Runs stmt, with the text key bound to ?1 when key is not NULL, to its end; its first
** column's integer (0 without a row). */
static sqlite3_int64 step_all(bench *lb, sqlite3_stmt *stmt, const char *key) {
    sqlite3_int64 first = 0;
    int rc, row = 0;
    if (key != NULL) {
        sqlite3_bind_text(stmt, 1, key, -1, SQLITE_TRANSIENT);
    }
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (row++ == 0) {
            first = sqlite3_column_int64(stmt, 0);
        }
    }
    if (rc != SQLITE_DONE) {
        die(lb, sqlite3_sql(stmt));
    }
    sqlite3_reset(stmt);
    return first;
}

/* A filter of kind for capacity keys at 1 %: bloom_empty's, its body random bytes (about half
** the bits set, as a Bloom filter at capacity has them), from malloc; *bytes its size. */
static void *random_filter(bench *lb, const char *kind, sqlite3_int64 capacity, int *bytes) {
    char *sql = format("SELECT bloom_empty(%lld, 0.01, '%s')", (long long)capacity, kind);
    uint8_t *filter = fetch_blob(lb, sql, bytes);
    uint64_t state = (uint64_t)capacity;
    for (int i = 64; i < *bytes; i++) {
        filter[i] = (uint8_t)next_random(&state);
    }
    sqlite3_free(sql);
    return filter;
}

/* Makes seen a live table of kind for capacity keys holding filter (bytes long), with the
** trigger that adds each new users(name) to it. */
static void live_table_make(bench *lb, const char *kind, sqlite3_int64 capacity, const void *filter,
                            int bytes) {
    char *create = format("DROP TRIGGER IF EXISTS users_seen; DROP TABLE IF EXISTS seen; "
                          "CREATE VIRTUAL TABLE seen USING "
                          "bloom(kind = '%s', n = %lld, p = 0.01); CREATE TRIGGER users_seen "
                          "AFTER INSERT ON users BEGIN INSERT INTO seen(key) VALUES (NEW.name); "
                          "END;",
                          kind, (long long)capacity);
    exec(lb, create);
    sqlite3_free(create);
    sqlite3_stmt *load = prepare(lb, "INSERT INTO seen(filter) VALUES (?1)");
    sqlite3_bind_blob(load, 1, filter, bytes, SQLITE_STATIC);
    step_all(lb, load, NULL);
    sqlite3_finalize(load);
}

/* Inserts count names 'user-N' (N from *name on) with insert, one a transaction; the seconds
** an insert took, and the WAL pages an insert wrote in *pages. */
static double timed_inserts(bench *lb, const char *wal, sqlite3_stmt *insert, int count,
                            sqlite3_int64 *name, double *pages) {
    const sqlite3_int64 page_size = fetch_int(lb, "PRAGMA page_size");
    truncate_wal(lb, wal);
    double start = now();
    for (int i = 0; i < count; i++) {
        char text[32];
        snprintf(text, sizeof text, "user-%lld", (long long)++*name);
        step_all(lb, insert, text);
    }
    double seconds = (now() - start) / count;
    long long wal_bytes = file_bytes(wal);
    *pages = wal_bytes > 32 ? (double)((wal_bytes - 32) / (page_size + 24)) / count : 0.0;
    return seconds;
}

/* Makes pages, a copy of seen_chunks' chunk_rows rows of bytes, and paged's trigger, which
** rewrites one of them at random (a multiplicative hash of the insert's rowid) at each insert. */
static void copy_chunk_rows(bench *lb, sqlite3_int64 chunk_rows) {
    char *sql = format("CREATE TABLE pages(id INTEGER PRIMARY KEY, n INTEGER, data BLOB); "
                       "INSERT INTO pages(n, data) SELECT 1000, data FROM seen_chunks ORDER BY id; "
                       "CREATE TRIGGER paged_page AFTER INSERT ON paged BEGIN UPDATE pages SET "
                       "n = n + 1 WHERE id = 1 + NEW.rowid * 2654435761 %% %lld; END;",
                       (long long)chunk_rows);
    exec(lb, sql);
    sqlite3_free(sql);
}

/* Seconds a probe statement of lookup took, one key a step, over probes keys: for text_keys,
** names inserted ('user-1' to 'user-inserted') alternating with names never inserted, else
** integers from 1 to 1M; the sum of the first columns in *hits. */
static double timed_probes(bench *lb, sqlite3_stmt *lookup, int probes, int text_keys,
                           sqlite3_int64 inserted, sqlite3_int64 *hits) {
    double start = now();
    *hits = 0;
    for (int j = 1; j <= probes; j++) {
        if (text_keys) {
            char text[32];
            if (j % 2) {
                snprintf(text, sizeof text, "user-%lld", 1 + (long long)(j / 2 % inserted));
            } else {
                snprintf(text, sizeof text, "absent-%d", j);
            }
            *hits += step_all(lb, lookup, text);
        } else {
            sqlite3_bind_int64(lookup, 1, 1 + (j * 7919LL) % 1000000);
            *hits += step_all(lb, lookup, NULL);
        }
    }
    return (now() - start) / probes;
}

/* Inserts a run of 11a's in-place case into a filter of bytes, where the others make inserts: as
** many up to 2 MB, fewer above, as each reads the BLOB's whole overflow chain (at least 20). */
static int in_place_inserts(int inserts, int bytes) {
    int count = bytes <= 2000000 ? inserts : (int)((double)inserts * 2e6 / bytes);
    return count < 20 ? 20 : count;
}

/* Stores filter (bytes long) as the BLOB of row 1 of filters, which stored's trigger keeps up to
** date in place. */
static void store_filter(bench *lb, const void *filter, int bytes) {
    sqlite3_stmt *store = prepare(lb, "INSERT OR REPLACE INTO filters(id, filter) VALUES (1, ?1)");
    sqlite3_bind_blob(store, 1, filter, bytes, SQLITE_STATIC);
    step_all(lb, store, NULL);
    sqlite3_finalize(store);
}

/* 11a. Inserts through a trigger and probes, by kind and capacity. */
static void live_table_inserts(bench *lb, const char *wal) {
    static const sqlite3_int64 sizes[LIVE_TABLE_SIZES] = {100000, 1000000, 10000000, 100000000};
    static const sqlite3_int64 quick_sizes[LIVE_TABLE_SIZES] = {10000, 100000, 0, 0};
    const int runs = lb->runs < LIVE_RUNS_MAX ? lb->runs : LIVE_RUNS_MAX;
    const int inserts = lb->quick ? 200 : 2000, probes = lb->quick ? 2000 : 20000;
    const filter_kind *kinds[FILTER_KIND_COUNT];
    const int kind_count = kinds_where(adds_in_place_without_growing, kinds);
    sqlite3_int64 name = 0;
    double first_insert = 0, first_probe = 0;
    printf("\n### 11a. The live table: inserts through a trigger, and probes\n\n");
    printf("A file database in WAL mode, `PRAGMA synchronous=NORMAL`, SQLite's default page "
           "cache (2 MB), `PRAGMA wal_autocheckpoint=0`. `seen` is a live table of the kind for "
           "the capacity at p = 0.01, loaded with a filter whose body is random bytes (about "
           "half its bits set, as at capacity; 'blocked' at every capacity, the other kinds that "
           "add in place at the second, built by `bloom_build` of half the capacity's keys). "
           "Committed inserts, one a transaction, of new names 'user-N' into `plain(name)`, "
           "into `users(name)`, whose trigger runs `INSERT INTO seen(key) VALUES (NEW.name)`, "
           "and into `stored(name)`, whose trigger runs `SELECT bloom_add_in_place('filters', "
           "'filter', 1, NEW.name)` on the same filter stored as the BLOB of row 1 of "
           "`filters` (%d inserts a run, fewer for a filter over 2 MB: %d x 2 MB / its bytes, "
           "at least 20); and into `users` again, other names, with a page cache of twice the "
           "filter's bytes that the chunk rows were read into first (`held`: as in a program "
           "that keeps its page cache warm), the cache set back to 2 MB after; and into "
           "`logged(name)`, whose trigger runs `INSERT INTO log(name) VALUES (NEW.name)` into an "
           "ordinary table: the least a trigger that writes a row costs; and into `paged(name)`, "
           "whose trigger runs `UPDATE pages SET n = n + 1 WHERE id = 1 + NEW.rowid * "
           "2654435761 %% (chunk rows)` on `pages(id INTEGER PRIMARY KEY, n, data)`, a copy of "
           "the chunk rows' bytes (`rewriting a page`: a random row of the filter's size and "
           "number of rows read and written, the least a filter kept in page-sized rows costs). "
           "WAL pages an insert = (WAL bytes - 32) / (page size + 24) after the WAL was "
           "truncated. Then, prepared once and stepped a key at a time, `SELECT "
           "count(*) FROM seen WHERE key = ?1` (half the keys inserted) against the primary-key "
           "lookup `SELECT x FROM keys WHERE rowid = ?1` in a table of 1M rows. Median of %d "
           "runs, in turns; `insert / first capacity` and `probe / first capacity` compare with "
           "the first capacity of the kind.\n\n",
           inserts, inserts, runs);
    printf(
        "| kind | capacity | filter bytes | chunk rows | plain insert µs | trigger insert µs "
        "| ratio | WAL pages/insert plain | trigger | in-place inserts a run | in-place insert "
        "µs | ratio to plain | WAL pages/insert in place | probe µs | primary-key lookup µs | "
        "ratio | insert / first capacity | probe / first capacity | held trigger insert µs | "
        "held ratio to plain | trigger into a table µs | its ratio to plain | trigger rewriting a "
        "page µs | its ratio to plain | trigger insert / it |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        "---|---|---|\n");
    FILE *chart = chart_open(lb, "insert_cost.dat");
    chart_printf(chart, "# Table 11a of bloom_bench: microseconds a committed insert, without a "
                        "trigger, through a trigger into a live table, through a trigger calling "
                        "bloom_add_in_place, through a trigger into an ordinary table.\n"
                        "# kind capacity filter_bytes plain live_table in_place table_trigger\n");
    for (int k = 0; k < kind_count; k++) {
        int blocked = strcmp(kinds[k]->name, "blocked") == 0;
        for (int s = blocked ? 0 : 1; s < (blocked ? LIVE_TABLE_SIZES : 2); s++) {
            sqlite3_int64 capacity = lb->quick ? quick_sizes[s] : sizes[s];
            if (capacity == 0) {
                continue;
            }
            int bytes;
            void *filter;
            if (blocked || strcmp(kinds[k]->name, "standard") == 0) {
                filter = random_filter(lb, kinds[k]->name, capacity, &bytes);
            } else {
                char *cte = series(capacity / 2);
                char *sql =
                    format("%s SELECT bloom_build(i, %lld, 0.01, '%s') FROM s", cte,
                           (long long)capacity_for_inserts(kinds[k], capacity), kinds[k]->name);
                filter = fetch_blob(lb, sql, &bytes);
                sqlite3_free(cte);
                sqlite3_free(sql);
            }
            live_table_make(lb, kinds[k]->name, capacity, filter, bytes);
            store_filter(lb, filter, bytes);
            free(filter);
            sqlite3_int64 chunk_rows = fetch_int(lb, "SELECT count(*) FROM seen_chunks");
            copy_chunk_rows(lb, chunk_rows);
            sqlite3_stmt *insert[TABLE_INSERT_CASES] = {
                prepare(lb, "INSERT INTO plain(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO users(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO stored(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO users(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO logged(name) VALUES (?1)"),
                prepare(lb, "INSERT INTO paged(name) VALUES (?1)")};
            const int counts[TABLE_INSERT_CASES] = {
                inserts, inserts, in_place_inserts(inserts, bytes), inserts, inserts, inserts};
            char *hold = format("PRAGMA cache_size = %lld; SELECT sum(length(data)) FROM "
                                "seen_chunks;",
                                -2LL * bytes / 1024);
            sqlite3_stmt *lookup[2] = {prepare(lb, "SELECT count(*) FROM seen WHERE key = ?1"),
                                       prepare(lb, "SELECT x FROM keys WHERE rowid = ?1")};
            double seconds[TABLE_INSERT_CASES][LIVE_RUNS_MAX],
                pages[TABLE_INSERT_CASES][LIVE_RUNS_MAX];
            double probe_seconds[2][LIVE_RUNS_MAX];
            sqlite3_int64 hits[2];
            exec(lb,
                 "DELETE FROM plain; DELETE FROM users; DELETE FROM stored; DELETE FROM logged; "
                 "DELETE FROM log; DELETE FROM paged;");
            name = 0;
            for (int r = 0; r < runs; r++) {
                sqlite3_int64 first = name; /* the same names go into each table */
                for (int c = 0; c < TABLE_INSERT_CASES; c++) {
                    name = c == HELD_LIVE_INSERT ? first + HELD_NAMES_FROM : first;
                    if (c == HELD_LIVE_INSERT) {
                        exec(lb, hold);
                    }
                    seconds[c][r] =
                        timed_inserts(lb, wal, insert[c], counts[c], &name, &pages[c][r]);
                    if (c == HELD_LIVE_INSERT) {
                        exec(lb, "PRAGMA cache_size = -2000");
                    }
                }
                name = first + inserts;
                for (int c = 0; c < 2; c++) {
                    probe_seconds[c][r] =
                        timed_probes(lb, lookup[c], probes, c == 0, name, &hits[c]);
                }
            }
            if (hits[0] < probes / 2) {
                die(lb, "a key added through the trigger was not found");
            }
            double m[TABLE_INSERT_CASES], p[TABLE_INSERT_CASES];
            for (int c = 0; c < TABLE_INSERT_CASES; c++) {
                m[c] = median(seconds[c], runs);
                p[c] = median(pages[c], runs);
            }
            double probe = median(probe_seconds[0], runs),
                   lookup_s = median(probe_seconds[1], runs);
            if (s == (blocked ? 0 : 1)) {
                first_insert = m[LIVE_INSERT];
                first_probe = probe;
            }
            printf("| %s | %lld | %d | %lld | %.1f | %.1f | %.2f | %.2f | %.2f | %d | %.1f | %.2f "
                   "| %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.2f | %.1f | %.2f | %.1f "
                   "| %.2f | %.2f |\n",
                   kinds[k]->name, (long long)capacity, bytes, (long long)chunk_rows,
                   m[PLAIN_INSERT] * 1e6, m[LIVE_INSERT] * 1e6, m[LIVE_INSERT] / m[PLAIN_INSERT],
                   p[PLAIN_INSERT], p[LIVE_INSERT], counts[IN_PLACE_INSERT],
                   m[IN_PLACE_INSERT] * 1e6, m[IN_PLACE_INSERT] / m[PLAIN_INSERT],
                   p[IN_PLACE_INSERT], probe * 1e6, lookup_s * 1e6, probe / lookup_s,
                   m[LIVE_INSERT] / first_insert, probe / first_probe, m[HELD_LIVE_INSERT] * 1e6,
                   m[HELD_LIVE_INSERT] / m[PLAIN_INSERT], m[TABLE_TRIGGER_INSERT] * 1e6,
                   m[TABLE_TRIGGER_INSERT] / m[PLAIN_INSERT], m[PAGE_TRIGGER_INSERT] * 1e6,
                   m[PAGE_TRIGGER_INSERT] / m[PLAIN_INSERT],
                   m[LIVE_INSERT] / m[PAGE_TRIGGER_INSERT]);
            chart_printf(chart, "%s %lld %d %.1f %.1f %.1f %.1f\n", kinds[k]->name,
                         (long long)capacity, bytes, m[PLAIN_INSERT] * 1e6, m[LIVE_INSERT] * 1e6,
                         m[IN_PLACE_INSERT] * 1e6, m[TABLE_TRIGGER_INSERT] * 1e6);
            fflush(stdout);
            for (int c = 0; c < TABLE_INSERT_CASES; c++) {
                sqlite3_finalize(insert[c]);
            }
            sqlite3_free(hold);
            for (int c = 0; c < 2; c++) {
                sqlite3_finalize(lookup[c]);
            }
            exec(
                lb,
                "DROP TABLE seen; DELETE FROM filters; DROP TABLE pages; DROP TRIGGER paged_page;");
            truncate_wal(lb, wal);
        }
    }
    chart_close(chart);
}

/* Seconds the one-row query sql took to prepare, step and give its BLOB's bytes, which it
** reads all of (a checksum); exits on failure. */
static double timed_blob_read(bench *lb, const char *sql) {
    double start = now();
    sqlite3_stmt *stmt = prepare(lb, sql);
    if (sqlite3_step(stmt) != SQLITE_ROW) {
        die(lb, sql);
    }
    const uint8_t *bytes = sqlite3_column_blob(stmt, 0);
    int length = sqlite3_column_bytes(stmt, 0);
    uint64_t sum = 0;
    for (int i = 0; i < length; i += 64) {
        sum += bytes[i];
    }
    sqlite3_finalize(stmt);
    double seconds = now() - start;
    return sum == UINT64_MAX ? 0 : seconds;
}

/* Inserts of new keys into bulk, and of names into plain, by lb's connection and a second one in
** turns, one a transaction, so that each finds the other's commit (which empties its caches):
** the seconds an insert took, runs times, into seconds[0] (bulk) and seconds[1] (plain). */
static void live_inserts_in_turns(bench *lb, const char *path, int runs, int inserts,
                                  double seconds[2][LIVE_RUNS_MAX]) {
    static const char *const sql[2] = {"INSERT INTO bulk(key) VALUES (?1)",
                                       "INSERT INTO plain(name) VALUES (?1)"};
    bench other = *lb;
    other.db = open_live(lb, path);
    exec(&other, "PRAGMA synchronous=NORMAL");
    sqlite3_stmt *insert[2][2];
    for (int t = 0; t < 2; t++) {
        insert[t][0] = prepare(lb, sql[t]);
        insert[t][1] = prepare(&other, sql[t]);
    }
    sqlite3_int64 name = 0;
    for (int r = 0; r < runs; r++) {
        for (int t = 0; t < 2; t++) {
            double start = now();
            for (int i = 0; i < inserts; i++) {
                char text[32];
                snprintf(text, sizeof text, "turn-%lld", (long long)++name);
                step_all(i % 2 ? &other : lb, insert[t][i % 2], text);
            }
            seconds[t][r] = (now() - start) / inserts;
        }
    }
    for (int t = 0; t < 2; t++) {
        sqlite3_finalize(insert[t][0]);
        sqlite3_finalize(insert[t][1]);
    }
    sqlite3_close(other.db);
}

/* 11b. A bulk load against bloom_build, a snapshot against reading a BLOB, a join against
** the bound BLOB, and one key over many filters. */
static void live_table_bulk(bench *lb, const char *path, const char *wal) {
    const sqlite3_int64 n = lb->quick ? 100000 : 10000000, join_rows = lb->quick ? 100000 : 1000000;
    const int filters = lb->quick ? 100 : 1000, many_probes = lb->quick ? 200 : 1000;
    char *cte = series(n);
    char *fill = format("CREATE TABLE big(x INTEGER); INSERT INTO big %s SELECT i * 7 FROM s;"
                        "CREATE VIRTUAL TABLE bulk USING bloom(kind = 'blocked', n = %lld, "
                        "p = 0.01);",
                        cte, (long long)n);
    exec(lb, fill);
    sqlite3_free(cte);
    sqlite3_free(fill);
    char *build = format("SELECT bloom_build(x, %lld, 0.01, 'blocked') FROM big", (long long)n);
    const query build_query = {"bloom_build", build, NULL, 0};
    double build_seconds[LIVE_RUNS_MAX], load_seconds[LIVE_RUNS_MAX];
    const int runs = lb->runs < LIVE_RUNS_MAX ? lb->runs : LIVE_RUNS_MAX;
    for (int r = 0; r < runs; r++) {
        build_seconds[r] = run_once(lb, &build_query, NULL);
        exec(lb, "DELETE FROM bulk");
        truncate_wal(lb, wal);
        double start = now();
        exec(lb, "INSERT INTO bulk(key) SELECT x FROM big");
        load_seconds[r] = now() - start;
        truncate_wal(lb, wal);
    }
    int bytes;
    void *built = fetch_blob(lb, build, &bytes);
    exec(lb, "CREATE TABLE blobs(id INTEGER PRIMARY KEY, f BLOB)");
    sqlite3_stmt *keep = prepare(lb, "INSERT INTO blobs VALUES (1, ?1)");
    sqlite3_bind_blob(keep, 1, built, bytes, SQLITE_STATIC);
    step_all(lb, keep, NULL);
    sqlite3_finalize(keep);
    if (fetch_int(lb, "SELECT (SELECT filter FROM bulk) = (SELECT f FROM blobs)") != 1) {
        die(lb, "the snapshot differs from bloom_build's filter");
    }
    truncate_wal(lb, wal);
    /* Snapshots and BLOB reads, on this connection (chunks cached) and on a new one. */
    static const char *const reads[2] = {"SELECT filter FROM bulk",
                                         "SELECT f FROM blobs WHERE id = 1"};
    double read_seconds[4][LIVE_RUNS_MAX];
    for (int r = 0; r < runs; r++) {
        for (int c = 0; c < 4; c++) {
            bench fresh = *lb;
            if (c >= 2) {
                fresh.db = open_live(lb, path);
            }
            read_seconds[c][r] = timed_blob_read(&fresh, reads[c % 2]);
            if (c >= 2) {
                sqlite3_close(fresh.db);
            }
        }
    }
    /* The join: rows of keys (1..join_rows; a seventh of them in the filter) probed. */
    char *joins[3] = {
        format("SELECT count(*) FROM keys AS k WHERE k.rowid <= %lld AND EXISTS (SELECT 1 FROM "
               "bulk WHERE key = k.x)",
               (long long)join_rows),
        format("SELECT count(*) FROM keys AS k JOIN bulk AS b ON b.key = k.x WHERE k.rowid <= "
               "%lld",
               (long long)join_rows),
        format("SELECT count(*) FROM keys AS k WHERE k.rowid <= %lld AND "
               "bloom_might_contain(?1, k.x)",
               (long long)join_rows)};
    query join_queries[3] = {{"EXISTS", joins[0], NULL, 0},
                             {"JOIN", joins[1], NULL, 0},
                             {"bound", joins[2], built, bytes}};
    double join_seconds[3];
    time_in_turns(lb, join_queries, 3, join_seconds);
    sqlite3_int64 counts[3];
    for (int c = 0; c < 3; c++) {
        counts[c] = fetch_int_bound(lb, joins[c], join_queries[c].blob, join_queries[c].bytes);
    }
    if (counts[0] != counts[2] || counts[1] != counts[2]) {
        die(lb, "the join and the bound probe disagree");
    }
    double turn_seconds[2][LIVE_RUNS_MAX]; /* after the join: these keys are not in big */
    live_inserts_in_turns(lb, path, runs, lb->quick ? 100 : 400, turn_seconds);
    /* One key over many filters. */
    cte = series((sqlite3_int64)filters * 100);
    char *many = format("CREATE VIRTUAL TABLE parts USING bloom(kind = 'blocked', n = 10000, "
                        "p = 0.01); %s INSERT INTO parts(name, key) SELECT 'part-' || (i %% %d), i "
                        "FROM s;",
                        cte, filters);
    exec(lb, many);
    sqlite3_free(cte);
    sqlite3_free(many);
    sqlite3_stmt *by_key = prepare(lb, "SELECT count(*) FROM parts WHERE key = ?1");
    double many_seconds[LIVE_RUNS_MAX];
    sqlite3_int64 found = 0;
    for (int r = 0; r < runs; r++) {
        double start = now();
        found = 0;
        for (int j = 1; j <= many_probes; j++) {
            sqlite3_bind_int64(by_key, 1, j % 2 ? j : -j);
            found += step_all(lb, by_key, NULL);
        }
        many_seconds[r] = (now() - start) / many_probes;
    }
    sqlite3_finalize(by_key);
    printf("\n### 11b. The live table: bulk load, snapshot, join, many filters\n\n");
    printf("The same database. `bulk` is a 'blocked' live table for n = %lld at p = 0.01, "
           "`big(x)` holds %lld keys; `blobs` holds bloom_build's filter of them (%d bytes), "
           "which the snapshot equals byte for byte (checked). A snapshot, `SELECT filter FROM "
           "bulk`, against a BLOB read, `SELECT f FROM blobs WHERE id = 1`, each prepared, "
           "stepped and its bytes read, on the connection that "
           "loaded the filter (its chunks cached) and on a new connection. Inserts of new keys "
           "into `bulk` by two connections in turns, one a transaction, so that each finds the "
           "other's commit (which empties its caches), against the same inserts into `plain`. "
           "The join probes "
           "%lld rows of `keys` (1 to 1M, a seventh of them in the filter) with `EXISTS`, with "
           "`JOIN`, and with `bloom_might_contain(?1, x)` and the filter bound. `parts` holds "
           "%d 'blocked' filters for n = 10,000, of 100 keys each; `SELECT count(*) FROM parts "
           "WHERE key = ?1` over %d keys, half of them in a filter. Median of %d runs, in "
           "turns.\n\n",
           (long long)n, (long long)n, bytes, (long long)join_rows, filters, many_probes, runs);
    printf("| operation | live table | against | ratio |\n|---|---|---|---|\n");
    double build_s = median(build_seconds, runs), load_s = median(load_seconds, runs);
    printf("| load %lld keys: `INSERT INTO bulk(key) SELECT x FROM big`, s | %.2f | "
           "`SELECT bloom_build(x, ...) FROM big`: %.2f | %.2f |\n",
           (long long)n, load_s, build_s, load_s / build_s);
    double m[4];
    for (int c = 0; c < 4; c++) {
        m[c] = median(read_seconds[c], runs);
    }
    printf("| snapshot, ms | %.2f | BLOB read: %.2f | %.2f |\n", m[0] * 1e3, m[1] * 1e3,
           m[0] / m[1]);
    printf("| snapshot on a new connection, ms | %.2f | BLOB read: %.2f | %.2f |\n", m[2] * 1e3,
           m[3] * 1e3, m[2] / m[3]);
    double turn_live = median(turn_seconds[0], runs), turn_plain = median(turn_seconds[1], runs);
    printf("| insert, two connections in turns, µs | %.1f | into `plain`: %.1f | %.2f |\n",
           turn_live * 1e6, turn_plain * 1e6, turn_live / turn_plain);
    printf("| join `EXISTS`, %lld rows, s | %.3f | bound BLOB: %.3f | %.2f |\n",
           (long long)join_rows, join_seconds[0], join_seconds[2],
           join_seconds[0] / join_seconds[2]);
    printf("| join `JOIN`, %lld rows, s | %.3f | bound BLOB: %.3f | %.2f |\n", (long long)join_rows,
           join_seconds[1], join_seconds[2], join_seconds[1] / join_seconds[2]);
    double many_s = median(many_seconds, runs);
    printf("| one key over %d filters, µs | %.1f | µs a filter: %.3f | |\n", filters, many_s * 1e6,
           many_s * 1e6 / filters);
    if (found < many_probes / 2) {
        die(lb, "a key of a filter of parts was not found");
    }
    for (int c = 0; c < 3; c++) {
        sqlite3_free(joins[c]);
    }
    sqlite3_free(build);
    free(built);
    exec(lb, "DROP TABLE parts; DROP TABLE bulk; DROP TABLE big; DROP TABLE blobs;");
    truncate_wal(lb, wal);
}

/* Table 11d: a fresh blocked table's first inserts, one a transaction through the trigger of
** users (the names new), against a plain insert; then the same on a fresh table whose filter
** took 'allocate' first, with what that cost. */
static void live_table_fresh(bench *lb, const char *wal) {
    static const sqlite3_int64 sizes[] = {10000000, 100000000}, quick_sizes[] = {100000, 0};
    const int runs = lb->runs < LIVE_RUNS_MAX ? lb->runs : LIVE_RUNS_MAX;
    const int inserts = lb->quick ? 200 : 2000;
    printf("\n### 11d. The live table: a fresh table's first inserts, and 'allocate'\n\n");
    printf("The database of 11a. `seen` made anew as a 'blocked' live table for the capacity at "
           "p = 0.01 holding no filter, then %d committed inserts of new names into `users`, "
           "whose trigger adds each to `seen` (each first key of a chunk makes its row, at a "
           "random place of the B-tree), against as many into `plain`; then the same on a table "
           "made anew that ran `INSERT INTO seen(seen) VALUES ('allocate')` first (its filter "
           "made with a row of zeros for each chunk, in order), whose time and pages are given "
           "(the pages of `seen_chunks` then, from `dbstat`). Median of %d runs, in turns; WAL "
           "pages as in 11a.\n\n",
           inserts, runs);
    printf(
        "| capacity | chunk rows | plain insert µs | fresh: trigger insert µs | ratio | WAL "
        "pages/insert | 'allocate' s | its MB | allocated: trigger insert µs | ratio | WAL "
        "pages/insert | fresh / allocated |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    sqlite3_stmt *plain = prepare(lb, "INSERT INTO plain(name) VALUES (?1)");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        sqlite3_int64 capacity = lb->quick ? quick_sizes[s] : sizes[s], name = 0, rows = 0;
        if (capacity == 0) {
            continue;
        }
        double seconds[3][LIVE_RUNS_MAX], pages[3][LIVE_RUNS_MAX], paid[2][LIVE_RUNS_MAX];
        for (int r = 0; r < runs; r++) {
            for (int allocated = 0; allocated < 2; allocated++) {
                char *create = format("DROP TABLE IF EXISTS seen; CREATE VIRTUAL TABLE seen USING "
                                      "bloom(kind = 'blocked', n = %lld, p = 0.01);",
                                      (long long)capacity);
                exec(lb, create);
                sqlite3_free(create);
                exec(lb, "DELETE FROM plain; DELETE FROM users;");
                truncate_wal(lb, wal);
                if (allocated) {
                    double start = now();
                    exec(lb, "INSERT INTO seen(seen) VALUES ('allocate')");
                    paid[0][r] = now() - start;
                    rows = fetch_int(lb, "SELECT count(*) FROM seen_chunks");
                    paid[1][r] = (double)fetch_int(
                        lb, "SELECT sum(pgsize) FROM dbstat WHERE name = 'seen_chunks'");
                }
                sqlite3_int64 first = name;
                sqlite3_stmt *users = prepare(lb, "INSERT INTO users(name) VALUES (?1)");
                seconds[allocated + 1][r] =
                    timed_inserts(lb, wal, users, inserts, &name, &pages[allocated + 1][r]);
                sqlite3_finalize(users);
                name = first;
                seconds[0][r] = timed_inserts(lb, wal, plain, inserts, &name, &pages[0][r]);
            }
        }
        double m[3], p[3];
        for (int c = 0; c < 3; c++) {
            m[c] = median(seconds[c], runs);
            p[c] = median(pages[c], runs);
        }
        printf("| %lld | %lld | %.1f | %.1f | %.2f | %.2f | %.2f | %.1f | %.1f | %.2f | %.2f | "
               "%.2f |\n",
               (long long)capacity, (long long)rows, m[0] * 1e6, m[1] * 1e6, m[1] / m[0], p[1],
               median(paid[0], runs), median(paid[1], runs) / 1e6, m[2] * 1e6, m[2] / m[0], p[2],
               m[1] / m[2]);
    }
    sqlite3_finalize(plain);
    exec(lb, "DROP TABLE seen; DELETE FROM plain; DELETE FROM users;");
    truncate_wal(lb, wal);
}

void table_live_table(bench *b) {
    char *path, *wal;
    bench lb = open_bench_file(b, "bench_live_table.db", &path, &wal);
    char *cte = series(1000000);
    char *setup = format("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                         "PRAGMA wal_autocheckpoint=0; CREATE TABLE plain(name TEXT); "
                         "CREATE TABLE users(name TEXT); CREATE TABLE keys(x INTEGER); "
                         "CREATE TABLE logged(name TEXT); CREATE TABLE log(name TEXT); CREATE "
                         "TABLE paged(name TEXT); CREATE "
                         "TRIGGER logged_log AFTER INSERT ON logged BEGIN INSERT INTO log(name) "
                         "VALUES (NEW.name); END; "
                         "INSERT INTO keys %s SELECT i FROM s; CREATE TABLE stored(name TEXT); "
                         "CREATE TABLE filters(id INTEGER PRIMARY KEY, filter BLOB); CREATE "
                         "TRIGGER stored_filter AFTER INSERT ON stored BEGIN SELECT "
                         "bloom_add_in_place('filters', 'filter', 1, NEW.name); END;",
                         cte);
    exec(&lb, setup);
    sqlite3_free(cte);
    sqlite3_free(setup);
    truncate_wal(&lb, wal);
    live_table_inserts(&lb, wal);
    live_table_fresh(&lb, wal);
    live_table_bulk(&lb, path, wal);
    close_bench_file(&lb, path, wal);
}
