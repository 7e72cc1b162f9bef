/*
** test_parquet_footer.c: a Parquet file's footer and Bloom filter headers (parquet_footer), on
** Thrift compact bytes built here field by field: where the footer is, the column chunks of a
** FileMetaData with fields of every Thrift type to skip, every truncation, bad lengths and
** sizes, deep nesting, missing and mistyped fields, the schema's leaves against the chunks;
** BloomFilterHeaders as DuckDB and @dsnp/parquetjs write them, and the forms refused.
*/
#include "unit.h"

#include "parquet_footer.h"

#include <stdlib.h>

/* ---- Thrift compact bytes, written here from the protocol's specification ---------------- */

enum {
    T_TRUE = 1,
    T_FALSE = 2,
    T_I8 = 3,
    T_I16 = 4,
    T_I32 = 5,
    T_I64 = 6,
    T_DOUBLE = 7,
    T_BINARY = 8,
    T_LIST = 9,
    T_SET = 10,
    T_MAP = 11,
    T_STRUCT = 12,
    T_UUID = 13
};

/* Bytes being written, with the last field id of each struct open. */
typedef struct thrift_out {
    uint8_t bytes[8192];
    size_t size;
    int32_t last_id[80];
    int depth;
} thrift_out;

static void out_byte(thrift_out *o, unsigned v) {
    if (o->size < sizeof o->bytes) {
        o->bytes[o->size] = (uint8_t)v;
    }
    o->size++;
}

static void out_varint(thrift_out *o, uint64_t v) {
    for (; v >= 0x80; v >>= 7) {
        out_byte(o, (unsigned)(v & 0x7F) | 0x80);
    }
    out_byte(o, (unsigned)v);
}

