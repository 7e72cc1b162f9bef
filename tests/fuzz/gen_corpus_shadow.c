/*
** gen_corpus_shadow.c: fuzz_shadow's seeds. For every kind a live table takes: its statements
** on rows as the table wrote them, then on rows changed one column at a time (a chunk's count at
** the largest INTEGER, a chunk's bytes gone, a filter's chunk size, each row of t_config); for
** the Bloom kinds, filters whose rows claim about 2^32 chunks, and three that claim the longest
** BLOB SQLite allows in chunks of 64 bytes, the crafted files a red team made to crash 0.2.0;
** for the kinds the index answers for, its rows changed (a class's head, a group's map, a row
** of bits, a row at an id of nothing, a row gone).
*/
#include "bloom_core.h"
#include "filter_kinds.h"
#include "fuzz_shadow.h"
#include "gen_corpus.h"

#include <stdio.h>
#include <string.h>

/* The chunk size of a table on pages of 4,096 bytes. */
#define CHUNK_BYTES 4032u

/* Appends an operation that names a filter, by its index in fuzz_shadow.c's names. */
static void put_named(seed *s, unsigned op, unsigned name) {
    put_u8(s, op);
    put_u8(s, name);
}

/* Appends SHADOW_SET of column of the row at place row of table to an INTEGER. */
static void put_set_integer(seed *s, unsigned table, unsigned row, unsigned column, int64_t v) {
    put_u8(s, SHADOW_SET);
    put_u8(s, table);
    put_u8(s, row);
    put_u8(s, column);
    put_integer(s, FUZZ_INTEGER, v);
}

/* Appends SHADOW_PUT64 of v at header field of the filter at place row. */
static void put_header_field(seed *s, unsigned row, unsigned field, uint64_t v) {
    put_u8(s, SHADOW_PUT64);
    put_u8(s, row);
    put_u8(s, field);
    put_u64(s, v);
}

/* Appends the statements that read and change every filter: probes, an add, a remove, a
** snapshot, the checks, a BLOB loaded, a filter dropped, a transaction rolled back, the rows read
** anew. */
static void put_statements(seed *s) {
    put_u8(s, SHADOW_PROBE);
    put_integer(s, FUZZ_INTEGER, 5);
    put_named(s, SHADOW_PROBE_AT, 1);
    put_integer(s, FUZZ_INTEGER, 7);
    put_named(s, SHADOW_ADD, 3);
    put_text(s, "x");
    put_u8(s, SHADOW_REMOVE);
    put_integer(s, FUZZ_INTEGER, 3);
    put_u8(s, SHADOW_SNAPSHOT);
    put_u8(s, SHADOW_CHECK);
    put_named(s, SHADOW_LOAD, 3);
    put_string(s, FUZZ_BLOB, "SQBF", 4);
    put_u8(s, SHADOW_BEGIN);
    put_named(s, SHADOW_ADD, 1);
    put_integer(s, FUZZ_INTEGER, 99);
    put_u8(s, SHADOW_ROLLBACK);
    put_named(s, SHADOW_DROP, 2);
    put_u8(s, SHADOW_REOPEN);
    put_u8(s, SHADOW_PROBE);
    put_integer(s, FUZZ_INTEGER, 5);
    put_u8(s, SHADOW_SNAPSHOT);
}

/* Appends changes of one column at a time, each followed by statements that read it. */
static void put_changed_rows(seed *s) {
    put_set_integer(s, SHADOW_CHUNKS, 0, 1, INT64_MAX); /* a chunk's part of the count */
    put_named(s, SHADOW_ADD, 0);
    put_integer(s, FUZZ_INTEGER, 5);
    put_u8(s, SHADOW_SNAPSHOT);
    put_u8(s, SHADOW_SET); /* a chunk's bytes gone */
    put_u8(s, SHADOW_CHUNKS);
    put_u8(s, 1);
    put_u8(s, 2);
    put_string(s, FUZZ_BLOB, "", 0);
    put_u8(s, SHADOW_SNAPSHOT);
    put_set_integer(s, SHADOW_FILTERS, 1, 4, 64); /* a filter's chunk size */
    put_u8(s, SHADOW_REOPEN);
    put_u8(s, SHADOW_PROBE);
    put_integer(s, FUZZ_INTEGER, 1);
    put_u8(s, SHADOW_CHECK);
    for (unsigned row = 0; row < 5; row++) { /* each row of t_config, in the order of its keys */
        put_set_integer(s, SHADOW_CONFIG, row, 1, -1);
        put_u8(s, SHADOW_REOPEN);
        put_u8(s, SHADOW_PROBE);
        put_integer(s, FUZZ_INTEGER, 1);
    }
}

/* Appends SHADOW_PROBE of the keys 1, 2 and 3. */
static void put_probes_of_1_to_3(seed *s) {
    for (int64_t key = 1; key <= 3; key++) {
        put_u8(s, SHADOW_PROBE);
        put_integer(s, FUZZ_INTEGER, key);
    }
}

