/*
** test_parquet_files.c: bloom_parquet_filters on hostile files (rule 29 (Parquet files)),
** made here from tests/parquet/types.parquet: every truncation of the file and of its footer, a
** footer length past the file, the magic bytes changed, Bloom filter offsets and lengths outside
** the file's data or disagreeing with the header, headers of another algorithm, hash or
** compression, a file shortened while a statement reads it, files made here (a header longer
** than the reader reads, an encrypted column, BOOLEAN and undefined physical types), and every
** byte of the footer changed in turn. Every error, and every problem of a row, verbatim.
**
** First, each filter of the fixture given back by bloom_to_parquet is the file's bytes.
**
** Then bloom_parquet_write (rule 31 (Parquet writes)): the bytes of a copy (the source's data,
** the filters, the footer with only their offsets and lengths changed, its length, PAR1); the
** same hostile sources refused (each truncation of the footer, PARE, an encrypted column, a
** chunk whose data is in another file, an encrypted file's plaintext footer); a destination
** that is a link or a directory; writes that fail (a file size limit); every byte of the footer
** changed: an error, or a copy that bloom_parquet_filters reads with the filter given. After an
** error no destination is left.
**
** Usage: test_parquet_files EXTENSION FIXTURES_DIR SCRATCH_DIR
** (FIXTURES_DIR is tests/parquet; the files are written to SCRATCH_DIR, the working directory
** from then on, so that messages name them as written.)
*/
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* chdir, mkdir, truncate, symlink, setrlimit */
#endif

#include <sqlite3.h>

#include "check.h"

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* The fixture, read whole. */
static uint8_t good[8192];
static size_t good_size;
static size_t footer_at, footer_size; /* where its footer is */

/* Writes bytes to the file name; aborts on failure. */
static void write_bytes(const char *name, const uint8_t *bytes, size_t size) {
    FILE *f = fopen(name, "wb");
    if (f == NULL || fwrite(bytes, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "test_parquet_files: cannot write %s\n", name);
        exit(2);
    }
}

/* Runs sql and returns its rows as text, "a|b" a row, rows joined by "\n", or "error: MESSAGE";
** into out (size bytes). */
static const char *run(sqlite3 *db, char *out, size_t size, const char *sql) {
    sqlite3_stmt *stmt = NULL;
    size_t used = 0;
    out[0] = '\0';
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(stmt); i++) {
            const char *text = (const char *)sqlite3_column_text(stmt, i);
            used += (size_t)snprintf(out + used, size - used, "%s%s", i > 0 ? "|" : "",
                                     text != NULL ? text : "NULL");
            used = used < size ? used : size - 1;
        }
        used += (size_t)snprintf(out + used, size - used, "\n");
        used = used < size ? used : size - 1;
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE) {
        snprintf(out, size, "error: %s", sqlite3_errmsg(db));
    } else if (used > 0) {
        out[used - 1] = '\0'; /* the last newline */
    }
    sqlite3_finalize(stmt);
    return out;
}

/* Checks that sql gives expected (run's text; expected a format). */
static void check_sql(sqlite3 *db, const char *sql, const char *expected, ...) {
    char got[4096], want[4096];
    va_list ap;
    va_start(ap, expected);
    vsnprintf(want, sizeof want, expected, ap);
    va_end(ap);
    if (!CHECK(strcmp(run(db, got, sizeof got, sql), want) == 0)) {
        fprintf(stderr, "    %s\n    got      %s\n    expected %s\n", sql, got, want);
    }
}

/* Writes a copy of the fixture with its 4-byte little-endian footer length set to length. */
static void write_footer_length(const char *name, uint32_t length) {
    static uint8_t copy[sizeof good];
    memcpy(copy, good, good_size);
    for (int i = 0; i < 4; i++) {
        copy[good_size - 8 + i] = (uint8_t)(length >> (8 * i));
    }
    write_bytes(name, copy, good_size);
}

/* Each filter of the fixture, given back by bloom_to_parquet, is the file's bytes at its offset:
** DuckDB's header, then the bitset. */
static void test_filters_are_the_files_bytes(sqlite3 *db) {
    write_bytes("good.parquet", good, good_size);
    sqlite3_stmt *stmt = NULL;
    int same = 0, rows = 0;
    CHECK(sqlite3_prepare_v2(db,
                             "SELECT bloom_filter_offset, bloom_filter_length, "
                             "bloom_to_parquet(filter) FROM bloom_parquet_filters('good.parquet')",
                             -1, &stmt, NULL) == SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        sqlite3_int64 offset = sqlite3_column_int64(stmt, 0),
                      length = sqlite3_column_int64(stmt, 1);
        const void *bytes = sqlite3_column_blob(stmt, 2);
        same += bytes != NULL && sqlite3_column_bytes(stmt, 2) == length &&
                (size_t)(offset + length) <= good_size &&
                memcmp(bytes, good + offset, (size_t)length) == 0;
        rows++;
    }
    CHECK(sqlite3_finalize(stmt) == SQLITE_OK);
    CHECK_U64(rows, 9);
    CHECK_U64(same, 9);
}