static void out_zigzag(thrift_out *o, int64_t v) {
    out_varint(o, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* A struct begins: its fields' ids count from 0. */
static void out_begin(thrift_out *o) {
    o->last_id[++o->depth] = 0;
}

/* Empties o and begins a struct. */
static void out_restart(thrift_out *o) {
    memset(o, 0, sizeof *o);
    out_begin(o);
}

/* The struct ends: its stop byte. */
static void out_end(thrift_out *o) {
    out_byte(o, 0);
    o->depth--;
}

/* A field header: the short form for a delta of 1 to 15, else the long form. */
static void out_field(thrift_out *o, int32_t id, unsigned type) {
    int32_t delta = id - o->last_id[o->depth];
    if (delta >= 1 && delta <= 15) {
        out_byte(o, (unsigned)delta << 4 | type);
    } else {
        out_byte(o, type);
        out_zigzag(o, id);
    }
    o->last_id[o->depth] = id;
}

static void out_binary(thrift_out *o, const char *text) {
    size_t length = strlen(text);
    out_varint(o, length);
    for (size_t i = 0; i < length; i++) {
        out_byte(o, (uint8_t)text[i]);
    }
}

/* A list header: the short form below 15 elements. */
static void out_list(thrift_out *o, uint32_t count, unsigned element) {
    if (count < 15) {
        out_byte(o, count << 4 | element);
    } else {
        out_byte(o, 0xF0 | element);
        out_varint(o, count);
    }
}

static void out_i32_field(thrift_out *o, int32_t id, int64_t v) {
    out_field(o, id, T_I32);
    out_zigzag(o, v);
}

static void out_i64_field(thrift_out *o, int32_t id, int64_t v) {
    out_field(o, id, T_I64);
    out_zigzag(o, v);
}

static void out_binary_field(thrift_out *o, int32_t id, const char *text) {
    out_field(o, id, T_BINARY);
    out_binary(o, text);
}

/* Fields of every type, none of whose ids a reader here knows (they are skipped): booleans,
** i8, i16, double, binary, a list of booleans, a set of structs, maps (empty and not), a
** nested struct, a uuid, ids in the long form (negative, then large). */
static void out_unknown_fields(thrift_out *o) {
    out_field(o, -7, T_TRUE);
    out_field(o, 20, T_FALSE);
    out_field(o, 21, T_I8);
    out_byte(o, 0xFF);
    out_field(o, 22, T_I16);
    out_zigzag(o, -300);
    out_field(o, 23, T_DOUBLE);
    for (int i = 0; i < 8; i++) {
        out_byte(o, 0x40);
    }
    out_binary_field(o, 24, "skipped");
    out_field(o, 25, T_LIST);
    out_list(o, 3, T_TRUE);
    out_byte(o, 1);
    out_byte(o, 2);
    out_byte(o, 1);
    out_field(o, 26, T_SET);
    out_list(o, 16, T_STRUCT);
    for (int i = 0; i < 16; i++) {
        out_begin(o);
        out_i32_field(o, 1, i);
        out_end(o);
    }
    out_field(o, 27, T_MAP);
    out_varint(o, 0);
    out_field(o, 28, T_MAP);
    out_varint(o, 2);
    out_byte(o, T_BINARY << 4 | T_I64);
    out_binary(o, "a");
    out_zigzag(o, 1);
    out_binary(o, "b");
    out_zigzag(o, -1);
    out_field(o, 29, T_STRUCT);
    out_begin(o);
    out_field(o, 1, T_STRUCT);
    out_begin(o);
    out_binary_field(o, 3, "deeper");
    out_end(o);
    out_end(o);
    out_field(o, 30, T_UUID);
    for (int i = 0; i < 16; i++) {
        out_byte(o, (unsigned)i);
    }
    out_field(o, 1000, T_TRUE);
}

/* ---- A FileMetaData ------------------------------------------------------------------------ */

/* The schema of the test footer: root { id INT64; s { u FIXED_LEN_BYTE_ARRAY(16) }; name
** BYTE_ARRAY }, each element with unknown fields too when `noisy`. */
static void out_schema(thrift_out *o, int noisy) {
    out_field(o, 2, T_LIST);
    out_list(o, 5, T_STRUCT);
    static const struct {
        const char *name;
        int32_t type, type_length, children;
    } elements[] = {{"root", -1, -1, 3},
                    {"id", 2, -1, -1},
                    {"s", -1, -1, 1},
                    {"u", 7, 16, -1},
                    {"name", 6, -1, 0}};
    for (int i = 0; i < 5; i++) {
        out_begin(o);
        if (elements[i].type >= 0) {
            out_i32_field(o, 1, elements[i].type);
        }
        if (elements[i].type_length >= 0) {
            out_i32_field(o, 2, elements[i].type_length);
        }
        out_i32_field(o, 3, 1);
        out_binary_field(o, 4, elements[i].name);
        if (elements[i].children >= 0) {
            out_i32_field(o, 5, elements[i].children);
        }
        if (noisy) {
            out_unknown_fields(o);
        }
        out_end(o);
    }
}

/* A field left out of out_chunk. */
#define ABSENT INT64_MIN

/* A column chunk: type, path (elements separated by '.'), num_values, a Bloom filter offset and
** length (each left out when ABSENT); unknown fields too when noisy. */
static void out_chunk(thrift_out *o, int32_t type, const char *path, int64_t num_values,
                      int64_t offset, int64_t length, int noisy) {
    out_begin(o);
    out_i64_field(o, 2, 4);
    out_field(o, 3, T_STRUCT);
    out_begin(o);
    out_i32_field(o, 1, type);
    out_field(o, 2, T_LIST);
    out_list(o, 1, T_I32);
    out_zigzag(o, 0);
    uint32_t elements = 1;
    for (const char *c = path; *c != '\0'; c++) {
        elements += *c == '.';
    }
    out_field(o, 3, T_LIST);
    out_list(o, elements, T_BINARY);
    for (const char *start = path;;) {
        const char *dot = strchr(start, '.');
        size_t bytes = dot != NULL ? (size_t)(dot - start) : strlen(start);
        out_varint(o, bytes);
        for (size_t i = 0; i < bytes; i++) {
            out_byte(o, (uint8_t)start[i]);
        }
        if (dot == NULL) {
            break;
        }
        start = dot + 1;
    }
    out_i32_field(o, 4, 0);
    out_i64_field(o, 5, num_values);
    if (noisy) {
        out_unknown_fields(o);
    }
    if (offset != ABSENT) {
        out_i64_field(o, 14, offset);
    }
    if (length != ABSENT) {
        out_i32_field(o, 15, length);
    }
    out_end(o);
    out_end(o);
}

/* The test footer: version, the schema above, num_rows, two row groups of three chunks (the
** second's id without a filter, every name with an offset only), key_value_metadata,
** created_by "sqlite-bloom test"; unknown fields everywhere when noisy. */
static void out_footer(thrift_out *o, int noisy) {
    memset(o, 0, sizeof *o);
    out_begin(o);
    out_i32_field(o, 1, 2);
    out_schema(o, noisy);
    out_i64_field(o, 3, 30);
    out_field(o, 4, T_LIST);
    out_list(o, 2, T_STRUCT);
    for (int g = 0; g < 2; g++) {
        out_begin(o);
        if (noisy) {
            out_unknown_fields(o);
        }
        out_field(o, 1, T_LIST);
        out_list(o, 3, T_STRUCT);
        out_chunk(o, 2, "id", 10 + g, g == 0 ? 4000 : ABSENT, g == 0 ? 47 : ABSENT, noisy);
        out_chunk(o, 7, "s.u", 20 + g, 5000 + g, 79, noisy);
        out_chunk(o, 6, "name", 30 + g, 6000 + g, ABSENT, noisy);
        out_i64_field(o, 2, 100);
        out_i64_field(o, 3, 15);
        out_end(o);
    }
    out_field(o, 5, T_LIST);
    out_list(o, 1, T_STRUCT);
    out_begin(o);
    out_binary_field(o, 1, "key");
    out_binary_field(o, 2, "value");
    out_end(o);
    out_binary_field(o, 6, "sqlite-bloom test");
    if (noisy) {
        out_unknown_fields(o);
    }
    out_end(o);
}

/* ---- Visiting ------------------------------------------------------------------------------ */

/* What a scan saw: each chunk as one line of text, and where to stop. */
typedef struct seen {
    char text[2048];
    size_t used;
    int visits;
    int stop_after; /* 0: never stop */
} seen;

static int seen_visit(void *state, const parquet_chunk *c) {
    seen *s = state;
    char path[256] = "";
    size_t p = 0;
    for (uint32_t i = 0; i < c->path_count && p < sizeof path - 70; i++) {
        p += (size_t)snprintf(path + p, sizeof path - p, "%s%.*s", i ? "." : "",
                              (int)c->path[i].length, (const char *)c->path[i].bytes);
    }
    int n =
        snprintf(s->text + s->used, sizeof s->text - s->used,
                 "%u/%u %s meta=%d enc=%d type=%d len=%d values=%lld filter=%lld+%lld by=%.*s\n",
                 c->row_group, c->column, path, c->has_metadata, c->encrypted, c->physical_type,
                 c->type_length, (long long)c->num_values, (long long)c->bloom_filter_offset,
                 (long long)c->bloom_filter_length,
                 c->created_by.bytes != NULL ? (int)c->created_by.length : 6,
                 c->created_by.bytes != NULL ? (const char *)c->created_by.bytes : "(none)");
    if (n > 0 && (size_t)n < sizeof s->text - s->used) {
        s->used += (size_t)n;
    }
    s->visits++;
    return s->stop_after != 0 && s->visits >= s->stop_after;
}

/* Scans bytes[0, size) from a copy of exactly that size (so that a read past it is an error
** under the sanitizers and valgrind), leaves counted first; returns the status, with why and
** what was seen. */
static parquet_status scan(const uint8_t *bytes, size_t size, seen *s, char *why) {
    uint8_t *copy = malloc(size > 0 ? size : 1);
    memcpy(copy, bytes, size);
    uint32_t leaves = 0;
    parquet_status status = parquet_footer_leaves(copy, size, &leaves, why);
    if (status == PARQUET_OK) {
        int32_t *scratch = malloc(sizeof(int32_t) * (leaves + 1));
        int stop_after = s->stop_after;
        memset(s, 0, sizeof *s);
        s->stop_after = stop_after;
        status = parquet_footer_scan(copy, size, scratch, leaves, seen_visit, s, why);
        free(scratch);
    }
    free(copy);
    return status;
}

static const char test_footer_chunks[] =
    "0/0 id meta=1 enc=0 type=2 len=-1 values=10 filter=4000+47 by=sqlite-bloom test\n"
    "0/1 s.u meta=1 enc=0 type=7 len=16 values=20 filter=5000+79 by=sqlite-bloom test\n"
    "0/2 name meta=1 enc=0 type=6 len=-1 values=30 filter=6000+-1 by=sqlite-bloom test\n"
    "1/0 id meta=1 enc=0 type=2 len=-1 values=11 filter=-1+-1 by=sqlite-bloom test\n"
    "1/1 s.u meta=1 enc=0 type=7 len=16 values=21 filter=5001+79 by=sqlite-bloom test\n"
    "1/2 name meta=1 enc=0 type=6 len=-1 values=31 filter=6001+-1 by=sqlite-bloom test\n";

/* ---- The tests ----------------------------------------------------------------------------- */

/* The file's first and last bytes: PAR1, an encrypted footer (PARE), anything else; the footer
** length against the file's. */
void test_parquet_locate(void) {
    char why[PARQUET_WHY_MAX];
    uint64_t offset = 0;
    uint32_t length = 0;
    CHECK(parquet_head_check((const uint8_t *)"PAR1", why) == PARQUET_OK);
    CHECK(parquet_head_check((const uint8_t *)"PARE", why) == PARQUET_INVALID);
    CHECK_STR(why, "an encrypted Parquet file (PARE at its start): its footer is encrypted, which "
                   "this reader does not decrypt");
    CHECK(parquet_head_check((const uint8_t *)"SQLi", why) == PARQUET_INVALID);
    CHECK_STR(why, "not a Parquet file: no PAR1 at its start");

    const uint8_t tail[8] = {100, 0, 0, 0, 'P', 'A', 'R', '1'};
    CHECK(parquet_footer_locate(112, tail, &offset, &length, why) == PARQUET_OK);
    CHECK_U64(offset, 4);
    CHECK_U64(length, 100);
    CHECK(parquet_footer_locate(1000, tail, &offset, &length, why) == PARQUET_OK);
    CHECK_U64(offset, 892);
    CHECK(parquet_footer_locate(111, tail, &offset, &length, why) == PARQUET_INVALID);
    CHECK_STR(why, "footer length 100 past the file's 111 bytes (with PAR1 and its length, 99 at "
                   "most)");
    CHECK(parquet_footer_locate(11, tail, &offset, &length, why) == PARQUET_INVALID);
    CHECK_STR(why, "not a Parquet file: 11 bytes, fewer than the 12 of PAR1, a footer length and "
                   "PAR1");
    CHECK(parquet_footer_locate(0, NULL, &offset, &length, why) == PARQUET_INVALID);
    CHECK_STR(why, "not a Parquet file: 0 bytes, fewer than the 12 of PAR1, a footer length and "
                   "PAR1");
    const uint8_t huge[8] = {0xFF, 0xFF, 0xFF, 0xFF, 'P', 'A', 'R', '1'};
    CHECK(parquet_footer_locate(UINT64_MAX, huge, &offset, &length, why) == PARQUET_OK);
    CHECK_U64(offset, UINT64_MAX - 8 - 0xFFFFFFFFu);
    CHECK(parquet_footer_locate(0xFFFFFFFFull + 11, huge, &offset, &length, why) ==
          PARQUET_INVALID);
    CHECK_STR(why, "footer length 4294967295 past the file's 4294967306 bytes (with PAR1 and its "
                   "length, 4294967294 at most)");
    const uint8_t empty[8] = {0, 0, 0, 0, 'P', 'A', 'R', '1'};
    CHECK(parquet_footer_locate(100, empty, &offset, &length, why) == PARQUET_INVALID);
    CHECK_STR(why, "footer length 0: a Parquet footer is not empty");
    const uint8_t encrypted[8] = {100, 0, 0, 0, 'P', 'A', 'R', 'E'};
    CHECK(parquet_footer_locate(1000, encrypted, &offset, &length, why) == PARQUET_INVALID);
    CHECK_STR(why, "an encrypted Parquet file (PARE at its end): its footer is encrypted, which "
                   "this reader does not decrypt");
    const uint8_t other[8] = {100, 0, 0, 0, 'P', 'A', 'R', '2'};
    CHECK(parquet_footer_locate(1000, other, &offset, &length, why) == PARQUET_INVALID);
    CHECK_STR(why, "not a Parquet file: no PAR1 at its end");
}

/* The test footer, plain and with fields of every type to skip everywhere: every chunk, in
** order, with its schema leaf's length; the leaves counted; a visitor that stops. */
void test_parquet_footer_scan(void) {
    thrift_out o;
    seen s = {0};
    char why[PARQUET_WHY_MAX];
    for (int noisy = 0; noisy <= 1; noisy++) {
        out_footer(&o, noisy);
        CHECK(o.size <= sizeof o.bytes);
        uint32_t leaves = 0;
        CHECK(parquet_footer_leaves(o.bytes, o.size, &leaves, why) == PARQUET_OK);
        CHECK_U64(leaves, 3);
        CHECK(scan(o.bytes, o.size, &s, why) == PARQUET_OK);
        CHECK_STR(s.text, test_footer_chunks);
    }
    /* Bytes after the FileMetaData (a plaintext footer's signature) are not read. */
    out_footer(&o, 0);
    memset(o.bytes + o.size, 0xEE, 28);
    CHECK(scan(o.bytes, o.size + 28, &s, why) == PARQUET_OK);
    CHECK_STR(s.text, test_footer_chunks);

    s.stop_after = 2;
    CHECK(scan(o.bytes, o.size, &s, why) == PARQUET_STOPPED);
    CHECK_U64(s.visits, 2);

    /* The scratch must hold every leaf. */
    int32_t scratch[2];
    CHECK(parquet_footer_scan(o.bytes, o.size, scratch, 2, seen_visit, &s, why) == PARQUET_INVALID);
    CHECK_STR(why, "the schema has 3 leaves, more than the 2 of the scratch");
    CHECK(parquet_footer_scan(o.bytes, o.size, NULL, 0, seen_visit, &s, why) == PARQUET_INVALID);
    CHECK_STR(why, "the schema has 3 leaves, more than the 0 of the scratch");
}

/* Every proper prefix of the footer, plain and noisy, is refused as truncated or malformed (a
** prefix can end where a struct could, with the row groups missing), never read past. */
void test_parquet_footer_truncations(void) {
    thrift_out o;
    seen s = {0};
    char why[PARQUET_WHY_MAX];
    for (int noisy = 0; noisy <= 1; noisy++) {
        out_footer(&o, noisy);
        int truncated = 0, refused = 0;
        for (size_t size = 0; size < o.size; size++) {
            parquet_status status = scan(o.bytes, size, &s, why);
            truncated += status == PARQUET_TRUNCATED;
            refused += status != PARQUET_OK && status != PARQUET_STOPPED;
        }
        CHECK_U64(refused, o.size);
        CHECK(truncated == refused);
    }
    out_footer(&o, 0);
    CHECK(scan(o.bytes, 0, &s, why) == PARQUET_TRUNCATED);
    CHECK_STR(why, "footer truncated: a field header at byte 0 runs past its 0 bytes");
    CHECK(scan(o.bytes, 10, &s, why) == PARQUET_TRUNCATED);
    CHECK_STR(why, "footer truncated: a binary of 4 bytes at byte 7 runs past its 10 bytes");
    CHECK(scan(o.bytes, 30, &s, why) == PARQUET_TRUNCATED);
    CHECK_STR(why, "footer truncated: a varint at byte 30 runs past its 30 bytes");
    CHECK(scan(o.bytes, o.size - 1, &s, why) == PARQUET_TRUNCATED);
    CHECK_STR(why, "footer truncated: a field header at byte 252 runs past its 252 bytes");
}

/* Writes a FileMetaData of the schema above and one row group: `given` chunks of the bytes
** given, then (with fill) good chunks of the schema's leaves after them, for 3 in all. */
static void out_one_group(thrift_out *o, const uint8_t *chunks, size_t size, uint32_t given,
                          int fill) {
    memset(o, 0, sizeof *o);
    out_begin(o);
    out_schema(o, 0);
    out_field(o, 4, T_LIST);
    out_list(o, 1, T_STRUCT);
    out_begin(o);
    out_field(o, 1, T_LIST);
    out_list(o, fill ? 3 : given, T_STRUCT);
    for (size_t i = 0; i < size; i++) {
        out_byte(o, chunks[i]);
    }
    for (uint32_t leaf = given; fill && leaf < 3; leaf++) {
        out_chunk(o, leaf == 1 ? 7 : 6, leaf == 1 ? "s.u" : "name", 1, 10, 10, 0);
    }
    out_end(o);
    out_end(o);
}

/* Checks that a footer of bytes is refused with status and message. */
static void check_refused(const uint8_t *bytes, size_t size, parquet_status status,
                          const char *message) {
    seen s = {0};
    char why[PARQUET_WHY_MAX] = "";
    CHECK(scan(bytes, size, &s, why) == status);
    CHECK_STR(why, message);
}

/* Lengths, sizes and integers that do not fit: binaries and lists past the end, sizes above
** 2^31 - 1, varints past 64 bits, i32 and i16 out of range, negative counts and offsets, paths of
** 0 and 65 elements, a type 0 field, unknown element types. */
void test_parquet_footer_bad_lengths(void) {
    thrift_out o;
    out_restart(&o);
    out_field(&o, 6, T_BINARY);
    out_varint(&o, 1000);
    check_refused(o.bytes, o.size, PARQUET_TRUNCATED,
                  "footer truncated: a binary of 1000 bytes at byte 1 runs past its 3 bytes");
    o.size = 1;
    out_varint(&o, 1ull << 31);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 1: a binary length of 2147483648, above Thrift's 2^31 "
                  "- 1");
    o.size = 1;
    for (int i = 0; i < 10; i++) {
        out_byte(&o, 0xFF);
    }
    out_byte(&o, 0);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 1: a varint longer than 64 bits");
    out_restart(&o);
    out_field(&o, 25, T_LIST);
    out_list(&o, 100, T_I32);
    check_refused(o.bytes, o.size, PARQUET_TRUNCATED,
                  "footer truncated: a list of 100 elements at byte 2 runs past its 4 bytes");
    o.size = 2;
    out_byte(&o, 0xF5);
    out_varint(&o, 0xFFFFFFFFu);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 3: a list size of 4294967295, above Thrift's 2^31 - 1");
    o.size = 2;
    out_list(&o, 1, 14);
    out_byte(&o, 0);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 3: an element of unknown type 14");
    out_restart(&o);
    out_field(&o, 25, T_MAP);
    out_varint(&o, 3);
    out_byte(&o, T_I32 << 4 | T_I32);
    out_byte(&o, 0);
    check_refused(o.bytes, o.size, PARQUET_TRUNCATED,
                  "footer truncated: a map of 3 entries at byte 2 runs past its 5 bytes");
    out_restart(&o);
    out_field(&o, 1, T_I32);
    out_zigzag(&o, 1ll << 31);
    out_byte(&o, 0);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 1: 2147483648 does not fit an i32");
    out_restart(&o);
    out_byte(&o, T_I32);
    out_zigzag(&o, 40000);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 1: 40000 does not fit an i16");
    out_restart(&o);
    out_byte(&o, T_I32);
    out_zigzag(&o, 32767);
    out_zigzag(&o, 0);
    out_byte(&o, 0x10 | T_I32);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 5: field id 32768 does not fit an i16");
    out_restart(&o);
    out_byte(&o, 0x30);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 0: a field header 0x30 of type 0");
    out_restart(&o);
    out_byte(&o, 0x1E);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 1: an element of unknown type 14");

    /* Negative counts and offsets, and paths of no or too many elements, in a chunk. */
    static const struct {
        int64_t values, offset, length;
        const char *message;
    } chunks[] = {
        {-1, 10, 10,
         "malformed footer at byte 73: ColumnMetaData.num_values (field 5) is negative: -1"},
        {1, -10, 10,
         "malformed footer at byte 75: ColumnMetaData.bloom_filter_offset (field 14) is negative: "
         "-10"},
        {1, 10, -2,
         "malformed footer at byte 77: ColumnMetaData.bloom_filter_length (field 15) is negative: "
         "-2"},
    };
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        thrift_out c = {0};
        out_chunk(&c, 2, "id", chunks[i].values, chunks[i].offset, chunks[i].length, 0);
        out_one_group(&o, c.bytes, c.size, 1, 1);
        check_refused(o.bytes, o.size, PARQUET_INVALID, chunks[i].message);
    }
    char path[200] = "a";
    for (int i = 1; i < PARQUET_MAX_PATH; i++) {
        strcat(path, ".a");
    }
    thrift_out c = {0};
    out_chunk(&c, 2, path, 1, 10, 10, 0);
    out_chunk(&c, 7, "s.u", 1, 10, 10, 0);
    out_chunk(&c, 6, "name", 1, 10, 10, 0);
    out_one_group(&o, c.bytes, c.size, 3, 0);
    seen s = {0};
    char why[PARQUET_WHY_MAX];
    CHECK(scan(o.bytes, o.size, &s, why) == PARQUET_OK);
    CHECK_U64(s.visits, 3);
    strcat(path, ".a");
    c.size = 0;
    out_chunk(&c, 2, path, 1, 10, 10, 0);
    out_one_group(&o, c.bytes, c.size, 1, 1);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 65: a path_in_schema of 65 elements, not 1 to 64");
    c.size = 0;
    out_begin(&c);
    out_field(&c, 3, T_STRUCT);
    out_begin(&c);
    out_field(&c, 3, T_LIST);
    out_list(&c, 0, T_BINARY);
    out_end(&c);
    out_end(&c);
    out_one_group(&o, c.bytes, c.size, 1, 1);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 58: a path_in_schema of 0 elements, not 1 to 64");
}

