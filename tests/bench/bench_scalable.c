/*
** bench_scalable.c: tables 8a to 8d, the scalable kind (see bench.c).
*/
#include "bench.h"

/* A filter in memory from malloc, grown as bloom_add grows it. */
typedef struct grown_filter {
    uint8_t *blob;
    uint64_t bytes;
    int stages; /* a scalable filter's */
} grown_filter;

/* An empty scalable filter for a first stage of n keys at compound rate p, of growth g and
** tightening r, stages of layout. */
static void scalable_start(bench *b, grown_filter *g, uint64_t n, double p, int layout, int growth,
                           double tightening) {
    scalable_header h;
    bloom_header first;
    double bytes;
    if (scalable_size(n, p, layout, growth, tightening, &h, &first, &bytes) != FILTER_OK) {
        die(b, "scalable_size");
    }
    g->bytes = (uint64_t)bytes;
    g->blob = calloc(g->bytes, 1);
    if (g->blob == NULL) {
        die(b, "out of memory");
    }
    scalable_write_header(g->blob, &h);
    bloom_write_header(g->blob + FILTER_HEADER_BYTES, &first);
    g->stages = 1;
}

/* Adds key to the scalable filter g, growing it by a stage when it is full, as bloom_add does
** (sql_kind_grow). Returns 1 when it grew. */
static int scalable_push(bench *b, grown_filter *g, key_hash key) {
    filter_status status = filter_add(&scalable_kind, g->blob, key);
    if (status != FILTER_FULL) {
        return 0;
    }
    filter_view f = {&scalable_kind, 0, 0, 0, g->blob, g->bytes};
    uint64_t grown;
    if (scalable_kind.grow_size(&f, &grown) != FILTER_OK) {
        die(b, "the scalable filter cannot grow");
    }
    uint8_t *larger = realloc(g->blob, grown);
    if (larger == NULL) {
        die(b, "out of memory");
    }
    filter_grow(&scalable_kind, larger, g->bytes, grown);
    g->blob = larger;
    g->bytes = grown;
    g->stages++;
    if (filter_add(&scalable_kind, g->blob, key) != FILTER_OK) {
        die(b, "a grown scalable filter had no room");
    }
    return 1;
}

/* A Bloom filter of layout for n keys at p holding the keys 1..n, from malloc. */
static grown_filter bloom_filled(bench *b, uint64_t n, double p, int layout) {
    bloom_header h;
    double bytes;
    grown_filter g = {NULL, 0, 0};
    if (bloom_size(n, p, layout, &h, &bytes) != FILTER_OK) {
        die(b, "bloom_size");
    }
    g.bytes = (uint64_t)bytes;
    g.blob = calloc(g.bytes, 1);
    if (g.blob == NULL) {
        die(b, "out of memory");
    }
    for (uint64_t i = 1; i <= n; i++) {
        bloom_set(g.blob + FILTER_HEADER_BYTES, &h, key_hash_integer((int64_t)i));
    }
    h.keys = n;
    bloom_write_header(g.blob, &h);
    return g;
}

/* A view of g that filter_open accepted. */
static filter_view open_grown(bench *b, const grown_filter *g) {
    filter_view f;
    char why[FILTER_WHY_MAX];
    if (filter_open(g->blob, g->bytes, &f, why) != FILTER_OK) {
        die(b, why);
    }
    return f;
}

/* Probes f with the keys from first on, count of them, by its kind's might_contain (the
** probe bloom_might_contain makes): the answers 1, and the seconds into *seconds. */
static uint64_t probe_run(const filter_view *f, int64_t first, int64_t step, uint64_t count,
                          double *seconds) {
    uint64_t hits = 0;
    double start = now();
    int64_t key = first;
    for (uint64_t i = 0; i < count; i++, key += step) {
        hits += (uint64_t)f->kind->might_contain(f, key_hash_integer(key));
    }
    *seconds = now() - start;
    return hits;
}