/* Every prefix of the file is refused, with the reason of the shortest and the longest. */
static void test_truncated_files(sqlite3 *db) {
    char got[4096];
    int refused = 0;
    for (size_t size = 0; size < good_size; size++) {
        write_bytes("cut.parquet", good, size);
        refused += strncmp(run(db, got, sizeof got,
                               "SELECT count(*) FROM "
                               "bloom_parquet_filters('cut.parquet')"),
                           "error: bloom_parquet_filters: 'cut.parquet': ", 44) == 0;
    }
    CHECK_U64(refused, good_size);
    write_bytes("cut.parquet", good, 11);
    check_sql(db, "SELECT * FROM bloom_parquet_filters('cut.parquet')",
              "error: bloom_parquet_filters: 'cut.parquet': not a Parquet file: 11 bytes, fewer "
              "than the 12 of PAR1, a footer length and PAR1");
    write_bytes("cut.parquet", good, good_size - 1);
    check_sql(db, "SELECT * FROM bloom_parquet_filters('cut.parquet')",
              "error: bloom_parquet_filters: 'cut.parquet': not a Parquet file: no PAR1 at its "
              "end");
}

/* Writes cut.parquet: good with its footer cut to size bytes, then a tail that gives that
** length. */
static void write_cut_footer(size_t size) {
    static uint8_t copy[sizeof good];
    memcpy(copy, good, footer_at + size);
    for (int i = 0; i < 4; i++) {
        copy[footer_at + size + i] = (uint8_t)(size >> (8 * i));
    }
    memcpy(copy + footer_at + size + 4, "PAR1", 4);
    write_bytes("cut.parquet", copy, footer_at + size + 8);
}

/* Every prefix of the footer, with a tail that gives its length, is refused. */
static void test_truncated_footers(sqlite3 *db) {
    char got[4096];
    int refused = 0;
    for (size_t size = 0; size < footer_size; size++) {
        write_cut_footer(size);
        run(db, got, sizeof got, "SELECT count(*) FROM bloom_parquet_filters('cut.parquet')");
        refused += strncmp(got, "error: bloom_parquet_filters: 'cut.parquet': malformed footer",
                           61) == 0 ||
                   strncmp(got, "error: bloom_parquet_filters: 'cut.parquet': footer truncated",
                           61) == 0 ||
                   strcmp(got, "error: bloom_parquet_filters: 'cut.parquet': footer length 0: a "
                               "Parquet footer is not empty") == 0;
    }
    CHECK_U64(refused, footer_size);
    check_sql(db, "SELECT * FROM bloom_parquet_filters('cut.parquet')",
              "error: bloom_parquet_filters: 'cut.parquet': footer truncated: a field header at "
              "byte %zu runs past its %zu bytes",
              footer_size - 1, footer_size - 1);
}

/* The footer length past the file, the magic bytes changed. */
static void test_file_frame(sqlite3 *db) {
    write_footer_length("long.parquet", (uint32_t)good_size - 11);
    check_sql(db, "SELECT * FROM bloom_parquet_filters('long.parquet')",
              "error: bloom_parquet_filters: 'long.parquet': footer length %zu past the file's "
              "%zu bytes (with PAR1 and its length, %zu at most)",
              good_size - 11, good_size, good_size - 12);
    write_footer_length("long.parquet", UINT32_MAX);
    check_sql(db, "SELECT * FROM bloom_parquet_filters('long.parquet')",
              "error: bloom_parquet_filters: 'long.parquet': footer length 4294967295 past the "
              "file's %zu bytes (with PAR1 and its length, %zu at most)",
              good_size, good_size - 12);
    static uint8_t copy[sizeof good];
    memcpy(copy, good, good_size);
    copy[0] = 'X';
    write_bytes("head.parquet", copy, good_size);
    check_sql(db, "SELECT * FROM bloom_parquet_filters('head.parquet')",
              "error: bloom_parquet_filters: 'head.parquet': not a Parquet file: no PAR1 at its "
              "start");
    memcpy(copy, good, good_size);
    copy[good_size - 1] = 'E';
    write_bytes("encrypted.parquet", copy, good_size);
    check_sql(db, "SELECT * FROM bloom_parquet_filters('encrypted.parquet')",
              "error: bloom_parquet_filters: 'encrypted.parquet': an encrypted Parquet file (PARE "
              "at its end): its footer is encrypted, which this reader does not decrypt");
}

