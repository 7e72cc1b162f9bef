/*
** sql_key.c: a key beyond its SQL value. See sql_key.h.
*/
#include "sql_key.h"

#include "sql_args.h"

#include <string.h>

int sql_keep_key(sql_kept_key *k, sqlite3_value *v) {
    if (sql_key_value_of(v, &k->value) != SQL_KEY_READ) {
        return SQLITE_NOMEM;
    }
    if (k->value.type == KEY_TAG_TEXT || k->value.type == KEY_TAG_BLOB) {
        if (k->value.length > k->capacity) {
            uint8_t *grown = sqlite3_realloc64(k->bytes, k->value.length);
            if (grown == NULL) {
                return SQLITE_NOMEM;
            }
            k->bytes = grown;
            k->capacity = k->value.length;
        }
        if (k->value.length > 0) {
            memcpy(k->bytes, k->value.bytes, k->value.length);
        }
        k->value.bytes = k->bytes;
    }
    return SQLITE_OK;
}

void sql_kept_key_free(sql_kept_key *k) {
    sqlite3_free(k->bytes);
    k->bytes = NULL;
    k->capacity = 0;
}

void sql_result_key(sqlite3_context *ctx, const key_value *key) {
    switch (key->type) {
    case KEY_TAG_INTEGER:
        sqlite3_result_int64(ctx, key->integer);
        break;
    case KEY_TAG_REAL:
        sqlite3_result_double(ctx, key->real);
        break;
    case KEY_TAG_TEXT:
        sqlite3_result_text64(ctx, key->length > 0 ? key->bytes : "", key->length, SQLITE_TRANSIENT,
                              SQLITE_UTF8);
        break;
    default:
        sqlite3_result_blob64(ctx, key->length > 0 ? key->bytes : "", key->length,
                              SQLITE_TRANSIENT);
    }
}