/* Filters time_probes sets side by side, at most: in 8b, a scalable filter and a filter of each
** layout of a Bloom filter. */
enum { PROBE_CASES_MAX = 2 * FILTER_KIND_COUNT };

/* Times count probes of the keys first, first + step, ... in each of cases filters, b->runs times
** in turns: ns/probe medians into ns, the answers 1 into hits. */
static void time_probes(bench *b, const filter_view *filters, int cases, int64_t first,
                        int64_t step, uint64_t count, double *ns, uint64_t *hits) {
    double times[PROBE_CASES_MAX][LIVE_RUNS_MAX];
    int runs = b->runs < LIVE_RUNS_MAX ? b->runs : LIVE_RUNS_MAX;
    for (int r = 0; r < runs; r++) {
        for (int c = 0; c < cases; c++) {
            hits[c] = probe_run(&filters[c], first, step, count, &times[c][r]);
        }
    }
    for (int c = 0; c < cases; c++) {
        ns[c] = median(times[c], runs) * 1e9 / (double)count;
    }
}

/* A filter of 8a: its ratios, and the keys offered and the bytes when each stage was added. */
typedef struct scalable_run {
    int growth;
    double tightening;
    uint64_t grew_at[SCALABLE_STAGES_MAX];  /* keys offered when stage i was added */
    uint64_t bytes_at[SCALABLE_STAGES_MAX]; /* bytes with stages 0..i */
    int stages;
} scalable_run;

/* Bytes of the scalable filter of run after count keys were offered one by one. */
static uint64_t run_bytes(const scalable_run *run, uint64_t count, int *stages) {
    int s = 0;
    while (s + 1 < run->stages && run->grew_at[s + 1] <= count) {
        s++;
    }
    *stages = s + 1;
    return run->bytes_at[s];
}

/* Bytes of a standard Bloom filter for n keys at p. */
static uint64_t standard_bytes(uint64_t n, double p) {
    bloom_header h;
    double bytes;
    return bloom_size(n, p, BLOOM_LAYOUT_STANDARD, &h, &bytes) == FILTER_OK ? (uint64_t)bytes : 0;
}

