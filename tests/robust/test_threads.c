/*
** test_threads.c: the extension used from several threads at once.
**
** Usage: test_threads EXTENSION
**
** Part 1: THREADS threads start together; each opens its own in-memory
** database, loads the extension, makes the same keys and, ROUNDS times,
** builds filters of every kind (tests/test_kinds.h: n given, and n NULL for
** a kind that can be sized at the end; a kind that grows from a twentieth of
** the keys, a scalable filter to 5 stages; count-min sketches of both
** updates), probes every key (each must answer 1), takes a union with the
** empty filter of its parameters (from bloom_info, or cms_info for a sketch),
** and probes a filter shared by all threads (one buffer, bound without a
** copy). A static kind (one that cannot add, built once from all its keys)
** has no union and no empty filter to add to: its filter of no keys, built
** from NULL keys with its parameters, answers 0 for every key, and bloom_add,
** bloom_union and bloom_empty refuse it, saying it is built once from all its
** keys. The filters of every thread must be byte for byte those the main
** thread builds alone.
**
** Part 2: one connection opened with SQLITE_OPEN_FULLMUTEX (serialized),
** shared by THREADS threads that build and probe on it at once, probing row
** by row so that their statements interleave. The same checks.
**
** Built with -fsanitize=thread, this is the ThreadSanitizer test.
*/
#include <sqlite3.h>

#include "check.h"
#include "test_kinds.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>

enum {
    THREADS = 4,                        /* threads in each part */
    ROUNDS = 3,                         /* builds and probes per thread */
    KEYS = 20000,                       /* distinct keys, of every type */
    BUILDS_MAX = 2 * FILTER_KIND_COUNT, /* filters built per round, at most: see list_builds */
    BUILD_SQL_MAX = 128                 /* bytes of the SQL of one */
};

/* The keys every database holds: KEYS distinct integers, reals, TEXT and BLOBs. */
static const char keys_sql[] =
    "CREATE TABLE keys(k);"
    "INSERT INTO keys WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < "
    "20000)"
    "  SELECT CASE i % 4 WHEN 0 THEN i * 2654435761 WHEN 1 THEN i + 0.25"
    "  WHEN 2 THEN 'key ' || i ELSE CAST('blob ' || i AS BLOB) END FROM s;";

/* A filter built each round: its SQL, the key expression it and its probes take the keys by
** (test_kind_key), the aggregate it is built by, and whether its kind is static (cannot add:
** built once from all its keys). */
typedef struct build {
    char sql[BUILD_SQL_MAX];
    char key[BUILD_SQL_MAX];
    test_builder builder;
    int is_static;
} build;

/* A BLOB in the C heap. */
typedef struct blob {
    unsigned char *bytes;
    int length;
} blob;

/* Everything the threads share: the extension, the filters to build and their references, the
** start gate. */
typedef struct shared {
    const char *extension;
    build builds[BUILDS_MAX];
    int build_count;
    blob reference[BUILDS_MAX]; /* built by the main thread alone */
    sqlite3 *serialized;        /* part 2: the one connection */
    pthread_mutex_t gate_lock;
    pthread_cond_t gate_opened;
    int waiting; /* threads at the gate; it opens when all THREADS are there */
} shared;

/* What one thread did: its filters and any failure, reported by the main thread. */
typedef struct worker {
    pthread_t thread;
    shared *common;
    int index;
    blob built[BUILDS_MAX]; /* of the last round */
    int wrong_probes;       /* keys that probed 0, over every round */
    int wrong_filters;      /* filters that differed from the reference */
    char error[256];        /* the first failure, or empty */
} worker;

/* Records the first failure of w: what failed and SQLite's message. Returns 0. */
static int fail(worker *w, sqlite3 *db, const char *what) {
    if (w->error[0] == '\0') {
        snprintf(w->error, sizeof w->error, "%s: %s", what, db ? sqlite3_errmsg(db) : "");
    }
    return 0;
}

/* Waits until all THREADS threads of a part have arrived, so that they start together.
** Returns 0 after fail(). */
static int wait_at_gate(worker *w) {
    shared *common = w->common;
    int rc = 0;
    if (pthread_mutex_lock(&common->gate_lock) != 0) {
        return fail(w, NULL, "the start gate");
    }
    if (++common->waiting == THREADS) {
        common->waiting = 0;
        rc = pthread_cond_broadcast(&common->gate_opened);
    }
    while (rc == 0 && common->waiting != 0) {
        rc = pthread_cond_wait(&common->gate_opened, &common->gate_lock);
    }
    if (pthread_mutex_unlock(&common->gate_lock) != 0 || rc != 0) {
        return fail(w, NULL, "the start gate");
    }
    return 1;
}

