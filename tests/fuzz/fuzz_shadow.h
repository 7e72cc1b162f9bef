/*
** fuzz_shadow.h: the input encoding of fuzz_shadow.c (a live table whose shadow tables' rows are
** hostile), shared with gen_corpus_shadow.c, which writes its seeds. fuzz_shadow.c's header
** comment says what each part means.
*/
#ifndef BLOOM_FUZZ_SHADOW_H
#define BLOOM_FUZZ_SHADOW_H

/* The configuration byte: bits 0-3 the kind (modulo the kinds a live table takes, in the order
** of the table of kinds), then flags. */
enum {
    SHADOW_KIND_MASK = 15,
    SHADOW_SMALL_PAGES = 16, /* pages of 512 bytes (chunks of 448), else 4,096 (4,032) */
    SHADOW_SMALL_LIMIT = 32, /* SQLITE_LIMIT_LENGTH 100,000, else 1,000,000 */
    SHADOW_INDEXED = 64      /* the index made once the keys are in: its rows, too, to change */
};

/* The operations: an opcode byte, modulo SHADOW_OPS. The first four are the second
** connection's writes to the shadow tables, the others the first connection's statements on
** the live table. */
enum {
    SHADOW_SET,      /* table, row, column, value: UPDATE of one column of one row */
    SHADOW_PUT64,    /* row, field, 8 bytes: the 8 bytes at 8 + 8 * (field % 7) of a header */
    SHADOW_INSERT,   /* table, a value per column: INSERT OR REPLACE of a row */
    SHADOW_DELETE,   /* table, row */
    SHADOW_PROBE,    /* key: SELECT name, key, count FROM t WHERE key = ? */
    SHADOW_PROBE_AT, /* name, key: ... WHERE name IS ? AND key = ? */
    SHADOW_ADD,      /* name, key: INSERT INTO t(name, key) */
    SHADOW_REMOVE,   /* key: DELETE FROM t WHERE key = ? */
    SHADOW_SNAPSHOT, /* SELECT name, length(filter), count FROM t */
    SHADOW_CHECK,    /* PRAGMA integrity_check, then quick_check */
    SHADOW_LOAD,     /* name, value: INSERT OR REPLACE INTO t(name, filter) */
    SHADOW_DROP,     /* name: DELETE FROM t WHERE name IS ? */
    SHADOW_BEGIN,
    SHADOW_COMMIT,
    SHADOW_ROLLBACK,
    SHADOW_REOPEN, /* the first connection closed and opened again: the rows read anew */
    SHADOW_OPS
};

/* Operands: a table a byte modulo SHADOW_TABLES; a row a byte, the row at that place (modulo
** the rows) in the order of the table's key; a column a byte modulo the table's columns; a name
** a byte modulo SHADOW_NAMES (NULL, 'a', 'b', 'c'); a key or a value a fuzz value. */
enum { SHADOW_CONFIG, SHADOW_FILTERS, SHADOW_CHUNKS, SHADOW_TABLES };
enum { SHADOW_NAMES = 4 };

#endif /* BLOOM_FUZZ_SHADOW_H */