/* Writes fields nested depth deep inside a FileMetaData (itself depth 1): structs, or a list of
** lists, or maps of maps, then the schema and no row groups. */
static void out_nested(thrift_out *o, int depth, unsigned container) {
    memset(o, 0, sizeof *o);
    out_begin(o);
    out_field(o, 20, container);
    for (int d = 2; d < depth; d++) {
        if (container == T_STRUCT) {
            out_begin(o);
            out_field(o, 1, T_STRUCT);
        } else if (container == T_LIST) {
            out_list(o, 1, T_LIST);
        } else {
            out_varint(o, 1);
            out_byte(o, T_I8 << 4 | T_MAP);
            out_byte(o, 7);
        }
    }
    if (container == T_STRUCT) {
        out_begin(o);
        out_end(o);
        for (int d = 2; d < depth; d++) {
            out_end(o);
        }
    } else if (container == T_LIST) {
        out_list(o, 0, T_I8);
    } else {
        out_varint(o, 0);
    }
    out_schema(o, 0);
    out_field(o, 4, T_LIST);
    out_list(o, 0, T_STRUCT);
    out_end(o);
}

/* Structs, lists and maps nested 64 deep are read; 65 deep are refused, not recursed into. */
void test_parquet_footer_nesting(void) {
    thrift_out o;
    seen s = {0};
    char why[PARQUET_WHY_MAX];
    static const unsigned containers[] = {T_STRUCT, T_LIST, T_MAP};
    static const size_t refused_at[] = {65, 65, 191};
    for (int i = 0; i < 3; i++) {
        out_nested(&o, PARQUET_MAX_NESTING, containers[i]);
        CHECK(scan(o.bytes, o.size, &s, why) == PARQUET_OK);
        CHECK_U64(s.visits, 0);
        out_nested(&o, PARQUET_MAX_NESTING + 1, containers[i]);
        CHECK(scan(o.bytes, o.size, &s, why) == PARQUET_INVALID);
        char expected[PARQUET_WHY_MAX];
        snprintf(expected, sizeof expected,
                 "malformed footer at byte %zu: structs, lists and maps nested deeper than 64",
                 refused_at[i]);
        CHECK_STR(why, expected);
    }
    /* A million levels of nesting (a list of lists of ...) costs no stack. */
    static uint8_t deep[1 << 20];
    deep[0] = 0x19;
    memset(deep + 1, 0x19, sizeof deep - 1);
    check_refused(deep, sizeof deep, PARQUET_INVALID,
                  "malformed footer at byte 64: structs, lists and maps nested deeper than 64");
}

