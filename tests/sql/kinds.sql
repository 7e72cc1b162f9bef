-- One test body over every kind: each statement below runs for every row of the table kinds,
-- so a kind added to the extension adds one row here (the first statement fails until it
-- does) and is held to all of it.
--
-- The count-min sketch ('countmin', kind 6) is not built from n and p: cms_build and cms_empty
-- make it, and bloom_build refuses it. It runs the body wherever a statement takes a filter
-- (the probe, the false positives, the union, the add, bloom_info, in place): the tables built,
-- parts, but_last and stored get its sketch from cms_build(k, 0.01, 0.05) and
-- cms_empty(0.01, 0.05): 3 rows of 272 counters, 6,592 bytes. (A sketch whose estimates of keys
-- never added are above 0 only 1 % of the time would take 150 kB for these keys, which SQLite
-- would copy from the table for each probe here: tests/sql/countmin.sql measures one, bound.)
-- It is left out of what tests bloom_build itself (sized at the end) and of the removes, which
-- it cannot. Its own functions: tests/sql/countmin.sql; the scalable kind's growth:
-- tests/sql/scalable.sql.
--
-- A Parquet filter ('parquet', kind 7; one_type 1) holds the values of one type, which its first
-- key gives it, and refuses the others (rule 27 (Parquet filters)): the keys it gets here are
-- the same keys as TEXT that keep their type apart, typeof(k) || ':' || k (as test_kind_key
-- makes them in tests/test_kinds.h), so that keys of the four types stay as many distinct keys,
-- and its absent keys the same of the absent ones; every statement takes a kind's keys from
-- kind_keys and kind_absent. Its own rules (the type, 1 and 1.0 as one key, the refusals):
-- tests/sql/parquet.sql.
--
-- A Spark filter ('spark', kind 9; one_type 1) takes Spark's keys, and refuses a REAL (rule 32
-- (Spark filters)): its keys here are those TEXT keys too. Its own rules: tests/sql/spark.sql.
--
-- A binary fuse filter ('fuse', kind 8; static 1) is built once from all its keys (rule 30
-- (static filters)): it runs the body wherever a statement builds or probes a filter, also in
-- place, and is refused by the union, the add and the removes, which say to build it again
-- (at the end of this file). Its own rules: tests/sql/fuse.sql.
CREATE TABLE kinds(name TEXT PRIMARY KEY, one_type INTEGER NOT NULL DEFAULT 0,
                   static INTEGER NOT NULL DEFAULT 0);
INSERT INTO kinds(name) VALUES ('standard'), ('blocked'), ('counting'), ('cuckoo'), ('scalable'), ('countmin');
INSERT INTO kinds(name, one_type) VALUES ('parquet', 1);
INSERT INTO kinds(name, static) VALUES ('fuse', 1);
INSERT INTO kinds(name, one_type) VALUES ('spark', 1);
SELECT bloom_build(1, 10, 0.01, 'no such kind');
-- error: bloom_build: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet', 'fuse' or 'spark', got 'no such kind'
-- The count-min sketch's other names, in any case, point to cms_build as its kind's does.
SELECT bloom_build(1, 10, 0.01, 'countmin');
-- error: bloom_build: a 'countmin' filter is not built from n and p: use cms_build(key [, count], epsilon, delta)
SELECT bloom_build(1, 10, 0.01, 'count-min');
-- error: bloom_build: a 'countmin' filter is not built from n and p: use cms_build(key [, count], epsilon, delta)
SELECT bloom_build(1, 10, 0.01, 'CMS');
-- error: bloom_build: a 'countmin' filter is not built from n and p: use cms_build(key [, count], epsilon, delta)
SELECT bloom_empty(10, 0.01, 'cms');
-- error: bloom_empty: a 'countmin' filter is not built from n and p: use cms_build(key [, count], epsilon, delta)
SELECT bloom_empty(10, 0.01, 'Count-Min');
-- error: bloom_empty: a 'countmin' filter is not built from n and p: use cms_build(key [, count], epsilon, delta)
SELECT bloom_build(1, 10, 0.01, 'cms ');
-- error: bloom_build: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet', 'fuse' or 'spark', got 'cms '

-- 2,000 keys of every type, and as many absent ones.
CREATE TABLE keys(i INTEGER, k);
INSERT INTO keys
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 1999)
SELECT i, CASE i % 4 WHEN 0 THEN i * 7919 WHEN 1 THEN i + 0.5 WHEN 2 THEN 'key ' || i
                     ELSE CAST('blob ' || i AS BLOB) END FROM s;