/* Appends filters whose rows claim a body of body bytes in chunks of chunk_bytes (the filters at
** places 0 to filters - 1; a Bloom kind's m, the header's field 1, to match), then statements. */
static void put_claims(seed *s, unsigned filters, uint64_t body, unsigned chunk_bytes) {
    for (unsigned row = 0; row < filters; row++) {
        put_header_field(s, row, 1, body * 8);
        put_set_integer(s, SHADOW_FILTERS, row, 3, (int64_t)(64 + body));
        put_set_integer(s, SHADOW_FILTERS, row, 4, chunk_bytes);
    }
    put_u8(s, SHADOW_REOPEN);
    put_probes_of_1_to_3(s);
    put_named(s, SHADOW_ADD, 0);
    put_integer(s, FUZZ_INTEGER, 5);
    put_u8(s, SHADOW_SNAPSHOT);
    put_u8(s, SHADOW_CHECK);
}

/* Appends SHADOW_SET of the data of the row at place row of t_chunks to size bytes of fill. */
static void put_set_chunk_data(seed *s, unsigned row, uint8_t fill, size_t size) {
    uint8_t bytes[128];
    memset(bytes, fill, size);
    put_u8(s, SHADOW_SET);
    put_u8(s, SHADOW_CHUNKS);
    put_u8(s, row);
    put_u8(s, 2);
    put_string(s, FUZZ_BLOB, bytes, size);
}

/* Appends the statements that read the index: probes, a probe by name, the checks. */
static void put_index_reads(seed *s) {
    put_probes_of_1_to_3(s);
    put_named(s, SHADOW_PROBE_AT, 2);
    put_integer(s, FUZZ_INTEGER, 30);
    put_u8(s, SHADOW_CHECK);
}

/* Appends changes of the index's rows (the first of t_chunks: the class's head, its map, then
** its rows of bits), the least harmful first, each read at once and after the table is opened
** again. */
static void put_index_changes(seed *s) {
    put_index_reads(s);
    put_set_chunk_data(s, 5, 0x00, 1); /* a row of bits of another length */
    put_index_reads(s);
    put_u8(s, SHADOW_INSERT); /* a row at an id of no class */
    put_u8(s, SHADOW_CHUNKS);
    put_integer(s, FUZZ_INTEGER, -5);
    put_integer(s, FUZZ_INTEGER, 0);
    put_string(s, FUZZ_BLOB, "\x01", 1);
    put_index_reads(s);
    put_set_chunk_data(s, 1, 0xFF, 12); /* the map: filters that are not */
    put_u8(s, SHADOW_REOPEN);
    put_index_reads(s);
    put_set_chunk_data(s, 0, 0xFF, 80); /* the head: a class of every column */
    put_u8(s, SHADOW_REOPEN);
    put_index_reads(s);
    put_u8(s, SHADOW_DELETE); /* the head gone */
    put_u8(s, SHADOW_CHUNKS);
    put_u8(s, 0);
    put_u8(s, SHADOW_REOPEN);
    put_index_reads(s);
    put_statements(s);
}

void write_shadow_corpus(const char *dir) {
    const filter_kind *kind;
    unsigned choice = 0;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        if (!filter_kind_can(kind, FILTER_ADDS_IN_PLACE)) {
            continue;
        }
        char name[64];
        seed s = {.size = 0};
        put_u8(&s, choice);
        put_statements(&s);
        snprintf(name, sizeof name, "%s-statements", kind->name);
        write_file(dir, "fuzz_shadow", name, s.bytes, s.size);
        s.size = 0;
        put_u8(&s, choice | SHADOW_SMALL_PAGES | SHADOW_SMALL_LIMIT);
        put_changed_rows(&s);
        snprintf(name, sizeof name, "%s-changed-rows", kind->name);
        write_file(dir, "fuzz_shadow", name, s.bytes, s.size);
        if (kind->probe_bits != NULL) {
            s.size = 0;
            put_u8(&s, choice | SHADOW_INDEXED | SHADOW_SMALL_PAGES);
            put_index_changes(&s);
            snprintf(name, sizeof name, "%s-index-rows", kind->name);
            write_file(dir, "fuzz_shadow", name, s.bytes, s.size);
        }
        if (kind->id == BLOOM_LAYOUT_STANDARD || kind->id == BLOOM_LAYOUT_BLOCKED) {
            s.size = 0;
            put_u8(&s, choice);
            put_claims(&s, 1, (((uint64_t)1 << 32) - 1) * CHUNK_BYTES, CHUNK_BYTES);
            snprintf(name, sizeof name, "%s-claims-4-billion-chunks", kind->name);
            write_file(dir, "fuzz_shadow", name, s.bytes, s.size);
            s.size = 0;
            put_u8(&s, choice);
            put_claims(&s, 3, ((uint64_t)1 << 31) - 128, 64);
            snprintf(name, sizeof name, "%s-claims-the-longest-blob", kind->name);
            write_file(dir, "fuzz_shadow", name, s.bytes, s.size);
        }
        choice++;
    }
}
