/*
** sqlite_bloom.h: the one public symbol of sqlite-bloom, for programs that
** register the extension themselves instead of loading bloom.so: link the
** static library (CMake: find_package(sqlite_bloom), target sqlite_bloom::static)
** with your own SQLite, then call, before opening connections,
**
**     sqlite3_auto_extension((void (*)(void))sqlite3_bloom_init);
**
** or sqlite3_bloom_init(db, &error, NULL) on one connection.
*/
#ifndef SQLITE_BLOOM_H
#define SQLITE_BLOOM_H

#include <sqlite3.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Registers the bloom_* functions on db. Returns SQLITE_OK or an error code, with a message
** in *error (to free with sqlite3_free) when error is not NULL. */
int sqlite3_bloom_init(sqlite3 *db, char **error, const sqlite3_api_routines *api);

#ifdef __cplusplus
}
#endif

#endif /* SQLITE_BLOOM_H */
