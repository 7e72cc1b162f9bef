/*
** test_spark_golden.c: the 'spark' kind against Spark itself. Reads
** tests/golden/spark/spark_golden.txt, written by Spark's own classes
** (SparkGolden.java, make_golden.sh; its format in that folder's README.md),
** and for each of its filters checks, through the extension:
**
**   - bloom_to_spark(bloom_build(key, n, p, 'spark' or 'spark v1')) over its
**     keys is the bytes Spark's writeTo wrote (filters made by create(n, p));
**   - bloom_to_spark of the empty filter of Spark's head (bloom_from_spark),
**     each key added by bloom_add, is those bytes too (every filter: seeds and
**     sizes in bits);
**   - bloom_to_spark(bloom_from_spark(bytes)) is the bytes;
**   - bloom_might_contain and bloom_might_contain_in_place of the filter read
**     from Spark's bytes answer every probe as Spark's mightContain did.
**
** Then prints the counts and the differences, which must be 0. No Java is needed here.
**
** Usage: test_spark_golden EXTENSION FIXTURE
*/
#include <sqlite3.h>

#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_MAX_BYTES = 1 << 20 };

/* A key, bound as a SQL value: L an INTEGER, S a TEXT, B a BLOB. */
typedef struct golden_key {
    char type;
    int64_t integer;
    uint8_t bytes[64];
    size_t length;
} golden_key;

/* What the checks of the fixture found. */
typedef struct golden_counts {
    int filters, built, keys, probes, differences;
} golden_counts;

/* One filter of the fixture, as read. */
typedef struct golden_filter {
    char name[64];
    int version;
    int64_t n, bits, seed;
    double p;
    golden_key *keys;
    size_t key_count, key_room;
    uint8_t *bytes;
    size_t byte_count;
} golden_filter;

static int hex_digit(int c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Parses the hex word s ("-" for no bytes) into out (cap bytes); its length. */
static size_t parse_hex(const char *s, uint8_t *out, size_t cap) {
    size_t n = 0;
    if (strcmp(s, "-") == 0) {
        return 0;
    }
    for (; hex_digit(s[0]) >= 0 && hex_digit(s[1]) >= 0 && n < cap; s += 2) {
        out[n++] = (uint8_t)(hex_digit(s[0]) << 4 | hex_digit(s[1]));
    }
    return n;
}

/* Binds key to parameter i. */
static void bind_key(sqlite3_stmt *stmt, int i, const golden_key *key) {
    if (key->type == 'L') {
        sqlite3_bind_int64(stmt, i, key->integer);
    } else if (key->type == 'S') {
        sqlite3_bind_text(stmt, i, (const char *)key->bytes, (int)key->length, SQLITE_TRANSIENT);
    } else if (key->length == 0) {
        sqlite3_bind_zeroblob(stmt, i, 0); /* x'', not NULL */
    } else {
        sqlite3_bind_blob(stmt, i, key->bytes, (int)key->length, SQLITE_TRANSIENT);
    }
}

/* Key i of a range: "L START COUNT STEP" (START + i STEP, wrapping as Java's long), "S PREFIX
** START COUNT" (PREFIX and the decimal START + i), "B SALT COUNT" (i % 10 bytes, byte j
** (31 i + 131 j + SALT) mod 256, as SparkGolden.rangeBytes). */
static void range_key(char type, const char *prefix, int64_t start, int64_t step, int64_t i,
                      golden_key *key) {
    key->type = type;
    if (type == 'L') {
        key->integer = (int64_t)((uint64_t)start + (uint64_t)i * (uint64_t)step);
    } else if (type == 'S') {
        int written = snprintf((char *)key->bytes, sizeof key->bytes, "%s%lld", prefix,
                               (long long)(start + i));
        key->length = written > 0 ? (size_t)written : 0;
    } else {
        key->length = (size_t)(i % 10);
        for (size_t j = 0; j < key->length; j++) {
            key->bytes[j] = (uint8_t)(i * 31 + (int64_t)j * 131 + start);
        }
    }
}

/* Reads a key "T VALUE" at *s into key, moving past it. */
static int read_key(char **s, golden_key *key) {
    char type = **s, *value = *s + 2, *end;
    key->type = type;
    key->length = 0;
    if (type == 'L') {
        key->integer = strtoll(value, &end, 10);
    } else {
        end = strchr(value, ' ');
        if (end == NULL) {
            end = value + strlen(value);
        }
        char saved = *end;
        *end = '\0';
        key->length = parse_hex(value, key->bytes, sizeof key->bytes);
        *end = saved;
    }
    *s = *end == ' ' ? end + 1 : end;
    return type == 'L' || type == 'S' || type == 'B';
}

static void add_key(golden_filter *f, const golden_key *key) {
    if (f->key_count == f->key_room) {
        f->key_room = f->key_room ? 2 * f->key_room : 256;
        f->keys = realloc(f->keys, f->key_room * sizeof *f->keys);
        if (f->keys == NULL) {
            abort();
        }
    }
    f->keys[f->key_count++] = *key;
}

/* The one value of a statement of one row and column, copied into out (cap bytes): its length,
** or -1 (its error printed). */
static long run_blob(sqlite3_stmt *stmt, uint8_t *out, size_t cap) {
    long length = -1;
    if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_type(stmt, 0) == SQLITE_BLOB &&
        (size_t)sqlite3_column_bytes(stmt, 0) <= cap) {
        length = sqlite3_column_bytes(stmt, 0);
        memcpy(out, sqlite3_column_blob(stmt, 0), (size_t)length);
    } else {
        fprintf(stderr, "    %s\n", sqlite3_errmsg(sqlite3_db_handle(stmt)));
    }
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    return length;
}

