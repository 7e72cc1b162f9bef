/*
** bench_live.c: tables 7a to 7c, filters kept current by triggers and the in-place functions (see
*bench.c).
*/
#include "bench.h"

/* 7a. Committed inserts into users(name), one a transaction, with the filter of row 1 kept up
** to date by a trigger or not. */
static void live_inserts(bench *lb, const char *wal) {
    const filter_kind *kinds[FILTER_KIND_COUNT];
    const int kind_count = kinds_where(adds_in_place_without_growing, kinds);
    static const char *const labels[INSERT_CASES] = {
        "no trigger", "in place: `SELECT bloom_add_in_place('filters', 'filter', 1, NEW.name)`",
        "rewrite: `UPDATE filters SET filter = bloom_add(filter, NEW.name) WHERE id = 1`",
        "in place, with a page cache of 64 MB (`PRAGMA cache_size=-65536`)"};
    static const char *const triggers[INSERT_CASES] = {
        "",
        "CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN SELECT "
        "bloom_add_in_place('filters', 'filter', 1, NEW.name); END;",
        "CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN UPDATE filters SET filter = "
        "bloom_add(filter, NEW.name) WHERE id = 1; END;",
        "CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN SELECT "
        "bloom_add_in_place('filters', 'filter', 1, NEW.name); END;"};
    const sqlite3_int64 n = lb->quick ? 10000 : 1000000;
    const int counts[INSERT_CASES] = {lb->quick ? 200 : 2000, lb->quick ? 200 : 2000,
                                      lb->quick ? 20 : 100, lb->quick ? 200 : 2000};
    const int runs = lb->runs < LIVE_RUNS_MAX ? lb->runs : LIVE_RUNS_MAX;
    const sqlite3_int64 page_size = fetch_int(lb, "PRAGMA page_size");
    sqlite3_int64 name = 0;
    printf("\n### 7a. Committed inserts, with the filter kept up to date\n\n");
    printf("A file database in WAL mode, `PRAGMA synchronous=NORMAL` (no sync at commit), "
           "SQLite's default page cache (2 MB) but in the last case; `INSERT INTO users(name) "
           "VALUES (?1)` prepared "
           "once, run in autocommit (one transaction an insert) with new names 'user-N'. The "
           "filter: row 1 of `filters(id INTEGER PRIMARY KEY, filter BLOB)`, built for n = %lld "
           "at p = 0.01 holding %lld integer keys. Before each case the table is emptied and "
           "the WAL truncated (`PRAGMA wal_checkpoint(TRUNCATE)`); `PRAGMA "
           "wal_autocheckpoint=0` throughout, so the WAL's growth is what the inserts wrote: "
           "pages = (WAL bytes - 32) / (%lld + 24). Median of %d runs, in turns.",
           (long long)n, (long long)n, (long long)page_size, runs);
    for (int k = 0; k < kind_count; k++) {
        if (capacity_for_inserts(kinds[k], n) != n) {
            printf(" (The %s filter, which refuses keys past its capacity, is built for %g n, so "
                   "that the inserts find room.)",
                   kinds[k]->name, (double)capacity_for_inserts(kinds[k], n) / (double)n);
        }
    }
    printf("\n\n");
    printf("| kind | filter bytes | trigger | inserts a run | µs/insert | ratio to no trigger | "
           "WAL bytes/insert | pages written/insert |\n|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < kind_count; k++) {
        char *cte = series(n);
        char *build = format("DROP TRIGGER IF EXISTS users_filter; DELETE FROM filters; %s "
                             "INSERT INTO filters(id, filter) SELECT 1, bloom_build(i, %lld, "
                             "0.01, '%s') FROM s;",
                             cte, (long long)capacity_for_inserts(kinds[k], n), kinds[k]->name);
        exec(lb, build);
        sqlite3_free(cte);
        sqlite3_free(build);
        sqlite3_int64 bytes = fetch_int(lb, "SELECT length(filter) FROM filters WHERE id = 1");
        double seconds[INSERT_CASES][LIVE_RUNS_MAX], pages[INSERT_CASES][LIVE_RUNS_MAX];
        for (int r = 0; r < runs; r++) {
            for (int c = 0; c < INSERT_CASES; c++) {
                char *setup = format("DROP TRIGGER IF EXISTS users_filter; DELETE FROM users; "
                                     "PRAGMA cache_size=%d; %s",
                                     c == 3 ? -65536 : -2000, triggers[c]);
                exec(lb, setup);
                sqlite3_free(setup);
                truncate_wal(lb, wal);
                sqlite3_stmt *insert = NULL;
                if (sqlite3_prepare_v2(lb->db, "INSERT INTO users(name) VALUES (?1)", -1, &insert,
                                       NULL) != SQLITE_OK) {
                    die(lb, "INSERT INTO users");
                }
                double start = now();
                for (int i = 0; i < counts[c]; i++) {
                    char text[32];
                    int len = snprintf(text, sizeof text, "user-%lld", (long long)++name);
                    sqlite3_bind_text(insert, 1, text, len, SQLITE_STATIC);
                    if (sqlite3_step(insert) != SQLITE_DONE) {
                        die(lb, labels[c]);
                    }
                    sqlite3_reset(insert);
                }
                seconds[c][r] = (now() - start) / counts[c];
                sqlite3_finalize(insert);
                long long wal_bytes = file_bytes(wal);
                pages[c][r] = wal_bytes > 32
                                  ? (double)((wal_bytes - 32) / (page_size + 24)) / counts[c]
                                  : 0.0;
            }
        }
        double floor = median(seconds[0], runs);
        for (int c = 0; c < INSERT_CASES; c++) {
            double s = median(seconds[c], runs), p = median(pages[c], runs);
            printf("| %s | %lld | %s | %d | %.1f | %.1f | %.0f | %.2f |\n", kinds[k]->name,
                   (long long)bytes, labels[c], counts[c], s * 1e6, s / floor,
                   p * (double)(page_size + 24), p);
            fflush(stdout);
        }
    }
    exec(lb, "DROP TRIGGER IF EXISTS users_filter; DELETE FROM users; DELETE FROM filters; "
             "PRAGMA cache_size=-2000;");
    truncate_wal(lb, wal);
}