/* Where the footer holds the i32 column's bloom_filter_offset (1534, the varint FC 17) and
** bloom_filter_length (47: a header 15 5E after it). */
static size_t i32_offset_field(void) {
    static const uint8_t pattern[] = {0xFC, 0x17, 0x15, 0x5E};
    for (size_t i = footer_at; i + sizeof pattern <= footer_at + footer_size; i++) {
        if (memcmp(good + i, pattern, sizeof pattern) == 0) {
            return i;
        }
    }
    fprintf(stderr, "test_parquet_files: no bloom_filter_offset 1534 in the footer\n");
    exit(2);
}

/* Writes the fixture with the i32 filter's offset varint (2 bytes) and length byte replaced,
** and with `header` (of header_size bytes) written at data offset at, when given. */
static void write_i32_filter(const char *name, uint8_t offset0, uint8_t offset1, uint8_t length,
                             size_t at, const uint8_t *header, size_t header_size) {
    static uint8_t copy[sizeof good];
    memcpy(copy, good, good_size);
    size_t field = i32_offset_field();
    copy[field] = offset0;
    copy[field + 1] = offset1;
    copy[field + 3] = length;
    if (header != NULL) {
        memcpy(copy + at, header, header_size);
    }
    write_bytes(name, copy, good_size);
}

/* Offsets and lengths outside the data or disagreeing with the header: the row's problem. */
static void test_filter_places(sqlite3 *db) {
    static const char query[] =
        "SELECT column_path, filter IS NULL, problem FROM bloom_parquet_filters('place.parquet') "
        "WHERE column_path = 'i32'";
    static const uint8_t header[] = {0x15, 0x40, 0x1C, 0x1C, 0x00, 0x00, 0x1C, 0x1C,
                                     0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x00};
    write_i32_filter("place.parquet", 0xFC, 0x17, 0x5E, 0, NULL, 0);
    check_sql(db, query, "i32|0|NULL");
    write_i32_filter("place.parquet", 0x90, 0x4E, 0x5E, 0, NULL, 0); /* 5000 */
    check_sql(db, query,
              "i32|1|bloom_filter_offset 5000 is outside the file's data, bytes 4 to %zu",
              footer_at - 1);
    write_i32_filter("place.parquet", 0x84, 0x00, 0x5E, 0, NULL, 0); /* 2, in a longer varint */
    check_sql(db, query, "i32|1|bloom_filter_offset 2 is outside the file's data, bytes 4 to %zu",
              footer_at - 1);
    unsigned near = (unsigned)footer_at - 10, zigzag = 2 * near;
    write_i32_filter("place.parquet", (uint8_t)(zigzag | 0x80), (uint8_t)(zigzag >> 7), 0x5E, near,
                     header, 10);
    check_sql(db, query, "i32|1|its header runs past the file's data, which ends at byte %zu",
              footer_at);
    near = (unsigned)footer_at - 20, zigzag = 2 * near;
    write_i32_filter("place.parquet", (uint8_t)(zigzag | 0x80), (uint8_t)(zigzag >> 7), 0x5E, near,
                     header, sizeof header);
    check_sql(db, query,
              "i32|1|its bitset of 32 bytes runs past the file's data, which ends at byte %zu",
              footer_at);
    write_i32_filter("place.parquet", 0xFC, 0x17, 0x50, 0, NULL, 0); /* length 40 */
    check_sql(db, query,
              "i32|1|its bloom_filter_length is 40 bytes, its header says 15 and a bitset of 32");
    write_i32_filter("place.parquet", 0xFC, 0x17, 0x14, 0, NULL, 0); /* length 10 */
    check_sql(db, query, "i32|1|its header runs past its bloom_filter_length, 10 bytes");
}

/* Headers of another algorithm, hash or compression, or numBytes not a multiple of 32: the
** row's problem, the other rows' filters read. */
static void test_filter_headers(sqlite3 *db) {
    static const struct {
        size_t at; /* from the header's start, at data offset 1534 */
        uint8_t value;
        const char *problem;
    } cases[] = {
        {3, 0x2C,
         "unsupported Bloom filter: its BloomFilterAlgorithm is member 2, not BLOCK (1), "
         "the only one this reader reads"},
        {7, 0x3C,
         "unsupported Bloom filter: its BloomFilterHash is member 3, not XXHASH (1), the "
         "only one this reader reads"},
        {11, 0x2C,
         "unsupported Bloom filter: its BloomFilterCompression is member 2, not "
         "UNCOMPRESSED (1), the only one this reader reads"},
        {1, 0x20,
         "malformed Bloom filter header at byte 0: numBytes 16 is not a positive multiple "
         "of 32"},
    };
    static uint8_t copy[sizeof good];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(copy, good, good_size);
        copy[1534 + cases[i].at] = cases[i].value;
        write_bytes("header.parquet", copy, good_size);
        check_sql(
            db,
            "SELECT column_path, filter, problem FROM bloom_parquet_filters('header.parquet') "
            "WHERE problem IS NOT NULL",
            "i32|NULL|%s", cases[i].problem);
        check_sql(db, "SELECT count(filter) FROM bloom_parquet_filters('header.parquet')", "8");
    }
}

