/*
** bench.h: what the files of the benchmark (bench.c and a bench_<table>.c for each table it
** prints) share: the run's state, the queries it times, and the helpers of bench_common.c.
*/
#ifndef BLOOM_BENCH_H
#define BLOOM_BENCH_H

#define _POSIX_C_SOURCE 200809L /* clock_gettime, getrusage */

#include <sqlite3.h>

#include "../test_kinds.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

typedef struct bench {
    sqlite3 *db;
    int runs;  /* times each case is measured */
    int quick; /* small data, to check the program */
    const char *dir;
    const char *extension; /* the path of bloom.so */
    const char *charts;    /* --charts DIR: where the charts' data files go; NULL: none */
} bench;

/* bloom_build's N (0 for NULL), P and kind, bound to ?1, ?2 and ?3 as client libraries bind
** them: the kind as TEXT with its length, so with no NUL after it. */
typedef struct build_arguments {
    sqlite3_int64 n;
    double p;
    const char *kind;
} build_arguments;

/* A query to time: SQL text and an optional BLOB bound to ?1. */
typedef struct query {
    const char *label;
    char *sql;
    const void *blob;
    int bytes;
} query;

enum { LIVE_RUNS_MAX = 16, INSERT_CASES = 4, PROBE_CASES = 5 };

void die(bench *b, const char *what);

/* The clock now() reads: wall time, but for the tables of work in memory that choose the
** thread's CPU time (which the machine's other load does not inflate while it waits). */
extern clockid_t bench_clock;

double now(void);

/* Runs SQL (several statements allowed) without results; exits on failure. */
void exec(bench *b, const char *sql);

/* A formatted copy of a string, for SQL built here; exits on failure. */
char *format(const char *fmt, ...);

/* The data file DIR/name of --charts DIR, opened for writing; NULL without --charts. Exits when
** it cannot be written. */
FILE *chart_open(bench *b, const char *name);

/* Writes to chart as printf does; nothing when chart is NULL. */
void chart_printf(FILE *chart, const char *fmt, ...);

/* Closes chart (nothing when it is NULL); exits when its writes failed. */
void chart_close(FILE *chart);

/* Runs q once (prepare, bind, every row), with the build arguments a bound too when a is not
** NULL, and returns the seconds it took; column 0 of its first row goes to *result when result
** is not NULL. */
double run_bound(bench *b, const query *q, const build_arguments *a, sqlite3_int64 *result);

/* run_bound without build arguments. */
double run_once(bench *b, const query *q, sqlite3_int64 *result);

int compare_doubles(const void *a, const void *b);

/* Times count queries b->runs times each, in turns (1 2 3 1 2 3 ...), query i with the build
** arguments arguments[i] bound when arguments is not NULL (NULL ones: none); medians[i] gets
** the median seconds of query i. */
void time_bound_in_turns(bench *b, const query *queries, const build_arguments *const *arguments,
                         int count, double *medians);

/* time_bound_in_turns without build arguments. */
void time_in_turns(bench *b, const query *queries, int count, double *medians);

/* Returns a malloc'ed copy of the BLOB the one-row query sql returns, its size in *bytes. */
void *fetch_blob(bench *b, const char *sql, int *bytes);

/* The integer the one-row query sql returns with blob bound to ?1 (none when blob is NULL). */
sqlite3_int64 fetch_int_bound(bench *b, const char *sql, const void *blob, int bytes);

/* The integer the one-row query sql returns. */
sqlite3_int64 fetch_int(bench *b, const char *sql);

/* A recursive CTE s(i) counting from 1 to n. */
char *series(sqlite3_int64 n);

/* Runs the SQL of sql_format, whose %s is series(n). */
void exec_over_series(bench *b, sqlite3_int64 n, const char *sql_format);

/* Builds a filter of the keys 1..n at 1 % in a layout and returns it; *seconds gets the time
** the build took. */
void *build_filter(bench *b, sqlite3_int64 n, const char *layout, int *bytes, double *seconds);

/* The kinds of the table of kinds for which keep holds, in the order of their ids, into kinds
** (FILTER_KIND_COUNT at most); how many. */
int kinds_where(int (*keep)(const filter_kind *kind), const filter_kind **kinds);

/* Whether kind is a layout of a Bloom filter (tests/test_kinds.h): the standard and blocked
** kinds, which tables 0, 1, 2, 6 and 8b set side by side. */
int is_bloom_layout(const filter_kind *kind);

