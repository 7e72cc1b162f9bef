/*
** test_key_hash.c: keys and their hashes (key_hash), the set of hashes of a filter sized at the
** end (key_set), and the byte codec (little_endian).
*/
#include "unit.h"

#include "key_set.h"
#include "little_endian.h"

#include <math.h>

/* Keys follow SQL equality without affinity: numbers by value; TEXT, BLOB and numbers apart. */
void test_key_canonicalisation(void) {
    /* Numbers compare by value: integral REALs in int64 range hash as INTEGERs. */
    CHECK(same_hash(key_hash_real(1.0), key_hash_integer(1)));
    CHECK(same_hash(key_hash_real(-0.0), key_hash_integer(0)));
    CHECK(same_hash(key_hash_real(0.0), key_hash_integer(0)));
    CHECK(same_hash(key_hash_real(-1e15), key_hash_integer(-1000000000000000)));
    CHECK(same_hash(key_hash_real(9007199254740992.0), key_hash_integer(9007199254740992)));
    CHECK(!same_hash(key_hash_real(9007199254740992.0), key_hash_integer(9007199254740993)));
    CHECK(same_hash(key_hash_real(-9223372036854775808.0), key_hash_integer(INT64_MIN)));
    /* 2^63 is no INTEGER: it keeps its REAL identity. */
    CHECK(!same_hash(key_hash_real(9223372036854775808.0), key_hash_integer(INT64_MAX)));
    CHECK(!same_hash(key_hash_real(9223372036854775808.0), key_hash_integer(INT64_MIN)));
    CHECK(!same_hash(key_hash_real(1.5), key_hash_integer(1)));
    CHECK(!same_hash(key_hash_real(1.5), key_hash_real(-1.5)));
    CHECK(same_hash(key_hash_real(NAN), key_hash_real(-NAN)));
    CHECK(!same_hash(key_hash_real(INFINITY), key_hash_real(-INFINITY)));
    /* TEXT, BLOB and numbers are distinct, even with the same bytes. */
    CHECK(!same_hash(key_hash_text("abc", 3), key_hash_blob("abc", 3)));
    CHECK(!same_hash(key_hash_text("", 0), key_hash_blob("", 0)));
    CHECK(!same_hash(key_hash_text("", 0), key_hash_blob(NULL, 0)));
    CHECK(same_hash(key_hash_blob("", 0), key_hash_blob(NULL, 0)));
    static const uint8_t one_le[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    CHECK(!same_hash(key_hash_blob(one_le, 8), key_hash_integer(1)));
    CHECK(!same_hash(key_hash_text("1", 1), key_hash_integer(1)));
    /* Embedded NULs are part of the key. */
    CHECK(!same_hash(key_hash_text("a", 1), key_hash_text("a\0", 2)));
}

/* key_set: each hash once, the all-zero one too; moved into a larger set; iterated. */
void test_hash_set(void) {
    key_hash slots[8] = {{0, 0}}, bigger[16] = {{0, 0}};
    key_set set = {slots, 8, 0, 0}, grown = {bigger, 16, 0, 0};
    key_hash a = {1, 2}, b = {9, 2}, zero = {0, 0}, same_slot = {1, 3};
    CHECK(key_set_insert(&set, a) == 1);
    CHECK(key_set_insert(&set, a) == 0);
    CHECK(key_set_insert(&set, b) == 1); /* same first slot as a: probes on */
    CHECK(key_set_insert(&set, same_slot) == 1);
    CHECK(key_set_insert(&set, zero) == 1);
    CHECK(key_set_insert(&set, zero) == 0);
    CHECK_U64(set.count, 3);
    CHECK_U64(key_set_size(&set), 4);
    key_set_move(&set, &grown);
    CHECK_U64(key_set_size(&grown), 4);
    CHECK(key_set_insert(&grown, b) == 0 && key_set_insert(&grown, zero) == 0);

    /* Iteration gives each hash once, the all-zero one last. */
    key_hash seen[8];
    uint64_t cursor = 0, count = 0;
    while (count < 8 && key_set_next(&grown, &cursor, &seen[count])) {
        count++;
    }
    CHECK_U64(count, 4);
    CHECK(count == 4 && same_hash(seen[3], zero));
    for (uint64_t i = 0; i < count; i++) {
        int matches = same_hash(seen[i], a) + same_hash(seen[i], b) +
                      same_hash(seen[i], same_slot) + same_hash(seen[i], zero);
        CHECK(matches == 1);
    }
    CHECK(!key_set_next(&grown, &cursor, &seen[0]));
    key_set empty = {bigger, 0, 0, 0};
    cursor = 0;
    CHECK(!key_set_next(&empty, &cursor, &seen[0]));
}

/* The byte codec at every alignment agrees with the bytes written one by one (store64,
** load64): the first byte the least significant, 4 bytes the low half of 8; a REAL's bits are
** its IEEE-754 binary64 and give it back. */
void test_little_endian(void) {
    uint8_t bytes[16];
    uint64_t state = 5;
    int wrong = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t value = next_random(&state);
        size_t at = (size_t)i % 8;
        memset(bytes, 0, sizeof bytes);
        le_store64(bytes + at, value);
        wrong += load64(bytes, at) != value || le_load64(bytes + at) != value;
        store64(bytes, at, ~value);
        wrong += le_load64(bytes + at) != ~value || le_load32(bytes + at) != (uint32_t)~value;
        le_store32(bytes + at, (uint32_t)value);
        wrong += load64(bytes, at) != ((~value & ~(uint64_t)UINT32_MAX) | (uint32_t)value);
        double real = (double)(int64_t)value / 3;
        wrong += le_bits_double(le_double_bits(real)) != real;
    }
    CHECK_U64(wrong, 0);
    le_store64(bytes, UINT64_C(0x0102030405060708));
    CHECK(bytes[0] == 8 && bytes[1] == 7 && bytes[7] == 1);
    CHECK_U64(le_double_bits(0.01), UINT64_C(0x3F847AE147AE147B));
    CHECK(le_bits_double(UINT64_C(0x3FF8000000000000)) == 1.5);
}
