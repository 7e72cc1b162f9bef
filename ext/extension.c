/*
** extension.c: the entry point of sqlite-bloom, which registers every SQL
** function, and bloom_version().
**
** Load it with ".load ./bloom" in the sqlite3 shell, or with
** sqlite3_load_extension(db, "path/to/bloom", 0, &err). Compiled with
** -DSQLITE_CORE, call sqlite3_bloom_init() yourself (sqlite3_auto_extension).
** The SQL behaviour of every function is the numbered rule list of
** docs/functions.md.
*/
#include "sql_api.h"

#include "countmin_functions.h"
#include "parquet_functions.h"
#include "parquet_writer.h"
#include "filter_functions.h"
#include "in_place_functions.h"
#include "live_schema.h"
#include "live_table.h"
#include "parquet_files.h"
#include "sql_function.h"
#include "spark_functions.h"
#include "sqlite_bloom.h"

#include <stddef.h>
#include <string.h>

#ifndef BLOOM_VERSION
#error "BLOOM_VERSION must be defined by the build (CMake's project version)"
#endif

#if defined(_WIN32)
#define BLOOM_EXPORT __declspec(dllexport)
#else
#define BLOOM_EXPORT __attribute__((visibility("default")))
#endif

BLOOM_DEFINE_API

/* The oldest SQLite the extension runs on (rule 16 (loading)). */
#define MIN_SQLITE_VERSION 3031000

/* bloom_version(): rule 12 (version). */
static void bloom_version_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, BLOOM_VERSION, -1, SQLITE_STATIC);
}

static const sql_function extension_functions[] = {
    {.name = "bloom_version", .nargs = 0, .func = bloom_version_func, .effects = SQL_PURE},
    SQL_WRONG_ARGUMENTS("bloom_version", "the form is bloom_version()"),
    {.name = NULL}, /* the end */
};

/* Every table of functions to register. A file with functions of its own adds its table. */
static const sql_function *const extension_tables[] = {
    extension_functions, filter_functions, in_place_functions,       countmin_functions,
    parquet_functions,   spark_functions,  parquet_writer_functions,
};

/* Whether db already has this version's functions: bloom_version() answers BLOOM_VERSION. */
static int extension_registered_already(sqlite3 *db) {
    sqlite3_stmt *stmt = NULL;
    int same = sqlite3_prepare_v2(db, "SELECT bloom_version()", -1, &stmt, NULL) == SQLITE_OK &&
               sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_type(stmt, 0) == SQLITE_TEXT &&
               strcmp((const char *)sqlite3_column_text(stmt, 0), BLOOM_VERSION) == 0;
    sqlite3_finalize(stmt);
    return same;
}

/*
** Registers the functions of table on db (rule 15 (flags)). While statements
** run, SQLite refuses to redefine a function (SQLITE_BUSY): that is no error
** when this version's functions are already there (rule 16 (loading)).
** Returns SQLITE_OK, or the error of the first that fails with a message in
** *error.
*/
static int extension_register(sqlite3 *db, const sql_function *table, char **error) {
    for (const sql_function *f = table; f->name != NULL; f++) {
        int flags = SQLITE_UTF8 | (f->effects == SQL_PURE ? SQLITE_DETERMINISTIC : 0) |
                    (f->effects == SQL_PURE ? SQLITE_INNOCUOUS : 0) |
                    (f->effects == SQL_WRITES_FILES ? SQLITE_DIRECTONLY : 0);
        int rc = sqlite3_create_function(db, f->name, f->nargs, flags, (void *)f, f->func, f->step,
                                         f->final);
        if (rc == SQLITE_OK) {
            continue;
        }
        char *message =
            sqlite3_mprintf("bloom: cannot register %s(): %s", f->name, sqlite3_errmsg(db));
        if (rc == SQLITE_BUSY && extension_registered_already(db)) {
            sqlite3_free(message);
            continue;
        }
        if (error != NULL) {
            *error = message;
        } else {
            sqlite3_free(message);
        }
        return rc;
    }
    return SQLITE_OK;
}

BLOOM_EXPORT int sqlite3_bloom_init(sqlite3 *db, char **pzErrMsg,
                                    const sqlite3_api_routines *pApi) {
    char *message = NULL;
    BLOOM_STORE_API(pApi);
    /* sqlite3_str (3.25) and SQLITE_INNOCUOUS (3.31): refuse older libraries, whose
    ** routine tables end before what this code calls. */
    if (sqlite3_libversion_number() < MIN_SQLITE_VERSION) {
        if (pzErrMsg != NULL) {
            *pzErrMsg = sqlite3_mprintf("bloom: needs SQLite 3.31.0 or later, this is %s",
                                        sqlite3_libversion());
        }
        return SQLITE_ERROR;
    }
    /* Asked before anything is registered, so that a load that cannot keep the promise of rule
    ** 26 (live table) to defensive mode leaves nothing behind. */
    int read = live_schema_was_read(db), read_again;
    int rc = live_schema_check(db, read, read && extension_registered_already(db), &read_again,
                               &message);
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof extension_tables / sizeof extension_tables[0];
         i++) {
        rc = extension_register(db, extension_tables[i], &message);
    }
    const char *module = "bloom";
    if (rc == SQLITE_OK && (rc = live_table_register(db)) == SQLITE_OK) {
        module = "bloom_parquet_filters";
        rc = parquet_files_register(db);
    }
    if (rc != SQLITE_OK && message == NULL) {
        message =
            sqlite3_mprintf("bloom: cannot register the module %s: %s", module, sqlite3_errmsg(db));
    }
    if (rc == SQLITE_OK && read_again) {
        rc = live_schema_read_again(db, &message);
    }
    if (pzErrMsg != NULL) {
        *pzErrMsg = message;
    } else {
        sqlite3_free(message);
    }
    return rc;
}
