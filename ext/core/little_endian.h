/*
** little_endian.h: the byte codec of the filter format. Every integer in a
** filter BLOB is little-endian and every REAL an IEEE-754 binary64 stored as
** its bits, wherever the BLOB sits: SQLite gives no alignment guarantee, so
** fields are loaded with memcpy on little-endian hosts and byte by byte on
** others, never through a cast pointer.
*/
#ifndef LITTLE_ENDIAN_CODEC_H
#define LITTLE_ENDIAN_CODEC_H

#include <stdint.h>
#include <string.h>

#if (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_MSC_VER)
#define LE_HOST_IS_LITTLE_ENDIAN 1
#else
#define LE_HOST_IS_LITTLE_ENDIAN 0
#endif

/* The unsigned integer of 4 bytes at b. */
static inline uint32_t le_load32(const uint8_t *b) {
#if LE_HOST_IS_LITTLE_ENDIAN
    uint32_t v;
    memcpy(&v, b, 4);
    return v;
#else
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
#endif
}

/* The unsigned integer of 8 bytes at b. */
static inline uint64_t le_load64(const uint8_t *b) {
#if LE_HOST_IS_LITTLE_ENDIAN
    uint64_t v;
    memcpy(&v, b, 8);
    return v;
#else
    return (uint64_t)le_load32(b) | (uint64_t)le_load32(b + 4) << 32;
#endif
}

/* Writes v as 4 bytes at b. */
static inline void le_store32(uint8_t *b, uint32_t v) {
#if LE_HOST_IS_LITTLE_ENDIAN
    memcpy(b, &v, 4);
#else
    for (int i = 0; i < 4; i++, v >>= 8) {
        b[i] = (uint8_t)v;
    }
#endif
}

/* Writes v as 8 bytes at b. */
static inline void le_store64(uint8_t *b, uint64_t v) {
#if LE_HOST_IS_LITTLE_ENDIAN
    memcpy(b, &v, 8);
#else
    le_store32(b, (uint32_t)v);
    le_store32(b + 4, (uint32_t)(v >> 32));
#endif
}

/* The bit pattern of an IEEE-754 binary64 value. */
static inline uint64_t le_double_bits(double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

/* The IEEE-754 binary64 value of a bit pattern. */
static inline double le_bits_double(uint64_t bits) {
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

#endif /* LITTLE_ENDIAN_CODEC_H */