/* Required fields missing, fields of the wrong type, the schema's leaves against the chunks. */
void test_parquet_footer_structure(void) {
    thrift_out o = {0};
    out_begin(&o);
    out_schema(&o, 0);
    out_end(&o);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 0: FileMetaData has no row_groups (field 4)");
    memset(&o, 0, sizeof o);
    out_begin(&o);
    out_field(&o, 4, T_LIST);
    out_list(&o, 0, T_STRUCT);
    out_end(&o);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 0: FileMetaData has no schema (field 2)");
    memset(&o, 0, sizeof o);
    out_begin(&o);
    out_field(&o, 2, T_LIST);
    out_list(&o, 0, T_STRUCT);
    out_field(&o, 4, T_LIST);
    out_list(&o, 0, T_STRUCT);
    out_end(&o);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 2: an empty schema, without its root");
    memset(&o, 0, sizeof o);
    out_begin(&o);
    out_field(&o, 2, T_LIST);
    out_list(&o, 1, T_I32);
    out_zigzag(&o, 1);
    out_end(&o);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 0: FileMetaData.schema (field 2) is a list of i32, not "
                  "of struct");
    memset(&o, 0, sizeof o);
    out_begin(&o);
    out_i32_field(&o, 4, 3);
    out_end(&o);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 0: FileMetaData.row_groups (field 4) is of type i32, "
                  "not list");
    memset(&o, 0, sizeof o);
    out_begin(&o);
    out_field(&o, 6, T_TRUE);
    out_end(&o);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 0: FileMetaData.created_by (field 6) is of type bool, "
                  "not binary");

    /* The chunks against the schema's 3 leaves. */
    thrift_out c = {0};
    out_chunk(&c, 2, "id", 1, 10, 10, 0);
    out_chunk(&c, 7, "s.u", 1, 10, 10, 0);
    out_one_group(&o, c.bytes, c.size, 2, 0);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 55: row group 0 has 2 column chunks, the schema 3 "
                  "leaves");
    c.size = 0;
    out_chunk(&c, 2, "id", 1, 10, 10, 0);
    out_chunk(&c, 6, "s.u", 1, 10, 10, 0);
    out_one_group(&o, c.bytes, c.size, 2, 1);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 80: row group 0, column chunk 1: not a "
                  "FIXED_LEN_BYTE_ARRAY, its schema leaf one");
    c.size = 0;
    out_chunk(&c, 7, "id", 1, 10, 10, 0);
    out_one_group(&o, c.bytes, c.size, 1, 1);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 57: row group 0, column chunk 0: a "
                  "FIXED_LEN_BYTE_ARRAY, its schema leaf not");

    /* A chunk without meta_data (a column encrypted with its own key) is visited as such. */
    c.size = 0;
    for (int i = 0; i < 3; i++) {
        out_begin(&c);
        out_i64_field(&c, 2, 0);
        out_field(&c, 8, T_STRUCT);
        out_begin(&c);
        out_field(&c, 1, T_STRUCT);
        out_begin(&c);
        out_end(&c);
        out_end(&c);
        out_binary_field(&c, 9, "ciphertext");
        out_end(&c);
    }
    out_one_group(&o, c.bytes, c.size, 3, 0);
    seen s = {0};
    char why[PARQUET_WHY_MAX];
    CHECK(scan(o.bytes, o.size, &s, why) == PARQUET_OK);
    CHECK_STR(s.text, "0/0  meta=0 enc=1 type=-1 len=-1 values=-1 filter=-1+-1 by=(none)\n"
                      "0/1  meta=0 enc=1 type=-1 len=16 values=-1 filter=-1+-1 by=(none)\n"
                      "0/2  meta=0 enc=1 type=-1 len=-1 values=-1 filter=-1+-1 by=(none)\n");

    /* ColumnMetaData's required fields, and types. */
    static const struct {
        unsigned field_type;
        int32_t field;
        const char *message;
    } metadata[] = {
        {0, 0,
         "malformed footer at byte 58: row group 0, column chunk 0: ColumnMetaData has no "
         "type (field 1)"},
        {T_I64, 1,
         "malformed footer at byte 58: ColumnMetaData.type (field 1) is of type i64, "
         "not i32"},
        {T_BINARY, 3,
         "malformed footer at byte 58: ColumnMetaData.path_in_schema (field 3) is "
         "of type binary, not list"},
        {T_I32, 5,
         "malformed footer at byte 58: ColumnMetaData.num_values (field 5) is of type "
         "i32, not i64"},
        {T_I32, 14,
         "malformed footer at byte 58: ColumnMetaData.bloom_filter_offset (field 14) "
         "is of type i32, not i64"},
        {T_I64, 15,
         "malformed footer at byte 58: ColumnMetaData.bloom_filter_length (field 15) "
         "is of type i64, not i32"},
    };
    for (size_t i = 0; i < sizeof metadata / sizeof metadata[0]; i++) {
        c.size = 0;
        out_begin(&c);
        out_field(&c, 3, T_STRUCT);
        out_begin(&c);
        if (metadata[i].field != 0) {
            out_field(&c, metadata[i].field, metadata[i].field_type);
            if (metadata[i].field_type == T_BINARY) {
                out_binary(&c, "x");
            } else {
                out_zigzag(&c, 1);
            }
        }
        out_end(&c);
        out_end(&c);
        out_one_group(&o, c.bytes, c.size, 1, 1);
        check_refused(o.bytes, o.size, PARQUET_INVALID, metadata[i].message);
    }
    c.size = 0;
    out_begin(&c);
    out_field(&c, 3, T_STRUCT);
    out_begin(&c);
    out_i32_field(&c, 1, 2);
    out_field(&c, 3, T_LIST);
    out_list(&c, 1, T_BINARY);
    out_binary(&c, "id");
    out_end(&c);
    out_end(&c);
    out_one_group(&o, c.bytes, c.size, 1, 1);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 58: row group 0, column chunk 0: ColumnMetaData has no "
                  "num_values (field 5)");

    /* A row group without its columns, or with them twice. */
    memset(&o, 0, sizeof o);
    out_begin(&o);
    out_schema(&o, 0);
    out_field(&o, 4, T_LIST);
    out_list(&o, 1, T_STRUCT);
    out_begin(&o);
    out_i64_field(&o, 3, 7);
    out_end(&o);
    out_end(&o);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 55: row group 0 has no columns (field 1)");
    c.size = 0;
    out_chunk(&c, 2, "id", 1, 10, 10, 0);
    out_chunk(&c, 7, "s.u", 1, 10, 10, 0);
    out_chunk(&c, 6, "name", 1, 10, 10, 0);
    out_one_group(&o, c.bytes, c.size, 3, 0);
    o.size -= 2;
    out_byte(&o, 0x09); /* the columns again, by the long form of field 1 */
    out_zigzag(&o, 1);
    out_list(&o, 3, T_STRUCT);
    memcpy(o.bytes + o.size, c.bytes, c.size);
    o.size += c.size;
    out_byte(&o, 0);
    out_byte(&o, 0);
    check_refused(o.bytes, o.size, PARQUET_INVALID,
                  "malformed footer at byte 129: row group 0 has its columns (field 1) twice");

    /* The schema: a negative num_children; a FIXED_LEN_BYTE_ARRAY leaf without its length. */
    for (int bad = 0; bad < 2; bad++) {
        memset(&o, 0, sizeof o);
        out_begin(&o);
        out_field(&o, 2, T_LIST);
        out_list(&o, 2, T_STRUCT);
        out_begin(&o);
        out_i32_field(&o, 5, 1);
        out_end(&o);
        out_begin(&o);
        out_i32_field(&o, 1, 7);
        out_i32_field(&o, bad == 0 ? 5 : 2, -1);
        out_end(&o);
        out_field(&o, 4, T_LIST);
        out_list(&o, 0, T_STRUCT);
        out_end(&o);
        check_refused(o.bytes, o.size, PARQUET_INVALID,
                      bad == 0 ? "malformed footer at byte 5: schema element 1 has -1 children"
                               : "malformed footer at byte 5: schema element 1, a "
                                 "FIXED_LEN_BYTE_ARRAY, has no type_length of 0 or more");
    }
}

