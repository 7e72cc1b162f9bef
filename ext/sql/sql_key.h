/*
** sql_key.h: a key (key_value) beyond the SQL value it was read from: kept, its bytes copied,
** while the value is gone (a virtual table's scan keeps the key of its xFilter); and given back
** as a result, of its own type.
*/
#ifndef SQL_KEY_H
#define SQL_KEY_H

#include "sql_api.h"

#include "key_hash.h"

#include <stdint.h>

/* A key kept: value, its bytes (TEXT, BLOB) in a buffer of its own, kept for the next. */
typedef struct sql_kept_key {
    key_value value;
    uint8_t *bytes;
    uint64_t capacity;
} sql_kept_key;

/* Keeps the key of v, not NULL, in k, copying its bytes. SQLITE_OK or SQLITE_NOMEM. */
int sql_keep_key(sql_kept_key *k, sqlite3_value *v);

/* Frees what k holds. */
void sql_kept_key_free(sql_kept_key *k);

/* Sets the result of ctx to key, of its type: INTEGER, REAL, TEXT or BLOB. */
void sql_result_key(sqlite3_context *ctx, const key_value *key);

#endif /* SQL_KEY_H */