/* A file shortened between two rows: the read that finds it shorter is an error. */
static void test_file_shortened(sqlite3 *db) {
    write_bytes("shrink.parquet", good, good_size);
    sqlite3_stmt *stmt = NULL;
    CHECK(sqlite3_prepare_v2(db, "SELECT filter FROM bloom_parquet_filters('shrink.parquet')", -1,
                             &stmt, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_bytes(stmt, 0) == 96);
    CHECK(truncate("shrink.parquet", 1600) == 0);
    CHECK(sqlite3_step(stmt) == SQLITE_ERROR);
    CHECK_STR(sqlite3_errmsg(db),
              "bloom_parquet_filters: cannot read 'shrink.parquet': it ends before byte 1628");
    sqlite3_finalize(stmt);
}

/* Bytes being written: a file made here. */
typedef struct bytes_out {
    uint8_t bytes[2048];
    size_t size;
} bytes_out;

/* Appends size bytes. */
static void put(bytes_out *o, const void *bytes, size_t size) {
    memcpy(o->bytes + o->size, bytes, size);
    o->size += size;
}

/* Appends a byte. */
static void put_byte(bytes_out *o, unsigned v) {
    uint8_t byte = (uint8_t)v;
    put(o, &byte, 1);
}

/* Appends v, a non-negative i32 or i64, zigzag-mapped as a varint (Thrift's compact protocol). */
static void put_zigzag(bytes_out *o, uint64_t v) {
    for (v <<= 1; v >= 0x80; v >>= 7) {
        put_byte(o, (unsigned)(v & 0x7F) | 0x80);
    }
    put_byte(o, (unsigned)v);
}

/* The Bloom filter a file made here holds at byte 4: a header of header_size bytes (with a
** 32-byte bitset of ones after it), a column `x` of physical type `type`, its chunk encrypted
** (crypto_metadata) or not, its bloom_filter_length given or not. */
typedef struct made_file {
    const uint8_t *header;
    size_t header_size;
    int type, encrypted, with_length;
    int elsewhere;     /* the chunk's data in another file: a file_path */
    int signed_footer; /* an encryption_algorithm in FileMetaData: an encrypted file's plaintext
                          footer */
} made_file;

/* Writes the file: PAR1, the filter, a footer of one leaf and one row group, its length, PAR1. */
static void write_made_file(const char *name, const made_file *m) {
    bytes_out o = {{0}, 0};
    uint8_t ones[32];
    memset(ones, 0xFF, sizeof ones);
    put(&o, "PAR1", 4);
    put(&o, m->header, m->header_size);
    put(&o, ones, sizeof ones);
    size_t footer = o.size;
    put(&o, "\x15\x02\x19\x2C\x55\x02\x00\x15", 8); /* version, schema: root, leaf type */
    put_zigzag(&o, (uint64_t)m->type);
    put(&o, "\x00\x16\x02\x19\x1C\x19\x1C", 7); /* rows, a group, a chunk: */
    if (m->elsewhere) {
        put(&o, "\x18\x0Epart-0.parquet\x16\x00\x1C\x15", 20); /* file_path, file_offset */
    } else {
        put(&o, "\x26\x00\x1C\x15", 4); /* file_offset, then meta_data */
    }
    put_zigzag(&o, (uint64_t)m->type);
    put(&o, "\x29\x18\x01x\x26\x02\x96", 7); /* path ["x"], num_values 1, offset: */
    put_zigzag(&o, 4);
    if (m->with_length) {
        put_byte(&o, 0x15);
        put_zigzag(&o, m->header_size + sizeof ones);
    }
    put_byte(&o, 0x00); /* the end of meta_data */
    if (m->encrypted) {
        put(&o, "\x5C\x1C\x00\x00", 4); /* crypto_metadata: ENCRYPTION_WITH_FOOTER_KEY */
    }
    put(&o, "\x00\x00", 2); /* the ends of the chunk, the group */
    if (m->signed_footer) {
        put(&o, "\x4C\x1C\x00\x00", 4); /* encryption_algorithm (8): AES_GCM_V1 */
    }
    put_byte(&o, 0x00); /* the end of FileMetaData */
    uint32_t length = (uint32_t)(o.size - footer);
    put(&o, (uint8_t[]){length & 0xFF, length >> 8 & 0xFF, 0, 0}, 4);
    put(&o, "PAR1", 4);
    write_bytes(name, o.bytes, o.size);
}

/* Files made here: a header longer than this reader reads, an encrypted column, physical types
** without a filter; the rowid. */
static void test_made_files(sqlite3 *db) {
    static const uint8_t duckdb[] = {0x15, 0x40, 0x1C, 0x1C, 0x00, 0x00, 0x1C, 0x1C,
                                     0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x00};
    static uint8_t long_header[400];
    memcpy(long_header, duckdb, sizeof duckdb - 1);
    long_header[14] = 0x18; /* field 5, a binary of 300 bytes the reader skips */
    long_header[15] = 0xAC;
    long_header[16] = 0x02;
    long_header[17 + 300] = 0x00;
    static const char query[] = "SELECT rowid, column_path, physical_type, length(filter), problem "
                                "FROM bloom_parquet_filters('made.parquet')";
    write_made_file("made.parquet", &(made_file){duckdb, sizeof duckdb, 2, 0, 1, 0, 0});
    check_sql(db, query, "0|x|INT64|96|NULL");
    write_made_file("made.parquet", &(made_file){long_header, 17 + 300 + 1, 2, 0, 0, 0, 0});
    check_sql(db, query,
              "0|x|INT64|NULL|its header is longer than the 256 bytes this reader reads");
    write_made_file("made.parquet", &(made_file){long_header, 17 + 300 + 1, 2, 0, 1, 0, 0});
    check_sql(db, query,
              "0|x|INT64|NULL|its header is longer than the 256 bytes this reader reads");
    write_made_file("made.parquet", &(made_file){duckdb, sizeof duckdb, 2, 1, 1, 0, 0});
    check_sql(db, query, "0|x|INT64|NULL|its column is encrypted, and so is its filter");
    write_made_file("made.parquet", &(made_file){duckdb, sizeof duckdb, 0, 0, 1, 0, 0});
    check_sql(db, query, "0|x|BOOLEAN|NULL|its column is BOOLEAN, which no 'parquet' filter is");
    write_made_file("made.parquet", &(made_file){duckdb, sizeof duckdb, 9, 0, 1, 0, 0});
    check_sql(db, query, "0|x|NULL|NULL|its physical type, 9, is none of Parquet's");
}

/* Every byte of the footer set to 0x00, then 0xFF, in turn: rows or an error, nothing else. */
static void test_footer_bytes_changed(sqlite3 *db) {
    static uint8_t copy[sizeof good];
    int answered = 0, runs = 0;
    for (size_t i = footer_at; i < footer_at + footer_size; i++) {
        for (int v = 0; v <= 0xFF; v += 0xFF) {
            memcpy(copy, good, good_size);
            copy[i] = (uint8_t)v;
            write_bytes("changed.parquet", copy, good_size);
            sqlite3_stmt *stmt = NULL;
            int rc =
                sqlite3_prepare_v2(db,
                                   "SELECT length(filter), problem, column_path, physical_type "
                                   "FROM bloom_parquet_filters('changed.parquet')",
                                   -1, &stmt, NULL);
            while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
                rc = SQLITE_OK;
            }
            answered += rc == SQLITE_DONE || rc == SQLITE_ERROR;
            runs++;
            sqlite3_finalize(stmt);
        }
    }
    CHECK_U64(answered, runs);
    CHECK_U64(runs, 2 * footer_size);
}