/* Whether got (length, -1 for none) is the filter's bytes; else one difference, printed. */
static void same_bytes(golden_counts *c, const golden_filter *f, const char *what,
                       const uint8_t *got, long length) {
    if (length != (long)f->byte_count || memcmp(got, f->bytes, f->byte_count) != 0) {
        c->differences++;
        fprintf(stderr, "    %s: %s: other bytes (%ld, Spark's %zu)\n", f->name, what, length,
                f->byte_count);
    }
}

/* The bytes of bloom_build over the filter's keys, and of its empty filter with them added. */
static void check_built(sqlite3 *db, golden_counts *c, const golden_filter *f, uint8_t *got) {
    sqlite3_stmt *insert = NULL, *build = NULL, *step = NULL;
    long length;
    CHECK(sqlite3_exec(db, "DELETE FROM keys", NULL, NULL, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(db, "INSERT INTO keys VALUES (?1)", -1, &insert, NULL) == SQLITE_OK);
    for (size_t i = 0; i < f->key_count; i++) {
        bind_key(insert, 1, &f->keys[i]);
        CHECK(sqlite3_step(insert) == SQLITE_DONE);
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    if (f->bits == 0 && f->seed == 0) { /* made by create(n, p): what bloom_build makes */
        CHECK(sqlite3_prepare_v2(db, "SELECT bloom_to_spark(bloom_build(k, ?1, ?2, ?3)) FROM keys",
                                 -1, &build, NULL) == SQLITE_OK);
        sqlite3_bind_int64(build, 1, f->n);
        sqlite3_bind_double(build, 2, f->p);
        sqlite3_bind_text(build, 3, f->version == 1 ? "spark v1" : "spark", -1, SQLITE_STATIC);
        length = run_blob(build, got, LINE_MAX_BYTES);
        same_bytes(c, f, "bloom_build", got, length);
        sqlite3_finalize(build);
        c->built++;
    }
    /* Spark's head with no bit set, then each key added. */
    size_t head = f->version == 1 ? 12 : 16;
    memcpy(got, f->bytes, head);
    memset(got + head, 0, f->byte_count - head);
    CHECK(sqlite3_prepare_v2(db, "SELECT bloom_from_spark(?1)", -1, &step, NULL) == SQLITE_OK);
    sqlite3_bind_blob(step, 1, got, (int)f->byte_count, SQLITE_TRANSIENT);
    length = run_blob(step, got, LINE_MAX_BYTES);
    sqlite3_finalize(step);
    CHECK(sqlite3_prepare_v2(db, "SELECT bloom_add(?1, ?2)", -1, &step, NULL) == SQLITE_OK);
    for (size_t i = 0; i < f->key_count && length > 0; i++) {
        sqlite3_bind_blob(step, 1, got, (int)length, SQLITE_TRANSIENT);
        bind_key(step, 2, &f->keys[i]);
        length = run_blob(step, got, LINE_MAX_BYTES);
    }
    sqlite3_finalize(step);
    CHECK(sqlite3_prepare_v2(db, "SELECT bloom_to_spark(?1)", -1, &step, NULL) == SQLITE_OK);
    sqlite3_bind_blob(step, 1, got, (int)(length > 0 ? length : 0), SQLITE_TRANSIENT);
    length = run_blob(step, got, LINE_MAX_BYTES);
    same_bytes(c, f, "bloom_add from Spark's empty head", got, length);
    sqlite3_finalize(step);
    c->keys += (int)f->key_count;
}

/* Reads Spark's bytes into table filters(f) (one row, rowid 1) and checks the round trip. */
static void check_read(sqlite3 *db, golden_counts *c, const golden_filter *f, uint8_t *got) {
    sqlite3_stmt *stmt = NULL;
    CHECK(sqlite3_exec(db, "DELETE FROM filters", NULL, NULL, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(db, "INSERT INTO filters(rowid, f) VALUES (1, bloom_from_spark(?1))",
                             -1, &stmt, NULL) == SQLITE_OK);
    sqlite3_bind_blob(stmt, 1, f->bytes, (int)f->byte_count, SQLITE_STATIC);
    if (!CHECK(sqlite3_step(stmt) == SQLITE_DONE)) {
        fprintf(stderr, "    %s: %s\n", f->name, sqlite3_errmsg(db));
    }
    sqlite3_finalize(stmt);
    CHECK(sqlite3_prepare_v2(db, "SELECT bloom_to_spark(f) FROM filters", -1, &stmt, NULL) ==
          SQLITE_OK);
    long length = run_blob(stmt, got, LINE_MAX_BYTES);
    same_bytes(c, f, "bloom_to_spark(bloom_from_spark(bytes))", got, length);
    sqlite3_finalize(stmt);
}

/* One probe: Spark's answer against bloom_might_contain and bloom_might_contain_in_place. */
static void check_probe(sqlite3 *db, golden_counts *c, const golden_filter *f,
                        const golden_key *key, int spark) {
    static const char *const sql[] = {"SELECT bloom_might_contain(f, ?1) FROM filters",
                                      "SELECT bloom_might_contain_in_place('filters', 'f', 1, ?1)"};
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *stmt = NULL;
        CHECK(sqlite3_prepare_v2(db, sql[i], -1, &stmt, NULL) == SQLITE_OK);
        bind_key(stmt, 1, key);
        int rc = sqlite3_step(stmt);
        int answer = rc == SQLITE_ROW ? sqlite3_column_int(stmt, 0) : -1;
        if (answer != spark) {
            c->differences++;
            fprintf(stderr, "    %s: %s of a key of type %c: %d, Spark's %d (%s)\n", f->name,
                    i == 0 ? "bloom_might_contain" : "in place", key->type, answer, spark,
                    rc == SQLITE_ROW ? "" : sqlite3_errmsg(db));
        }
        sqlite3_finalize(stmt);
    }
    c->probes++;
}

/* A "probes" line: a range and Spark's answers, one digit a key. */
static void check_probe_range(sqlite3 *db, golden_counts *c, const golden_filter *f, char *s) {
    char type = s[0], prefix[64] = "";
    int64_t start = 0, count = 0, step = 0;
    char answers[8192] = "";
    int fields = type == 'L'   ? sscanf(s + 2, "%lld %lld %lld %8191s", (long long *)&start,
                                        (long long *)&count, (long long *)&step, answers)
                 : type == 'S' ? sscanf(s + 2, "%63s %lld %lld %8191s", prefix, (long long *)&start,
                                        (long long *)&count, answers)
                               : sscanf(s + 2, "%lld %lld %8191s", (long long *)&start,
                                        (long long *)&count, answers);
    /* the answers' digits, none for an empty range */
    if (!CHECK(fields == (type == 'B' ? 3 : 4) - (count == 0) &&
               (size_t)count == strlen(answers))) {
        return;
    }
    for (int64_t i = 0; i < count; i++) {
        golden_key key;
        range_key(type, prefix, start, step, i, &key);
        check_probe(db, c, f, &key, answers[i] - '0');
    }
}

/* A "keys" line: a range of keys added. */
static void read_key_range(golden_filter *f, char *s) {
    char type = s[0], prefix[64] = "";
    int64_t start = 0, count = 0, step = 0;
    int ok =
        type == 'L' ? sscanf(s + 2, "%lld %lld %lld", (long long *)&start, (long long *)&count,
                             (long long *)&step) == 3
        : type == 'S'
            ? sscanf(s + 2, "%63s %lld %lld", prefix, (long long *)&start, (long long *)&count) == 3
            : sscanf(s + 2, "%lld %lld", (long long *)&start, (long long *)&count) == 2;
    CHECK(ok);
    for (int64_t i = 0; ok && i < count; i++) {
        golden_key key;
        range_key(type, prefix, start, step, i, &key);
        add_key(f, &key);
    }
}

int main(int argc, char **argv) {
    sqlite3 *db = NULL;
    char *err = NULL;
    golden_counts c = {0, 0, 0, 0, 0};
    golden_filter f;
    memset(&f, 0, sizeof f);
    if (argc != 3) {
        fprintf(stderr, "usage: %s EXTENSION FIXTURE\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[2], "r");
    char *line = malloc(LINE_MAX_BYTES);
    uint8_t *got = malloc(LINE_MAX_BYTES);
    f.bytes = malloc(LINE_MAX_BYTES);
    if (in == NULL || line == NULL || got == NULL || f.bytes == NULL ||
        sqlite3_open(":memory:", &db) != SQLITE_OK ||
        sqlite3_enable_load_extension(db, 1) != SQLITE_OK ||
        sqlite3_load_extension(db, argv[1], NULL, &err) != SQLITE_OK ||
        sqlite3_exec(db, "CREATE TABLE keys(k); CREATE TABLE filters(f BLOB)", NULL, NULL, NULL) !=
            SQLITE_OK) {
        fprintf(stderr, "test_spark_golden: cannot start: %s\n", err ? err : argv[2]);
        return 1;
    }
    while (fgets(line, LINE_MAX_BYTES, in) != NULL) {
        char *s = line, *newline = strchr(line, '\n');
        golden_key key;
        if (newline != NULL) {
            *newline = '\0';
        }
        if (strncmp(s, "filter ", 7) == 0) {
            long long n, bits, seed;
            int version;
            CHECK(sscanf(s + 7, "%63s %d %lld %lf %lld %lld", f.name, &version, &n, &f.p, &bits,
                         &seed) == 6);
            f.version = version;
            f.n = n;
            f.bits = bits;
            f.seed = seed;
            f.key_count = 0;
        } else if (strncmp(s, "key ", 4) == 0) {
            s += 4;
            CHECK(read_key(&s, &key));
            add_key(&f, &key);
        } else if (strncmp(s, "keys ", 5) == 0) {
            read_key_range(&f, s + 5);
        } else if (strncmp(s, "bytes ", 6) == 0) {
            f.byte_count = parse_hex(s + 6, f.bytes, LINE_MAX_BYTES);
            check_built(db, &c, &f, got);
            check_read(db, &c, &f, got);
        } else if (strncmp(s, "probe ", 6) == 0) {
            s += 6;
            CHECK(read_key(&s, &key) && (s[0] == '0' || s[0] == '1'));
            check_probe(db, &c, &f, &key, s[0] - '0');
        } else if (strncmp(s, "probes ", 7) == 0) {
            check_probe_range(db, &c, &f, s + 7);
        } else if (strcmp(s, "end") == 0) {
            c.filters++;
        }
    }
    fclose(in);
    printf("spark golden: %d filters from Spark's classes (%d also built by bloom_build), %d keys "
           "added, %d probes answered in memory and in place: %d differences\n",
           c.filters, c.built, c.keys, c.probes, c.differences);
    CHECK(c.filters == 17 && c.built == 12 && c.probes > 20000);
    CHECK_U64(c.differences, 0);
    sqlite3_close(db);
    free(line);
    free(got);
    free(f.bytes);
    free(f.keys);
    return check_report("test_spark_golden");
}
