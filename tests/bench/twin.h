/*
** twin.h: the design of the other SQLite Bloom extension (coleifer/sqlite3-bloomfilter), as
** the benchmark's yardstick: k = 4 positions from one 32-bit hash of the key, taken modulo
** the number of bits of a BLOB with no header and no validation. The peer is not packaged
** and not built here; this is its design, written for the benchmark and kind to it (an
** INTEGER key is hashed as its 8 bytes, with no conversion to text).
*/
#ifndef BLOOM_BENCH_TWIN_H
#define BLOOM_BENCH_TWIN_H

#include <sqlite3.h>

#include <stddef.h>
#include <stdint.h>

/* A 32-bit hash of n bytes: a multiply-xorshift over 4-byte words. */
static uint32_t twin_hash(const unsigned char *p, int n) {
    uint32_t h = 0x9747B28Cu ^ (uint32_t)n;
    for (int i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x5BD1E995u;
        h ^= h >> 15;
    }
    return h ^ (h >> 13);
}

/* twin(filter, key): 1 when the 4 bits of key are set in the BLOB's bits, 0 otherwise. */
static void twin_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    const unsigned char *bits = sqlite3_value_blob(argv[0]);
    uint32_t m = (uint32_t)sqlite3_value_bytes(argv[0]) * 8, h;
    if (bits == NULL || m == 0) {
        sqlite3_result_null(ctx);
        return;
    }
    if (sqlite3_value_type(argv[1]) == SQLITE_INTEGER) {
        sqlite3_int64 v = sqlite3_value_int64(argv[1]);
        h = twin_hash((const unsigned char *)&v, (int)sizeof v);
    } else {
        h = twin_hash(sqlite3_value_text(argv[1]), sqlite3_value_bytes(argv[1]));
    }
    uint32_t step = (h >> 16) | (h << 16) | 1;
    for (uint32_t i = 0; i < 4; i++, h += step) {
        uint32_t pos = h % m;
        if ((bits[pos / 8] & (1u << (pos % 8))) == 0) {
            sqlite3_result_int(ctx, 0);
            return;
        }
    }
    sqlite3_result_int(ctx, 1);
}

#endif /* BLOOM_BENCH_TWIN_H */