CREATE TABLE absent AS
SELECT CASE i % 4 WHEN 0 THEN -1 - i * 7919 WHEN 1 THEN i + 0.25 WHEN 2 THEN CAST('key ' || i AS BLOB)
                  ELSE 'blob ' || i END AS k FROM keys;
-- The keys each kind gets, and its absent ones: themselves, or for a kind of one type the TEXT
-- that keeps their type apart.
CREATE VIEW kind_keys AS
SELECT name, i, CASE one_type WHEN 1 THEN typeof(k) || ':' || k ELSE k END AS k FROM kinds, keys;
CREATE VIEW kind_absent AS
SELECT name, CASE one_type WHEN 1 THEN typeof(k) || ':' || k ELSE k END AS k FROM kinds, absent;
SELECT name, count(DISTINCT k), count(DISTINCT typeof(k)),
       (SELECT count(*) FROM (SELECT k FROM kind_keys AS p WHERE p.name = kind_keys.name
                              INTERSECT SELECT k FROM kind_absent AS a WHERE a.name = kind_keys.name))
FROM kind_keys WHERE name IN ('standard', 'parquet') GROUP BY name ORDER BY name;
-- => parquet|2000|1|0
-- => standard|2000|4|0
-- (Keyed by name: a GROUP BY name over built and keys then needs no sort of the filters.)
CREATE TABLE built(name TEXT PRIMARY KEY, f BLOB);
INSERT INTO built
SELECT name, bloom_build(k, 2000, 0.01, name) AS f FROM kind_keys WHERE name <> 'countmin' GROUP BY name
UNION ALL SELECT 'countmin', cms_build(k, 0.01, 0.05) FROM kind_keys WHERE name = 'countmin';

-- Rule 7 (probe): every key added probes 1, an INTEGER also as the equal REAL (rule 5 (keys)).
SELECT name, sum(bloom_might_contain(f, k)), count(*) FROM built JOIN kind_keys USING (name)
GROUP BY name ORDER BY name;
-- => blocked|2000|2000
-- => counting|2000|2000
-- => countmin|2000|2000
-- => cuckoo|2000|2000
-- => fuse|2000|2000
-- => parquet|2000|2000
-- => scalable|2000|2000
-- => spark|2000|2000
-- => standard|2000|2000
-- (Not 'parquet', whose keys here are all TEXT: tests/sql/parquet.sql finds 1 as 1.0 and 1.0 as
-- 1 in its INT64 and DOUBLE filters.)
SELECT name, sum(bloom_might_contain(f, CAST(k AS REAL))) FROM built JOIN kind_keys USING (name)
WHERE typeof(k) = 'integer' GROUP BY name ORDER BY name;
-- => blocked|500
-- => counting|500
-- => countmin|500
-- => cuckoo|500
-- => fuse|500
-- => scalable|500
-- => standard|500

-- Keys never added: false positives near the rate each kind has here, within about 4 standard
-- deviations: the target of 1 % (20 expected, 3 to 41); a scalable filter holds p for all its
-- stages together, its first one at p * (1 - 0.8) = 0.2 % (4 expected, 0 to 12); the sketch,
-- not sized for a rate, has nearly every counter above 0 after 2,000 keys (0.5 of its 816
-- expected at 0, each giving 0 to 1/272 of the probes: 1,996 expected; 1,960 to 2,000 allows
-- for 5); a Parquet filter rounds its bitset up to a power of two, 128 blocks (4,096 bytes)
-- here where the model of rule 27 (Parquet filters) needs 83, so that its rate is well under
-- p: 0.117 % by the model at 128 blocks, 0.120 % by bloom_info's estimated_fp_rate of this
-- one, from its blocks' fill (2.4 expected, a standard deviation of 1.55: 0 to 9; the
-- statement after it checks that rate); a binary fuse filter's fingerprints of 7 bits, the
-- fewest with 2^-f <= 1 %, match with chance 2^-7 (15.6 expected, 0 to 32). And none at all in
-- an empty filter.
CREATE TABLE expected_fp(name TEXT PRIMARY KEY, low INTEGER, high INTEGER);
INSERT INTO expected_fp VALUES ('standard', 3, 41), ('blocked', 3, 41), ('counting', 3, 41),
                               ('cuckoo', 3, 41), ('scalable', 0, 12), ('countmin', 1960, 2000),
                               ('parquet', 0, 9), ('fuse', 0, 32), ('spark', 3, 41);