/* ---- bloom_parquet_write ----------------------------------------------------------------- */

/* Whether name is there, as a file, a directory or a link (even to nothing). */
static int is_there(const char *name) {
    struct stat st;
    return lstat(name, &st) == 0;
}

/* Reads the file name whole into out (size bytes at most): its length; aborts if it cannot. */
static size_t read_bytes(const char *name, uint8_t *out, size_t size) {
    FILE *f = fopen(name, "rb");
    size_t n = f != NULL ? fread(out, 1, size, f) : 0;
    if (f == NULL || !feof(f)) {
        fprintf(stderr, "test_parquet_files: cannot read %s\n", name);
        exit(2);
    }
    fclose(f);
    return n;
}

/* Writes v, not negative, as Thrift's zigzag varint into out: its length. */
static size_t zigzag_bytes(uint8_t *out, uint64_t v) {
    size_t n = 0;
    for (v <<= 1; v >= 0x80; v >>= 7) {
        out[n++] = (uint8_t)(v | 0x80);
    }
    out[n++] = (uint8_t)v;
    return n;
}

/* In footer[0, *size), replaces the bloom_filter_offset and bloom_filter_length fields of the
** chunk whose offset is old_offset (its varint, then 15 and the varint of length 47, as DuckDB
** writes them) by offset and length. */
static void replace_filter_fields(uint8_t *footer, size_t *size, uint64_t old_offset,
                                  uint64_t offset, uint64_t length) {
    uint8_t old[16], now[32];
    size_t n = zigzag_bytes(old, old_offset);
    old[n++] = 0x15;
    n += zigzag_bytes(old + n, 47);
    size_t m = zigzag_bytes(now, offset);
    now[m++] = 0x15;
    m += zigzag_bytes(now + m, length);
    for (size_t i = 0; i + n <= *size; i++) {
        if (memcmp(footer + i, old, n) == 0) {
            memmove(footer + i + m, footer + i + n, *size - i - n);
            memcpy(footer + i, now, m);
            *size = *size - n + m;
            return;
        }
    }
    fprintf(stderr, "test_parquet_files: no filter at %llu in the footer\n",
            (unsigned long long)old_offset);
    exit(2);
}

