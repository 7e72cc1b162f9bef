/*
** hash_math.h: what every kind computes from a key's hash: a value reduced to
** a range, a 64-bit mixer, and the k positions of double hashing. Each kind
** includes this instead of borrowing a sibling kind's. No SQLite header, no
** allocation, no state.
*/
#ifndef HASH_MATH_H
#define HASH_MATH_H

#include "key_hash.h"

#include <stdint.h>

/* The value in [0, m) of the 64-bit value x: floor(x * m / 2^64), without a 128-bit integer
** type (used where there is none, and to test hash_reduce). */
static inline uint64_t hash_reduce_portable(uint64_t x, uint64_t m) {
    uint64_t x_lo = (uint32_t)x, x_hi = x >> 32;
    uint64_t m_lo = (uint32_t)m, m_hi = m >> 32;
    uint64_t lo_lo = x_lo * m_lo, hi_lo = x_hi * m_lo;
    uint64_t lo_hi = x_lo * m_hi, hi_hi = x_hi * m_hi;
    uint64_t middle = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi; /* cannot overflow */
    return hi_hi + (hi_lo >> 32) + (middle >> 32);
}

/* The value in [0, m) of the 64-bit value x: floor(x * m / 2^64) (Lemire's multiply-shift). */
static inline uint64_t hash_reduce(uint64_t x, uint64_t m) {
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 hash_uint128;
    return (uint64_t)(((hash_uint128)x * m) >> 64);
#else
    return hash_reduce_portable(x, m);
#endif
}

/* The splitmix64 finalizer: a bijection of 64-bit values with full avalanche. */
static inline uint64_t hash_mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/*
** The loop over the k positions in [0, m) that double hashing gives key: for
** each, pos is set and BODY runs. Plain double hashing (h1 + i h2) reduced by
** multiply-shift keeps the positions of two keys close for every i whenever
** their (h1, h2) are close, which puts a floor of about 1/(m^2 k) per key
** under a Bloom filter's false-positive rate (measured: 60x the target at
** n = 100, p = 1e-6). So each step is mixed first: position i, from 0 to
** k - 1, is hash_reduce(hash_mix64(h1 + i (h2 | 1)), m); the odd step makes
** the k inputs distinct.
*/
#define HASH_FOR_EACH_POSITION(key, k, m, pos, BODY)                                               \
    do {                                                                                           \
        uint64_t x_ = (key).h1, step_ = (key).h2 | 1;                                              \
        for (uint32_t i_ = 0; i_ < (k); i_++, x_ += step_) {                                       \
            uint64_t pos = hash_reduce(hash_mix64(x_), (m));                                       \
            BODY                                                                                   \
        }                                                                                          \
    } while (0)

/* Writes the k positions in [0, m) of key (HASH_FOR_EACH_POSITION) to out[0..k-1]. */
static inline void hash_positions(key_hash key, uint32_t k, uint64_t m, uint64_t *out) {
    uint32_t i = 0;
    HASH_FOR_EACH_POSITION(key, k, m, pos, { out[i++] = pos; });
}

#endif /* HASH_MATH_H */
