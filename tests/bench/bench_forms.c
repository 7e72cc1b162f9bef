/*
** bench_forms.c: table 4, ways of writing the probe (see bench.c).
*/
#include "bench.h"

/* Hex of a BLOB, for the literal form. */
static char *hex_literal(const void *blob, int bytes) {
    static const char digits[] = "0123456789ABCDEF";
    char *hex = sqlite3_malloc64((sqlite3_uint64)bytes * 2 + 4);
    const unsigned char *p = blob;
    if (hex == NULL) {
        return NULL;
    }
    hex[0] = 'x';
    hex[1] = '\'';
    for (int i = 0; i < bytes; i++) {
        hex[2 + 2 * i] = digits[p[i] >> 4];
        hex[3 + 2 * i] = digits[p[i] & 15];
    }
    hex[2 + 2 * bytes] = '\'';
    hex[3 + 2 * bytes] = '\0';
    return hex;
}

/* 4. Ways of writing the probe. */
void table_forms(bench *b) {
    const int rows = b->quick ? 10000 : 100000;
    int bytes;
    double build_seconds;
    void *filter = build_filter(b, 1000000, "standard", &bytes, &build_seconds);
    char *literal = hex_literal(filter, bytes);
    sqlite3_stmt *stmt = NULL;
    exec(b, "DROP TABLE IF EXISTS filters; CREATE TABLE filters(name TEXT, f BLOB);"
            "DROP VIEW IF EXISTS plain_view; CREATE VIEW plain_view AS SELECT rowid AS rid, "
            "bloom_might_contain((SELECT f FROM filters WHERE name = 'a'), x) AS maybe FROM keys;"
            "DROP VIEW IF EXISTS handle_view; CREATE VIEW handle_view AS SELECT rowid AS rid, "
            "bloom_might_contain((SELECT bloom_handle(f) FROM filters WHERE name = 'a'), x) AS "
            "maybe FROM keys;");
    if (sqlite3_prepare_v2(b->db, "INSERT INTO filters VALUES ('a', ?1)", -1, &stmt, NULL) !=
        SQLITE_OK) {
        die(b, "filters");
    }
    sqlite3_bind_blob(stmt, 1, filter, bytes, SQLITE_STATIC);
    sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    printf("\n### 4. Query forms\n\n");
    printf("SQLite %s. A filter of 1M keys (%d bytes) probed by %d rows; median of %d runs, "
           "in turns, prepare included.\n\n",
           sqlite3_libversion(), bytes, rows, b->runs);
    query queries[] = {
        {"bound parameter `bloom_might_contain(?1, x)`",
         format("SELECT sum(bloom_might_contain(?1, x)) FROM keys WHERE rowid <= %d", rows), filter,
         bytes},
        {"literal `bloom_might_contain(x'5351...', x)`",
         format("SELECT sum(bloom_might_contain(%s, x)) FROM keys WHERE rowid <= %d", literal,
                rows),
         NULL, 0},
        {"scalar subquery `bloom_might_contain((SELECT f FROM filters WHERE name = 'a'), x)`",
         format("SELECT sum(bloom_might_contain((SELECT f FROM filters WHERE name = 'a'), x)) FROM "
                "keys WHERE rowid <= %d",
                rows),
         NULL, 0},
        {"join, filters outer: `FROM filters CROSS JOIN keys WHERE filters.name = 'a'`",
         format("SELECT sum(bloom_might_contain(filters.f, x)) FROM filters CROSS JOIN keys WHERE "
                "filters.name = 'a' AND keys.rowid <= %d",
                rows),
         NULL, 0},
        {"join, automatic index: `FROM keys, filters WHERE filters.name = 'a' AND "
         "bloom_might_contain(filters.f, x)`",
         format("SELECT count(*) FROM keys, filters WHERE filters.name = 'a' AND "
                "bloom_might_contain(filters.f, x) AND keys.rowid <= %d",
                rows),
         NULL, 0},
        {"scalar subquery of a handle `bloom_might_contain((SELECT bloom_handle(f) FROM filters "
         "WHERE name = 'a'), x)`",
         format("SELECT sum(bloom_might_contain((SELECT bloom_handle(f) FROM filters WHERE name = "
                "'a'), x)) FROM keys WHERE rowid <= %d",
                rows),
         NULL, 0},
        {"view with a scalar subquery `CREATE VIEW v AS SELECT ..., "
         "bloom_might_contain((SELECT f FROM filters WHERE name = 'a'), x) AS maybe FROM keys`",
         format("SELECT sum(maybe) FROM plain_view WHERE rid <= %d", rows), NULL, 0},
        {"view with a handle `... bloom_might_contain((SELECT bloom_handle(f) FROM filters WHERE "
         "name = 'a'), x) AS maybe ...`",
         format("SELECT sum(maybe) FROM handle_view WHERE rid <= %d", rows), NULL, 0},
        {"CTE `WITH f AS (SELECT f FROM filters WHERE name = 'a') ... FROM keys, f`",
         format("WITH g AS (SELECT f FROM filters WHERE name = 'a') SELECT "
                "sum(bloom_might_contain(g.f, x)) FROM keys, g WHERE keys.rowid <= %d",
                rows),
         NULL, 0},
        {"CTE, materialized: `WITH f AS MATERIALIZED (...) ... FROM keys, f`",
         format("WITH g AS MATERIALIZED (SELECT f FROM filters WHERE name = 'a') SELECT "
                "sum(bloom_might_contain(g.f, x)) FROM keys, g WHERE keys.rowid <= %d",
                rows),
         NULL, 0},
    };
    const int count = sizeof queries / sizeof queries[0];
    double medians[sizeof queries / sizeof queries[0]];
    time_in_turns(b, queries, count, medians);
    printf("| form | ms | ns/row | ratio to the bound parameter |\n|---|---|---|---|\n");
    for (int i = 0; i < count; i++) {
        printf("| %s | %.1f | %.0f | %.1f |\n", queries[i].label, medians[i] * 1e3,
               medians[i] * 1e9 / rows, medians[i] / medians[0]);
        sqlite3_free(queries[i].sql);
    }
    sqlite3_free(literal);
    free(filter);
}