/* 8a. Growth and tightening ratios, through the core. */
static void table_scalable_ratios(bench *b) {
    static const int growths[] = {2, 4};
    static const double tightenings[] = {0.5, 0.7, 0.8, 0.9};
    enum { GROWTHS = 2, TIGHTENINGS = 4, CHECKPOINTS = 4, POINTS = 1001 };
    const uint64_t n = 1000, absent = b->quick ? 100000 : 1000000;
    const double p = 0.01;
    const int checkpoints = b->quick ? 3 : CHECKPOINTS;
    double summary[GROWTHS][TIGHTENINGS][9] = {{{0}}};
    printf("\n### 8a. Scalable filter: the growth and tightening ratios\n\n");
    printf(
        "Through the core (scalable_size, the kind's add, grow_size and filter_grow, as bloom_add "
        "uses them): a scalable filter of first stage n = %llu, compound rate p = %g, stages "
        "of the standard layout, growth g and tightening r; the keys 1, 2, 3, ... offered one "
        "by one. At 1x, 10x, 100x and 1000x n keys offered: its bytes against a standard "
        "filter built for that count and holding the same keys, its stages, the false "
        "positives of %llu absent keys (-1, -2, ...), and the ns per absent probe (the kind's "
        "might_contain) against the standard filter's, median of %d runs in turns.\n\n",
        (unsigned long long)n, p, (unsigned long long)absent, b->runs);
    printf("| g | r | keys offered | stages | bytes | standard bytes | bytes ratio | false "
           "positives | measured rate | probe ns | standard probe ns | probe ratio "
           "|\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int gi = 0; gi < GROWTHS; gi++) {
        for (int ri = 0; ri < TIGHTENINGS; ri++) {
            scalable_run run = {growths[gi], tightenings[ri], {0}, {0}, 1};
            grown_filter g;
            scalable_start(b, &g, n, p, BLOOM_LAYOUT_STANDARD, run.growth, run.tightening);
            run.bytes_at[0] = g.bytes;
            uint64_t offered = 0, target = n;
            double worst_rate = 0, *s = summary[gi][ri]; /* the summary's columns */
            for (int c = 0; c < checkpoints; c++, target *= 10) {
                for (; offered < target; offered++) {
                    if (scalable_push(b, &g, key_hash_integer((int64_t)offered + 1))) {
                        run.grew_at[run.stages] = offered + 1;
                        run.bytes_at[run.stages++] = g.bytes;
                        /* The stages before the new one are full: the rate at its highest. */
                        filter_view full = open_grown(b, &g);
                        double seconds, rate = (double)probe_run(&full, -1, -1, absent, &seconds) /
                                               (double)absent;
                        s[8] = rate > s[8] ? rate : s[8];
                    }
                }
                grown_filter standard = bloom_filled(b, target, p, BLOOM_LAYOUT_STANDARD);
                filter_view views[2] = {open_grown(b, &g), open_grown(b, &standard)};
                double seconds, ns[2];
                uint64_t hits[2];
                if (probe_run(&views[0], 1, 1, target, &seconds) != target) {
                    die(b, "a key added to a scalable filter probed 0");
                }
                time_probes(b, views, 2, -1, -1, absent, ns, hits);
                double rate = (double)hits[0] / (double)absent;
                worst_rate = rate > worst_rate ? rate : worst_rate;
                printf("| %d | %.1f | %llu | %d | %llu | %llu | %.2f | %llu | %.4f %% | %.1f | "
                       "%.1f | %.2f |\n",
                       run.growth, run.tightening, (unsigned long long)target, g.stages,
                       (unsigned long long)g.bytes, (unsigned long long)standard.bytes,
                       (double)g.bytes / (double)standard.bytes, (unsigned long long)hits[0],
                       100.0 * rate, ns[0], ns[1], ns[0] / ns[1]);
                fflush(stdout);
                s[c] = (double)g.bytes / (double)standard.bytes;
                s[6] = ns[0] / ns[1];
                free(standard.blob);
            }
            /* Final counts log-uniform from n to the last checkpoint. */
            double ratio_sum = 0, stage_sum = 0, span = (double)(target / 10) / (double)n;
            for (int j = 0; j < POINTS; j++) {
                uint64_t count = (uint64_t)llround((double)n * pow(span, (double)j / (POINTS - 1)));
                int stages;
                ratio_sum +=
                    (double)run_bytes(&run, count, &stages) / (double)standard_bytes(count, p);
                stage_sum += stages;
            }
            s[4] = ratio_sum / POINTS;
            s[5] = stage_sum / POINTS;
            s[7] = worst_rate;
            free(g.blob);
        }
    }
    printf("\nThe same runs in summary: bytes against the standard filter at each count; their "
           "mean, and the mean number of stages, over %d final counts spread log-uniformly from "
           "1x to %dx n (the bytes of the filter that offering that many keys made, against a "
           "standard filter sized for that count); the highest measured rate of the "
           "checkpoints, and of the moments each stage became full (measured just after the "
           "next was added, on the same absent keys); the probe ratio at the last "
           "checkpoint.\n\n",
           POINTS, checkpoints == 4 ? 1000 : 100);
    printf("| g | r | bytes ratio 1x | 10x | 100x | 1000x | mean bytes ratio | mean stages | "
           "highest measured rate, checkpoints | highest, stages full | probe ratio at the last "
           "|\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int gi = 0; gi < GROWTHS; gi++) {
        for (int ri = 0; ri < TIGHTENINGS; ri++) {
            double *s = summary[gi][ri];
            printf("| %d | %.1f | %.2f | %.2f | %.2f | ", growths[gi], tightenings[ri], s[0], s[1],
                   s[2]);
            if (checkpoints == 4) {
                printf("%.2f | ", s[3]);
            } else {
                printf("- | ");
            }
            printf("%.2f | %.2f | %.4f %% | %.4f %% | %.2f |\n", s[4], s[5], 100.0 * s[7],
                   100.0 * s[8], s[6]);
        }
    }
    fflush(stdout);
}

