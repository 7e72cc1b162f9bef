/*
** live_schema.h: that SQLite knows a live table's shadow tables as such, however the extension
** was loaded (rule 26 (live table)).
**
** SQLite marks a table as a shadow table, which defensive mode keeps SQL from writing, when it
** reads the schema with the module of its virtual table registered. A connection that read its
** schema before the extension loaded holds the live tables' shadow tables as plain tables, and
** keeps them so until it reads the schema again: the load has it do so.
*/
#ifndef LIVE_SCHEMA_H
#define LIVE_SCHEMA_H

#include "sql_api.h"

/* Whether db holds schemas it read (their memory, SQLITE_DBSTATUS_SCHEMA_USED): asked first,
** before any statement of the load. */
int live_schema_was_read(sqlite3 *db);

/* Asked before the extension registers anything on db: whether SQLite must read db's schemas
** again once the module is registered, into *again: it read them before the load (read), they
** hold a live table, and the module was not registered then (registered: this version's is
** there). When it must but cannot (a statement runs or a transaction is open), SQLITE_ERROR
** with a message in *error that says how to load instead; SQLITE_OK, or another error reading
** the schemas. */
int live_schema_check(sqlite3 *db, int read, int registered, int *again, char **error);

/* Has SQLite read db's schemas again (PRAGMA writable_schema = RESET, which expires db's
** statements, writable_schema kept as it was; where SQLite knows no RESET, a TEMP table made in
** a savepoint and rolled back, which does the same), after live_schema_check said so. */
int live_schema_read_again(sqlite3 *db, char **error);

#endif /* LIVE_SCHEMA_H */
