/*
** test_oom.c: every allocation failure while the extension works ends cleanly.
**
** Usage: test_oom EXTENSION PARQUET_DIR SCRATCH_DIR
**
** PARQUET_DIR (tests/parquet) becomes the working directory, for the operations on its files;
** the operations that write a file (bloom_parquet_write's, named "write: ...") write
** SCRATCH_DIR/oom_write.parquet, bound to ?3, removed after each run.
**
** Installs a failing allocator with SQLITE_CONFIG_MALLOC, then, for every
** operation below and for N = 1, 2, ..., runs the operation with the Nth
** allocation failing: once (first pass), or that one and every later one
** (second pass), until a run makes fewer than N allocations. Every run must
**  - end in SQLITE_NOMEM, having returned only rows of the correct result
**    before it, or give exactly the result (or error) of an unfailed run;
**  - for an operation that writes in place (to a table of an attached file,
**    restored before each run), leave the cells it may write byte for byte as
**    they were after SQLITE_NOMEM, and as an unfailed run leaves them otherwise;
**  - for an operation that writes a file, leave none after SQLITE_NOMEM, and
**    otherwise the file (or none) an unfailed run leaves;
**  - leave sqlite3_memory_used() where it was before the statement was prepared;
**  - leave the connection usable: a health query gives its usual answer.
** Failures inside SQLite (prepare, sorting, text conversion) count as well as
** the extension's own. Lookaside is turned off so that every allocation
** reaches the allocator. Prints the failure points survived per operation.
*/
#if defined(__linux__)
#define _GNU_SOURCE /* dladdr */
#endif
#include <sqlite3.h>

#include "allocator.h"
#include "check.h"
#include "text.h"

#include <stdlib.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <dlfcn.h>
#include <execinfo.h>
#endif

/* Stop a pass after this many failure points: a run that never ends is a bug. */
#define MAX_FAILURE_POINTS 1000000

/* SQLite's own allocator, which the failing one forwards to. */
static sqlite3_mem_methods default_allocator;

/* The failure plan: counts allocations while armed and fails the chosen ones. */
static struct {
    int armed;
    int persistent;          /* fail every allocation from fail_at on, not only that one */
    long long fail_at;       /* 1-based number of the allocation to fail */
    long long allocations;   /* xMalloc and xRealloc calls since armed */
    long long failures_made; /* of those, the ones that returned NULL */
    int failed_in_extension; /* one of those was made with the extension's code on the stack */
} plan;

/* The file the operations that write one write (?3): SCRATCH_DIR/oom_write.parquet. */
static char write_destination[4096];

/* Whether the file an operation writes is there. */
static int written_file_is_there(void) {
    return access(write_destination, F_OK) == 0;
}

/* Where the extension is mapped: the base address of the object holding sqlite3_bloom_init. */
static const void *extension_base;

/* Whether a return address in the extension is on the current stack (glibc only; 0 elsewhere). */
static int extension_on_stack(void) {
#ifdef __GLIBC__
    void *frames[64];
    int depth = backtrace(frames, 64);
    for (int i = 0; i < depth; i++) {
        Dl_info where;
        if (dladdr(frames[i], &where) != 0 && where.dli_fbase == extension_base) {
            return 1;
        }
    }
#endif
    return 0;
}

/* Finds where the extension, already loaded from path, is mapped; exits on failure. */
static void locate_extension(const char *path) {
#ifdef __GLIBC__
    void *handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    void *entry = handle != NULL ? dlsym(handle, "sqlite3_bloom_init") : NULL;
    Dl_info where;
    if (entry == NULL || dladdr(entry, &where) == 0 || dlclose(handle) != 0) {
        fprintf(stderr, "test_oom: cannot locate %s: %s\n", path, dlerror());
        exit(2);
    }
    extension_base = where.dli_fbase;
#else
    (void)path;
#endif
}

/* Whether the allocation being made now must fail; counts it. */
static int allocation_must_fail(void) {
    if (!plan.armed) {
        return 0;
    }
    plan.allocations++;
    if (plan.allocations == plan.fail_at || (plan.persistent && plan.allocations > plan.fail_at)) {
        plan.failures_made++;
        plan.failed_in_extension |= extension_on_stack();
        return 1;
    }
    return 0;
}

/* xMalloc: SQLite's, or NULL when the plan says so. */
static void *failing_malloc(int bytes) {
    return allocation_must_fail() ? NULL : default_allocator.xMalloc(bytes);
}

/* xRealloc: SQLite's, or NULL (the old block kept) when the plan says so. */
static void *failing_realloc(void *old, int bytes) {
    return allocation_must_fail() ? NULL : default_allocator.xRealloc(old, bytes);
}

/* Installs the failing allocator around SQLite's default one; exits on failure. */
static void install_failing_allocator(void) {
    wrap_sqlite_allocator(&default_allocator, failing_malloc, failing_realloc, "test_oom");
    if (sqlite3_initialize() != SQLITE_OK) {
        fprintf(stderr, "test_oom: cannot initialize SQLite\n");
        exit(2);
    }
}

/* Starts counting allocations, failing the fail_at-th (and later ones if persistent). */
static void arm(long long fail_at, int persistent) {
    plan.armed = 1;
    plan.persistent = persistent;
    plan.fail_at = fail_at;
    plan.allocations = 0;
    plan.failures_made = 0;
    plan.failed_in_extension = 0;
}

/* Stops failing allocations; returns how many failed since arm(). */
static long long disarm(void) {
    plan.armed = 0;
    return plan.failures_made;
}

/* Appends column i of the current row of stmt: its type and its value, BLOBs in hex. */
static void append_column(text *out, sqlite3_stmt *stmt, int i) {
    char buf[64];
    int type = sqlite3_column_type(stmt, i);
    if (type == SQLITE_BLOB) {
        const unsigned char *blob = sqlite3_column_blob(stmt, i);
        int bytes = sqlite3_column_bytes(stmt, i);
        text_append(out, "x'", 2);
        for (int b = 0; b < bytes && blob != NULL; b++) {
            snprintf(buf, sizeof buf, "%02X", blob[b]);
            text_append(out, buf, 2);
        }
        text_append(out, "'", 1);
    } else if (type == SQLITE_NULL) {
        text_append(out, "NULL", 4);
    } else {
        const char *value = (const char *)sqlite3_column_text(stmt, i);
        snprintf(buf, sizeof buf, "%d:", type);
        text_append(out, buf, strlen(buf));
        text_append(out, value ? value : "(null)",
                    value ? (size_t)sqlite3_column_bytes(stmt, i) : 6);
    }
}

/* A filter (or any BLOB) kept in the C heap, bound to statements without a copy. */
typedef struct blob {
    void *bytes;
    int length;
} blob;

/*
** Runs sql on db with ?1 and ?2, where it has them, bound to parameters[0] and [1], and ?3
** to the file the writers write, appending each row to rows as one line. Returns SQLITE_DONE, or
*the result code of
** the failure, whose message then ends rows.
*/
static int run_statement(sqlite3 *db, const char *sql, const blob *parameters, text *rows) {
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    for (int i = 0; rc == SQLITE_OK && i < sqlite3_bind_parameter_count(stmt); i++) {
        if (i < 2 && parameters != NULL && parameters[i].bytes != NULL) {
            rc = sqlite3_bind_blob(stmt, i + 1, parameters[i].bytes, parameters[i].length,
                                   SQLITE_STATIC);
        } else if (i == 2) {
            rc = sqlite3_bind_text(stmt, 3, write_destination, -1, SQLITE_STATIC);
        }
    }
    if (rc == SQLITE_OK) {
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            /* Reading a row converts numbers to text: the test's doing, not under test. */
            int armed = plan.armed;
            plan.armed = 0;
            for (int i = 0; i < sqlite3_column_count(stmt); i++) {
                text_append(rows, i > 0 ? "|" : "", i > 0 ? 1 : 0);
                append_column(rows, stmt, i);
            }
            text_append(rows, "\n", 1);
            plan.armed = armed;
        }
    }
    int finalize_rc = sqlite3_finalize(stmt);
    if (rc == SQLITE_DONE && finalize_rc != SQLITE_OK) {
        rc = finalize_rc;
    }
    if (rc != SQLITE_DONE) {
        char code[32];
        snprintf(code, sizeof code, "error %d: ", rc);
        text_append(rows, code, strlen(code));
        text_append(rows, sqlite3_errmsg(db), strlen(sqlite3_errmsg(db)));
    }
    return rc;
}

