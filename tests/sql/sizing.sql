-- Rule 2 (sizing): m = ceil(-n ln p / (ln 2)^2) rounded up to whole 64-bit words,
-- k = max(1, round(m/n ln 2)) with m before rounding; the BLOB is a 64-byte
-- header and the bit array, nothing else.

-- 1000 keys at 1 %: 9585.06 bits, so 9586, so 150 words = 1200 bytes.
SELECT length(bloom_build(1, 1000, 0.01));
-- => 1264

-- The header of a one-key filter, field by field (little-endian):
-- magic SQBF, version 1, minimum reader 1, layout 1, hash 1, k = 7, reserved,
-- m = 192, n = 20, p = 0.01, keys added = 1, 16 reserved bytes.
SELECT hex(substr(f, 1, 4)), hex(substr(f, 5, 4)), hex(substr(f, 9, 4)), hex(substr(f, 13, 4)),
       hex(substr(f, 17, 8)), hex(substr(f, 25, 8)), hex(substr(f, 33, 8)), hex(substr(f, 41, 8)),
       hex(substr(f, 49, 16)), length(f)
FROM (SELECT bloom_build(1, 20, 0.01) AS f);
-- => 53514246|01010101|07000000|00000000|C000000000000000|1400000000000000|7B14AE47E17A843F|0100000000000000|00000000000000000000000000000000|88

-- k at the classic targets: 3 at 10 %, 7 at 1 %, 10 at 0.1 %, 13 at 0.01 %.
SELECT p, hex(substr(bloom_build(1, 1000000, p), 9, 4)) FROM (SELECT 0.1 AS p UNION ALL SELECT 0.01 UNION ALL SELECT 0.001 UNION ALL SELECT 0.0001) GROUP BY p ORDER BY p DESC;
-- => 0.1|03000000
-- => 0.01|07000000
-- => 0.001|0A000000
-- => 0.0001|0D000000

-- Bytes at 1M keys: 4.79, 9.59, 14.38 and 19.17 bits per key.
SELECT p, length(bloom_build(1, 1000000, p)) FROM (SELECT 0.1 AS p UNION ALL SELECT 0.01 UNION ALL SELECT 0.001 UNION ALL SELECT 0.0001) GROUP BY p ORDER BY p DESC;
-- => 0.1|599136
-- => 0.01|1198200
-- => 0.001|1797264
-- => 0.0001|2396336

-- Rule 3 (parameters): an integral REAL n is accepted and means the same as the INTEGER.
SELECT bloom_build(1, 1e6, 0.01) = bloom_build(1, 1000000, 0.01);
-- => 1

-- One key: 10 bits by the formula, so one word; k = 7 from the formula's m.
SELECT length(f), hex(substr(f, 9, 4)) FROM (SELECT bloom_build('x', 1, 0.01) AS f);
-- => 72|07000000

-- A rate close to 1 still gives one hash function and one word.
SELECT length(f), hex(substr(f, 9, 4)) FROM (SELECT bloom_build('x', 1000, 0.999999) AS f);
-- => 72|01000000

-- The largest k is 64: p = 1e-19 needs 63, p = 1e-20 needs 66.
SELECT hex(substr(bloom_build(1, 10, 1e-19), 9, 4));
-- => 3F000000
SELECT bloom_build(1, 10, 1e-20);
-- error: bloom_build: p = 1.0e-20 needs 66 hash functions, more than 64

-- Rule 13 (memory and limits): a filter larger than SQLITE_LIMIT_LENGTH is SQLITE_TOOBIG, with the size it needs.
--! limit length 1264
SELECT length(bloom_build(1, 1000, 0.01));
-- => 1264
--! limit length 1263
SELECT length(bloom_build(1, 1000, 0.01));
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1264 bytes, more than the length limit of 1263 bytes
--! limit length 1000000000
SELECT bloom_build(1, 1000000000000, 0.01);
-- error TOOBIG: bloom_build: a filter for n = 1000000000000 at p = 0.01 needs 1198132297240 bytes, more than the length limit of 1000000000 bytes
--! needs exact reals
SELECT bloom_build(1, 9223372036854775807, 1e-19);
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 1.0e-19 needs 104982789298699800000 bytes, more than the length limit of 1000000000 bytes