/* Keeps the file_path of the first chunk visited. */
static int file_path_visit(void *state, const parquet_chunk *c) {
    char *path = state;
    if (c->file_path.bytes == NULL) {
        strcpy(path, "(none)");
    } else {
        snprintf(path, 64, "%.*s", (int)c->file_path.length, (const char *)c->file_path.bytes);
    }
    return 1;
}

/* A chunk's file_path (field 1 of ColumnChunk: a summary file's chunk whose data is in another
** file), given to the visitor; absent, NULL; of another type than binary, refused. */
void test_parquet_footer_file_path(void) {
    thrift_out o, c;
    char why[PARQUET_WHY_MAX], path[64];
    int32_t scratch[3];
    for (int given = 0; given <= 2; given++) {
        memset(&c, 0, sizeof c);
        out_begin(&c);
        if (given == 1) {
            out_binary_field(&c, 1, "part-0.parquet");
        } else if (given == 2) {
            out_i32_field(&c, 1, 7);
        }
        out_i64_field(&c, 2, 4);
        out_field(&c, 3, T_STRUCT);
        out_begin(&c);
        out_i32_field(&c, 1, 2);
        out_field(&c, 3, T_LIST);
        out_list(&c, 1, T_BINARY);
        out_binary(&c, "id");
        out_i64_field(&c, 5, 1);
        out_end(&c);
        out_end(&c);
        out_one_group(&o, c.bytes, c.size, 1, 1);
        parquet_status status =
            parquet_footer_scan(o.bytes, o.size, scratch, 3, file_path_visit, path, why);
        if (given == 2) {
            CHECK(status == PARQUET_INVALID);
            CHECK_STR(why,
                      "malformed footer at byte 57: ColumnChunk.file_path (field 1) is of type "
                      "i32, not binary");
        } else {
            CHECK(status == PARQUET_STOPPED);
            CHECK_STR(path, given == 1 ? "part-0.parquet" : "(none)");
        }
    }
}

/* DuckDB's header for numBytes 8192 (17 bytes, written by parquet_bloom_header_write byte for
** byte) and for 32; @dsnp/parquetjs's empty unions; fields out of order, in the long form,
** with unknown fields and members with unknown fields. */
void test_parquet_bloom_header(void) {
    static const uint8_t duckdb_8192[] = {0x15, 0x80, 0x80, 0x01, 0x1C, 0x1C, 0x00, 0x00, 0x1C,
                                          0x1C, 0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x00};
    static const uint8_t duckdb_32[] = {0x15, 0x40, 0x1C, 0x1C, 0x00, 0x00, 0x1C, 0x1C,
                                        0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x00};
    static const uint8_t parquetjs[] = {0x15, 0x80, 0x80, 0x01, 0x1C, 0x00,
                                        0x1C, 0x00, 0x1C, 0x00, 0x00};
    uint8_t written[PARQUET_BLOOM_HEADER_MAX + 32];
    char why[PARQUET_WHY_MAX];
    parquet_bloom_header h = {0, 0};
    CHECK_U64(parquet_bloom_header_write(written, 8192), sizeof duckdb_8192);
    CHECK(memcmp(written, duckdb_8192, sizeof duckdb_8192) == 0);
    CHECK_U64(parquet_bloom_header_write(written, 32), sizeof duckdb_32);
    CHECK(memcmp(written, duckdb_32, sizeof duckdb_32) == 0);
    CHECK_U64(parquet_bloom_header_write(written, 0x7FFFFFE0u), PARQUET_BLOOM_HEADER_MAX);
    CHECK(parquet_bloom_header_read(written, PARQUET_BLOOM_HEADER_MAX, &h, why) == PARQUET_OK);
    CHECK_U64(h.header_bytes, PARQUET_BLOOM_HEADER_MAX);
    CHECK_U64(h.num_bytes, 0x7FFFFFE0u);

    /* Followed by the bitset: only the header is read. */
    memcpy(written, duckdb_8192, sizeof duckdb_8192);
    memset(written + sizeof duckdb_8192, 0xFF, 32);
    CHECK(parquet_bloom_header_read(written, sizeof duckdb_8192 + 32, &h, why) == PARQUET_OK);
    CHECK_U64(h.header_bytes, 17);
    CHECK_U64(h.num_bytes, 8192);
    CHECK(parquet_bloom_header_read(duckdb_32, sizeof duckdb_32, &h, why) == PARQUET_OK);
    CHECK_U64(h.header_bytes, 15);
    CHECK_U64(h.num_bytes, 32);
    CHECK(parquet_bloom_header_read(parquetjs, sizeof parquetjs, &h, why) == PARQUET_OK);
    CHECK_U64(h.header_bytes, 11);
    CHECK_U64(h.num_bytes, 8192);

    thrift_out o = {0};
    out_begin(&o);
    out_field(&o, 4, T_STRUCT); /* compression first, its member with an unknown field */
    out_begin(&o);
    out_field(&o, 1, T_STRUCT);
    out_begin(&o);
    out_binary_field(&o, 7, "future");
    out_end(&o);
    out_end(&o);
    out_unknown_fields(&o);
    out_field(&o, 3, T_STRUCT);
    out_begin(&o);
    out_end(&o);
    out_field(&o, 2, T_STRUCT);
    out_begin(&o);
    out_field(&o, 1, T_STRUCT);
    out_begin(&o);
    out_end(&o);
    out_end(&o);
    out_i32_field(&o, 1, 1024);
    out_end(&o);
    CHECK(parquet_bloom_header_read(o.bytes, o.size, &h, why) == PARQUET_OK);
    CHECK_U64(h.header_bytes, o.size);
    CHECK_U64(h.num_bytes, 1024);

    /* Every proper prefix is truncated. */
    int truncated = 0;
    for (size_t size = 0; size < o.size; size++) {
        uint8_t *copy = malloc(size + 1);
        memcpy(copy, o.bytes, size);
        truncated += parquet_bloom_header_read(copy, size, &h, why) == PARQUET_TRUNCATED;
        free(copy);
    }
    CHECK_U64(truncated, o.size);
    CHECK(parquet_bloom_header_read(duckdb_8192, 16, &h, why) == PARQUET_TRUNCATED);
    CHECK_STR(why, "Bloom filter header truncated: a field header at byte 16 runs past its 16 "
                   "bytes");
}

/* Writes a header: numBytes (omitted when 0 and keep_num_bytes is 0), then the three unions,
** each member id 1 unless member[i] says otherwise (0: the union left out; -1: two members). */
static void out_bloom_header(thrift_out *o, int32_t num_bytes, const int32_t member[3]) {
    memset(o, 0, sizeof *o);
    out_begin(o);
    if (num_bytes != 0) {
        out_i32_field(o, 1, num_bytes);
    }
    for (int u = 0; u < 3; u++) {
        if (member[u] == 0) {
            continue;
        }
        out_field(o, 2 + u, T_STRUCT);
        out_begin(o);
        out_field(o, member[u] > 0 ? member[u] : 1, T_STRUCT);
        out_begin(o);
        out_end(o);
        if (member[u] < 0) {
            out_field(o, 2, T_STRUCT);
            out_begin(o);
            out_end(o);
        }
        out_end(o);
    }
    out_end(o);
}