/* One operation under test: SQL run on one of the fixture databases. */
typedef struct operation {
    const char *name;
    int utf16;          /* run on the UTF-16 database instead of the UTF-8 one */
    const char *sql;    /* may use ?1 (the standard filter 'a') and ?2 (the blocked one) */
    const char *starts; /* how the result of an unfailed run starts */
    const char *cells;  /* for a function in place, NULL for the others: the cells it may change,
                        ** a query of disk.cells; they are restored before each run */
    int changes;        /* whether an unfailed run changes those cells */
} operation;

/* Whether op writes a file, ?3: its name starts "write:". */
static int operation_writes_file(const operation *op) {
    return strncmp(op->name, "write:", 6) == 0;
}

/* Whether op keeps memory for later statements: a live table's caches, which the restore of its
** filters empties, so that memory is counted after that restore. The operations on live tables
** are named "live: ...". */
static int operation_keeps_caches(const operation *op) {
    return strncmp(op->name, "live:", 5) == 0;
}

/* Restores every cell the writers in place change, of disk.cells and disk.keyed, from
** disk.originals, and the filters of the live tables (which empties their caches); the small
** filters of disk.indexed with their index (an index over disk.live's, made at every restore,
** made the test 35 times slower). */
static const char restore_sql[] =
    "UPDATE disk.cells SET f = (SELECT f FROM disk.originals AS o WHERE o.id = cells.id);"
    "UPDATE disk.keyed SET f = (SELECT f FROM disk.originals WHERE id = 1);"
    "DELETE FROM disk.live;"
    "INSERT INTO disk.live(filter) SELECT f FROM filters WHERE name = 'blocked';"
    "INSERT INTO disk.live(name, filter) SELECT 'counting', f FROM filters WHERE name = 'counting';"
    "INSERT INTO disk.live(name, filter) SELECT 'scalable', f FROM disk.originals WHERE id = 1;"
    "INSERT INTO disk.live(name, filter) SELECT 'sketch', f FROM disk.originals WHERE id = 4;"
    "INSERT INTO disk.live(name, filter) SELECT 'parquet', f FROM disk.originals WHERE id = 6;"
    "INSERT INTO disk.live(name, filter) SELECT 'fuse', f FROM disk.originals WHERE id = 7;"
    "DELETE FROM disk.indexed;"
    "INSERT INTO disk.indexed(name, key) VALUES ('a', 'key 1'), ('a', 'key 2'), ('b', 'key 3');"
    "INSERT INTO disk.indexed(indexed) VALUES ('optimize')";

/* Restores the cells of the writers in place (restore_sql), then reads those of op into cells. */
static void restore_cells(sqlite3 *db, const operation *op, text *cells) {
    text_clear(cells);
    CHECK(sqlite3_exec(db, restore_sql, NULL, NULL, NULL) == SQLITE_OK);
    CHECK(run_statement(db, op->cells, NULL, cells) == SQLITE_DONE);
}

