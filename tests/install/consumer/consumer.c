/* consumer.c: uses the installed static sqlite-bloom; prints the answer of one probe. */
#include <sqlite_bloom.h>

#include <stdio.h>

int main(void) {
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;
    int answer = -1;
    sqlite3_auto_extension((void (*)(void))sqlite3_bloom_init);
    if (sqlite3_open(":memory:", &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT bloom_might_contain(bloom_build('k', 10, 0.01), 'k')", -1,
                           &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
        answer = sqlite3_column_int(stmt, 0);
    }
    printf("bloom_might_contain: %d\n", answer);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return answer == 1 ? 0 : 1;
}