/* What a reader must refuse: other algorithms, hashes and compressions by name, two members
** of a union, numBytes not a positive multiple of 32, missing fields, wrong types. */
void test_parquet_bloom_header_refused(void) {
    static const struct {
        int32_t num_bytes;
        int32_t member[3];
        parquet_status status;
        const char *message;
    } cases[] = {
        {64,
         {2, 1, 1},
         PARQUET_INVALID,
         "unsupported Bloom filter: its BloomFilterAlgorithm is member 2, not BLOCK (1), the only "
         "one this reader reads"},
        {64,
         {1, 3, 1},
         PARQUET_INVALID,
         "unsupported Bloom filter: its BloomFilterHash is member 3, not XXHASH (1), the only one "
         "this reader reads"},
        {64,
         {1, 1, 2},
         PARQUET_INVALID,
         "unsupported Bloom filter: its BloomFilterCompression is member 2, not UNCOMPRESSED (1), "
         "the only one this reader reads"},
        {64,
         {1, -1, 1},
         PARQUET_INVALID,
         "malformed Bloom filter header at byte 10: BloomFilterHash, a union, has more than one "
         "member set"},
        {100,
         {1, 1, 1},
         PARQUET_INVALID,
         "malformed Bloom filter header at byte 0: numBytes 100 is not a positive multiple of 32"},
        {-32,
         {1, 1, 1},
         PARQUET_INVALID,
         "malformed Bloom filter header at byte 0: numBytes -32 is not a positive multiple of 32"},
        {0,
         {1, 1, 1},
         PARQUET_INVALID,
         "malformed Bloom filter header at byte 0: no numBytes (field 1)"},
        {64,
         {0, 1, 1},
         PARQUET_INVALID,
         "malformed Bloom filter header at byte 0: no algorithm (field 2)"},
        {64,
         {1, 1, 0},
         PARQUET_INVALID,
         "malformed Bloom filter header at byte 0: no compression (field 4)"},
    };
    thrift_out o;
    char why[PARQUET_WHY_MAX];
    parquet_bloom_header h;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        out_bloom_header(&o, cases[i].num_bytes, cases[i].member);
        CHECK(parquet_bloom_header_read(o.bytes, o.size, &h, why) == cases[i].status);
        CHECK_STR(why, cases[i].message);
    }
    static const uint8_t zero_bytes[] = {0x15, 0x00, 0x1C, 0x00, 0x1C, 0x00, 0x1C, 0x00, 0x00};
    CHECK(parquet_bloom_header_read(zero_bytes, sizeof zero_bytes, &h, why) == PARQUET_INVALID);
    CHECK_STR(why, "malformed Bloom filter header at byte 0: numBytes 0 is not a positive multiple "
                   "of 32");
    static const uint8_t i64_bytes[] = {0x16, 0x40, 0x1C, 0x00, 0x1C, 0x00, 0x1C, 0x00, 0x00};
    CHECK(parquet_bloom_header_read(i64_bytes, sizeof i64_bytes, &h, why) == PARQUET_INVALID);
    CHECK_STR(why, "malformed Bloom filter header at byte 0: BloomFilterHeader.numBytes (field 1) "
                   "is of type i64, not i32");
    static const uint8_t binary_member[] = {0x15, 0x40, 0x1C, 0x18, 0x00, 0x00,
                                            0x1C, 0x00, 0x1C, 0x00, 0x00};
    CHECK(parquet_bloom_header_read(binary_member, sizeof binary_member, &h, why) ==
          PARQUET_INVALID);
    CHECK_STR(why, "malformed Bloom filter header at byte 3: BLOCK is of type binary, not struct");
    static const uint8_t list_union[] = {0x15, 0x40, 0x19, 0x00, 0x1C, 0x00, 0x1C, 0x00, 0x00};
    CHECK(parquet_bloom_header_read(list_union, sizeof list_union, &h, why) == PARQUET_INVALID);
    CHECK_STR(why, "malformed Bloom filter header at byte 2: BloomFilterAlgorithm is of type list, "
                   "not struct");
}

/* ---- The footer rewritten ------------------------------------------------------------------ */

/* A field header in the long form (the type, then the id), which a writer may use for any id. */
static void out_field_long(thrift_out *o, int32_t id, unsigned type) {
    out_byte(o, type);
    out_zigzag(o, id);
    o->last_id[o->depth] = id;
}

/*
** Rewrites footer[0, size) with places as parquet_footer_rewrite's callers do, from an exact copy
** of the footer: the length counted first, then the footer written into a buffer of exactly that
** length, and into one a byte shorter, which is refused (the sanitizers and valgrind check that
** no byte past either is read or written). Returns the status, with why; the bytes in *out.
*/
static parquet_status rewrite(const uint8_t *footer, size_t size, const parquet_bloom_place *places,
                              size_t count, thrift_out *out, char *why) {
    uint8_t *copy = malloc(size > 0 ? size : 1);
    memcpy(copy, footer, size);
    size_t counted = 0, written = 0;
    memset(out, 0, sizeof *out);
    parquet_status status =
        parquet_footer_rewrite(copy, size, places, count, NULL, 0, &counted, why);
    if (status == PARQUET_OK) {
        uint8_t *exact = malloc(counted);
        CHECK(parquet_footer_rewrite(copy, size, places, count, exact, counted, &written, why) ==
              PARQUET_OK);
        CHECK_U64(written, counted);
        CHECK(counted <= sizeof out->bytes);
        if (counted <= sizeof out->bytes) {
            memcpy(out->bytes, exact, counted);
            out->size = counted;
        }
        uint8_t *shorter = malloc(counted - 1);
        char short_why[PARQUET_WHY_MAX], expected[PARQUET_WHY_MAX];
        CHECK(parquet_footer_rewrite(copy, size, places, count, shorter, counted - 1, &written,
                                     short_why) == PARQUET_INVALID);
        snprintf(expected, sizeof expected,
                 "the footer written again needs %zu bytes, more than the %zu given", counted,
                 counted - 1);
        CHECK_STR(short_why, expected);
        free(shorter);
        free(exact);
    }
    free(copy);
    return status;
}

/* The first fields of a test ColumnMetaData, a struct begun in m: type INT64 (1), encodings (2),
** path_in_schema "id" (3), codec (4), num_values 10 (5). */
static void out_meta_begin(thrift_out *m) {
    out_restart(m);
    out_i32_field(m, 1, 2);
    out_field(m, 2, T_LIST);
    out_list(m, 1, T_I32);
    out_zigzag(m, 0);
    out_field(m, 3, T_LIST);
    out_list(m, 1, T_BINARY);
    out_binary(m, "id");
    out_i32_field(m, 4, 0);
    out_i64_field(m, 5, 10);
}

/* A FileMetaData whose one row group has one column chunk, "id" INT64, whose meta_data is the
** bytes of meta (a ColumnMetaData's fields and its stop byte); then n_after bytes 0xEE after it
** (a plaintext footer has none, and they are copied). */
static void out_around(thrift_out *o, const thrift_out *meta, size_t n_after) {
    memset(o, 0, sizeof *o);
    out_begin(o);
    out_i32_field(o, 1, 2);
    out_field(o, 2, T_LIST);
    out_list(o, 2, T_STRUCT);
    out_begin(o);
    out_binary_field(o, 4, "root");
    out_i32_field(o, 5, 1);
    out_end(o);
    out_begin(o);
    out_i32_field(o, 1, 2);
    out_binary_field(o, 4, "id");
    out_end(o);
    out_i64_field(o, 3, 10);
    out_field(o, 4, T_LIST);
    out_list(o, 1, T_STRUCT);
    out_begin(o);
    out_field(o, 1, T_LIST);
    out_list(o, 1, T_STRUCT);
    out_begin(o);
    out_i64_field(o, 2, 4);
    out_field(o, 3, T_STRUCT);
    for (size_t i = 0; i < meta->size; i++) {
        out_byte(o, meta->bytes[i]);
    }
    out_end(o);
    out_i64_field(o, 2, 100);
    out_i64_field(o, 3, 10);
    out_end(o);
    out_binary_field(o, 6, "sqlite-bloom test");
    out_end(o);
    for (size_t i = 0; i < n_after; i++) {
        out_byte(o, 0xEE);
    }
}

/* Checks that the footer around meta, with the place given to its one chunk, is rewritten to
** exactly the footer around expected, which the reader then reads with the place's values. */
static void check_rewritten(const char *name, const thrift_out *meta, const thrift_out *expected,
                            int64_t offset, int32_t length) {
    thrift_out in, want, got;
    char why[PARQUET_WHY_MAX] = "";
    parquet_bloom_place place = {0, 0, offset, length};
    out_around(&in, meta, 0);
    out_around(&want, expected, 0);
    parquet_status status = rewrite(in.bytes, in.size, &place, 1, &got, why);
    if (!CHECK(status == PARQUET_OK && got.size == want.size &&
               memcmp(got.bytes, want.bytes, want.size) == 0)) {
        fprintf(stderr, "    %s: status %d (%s), %zu bytes, expected %zu\n", name, status, why,
                got.size, want.size);
    }
    seen s = {0};
    CHECK(scan(got.bytes, got.size, &s, why) == PARQUET_OK);
    char text[256];
    snprintf(text, sizeof text,
             "0/0 id meta=1 enc=0 type=2 len=-1 values=10 filter=%lld+%ld by=sqlite-bloom test\n",
             (long long)offset, (long)length);
    CHECK_STR(s.text, text);
}

