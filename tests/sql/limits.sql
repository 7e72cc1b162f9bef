-- Limits: SQLITE_LIMIT_LENGTH, n and p at their extremes, k at its cap, keys of 0 bytes
-- and of 100 MB, headers that claim a huge m or k. Every error is checked verbatim.
CREATE TABLE keys AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000)
SELECT CASE i % 2 WHEN 0 THEN i ELSE 'key ' || i END AS k FROM s;
CREATE TABLE at_limit AS SELECT bloom_build(k, 1000, 0.01) AS f FROM keys;

-- A filter of exactly SQLITE_LIMIT_LENGTH bytes, from every function that makes one.
--! limit length 1264
SELECT length(f), (SELECT count(*) FROM keys WHERE bloom_might_contain(f, k)) FROM at_limit;
-- => 1264|1000
SELECT length(bloom_add(f, 'one more')), length(bloom_union(f, f)) FROM at_limit;
-- => 1264|1264
SELECT length(bloom_union(f)) FROM (SELECT f FROM at_limit UNION ALL SELECT f FROM at_limit);
-- => 1264
SELECT length(bloom_build(k)), length(bloom_build(k, 1001, 0.01, 'standard')) FROM keys;
-- => 1264|1264
-- SQLite itself cannot store it: a record adds its own header bytes to the BLOB.
CREATE TABLE stored AS SELECT bloom_build(k, 1000, 0.01) AS f FROM keys;
-- error TOOBIG: string or blob too big
-- One word more than the limit allows (1272 bytes), and the blocked layout (1344 bytes).
SELECT length(bloom_build(k, 1002, 0.01)) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1002 at p = 0.01 needs 1272 bytes, more than the length limit of 1264 bytes
SELECT length(bloom_build(k, 1000, 0.01, 'blocked')) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1344 bytes, more than the length limit of 1264 bytes
--! limit length 1263
SELECT length(bloom_build(k, 1000, 0.01)) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1264 bytes, more than the length limit of 1263 bytes
-- Sized without guessing: 1000 distinct keys, the same filter, the same error at the end.
SELECT length(bloom_build(k)) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1264 bytes, more than the length limit of 1263 bytes
SELECT length(bloom_build(k, NULL, 0.01, 'blocked')) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1344 bytes, more than the length limit of 1263 bytes
-- A stored filter over the limit never reaches a function: SQLite refuses to read the column
-- (and to bind such a value).
SELECT bloom_might_contain(f, 1) FROM at_limit;
-- error TOOBIG: string or blob too big
-- bloom_info's JSON is text like any other: over the limit, it is an error.
--! limit length 250
SELECT length(bloom_build(1, 1, 0.01));
-- => 72
SELECT length(bloom_info(bloom_build(1, 1, 0.01)));
-- error TOOBIG: string or blob too big
--! limit length 1000000000