/* A copy with filters for i32 (every row group) and txt (row group 0), byte for byte: the
** source's data, the two filters' bloom_to_parquet bytes in the rows' order, the source's footer
** with only those two chunks' bloom_filter_offset and bloom_filter_length changed, its length,
** PAR1. */
static void test_write_bytes(sqlite3 *db) {
    static uint8_t copy[2 * sizeof good], expected[2 * sizeof good];
    write_bytes("good.parquet", good, good_size);
    remove("copy.parquet"); /* an earlier run's */
    check_sql(
        db,
        "CREATE TABLE given AS "
        "SELECT 'i32' AS column_path, NULL AS g, bloom_build(column1, 100, 0.001, 'parquet INT32') "
        "AS filter FROM (VALUES (0), (1), (2), (3), (4), (5), (6)) UNION ALL "
        "SELECT 'txt', 0, bloom_build(column1, 10, 0.01, 'parquet BYTE_ARRAY') "
        "FROM (VALUES ('v0'), ('v1'), ('v2'), ('v3'), ('v4'), ('v5'))",
        "");
    check_sql(db,
              "SELECT bloom_parquet_write('good.parquet', 'copy.parquet', column_path, g, filter) "
              "FROM given ORDER BY rowid",
              "2");
    sqlite3_stmt *stmt = NULL;
    CHECK(sqlite3_prepare_v2(db, "SELECT bloom_to_parquet(filter) FROM given ORDER BY rowid", -1,
                             &stmt, NULL) == SQLITE_OK);
    size_t size = footer_at, lengths[2] = {0, 0};
    memcpy(expected, good, footer_at);
    for (int i = 0; i < 2 && sqlite3_step(stmt) == SQLITE_ROW; i++) {
        lengths[i] = (size_t)sqlite3_column_bytes(stmt, 0);
        memcpy(expected + size, sqlite3_column_blob(stmt, 0), lengths[i]);
        size += lengths[i];
    }
    sqlite3_finalize(stmt);
    CHECK_U64(lengths[0], 16 + 256);
    CHECK_U64(lengths[1], 15 + 32);
    size_t footer = footer_size;
    memcpy(expected + size, good + footer_at, footer_size);
    replace_filter_fields(expected + size, &footer, 1534, footer_at, lengths[0]);
    replace_filter_fields(expected + size, &footer, 1722, footer_at + lengths[0], lengths[1]);
    size += footer;
    for (int i = 0; i < 4; i++) {
        expected[size++] = (uint8_t)(footer >> (8 * i));
    }
    memcpy(expected + size, "PAR1", 4);
    size += 4;
    size_t written = read_bytes("copy.parquet", copy, sizeof copy);
    CHECK_U64(written, size);
    CHECK(written == size && memcmp(copy, expected, size) == 0);
    check_sql(db,
              "SELECT group_concat(column_path || ' ' || bloom_filter_offset || ' ' || "
              "bloom_filter_length, ', ') FROM bloom_parquet_filters('copy.parquet')",
              "i32 %zu 272, i64 1581 47, f32 1628 47, f64 1675 47, txt %zu 47, u 1769 47, "
              "s.a 1816 47, s.b 1863 47, l.list.element 1910 47",
              footer_at, footer_at + 272);
}