/* 7b. One probe a statement: the filter read in place against the filter bound. */
static void live_probes(bench *lb, const char *wal) {
    static const sqlite3_int64 sizes[] = {1000000, 10000000, 100000000};
    static const sqlite3_int64 quick_sizes[] = {10000, 100000};
    static const char *const sql[PROBE_CASES] = {
        "SELECT bloom_might_contain_in_place('filters', 'filter', 2, ?1)",
        "SELECT bloom_might_contain(?2, ?1)", "SELECT bloom_might_contain(?2, ?1)",
        "SELECT bloom_might_contain(filter, ?1) FROM filters WHERE id = 2",
        "SELECT bloom_might_contain_in_place('filters', 'filter', 2, ?1)"};
    const int size_count = lb->quick ? 2 : 3;
    const int runs = lb->runs < LIVE_RUNS_MAX ? lb->runs : LIVE_RUNS_MAX;
    printf("\n### 7b. One probe a statement\n\n");
    printf("Standard filters at p = 0.01 in row 2 of `filters`, in the WAL-mode file database "
           "(checkpointed), SQLite's default page cache (2 MB). Probes one statement each "
           "(`sqlite3_prepare_v2`, bind, step, finalize), half of them keys in the filter: "
           "`SELECT bloom_might_contain_in_place('filters', 'filter', 2, ?1)` against `SELECT "
           "bloom_might_contain(?2, ?1)` with the filter, held by the program, bound to ?2 "
           "(SQLITE_STATIC: no copy; SQLITE_TRANSIENT: SQLite copies it), against `SELECT "
           "bloom_might_contain(filter, ?1) FROM filters WHERE id = 2`, and in place again with "
           "a page cache twice the filter's size (`PRAGMA cache_size`). Median of %d runs, in "
           "turns. 100M keys only when its build (and storing it) takes under 2 minutes, and "
           "then 100 probes a run, since a probe in place of it takes milliseconds.\n\n",
           runs);
    printf("| keys in the filter | filter bytes | build and store s | probes a run | in place "
           "µs/probe | bound STATIC "
           "µs/probe | bound TRANSIENT µs/probe | read from the table µs/probe | in place, page "
           "cache holding the filter µs/probe | TRANSIENT / in place | in place / STATIC "
           "|\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < size_count; s++) {
        sqlite3_int64 n = lb->quick ? quick_sizes[s] : sizes[s];
        int probes = lb->quick ? 1000 : n > 10000000 ? 100 : 10000;
        char *cte = series(n);
        char *build = format("DELETE FROM filters; %s INSERT INTO filters(id, filter) SELECT 2, "
                             "bloom_build(i, %lld, 0.01) FROM s;",
                             cte, (long long)n);
        double start = now();
        exec(lb, build);
        truncate_wal(lb, wal);
        double build_seconds = now() - start;
        sqlite3_free(cte);
        sqlite3_free(build);
        if (build_seconds > 120.0) {
            printf("| %lld | - | %.0f | - | skipped: the build and store took over 2 minutes | | "
                   "| | | | |\n",
                   (long long)n, build_seconds);
            exec(lb, "DELETE FROM filters");
            truncate_wal(lb, wal);
            continue;
        }
        int bytes;
        void *filter = fetch_blob(lb, "SELECT filter FROM filters WHERE id = 2", &bytes);
        double times[PROBE_CASES][LIVE_RUNS_MAX];
        sqlite3_int64 hits[PROBE_CASES] = {0};
        for (int r = 0; r < runs; r++) {
            for (int c = 0; c < PROBE_CASES; c++) {
                char *cache = format("PRAGMA cache_size=%lld",
                                     c == 4 ? -2 * ((long long)bytes / 1024 + 1) : -2000LL);
                exec(lb, cache);
                sqlite3_free(cache);
                hits[c] = 0;
                double begin = now();
                for (int j = 1; j <= probes; j++) {
                    sqlite3_stmt *stmt = NULL;
                    if (sqlite3_prepare_v2(lb->db, sql[c], -1, &stmt, NULL) != SQLITE_OK) {
                        die(lb, sql[c]);
                    }
                    sqlite3_bind_int64(stmt, 1, j % 2 ? j : -j); /* odd keys are in it */
                    if (c == 1 || c == 2) {
                        sqlite3_bind_blob(stmt, 2, filter, bytes,
                                          c == 1 ? SQLITE_STATIC : SQLITE_TRANSIENT);
                    }
                    if (sqlite3_step(stmt) != SQLITE_ROW) {
                        die(lb, sql[c]);
                    }
                    hits[c] += sqlite3_column_int(stmt, 0);
                    sqlite3_finalize(stmt);
                }
                times[c][r] = (now() - begin) / probes;
            }
        }
        for (int c = 1; c < PROBE_CASES; c++) {
            if (hits[c] != hits[0]) {
                die(lb, "the probes disagree");
            }
        }
        double m[PROBE_CASES];
        for (int c = 0; c < PROBE_CASES; c++) {
            m[c] = median(times[c], runs);
        }
        printf("| %lld | %d | %.1f | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f |\n",
               (long long)n, bytes, build_seconds, probes, m[0] * 1e6, m[1] * 1e6, m[2] * 1e6,
               m[3] * 1e6, m[4] * 1e6, m[2] / m[0], m[0] / m[1]);
        fflush(stdout);
        free(filter);
        exec(lb, "DELETE FROM filters; PRAGMA cache_size=-2000;");
        truncate_wal(lb, wal);
    }
}

