/*
** live_table.h: the bloom virtual table, a live filter (rule 26 (live table)).
*/
#ifndef LIVE_TABLE_H
#define LIVE_TABLE_H

#include "sql_api.h"

/* Registers the module "bloom" on db: SQLITE_OK or SQLite's error. */
int live_table_register(sqlite3 *db);

#endif /* LIVE_TABLE_H */