/* Sources bloom_parquet_filters refuses, or reads with a problem, refused; destinations that
** are there in another form; no destination left by an error. */
static void test_write_refused(sqlite3 *db) {
    static const char write[] = "SELECT bloom_parquet_write('%s', 'never.parquet', '%s', NULL, "
                                "bloom_empty(10, 0.01, 'parquet INT64'))";
    char sql[512], got[4096];
    remove("never.parquet"); /* an earlier run's, if it failed */
    /* Each truncation of the footer, with a tail that gives its length. */
    int refused = 0, left = 0;
    snprintf(sql, sizeof sql, write, "cut.parquet", "i64");
    for (size_t size = 0; size < footer_size; size++) {
        write_cut_footer(size);
        run(db, got, sizeof got, sql);
        refused += strncmp(got, "error: bloom_parquet_write: source 'cut.parquet': ", 50) == 0;
        left += is_there("never.parquet");
    }
    CHECK_U64(refused, footer_size);
    CHECK_U64(left, 0);
    check_sql(db, sql,
              "error: bloom_parquet_write: source 'cut.parquet': footer truncated: a field header "
              "at byte %zu runs past its %zu bytes",
              footer_size - 1, footer_size - 1);
    /* An encrypted footer (PARE). */
    static uint8_t copy[sizeof good];
    memcpy(copy, good, good_size);
    copy[good_size - 1] = 'E';
    write_bytes("encrypted.parquet", copy, good_size);
    snprintf(sql, sizeof sql, write, "encrypted.parquet", "i64");
    check_sql(db, sql,
              "error: bloom_parquet_write: source 'encrypted.parquet': an encrypted Parquet file "
              "(PARE at its end): its footer is encrypted, which this reader does not decrypt");
    /* Files made here: an encrypted column, a chunk whose data is in another file (which
    ** bloom_parquet_filters reads, file_path and all), an encrypted file's plaintext footer. */
    static const uint8_t duckdb[] = {0x15, 0x40, 0x1C, 0x1C, 0x00, 0x00, 0x1C, 0x1C,
                                     0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x00};
    snprintf(sql, sizeof sql, write, "made.parquet", "x");
    write_made_file("made.parquet", &(made_file){duckdb, sizeof duckdb, 2, 1, 1, 0, 0});
    check_sql(db, sql,
              "error: bloom_parquet_write: row group 0 of column 'x' of source 'made.parquet' is "
              "encrypted, and its filter would have to be: bloom_parquet_write does not encrypt");
    write_made_file("made.parquet", &(made_file){duckdb, sizeof duckdb, 2, 0, 1, 1, 0});
    check_sql(db, "SELECT column_path, length(filter) FROM bloom_parquet_filters('made.parquet')",
              "x|96");
    check_sql(db, sql,
              "error: bloom_parquet_write: row group 0 of column 'x' of source 'made.parquet' "
              "keeps its data in another file (its file_path), whose filter would be there");
    write_made_file("made.parquet", &(made_file){duckdb, sizeof duckdb, 2, 0, 1, 0, 1});
    check_sql(db, "SELECT column_path, length(filter) FROM bloom_parquet_filters('made.parquet')",
              "x|96");
    check_sql(db, sql,
              "error: bloom_parquet_write: source 'made.parquet': the plaintext footer of an "
              "encrypted file (FileMetaData.encryption_algorithm, field 8): a footer written "
              "again would not match its signature");
    write_made_file("made.parquet", &(made_file){duckdb, sizeof duckdb, 2, 0, 1, 0, 0});
    check_sql(db, sql, "1");
    CHECK(remove("never.parquet") == 0);
    CHECK(!is_there("never.parquet"));
    /* A destination there as a link to nothing, or as a directory, is there. */
    CHECK(symlink("nothing.parquet", "link.parquet") == 0 || is_there("link.parquet"));
    check_sql(db,
              "SELECT bloom_parquet_write('made.parquet', 'link.parquet', 'x', NULL, "
              "bloom_empty(10, 0.01, 'parquet INT64'))",
              "error: bloom_parquet_write: destination 'link.parquet' exists: the function writes "
              "a new file, never over one");
    CHECK(!is_there("nothing.parquet"));
    mkdir("directory.parquet", 0777);
    check_sql(db,
              "SELECT bloom_parquet_write('made.parquet', 'directory.parquet', 'x', NULL, "
              "bloom_empty(10, 0.01, 'parquet INT64'))",
              "error: bloom_parquet_write: destination 'directory.parquet' exists: the function "
              "writes a new file, never over one");
}