/* Runs sql, which returns one BLOB, and stores a copy in *out. Returns 0 after fail(). */
static int query_blob(worker *w, sqlite3 *db, const char *sql, const blob *parameter, blob *out) {
    sqlite3_stmt *stmt = NULL;
    int ok = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK &&
             (parameter == NULL || sqlite3_bind_blob(stmt, 1, parameter->bytes, parameter->length,
                                                     SQLITE_STATIC) == SQLITE_OK) &&
             sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_type(stmt, 0) == SQLITE_BLOB;
    if (ok) {
        free(out->bytes);
        out->length = sqlite3_column_bytes(stmt, 0);
        out->bytes = malloc((size_t)out->length);
        ok = out->bytes != NULL;
        if (ok) {
            memcpy(out->bytes, sqlite3_column_blob(stmt, 0), (size_t)out->length);
        }
    }
    if (!ok) {
        fail(w, db, sql);
    }
    sqlite3_finalize(stmt);
    return ok;
}

/* Probes filter with every key (as the key expression key takes them), one row at a time;
** returns how many answered 0, or -1 after fail(). */
static int count_absent_keys(worker *w, sqlite3 *db, const blob *filter, const char *key) {
    sqlite3_stmt *stmt = NULL;
    int absent = 0, rc;
    char sql[2 * BUILD_SQL_MAX];
    snprintf(sql, sizeof sql, "SELECT bloom_might_contain(?1, %s) FROM keys", key);
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK ||
        sqlite3_bind_blob(stmt, 1, filter->bytes, filter->length, SQLITE_STATIC) != SQLITE_OK) {
        sqlite3_finalize(stmt);
        fail(w, db, "prepare the probe");
        return -1;
    }
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        absent += sqlite3_column_int(stmt, 0) != 1;
    }
    if (rc != SQLITE_DONE) {
        fail(w, db, "probe");
        absent = -1;
    }
    sqlite3_finalize(stmt);
    return absent;
}

/* Whether a and b hold the same bytes. */
static int same_blob(const blob *a, const blob *b) {
    return a->length == b->length && memcmp(a->bytes, b->bytes, (size_t)a->length) == 0;
}

/* The union of a filter (?1) with the empty filter of the parameters bloom_info reads from it
** (of a sketch, cms_info and cms_union), by the aggregate that built it: the filter itself,
** byte for byte. */
static const char *const union_with_empty_sql[] = {
    [BUILT_BY_BLOOM_BUILD] =
        "SELECT bloom_union(?1, bloom_build(NULL, json_extract(i, '$.n'), json_extract(i, '$.p'), "
        "json_extract(i, '$.layout'))) FROM (SELECT bloom_info(?1) AS i)",
    [BUILT_BY_CMS_BUILD] =
        "SELECT cms_union(?1, cms_empty(json_extract(i, '$.epsilon'), json_extract(i, '$.delta'), "
        "json_extract(i, '$.update'))) FROM (SELECT cms_info(?1) AS i)",
};

/* Checks filter, built by builder, through bloom_info (cms_info) and bloom_union (cms_union).
** Returns 0 after fail(). */
static int check_info_and_union(worker *w, sqlite3 *db, const blob *filter, test_builder builder) {
    blob merged = {NULL, 0};
    if (!query_blob(w, db, union_with_empty_sql[builder], filter, &merged)) {
        return 0;
    }
    w->wrong_filters += !same_blob(&merged, filter);
    free(merged.bytes);
    return 1;
}

/* What a static kind's refusals say (rule 30 (static filters)). */
static const char built_once[] = "is built once from all its keys";

/* Runs sql, with ?1 bound to parameter, which must fail with a message holding expected.
** Returns 0 after recording the failure (as fail()). */
static int query_refused(worker *w, sqlite3 *db, const char *sql, const blob *parameter,
                         const char *expected) {
    sqlite3_stmt *stmt = NULL;
    /* The connection's mutex held from the step to the message, which on the serialized
    ** connection another thread's statement would replace otherwise. */
    sqlite3_mutex_enter(sqlite3_db_mutex(db));
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK && parameter != NULL) {
        rc = sqlite3_bind_blob(stmt, 1, parameter->bytes, parameter->length, SQLITE_STATIC);
    }
    while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        rc = SQLITE_OK;
    }
    int refused =
        rc != SQLITE_DONE && rc != SQLITE_OK && strstr(sqlite3_errmsg(db), expected) != NULL;
    sqlite3_finalize(stmt);
    sqlite3_mutex_leave(sqlite3_db_mutex(db));
    if (!refused && w->error[0] == '\0') {
        snprintf(w->error, sizeof w->error, "%.120s: not refused with \"%s\"", sql, expected);
    }
    return refused;
}