static const operation operations[] = {
    {"build, n fixed, standard", 0, "SELECT bloom_build(k, 1000, 0.01) FROM keys", "x'5351424601",
     NULL, 0},
    {"build, n fixed, blocked", 0, "SELECT bloom_build(k, 1000, 0.01, 'blocked') FROM keys",
     "x'5351424601", NULL, 0},
    {"build, n NULL, standard, set grows", 0, "SELECT bloom_build(k) FROM dups", "x'5351424601",
     NULL, 0},
    {"build, n NULL, blocked, set grows", 0,
     "SELECT bloom_build(k, NULL, 0.001, 'blocked') FROM dups", "x'5351424601", NULL, 0},
    {"build, GROUP BY, both sizings", 0,
     "SELECT g, bloom_build(k, 100, 0.01), bloom_build(k, NULL, 0.01, 'blocked') FROM keys "
     "GROUP BY g ORDER BY g",
     "1:0|x'5351424601", NULL, 0},
    {"build, computed keys", 0,
     "SELECT bloom_build(substr(k, 2), 1000, 0.01), bloom_build(zeroblob(rowid % 13), 20, 0.01) "
     "FROM keys",
     "x'5351424601", NULL, 0},
    {"build, counting", 0, "SELECT bloom_build(k, 1000, 0.01, 'counting') FROM keys",
     "x'5351424602", NULL, 0},
    {"build, cuckoo", 0, "SELECT bloom_build(k, 1000, 0.01, 'cuckoo') FROM keys",
     "x'5351424602020401", NULL, 0},
    {"bloom_remove and bloom_add, cuckoo", 0,
     "SELECT bloom_remove(f, 'key 1'), bloom_add(f, 'new') FROM filters WHERE name = 'cuckoo'",
     "x'5351424602020401", NULL, 0},
    {"in place: cuckoo, remove a key that is not there", 0,
     "SELECT bloom_remove_in_place('filters', 'f', 5, 'absent key')",
     "error 1: bloom_remove_in_place: the key 'absent key' is not in the filter", NULL, 0},
    {"bloom_remove, counting", 0,
     "SELECT bloom_remove(f, 'key 1') FROM filters WHERE name = "
     "'counting'",
     "x'5351424602", NULL, 0},
    {"in place: probe", 0,
     "SELECT sum(bloom_might_contain_in_place('filters', 'f', 1, k)), "
     "sum(bloom_might_contain_in_place('main.filters', 'f', 4, k)), "
     "sum(bloom_might_contain_in_place('filters', 'f', 5, k)) FROM keys WHERE rowid <= 10",
     "1:10|1:10|1:10\n", NULL, 0},
    {"in place: add a key that is there", 0,
     "SELECT bloom_add_in_place('filters', 'f', 1, 'key 1')", "1:0\n", NULL, 0},
    {"in place: remove a key that is not there", 0,
     "SELECT bloom_remove_in_place('filters', 'f', 4, 'absent key')",
     "error 1: bloom_remove_in_place: the key 'absent key' is not in the filter", NULL, 0},
    {"build, UTF-16 database", 1, "SELECT bloom_build(k, 1000, 0.01) FROM keys", "x'5351424601",
     NULL, 0},
    {"probe, bound filters", 0,
     "SELECT sum(bloom_might_contain(?1, k)), sum(bloom_might_contain(?2, k)), "
     "sum(bloom_might_contain(?1, k || 'x')) FROM keys",
     "1:400|1:400|", NULL, 0},
    {"probe, computed keys", 0,
     "SELECT sum(bloom_might_contain(?1, substr(k, 1))), "
     "sum(bloom_might_contain(?2, zeroblob(rowid % 5))) FROM keys",
     "1:", NULL, 0},
    {"probe, filter from a subquery", 0,
     "SELECT count(*) FROM keys WHERE bloom_might_contain((SELECT f FROM filters WHERE name = "
     "'a'), k)",
     "1:400\n", NULL, 0},
    {"probe, UTF-16 database", 1,
     "SELECT sum(bloom_might_contain(?1, k)), sum(bloom_might_contain(?2, k)) FROM keys",
     "1:400|1:400\n", NULL, 0},
    {"probe, a handle in a scalar subquery", 0,
     "SELECT count(*) FROM keys WHERE bloom_might_contain((SELECT bloom_handle(f) FROM filters "
     "WHERE name = 'blocked'), k)",
     "1:400\n", NULL, 0},
    {"bloom_empty", 0, "SELECT bloom_empty(1000, 0.01), bloom_empty(500, 0.001, 'blocked')",
     "x'5351424601", NULL, 0},
    {"error: wrong number of arguments", 0, "SELECT bloom_build(k, 0.01) FROM keys",
     "error 1: bloom_build: wrong number of arguments (2); the forms are", NULL, 0},
    {"error: the filter and the key swapped", 0,
     "SELECT bloom_might_contain('a key', f) FROM filters WHERE name = 'a'",
     "error 1: bloom_might_contain: the filter must be a BLOB, got 'a key'; the filter comes "
     "first",
     NULL, 0},
    {"bloom_union, scalar", 0,
     "SELECT bloom_union(a.f, b.f), bloom_union(b.f, a.f) FROM parts a, parts b "
     "WHERE a.g = 0 AND b.g = 1",
     "x'5351424601", NULL, 0},
    {"bloom_union, aggregate", 0, "SELECT bloom_union(f) FROM parts", "x'5351424601", NULL, 0},
    {"bloom_add", 0,
     "SELECT bloom_add(bloom_add(f, 'new'), 42), bloom_add(f, NULL) FROM filters WHERE name = 'a'",
     "x'5351424601", NULL, 0},
    {"bloom_info", 0, "SELECT name, bloom_info(f) FROM filters ORDER BY name",
     "3:a|3:{\"format_version\":1,", NULL, 0},
    {"error: not a filter", 0, "SELECT bloom_might_contain(CAST('SQBF, and then?' AS BLOB), 1)",
     "error 1: bloom_might_contain: not a Bloom filter: length 15 is shorter", NULL, 0},
    {"error: bad n", 0,
     "SELECT bloom_build(k, 'a text long enough to be cut in the message', 0.01) FROM keys",
     "error 1: bloom_build: n must be a whole number >= 1 or NULL, got 'a text long", NULL, 0},
    {"error: incompatible filters", 0,
     "SELECT bloom_union(f) FROM filters WHERE name IN ('a', 'small')",
     "error 1: bloom_union: incompatible filters: one built for n = 1000 at p = 0.01 (9600 "
     "bits, k = 7), the other for n = 10 at p = 0.01 (128 bits, k = 7)",
     NULL, 0},

    /* The scalable kind: built and grown, sized at the end, added to with and without growing,
    ** merged, probed, inspected; in place, growing (the cell replaced by an UPDATE) or not. */
    {"build, scalable, grows to 3 stages", 0,
     "SELECT bloom_build(k, 100, 0.01, 'scalable') FROM keys", "x'5351424602020501", NULL, 0},
    {"build, scalable, n NULL, GROUP BY", 0,
     "SELECT g, bloom_build(k, NULL, 0.01, 'scalable') FROM keys GROUP BY g ORDER BY g",
     "1:0|x'5351424602020501", NULL, 0},
    {"bloom_add, scalable, grows and not", 0,
     "SELECT bloom_add(f, 'new key'), bloom_add(bloom_add(f, 'new key'), 'key 1') FROM grown "
     "WHERE name = 'scalable full'",
     "x'5351424602020501", NULL, 0},
    {"bloom_empty, scalable", 0, "SELECT bloom_empty(500, 0.001, 'scalable')", "x'5351424602020501",
     NULL, 0},
    {"bloom_union, scalable, scalar", 0,
     "SELECT bloom_union(f, bloom_empty(50, 0.01, 'scalable')), bloom_union(bloom_empty(50, "
     "0.01, 'scalable'), f) FROM grown WHERE name = 'scalable 2 stages'",
     "x'5351424602020501", NULL, 0},
    {"bloom_union, scalable, aggregate", 0, "SELECT bloom_union(f) FROM scalable_parts",
     "x'5351424602020501", NULL, 0},
    {"probe and bloom_info, scalable", 0,
     "SELECT sum(bloom_might_contain(f, k)), json_extract(bloom_info(f), '$.stage_count') FROM "
     "grown, keys WHERE name = 'scalable 3 stages'",
     "1:400|1:3\n", NULL, 0},
    {"error: scalable union, a stage too full", 0,
     "SELECT bloom_union(f, f) FROM grown WHERE name = 'scalable full'",
     "error 1: bloom_union: incompatible filters: together their stage 0 would hold", NULL, 0},
    {"in place: scalable grows", 0, "SELECT bloom_add_in_place('disk.cells', 'f', 1, 'new key')",
     "1:1\n", "SELECT hex(f) FROM disk.cells WHERE id = 1", 1},
    {"in place: scalable, room left", 0,
     "SELECT bloom_add_in_place('disk.cells', 'f', 2, 'new key')", "1:1\n",
     "SELECT hex(f) FROM disk.cells WHERE id = 2", 1},
    {"in place: scalable probe", 0,
     "SELECT sum(bloom_might_contain_in_place('disk.cells', 'f', 3, k)), "
     "bloom_might_contain_in_place('disk.cells', 'f', 1, 'new key') FROM keys WHERE rowid <= 20",
     "1:20|1:0\n", "SELECT hex(f) FROM disk.cells WHERE id IN (1, 3)", 0},

    /* The count-min sketch: every cms_ function, and the functions every kind answers. */
    {"cms_build, plain and conservative", 0,
     "SELECT cms_build(k, 0.01, 0.01), cms_build(k, g + 1, 0.01, 0.001, 'conservative') FROM "
     "keys",
     "x'5351424602020601", NULL, 0},
    {"cms_build, GROUP BY, UTF-16", 1,
     "SELECT g, cms_build(k, rowid, 0.05, 0.1) FROM keys GROUP BY g ORDER BY g",
     "1:0|x'5351424602020601", NULL, 0},
    {"cms_empty", 0, "SELECT cms_empty(0.001, 0.001), cms_empty(0.1, 0.1, 'CONSERVATIVE')",
     "x'5351424602020601", NULL, 0},
    {"cms_count, bound and from a table", 0,
     "SELECT sum(cms_count(s.f, k)), sum(cms_count(c.f, k)) FROM keys, sketches AS s, sketches "
     "AS c WHERE s.name = 'plain' AND c.name = 'conservative'",
     "1:", NULL, 0},
    {"cms_add, bloom_add and bloom_might_contain on a sketch", 0,
     "SELECT cms_add(f, 'key 1', 1000), cms_add(f, NULL), bloom_add(f, 'new'), "
     "bloom_might_contain(f, 'key 1') FROM sketches WHERE name = 'plain'",
     "x'5351424602020601", NULL, 0},
    {"cms_union, scalar and aggregate", 0,
     "SELECT cms_union(a.f, b.f), (SELECT cms_union(f) FROM sketch_parts) FROM sketches AS a, "
     "sketches AS b WHERE a.name = 'plain' AND b.name = 'plain'",
     "x'5351424602020601", NULL, 0},
    {"cms_info and bloom_info", 0, "SELECT cms_info(f), bloom_info(f) FROM sketches ORDER BY name",
     "3:{\"format_version\":2,", NULL, 0},
    {"error: cms_add past the largest total", 0,
     "SELECT cms_add(f, 'key 1', 9223372036854775807) FROM sketches WHERE name = 'plain'",
     "error 1: cms_add: no room for the count in the 'countmin' filter", NULL, 0},
    {"error: cms_count of a Bloom filter", 0,
     "SELECT cms_count(f, 1) FROM filters WHERE name = 'a'",
     "error 1: cms_count: the filter is a 'standard' filter, not a count-min sketch", NULL, 0},
    {"error: cms_empty, delta needs 65 rows", 0, "SELECT cms_empty(0.1, 1e-29)",
     "error 1: cms_empty: delta = 1.0e-29 needs a depth of more than 64 rows", NULL, 0},
    {"in place: cms_add_in_place", 0, "SELECT cms_add_in_place('disk.cells', 'f', 4, 'key 1', 5)",
     "1:6\n", "SELECT hex(f) FROM disk.cells WHERE id = 4", 1},
    {"in place: cms_count_in_place", 0,
     "SELECT cms_count_in_place('disk.cells', 'f', 4, 'key 1'), "
     "bloom_might_contain_in_place('disk.cells', 'f', 4, 'key 5')",
     "1:1|1:1\n", "SELECT hex(f) FROM disk.cells WHERE id = 4", 0},
    {"in place: cms_add_in_place past the largest total", 0,
     "SELECT cms_add_in_place('disk.cells', 'f', 4, 'key 1', 9223372036854775807)",
     "error 1: cms_add_in_place: no room for the count",
     "SELECT hex(f) FROM disk.cells WHERE id = 4", 0},
    {"in place: bloom_add_in_place on a sketch", 0,
     "SELECT bloom_add_in_place('disk.cells', 'f', 4, 'key 5')", "1:0\n",
     "SELECT hex(f) FROM disk.cells WHERE id = 4", 1},

    /* The Parquet kind (rule 27 (Parquet filters)): a type from the first key of each group, the
    ** set of keys sized at the end hashed by that type, the refusal of a key of another type (its
    ** message built), union with and without a type, bloom_info, the bytes of Parquet files
    ** (rule 28 (Parquet bytes)); in place and in a live table, a first key and a refused one. */
    {"build, parquet, a type per group", 0,
     "SELECT g, bloom_build(k, 1000, 0.01, 'parquet') FROM keys GROUP BY g ORDER BY g",
     "1:0|x'5351424602020702", NULL, 0},
    {"build, parquet, n NULL", 0,
     "SELECT bloom_build(typeof(k) || ':' || k, NULL, 0.01, 'parquet'), bloom_build(k, NULL, "
     "0.001, 'parquet') FROM keys WHERE g = 3",
     "x'5351424602020702", NULL, 0},
    {"error: build, parquet, a key of another type", 0,
     "SELECT bloom_build(k, NULL, 0.01, 'parquet') FROM keys",
     "error 1: bloom_build: the key 3.5 is not a value of the filter's type, BYTE_ARRAY; nothing "
     "was added",
     NULL, 0},
    {"bloom_add and probe, parquet", 0,
     "SELECT bloom_add(f, 42), bloom_add(bloom_empty(10, 0.01, 'parquet'), 4.5), "
     "(SELECT sum(bloom_might_contain(f, k)) FROM keys WHERE typeof(k) IN ('integer', 'real')) "
     "FROM parquets WHERE name = 'int64'",
     "x'5351424602020702", NULL, 0},
    {"error: bloom_add, parquet, a key of another type", 0,
     "SELECT bloom_add(f, 'a text key') FROM parquets WHERE name = 'int64'",
     "error 1: bloom_add: the key 'a text key' is not a value of the filter's type, INT64; nothing "
     "was added",
     NULL, 0},
    {"bloom_union, parquet, scalar and aggregate", 0,
     "SELECT bloom_union(bloom_empty(1000, 0.01, 'parquet'), f), (SELECT bloom_union(f) FROM "
     "parquet_parts) FROM parquets WHERE name = 'bytes'",
     "x'5351424602020702", NULL, 0},
    {"error: bloom_union, parquet, two types", 0,
     "SELECT bloom_union(a.f, b.f) FROM parquets AS a, parquets AS b WHERE a.name = 'int64' AND "
     "b.name = 'bytes'",
     "error 1: bloom_union: incompatible filters: values of INT64", NULL, 0},
    {"bloom_info, parquet", 0, "SELECT name, bloom_info(f) FROM parquets ORDER BY name",
     "3:bytes|3:{\"format_version\":2,", NULL, 0},
    {"bloom_to_parquet and bloom_from_parquet", 0,
     "SELECT bloom_from_parquet(bloom_to_parquet(f), 'FIXED_LEN_BYTE_ARRAY(16)') FROM parquets "
     "WHERE name = 'int64'",
     "x'5351424602020702", NULL, 0},
    {"error: bloom_from_parquet, bytes that end inside the header", 0,
     "SELECT bloom_from_parquet(x'15401C1C0000', 'INT32')",
     "error 1: bloom_from_parquet: not a Parquet Bloom filter: its 6 bytes end inside the header",
     NULL, 0},
    {"in place: parquet, the first key gives the type", 0,
     "SELECT bloom_add_in_place('disk.cells', 'f', 5, 42)", "1:1\n",
     "SELECT hex(f) FROM disk.cells WHERE id = 5", 1},
    {"in place: parquet, refused, a key of another type", 0,
     "SELECT bloom_add_in_place('disk.cells', 'f', 6, 'a text key')",
     "error 1: bloom_add_in_place: the key 'a text key' is not a value of the filter's type, "
     "INT64; nothing was added",
     "SELECT hex(f) FROM disk.cells WHERE id = 6", 0},
    {"in place: parquet probe", 0,
     "SELECT sum(bloom_might_contain_in_place('disk.cells', 'f', 6, k)) FROM keys WHERE rowid "
     "<= 40 AND typeof(k) IN ('integer', 'real')",
     "1:10\n", "SELECT hex(f) FROM disk.cells WHERE id = 6", 0},

    /* The Spark kind (rule 32 (Spark filters)): built with n and sized at the end, in both
    ** versions, a REAL refused (its message built), Spark's bytes both ways, add, union and
    ** bloom_info. */
    {"build, spark, both versions, n and NULL", 0,
     "SELECT bloom_build(k, 1000, 0.01, 'spark'), bloom_build(k, NULL, 0.01, 'spark v1') FROM keys "
     "WHERE typeof(k) <> 'real'",
     "x'5351424603030903", NULL, 0},
    {"error: build, spark, a REAL", 0,
     "SELECT bloom_build(k, NULL, 0.01, 'spark') FROM keys ORDER BY typeof(k) = 'real'",
     "error 1: bloom_build: the key 3.5 is not a value of the filter's type, a long, string or "
     "byte array (Spark's put takes no double); nothing was added",
     NULL, 0},
    {"bloom_to_spark and bloom_from_spark", 0,
     "SELECT bloom_to_spark(bloom_from_spark(bloom_to_spark(bloom_build(k, 1000, 0.01, 'spark')))) "
     "FROM keys WHERE typeof(k) <> 'real'",
     "x'000000020000000700000000", NULL, 0},
    {"error: bloom_from_spark, a short head", 0, "SELECT bloom_from_spark(x'0000000200000001')",
     "error 1: bloom_from_spark: not a Spark Bloom filter: 8 bytes end before the head", NULL, 0},
    {"bloom_add, union and info, spark", 0,
     "SELECT bloom_add(f, 'a text key'), bloom_union(f, f), bloom_info(f) FROM (SELECT "
     "bloom_build(k, 100, 0.01, 'spark v1') AS f FROM keys WHERE typeof(k) = 'integer')",
     "x'5351424603030903", NULL, 0},

    /* The binary fuse kind, static (rule 30 (static filters)): built once from all the keys of
    ** its group, kept as they come (their array growing: 4,000 rows of dups grow it three
    ** times), sorted without repeats in a buffer, the filter sized for them and built with three
    ** arrays of scratch; a build of no keys; probed, inspected, in place; the refusals of what
    ** adds to it, merges it or makes it empty. */
    {"build, fuse, n fixed", 0, "SELECT bloom_build(k, 1000, 0.01, 'fuse') FROM keys",
     "x'5351424602020801", NULL, 0},
    {"build, fuse, n NULL, kept keys grow", 0,
     "SELECT bloom_build(k, NULL, 0.01, 'fuse') FROM dups", "x'5351424602020801", NULL, 0},
    {"build, fuse, GROUP BY, and of no keys", 0,
     "SELECT g, bloom_build(k, 100, 0.01, 'fuse'), bloom_build(NULL, NULL, 0.01, 'fuse') FROM "
     "keys GROUP BY g ORDER BY g",
     "1:0|x'5351424602020801", NULL, 0},
    {"build, fuse, UTF-16 database", 1, "SELECT bloom_build(k, NULL, 0.001, 'fuse') FROM keys",
     "x'5351424602020801", NULL, 0},
    {"probe and bloom_info, fuse", 0,
     "SELECT sum(bloom_might_contain(s.f, k)), json_extract(bloom_info(s.f), '$.keys_added'), "
     "sum(bloom_might_contain(n.f, k)) FROM keys, statics AS s, statics AS n WHERE s.name = "
     "'fuse' AND n.name = 'fuse of no keys'",
     "1:400|1:400|1:0\n", NULL, 0},
    {"error: bloom_add, fuse", 0, "SELECT bloom_add(f, 'new') FROM statics WHERE name = 'fuse'",
     "error 1: bloom_add: a 'fuse' filter cannot add keys: it is built once from all its keys",
     NULL, 0},
    {"error: bloom_union, fuse", 0, "SELECT bloom_union(f) FROM statics",
     "error 1: bloom_union: a 'fuse' filter cannot merge with another: it is built once from all "
     "its keys",
     NULL, 0},
    {"error: bloom_empty, fuse", 0, "SELECT bloom_empty(1000, 0.01, 'fuse')",
     "error 1: bloom_empty: a 'fuse' filter is built once from all its keys, never empty", NULL, 0},
    {"in place: fuse probe", 0,
     "SELECT sum(bloom_might_contain_in_place('disk.cells', 'f', 7, k)) FROM keys", "1:400\n",
     "SELECT hex(f) FROM disk.cells WHERE id = 7", 0},
    {"in place: refused, fuse", 0, "SELECT bloom_add_in_place('disk.cells', 'f', 7, 'new key')",
     "error 1: bloom_add_in_place: a 'fuse' filter cannot add keys where it is stored: it is built "
     "once from all its keys",
     "SELECT hex(f) FROM disk.cells WHERE id = 7", 0},

    /* A live table (rule 26 (live table)): its filters restored before each run, which empties
    ** its caches, and again before the memory is counted. */
    {"bloom_parquet_filters", 0,
     "SELECT row_group, column_path, physical_type, length(filter), problem, created_by "
     "FROM bloom_parquet_filters('types.parquet')",
     "1:0|3:i32|3:INT32|1:96|NULL|3:DuckDB version v1.5.6", NULL, 0},
    {"bloom_parquet_filters, a join", 0,
     "SELECT p, count(f.filter) FROM (SELECT 'row_groups.parquet' AS p UNION ALL "
     "SELECT 'parquetjs.parquet') JOIN bloom_parquet_filters(p) AS f GROUP BY p",
     "3:parquetjs.parquet|1:1\n3:row_groups.parquet|1:6", NULL, 0},
    {"error: not a Parquet file", 0, "SELECT * FROM bloom_parquet_filters('README.md')",
     "error 1: bloom_parquet_filters: 'README.md': not a Parquet file: no PAR1 at its end", NULL,
     0},
    {"write: bloom_parquet_write", 0,
     "SELECT bloom_parquet_write('row_groups.parquet', ?3, column_path, g, f) FROM (SELECT 'key' "
     "AS column_path, NULL AS g, bloom_build(k, 100, 0.01, 'parquet BYTE_ARRAY') AS f FROM keys "
     "WHERE typeof(k) = 'text' UNION ALL SELECT 'part', 1, bloom_empty(10, 0.01, 'parquet INT64'))",
     "1:4\n", NULL, 0},
    {"write: error after the first row", 0,
     "SELECT bloom_parquet_write('types.parquet', ?3, column_path, NULL, f) FROM (SELECT 'i64' "
     "AS column_path, bloom_empty(10, 0.01, 'parquet INT64') AS f UNION ALL SELECT 'i32', "
     "bloom_empty(10, 0.01, 'parquet INT64'))",
     "error 1: bloom_parquet_write: column 'i32' of source 'types.parquet' is INT32, the filter "
     "INT64; build it with bloom_build(key, n, p, 'parquet INT32')",
     NULL, 0},
    {"live: add a key", 0, "INSERT INTO disk.live(key) VALUES ('new key')", "",
     "SELECT hex(filter) FROM disk.live WHERE name IS NULL", 1},
    {"live: add a key, a new filter", 0, "INSERT INTO disk.live(name, key) VALUES ('new', 'k')", "",
     "SELECT name, hex(filter) FROM disk.live", 1},
    {"live: add a key, a scalable filter grows", 0,
     "INSERT INTO disk.live(name, key) VALUES ('scalable', 'new key')", "",
     "SELECT hex(filter) FROM disk.live WHERE name = 'scalable'", 1},
    {"live: add a count", 0, "INSERT INTO disk.live(name, key, count) VALUES ('sketch', 'k', 7)",
     "", "SELECT hex(filter) FROM disk.live WHERE name = 'sketch'", 1},
    {"live: remove a key", 0, "DELETE FROM disk.live WHERE name = 'counting' AND key = 'key 1'", "",
     "SELECT hex(filter) FROM disk.live WHERE name = 'counting'", 1},
    {"live: drop a filter", 0, "DELETE FROM disk.live WHERE name = 'counting'", "",
     "SELECT name FROM disk.live", 1},
    {"live: load a filter", 0,
     "INSERT OR REPLACE INTO disk.live(name, filter) SELECT 'counting', f FROM filters WHERE "
     "name = 'a'",
     "", "SELECT name, hex(filter) FROM disk.live", 1},
    {"live: probe every filter", 0, "SELECT name, count FROM disk.live WHERE key = 'key 1'", "",
     "SELECT hex(filter) FROM disk.live", 0},
    {"live: allocate a new filter's chunk rows", 0,
     "INSERT INTO disk.live(live, name) VALUES ('allocate', 'allocated')", "",
     "SELECT count(*), sum(length(data)) FROM disk.live_chunks", 1},
    {"live: optimize", 0, "INSERT INTO disk.indexed(indexed) VALUES ('optimize')", "",
     "SELECT id, hex(data) FROM disk.indexed_chunks WHERE id < 0", 0},
    {"live: probe by the index", 0, "SELECT name FROM disk.indexed WHERE key = 'key 1'", "3:a",
     "SELECT id, hex(data) FROM disk.indexed_chunks WHERE id < 0", 0},
    {"live: add a key to an indexed filter", 0,
     "INSERT INTO disk.indexed(name, key) VALUES ('b', 'key 4')", "",
     "SELECT id, hex(data) FROM disk.indexed_chunks WHERE id < 0", 1},
    {"live: add a key, parquet", 0, "INSERT INTO disk.live(name, key) VALUES ('parquet', 42)", "",
     "SELECT hex(filter) FROM disk.live WHERE name = 'parquet'", 1},
    {"live: refused, a key of another type", 0,
     "INSERT INTO disk.live(name, key) VALUES ('parquet', 43), ('parquet', 'a text key')",
     "error 1: live: the key 'a text key' is not a value of the filter's type, INT64; nothing was "
     "added",
     "SELECT hex(filter) FROM disk.live WHERE name = 'parquet'", 0},
    {"live: refused, a key for a fuse filter", 0,
     "INSERT INTO disk.live(name, key) VALUES ('fuse', 'new key')",
     "error 1: live: a 'fuse' filter cannot add keys where it is stored: it is built once from "
     "all its keys",
     "SELECT hex(filter) FROM disk.live WHERE name = 'fuse'", 0},
    {"live: snapshot", 0, "SELECT length(filter) FROM disk.live WHERE name = 'scalable'", "",
     "SELECT hex(filter) FROM disk.live", 0},
    {"live: refused, a key from a kind that cannot remove", 0,
     "DELETE FROM disk.live WHERE name IS NULL AND key = 'key 1'",
     "error 1: live: a 'blocked' filter cannot remove keys",
     "SELECT hex(filter) FROM disk.live WHERE name IS NULL", 0},

    /* The guards of rule 19 (in place): the checks of the table, and their refusals. */
    {"in place: a column rowid that is not the rowid", 0,
     "SELECT bloom_add_in_place('disk.keyed', 'f', 1, 'new key')", "1:1\n",
     "SELECT hex(f) FROM disk.keyed", 1},
    {"in place: probe, a column rowid that is not the rowid", 0,
     "SELECT bloom_might_contain_in_place('disk.keyed', 'f', 1, 'key 1')", "1:1\n", NULL, 0},
    {"in place: refused, a CHECK constraint", 0,
     "SELECT bloom_add_in_place('disk.checked', 'f', 1, 'new key')",
     "error 1: bloom_add_in_place: cannot write disk.checked.f in place: an UPDATE of it checks "
     "the CHECK constraint length(f) > 0",
     "SELECT hex(f) FROM disk.checked", 0},
    {"in place: refused, a trigger", 0,
     "SELECT cms_add_in_place('disk.triggered', 'f', 1, 'new key')",
     "error 1: cms_add_in_place: cannot write disk.triggered.f in place: an UPDATE of it fires a "
     "trigger",
     "SELECT hex(f) FROM disk.triggered", 0},
    {"in place: refused, generated columns", 0,
     "SELECT bloom_might_contain_in_place('generated', 'f', 1, 'k')",
     "error 1: bloom_might_contain_in_place: cannot read main.generated.f in place: its table has "
     "generated columns",
     NULL, 0},
    {"in place: no such column", 0, "SELECT bloom_add_in_place('disk.cells', 'nosuch', 1, 'k')",
     "error 1: bloom_add_in_place: cannot update disk.cells.nosuch: no such column: nosuch", NULL,
     0},
    {"in place: a view", 0, "SELECT bloom_might_contain_in_place('filters_view', 'f', 1, 'k')",
     "error 1: bloom_might_contain_in_place: cannot read main.filters_view.f: main.filters_view "
     "is a view",
     NULL, 0},
};