SELECT name, sum(bloom_might_contain(f, k)) BETWEEN low AND high
FROM built JOIN expected_fp USING (name) JOIN kind_absent USING (name) GROUP BY name ORDER BY name;
-- => blocked|1
-- => counting|1
-- => countmin|1
-- => cuckoo|1
-- => fuse|1
-- => parquet|1
-- => scalable|1
-- => spark|1
-- => standard|1
SELECT json_extract(bloom_info(f), '$.bitset_bytes'),
       round(json_extract(bloom_info(f), '$.estimated_fp_rate'), 5)
FROM built WHERE name = 'parquet';
-- => 4096|0.0012
SELECT name, (SELECT sum(bloom_might_contain(empty.f, k)) FROM kind_keys WHERE kind_keys.name = empty.name)
FROM (SELECT name, bloom_build(NULL, 100, 0.01, name) AS f FROM kinds WHERE name <> 'countmin' GROUP BY name
      UNION ALL SELECT 'countmin', cms_empty(0.01, 0.05)) AS empty
ORDER BY name;
-- => blocked|0
-- => counting|0
-- => countmin|0
-- => cuckoo|0
-- => fuse|0
-- => parquet|0
-- => scalable|0
-- => spark|0
-- => standard|0

-- Rule 4 (sized at the end): the same bytes as with n the number of distinct keys; a kind that
-- counts repeats needs n. (A scalable filter counts only the keys no stage held before, which
-- depends on the order of the adds: sized at the end it has the same bits, and its count may
-- differ; tests/sql/scalable.sql.)
SELECT name, (SELECT bloom_build(k, NULL, 0.01, name) FROM kind_keys WHERE kind_keys.name = built.name) = f
FROM built WHERE name NOT IN ('counting', 'cuckoo', 'scalable', 'countmin') ORDER BY name;
-- => blocked|1
-- => fuse|1
-- => parquet|1
-- => spark|1
-- => standard|1
SELECT bloom_build(k, NULL, 0.01, 'counting') FROM keys;
-- error: bloom_build: a 'counting' filter counts every repeat of a key, so it cannot be sized at the end from the distinct keys: give n

-- Rule 10 (union): the union of filters built over parts is the filter built over the whole,
-- as an aggregate and as a scalar of two parts; a cuckoo filter's union holds the same keys,
-- placed in another order. (Not a static kind, which does not merge.)
CREATE TABLE parts AS
SELECT name, i % 3 AS part, bloom_build(k, 2000, 0.01, name) AS f FROM kind_keys JOIN kinds USING (name)
WHERE name <> 'countmin' AND NOT static GROUP BY name, part
UNION ALL SELECT 'countmin', i % 3 AS part, cms_build(k, 0.01, 0.05) FROM kind_keys
WHERE name = 'countmin' GROUP BY part;
CREATE TABLE unions AS SELECT name, bloom_union(f) AS f FROM parts GROUP BY name;
SELECT u.name, u.f = b.f FROM unions AS u JOIN built AS b USING (name) ORDER BY u.name;
-- => blocked|1
-- => counting|1
-- => countmin|1
-- => cuckoo|0
-- => parquet|1
-- => scalable|1
-- => spark|1
-- => standard|1
-- (A sketch counts the total of its counts, not keys added.)
SELECT name, (SELECT sum(bloom_might_contain(f, k)) FROM kind_keys WHERE kind_keys.name = unions.name),
       json_extract(bloom_info(f), '$.keys_added'), json_extract(bloom_info(f), '$.total')
FROM unions ORDER BY name;
-- => blocked|2000|2000|NULL
-- => counting|2000|2000|NULL
-- => countmin|2000|NULL|2000
-- => cuckoo|2000|2000|NULL
-- => parquet|2000|2000|NULL
-- => scalable|2000|2000|NULL
-- => spark|2000|2000|NULL
-- => standard|2000|2000|NULL
SELECT p0.name, bloom_union(p0.f, p1.f) = (SELECT bloom_union(f) FROM parts
                                          WHERE name = p0.name AND part < 2)
FROM parts AS p0, parts AS p1
WHERE p0.name = p1.name AND p0.part = 0 AND p1.part = 1 ORDER BY p0.name;
-- => blocked|1
-- => counting|1
-- => countmin|1
-- => cuckoo|1
-- => parquet|1
-- => scalable|1
-- => spark|1
-- => standard|1