/* The filter of no keys with the parameters bloom_info reads from a static kind's filter (?1):
** built from NULL keys, for it has no empty filter. */
static const char built_from_no_keys_sql[] =
    "SELECT bloom_build(NULL, json_extract(i, '$.n'), json_extract(i, '$.p'), "
    "json_extract(i, '$.layout')) FROM (SELECT bloom_info(?1) AS i)";

/* Checks a static kind's filter: its filter of no keys answers 0 for every key (as the key
** expression key takes them); bloom_add, bloom_union with itself and bloom_empty refuse it.
** Returns 0 after fail(). */
static int check_static(worker *w, sqlite3 *db, const blob *filter, const char *key) {
    blob none = {NULL, 0};
    int ok = query_blob(w, db, built_from_no_keys_sql, filter, &none);
    int absent = ok ? count_absent_keys(w, db, &none, key) : -1;
    ok = absent >= 0;
    if (ok && absent != KEYS) {
        char what[128];
        snprintf(what, sizeof what, "a filter of no keys answered 1 for %d keys", KEYS - absent);
        ok = fail(w, NULL, what);
    }
    ok = ok && query_refused(w, db, "SELECT bloom_add(?1, 'a new key')", filter, built_once) &&
         query_refused(w, db, "SELECT bloom_union(?1, ?1)", filter, built_once) &&
         query_refused(w, db,
                       "SELECT bloom_empty(json_extract(i, '$.n'), json_extract(i, '$.p'), "
                       "json_extract(i, '$.layout')) FROM (SELECT bloom_info(?1) AS i)",
                       filter, built_once);
    free(none.bytes);
    return ok;
}

/* ROUNDS times: builds every kind of filter on db, checks it against the reference, probes
** every key in it. Returns 0 after fail(). */
static int build_and_probe(worker *w, sqlite3 *db) {
    const shared *common = w->common;
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < common->build_count; i++) {
            blob *filter = &w->built[i];
            if (!query_blob(w, db, common->builds[i].sql, NULL, filter)) {
                return 0;
            }
            w->wrong_filters += !same_blob(filter, &common->reference[i]);
            const build *b = &common->builds[i];
            int absent = count_absent_keys(w, db, filter, b->key);
            if (absent < 0 || !(b->is_static ? check_static(w, db, filter, b->key)
                                             : check_info_and_union(w, db, filter, b->builder))) {
                return 0;
            }
            w->wrong_probes += absent;
        }
        /* One buffer read by every thread at once. */
        int absent = count_absent_keys(w, db, &common->reference[0], common->builds[0].key);
        if (absent < 0) {
            return 0;
        }
        w->wrong_probes += absent;
    }
    return 1;
}

