/*
** live_module.h: the records of the bloom virtual table's module (live_table.c) and its changes
** (live_changes.c): its columns and plans, a table and a cursor.
*/
#ifndef LIVE_MODULE_H
#define LIVE_MODULE_H

#include "sql_api.h"

#include "live_index.h"
#include "live_store.h"
#include "sql_key.h"

/* The columns, in the order of the declaration. */
enum {
    COLUMN_NAME,
    COLUMN_KEY,
    COLUMN_FILTER,
    COLUMN_COUNT,
    COLUMN_COMMAND /* named as the table: INSERT INTO t(t) VALUES ('optimize'), as FTS5 has it */
};

/* A plan's idxNum: which constraints its arguments hold, in this order. */
enum {
    PLAN_KEY = 1,           /* key = ?: rows are the filters that might hold it */
    PLAN_NAME_EQUALS = 2,   /* name = ?: a NULL matches nothing */
    PLAN_NAME_IS = 4,       /* name IS ?: a NULL is the unnamed filter */
    PLAN_NAME_NULL = 8,     /* name IS NULL: the unnamed filter */
    PLAN_KEY_MISSING = 16,  /* key read without key = ?: refused as it is read (xColumn) */
    PLAN_KEY_COLLATED = 32, /* key = ? COLLATE C, C not BINARY: refused (xFilter) */
    PLAN_KEY_NULL = 64      /* key IS NULL: no filter holds NULL, so no row */
};

/* A row found by key, which DELETE may name by its rowid. */
typedef struct live_token {
    sqlite3_int64 filter;
    key_hash key;
} live_token;

/* Keys added one a row wait, up to this many, to be added together: their lines are fetched
** from memory at once (live_filter_prefetch), where a bulk load would wait for each. */
enum { LIVE_BATCH_KEYS = 32 };

/*
** A live table. A row found by key has a token as its rowid, a negative
** number, which the DELETE that found it gives back (SQLite closes a one-pass
** DELETE's cursor first); the tokens last until the next statement that
** writes the table (xBegin, xSavepoint), the end of its transaction, or a
** cursor opened outside one.
*/
typedef struct live_table {
    sqlite3_vtab base;
    sqlite3 *db;
    char *name; /* for messages */
    live_store *store;
    int writing; /* in a write transaction: between xBegin and its end */
    live_token *tokens;
    size_t token_count, token_capacity;
    struct live_cursor *spare; /* a closed cursor, for the next xOpen */
    /* Keys waiting to be added to batch_filter (live_batch_add), at most LIVE_BATCH_KEYS. */
    live_filter *batch_filter;
    key_hash batch[LIVE_BATCH_KEYS];
    int batch_count;
    int keys_lost;           /* an add failed halfway: the transaction lost keys, cannot commit */
    int made_in_transaction; /* by xCreate in the open transaction (live_before_writing) */
    int tables_not_ours;     /* its rows gone with a ROLLBACK TO that undid its making */
    int busy;                /* in a call of the module (live_enter) */
    int rollback_pending;    /* 2: xRollback, 1: xRollbackTo, within a call, done as it ends */
} live_table;

/* A cursor. */
typedef struct live_cursor {
    sqlite3_vtab_cursor base;
    int plan;
    int eof;
    int has_key; /* a PLAN_KEY scan's key (not NULL) is kept in key, past xFilter */
    sql_kept_key key;
    int checked;          /* the store checked for other connections' commits (at its first scan) */
    int single;           /* one filter, by name */
    live_filter *current; /* the row's filter, while the list is of generation */
    sqlite3_int64 current_id; /* its id, which outlasts it */
    size_t position;          /* of current, in the store's list */
    uint64_t generation;      /* of the list position is in */
    key_hash current_key;     /* the key hashed for current's kind */
    uint64_t estimate;        /* for the key, of a kind that counts its keys */
    /* A scan by key with an index: the filters that might hold it (live_index_candidates), in
    ** the order of their ids, and the place of current among them. */
    int by_candidates;
    live_candidates candidates;
    size_t candidate_at;
} live_cursor;

#endif /* LIVE_MODULE_H */