/* The fixtures: keys of every type, keys given twice, and filters built from them. */
static const char fixture_sql[] =
    "CREATE TABLE keys(g INTEGER, k);"
    "INSERT INTO keys WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 400)"
    "  SELECT i % 4, CASE i % 4 WHEN 0 THEN i * 7919 WHEN 1 THEN 'key ' || i"
    "  WHEN 2 THEN CAST('blob ' || i AS BLOB) ELSE i + 0.5 END FROM s;"
    "CREATE TABLE dups(k);"
    "INSERT INTO dups WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < "
    "3999)"
    "  SELECT CASE WHEN i % 2000 < 1000 THEN i % 2000 ELSE 'key ' || (i % 2000) END FROM s;"
    "CREATE TABLE filters(name TEXT PRIMARY KEY, f BLOB);"
    "INSERT INTO filters SELECT 'a', bloom_build(k, 1000, 0.01) FROM keys;"
    "INSERT INTO filters SELECT 'blocked', bloom_build(k, 1000, 0.01, 'blocked') FROM keys;"
    "INSERT INTO filters SELECT 'small', bloom_build(k, 10, 0.01) FROM keys;"
    "INSERT INTO filters SELECT 'counting', bloom_build(k, 1000, 0.01, 'counting') FROM keys;"
    "INSERT INTO filters SELECT 'cuckoo', bloom_build(k, 1000, 0.01, 'cuckoo') FROM keys;"
    "CREATE TABLE parts(g INTEGER, f BLOB);"
    "INSERT INTO parts SELECT g, bloom_build(k, 1000, 0.01) FROM keys GROUP BY g;"
    "INSERT INTO parts VALUES (NULL, NULL);"
    "CREATE TABLE grown(name TEXT PRIMARY KEY, f BLOB);"
    "INSERT INTO grown SELECT 'scalable full', bloom_build(k, 10, 0.01, 'scalable') FROM keys "
    "  WHERE rowid <= 10;"
    "INSERT INTO grown SELECT 'scalable 2 stages', bloom_build(k, 50, 0.01, 'scalable') FROM keys "
    "  WHERE rowid <= 100;"
    "INSERT INTO grown SELECT 'scalable 3 stages', bloom_build(k, 100, 0.01, 'scalable') FROM keys;"
    "CREATE TABLE scalable_parts(f BLOB);"
    "INSERT INTO scalable_parts SELECT bloom_build(k, 400, 0.01, 'scalable') FROM keys GROUP BY g;"
    "INSERT INTO scalable_parts VALUES (NULL);"
    "CREATE TABLE sketches(name TEXT PRIMARY KEY, f BLOB);"
    "INSERT INTO sketches SELECT 'plain', cms_build(k, 0.01, 0.01) FROM keys;"
    "INSERT INTO sketches SELECT 'conservative', cms_build(k, 2, 0.01, 0.01, 'conservative') "
    "  FROM keys;"
    "CREATE TABLE sketch_parts(f BLOB);"
    "INSERT INTO sketch_parts SELECT cms_build(k, 0.02, 0.05) FROM keys GROUP BY g;"
    "INSERT INTO sketch_parts VALUES (NULL);"
    "CREATE TABLE parquets(name TEXT PRIMARY KEY, f BLOB);"
    "INSERT INTO parquets SELECT 'int64', bloom_build(k, 1000, 0.01, 'parquet') FROM keys WHERE "
    "  g = 0;"
    "INSERT INTO parquets SELECT 'bytes', bloom_build(k, 1000, 0.01, 'parquet') FROM keys WHERE "
    "  g IN (1, 2);"
    "CREATE TABLE parquet_parts(f BLOB);"
    "INSERT INTO parquet_parts SELECT bloom_build(k, 1000, 0.01, 'parquet') FROM keys WHERE "
    "  g IN (1, 2) GROUP BY g;"
    "INSERT INTO parquet_parts VALUES (NULL), (bloom_empty(1000, 0.01, 'parquet'));"

    /* The cells of the writers in place, in a file: 1 a scalable filter that a new key grows, 2
    ** one with room, 3 one of 3 stages, 4 a sketch, 5 a Parquet filter with no type yet, 6 one
    ** of INT64 values; 7 a binary fuse filter (static), made by static_fixture_sql. */
    "ATTACH '' AS disk;"
    "CREATE TABLE disk.originals(id INTEGER PRIMARY KEY, f BLOB);"
    "INSERT INTO disk.originals SELECT 1, f FROM grown WHERE name = 'scalable full';"
    "INSERT INTO disk.originals SELECT 2, bloom_build(k, 100, 0.01, 'scalable') FROM keys "
    "  WHERE rowid <= 10;"
    "INSERT INTO disk.originals SELECT 3, f FROM grown WHERE name = 'scalable 3 stages';"
    "INSERT INTO disk.originals SELECT 4, f FROM sketches WHERE name = 'plain';"
    "INSERT INTO disk.originals SELECT 5, bloom_empty(1000, 0.01, 'parquet');"
    "INSERT INTO disk.originals SELECT 6, f FROM parquets WHERE name = 'int64';"
    "CREATE TABLE disk.cells(id INTEGER PRIMARY KEY, f BLOB);"
    "INSERT INTO disk.cells SELECT * FROM disk.originals;"
    /* Tables the guards of rule 19 (in place) look into. */
    "CREATE TABLE disk.keyed(rowid INTEGER PRIMARY KEY DESC, f BLOB);"
    "INSERT INTO disk.keyed(_rowid_, rowid, f) SELECT 1, 2, f FROM disk.originals WHERE id = 1;"
    "CREATE TABLE disk.checked(id INTEGER PRIMARY KEY, f BLOB CHECK (length(f) > 0));"
    "INSERT INTO disk.checked SELECT 1, f FROM filters WHERE name = 'a';"
    "CREATE TABLE disk.triggered(id INTEGER PRIMARY KEY, f BLOB);"
    "INSERT INTO disk.triggered SELECT 1, f FROM sketches WHERE name = 'plain';"
    "CREATE TRIGGER disk.triggered_f AFTER UPDATE OF f ON triggered BEGIN SELECT 1; END;"
    "CREATE TABLE generated(id INTEGER PRIMARY KEY, g AS (1), f BLOB);"
    "INSERT INTO generated(id, f) SELECT 1, f FROM filters WHERE name = 'a';"
    "CREATE VIEW filters_view AS SELECT * FROM filters;"
    "CREATE VIRTUAL TABLE disk.live USING bloom(kind = 'blocked', n = 1000, p = 0.01);"
    "CREATE VIRTUAL TABLE disk.indexed USING bloom(kind = 'standard', n = 8, p = 0.1);";