/* Opens an in-memory database with the given open flags, loads the extension and makes the
** keys. Returns NULL after fail(). */
static sqlite3 *open_database(worker *w, const char *extension, int flags) {
    sqlite3 *db = NULL;
    char *err = NULL;
    if (sqlite3_open_v2(":memory:", &db, flags | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                        NULL) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, NULL) != SQLITE_OK ||
        sqlite3_load_extension(db, extension, NULL, &err) != SQLITE_OK ||
        sqlite3_exec(db, keys_sql, NULL, NULL, NULL) != SQLITE_OK) {
        fail(w, db, err != NULL ? err : "open a database");
        sqlite3_free(err);
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

/* Part 1: a thread with its own connection, opened (and the extension loaded) at once with
** the other threads. */
static void *run_own_connection(void *arg) {
    worker *w = arg;
    sqlite3 *db = wait_at_gate(w) ? open_database(w, w->common->extension, 0) : NULL;
    if (db != NULL) {
        build_and_probe(w, db);
        if (sqlite3_close(db) != SQLITE_OK) {
            fail(w, NULL, "close");
        }
    }
    return NULL;
}

/* Part 2: a thread on the one serialized connection. */
static void *run_shared_connection(void *arg) {
    worker *w = arg;
    if (wait_at_gate(w)) {
        build_and_probe(w, w->common->serialized);
    }
    return NULL;
}

/* Runs THREADS workers of body and checks what each did. */
static void run_part(shared *common, const char *name, void *(*body)(void *)) {
    worker workers[THREADS];
    memset(workers, 0, sizeof workers);
    for (int i = 0; i < THREADS; i++) {
        workers[i].common = common;
        workers[i].index = i;
        CHECK(pthread_create(&workers[i].thread, NULL, body, &workers[i]) == 0);
    }
    for (int i = 0; i < THREADS; i++) {
        worker *w = &workers[i];
        CHECK(pthread_join(w->thread, NULL) == 0);
        if (!CHECK(w->error[0] == '\0')) {
            fprintf(stderr, "    %s, thread %d: %s\n", name, w->index, w->error);
        }
        CHECK_U64(w->wrong_probes, 0);
        CHECK_U64(w->wrong_filters, 0);
        for (int filter = 0; filter < common->build_count; filter++) {
            CHECK(same_blob(&w->built[filter], &common->reference[filter]));
            free(w->built[filter].bytes);
        }
    }
    printf("%s: %d threads x %d rounds x %d filters of %d keys built and probed\n", name, THREADS,
           ROUNDS, common->build_count, KEYS);
}

/* Adds to common's builds the filter that the SQL of format (printf's) builds with builder. */
static void add_build(shared *common, const filter_kind *kind, test_builder builder,
                      const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Adds the build of format, whose first %s is the key expression of kind. */
static void add_build(shared *common, const filter_kind *kind, test_builder builder,
                      const char *format, ...) {
    build *b = &common->builds[common->build_count++];
    test_kind_key(kind, "k", b->key, sizeof b->key);
    va_list ap;
    va_start(ap, format);
    vsnprintf(b->sql, sizeof b->sql, format, ap);
    va_end(ap);
    b->builder = builder;
    b->is_static = !filter_kind_can(kind, FILTER_ADDS);
}

/* Lists the filters built each round, every kind's in the order of their ids: n given, and n
** NULL for a kind that can be sized at the end, at p = 0.01; a sketch of each update. */
static void list_builds(shared *common) {
    const filter_kind *kind;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        const test_kind *t = test_kind_of(kind);
        char key[BUILD_SQL_MAX];
        test_kind_key(kind, "k", key, sizeof key);
        switch (t->builder) {
        case BUILT_BY_BLOOM_BUILD:
            add_build(common, kind, t->builder,
                      "SELECT bloom_build(%s, %llu, 0.01, '%s') FROM keys", key,
                      (unsigned long long)test_capacity(kind, KEYS), kind->name);
            if (t->sized_at_end) {
                add_build(common, kind, t->builder,
                          "SELECT bloom_build(%s, NULL, 0.01, '%s') FROM keys", key, kind->name);
            }
            break;
        case BUILT_BY_CMS_BUILD:
            add_build(common, kind, t->builder, "SELECT cms_build(%s, 0.001, 0.01) FROM keys", key);
            add_build(common, kind, t->builder,
                      "SELECT cms_build(%s, 1 + rowid %% 3, 0.001, 0.01, 'conservative') FROM keys",
                      key);
            break;
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s EXTENSION\n", argv[0]);
        return 2;
    }
    /* Without memory statistics, SQLite's allocations take no global mutex, which would order
    ** the threads for ThreadSanitizer at every allocation and hide races between them. */
    if (!CHECK(sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK) ||
        !CHECK(sqlite3_threadsafe() != 0)) {
        fprintf(stderr, "test_threads: SQLite was built without thread safety\n");
        return check_report("test_threads");
    }
    shared common;
    memset(&common, 0, sizeof common);
    common.extension = argv[1];
    CHECK(pthread_mutex_init(&common.gate_lock, NULL) == 0);
    CHECK(pthread_cond_init(&common.gate_opened, NULL) == 0);

    /* The reference filters, built by the main thread alone. */
    worker main_thread;
    memset(&main_thread, 0, sizeof main_thread);
    sqlite3 *db = open_database(&main_thread, argv[1], 0);
    list_builds(&common);
    for (int i = 0; db != NULL && i < common.build_count; i++) {
        query_blob(&main_thread, db, common.builds[i].sql, NULL, &common.reference[i]);
    }
    if (!CHECK(db != NULL && main_thread.error[0] == '\0')) {
        fprintf(stderr, "test_threads: %s\n", main_thread.error);
        return check_report("test_threads");
    }
    CHECK(sqlite3_close(db) == SQLITE_OK);

    run_part(&common, "own connections", run_own_connection);

    common.serialized = open_database(&main_thread, argv[1], SQLITE_OPEN_FULLMUTEX);
    if (CHECK(common.serialized != NULL)) {
        run_part(&common, "one serialized connection", run_shared_connection);
        CHECK(sqlite3_close(common.serialized) == SQLITE_OK);
    } else {
        fprintf(stderr, "test_threads: %s\n", main_thread.error);
    }

    for (int i = 0; i < common.build_count; i++) {
        free(common.reference[i].bytes);
    }
    CHECK(pthread_cond_destroy(&common.gate_opened) == 0);
    CHECK(pthread_mutex_destroy(&common.gate_lock) == 0);
    return check_report("test_threads");
}
