/*
** sql_json.c: JSON text as a function's result. See sql_json.h.
*/
#include "sql_json.h"

#include "filter_info.h"

#include <stddef.h>

/* An info_sink that appends to an sqlite3_str. */
typedef struct sql_json_sink {
    info_sink sink; /* first: the callbacks get this struct */
    sqlite3_str *json;
} sql_json_sink;

/* The info_sink's text: appended as it is. */
static void sql_json_text(info_sink *sink, const char *text) {
    sqlite3_str_appendall(((sql_json_sink *)sink)->json, text);
}

void sql_json_info(sqlite3_str *json, const filter_view *f) {
    sql_json_sink out = {{sql_json_text, 0}, json};
    filter_info(f, &out.sink);
}

void sql_result_json(sqlite3_context *ctx, sqlite3_str *json) {
    int rc = sqlite3_str_errcode(json);
    char *text = sqlite3_str_finish(json);
    if (rc == SQLITE_OK && text != NULL) {
        sqlite3_result_text(ctx, text, -1, sqlite3_free);
        return;
    }
    sqlite3_free(text);
    if (rc == SQLITE_TOOBIG) {
        sqlite3_result_error_toobig(ctx);
    } else {
        sqlite3_result_error_nomem(ctx);
    }
}
