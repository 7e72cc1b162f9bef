-- bloom_info(filter): the header and what the fill tells, as JSON.

-- 1000 keys in a filter sized for 1000 at 1 %.
CREATE TABLE f AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000)
SELECT bloom_build(i, 1000, 0.01) AS f FROM s;
SELECT bloom_info(f) FROM f;
-- => {"format_version":1,"min_reader_version":1,"layout":"standard","hash":"xxh3-128","k":7,"m":9600,"bytes":1264,"n":1000,"p":0.01,"keys_added":1000,"bits_set":4973,"fill_ratio":0.518020833333333,"estimated_keys":1000.9,"estimated_keys_error":8.2,"estimated_fp_rate":0.0100099194645355,"over_capacity":false}

-- The same figures computed here in SQL from the bytes: bits set by counting
-- the hex digits of the bit array, then the two estimates: n keys leave a bit
-- clear with chance (1 - 1/m)^(k n), so n = ln(1 - X/m) / (k ln(1 - 1/m)).
CREATE TABLE popcount(digit TEXT PRIMARY KEY, bits INTEGER);
INSERT INTO popcount VALUES ('0', 0), ('1', 1), ('2', 1), ('3', 2), ('4', 1), ('5', 2), ('6', 2), ('7', 3),
  ('8', 1), ('9', 2), ('A', 2), ('B', 3), ('C', 2), ('D', 3), ('E', 3), ('F', 4);
CREATE TABLE counted AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2400)
SELECT sum(bits) AS x FROM s, f, popcount WHERE digit = substr(hex(substr(f, 65)), i, 1);
--! since 3.35.0
SELECT x, printf('%.1f', ln(1 - x / 9600.0) / (7 * ln(1 - 1 / 9600.0))), printf('%.12f', pow(x / 9600.0, 7)),
       json_extract(bloom_info(f), '$.bits_set'), printf('%.12f', json_extract(bloom_info(f), '$.estimated_fp_rate')) FROM counted, f;
-- => 4973|1000.9|0.010009919465|4973|0.010009919465

-- It composes with SQLite's JSON functions.
SELECT json_extract(bloom_info(f), '$.k'), json_extract(bloom_info(f), '$.over_capacity'), json_type(bloom_info(f), '$.p') FROM f;
-- => 7|0|real
SELECT json_object('users', json(bloom_info(f))) LIKE '{"users":{"format_version":1,%' FROM f;
-- => 1
SELECT key FROM f, json_each(bloom_info(f)) ORDER BY key;
-- => bits_set
-- => bytes
-- => estimated_fp_rate
-- => estimated_keys
-- => estimated_keys_error
-- => fill_ratio
-- => format_version
-- => hash
-- => k
-- => keys_added
-- => layout
-- => m
-- => min_reader_version
-- => n
-- => over_capacity
-- => p

-- Repeats count as keys added but not as distinct keys: no over capacity.
SELECT json_extract(i, '$.keys_added'), json_extract(i, '$.estimated_keys'), json_extract(i, '$.over_capacity')
FROM (SELECT bloom_info(bloom_build(i % 100, 100, 0.01)) AS i FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 10000) SELECT i FROM s));
-- => 10000|97.9|0

-- Three times the capacity: over capacity, with the false-positive rate it now has.
SELECT json_extract(i, '$.keys_added'), json_extract(i, '$.estimated_keys'), json_extract(i, '$.estimated_fp_rate') > 0.4, json_extract(i, '$.over_capacity')
FROM (SELECT bloom_info(bloom_build(i, 1000, 0.01)) AS i FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000) SELECT i FROM s));
-- => 3000|3005.1|1|1
-- And the measured rate agrees: 43 % of 10,000 absent keys probe 1.
SELECT sum(bloom_might_contain(f, -i)) FROM (SELECT bloom_build(i, 1000, 0.01) AS f FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000) SELECT i FROM s)),
  (WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 10000) SELECT i FROM s);
-- => 4324

-- Every bit set: the estimate of distinct keys is unbounded, shown as null.
SELECT json_extract(i, '$.bits_set'), json_type(i, '$.estimated_keys'), json_extract(i, '$.estimated_fp_rate'), json_extract(i, '$.over_capacity')
FROM (SELECT bloom_info(bloom_build(i, 1, 0.5)) AS i FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000) SELECT i FROM s));
-- => 64|null|1.0|1

-- An empty filter.
SELECT bloom_info(bloom_build(NULL, 10, 0.1));
-- => {"format_version":1,"min_reader_version":1,"layout":"standard","hash":"xxh3-128","k":3,"m":64,"bytes":72,"n":10,"p":0.1,"keys_added":0,"bits_set":0,"fill_ratio":0.0,"estimated_keys":0.0,"estimated_keys_error":0.0,"estimated_fp_rate":0.0,"over_capacity":false}

-- A real has 15 significant digits, as SQLite's printf('%!.15g') writes it on every version
-- (3.31, 3.40, 3.53): a tie at the 15th digit rounds away from zero, as in sqlite-bloom/filter's
-- info() (wasm.node), where the C library's printf rounds it to even (0.00999832153320312).
-- Both need SQLite to read the literal, and print the rates, exactly.
--! needs exact reals
SELECT bloom_info(bloom_empty(100, 0.009998321533203125));
-- => {"format_version":1,"min_reader_version":1,"layout":"standard","hash":"xxh3-128","k":7,"m":960,"bytes":184,"n":100,"p":0.00999832153320313,"keys_added":0,"bits_set":0,"fill_ratio":0.0,"estimated_keys":0.0,"estimated_keys_error":0.0,"estimated_fp_rate":0.0,"over_capacity":false}
-- p from 4,000 rates: 2,000 spread over (0, 0.5), 2,000 of the form i / 2^16, some of them ties.
--! needs exact reals
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000),
  rates(p) AS (SELECT (i * 2654435761 % 1000003) / 2000006.0 + 1e-9 FROM s
               UNION ALL SELECT i / 65536.0 FROM s)
SELECT count(*), sum(instr(bloom_info(bloom_empty(100, p)), '"p":' || printf('%!.15g', p) || ',') > 0)
FROM rates;
-- => 4000|4000

-- NULL gives NULL; anything else that is not a valid filter is an error.
SELECT quote(bloom_info(NULL));
-- => NULL
SELECT bloom_info('{}');
-- error: bloom_info: the filter must be a BLOB, got '{}'
SELECT bloom_info(x'53514246');
-- error: bloom_info: not a Bloom filter: length 4 is shorter than the 64-byte header
SELECT bloom_info(CAST(substr(f, 1, 8) || x'00' || substr(f, 10) AS BLOB)) FROM f;
-- error: bloom_info: corrupt filter: k = 0 is outside 1..64

-- One segment (the standard layout) has no pairs of bits in two segments: with m = 64 and
-- k = 64 that term's ln(1 - 2u) does not exist, and 0.1.0 gave an error of 0.0 (and so took
-- 3.0 keys for more than n + 4 errors). bloom_build never writes such a filter; others may.
SELECT json_extract(i, '$.estimated_keys'), json_extract(i, '$.estimated_keys_error'),
       json_extract(i, '$.over_capacity')
FROM (SELECT bloom_info(bloom_add(bloom_add(bloom_add(x'5351424601010101400000000000000040000000000000000100000000000000000000000000E03F0000000000000000000000000000000000000000000000000000000000000000', 0), 1), 2)) AS i);
-- => 3.0|0.5|0
