/*
** sql_args.c: reading the shared arguments. See sql_args.h.
*/
#include "sql_args.h"

#include "sql_error.h"

#include <math.h>

int sql_read_capacity(sqlite3_context *ctx, const char *func, sqlite3_value *v, uint64_t *n) {
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        *n = 0;
        return 1;
    case SQLITE_INTEGER:
        if (sqlite3_value_int64(v) >= 1) {
            *n = (uint64_t)sqlite3_value_int64(v);
            return 1;
        }
        break;
    case SQLITE_FLOAT: {
        double r = sqlite3_value_double(v);
        if (r >= 9223372036854775808.0) {
            sql_error_value(ctx, func, "n must be at most 9223372036854775807", v);
            return 0;
        }
        if (r >= 1.0 && r == floor(r)) {
            *n = (uint64_t)r;
            return 1;
        }
        break;
    }
    }
    sql_error_value(ctx, func, "n must be a whole number >= 1 or NULL", v);
    return 0;
}

int sql_read_rate(sqlite3_context *ctx, const char *func, sqlite3_value *v, double *p) {
    if (sqlite3_value_type(v) == SQLITE_FLOAT) {
        *p = sqlite3_value_double(v);
        if (filter_check_rate(*p) == FILTER_OK) {
            return 1;
        }
    }
    sql_error_value(ctx, func, "p must be between 0 and 1 (exclusive)", v);
    return 0;
}
