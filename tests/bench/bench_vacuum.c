/*
** bench_vacuum.c: table 7d, the in-place insert with incremental auto-vacuum (see bench.c).
*/
#include "bench.h"

/* The smallest and the largest filter for n keys at p = 0.01 (its overflow chain the shortest and
** the longest) of the kinds 7a keeps up to date in place: their kinds, into kinds[0] and
** kinds[1]. */
static void smallest_and_largest(bench *b, sqlite3_int64 n, const filter_kind **kinds) {
    const filter_kind *candidates[FILTER_KIND_COUNT];
    const int count = kinds_where(adds_in_place_without_growing, candidates);
    uint64_t least = UINT64_MAX, most = 0;
    for (int k = 0; k < count; k++) {
        uint64_t bytes;
        uint8_t *empty =
            test_kind_of(candidates[k])
                ->make_empty((uint64_t)capacity_for_inserts(candidates[k], n), 0.01, &bytes);
        if (empty == NULL) {
            die(b, "the core cannot size a filter of 7a");
        }
        free(empty);
        if (bytes < least) {
            least = bytes;
            kinds[0] = candidates[k];
        }
        if (bytes > most) {
            most = bytes;
            kinds[1] = candidates[k];
        }
    }
}

/* 7d. The in-place insert with PRAGMA auto_vacuum = INCREMENTAL, whose pointer map lets SQLite
** find the pages of a BLOB's overflow chain without reading them, for the smallest and the
** largest of 7a's filters. */
void table_vacuum(bench *b) {
    static const char *const modes[] = {"NONE", "INCREMENTAL"};
    const sqlite3_int64 n = b->quick ? 10000 : 1000000;
    const filter_kind *kinds[2];
    smallest_and_largest(b, n, kinds);
    const int inserts = b->quick ? 100 : 1000,
              runs = b->runs < LIVE_RUNS_MAX ? b->runs : LIVE_RUNS_MAX;
    bench lb[2];
    char *paths[2], *wals[2];
    for (int v = 0; v < 2; v++) {
        paths[v] = format("%s/bench_vacuum_%d.db", b->dir, v);
        wals[v] = format("%s-wal", paths[v]);
        remove(paths[v]);
        remove(wals[v]);
        lb[v] = *b;
        lb[v].db = open_live(b, paths[v]);
        char *setup =
            format("PRAGMA auto_vacuum = %s; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                   "PRAGMA wal_autocheckpoint=0; CREATE TABLE users(name TEXT);"
                   "CREATE TABLE filters(id INTEGER PRIMARY KEY, filter BLOB);"
                   "CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN SELECT "
                   "bloom_add_in_place('filters', 'filter', 1, NEW.name); END;",
                   modes[v]);
        exec(&lb[v], setup);
        sqlite3_free(setup);
        if (fetch_int(&lb[v], "PRAGMA auto_vacuum") != v * 2) {
            die(&lb[v], "PRAGMA auto_vacuum");
        }
    }
    const sqlite3_int64 page_size = fetch_int(&lb[0], "PRAGMA page_size");
    printf("\n### 7d. In place, with PRAGMA auto_vacuum = INCREMENTAL\n\n");
    printf("As 7a's in-place case (WAL, `synchronous=NORMAL`, SQLite's default 2 MB page cache, "
           "one transaction an insert, the trigger `SELECT bloom_add_in_place('filters', "
           "'filter', 1, NEW.name)`; %d inserts a run), in two database files that differ only "
           "in `PRAGMA auto_vacuum`, set before their tables were created. Filters for n = %lld "
           "at p = 0.01 holding %lld keys. Median of %d runs in turns.\n\n",
           inserts, (long long)n, (long long)n, runs);
    printf("| kind | filter bytes | auto_vacuum | µs/insert | ratio to NONE | pages written/insert "
           "|\n|---|---|---|---|---|---|\n");
    sqlite3_int64 name = 0;
    for (int k = 0; k < 2; k++) {
        char *cte = series(n);
        char *build = format("DELETE FROM filters; %s INSERT INTO filters(id, filter) SELECT 1, "
                             "bloom_build(i, %lld, 0.01, '%s') FROM s;",
                             cte, (long long)capacity_for_inserts(kinds[k], n), kinds[k]->name);
        sqlite3_int64 bytes = 0;
        for (int v = 0; v < 2; v++) {
            exec(&lb[v], build);
            bytes = fetch_int(&lb[v], "SELECT length(filter) FROM filters WHERE id = 1");
        }
        sqlite3_free(cte);
        sqlite3_free(build);
        double seconds[2][LIVE_RUNS_MAX], pages[2][LIVE_RUNS_MAX];
        for (int r = 0; r < runs; r++) {
            for (int v = 0; v < 2; v++) {
                exec(&lb[v], "DELETE FROM users");
                truncate_wal(&lb[v], wals[v]);
                sqlite3_stmt *insert = NULL;
                if (sqlite3_prepare_v2(lb[v].db, "INSERT INTO users(name) VALUES (?1)", -1, &insert,
                                       NULL) != SQLITE_OK) {
                    die(&lb[v], "INSERT INTO users");
                }
                double start = now();
                for (int i = 0; i < inserts; i++) {
                    char text[32];
                    int len = snprintf(text, sizeof text, "user-%lld", (long long)++name);
                    sqlite3_bind_text(insert, 1, text, len, SQLITE_STATIC);
                    if (sqlite3_step(insert) != SQLITE_DONE) {
                        die(&lb[v], "INSERT INTO users");
                    }
                    sqlite3_reset(insert);
                }
                seconds[v][r] = (now() - start) / inserts;
                sqlite3_finalize(insert);
                long long wal_bytes = file_bytes(wals[v]);
                pages[v][r] =
                    wal_bytes > 32 ? (double)((wal_bytes - 32) / (page_size + 24)) / inserts : 0.0;
            }
        }
        double none = median(seconds[0], runs);
        for (int v = 0; v < 2; v++) {
            double s = median(seconds[v], runs);
            printf("| %s | %lld | %s | %.1f | %.2f | %.2f |\n", kinds[k]->name, (long long)bytes,
                   modes[v], s * 1e6, s / none, median(pages[v], runs));
        }
        fflush(stdout);
    }
    for (int v = 0; v < 2; v++) {
        sqlite3_close(lb[v].db);
        remove(paths[v]);
        remove(wals[v]);
        sqlite3_free(paths[v]);
        sqlite3_free(wals[v]);
    }
}
