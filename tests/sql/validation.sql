-- Rule 8 (validation): a BLOB is validated against its own length before any bit is read;
-- anything that is not a valid filter is an error naming the reason, never a 0.
-- Each case below changes one thing in a valid 88-byte filter of the key 1.
CREATE TABLE base AS SELECT bloom_build(1, 20, 0.01) AS f;
SELECT length(f), bloom_might_contain(f, 1) FROM base;
-- => 88|1

-- Too short.
SELECT bloom_might_contain(x'', 1);
-- error: bloom_might_contain: not a Bloom filter: length 0 is shorter than the 64-byte header
SELECT bloom_might_contain(x'53514246', 1);
-- error: bloom_might_contain: not a Bloom filter: length 4 is shorter than the 64-byte header
SELECT bloom_might_contain(substr(f, 1, 63), 1) FROM base;
-- error: bloom_might_contain: not a Bloom filter: length 63 is shorter than the 64-byte header

-- Bad magic.
SELECT bloom_might_contain(CAST('s' || substr(f, 2) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: not a Bloom filter: magic is x'73514246', not x'53514246' (SQBF)
SELECT bloom_might_contain(zeroblob(100000), 1);
-- error: bloom_might_contain: not a Bloom filter: magic is x'00000000', not x'53514246' (SQBF)

-- Versions: a newer format that this version-3 reader cannot read, and nonsense.
SELECT bloom_might_contain(CAST(substr(f, 1, 4) || x'0404' || substr(f, 7) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: filter format version 4 needs a reader of version 4 or later; this one reads version 3
-- A Bloom filter that says version 2 reads as the version 1 it is.
SELECT bloom_might_contain(CAST(substr(f, 1, 4) || x'0202' || substr(f, 7) AS BLOB), 1) FROM base;
-- => 1
SELECT bloom_might_contain(CAST(substr(f, 1, 4) || x'00' || substr(f, 6) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: format version 0 with minimum reader version 1
SELECT bloom_might_contain(CAST(substr(f, 1, 5) || x'00' || substr(f, 7) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: format version 1 with minimum reader version 0
-- A newer writer that declares older readers able to read it may use the reserved bytes.
SELECT bloom_might_contain(CAST(substr(f, 1, 4) || x'04' || substr(f, 6, 44) || x'AA' || substr(f, 51) AS BLOB), 1) FROM base;
-- => 1
-- But not a writer of version 3, which this reader is: they are 0 there.
SELECT bloom_might_contain(CAST(substr(f, 1, 4) || x'03' || substr(f, 6, 44) || x'AA' || substr(f, 51) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: reserved byte 49 is 0xAA, not 0

-- Unknown layout or hash.
SELECT bloom_might_contain(CAST(substr(f, 1, 6) || x'0A' || substr(f, 8) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: unknown kind 10
-- A counting filter (3) is of format version 2: a BLOB that says version 1 is refused, not
-- misread.
SELECT bloom_might_contain(CAST(substr(f, 1, 6) || x'03' || substr(f, 8) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: kind 3 is of format version 2, read by readers of version 2 and later, not 1
-- The blocked layout (2) needs m in whole 512-bit lines.
SELECT bloom_might_contain(CAST(substr(f, 1, 6) || x'02' || substr(f, 8) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: m = 192 bits is not a positive multiple of 512
SELECT bloom_might_contain(CAST(substr(f, 1, 7) || x'09' || substr(f, 9) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: unknown hash 9

-- k out of range.
SELECT bloom_might_contain(CAST(substr(f, 1, 8) || x'00' || substr(f, 10) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: k = 0 is outside 1..64
SELECT bloom_might_contain(CAST(substr(f, 1, 8) || x'41' || substr(f, 10) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: k = 65 is outside 1..64
SELECT bloom_might_contain(CAST(substr(f, 1, 8) || x'FFFFFFFF' || substr(f, 13) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: k = 4294967295 is outside 1..64

-- m that is not whole words, or that does not match the length.
SELECT bloom_might_contain(CAST(substr(f, 1, 16) || x'C1' || substr(f, 18) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: m = 193 bits is not a positive multiple of 64
SELECT bloom_might_contain(CAST(substr(f, 1, 16) || x'00' || substr(f, 18) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: m = 0 bits is not a positive multiple of 64
SELECT bloom_might_contain(CAST(f || x'00' AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: m = 192 bits needs 88 bytes, the BLOB has 89
SELECT bloom_might_contain(substr(f, 1, 87), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: m = 192 bits needs 88 bytes, the BLOB has 87
SELECT bloom_might_contain(CAST(substr(f, 1, 16) || x'0000000000000001' || substr(f, 25) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: m = 72057594037927936 bits needs 9007199254741056 bytes, the BLOB has 88
SELECT bloom_might_contain(CAST(substr(f, 1, 16) || x'C0FFFFFFFFFFFFFF' || substr(f, 25) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: m = 18446744073709551552 bits needs 2305843009213694008 bytes, the BLOB has 88

-- Capacity and rate.
SELECT bloom_might_contain(CAST(substr(f, 1, 24) || zeroblob(8) || substr(f, 33) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: capacity n = 0
SELECT bloom_might_contain(CAST(substr(f, 1, 32) || zeroblob(8) || substr(f, 41) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: p = 0 is not between 0 and 1
SELECT bloom_might_contain(CAST(substr(f, 1, 39) || x'BF' || substr(f, 41) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: p = -0.01 is not between 0 and 1
SELECT bloom_might_contain(CAST(substr(f, 1, 32) || x'000000000000F07F' || substr(f, 41) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: p = Inf is not between 0 and 1

-- Reserved bytes must be zero in a version-1 filter.
SELECT bloom_might_contain(CAST(substr(f, 1, 12) || x'01' || substr(f, 14) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: reserved byte 12 is 0x01, not 0
SELECT bloom_might_contain(CAST(substr(f, 1, 48) || x'80' || substr(f, 50) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: reserved byte 48 is 0x80, not 0
SELECT bloom_might_contain(CAST(substr(f, 1, 63) || x'FF' || substr(f, 65) AS BLOB), 1) FROM base;
-- error: bloom_might_contain: corrupt filter: reserved byte 63 is 0xFF, not 0

-- The keys-added counter is informational: any value is valid.
SELECT bloom_might_contain(CAST(substr(f, 1, 40) || x'FFFFFFFFFFFFFFFF' || substr(f, 49) AS BLOB), 1) FROM base;
-- => 1

