/*
** sql_json.h: JSON text as a function's result (bloom_info, rule 11 (info)).
*/
#ifndef SQL_JSON_H
#define SQL_JSON_H

#include "sql_api.h"

#include "filter.h"

/* Appends the JSON object of bloom_info for f (filter_info.h) to json. */
void sql_json_info(sqlite3_str *json, const filter_view *f);

/* Makes the text built in json the result of ctx and frees json: SQLITE_TOOBIG when it grew
** past the connection's length limit (build it with sqlite3_str_new(db)), NOMEM when it could
** not grow. */
void sql_result_json(sqlite3_context *ctx, sqlite3_str *json);

#endif /* SQL_JSON_H */