/* A ColumnMetaData's fields 14 and 15: added after its last field, replaced where they are,
** written before the first field of a higher id, whatever the order; short-form headers whose
** delta changed written again (in the long form when it no longer fits), long-form headers and
** every value copied byte for byte. */
void test_parquet_footer_rewrite_fields(void) {
    thrift_out meta, expected;

    /* Fields 1 to 9: both added at the end (14 by a delta of 5). */
    out_meta_begin(&meta);
    out_i64_field(&meta, 6, 100);
    out_i64_field(&meta, 7, 90);
    out_i64_field(&meta, 9, 4);
    expected = meta;
    out_end(&meta);
    out_i64_field(&expected, 14, 1000);
    out_i32_field(&expected, 15, 47);
    out_end(&expected);
    CHECK_U64(expected.bytes[expected.size - 6], 0x56); /* the short form: delta 5, i64 */
    check_rewritten("added", &meta, &expected, 1000, 47);

    /* Both there, then size_statistics (16, a struct): replaced in place. */
    out_meta_begin(&meta);
    out_i64_field(&meta, 9, 4);
    expected = meta;
    out_i64_field(&meta, 14, 4000);
    out_i32_field(&meta, 15, 47);
    out_i64_field(&expected, 14, 123456789012);
    out_i32_field(&expected, 15, 8209);
    for (thrift_out *m = &meta; m != NULL; m = m == &meta ? &expected : NULL) {
        out_field(m, 16, T_STRUCT);
        out_begin(m);
        out_i64_field(m, 1, 5);
        out_end(m);
        out_end(m);
    }
    check_rewritten("replaced", &meta, &expected, 123456789012, 8209);

    /* The offset only (as Spark writes it), before a field of a higher id whose delta changes:
    ** 20 came 6 after 14, and comes 5 after 15. */
    out_meta_begin(&meta);
    expected = meta;
    out_i64_field(&meta, 14, 4000);
    out_i64_field(&meta, 20, 7);
    out_end(&meta);
    out_i64_field(&expected, 14, 0);
    out_i32_field(&expected, 15, 0);
    out_i64_field(&expected, 20, 7);
    out_end(&expected);
    CHECK_U64(meta.bytes[meta.size - 3], 0x66);
    CHECK_U64(expected.bytes[expected.size - 3], 0x56);
    check_rewritten("offset only", &meta, &expected, 0, 0);

    /* Any order: 15 and 14 first, the required fields after them in the long form (their
    ** deltas would be negative), codec short. The long forms are copied; 14 and 15 go last. */
    out_restart(&meta);
    out_i32_field(&meta, 15, 47);
    out_i64_field(&meta, 14, 4000);
    out_restart(&expected);
    for (thrift_out *m = &meta; m != NULL; m = m == &meta ? &expected : NULL) {
        out_field_long(m, 3, T_LIST);
        out_list(m, 1, T_BINARY);
        out_binary(m, "id");
        out_field_long(m, 1, T_I32);
        out_zigzag(m, 2);
        out_i64_field(m, 5, 10); /* 4 after 1: short */
        out_field_long(m, 2, T_LIST);
        out_list(m, 0, T_I32);
        out_i32_field(m, 4, 0); /* 2 after 2: short */
    }
    out_end(&meta);
    out_i64_field(&expected, 14, 77);
    out_i32_field(&expected, 15, 33);
    out_end(&expected);
    CHECK_U64(meta.bytes[0], 0xF5);
    check_rewritten("any order", &meta, &expected, 77, 33);

    /* 20 in the long form, then 14 (long: back), then 16 short (2 after 14): 14 and 15 go before
    ** 20, and 16, now after 20, takes the long form. */
    out_meta_begin(&meta);
    out_field_long(&meta, 20, T_I32);
    out_zigzag(&meta, 1);
    out_field_long(&meta, 14, T_I64);
    out_zigzag(&meta, 4000);
    out_i32_field(&meta, 16, 3);
    out_end(&meta);
    CHECK_U64(meta.bytes[meta.size - 3], 0x25);
    out_meta_begin(&expected);
    out_i64_field(&expected, 14, 5);
    out_i32_field(&expected, 15, 6);
    out_field_long(&expected, 20, T_I32);
    out_zigzag(&expected, 1);
    out_field_long(&expected, 16, T_I32);
    out_zigzag(&expected, 3);
    out_end(&expected);
    check_rewritten("short to long", &meta, &expected, 5, 6);

    /* Long-form headers: fields 30 and 1000 (deltas past 15), and 6 in the long form where the
    ** short one fits, copied byte for byte; 14 after 5 in the short form. */
    out_meta_begin(&meta);
    size_t at6 = meta.size;
    out_field_long(&meta, 6, T_I64);
    out_zigzag(&meta, 100);
    expected = meta;
    for (thrift_out *m = &meta; m != NULL; m = m == &meta ? &expected : NULL) {
        if (m == &expected) {
            out_i64_field(m, 14, INT64_MAX);
            out_i32_field(m, 15, INT32_MAX);
        }
        out_field_long(m, 30, T_I64);
        out_zigzag(m, -1);
        out_binary_field(m, 1000, "future");
        out_end(m);
    }
    CHECK_U64(meta.bytes[at6], 0x06);
    check_rewritten("long form", &meta, &expected, INT64_MAX, INT32_MAX);

    /* Every Thrift type, nested structs (statistics, 12, with its min and max), booleans, long
    ** ids (-7 first), the old 14 and 15 at the end: the new ones go before 20, the first id
    ** above 15, after -7, which leaves 14 in the long form (21 after -7); every other byte is
    ** the footer's. */
    out_meta_begin(&meta);
    out_field(&meta, 12, T_STRUCT);
    out_begin(&meta);
    out_binary_field(&meta, 5, "zzz");
    out_binary_field(&meta, 6, "aaa");
    out_field(&meta, 7, T_STRUCT);
    out_begin(&meta);
    out_field(&meta, 1, T_TRUE);
    out_end(&meta);
    out_end(&meta);
    size_t before_unknown = meta.size;
    out_unknown_fields(&meta);
    thrift_out plain = meta;
    out_end(&plain);
    out_i64_field(&meta, 14, 4000);
    out_i32_field(&meta, 15, 47);
    out_end(&meta);
    CHECK_U64(plain.bytes[before_unknown], T_TRUE); /* -7, long: a type, then zigzag 13 */
    CHECK_U64(plain.bytes[before_unknown + 1], 13);
    memset(&expected, 0, sizeof expected);
    size_t split = before_unknown + 2;
    memcpy(expected.bytes, plain.bytes, split);
    expected.size = split;
    out_byte(&expected, T_I64); /* 14, long */
    out_zigzag(&expected, 14);
    out_zigzag(&expected, 4096);
    out_byte(&expected, 0x10 | T_I32); /* 15, short */
    out_zigzag(&expected, 64);
    memcpy(expected.bytes + expected.size, plain.bytes + split, plain.size - split);
    expected.size += plain.size - split;
    check_rewritten("unknown fields", &meta, &expected, 4096, 64);
}

/* The test footer, plain and noisy: chunks of both row groups given filters (one that had none),
** read back with the new values and the others' as they were; no place, the same bytes; the
** bytes after the FileMetaData copied; a rewrite rewritten again the same. */
void test_parquet_footer_rewrite_chunks(void) {
    static const parquet_bloom_place places[] = {
        {0, 1, 9000, 1041}, {1, 0, 10041, 79}, {1, 2, 10120, 8209}};
    thrift_out o, got, again;
    seen s = {0};
    char why[PARQUET_WHY_MAX];
    for (int noisy = 0; noisy <= 1; noisy++) {
        out_footer(&o, noisy);
        CHECK(rewrite(o.bytes, o.size, NULL, 0, &got, why) == PARQUET_OK);
        CHECK(got.size == o.size && memcmp(got.bytes, o.bytes, o.size) == 0);
        CHECK(rewrite(o.bytes, o.size, places, 3, &got, why) == PARQUET_OK);
        CHECK(scan(got.bytes, got.size, &s, why) == PARQUET_OK);
        CHECK_STR(s.text,
                  "0/0 id meta=1 enc=0 type=2 len=-1 values=10 filter=4000+47 by=sqlite-bloom "
                  "test\n"
                  "0/1 s.u meta=1 enc=0 type=7 len=16 values=20 filter=9000+1041 by=sqlite-bloom "
                  "test\n"
                  "0/2 name meta=1 enc=0 type=6 len=-1 values=30 filter=6000+-1 by=sqlite-bloom "
                  "test\n"
                  "1/0 id meta=1 enc=0 type=2 len=-1 values=11 filter=10041+79 by=sqlite-bloom "
                  "test\n"
                  "1/1 s.u meta=1 enc=0 type=7 len=16 values=21 filter=5001+79 by=sqlite-bloom "
                  "test\n"
                  "1/2 name meta=1 enc=0 type=6 len=-1 values=31 filter=10120+8209 "
                  "by=sqlite-bloom test\n");
        CHECK(rewrite(got.bytes, got.size, places, 3, &again, why) == PARQUET_OK);
        CHECK(again.size == got.size && memcmp(again.bytes, got.bytes, got.size) == 0);
        /* The bytes before the first chunk given a filter are the footer's. */
        size_t same = 0;
        while (same < o.size && same < got.size && o.bytes[same] == got.bytes[same]) {
            same++;
        }
        CHECK(same > 100);
    }
    /* The bytes after the FileMetaData are copied after it. */
    out_footer(&o, 0);
    memset(o.bytes + o.size, 0xEE, 28);
    CHECK(rewrite(o.bytes, o.size + 28, places, 3, &got, why) == PARQUET_OK);
    CHECK(got.size > 28 && memcmp(got.bytes + got.size - 28, o.bytes + o.size, 28) == 0);
    CHECK(rewrite(got.bytes, got.size - 28, places, 3, &again, why) == PARQUET_OK);
    CHECK(again.size == got.size - 28 && memcmp(again.bytes, got.bytes, again.size) == 0);
}

