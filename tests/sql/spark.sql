-- The 'spark' kind's own rules (rule 32 (Spark filters)): Spark's keys (an INTEGER a long, a
-- TEXT a string, a BLOB a byte array; a REAL refused by every function, with why), the versions
-- and their sizes, Spark's bytes both ways and their refusals, the union as Spark merges, in
-- place and in a live table. Spark's own filters and answers: tests/golden/spark
-- (sql.spark_golden).
CREATE TABLE keys(i INTEGER PRIMARY KEY, k);
INSERT INTO keys(k) WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000)
SELECT CASE n % 3 WHEN 0 THEN n WHEN 1 THEN 'key ' || n ELSE CAST('blob ' || n AS BLOB) END FROM s;
CREATE TABLE built AS SELECT bloom_build(k, 1000, 0.01, 'spark') AS v2,
                             bloom_build(k, 1000, 0.01, 'spark v1') AS v1 FROM keys;
SELECT sum(bloom_might_contain(v2, k)), sum(bloom_might_contain(v1, k)) FROM built, keys;
-- => 1000|1000

-- Sizes as Spark's BloomFilter.create(1000, 0.01): 9,585 bits, 150 words, k = 7; the version
-- in any case; 'spark v2' is 'spark'.
SELECT json_extract(bloom_info(v2), '$.m'), json_extract(bloom_info(v2), '$.k'),
       json_extract(bloom_info(v1), '$.spark_version'), length(v2), length(v1)
FROM built;
-- => 9600|7|1|1264|1264
SELECT (SELECT bloom_build(k, 1000, 0.01, 'SPARK V2') FROM keys) = v2,
       (SELECT bloom_build(k, 1000, 0.01, 'Spark v1') FROM keys) = v1 FROM built;
-- => 1|1
-- Sized at the end: the filter for the distinct keys (its count of keys added counts repeats).
SELECT substr(f, 65) = substr(v2, 65), json_extract(bloom_info(f), '$.keys_added')
FROM built, (SELECT bloom_build(k, NULL, 0.01, 'spark') AS f
             FROM (SELECT k FROM keys UNION ALL SELECT k FROM keys));
-- => 1|2000
SELECT bloom_build(1, 10, 0.01, 'spark v3');
-- error: bloom_build: a 'spark' kind may name Spark's version: 'spark v1' (Spark 3.x and 4.0 read it) or 'spark v2' ('spark' alone), got 'spark v3'
SELECT bloom_build(1, 1, 0.9, 'spark');
-- error: bloom_build: a 'spark' filter for n = 1 at p = 0.9 has no bit (Spark's create refuses it too): give a smaller p
SELECT bloom_build(1, 1000000000, 0.01, 'spark v1');
-- error: bloom_build: a 'spark v1' filter for n = 1000000000 at p = 0.01 needs 9585058432 bits, more than the 2^31 that version 1 reaches: build 'spark' (version 2, read by Spark 4.1 and later)
SELECT length(bloom_empty(200000000, 0.01, 'spark v1'));
-- => 239626528

-- Spark's keys: a string is its UTF-8 bytes, so the TEXT 'ab' and the BLOB x'6162' are one key;
-- 1 and 1.0 are not, a REAL is no key.
SELECT bloom_might_contain(f, x'6162'), bloom_might_contain(f, 'ab'), bloom_might_contain(f, 'AB')
FROM (SELECT bloom_build('ab', 10, 0.001, 'spark') AS f);
-- => 1|1|0
SELECT bloom_build(k, 10, 0.01, 'spark') FROM (SELECT 1 AS k UNION ALL SELECT 2.5);
-- error: bloom_build: the key 2.5 is not a value of the filter's type, a long, string or byte array (Spark's put takes no double); nothing was added
SELECT bloom_add(v2, 1.0) FROM built;
-- error: bloom_add: the key 1.0 is not a value of the filter's type, a long, string or byte array (Spark's put takes no double); nothing was added
SELECT bloom_might_contain(v2, 3.0) FROM built;
-- error: bloom_might_contain: the key 3.0 is REAL, and no REAL is a value of the filter's type, a long, string or byte array (Spark's put takes no double) (probe with CAST(key AS INTEGER) for a long, CAST(key AS TEXT) for a string)
SELECT bloom_might_contain(v2, CAST(3.0 AS INTEGER)), bloom_might_contain(v2, NULL) FROM built;
-- => 1|NULL
SELECT bloom_remove(v2, 3) FROM built;
-- error: bloom_remove: a 'spark' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys

-- Spark's bytes: the head big-endian, then the words; read back, the same bits, n and p not known.
SELECT hex(substr(bloom_to_spark(v2), 1, 16)), hex(substr(bloom_to_spark(v1), 1, 12)),
       length(bloom_to_spark(v2)), length(bloom_to_spark(v1)) FROM built;
-- => 00000002000000070000000000000096|000000010000000700000096|1216|1212
SELECT bloom_to_spark(bloom_from_spark(bloom_to_spark(v2))) = bloom_to_spark(v2),
       substr(bloom_from_spark(bloom_to_spark(v1)), 65) = substr(v1, 65),
       json_extract(bloom_info(bloom_from_spark(bloom_to_spark(v2))), '$.n') IS NULL FROM built;
