/*
** sql_json.c: JSON text as a function's result. See sql_json.h.
*/
#include "sql_json.h"

#include <math.h>
#include <stddef.h>

void sql_json_number(sqlite3_str *json, const char *format, double v) {
    if (isinf(v)) {
        sqlite3_str_appendall(json, "null");
    } else {
        sqlite3_str_appendf(json, format, v);
    }
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