/* 8b. Stages of the blocked layout against the standard one, at the last checkpoint: for each
** layout of a Bloom filter, a scalable filter of its stages and a filter of it. */
static void table_scalable_layouts(bench *b) {
    static const int growths[] = {2, 4};
    static const double tightenings[] = {0.5, 0.7, 0.8, 0.9};
    const uint64_t n = 1000, keys = b->quick ? 100000 : 1000000, absent = keys;
    const double p = 0.01;
    const filter_kind *layouts[FILTER_KIND_COUNT];
    const int layout_count = kinds_where(is_bloom_layout, layouts), cases = 2 * layout_count;
    printf("\n### 8b. Scalable filter: stages of the blocked layout\n\n");
    printf("As 8a, after %llu keys offered one by one (%llux n): a scalable filter of ",
           (unsigned long long)keys, (unsigned long long)(keys / n));
    for (int l = 0; l < layout_count; l++) {
        printf("%s%s stages", l == 0 ? "" : " and one of ", layouts[l]->name);
    }
    printf(", against ");
    for (int l = 0; l < layout_count; l++) {
        printf("%sa %s", l == 0 ? "" : " and ", layouts[l]->name);
    }
    printf(" filter built for %llu keys. ns per probe of %llu absent keys and of the %llu keys "
           "added, median of %d runs in turns.\n\n",
           (unsigned long long)keys, (unsigned long long)absent, (unsigned long long)keys, b->runs);
    printf("| g | r | filter | stages | bytes | measured rate | absent ns/probe | present "
           "ns/probe |\n|---|---|---|---|---|---|---|---|\n");
    for (int gi = 0; gi < 2; gi++) {
        for (int ri = 0; ri < 4; ri++) {
            /* The scalable filters, then the filters of the layouts. */
            grown_filter g[PROBE_CASES_MAX];
            filter_view views[PROBE_CASES_MAX];
            for (int l = 0; l < layout_count; l++) {
                scalable_start(b, &g[l], n, p, layouts[l]->id, growths[gi], tightenings[ri]);
                for (uint64_t i = 1; i <= keys; i++) {
                    scalable_push(b, &g[l], key_hash_integer((int64_t)i));
                }
                g[layout_count + l] = bloom_filled(b, keys, p, layouts[l]->id);
            }
            for (int c = 0; c < cases; c++) {
                views[c] = open_grown(b, &g[c]);
            }
            double absent_ns[PROBE_CASES_MAX], present_ns[PROBE_CASES_MAX];
            uint64_t hits[PROBE_CASES_MAX], present[PROBE_CASES_MAX];
            time_probes(b, views, cases, -1, -1, absent, absent_ns, hits);
            time_probes(b, views, cases, 1, 1, keys, present_ns, present);
            for (int c = 0; c < cases; c++) {
                if (present[c] != keys) {
                    die(b, "a key added probed 0");
                }
                const char *layout = layouts[c % layout_count]->name;
                char name[64], stages[16] = "-";
                if (c < layout_count) {
                    snprintf(name, sizeof name, "scalable, %s stages", layout);
                    snprintf(stages, sizeof stages, "%d", g[c].stages);
                } else {
                    snprintf(name, sizeof name, "%s", layout);
                }
                printf("| %d | %.1f | %s | %s | %llu | %.4f %% | %.1f | %.1f |\n", growths[gi],
                       tightenings[ri], name, stages, (unsigned long long)g[c].bytes,
                       100.0 * (double)hits[c] / (double)absent, absent_ns[c], present_ns[c]);
                free(g[c].blob);
            }
            fflush(stdout);
        }
    }
}

/* The REAL the one-row query sql returns with blob bound to ?1. */
static double fetch_double_bound(bench *b, const char *sql, const void *blob, int bytes) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(b->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        die(b, sql);
    }
    sqlite3_bind_blob(stmt, 1, blob, bytes, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_ROW) {
        die(b, sql);
    }
    double v = sqlite3_column_double(stmt, 0);
    sqlite3_finalize(stmt);
    return v;
}