-- n at its extremes: 1, and the largest integer, for which no filter fits.
SELECT length(f), hex(substr(f, 9, 4)), bloom_might_contain(f, 1), bloom_might_contain(f, 2)
FROM (SELECT bloom_build(1, 1, 0.01) AS f);
-- => 72|07000000|1|0
--! needs exact reals
SELECT bloom_build(1, 9223372036854775807, 0.01);
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 0.01 needs 11050819926178930000 bytes, more than the length limit of 1000000000 bytes
SELECT bloom_build(1, 9223372036854775807, 0.5, 'blocked');
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 0.5 needs 1663314137230540000 bytes, more than the length limit of 1000000000 bytes
SELECT bloom_build(1, 9223372036854775807.0, 0.01);
-- error: bloom_build: n must be at most 9223372036854775807, got 9.22337203685478e+18
SELECT bloom_build(1, -9223372036854775808, 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got -9223372036854775808

-- p at its extremes: k = 64 at p = 4e-20 is allowed (the blocked layout takes 38 there), more
-- is not; p just under 1 needs one hash function and one word; blocked takes p up to 0.5.
SELECT json_extract(bloom_info(bloom_build(1, 1000, 4e-20)), '$.k'),
       json_extract(bloom_info(bloom_build(1, 1000, 4e-20, 'blocked')), '$.k');
-- => 64|38
SELECT bloom_build(1, 1000, 3e-20);
-- error: bloom_build: p = 3.0e-20 needs 65 hash functions, more than 64
SELECT bloom_build(1, 1000, 1e-20, 'blocked');
-- error: bloom_build: p = 1.0e-20 needs 66 hash functions, more than 64
SELECT bloom_build(1, 1000, 4.9406564584124654e-324);
-- error: bloom_build: p = 4.94065645841247e-324 needs 1074 hash functions, more than 64
--! needs exact reals
SELECT length(f), hex(substr(f, 9, 4)), bloom_might_contain(f, 1), bloom_might_contain(f, 2)
FROM (SELECT bloom_build(1, 1000, 0.9999999999999999) AS f);
-- => 72|01000000|1|0
-- (bloom_info shows p with 15 digits too: this p < 1 reads as 1.0.)
--! needs exact reals
SELECT json_extract(bloom_info(bloom_build(1, 1000, 0.9999999999999999)), '$.p'),
       hex(substr(bloom_build(1, 1000, 0.9999999999999999), 33, 8));
-- => 1.0|FFFFFFFFFFFFEF3F
SELECT length(bloom_build(1, 1000, 0.5, 'blocked'));
-- => 256
-- (The message shows the rate with 15 digits: 0.5000000000000001 reads as 0.5.)
SELECT bloom_build(1, 1000, 0.5000000000000001, 'blocked');
-- error: bloom_build: the blocked layout needs p <= 0.5, got 0.5

-- k at its cap: every key added probes 1 with 64 positions.
SELECT hex(substr(f, 9, 4)), (SELECT count(*) FROM keys WHERE bloom_might_contain(f, k))
FROM (SELECT bloom_build(k, 1000, 4e-20) AS f FROM keys);
-- => 40000000|1000
-- A crafted filter of one word with k = 64 is valid: a key sets at most 64 bits of it.
SELECT bloom_might_contain(g, 1), bloom_might_contain(bloom_add(g, 1), 1),
       json_extract(bloom_info(bloom_add(g, 1)), '$.bits_set')
FROM (SELECT CAST(substr(f, 1, 8) || x'40' || substr(f, 10) AS BLOB) AS g
      FROM (SELECT bloom_build(NULL, 1, 0.5) AS f));
-- => 0|1|39

-- Keys of 0 bytes: x'', zeroblob(0) and CAST('' AS BLOB) are one key, '' another; NULL none.
SELECT bloom_might_contain(f, x''), bloom_might_contain(f, zeroblob(0)),
       bloom_might_contain(f, CAST('' AS BLOB)), bloom_might_contain(f, ''),
       bloom_might_contain(f, NULL)
FROM (SELECT bloom_build(x'', 1000, 1e-6) AS f);
-- => 1|1|1|0|NULL
SELECT bloom_might_contain(f, ''), bloom_might_contain(f, x'')
FROM (SELECT bloom_build('', 1000, 1e-6) AS f);
-- => 1|0
SELECT json_extract(i, '$.n'), json_extract(i, '$.keys_added')
FROM (SELECT bloom_info(bloom_build(k)) AS i
      FROM (SELECT x'' AS k UNION ALL SELECT '' UNION ALL SELECT zeroblob(0) UNION ALL SELECT NULL));
-- => 2|3

-- Keys of 100 MB, TEXT and BLOB: hashed where they lie.
--! param @text SELECT printf('%.*c', 100000000, 'k')
SELECT length(@text), bloom_might_contain(f, @text), bloom_might_contain(f, 'k')
FROM (SELECT bloom_build(@text, 10, 1e-6) AS f);
-- => 100000000|1|0
SELECT bloom_might_contain(f, zeroblob(100000000)), bloom_might_contain(f, zeroblob(99999999))
FROM (SELECT bloom_build(zeroblob(100000000), 10, 1e-6) AS f);
-- => 1|0

-- Headers that claim a huge m or k: every function refuses them before reading a bit.
CREATE TABLE base AS SELECT bloom_build(1, 20, 0.01) AS f;
CREATE TABLE crafted AS SELECT
  CAST(substr(f, 1, 16) || x'0000000000000080' || substr(f, 25) AS BLOB) AS huge_m,
  CAST(substr(f, 1, 16) || x'0008AF2F00000000' || substr(f, 25) AS BLOB) AS large_m,
  CAST(substr(f, 1, 8) || x'FFFFFFFF' || substr(f, 13) AS BLOB) AS huge_k,
  CAST(substr(f, 1, 8) || x'41' || substr(f, 10) AS BLOB) AS k_65
FROM base;
SELECT bloom_might_contain(huge_m, 1) FROM crafted;
-- error: bloom_might_contain: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_info(huge_m) FROM crafted;
-- error: bloom_info: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_add(huge_m, 1) FROM crafted;
-- error: bloom_add: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_union(huge_m, f) FROM crafted, base;
-- error: bloom_union: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_union(f, huge_m) FROM crafted, base;
-- error: bloom_union: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_union(g) FROM (SELECT f AS g FROM base UNION ALL SELECT huge_m FROM crafted);
-- error: bloom_union: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_might_contain(large_m, 1) FROM crafted;
-- error: bloom_might_contain: corrupt filter: m = 800000000 bits needs 100000064 bytes, the BLOB has 88
SELECT bloom_info(huge_k) FROM crafted;
-- error: bloom_info: corrupt filter: k = 4294967295 is outside 1..64
SELECT bloom_add(huge_k, 1) FROM crafted;
-- error: bloom_add: corrupt filter: k = 4294967295 is outside 1..64
SELECT bloom_union(k_65, k_65) FROM crafted;
-- error: bloom_union: corrupt filter: k = 65 is outside 1..64
-- The large m made true: a valid filter of 100,000,064 bytes, probed, copied and read whole.
--! param @big SELECT CAST(substr(f, 1, 16) || x'0008AF2F00000000' || substr(f, 25, 40) || zeroblob(100000000) AS BLOB) FROM base
SELECT length(@big), bloom_might_contain(@big, 1), json_extract(i, '$.k'), json_extract(i, '$.bits_set')
FROM (SELECT bloom_info(bloom_add(@big, 1)) AS i);
-- => 100000064|0|7|7

-- The counting and cuckoo kinds at their limits.
-- The smallest: n = 1 (one 64-counter word; two buckets of 10-bit fingerprints).
SELECT length(f), bloom_might_contain(f, 1), bloom_might_contain(f, 2), bloom_might_contain(bloom_remove(f, 1), 1)
FROM (SELECT bloom_build(1, 1, 0.01, 'counting') AS f);
-- => 96|1|0|0
SELECT length(f), json_extract(bloom_info(f), '$.buckets'), json_extract(bloom_info(f), '$.fingerprint_bits'),
       bloom_might_contain(f, 1), bloom_might_contain(bloom_remove(f, 1), 1)
FROM (SELECT bloom_build(1, 1, 0.01, 'cuckoo') AS f);
-- => 74|2|10|1|0
-- The largest n: no filter fits.
--! needs exact reals
SELECT bloom_build(1, 9223372036854775807, 0.01, 'counting');
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 0.01 needs 44203279704715720000 bytes, more than the length limit of 1000000000 bytes
--! needs exact reals
SELECT bloom_build(1, 9223372036854775807, 0.01, 'cuckoo');
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 0.01 needs 12136015853546290000 bytes, more than the length limit of 1000000000 bytes
-- p at its extremes: the cuckoo filter's fingerprints go from 4 bits (p just under 1) to 32
-- (p >= 1.77e-9); the counting filter takes what the standard one takes.
SELECT json_extract(bloom_info(bloom_build(1, 1000, 0.9999, 'cuckoo')), '$.fingerprint_bits'),
       json_extract(bloom_info(bloom_build(1, 1000, 0.5, 'cuckoo')), '$.fingerprint_bits'),
       json_extract(bloom_info(bloom_build(1, 1000, 1.8e-9, 'cuckoo')), '$.fingerprint_bits'),
       json_extract(bloom_info(bloom_build(1, 1000, 4e-20, 'counting')), '$.k');
-- => 4|5|32|64
SELECT bloom_build(1, 1000, 1.7e-9, 'cuckoo');
-- error: bloom_build: a 'cuckoo' filter needs p >= 1.77e-09 (fingerprints of at most 32 bits), got 1.7e-09
SELECT bloom_empty(1000, 1e-12, 'cuckoo');
-- error: bloom_empty: a 'cuckoo' filter needs p >= 1.77e-09 (fingerprints of at most 32 bits), got 1.0e-12
-- At SQLITE_LIMIT_LENGTH: a filter of exactly the limit builds, one byte less is refused.
--! limit length 4864
SELECT length(bloom_build(k, 1000, 0.01, 'counting')) FROM keys;
-- => 4864
--! limit length 4863
SELECT length(bloom_build(k, 1000, 0.01, 'counting')) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 4864 bytes, more than the length limit of 4863 bytes
--! limit length 1544
SELECT length(bloom_build(k, 1000, 0.01, 'cuckoo')), json_extract(bloom_info(bloom_build(k, 1000, 0.01, 'cuckoo')), '$.buckets')
FROM keys;
-- => 1544|296
--! limit length 1543
SELECT length(bloom_build(k, 1000, 0.01, 'cuckoo')) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1544 bytes, more than the length limit of 1543 bytes
--! limit length 1000000000
