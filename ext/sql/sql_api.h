/*
** sql_api.h: SQLite's interface for the SQL side of the extension. Include it
** instead of sqlite3ext.h, in every file that calls SQLite.
**
** A loadable extension calls SQLite through the routine table it is handed
** at load time (sqlite3ext.h turns every sqlite3_* call into a call through
** sqlite3_api). Every load stores that pointer, from whichever thread opens a
** connection, while other threads call the functions: an atomic makes that no
** data race; relaxed is enough, the table it points to is SQLite's and never
** changes. Without C11 atomics it is SQLite's usual plain pointer; with
** SQLITE_CORE (the static library) there is none. extension.c defines it.
*/
#ifndef SQL_API_H
#define SQL_API_H

#include "sqlite3ext.h"

#if !defined(SQLITE_CORE) && !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
extern _Atomic(const sqlite3_api_routines *) bloom_api;
#define sqlite3_api atomic_load_explicit(&bloom_api, memory_order_relaxed)
#define BLOOM_DEFINE_API _Atomic(const sqlite3_api_routines *) bloom_api;
#define BLOOM_STORE_API(routines) atomic_store_explicit(&bloom_api, routines, memory_order_relaxed)
#else
SQLITE_EXTENSION_INIT3
#define BLOOM_DEFINE_API SQLITE_EXTENSION_INIT1
#define BLOOM_STORE_API(routines) SQLITE_EXTENSION_INIT2(routines)
#endif

#endif /* SQL_API_H */