/* What a rewrite refuses: places out of order, twice, negative, or naming no chunk; a chunk given
** a filter without meta_data; meta_data, row_groups or columns twice; an encrypted file's
** plaintext footer; every truncation; hostile lengths, sizes and nesting in a ColumnMetaData. */
void test_parquet_footer_rewrite_refused(void) {
    thrift_out o, got, meta, c;
    char why[PARQUET_WHY_MAX];
    out_footer(&o, 1);
    static const struct {
        parquet_bloom_place places[2];
        size_t count;
        const char *message;
    } cases[] = {
        {{{0, 1, 10, 10}, {0, 0, 10, 10}},
         2,
         "place 1: row group 0, column chunk 0 after row group 0, column chunk 1 (places go in "
         "order, each chunk once)"},
        {{{1, 1, 10, 10}, {1, 1, 20, 10}},
         2,
         "place 1: row group 1, column chunk 1 after row group 1, column chunk 1 (places go in "
         "order, each chunk once)"},
        {{{0, 0, -1, 10}}, 1, "place 0: a Bloom filter offset -1 and length 10"},
        {{{0, 0, 10, 10}, {0, 1, 10, -5}}, 2, "place 1: a Bloom filter offset 10 and length -5"},
        {{{0, 3, 10, 10}}, 1, "row group 0 has no column chunk 3: it has 3"},
        {{{1, 2, 10, 10}, {2, 0, 10, 10}}, 2, "no row group 2: the footer has 2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(rewrite(o.bytes, o.size, cases[i].places, cases[i].count, &got, why) ==
              PARQUET_INVALID);
        CHECK_STR(why, cases[i].message);
    }

    /* Every proper prefix of the noisy footer is truncated, and never read past. */
    static const parquet_bloom_place places[] = {{0, 0, 1, 1}, {1, 2, 2, 2}};
    size_t truncated = 0;
    for (size_t size = 0; size < o.size; size++) {
        truncated += rewrite(o.bytes, size, places, 2, &got, why) == PARQUET_TRUNCATED;
    }
    CHECK_U64(truncated, o.size);
    CHECK(rewrite(o.bytes, o.size - 1, places, 2, &got, why) == PARQUET_TRUNCATED);
    char expected[PARQUET_WHY_MAX];
    snprintf(expected, sizeof expected,
             "footer truncated: a field header at byte %zu runs past its %zu bytes", o.size - 1,
             o.size - 1);
    CHECK_STR(why, expected);

    /* A chunk without meta_data (an encrypted column's) cannot be given a filter; others can. */
    memset(&c, 0, sizeof c);
    out_begin(&c);
    out_i64_field(&c, 2, 0);
    out_field(&c, 8, T_STRUCT);
    out_begin(&c);
    out_end(&c);
    out_binary_field(&c, 9, "ciphertext");
    out_end(&c);
    out_one_group(&o, c.bytes, c.size, 1, 1);
    parquet_bloom_place first = {0, 0, 10, 10}, second = {0, 1, 10, 10};
    CHECK(rewrite(o.bytes, o.size, &first, 1, &got, why) == PARQUET_INVALID);
    CHECK_STR(why, "malformed footer at byte 57: row group 0, column chunk 0 has no meta_data "
                   "(field 3) to give a Bloom filter");
    CHECK(rewrite(o.bytes, o.size, &second, 1, &got, why) == PARQUET_OK);

    /* meta_data twice, or not a struct. */
    memset(&c, 0, sizeof c);
    out_chunk(&c, 2, "id", 1, 10, 10, 0);
    c.size--;               /* the chunk's stop byte */
    out_byte(&c, T_STRUCT); /* meta_data again, in the long form */
    out_zigzag(&c, 3);
    out_byte(&c, 0);
    out_byte(&c, 0);
    out_one_group(&o, c.bytes, c.size, 1, 1);
    CHECK(rewrite(o.bytes, o.size, &second, 1, &got, why) == PARQUET_INVALID);
    CHECK_STR(why, "malformed footer at byte 79: row group 0, column chunk 0 has its meta_data "
                   "(field 3) twice");
    memset(&c, 0, sizeof c);
    out_begin(&c);
    out_i64_field(&c, 3, 7);
    out_end(&c);
    out_one_group(&o, c.bytes, c.size, 1, 1);
    CHECK(rewrite(o.bytes, o.size, &first, 1, &got, why) == PARQUET_INVALID);
    CHECK_STR(why, "malformed footer at byte 57: ColumnChunk.meta_data (field 3) is of type i64, "
                   "not struct");

    /* row_groups twice; columns twice; encryption_algorithm (8). */
    out_footer(&o, 0);
    o.size--;
    out_byte(&o, T_LIST); /* row_groups again, in the long form */
    out_zigzag(&o, 4);
    out_list(&o, 0, T_STRUCT);
    out_byte(&o, 0);
    CHECK(rewrite(o.bytes, o.size, NULL, 0, &got, why) == PARQUET_INVALID);
    snprintf(expected, sizeof expected,
             "malformed footer at byte %zu: FileMetaData has its row_groups (field 4) twice",
             o.size - 4);
    CHECK_STR(why, expected);
    memset(&c, 0, sizeof c);
    out_chunk(&c, 2, "id", 1, 10, 10, 0);
    out_chunk(&c, 7, "s.u", 1, 10, 10, 0);
    out_chunk(&c, 6, "name", 1, 10, 10, 0);
    out_one_group(&o, c.bytes, c.size, 3, 0);
    o.size -= 2;
    out_byte(&o, 0x09);
    out_zigzag(&o, 1);
    out_list(&o, 0, T_STRUCT);
    out_byte(&o, 0);
    out_byte(&o, 0);
    CHECK(rewrite(o.bytes, o.size, NULL, 0, &got, why) == PARQUET_INVALID);
    CHECK_STR(why, "malformed footer at byte 129: row group 0 has its columns (field 1) twice");
    out_footer(&o, 0);
    o.size--; /* the FileMetaData's stop byte: its fields go on after created_by (6) */
    o.depth++;
    out_field(&o, 8, T_STRUCT);
    out_begin(&o);
    out_end(&o);
    out_end(&o);
    CHECK(rewrite(o.bytes, o.size, NULL, 0, &got, why) == PARQUET_INVALID);
    CHECK_STR(why, "the plaintext footer of an encrypted file (FileMetaData.encryption_algorithm, "
                   "field 8): a footer written again would not match its signature");

    /* Hostile bytes inside the ColumnMetaData being rewritten: a list past the end, a binary
    ** longer than Thrift allows, a varint past 64 bits, an id past an i16, nesting past 64. */
    static const struct {
        uint8_t bytes[16];
        size_t size;
        parquet_status status;
        const char *message;
    } hostile[] = {
        {{0x99, 0xF5, 0xE8, 0x07},
         4,
         PARQUET_TRUNCATED,
         "footer truncated: a list of 1000 elements at byte 44 runs past its 75 bytes"},
        {{0xF8, 0x80, 0x80, 0x80, 0x80, 0x08},
         6,
         PARQUET_INVALID,
         "malformed footer at byte 44: a binary length of 2147483648, above Thrift's 2^31 - 1"},
        {{0x16, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F},
         11,
         PARQUET_INVALID,
         "malformed footer at byte 44: a varint longer than 64 bits"},
        {{0x05, 0x80, 0x80, 0x04, 0x00},
         5,
         PARQUET_INVALID,
         "malformed footer at byte 44: 32768 does not fit an i16"},
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        out_meta_begin(&meta);
        for (size_t b = 0; b < hostile[i].size; b++) {
            out_byte(&meta, hostile[i].bytes[b]);
        }
        out_byte(&meta, 0);
        out_around(&o, &meta, 0);
        parquet_bloom_place place = {0, 0, 1, 1};
        CHECK(rewrite(o.bytes, o.size, &place, 1, &got, why) == hostile[i].status);
        CHECK_STR(why, hostile[i].message);
    }
    out_meta_begin(&meta);
    out_field(&meta, 12, T_STRUCT);
    for (int d = 0; d < PARQUET_MAX_NESTING; d++) {
        out_begin(&meta);
        out_field(&meta, 1, T_STRUCT);
    }
    out_around(&o, &meta, 0);
    parquet_bloom_place place = {0, 0, 1, 1};
    CHECK(rewrite(o.bytes, o.size, &place, 1, &got, why) == PARQUET_INVALID);
    CHECK_STR(why, "malformed footer at byte 102: structs, lists and maps nested deeper than 64");
}