-- Rule 9 (add): the filter of 1,999 keys with the last one added is the filter of all 2,000
-- (not a static kind's, which is never added to).
CREATE TABLE but_last AS
SELECT name, bloom_build(k, 2000, 0.01, name) AS f FROM kind_keys JOIN kinds USING (name)
WHERE name <> 'countmin' AND NOT static AND i < 1999 GROUP BY name
UNION ALL SELECT 'countmin', cms_build(k, 0.01, 0.05) FROM kind_keys WHERE name = 'countmin' AND i < 1999;
SELECT name, bloom_add(l.f, (SELECT k FROM kind_keys WHERE kind_keys.name = b.name AND i = 1999)) = b.f
FROM built AS b JOIN but_last AS l USING (name) ORDER BY name;
-- => blocked|1
-- => counting|1
-- => countmin|1
-- => cuckoo|1
-- => parquet|1
-- => scalable|1
-- => spark|1
-- => standard|1

-- Rule 11 (info): the kind's name, the keys added (a sketch: the total of its counts), and
-- within capacity (a scalable filter grows instead, and a sketch has no capacity: neither
-- has the field; nor has a Parquet filter, whose fields are format.md 4.7's).
SELECT name, json_extract(bloom_info(f), '$.layout') = name, json_extract(bloom_info(f), '$.keys_added'),
       json_extract(bloom_info(f), '$.total'), json_extract(bloom_info(f), '$.over_capacity')
FROM built ORDER BY name;
-- => blocked|1|2000|NULL|0
-- => counting|1|2000|NULL|0
-- => countmin|1|NULL|2000|NULL
-- => cuckoo|1|2000|NULL|0
-- => fuse|1|2000|NULL|0
-- => parquet|1|2000|NULL|NULL
-- => scalable|1|2000|NULL|NULL
-- => spark|1|2000|NULL|NULL
-- => standard|1|2000|NULL|0

-- Rule 8 (validation): the kind byte changed to one no kind has is refused (one kind's filter
-- here: an error ends the statement; core.unit and fuzz_core try every kind).
SELECT name, bloom_might_contain(CAST(substr(f, 1, 6) || x'FF' || substr(f, 8) AS BLOB), 1)
FROM built WHERE name = 'standard';
-- error: bloom_might_contain: corrupt filter: unknown kind 255

-- Rule 10 (union): filters of two kinds do not merge.
SELECT bloom_union(a.f, b.f) FROM built AS a, built AS b
WHERE a.name = 'standard' AND b.name = 'blocked';
-- error: bloom_union: incompatible filters: a 'standard' filter and a 'blocked' one; build both with the same n, p and kind
-- A kind that does not merge is refused as such beside another kind, whichever comes first.
SELECT bloom_union(a.f, b.f) FROM built AS a, built AS b
WHERE a.name = 'standard' AND b.name = 'fuse';
-- error: bloom_union: a 'fuse' filter cannot merge with another: it is built once from all its keys; build it from both sets of keys, or build a 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to merge with another
SELECT bloom_union(a.f, b.f) FROM built AS a, built AS b
WHERE a.name = 'fuse' AND b.name = 'parquet';
-- error: bloom_union: a 'fuse' filter cannot merge with another: it is built once from all its keys; build it from both sets of keys, or build a 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to merge with another

-- Rule 19 (in place): the keys added one by one where the filter is stored give the bytes
-- bloom_build gives, and a probe there answers as bloom_might_contain, present or absent. (A
-- static kind's filter is stored built.) (In a transaction: in autocommit, a SELECT commits each
-- call of a writer as it returns.)
CREATE TABLE stored(name TEXT, f BLOB);
INSERT INTO stored
SELECT name, CASE WHEN name = 'countmin' THEN cms_empty(0.01, 0.05)
                  WHEN static THEN (SELECT f FROM built WHERE built.name = kinds.name)
                  ELSE bloom_empty(2000, 0.01, name) END
FROM kinds ORDER BY rowid;
BEGIN;
SELECT name, count(bloom_add_in_place('stored', 'f', kinds.rowid, k)) FROM kinds JOIN kind_keys USING (name)
WHERE NOT static GROUP BY name ORDER BY name;
-- => blocked|2000
-- => counting|2000
-- => countmin|2000
-- => cuckoo|2000
-- => parquet|2000
-- => scalable|2000
-- => spark|2000
-- => standard|2000
SELECT s.name, s.f = b.f FROM stored AS s JOIN built AS b USING (name) ORDER BY s.name;
-- => blocked|1
-- => counting|1
-- => countmin|1
-- => cuckoo|1
-- => fuse|1
-- => parquet|1
-- => scalable|1
-- => spark|1
-- => standard|1
SELECT s.name, sum(bloom_might_contain_in_place('stored', 'f', s.rowid, k) = bloom_might_contain(s.f, k))
FROM stored AS s JOIN (SELECT name, k FROM kind_keys UNION ALL SELECT name, k FROM kind_absent) USING (name)
GROUP BY s.name ORDER BY s.name;
-- => blocked|4000
-- => counting|4000
-- => countmin|4000
-- => cuckoo|4000
-- => fuse|4000
-- => parquet|4000
-- => scalable|4000
-- => spark|4000
-- => standard|4000

-- Rule 20 (remove): the kinds that can, remove; the others say which can.
SELECT s.name, count(bloom_remove_in_place('stored', 'f', s.rowid, k)) FROM stored AS s, keys
WHERE s.name IN ('counting', 'cuckoo') AND i % 2 = 0 GROUP BY s.name ORDER BY s.name;
-- => counting|1000
-- => cuckoo|1000
-- The keys left all probe 1 and are counted; the removed ones mostly probe 0 (about 1 %
-- false positives: at most 41, as above).
SELECT s.name, (SELECT sum(bloom_might_contain(s.f, k)) FROM keys WHERE i % 2 = 1),
       (SELECT sum(bloom_might_contain(s.f, k)) FROM keys WHERE i % 2 = 0) <= 41,
       json_extract(bloom_info(s.f), '$.keys_added')
FROM stored AS s WHERE s.name IN ('counting', 'cuckoo') ORDER BY s.name;
-- => counting|1000|1|1000
-- => cuckoo|1000|1|1000
-- In place or copying, the same removals give the same bytes.
WITH RECURSIVE r(i, f) AS (
  SELECT 0, f FROM built WHERE name = 'cuckoo'
  UNION ALL SELECT i + 2, bloom_remove(f, (SELECT k FROM keys WHERE keys.i = r.i)) FROM r WHERE i < 2000)
SELECT f = (SELECT f FROM stored WHERE name = 'cuckoo') FROM r WHERE i = 2000;
-- => 1
SELECT s.f = (SELECT bloom_build(k, 2000, 0.01, 'counting') FROM keys WHERE i % 2 = 1)
FROM stored AS s WHERE s.name = 'counting';
-- => 1
COMMIT;
SELECT bloom_remove(f, 1) FROM built WHERE name = 'blocked';
-- error: bloom_remove: a 'blocked' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
SELECT bloom_remove_in_place('stored', 'f', rowid, 1) FROM stored WHERE name = 'standard';
-- error: bloom_remove_in_place: a 'standard' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
SELECT bloom_remove(f, 1) FROM built WHERE name = 'scalable';
-- error: bloom_remove: a 'scalable' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
SELECT bloom_remove_in_place('stored', 'f', rowid, 1) FROM stored WHERE name = 'countmin';
-- error: bloom_remove_in_place: a 'countmin' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
SELECT bloom_remove_in_place('stored', 'f', rowid, 'text:key 2') FROM stored WHERE name = 'parquet';
-- error: bloom_remove_in_place: a 'parquet' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys

-- Rule 30 (static filters): a static kind's filter is not added to, removed from or merged,
-- copied or where it is stored, nor made empty: each says it is built once from all its keys.
SELECT bloom_add(f, 1) FROM built WHERE name = 'fuse';
-- error: bloom_add: a 'fuse' filter cannot add keys: it is built once from all its keys; build it again, or build a 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to add keys
SELECT bloom_remove(f, 1) FROM built WHERE name = 'fuse';
-- error: bloom_remove: a 'fuse' filter cannot remove keys: it is built once from all its keys; build it again, or build a 'counting' or 'cuckoo' filter to remove keys
SELECT bloom_union(f) FROM built WHERE name = 'fuse';
-- error: bloom_union: a 'fuse' filter cannot merge with another: it is built once from all its keys; build it from both sets of keys, or build a 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to merge with another
SELECT bloom_add_in_place('stored', 'f', rowid, 1) FROM stored WHERE name = 'fuse';
-- error: bloom_add_in_place: a 'fuse' filter cannot add keys where it is stored: it is built once from all its keys; build it again, or build a 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to add keys where it is stored
SELECT bloom_remove_in_place('stored', 'f', rowid, 1) FROM stored WHERE name = 'fuse';
-- error: bloom_remove_in_place: a 'fuse' filter cannot remove keys: it is built once from all its keys; build it again, or build a 'counting' or 'cuckoo' filter to remove keys
SELECT bloom_empty(2000, 0.01, 'fuse');
-- error: bloom_empty: a 'fuse' filter is built once from all its keys, never empty: use bloom_build(key, n, p, 'fuse')
