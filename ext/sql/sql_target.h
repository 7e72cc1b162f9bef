/*
** sql_target.h: the column the in-place functions name by their TABLE and
** COLUMN arguments (rule 19 (in place)), and the guards SQLite keeps for it,
** checked once per statement before any byte is read or written:
**   - the names are TEXT without NUL; the schema, table and column exist;
**   - the rowid is reached by a name that no column hides;
**   - the table has no generated columns (SQLite's incremental BLOB I/O
**     cannot open such a table: 3.40 reads another column);
**   - the application's authorizer lets a SELECT of the column by, and for a
**     writer an UPDATE of it;
**   - for a writer, an UPDATE of the column would do nothing that a write of
**     its bytes does not: the authorizer keeps the column in it (not
**     SQLITE_IGNORE), and no trigger, constraint, index or foreign key depends
**     on the column, as SQLite's own program for that UPDATE shows; and the
**     table is not a shadow table while defensive mode is on.
*/
#ifndef SQL_TARGET_H
#define SQL_TARGET_H

#include "sql_api.h"

/* A column that in-place functions read or write, checked. */
typedef struct stored_target {
    char *table_arg;  /* TABLE as given */
    char *column_arg; /* COLUMN as given */
    char *schema;     /* TABLE's schema, "main" when it names none */
    char *table;
    const char *rowid;            /* a name of the rowid that no column hides */
    int writable;                 /* checked for a writer */
    int in_use;                   /* a call uses it: the auxdata destructor leaves it */
    int dropped;                  /* SQLite dropped it while in use: target_release frees it */
    sqlite3_stmt *type_query;     /* SELECT typeof(column) ... WHERE rowid = ?1 */
    sqlite3_stmt *version_query;  /* PRAGMA schema.schema_version */
    sqlite3_int64 schema_version; /* the schema's, read before the checks */
    char *update_sql;             /* a writer's: UPDATE ... SET column = ?2 WHERE rowid = ?1 */
} stored_target;

/* The target that func's arguments TABLE and COLUMN (argv[0..1]) name, checked for a writer
** (writable) or a reader; rowid (argv[2], read) only shows in messages. The statement's (its
** auxdata), from an earlier call with the same names, or made, checked and kept now, before
** anything is written. NULL after setting the error. Hand it back to target_release. */
stored_target *target_find(sqlite3_context *ctx, const char *func, sqlite3_value **argv,
                           int writable, sqlite3_int64 rowid);

/* Checks again, as target_find did, that an UPDATE of t's column would do nothing that a write
** of its bytes does not (before a writer runs that UPDATE itself). Returns 1, or 0 after
** setting the error. */
int target_check_update(sqlite3_context *ctx, const char *func, const stored_target *t,
                        sqlite3_int64 rowid);

/* Whether t's checks still hold: the schema's version is the one they were made under (another
** connection may have changed the schema since, between two calls of a statement that holds no
** lock, or between the checks and the cell's opening). Called with the cell open, whose lock
** keeps the schema as it is until it closes. 1 when it is, 0 when it changed (or cannot be
** read), -1 after setting NOMEM. */
int target_unchanged(sqlite3_context *ctx, stored_target *t);

/* Drops the statement's t (from target_find), so that the next target_find checks again. */
void target_forget(sqlite3_context *ctx, stored_target *t);

/* Ends a call's use of t (from target_find; NULL does nothing). */
void target_release(stored_target *t);

#endif /* SQL_TARGET_H */