-- => 1|1|1
SELECT bloom_to_spark(NULL), bloom_from_spark(NULL);
-- => NULL|NULL
SELECT bloom_to_spark(bloom_build(1, 10, 0.01, 'blocked'));
-- error: bloom_to_spark: the filter is a 'blocked' filter, not a Spark one; build one with bloom_build(key, n, p, 'spark')
SELECT bloom_from_spark('00000001');
-- error: bloom_from_spark: bytes must be a BLOB: the bytes of Spark's BloomFilter.writeTo, got '00000001'
SELECT bloom_from_spark(x'000000010000000100000001');
-- error: bloom_from_spark: not a Spark Bloom filter: the head announces 1 words (8 bytes), and 0 bytes follow it
SELECT bloom_from_spark(x'0000000100000000000000010000000000000000');
-- error: bloom_from_spark: not a Spark Bloom filter: 0 hash functions, not 1 to 2147483647
SELECT bloom_from_spark(x'00000002000000010000000000000001');
-- error: bloom_from_spark: not a Spark Bloom filter: the head announces 1 words (8 bytes), and 0 bytes follow it
SELECT bloom_from_spark(x'00000000000000010000000100000000000000FF');
-- error: bloom_from_spark: not a Spark Bloom filter: Spark version 0, not 1 or 2
SELECT bloom_to_spark(1, 2);
-- error: bloom_to_spark: wrong number of arguments (2); the form is bloom_to_spark(filter)
--! limit length 150
SELECT bloom_from_spark(CAST(x'000000010000000100000010' || zeroblob(128) AS BLOB));
-- error TOOBIG: bloom_from_spark: the filter would have 192 bytes, more than the length limit of 150 bytes
--! limit length 1000000000

-- A seed (Spark's create(n, bits, seed)): another filter for the same keys; kept by its bytes.
SELECT hex(substr(bloom_to_spark(f), 9, 4)), json_extract(bloom_info(f), '$.seed'),
       bloom_might_contain(f, 'x'), bloom_might_contain(f, 'y')
FROM (SELECT bloom_add(bloom_from_spark(CAST(x'00000002000000050000002A00000002' || zeroblob(16) AS BLOB)), 'x') AS f);
-- => 0000002A|42|1|0

-- Union as Spark merges: the same version, size, k and seed.
SELECT bloom_union(v2, bloom_build(1, 1000, 0.01, 'spark')) = bloom_add(v2, 1) FROM built;
-- => 1
SELECT bloom_union(v2, v1) FROM built;
-- error: bloom_union: incompatible filters: Spark versions 2 and 1; Spark merges filters of one version
SELECT bloom_union(v2, bloom_build(1, 100, 0.01, 'spark')) FROM built;
-- error: bloom_union: incompatible filters: 9600 bits with k = 7 and 960 bits with k = 7; build both with the same n and p
SELECT bloom_union(bloom_from_spark(CAST(x'00000002000000050000002A00000002' || zeroblob(16) AS BLOB)),
                   bloom_from_spark(CAST(x'00000002000000050000002B00000002' || zeroblob(16) AS BLOB)));
-- error: bloom_union: incompatible filters: seeds 42 and 43; Spark merges filters of one seed
SELECT bloom_union(v2, bloom_build(1, 1000, 0.01)) FROM built;
-- error: bloom_union: incompatible filters: a 'spark' filter and a 'standard' one; build both with the same n, p and kind

-- In place: a key added where the filter is stored, a REAL refused there, and probed.
CREATE TABLE cells(id INTEGER PRIMARY KEY, f BLOB);
INSERT INTO cells SELECT 1, v2 FROM built;
SELECT bloom_add_in_place('cells', 'f', 1, 'new key'), bloom_might_contain_in_place('cells', 'f', 1, 'new key');
-- => 1|1
SELECT (SELECT f FROM cells) = bloom_add(v2, 'new key') FROM built;
-- => 1
SELECT bloom_add_in_place('cells', 'f', 1, 0.5);
-- error: bloom_add_in_place: the key 0.5 is not a value of the filter's type, a long, string or byte array (Spark's put takes no double); nothing was added
SELECT bloom_might_contain_in_place('cells', 'f', 1, 0.5);
-- error: bloom_might_contain_in_place: the key 0.5 is REAL, and no REAL is a value of the filter's type, a long, string or byte array (Spark's put takes no double) (probe with CAST(key AS INTEGER) for a long, CAST(key AS TEXT) for a string)

-- A live table of Spark filters: built key by key as bloom_build builds it; a REAL refused.
CREATE VIRTUAL TABLE live USING bloom(kind = 'spark', n = 1000, p = 0.01);
INSERT INTO live(name, key) SELECT 'a', k FROM keys;
SELECT (SELECT filter FROM live WHERE name = 'a') = v2 FROM built;
-- => 1
SELECT count(*) FROM keys WHERE EXISTS (SELECT 1 FROM live WHERE name = 'a' AND key = keys.k);
-- => 1000
INSERT INTO live(name, key) VALUES ('a', 1.5);
-- error: live: the key 1.5 is not a value of the filter's type, a long, string or byte array (Spark's put takes no double); nothing was added
-- A REAL for a filter of a new name makes no filter, also inside a transaction, where the
-- failed statement does not end it (fuzz_live found one made: regressions/live-refused-key-makes-no-filter).
BEGIN;
INSERT INTO live(name, key) VALUES ('b', 2.5);
-- error: live: the key 2.5 is not a value of the filter's type, a long, string or byte array (Spark's put takes no double); nothing was added
INSERT INTO live(key) VALUES (2.5);
-- error: live: the key 2.5 is not a value of the filter's type, a long, string or byte array (Spark's put takes no double); nothing was added
SELECT group_concat(quote(name)) FROM live;
-- => 'a'
COMMIT;
SELECT group_concat(quote(name)) FROM live;
-- => 'a'
CREATE VIRTUAL TABLE live1 USING bloom(kind = 'spark v1', n = 1000, p = 0.01);
INSERT INTO live1(name, key) SELECT 'a', k FROM keys;
SELECT (SELECT filter FROM live1 WHERE name = 'a') = v1 FROM built;
-- => 1
SELECT count(*) FROM live WHERE key = 1.5;
-- => 0