/* The fixtures of the static kind (run after fixture_sql): its filters, and cell 7 of the
** writers in place. */
static const char static_fixture_sql[] =
    "CREATE TABLE statics(name TEXT PRIMARY KEY, f BLOB);"
    "INSERT INTO statics SELECT 'fuse', bloom_build(k, 1000, 0.01, 'fuse') FROM keys;"
    "INSERT INTO statics SELECT 'fuse of no keys', bloom_build(NULL, 10, 0.01, 'fuse');"
    "INSERT INTO disk.originals SELECT 7, f FROM statics WHERE name = 'fuse';"
    "INSERT INTO disk.cells SELECT * FROM disk.originals WHERE id = 7;";

/* A connection to an in-memory database with the extension loaded and lookaside off;
** exits on failure. */
static sqlite3 *open_connection(const char *extension, int utf16) {
    sqlite3 *db = NULL;
    char *err = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_LOOKASIDE, NULL, 0, 0) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(db, extension, NULL, &err) != SQLITE_OK ||
        sqlite3_exec(db, utf16 ? "PRAGMA encoding = 'UTF-16le'" : "SELECT 1", NULL, NULL, NULL) !=
            SQLITE_OK) {
        fprintf(stderr, "test_oom: cannot open a database with %s: %s\n", extension,
                err ? err : sqlite3_errmsg(db));
        exit(2);
    }
    return db;
}

