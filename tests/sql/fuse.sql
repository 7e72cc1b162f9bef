-- The binary fuse kind ('fuse', kind 8): rule 30 (static filters). What every kind does, it
-- does in tests/sql/kinds.sql; here, what is its own: sized from its keys, the same bytes for
-- the same set, its fingerprint widths, a filter of no keys, its bloom_info, a live table.

-- 10,000 keys of every type.
CREATE TABLE keys(i INTEGER, k);
INSERT INTO keys
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 10000)
SELECT i, CASE i % 4 WHEN 0 THEN i WHEN 1 THEN i + 0.5 WHEN 2 THEN 'k' || i
                     ELSE CAST('b' || i AS BLOB) END FROM s;
CREATE TABLE built AS SELECT bloom_build(k, NULL, 0.01, 'fuse') AS f FROM keys;

-- Sized from the keys it holds, n NULL: 7-bit fingerprints (2^-7 <= 1 %), segments of 2^9
-- slots, 23 and 2 more of them (12,500 slots wanted: a factor of 1.25 at 10,000 keys, rounded up
-- to whole segments), 9.01 bits a key.
SELECT length(f), json_extract(bloom_info(f), '$.fingerprint_bits'),
       json_extract(bloom_info(f), '$.segment_length'), json_extract(bloom_info(f), '$.segments'),
       json_extract(bloom_info(f), '$.slots'), json_extract(bloom_info(f), '$.bits_per_key'),
       json_extract(bloom_info(f), '$.n'), json_extract(bloom_info(f), '$.keys_added')
FROM built;
-- => 11264|7|512|23|12800|9.0112|10000|10000

-- Every key probes 1, an INTEGER also as the equal REAL; 100,000 absent keys near 2^-7 of
-- the time (781 expected, a standard deviation of 28: 670 to 892).
SELECT sum(bloom_might_contain(f, k)), sum(bloom_might_contain(f, CAST(k AS REAL)) AND typeof(k) = 'integer')
FROM built, keys;
-- => 10000|2500
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 100000)
SELECT sum(bloom_might_contain(f, -i)) BETWEEN 670 AND 892 FROM built, s;
-- => 1

-- The same set in any order and with any repeats gives the same bytes; n given is kept as the
-- capacity, and more keys than n are held all the same (over_capacity).
SELECT (SELECT bloom_build(k, NULL, 0.01, 'fuse')
        FROM (SELECT * FROM (SELECT i, k FROM keys UNION ALL SELECT i, k FROM keys)
              ORDER BY i % 7, i DESC)) = f
FROM built;
-- => 1
SELECT json_extract(bloom_info(bloom_build(k, 5000, 0.01, 'fuse')), '$.n'),
       json_extract(bloom_info(bloom_build(k, 5000, 0.01, 'fuse')), '$.over_capacity'),
       substr(bloom_build(k, 5000, 0.01, 'fuse'), 65) = substr(f, 65)
FROM keys, built;
-- => 5000|1|1

-- The fewest fingerprint bits f with 2^-f <= p, 1 to 32.
SELECT p, json_extract(bloom_info(bloom_build(k, NULL, p, 'fuse')), '$.fingerprint_bits')
FROM keys, (SELECT 0.5 AS p UNION ALL SELECT 0.004 UNION ALL SELECT 1e-4
            UNION ALL SELECT 1.0 / 4294967296)
GROUP BY p ORDER BY p DESC;
-- => 0.5|1
-- => 0.004|8
-- => 0.0001|14
-- => 2.3283064365387e-10|32
SELECT bloom_build(k, NULL, 1e-10, 'fuse') FROM keys;
-- error: bloom_build: a 'fuse' filter needs p >= 2.33e-10 (fingerprints of at most 32 bits), got 1.0e-10

-- Keys all NULL: a filter of no keys, which answers 0 (its rate the REAL 0.0, as every kind's
-- empty filter's); no rows: NULL.
SELECT json_extract(bloom_info(f), '$.keys_added'), json_extract(bloom_info(f), '$.bits_per_key'),
       json_extract(bloom_info(f), '$.estimated_fp_rate'),
       (SELECT sum(bloom_might_contain(f, k)) FROM keys)
FROM (SELECT bloom_build(NULL, 100, 0.01, 'fuse') AS f FROM keys);
-- => 0|NULL|0.0|0
SELECT quote(bloom_build(k, NULL, 0.01, 'fuse')) FROM keys WHERE 0;
-- => NULL

-- bloom_info of the golden filter (tests/golden/fuse_v2.hex): 18 distinct keys in 48 slots.
SELECT bloom_info(bloom_build(k, 20, 0.01, 'fuse')) FROM keys WHERE i <= 18;
-- => {"format_version":2,"min_reader_version":2,"layout":"fuse","hash":"xxh3-128","fingerprint_bits":7,"arity":3,"segment_length":16,"segments":1,"slots":48,"seed":0,"bytes":106,"n":20,"p":0.01,"keys_added":18,"bits_per_key":47.1111111111111,"estimated_fp_rate":0.0078125,"over_capacity":false}

-- A handle probes as the BLOB does.
SELECT sum(bloom_might_contain(bloom_handle(f), k)) FROM built, keys;
-- => 10000

-- A live table: one created for 'fuse' is refused; a fuse filter loaded into another is probed
-- there, and refuses keys.
CREATE VIRTUAL TABLE live_fuse USING bloom(kind = 'fuse', n = 100, p = 0.01);
-- error: live_fuse: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'countmin', 'parquet' or 'spark', got 'fuse': a 'fuse' filter cannot add keys where it is stored: it is built once from all its keys; build it again, or build a 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to add keys where it is stored
CREATE VIRTUAL TABLE live USING bloom(kind = 'blocked', n = 100, p = 0.01);
INSERT INTO live(name, filter) SELECT 'shipped', f FROM built;
SELECT sum((SELECT count(*) FROM live WHERE name = 'shipped' AND key = k)) FROM keys;
-- => 10000
SELECT (SELECT filter FROM live WHERE name = 'shipped') = f FROM built;
-- => 1
INSERT INTO live(name, key) VALUES ('shipped', 'new');
-- error: live: a 'fuse' filter cannot add keys where it is stored: it is built once from all its keys; build it again, or build a 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to add keys where it is stored

-- A filter's header checked (format.md, section 5): 4 slots a key is not this kind.
SELECT bloom_might_contain(CAST(substr(f, 1, 9) || x'04' || substr(f, 11) AS BLOB), 1) FROM built;
-- error: bloom_might_contain: corrupt filter: 4 slots a key, not 3