/* Whether kind cannot be added to: it is built whole from its keys by bloom_build (the binary
** fuse filter). */
int is_built_whole(const filter_kind *kind);

/* Whether tables 0, 1, 2 and 6 set kind side by side with the others: a layout of a Bloom
** filter, a kind built whole, which stands in for one where the keys do not change, or a kind
** held to the floors (tests/test_kinds.h: Spark's). */
int is_probe_kind(const filter_kind *kind);

/* Whether bloom_build builds kind (tests/test_kinds.h). */
int is_built_by_bloom_build(const filter_kind *kind);

/* Whether tables 1 (up to 1M keys) and 13 measure kind: bloom_build builds it, and its rate is
** measured. */
int has_measured_rate(const filter_kind *kind);

/* A connection to the file database path in WAL mode, synchronous=NORMAL, without automatic
** checkpoints, with the extension loaded. */
sqlite3 *open_live(bench *b, const char *path);

/* Bytes of the file path, 0 when there is none. */
long long file_bytes(const char *path);

/* Moves the WAL into the database and truncates it to 0 bytes. */
void truncate_wal(bench *lb, const char *wal);

/* The median of n doubles, sorted in place. */
double median(double *v, int n);

/* The n to build a filter of kind with when n keys are to be inserted in it later: n, and the
** slack the kind needs to find room for them (tests/test_kinds.h). */
sqlite3_int64 capacity_for_inserts(const filter_kind *kind, sqlite3_int64 n);

/* Whether 7a keeps a filter of kind up to date in place: bloom_build builds it for n keys, it
** adds keys in place, and it never grows (8d grows a scalable filter in place). A kind whose
** filters hold the values of one type (a Parquet filter's) is left out of 7a, 7b, 7c and 11a,
** which add TEXT names to filters built of INTEGER keys. */
int adds_in_place_without_growing(const filter_kind *kind);

/* A copy of b on a new file database DIR/file (its path and its WAL's in *path and *wal),
** with the extension loaded. */
bench open_bench_file(bench *b, const char *file, char **path, char **wal);

/* Closes lb's database and removes its files and their paths. */
void close_bench_file(bench *lb, char *path, char *wal);

/* splitmix64: the benchmark's random numbers, from a fixed seed. */
uint64_t next_random(uint64_t *state);

/* ---- The tables, each in its file ---- */

/* 0. The probe without SQLite: the core's loop, for filters of 10k, 1M and 100M keys. */
void table_core(bench *b);

/* 1. The probe against the floors, for filters of 10k, 1M and 100M keys: every kind of one size
** in turns with the others; every kind whose rate is measured up to 1M keys (quick: 10k), the
** kinds of is_probe_kind above. */
void table_probe(bench *b);

/* 2. The build against count(x) and hashagg: each layout of a Bloom filter and each kind built
** whole, n given, then sized at the end, against the first kind's build of the same n; then
** every kind's build with its parameters as literals and bound (table_build_bound). */
void table_build(bench *b);

/* 3. The filter against the exact lookup it replaces. */
void table_exact(bench *b);

/* 4. Ways of writing the probe. */
void table_forms(bench *b);

/* 6. 100M keys: build, peak memory, and the measured rate over 10M absent keys. */
void table_scale(bench *b);

void table_live(bench *b);

void table_scalable(bench *b);

void table_countmin(bench *b);

/* 10. The cuckoo kind's slack: filters for n keys filled with n random keys, with the buckets
** cuckoo_size gives (CUCKOO_SLACK square roots more than n keys at CUCKOO_LOAD) and without. */
void table_cuckoo_slack(bench *b);

/* 7d. The in-place insert with PRAGMA auto_vacuum = INCREMENTAL, whose pointer map lets SQLite
** find the pages of a BLOB's overflow chain without reading them, for the smallest and the
** largest of 7a's filters. */
void table_vacuum(bench *b);

void table_live_table(bench *b);

/* 11c. The index over many filters of a live table: load, 'optimize' and lookups at 1,000,
** 10,000 and 100,000 names against a primary-key lookup, the 1,000 names' and the floor of k
** row reads. */
void table_index(bench *b);

/* 12. Parquet filters against the floors: probes and builds over 1M TEXT keys. */
void table_parquet(bench *b);

/* 13. Every kind whose rate is measured, built over the same keys at p from 10 % to 0.01 %: its
** bytes a key, its false negatives (none, checked) and its measured rate on absent keys. */
void table_size(bench *b);

#endif /* BLOOM_BENCH_H */