/* Creates the fixtures in db; exits on failure. */
static void create_fixtures(sqlite3 *db) {
    char *err = NULL;
    if (sqlite3_exec(db, fixture_sql, NULL, NULL, &err) != SQLITE_OK ||
        sqlite3_exec(db, static_fixture_sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "test_oom: cannot create the fixtures: %s\n", err ? err : "?");
        exit(2);
    }
}

/* Reads the filter named name from db into a C heap buffer; exits on failure. */
static blob read_filter(sqlite3 *db, const char *name) {
    sqlite3_stmt *stmt = NULL;
    blob filter = {NULL, 0};
    if (sqlite3_prepare_v2(db, "SELECT f FROM filters WHERE name = ?1", -1, &stmt, NULL) !=
            SQLITE_OK ||
        sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_step(stmt) != SQLITE_ROW) {
        fprintf(stderr, "test_oom: cannot read filter %s: %s\n", name, sqlite3_errmsg(db));
        exit(2);
    }
    filter.length = sqlite3_column_bytes(stmt, 0);
    filter.bytes = malloc((size_t)filter.length);
    if (filter.bytes == NULL) {
        fprintf(stderr, "test_oom: out of memory in the test itself\n");
        exit(2);
    }
    memcpy(filter.bytes, sqlite3_column_blob(stmt, 0), (size_t)filter.length);
    if (sqlite3_finalize(stmt) != SQLITE_OK) {
        fprintf(stderr, "test_oom: cannot read filter %s\n", name);
        exit(2);
    }
    return filter;
}

