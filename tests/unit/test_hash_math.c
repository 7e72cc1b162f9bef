/*
** test_hash_math.c: what every kind computes from a key's hash (hash_math.h): the reduction
** to a range. Its positions are checked through each kind's.
*/
#include "unit.h"

#include "hash_math.h"

/* hash_reduce agrees with hash_reduce_portable, at the edges and on random values, and stays
** below m. */
void test_reduce(void) {
    uint64_t state = 1;
    static const uint64_t edges[] = {
        0, 1, 2, 63, 64, UINT32_MAX, UINT64_C(1) << 32, UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        for (size_t j = 0; j < sizeof edges / sizeof edges[0]; j++) {
            CHECK_U64(hash_reduce(edges[i], edges[j]), hash_reduce_portable(edges[i], edges[j]));
        }
    }
    CHECK_U64(hash_reduce(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1);
    CHECK_U64(hash_reduce(UINT64_C(1) << 63, 1000), 500);
    int mismatches = 0, out_of_range = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t x = next_random(&state), m = next_random(&state) >> (i % 64);
        uint64_t r = hash_reduce(x, m);
        mismatches += r != hash_reduce_portable(x, m);
        out_of_range += m != 0 && r >= m;
    }
    CHECK_U64(mismatches, 0);
    CHECK_U64(out_of_range, 0);
}