/* Whether 7c sets kind against the first kind: another kind, that removes keys. */
static int removes_keys(const filter_kind *kind) {
    return kind != filter_kind_at(0) && filter_kind_can(kind, FILTER_REMOVES);
}

/* Prints a row of 7c: operation over rows rows, noop's seconds, then each of the count kinds'
** seconds in seconds[] in turn, as ns/row with the decimals given (a kind that cannot remove:
** seconds NULL). */
static void print_cost_row(const char *operation, int rows, double noop,
                           const double *const *seconds, int count, int decimals) {
    printf("| `%s` | %d | %.1f |", operation, rows, noop * 1e9 / rows);
    for (int k = 0; k < count; k++) {
        if (seconds[k] == NULL) {
            printf(" - (cannot remove) |");
        } else {
            printf(" %.*f |", decimals, *seconds[k] * 1e9 / rows);
        }
    }
    printf("\n");
}

/* 7c. What the kinds that remove cost a row against the first kind (bloom_build's default), in
** one statement over the keys table. */
static void live_removing(bench *b) {
    const int rows = b->quick ? 100000 : 1000000, copies = b->quick ? 100 : 1000;
    const sqlite3_int64 n = 1000000;
    const filter_kind *kinds[1 + FILTER_KIND_COUNT] = {filter_kind_at(0)};
    const int count = 1 + kinds_where(removes_keys, kinds + 1);
    void *filters[1 + FILTER_KIND_COUNT];
    int bytes[1 + FILTER_KIND_COUNT];
    /* After noop's: the probes of each filter; the adds and removes of each. */
    query probe[2 + FILTER_KIND_COUNT], change[1 + 2 * (1 + FILTER_KIND_COUNT)];
    double probe_seconds[2 + FILTER_KIND_COUNT], change_seconds[1 + 2 * (1 + FILTER_KIND_COUNT)];
    const double *probed[1 + FILTER_KIND_COUNT], *added[1 + FILTER_KIND_COUNT],
        *removed[1 + FILTER_KIND_COUNT];
    int probes = 1, changes = 1;
    char *cte = series(n);
    for (int k = 0; k < count; k++) {
        char *sql = format("%s SELECT bloom_build(i, %lld, 0.01, '%s') FROM s", cte,
                           (long long)capacity_for_inserts(kinds[k], n), kinds[k]->name);
        filters[k] = fetch_blob(b, sql, &bytes[k]);
        sqlite3_free(sql);
        probed[k] = &probe_seconds[probes];
        probe[probes++] = (query){
            kinds[k]->name,
            format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %d", rows),
            filters[k], bytes[k]};
        added[k] = &change_seconds[changes];
        change[changes++] =
            (query){kinds[k]->name,
                    format("SELECT count(bloom_add(?1, x)) FROM keys WHERE rowid <= %d", copies),
                    filters[k], bytes[k]};
        removed[k] = NULL;
        if (filter_kind_can(kinds[k], FILTER_REMOVES)) {
            removed[k] = &change_seconds[changes];
            change[changes++] = (query){
                kinds[k]->name,
                format("SELECT count(bloom_remove(?1, x)) FROM keys WHERE rowid <= %d", copies),
                filters[k], bytes[k]};
        }
    }
    sqlite3_free(cte);
    probe[0] = (query){"noop", format("SELECT sum(noop(?1, x)) FROM keys WHERE rowid <= %d", rows),
                       filters[0], bytes[0]};
    change[0] =
        (query){"noop", format("SELECT count(noop(?1, x)) FROM keys WHERE rowid <= %d", copies),
                filters[0], bytes[0]};
    time_in_turns(b, probe, probes, probe_seconds);
    time_in_turns(b, change, changes, change_seconds);
    printf("\n### 7c. What the kinds that remove cost\n\n");
    printf("One statement over the rows of `keys` (keys 1 to 1M), the filter bound to ?1: 1M "
           "keys at p = 0.01, ");
    for (int k = 0; k < count; k++) {
        printf("%s%s (%d bytes",
               k == 0           ? ""
               : k + 1 == count ? " and "
                                : ", ",
               kinds[k]->name, bytes[k]);
        sqlite3_int64 counter_bits = fetch_int_bound(
            b, "SELECT json_extract(bloom_info(?1), '$.counter_bits')", filters[k], bytes[k]);
        if (counter_bits > 0) {
            printf(", %lld-bit counters", (long long)counter_bits);
        }
        if (capacity_for_inserts(kinds[k], n) != n) {
            printf(", built for %gM keys so that adds find room",
                   (double)capacity_for_inserts(kinds[k], n) / 1e6);
        }
        printf(")");
    }
    printf(". bloom_add and bloom_remove return a new filter, a copy of the bound one, for every "
           "row: %d rows for them. noop(?1, x) is SQLite's cost of calling a function. Median of "
           "%d runs, in turns.\n\n",
           copies, b->runs);
    printf("| operation | rows | noop ns/row |");
    for (int k = 0; k < count; k++) {
        printf(" %s ns/row |", kinds[k]->name);
    }
    printf("\n|---|---|---|");
    for (int k = 0; k < count; k++) {
        printf("---|");
    }
    printf("\n");
    print_cost_row("bloom_might_contain(?1, x)", rows, probe_seconds[0], probed, count, 1);
    print_cost_row("bloom_add(?1, x)", copies, change_seconds[0], added, count, 0);
    print_cost_row("bloom_remove(?1, x)", copies, change_seconds[0], removed, count, 0);
    for (int i = 0; i < probes; i++) {
        sqlite3_free(probe[i].sql);
    }
    for (int i = 0; i < changes; i++) {
        sqlite3_free(change[i].sql);
    }
    for (int k = 0; k < count; k++) {
        free(filters[k]);
    }
}

void table_live(bench *b) {
    char *path, *wal;
    bench lb = open_bench_file(b, "bench_live.db", &path, &wal);
    exec(&lb, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0;"
              "CREATE TABLE users(name TEXT);"
              "CREATE TABLE filters(id INTEGER PRIMARY KEY, filter BLOB);");
    live_inserts(&lb, wal);
    live_probes(&lb, wal);
    close_bench_file(&lb, path, wal);
    live_removing(b);
}