/* A query that uses the extension and the tables, and its answer on an unharmed connection. */
static const char health_sql[] =
    "SELECT count(*), (SELECT bloom_might_contain(bloom_build(1, 10, 0.1), 1)), "
    "(SELECT count(*) FROM filters) FROM keys";
static const char health_answer[] = "1:400|1:1|1:5\n";

/* Whether sql, without parameters, gives exactly answer on db; prints what it gave if not. */
static int answers(sqlite3 *db, const char *sql, const char *answer) {
    static const blob none[2] = {{NULL, 0}, {NULL, 0}};
    text rows = {NULL, 0, 0};
    text_append(&rows, "", 0);
    int right =
        run_statement(db, sql, none, &rows) == SQLITE_DONE && strcmp(rows.data, answer) == 0;
    if (!right) {
        fprintf(stderr, "    %.60s... answers: %s\n", sql, rows.data);
    }
    free(rows.data);
    return right;
}

/* Whether db still answers the health query correctly. */
static int connection_is_healthy(sqlite3 *db) {
    return answers(db, health_sql, health_answer);
}

/* Makes the connection's error value as large as any message will need: "no such function:
** xxx...", longer than any message of the operations. */
static void grow_error_value(sqlite3 *db) {
    static const blob none[2] = {{NULL, 0}, {NULL, 0}};
    char sql[600] = "SELECT ";
    text rows = {NULL, 0, 0};
    text_append(&rows, "", 0);
    memset(sql + 7, 'x', 500);
    memcpy(sql + 507, "()", 3);
    CHECK(run_statement(db, sql, none, &rows) == SQLITE_ERROR);
    free(rows.data);
}

/*
** Brings db to the state every failing run starts from, so that the memory a run leaves
** behind is the run's own: the connection's error value is made as large as any message
** will need (SQLite keeps its buffer), and the health query has run once.
*/
static void settle_connection(sqlite3 *db) {
    grow_error_value(db);
    CHECK(connection_is_healthy(db));
}

/* What one pass over an operation came to. */
typedef struct tally {
    long long points;       /* runs with a failed allocation, each ending cleanly */
    long long in_extension; /* of those, runs where the extension's code was on the stack of one */
    long long absorbed;     /* of those, runs that gave the correct result all the same */
} tally;

/* Adds the counts of b to a. */
static void tally_add(tally *a, tally b) {
    a->points += b.points;
    a->in_extension += b.in_extension;
    a->absorbed += b.absorbed;
}

/* Prints one line of the table: both passes of an operation. */
static void print_tallies(const char *name, tally once, tally persistent, const char *result) {
    int shown = (int)strcspn(result, "\n");
    printf("%-36s %6lld %6lld %6lld   %6lld %6lld   %.*s\n", name, once.points, once.in_extension,
           once.absorbed, persistent.points, persistent.in_extension, shown < 40 ? shown : 40,
           result);
}

/*
** Runs op on db with the Nth allocation failing (then every later one if persistent),
** N = 1, 2, ..., until a run makes no failing allocation; checks each run against
** reference, the result of an unfailed run.
*/
static tally fail_each_allocation(sqlite3 *db, const operation *op, const blob *parameters,
                                  const text *reference, const text *reference_cells,
                                  int persistent) {
    text rows = {NULL, 0, 0}, cells_before = {NULL, 0, 0}, cells_after = {NULL, 0, 0};
    tally counts = {0, 0, 0};
    text_append(&rows, "", 0);
    text_append(&cells_before, "", 0);
    text_append(&cells_after, "", 0);
    for (long long fail_at = 1; fail_at <= MAX_FAILURE_POINTS; fail_at++) {
        text_clear(&rows);
        if (op->cells != NULL) {
            restore_cells(db, op, &cells_before);
        }
        sqlite3_int64 memory_before = sqlite3_memory_used();
        arm(fail_at, persistent);
        int rc = run_statement(db, op->sql, parameters, &rows);
        long long failures = disarm();
        /* A statement that a function prepares (the in-place functions ask the authorizer so)
        ** and that fails for want of memory frees the connection's error value: grown again,
        ** it takes its usual memory, so that what is left is the run's own. */
        grow_error_value(db);
        sqlite3_int64 memory_after = operation_keeps_caches(op) ? 0 : sqlite3_memory_used();
        int nomem = (rc & 0xFF) == SQLITE_NOMEM;
        /* Before a NOMEM, only rows of the correct result; otherwise the correct result. */
        const char *error_at = nomem ? strstr(rows.data, "error ") : NULL;
        size_t rows_before_error = error_at ? (size_t)(error_at - rows.data) : rows.len;
        int correct =
            nomem ? failures > 0 && strncmp(rows.data, reference->data, rows_before_error) == 0
                  : strcmp(rows.data, reference->data) == 0;
        if (op->cells != NULL) {
            /* After SQLITE_NOMEM the cells as they were; otherwise as an unfailed run left them. */
            text_clear(&cells_after);
            run_statement(db, op->cells, NULL, &cells_after);
            if (strcmp(cells_after.data, nomem ? cells_before.data : reference_cells->data) != 0) {
                fprintf(stderr, "    %s: the cells %s\n", op->name,
                        nomem ? "changed after SQLITE_NOMEM" : "differ from an unfailed run's");
                correct = 0;
            }
        }
        if (operation_writes_file(op)) {
            /* After SQLITE_NOMEM no file; otherwise the file an unfailed run leaves, or none. */
            if (written_file_is_there() != (!nomem && reference_cells->len > 0)) {
                fprintf(stderr, "    %s: the file written is %s\n", op->name,
                        written_file_is_there() ? "left" : "missing");
                correct = 0;
            }
            remove(write_destination);
        }
        if (operation_keeps_caches(op)) {
            text_clear(&cells_after);
            restore_cells(db, op, &cells_after);
            grow_error_value(db);
            memory_after = sqlite3_memory_used();
        }
        int healthy = connection_is_healthy(db);
        if (!check_record(correct && memory_after == memory_before && healthy, __FILE__, __LINE__,
                          "a failed allocation ended cleanly")) {
            fprintf(stderr,
                    "    %s, allocation %lld failing%s: result code %d, %s, memory %lld -> %lld, "
                    "connection %s\n    got:      %.300s\n    expected: %.300s\n",
                    op->name, fail_at, persistent ? " and every later one" : "", rc,
                    correct ? "correct" : "WRONG", (long long)memory_before,
                    (long long)memory_after, healthy ? "healthy" : "BROKEN", rows.data,
                    reference->data);
            break;
        }
        if (failures == 0) {
            break; /* the run made fewer than fail_at allocations: nothing left to fail */
        }
        counts.points++;
        counts.in_extension += plan.failed_in_extension;
        counts.absorbed += !nomem;
    }
    free(rows.data);
    free(cells_before.data);
    free(cells_after.data);
    return counts;
}