/* The table absent(x) of the keys -1 to -count, for false positives. */
static void make_absent(bench *b, sqlite3_int64 count) {
    exec_over_series(b, count,
                     "DROP TABLE IF EXISTS absent; CREATE TABLE absent(x INTEGER); INSERT INTO "
                     "absent %s SELECT -i FROM s;");
}

/* 8c. The scalable kind through SQL, with the constants it ships with. */
static void table_scalable_sql(bench *b) {
    static const sqlite3_int64 counts[] = {1000, 10000, 100000, 1000000};
    const int count_n = b->quick ? 3 : 4;
    const sqlite3_int64 absent = 1000000, chain_max = b->quick ? 10000 : 100000;
    make_absent(b, absent);
    printf("\n### 8c. Scalable filter through SQL\n\n");
    printf("The shipping constants, g = %d and r = %g: `SELECT bloom_build(x, 1000, 0.01, "
           "'scalable') FROM keys WHERE rowid <= N` (the aggregate adds the keys 1..N one by "
           "one, growing as it goes), against a standard filter built for the same N keys "
           "(`bloom_build(x, N, 0.01)`). Up to N = %lld the same filter is also built by "
           "`bloom_add` row by row (a recursive CTE carrying the filter from `bloom_empty(1000, "
           "0.01, 'scalable')`), and must be the same bytes. Every added key is probed "
           "(`sum(bloom_might_contain(?1, x))`), then the %lld absent keys of `absent(x)` (-1 "
           "to -1M); ns per absent probe, bound filter, against the standard filter's and "
           "`noop(?1, x)`'s, and ns per key of the two builds, median of %d runs in turns.\n\n",
           SCALABLE_GROWTH, SCALABLE_TIGHTENING, (long long)chain_max, (long long)absent, b->runs);
    printf("| keys added | stages | bytes | standard bytes | bytes ratio | keys probing 1 | "
           "false positives | measured rate | bloom_info estimated_fp_rate | noop ns/row | "
           "standard ns/row | scalable ns/row | scalable / standard | build ns/key, scalable "
           "| build ns/key, standard |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---"
           "|---|\n");
    for (int i = 0; i < count_n; i++) {
        sqlite3_int64 c = counts[i];
        int bytes, standard_bytes;
        char *build = format(
            "SELECT bloom_build(x, 1000, 0.01, 'scalable') FROM keys WHERE rowid <= %lld", c);
        char *build_standard =
            format("SELECT bloom_build(x, %lld, 0.01) FROM keys WHERE rowid <= %lld", c, c);
        void *filter = fetch_blob(b, build, &bytes);
        void *standard = fetch_blob(b, build_standard, &standard_bytes);
        if (c <= chain_max) {
            int chain_bytes;
            char *chain = format("WITH RECURSIVE s(i, f) AS (SELECT 0, bloom_empty(1000, 0.01, "
                                 "'scalable') UNION ALL SELECT i + 1, bloom_add(f, i + 1) FROM s "
                                 "WHERE i < %lld) SELECT f FROM s WHERE i = %lld",
                                 c, c);
            void *added = fetch_blob(b, chain, &chain_bytes);
            if (chain_bytes != bytes || memcmp(added, filter, (size_t)bytes) != 0) {
                die(b, "bloom_add row by row and bloom_build made different scalable filters");
            }
            free(added);
            sqlite3_free(chain);
        }
        char *present_sql =
            format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %lld", c);
        sqlite3_int64 present = fetch_int_bound(b, present_sql, filter, bytes);
        if (present != c) {
            die(b, "a key added to a scalable filter probed 0");
        }
        sqlite3_int64 stages = fetch_int_bound(
            b, "SELECT json_extract(bloom_info(?1), '$.stage_count')", filter, bytes);
        double estimated = fetch_double_bound(
            b, "SELECT json_extract(bloom_info(?1), '$.estimated_fp_rate')", filter, bytes);
        query probes[] = {
            {"noop", "SELECT sum(noop(?1, x)) FROM absent", filter, bytes},
            {"standard", "SELECT sum(bloom_might_contain(?1, x)) FROM absent", standard,
             standard_bytes},
            {"scalable", "SELECT sum(bloom_might_contain(?1, x)) FROM absent", filter, bytes},
        };
        query builds[] = {{"scalable", build, NULL, 0}, {"standard", build_standard, NULL, 0}};
        double p[3], bt[2];
        sqlite3_int64 fp = 0;
        time_in_turns(b, probes, 3, p);
        time_in_turns(b, builds, 2, bt);
        run_once(b, &probes[2], &fp);
        printf("| %lld | %lld | %d | %d | %.2f | %lld | %lld | %.4f %% | %.4f %% | %.1f | %.1f | "
               "%.1f | %.2f | %.1f | %.1f |\n",
               (long long)c, (long long)stages, bytes, standard_bytes,
               (double)bytes / standard_bytes, (long long)present, (long long)fp,
               100.0 * (double)fp / (double)absent, 100.0 * estimated, p[0] * 1e9 / absent,
               p[1] * 1e9 / absent, p[2] * 1e9 / absent, p[2] / p[1], bt[0] * 1e9 / (double)c,
               bt[1] * 1e9 / (double)c);
        fflush(stdout);
        sqlite3_free(build);
        sqlite3_free(build_standard);
        sqlite3_free(present_sql);
        free(filter);
        free(standard);
    }
}