/* Writes that fail, under a limit on the size of a file (SIGXFSZ ignored: the write fails with
** EFBIG instead): the filter's (4,112 bytes after the data's 1,957), and, with a filter that
** fits, the footer's. Each removes the destination. */
static void test_write_failing(sqlite3 *db) {
    struct rlimit before, small;
    if (getrlimit(RLIMIT_FSIZE, &before) != 0 || before.rlim_cur < 2500) {
        fprintf(stderr, "test_parquet_files: no room under the file size limit: not tested\n");
        return;
    }
    remove("big.parquet"); /* an earlier run's, if it failed */
    small = before;
    small.rlim_cur = 2500;
    signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    check_sql(db,
              "SELECT bloom_parquet_write('good.parquet', 'big.parquet', 'i64', NULL, "
              "bloom_empty(1000, 0.001, 'parquet INT64'))",
              "error: bloom_parquet_write: cannot write destination 'big.parquet': File too large");
    CHECK(!is_there("big.parquet"));
    check_sql(db,
              "SELECT bloom_parquet_write('good.parquet', 'big.parquet', 'i64', NULL, "
              "bloom_empty(10, 0.01, 'parquet INT64'))",
              "error: bloom_parquet_write: cannot write destination 'big.parquet': File too large");
    CHECK(!is_there("big.parquet"));
    CHECK(setrlimit(RLIMIT_FSIZE, &before) == 0);
    signal(SIGXFSZ, SIG_DFL);
}

/* Every byte of the footer set to 0x00, then 0xFF, in turn, and a filter given to i64: an error
** and no copy, or a copy whose i64 chunks bloom_parquet_filters reads with the filter given, at
** the end of the source's data. */
static void test_write_footer_bytes_changed(sqlite3 *db) {
    static uint8_t copy[sizeof good];
    char got[4096], want[64];
    int refused = 0, written = 0, read_back = 0, runs = 0;
    snprintf(want, sizeof want, "%zu|47", footer_at);
    remove("changed_copy.parquet"); /* an earlier run's, if it failed */
    for (size_t i = footer_at; i < footer_at + footer_size; i++) {
        for (int v = 0; v <= 0xFF; v += 0xFF) {
            memcpy(copy, good, good_size);
            copy[i] = (uint8_t)v;
            write_bytes("changed.parquet", copy, good_size);
            run(db, got, sizeof got,
                "SELECT bloom_parquet_write('changed.parquet', 'changed_copy.parquet', 'i64', "
                "NULL, bloom_empty(10, 0.01, 'parquet INT64'))");
            if (strncmp(got, "error: bloom_parquet_write: ", 28) == 0) {
                refused += !is_there("changed_copy.parquet");
            } else if (strcmp(got, "1") == 0) {
                written++;
                run(db, got, sizeof got,
                    "SELECT DISTINCT bloom_filter_offset || '|' || bloom_filter_length FROM "
                    "bloom_parquet_filters('changed_copy.parquet') WHERE column_path = 'i64'");
                read_back += strcmp(got, want) == 0;
                remove("changed_copy.parquet");
            }
            runs++;
        }
    }
    CHECK_U64(refused + written, runs);
    CHECK_U64(read_back, written);
    CHECK(written > 0 && refused > 0);
    printf("test_parquet_files: %d footers changed, %d written and read back, %d refused\n", runs,
           written, refused);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s EXTENSION FIXTURES_DIR SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/types.parquet", argv[2]);
    FILE *f = fopen(path, "rb");
    good_size = f != NULL ? fread(good, 1, sizeof good, f) : 0;
    if (f == NULL || !feof(f) || good_size < 12) {
        fprintf(stderr, "test_parquet_files: cannot read %s\n", path);
        return 2;
    }
    fclose(f);
    footer_size = (size_t)good[good_size - 8] | (size_t)good[good_size - 7] << 8 |
                  (size_t)good[good_size - 6] << 16 | (size_t)good[good_size - 5] << 24;
    footer_at = good_size - 8 - footer_size;
    mkdir(argv[3], 0777);
    sqlite3 *db = NULL;
    char *err = NULL;
    if (chdir(argv[3]) != 0 || sqlite3_open(":memory:", &db) != SQLITE_OK ||
        sqlite3_enable_load_extension(db, 1) != SQLITE_OK ||
        sqlite3_load_extension(db, argv[1], NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "test_parquet_files: cannot load %s in %s: %s\n", argv[1], argv[3],
                err ? err : sqlite3_errmsg(db));
        return 2;
    }
    test_filters_are_the_files_bytes(db);
    test_truncated_files(db);
    test_truncated_footers(db);
    test_file_frame(db);
    test_filter_places(db);
    test_filter_headers(db);
    test_file_shortened(db);
    test_made_files(db);
    test_footer_bytes_changed(db);
    test_write_bytes(db);
    test_write_refused(db);
    test_write_failing(db);
    test_write_footer_bytes_changed(db);
    sqlite3_close(db);
    return check_report("test_parquet_files");
}