/* Both passes over one operation; prints them and adds them to *total. */
static void exercise_operation(sqlite3 *db, const operation *op, const blob *parameters,
                               tally *total) {
    text reference = {NULL, 0, 0}, cells_before = {NULL, 0, 0}, reference_cells = {NULL, 0, 0};
    text_append(&reference, "", 0);
    text_append(&cells_before, "", 0);
    text_append(&reference_cells, "", 0);
    if (op->cells != NULL) {
        restore_cells(db, op, &cells_before);
    }
    remove(write_destination);
    run_statement(db, op->sql, parameters, &reference);
    if (operation_writes_file(op) && written_file_is_there()) {
        text_append(&reference_cells, "a file", 6); /* the unfailed run leaves one */
        remove(write_destination);
    }
    if (!CHECK(strncmp(reference.data, op->starts, strlen(op->starts)) == 0)) {
        fprintf(stderr, "    %s gives: %.200s\n", op->name, reference.data);
    }
    if (op->cells != NULL) {
        /* A writer's unfailed run changes a cell, a reader's none. */
        run_statement(db, op->cells, NULL, &reference_cells);
        CHECK((strcmp(reference_cells.data, cells_before.data) != 0) == op->changes);
    }
    settle_connection(db);
    tally once = fail_each_allocation(db, op, parameters, &reference, &reference_cells, 0);
    tally persistent = fail_each_allocation(db, op, parameters, &reference, &reference_cells, 1);
    print_tallies(op->name, once, persistent, reference.data);
    tally_add(total, once);
    tally_add(total, persistent);
    free(reference.data);
    free(cells_before.data);
    free(reference_cells.data);
}

/* Every function of the extension, as a freshly loaded connection must answer it. */
static const char loaded_sql[] =
    "SELECT bloom_version() IS NOT NULL, bloom_might_contain(bloom_add(bloom_union(f, f), 3), 3), "
    "json_extract(bloom_info(f), '$.keys_added'), length(f), "
    "(SELECT length(bloom_union(f)) FROM (SELECT bloom_build(1, 10, 0.1, 'blocked') AS f)) "
    "FROM (SELECT bloom_build(x, 10, 0.1) AS f FROM (SELECT 1 AS x UNION ALL SELECT 2))";
static const char loaded_answer[] = "1:1|1:1|1:2|1:72|1:128\n";

/* Whether every function of the extension is there and right in db. */
static int connection_is_healthy_when_loaded(sqlite3 *db) {
    return answers(db, loaded_sql, loaded_answer);
}

/*
** Loads the extension into a fresh connection with the Nth allocation failing (then every
** later one if persistent), N = 1, 2, ...: SQLITE_OK and every function right, or an error;
** closing the connection returns all its memory.
*/
static tally fail_each_allocation_while_loading(const char *extension, int persistent) {
    tally counts = {0, 0, 0};
    for (long long fail_at = 1; fail_at <= MAX_FAILURE_POINTS; fail_at++) {
        sqlite3 *db = NULL;
        char *err = NULL;
        sqlite3_int64 memory_before = sqlite3_memory_used();
        if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
            sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK) {
            fprintf(stderr, "test_oom: cannot open a database\n");
            exit(2);
        }
        arm(fail_at, persistent);
        int rc = sqlite3_load_extension(db, extension, NULL, &err);
        long long failures = disarm();
        long long failed_in_extension = plan.failed_in_extension;
        sqlite3_free(err);
        int clean = rc == SQLITE_OK ? connection_is_healthy_when_loaded(db)
                                    : failures > 0 && (rc == SQLITE_ERROR || rc == SQLITE_NOMEM);
        int closed = sqlite3_close(db) == SQLITE_OK;
        if (!check_record(clean && closed && sqlite3_memory_used() == memory_before, __FILE__,
                          __LINE__, "a failed allocation while loading ended cleanly")) {
            fprintf(stderr, "    allocation %lld failing%s: result code %d, memory %lld -> %lld\n",
                    fail_at, persistent ? " and every later one" : "", rc, (long long)memory_before,
                    (long long)sqlite3_memory_used());
            break;
        }
        if (failures == 0) {
            break;
        }
        counts.points++;
        counts.in_extension += failed_in_extension;
        counts.absorbed += rc == SQLITE_OK;
    }
    return counts;
}

int main(int argc, char **argv) {
    if (argc != 4 || chdir(argv[2]) != 0 ||
        snprintf(write_destination, sizeof write_destination, "%s/oom_write.parquet", argv[3]) >=
            (int)sizeof write_destination) {
        fprintf(stderr, "usage: %s EXTENSION PARQUET_DIR SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    install_failing_allocator();
    sqlite3 *databases[2];
    blob parameters[2][2];
    for (int utf16 = 0; utf16 < 2; utf16++) {
        databases[utf16] = open_connection(argv[1], utf16);
        create_fixtures(databases[utf16]);
        parameters[utf16][0] = read_filter(databases[utf16], "a");
        parameters[utf16][1] = read_filter(databases[utf16], "blocked");
    }
    locate_extension(argv[1]);

    tally total = {0, 0, 0};
    printf("failure points survived: failing the Nth allocation once (points, with the "
           "extension's code on the stack, correct result all the same), then persistently\n");
    printf("%-36s %6s %6s %6s   %6s %6s   %s\n", "operation", "once", "in ext", "same", "persis",
           "in ext", "unfailed result");
    for (size_t i = 0; i < sizeof operations / sizeof operations[0]; i++) {
        const operation *op = &operations[i];
        exercise_operation(databases[op->utf16], op, parameters[op->utf16], &total);
    }
    tally loading_once = fail_each_allocation_while_loading(argv[1], 0);
    tally loading_persistent = fail_each_allocation_while_loading(argv[1], 1);
    print_tallies("loading the extension", loading_once, loading_persistent, "");
    tally_add(&total, loading_once);
    tally_add(&total, loading_persistent);
    printf("total, both passes: %lld failure points, %lld with the extension's code on the "
           "stack, %lld with the correct result all the same\n",
           total.points, total.in_extension, total.absorbed);

    for (int utf16 = 0; utf16 < 2; utf16++) {
        CHECK(sqlite3_close(databases[utf16]) == SQLITE_OK);
        free(parameters[utf16][0].bytes);
        free(parameters[utf16][1].bytes);
    }
    CHECK_U64(sqlite3_memory_used(), 0);
    return check_report("test_oom");
}