/* 8d. Growing in place: bloom_add_in_place on a stored scalable filter, which rewrites the cell
** with an UPDATE when it adds a stage. */
static void table_scalable_in_place(bench *b) {
    const sqlite3_int64 inserts = b->quick ? 10000 : 100000;
    const int runs = b->runs < 3 ? b->runs : 3;
    enum { CASES = 2 };
    static const char *const names[CASES] = {"standard, `bloom_empty(N, 0.01)`",
                                             "scalable, from `bloom_empty(1000, 0.01, "
                                             "'scalable')`"};
    char *path = format("%s/bench_scalable.db", b->dir);
    char *wal = format("%s-wal", path);
    remove(path);
    remove(wal);
    bench lb = *b;
    lb.db = open_live(b, path);
    exec(&lb, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0;"
              "CREATE TABLE filters(id INTEGER PRIMARY KEY, filter BLOB);");
    const sqlite3_int64 page_size = fetch_int(&lb, "PRAGMA page_size");
    double seconds[CASES][LIVE_RUNS_MAX], growth_seconds[CASES][LIVE_RUNS_MAX];
    double largest[CASES][LIVE_RUNS_MAX], pages[CASES][LIVE_RUNS_MAX];
    int growths[CASES] = {0};
    sqlite3_int64 final_bytes[CASES] = {0};
    for (int r = 0; r < runs; r++) {
        for (int c = 0; c < CASES; c++) {
            char *reset = c == 1 ? format("DELETE FROM filters; INSERT INTO filters VALUES (1, "
                                          "bloom_empty(1000, 0.01, 'scalable'));")
                                 : format("DELETE FROM filters; INSERT INTO filters VALUES (1, "
                                          "bloom_empty(%lld, 0.01));",
                                          (long long)inserts);
            exec(&lb, reset);
            sqlite3_free(reset);
            truncate_wal(&lb, wal);
            sqlite3_stmt *add = NULL;
            if (sqlite3_prepare_v2(lb.db, "SELECT bloom_add_in_place('filters', 'filter', 1, ?1)",
                                   -1, &add, NULL) != SQLITE_OK) {
                die(&lb, "bloom_add_in_place");
            }
            growths[c] = 0;
            growth_seconds[c][r] = 0;
            largest[c][r] = 0;
            double start = now();
            for (sqlite3_int64 i = 1; i <= inserts; i++) {
                sqlite3_int64 changes = sqlite3_total_changes64(lb.db);
                double begin = now();
                sqlite3_bind_int64(add, 1, i);
                if (sqlite3_step(add) != SQLITE_ROW) {
                    die(&lb, "bloom_add_in_place");
                }
                sqlite3_reset(add);
                double took = now() - begin;
                if (sqlite3_total_changes64(lb.db) != changes) { /* the cell was rewritten */
                    growths[c]++;
                    growth_seconds[c][r] += took;
                    largest[c][r] = took > largest[c][r] ? took : largest[c][r];
                }
            }
            seconds[c][r] = (now() - start) / (double)inserts;
            sqlite3_finalize(add);
            long long wal_bytes = file_bytes(wal);
            pages[c][r] = wal_bytes > 32
                              ? (double)((wal_bytes - 32) / (page_size + 24)) / (double)inserts
                              : 0.0;
            final_bytes[c] = fetch_int(&lb, "SELECT length(filter) FROM filters WHERE id = 1");
        }
    }
    /* The filter grown in place (the last case run) holds every key, and is the one
    ** bloom_build makes of them. */
    int stored_bytes, built_bytes;
    void *stored = fetch_blob(&lb, "SELECT filter FROM filters WHERE id = 1", &stored_bytes);
    char *present_sql =
        format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %lld", inserts);
    if (fetch_int_bound(b, present_sql, stored, stored_bytes) != inserts) {
        die(b, "a key added in place probed 0");
    }
    char *build = format(
        "SELECT bloom_build(x, 1000, 0.01, 'scalable') FROM keys WHERE rowid <= %lld", inserts);
    void *built = fetch_blob(b, build, &built_bytes);
    int same = stored_bytes == built_bytes && memcmp(stored, built, (size_t)built_bytes) == 0;
    printf("\n### 8d. Scalable filter: growing in place\n\n");
    printf("`SELECT bloom_add_in_place('filters', 'filter', 1, ?1)`, prepared once, for the keys "
           "1 to N = %lld, each its own transaction, in a WAL-mode file database (`synchronous = "
           "NORMAL`, SQLite's default 2 MB page cache, the WAL truncated before each run): on a "
           "scalable filter that starts with one stage of 1,000 keys and grows (each new stage "
           "rewrites the cell with an UPDATE, counted by sqlite3_total_changes), against a "
           "standard filter built for the N keys, which does not grow. Median of %d runs in "
           "turns. The scalable filter grown in place holds every key, and is %s the one "
           "`bloom_build(x, 1000, 0.01, 'scalable')` makes of the same keys.\n\n",
           (long long)inserts, runs, same ? "byte for byte" : "NOT");
    printf("| filter | final bytes | inserts | µs/insert, amortised | ratio | inserts that grew "
           "| µs in them, in all | the largest of them, µs | pages written/insert |\n"
           "|---|---|---|---|---|---|---|---|---|\n");
    double m[CASES];
    for (int c = 0; c < CASES; c++) {
        m[c] = median(seconds[c], runs);
    }
    for (int c = 0; c < CASES; c++) {
        printf("| %s | %lld | %lld | %.1f | %.2f | %d | %.0f | %.0f | %.2f |\n", names[c],
               (long long)final_bytes[c], (long long)inserts, m[c] * 1e6, m[c] / m[0], growths[c],
               median(growth_seconds[c], runs) * 1e6, median(largest[c], runs) * 1e6,
               median(pages[c], runs));
    }
    fflush(stdout);
    if (!same) {
        die(b, "the scalable filter grown in place is not the one bloom_build makes");
    }
    free(stored);
    free(built);
    sqlite3_free(build);
    sqlite3_free(present_sql);
    sqlite3_close(lb.db);
    remove(path);
    remove(wal);
    sqlite3_free(path);
    sqlite3_free(wal);
}

void table_scalable(bench *b) {
    bench_clock = CLOCK_THREAD_CPUTIME_ID; /* 8a to 8c: in memory */
    table_scalable_ratios(b);
    table_scalable_layouts(b);
    table_scalable_sql(b);
    bench_clock = CLOCK_MONOTONIC; /* 8d writes a file */
    table_scalable_in_place(b);
}
