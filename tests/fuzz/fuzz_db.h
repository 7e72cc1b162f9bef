/*
** fuzz_db.h: what the SQL fuzz targets share: an in-memory database with
** the extension registered, fuzz values bound to statements, and statements
** stepped with every result code checked.
*/
#ifndef BLOOM_FUZZ_DB_H
#define BLOOM_FUZZ_DB_H

#include "fuzz_input.h"

#include <sqlite3.h>

/* Text encodings of the database, chosen by a byte modulo FUZZ_ENCODINGS. */
enum { FUZZ_ENCODINGS = 3 };

/* Opens an in-memory database in the text encoding chosen by encoding (UTF-8, UTF-16le,
** UTF-16be), runs schema in it and registers the extension by calling sqlite3_bloom_init.
** Aborts on failure. */
sqlite3 *fuzz_db_open(unsigned encoding, const char *schema);

/* Closes db, which must have no statement left; aborts unless that succeeds. */
void fuzz_db_close(sqlite3 *db);

/* Prepares sql, which must be valid; aborts otherwise. */
sqlite3_stmt *fuzz_db_prepare(sqlite3 *db, const char *sql);

/* Finalizes stmt; aborts unless that succeeds. */
void fuzz_db_finalize(sqlite3_stmt *stmt);

/* Runs sql, which must succeed; aborts otherwise. */
void fuzz_db_exec(sqlite3 *db, const char *sql);

/* Binds v to parameter index of stmt; a value longer than the length limit binds as NULL. */
void fuzz_db_bind(sqlite3_stmt *stmt, int index, const fuzz_value *v);

/* Binds bytes as a BLOB to parameter index of stmt; aborts on failure. */
void fuzz_db_bind_blob(sqlite3_stmt *stmt, int index, const uint8_t *bytes, size_t length);

/* Steps stmt once. Returns SQLITE_ROW, SQLITE_DONE, or an error a function of the extension
** may raise (SQLITE_ERROR, SQLITE_TOOBIG); aborts on any other code (SQLITE_NOMEM,
** SQLITE_MISUSE, SQLITE_INTERNAL...). */
int fuzz_db_step(sqlite3_stmt *stmt);

/* fuzz_db_step for a statement that calls the in-place functions, which may also return
** SQLITE_AUTH (the authorizer denies) and SQLITE_READONLY (a read-only database). */
int fuzz_db_step_in_place(sqlite3_stmt *stmt);

/* Resets stmt after its last step returned last_step; aborts if the reset disagrees. */
void fuzz_db_reset(sqlite3_stmt *stmt, int last_step);

/* Steps stmt to the end and resets it. Returns SQLITE_DONE or the error, as fuzz_db_step. */
int fuzz_db_run(sqlite3_stmt *stmt);

/* fuzz_db_run with fuzz_db_step_in_place. */
int fuzz_db_run_in_place(sqlite3_stmt *stmt);

#endif /* BLOOM_FUZZ_DB_H */
