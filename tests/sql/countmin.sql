-- The count-min sketch (kind 6): every cms_* function and form, the Bloom functions on a sketch,
-- NULLs, estimates against the true counts of a skewed stream, the conservative update, unions,
-- in place, and every error (rules 23 (count-min sketch) to 25 (count-min in place)). What it
-- shares with every kind (probe, union of parts, add, info, in place): tests/sql/kinds.sql.

-- Sizing: depth = ceil(ln(1 / delta)) rows of width = ceil(e / epsilon) counters of 8 bytes,
-- after the 64-byte header.
SELECT length(cms_empty(0.01, 0.01)), 64 + 272 * 5 * 8, length(cms_empty(0.5, 0.9)), 64 + 6 * 1 * 8;
-- => 10944|10944|112|112
SELECT hex(substr(cms_empty(0.01, 0.01, 'conservative'), 1, 64)), length(replace(hex(substr(cms_empty(0.01, 0.01), 65)), '0', ''));
-- => 5351424602020601100100000000000005000000010000007B14AE47E17A843F7B14AE47E17A843F000000000000000000000000000000000000000000000000|0
SELECT cms_info(cms_empty(0.01, 0.01));
-- => {"format_version":2,"min_reader_version":2,"layout":"countmin","hash":"xxh3-128","width":272,"depth":5,"counter_bits":64,"update":"plain","epsilon":0.01,"delta":0.01,"bytes":10944,"total":0,"error_bound":0.0,"counters_nonzero":0}
-- 64 rows at most: delta down to e^-64 (1.6e-28).
SELECT json_extract(cms_info(cms_empty(0.5, 2e-28)), '$.depth');
-- => 64
SELECT cms_empty(0.5, 1e-28);
-- error: cms_empty: delta = 1.0e-28 needs a depth of more than 64 rows
-- The update in any case; 'plain' is the default.
SELECT cms_empty(0.01, 0.01, 'PLAIN') = cms_empty(0.01, 0.01), cms_empty(0.01, 0.01, 'Conservative') = cms_empty(0.01, 0.01, 'conservative'),
       cms_empty(0.01, 0.01, 'plain') = cms_empty(0.01, 0.01, 'conservative');
-- => 1|1|0

-- A skewed stream of 30,000 rows: 7 INTEGER keys about 1,429 times each, 701 TEXT keys about
-- 14 times, 10,000 BLOB keys once.
CREATE TABLE stream(i INTEGER PRIMARY KEY, k);
INSERT INTO stream WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 30000)
SELECT i, CASE i % 3 WHEN 0 THEN i % 7 WHEN 1 THEN 'warm ' || (i % 701) ELSE CAST('tail ' || i AS BLOB) END FROM s;
CREATE TABLE truth AS SELECT k, count(*) AS n FROM stream GROUP BY k;
SELECT count(*), sum(n), max(n), min(n) FROM truth;
-- => 10708|30000|1429|1
-- A sketch for epsilon = 0.01 and delta = 0.05 (272 counters a row, 3 rows: 110 rows of the
-- stream a counter), plain and conservative.
CREATE TABLE sketches AS
SELECT cms_build(k, 0.01, 0.05) AS plain, cms_build(k, 1, 0.01, 0.05, 'conservative') AS cons FROM stream;
SELECT json_extract(cms_info(plain), '$.total'), json_extract(cms_info(plain), '$.error_bound'),
       json_extract(cms_info(cons), '$.update'), json_extract(cms_info(cons), '$.total') FROM sketches;
-- => 30000|300.0|conservative|30000
-- Rule 24 (count): no estimate is below the true count, plain or conservative; a plain
-- estimate passes the true count by more than epsilon * total (300) for at most a share delta
-- of the keys (here 1 of 10,708); the conservative estimate is never above the plain one, and
-- below it for most keys here.
SELECT count(*), sum(cms_count(plain, k) >= n), sum(cms_count(cons, k) >= n),
       sum(cms_count(plain, k) - n > 300) <= 0.05 * count(*), sum(cms_count(cons, k) <= cms_count(plain, k)),
       sum(cms_count(cons, k) < cms_count(plain, k)) > count(*) / 2,
       sum(cms_count(cons, k) - n) < sum(cms_count(plain, k) - n)
FROM truth, sketches;
-- => 10708|10708|10708|1|10708|1|1
-- The heavy keys: within the bound.
SELECT k, n, cms_count(plain, k) - n BETWEEN 0 AND 300, cms_count(cons, k) - n BETWEEN 0 AND 300
FROM truth, sketches WHERE typeof(k) = 'integer' ORDER BY k;
-- => 0|1428|1|1
-- => 1|1428|1|1
-- => 2|1429|1|1
-- => 3|1429|1|1
-- => 4|1428|1|1
-- => 5|1429|1|1
-- => 6|1429|1|1
-- Rule 5 (keys): 3 and 3.0 are one key, '3' and x'33' others.
SELECT cms_count(plain, 3) = cms_count(plain, 3.0), cms_count(plain, '3') = cms_count(plain, 3),
       cms_count(plain, 'warm 3') = cms_count(plain, CAST('warm 3' AS BLOB)) FROM sketches;
-- => 1|0|0

-- The forms of cms_build: (key, epsilon, delta) is (key, 1, epsilon, delta) and (key, 1,
-- epsilon, delta, 'plain'); a count weighs a row as that many rows; a count of 0, a NULL key
-- or a NULL count adds nothing (the table weighted has such rows besides the counts of the
-- first 3,000 rows of the stream).
CREATE TABLE weighted AS
SELECT k, count(*) AS c FROM stream WHERE i <= 3000 GROUP BY k
UNION ALL SELECT NULL, 5 UNION ALL SELECT 'not counted', NULL UNION ALL SELECT 'zero', 0;
SELECT (SELECT cms_build(k, 0.01, 0.05) FROM stream WHERE i <= 3000) = cms_build(k, c, 0.01, 0.05),
       (SELECT cms_build(k, 1, 0.01, 0.05) FROM stream WHERE i <= 3000) = cms_build(k, c, 0.01, 0.05, 'plain'),
       json_extract(cms_info(cms_build(k, c, 0.01, 0.05)), '$.total')
FROM weighted;
-- => 1|1|3000
-- Rule 6 (nulls and groups): over no row NULL, over NULL keys only the empty sketch; each group
-- its own sketch.
SELECT quote(cms_build(k, 0.01, 0.05)) FROM stream WHERE i < 0;
-- => NULL
SELECT cms_build(NULL, 0.01, 0.05) = cms_empty(0.01, 0.05), cms_build(NULL, 2, 0.01, 0.05, 'conservative') = cms_empty(0.01, 0.05, 'conservative');
-- => 1|1
SELECT i % 2, json_extract(cms_info(cms_build(k, 0.01, 0.05)), '$.total'), cms_count(cms_build(k, 0.01, 0.05), 0)
FROM stream WHERE i <= 70 GROUP BY i % 2 ORDER BY 1;
-- => 0|35|1
-- => 1|35|2
SELECT cms_build(k, 0.01, 0.05) OVER () FROM stream;
-- error: cms_build() may not be used as a window function

-- cms_add: a copy with the count (1) added; 0, a NULL key or a NULL count leave the sketch as
-- it was; a NULL sketch is NULL. One add at a time from the empty sketch gives the bytes of
-- cms_build, plain and conservative.
SELECT cms_add(plain, 'x') = cms_add(plain, 'x', 1), cms_add(plain, 'x', 3) = cms_add(cms_add(plain, 'x', 2), 'x'),
       cms_add(plain, 'x', 3.0) = cms_add(plain, 'x', 3), cms_add(plain, 'x', 0) = plain,
       cms_add(plain, NULL) = plain, cms_add(plain, 'x', NULL) = plain, quote(cms_add(NULL, 'x')),
       cms_count(cms_add(plain, 'new key', 1000000000000), 'new key') - cms_count(plain, 'new key')
FROM sketches;
-- => 1|1|1|1|1|1|NULL|1000000000000
WITH RECURSIVE r(i, plain, cons) AS (
  SELECT 0, cms_empty(0.01, 0.05), cms_empty(0.01, 0.05, 'conservative')
  UNION ALL
  SELECT r.i + 1, cms_add(plain, s.k), cms_add(cons, s.k) FROM r JOIN stream AS s ON s.i = r.i + 1 WHERE r.i < 3000)
SELECT plain = (SELECT cms_build(k, 0.01, 0.05) FROM stream WHERE i <= 3000),
       cons = (SELECT cms_build(k, 1, 0.01, 0.05, 'conservative') FROM stream WHERE i <= 3000)
FROM r WHERE i = 3000;
-- => 1|1

-- A probe of a key never added is 1 when each of its counters is above 0: for 2,000 keys in 7
-- rows of 2,719 counters, (1 - e^(-2000/2719))^7 = 1.04 % of the time (of 20,000 probes: 208
-- expected; 146 to 270 is 4 standard deviations of the probes and of the counters' fill).
--! param @tail SELECT cms_build(k, 0.001, 0.001) FROM stream WHERE typeof(k) = 'blob' AND i <= 6000
CREATE TABLE absent AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20000) SELECT 'absent ' || i AS k FROM s;
SELECT json_extract(cms_info(@tail), '$.total'), json_extract(cms_info(@tail), '$.depth'),
       (SELECT sum(bloom_might_contain(@tail, k)) FROM stream WHERE typeof(k) = 'blob' AND i <= 6000),
       (SELECT sum(bloom_might_contain(@tail, k)) FROM absent) BETWEEN 146 AND 270;
-- => 2000|7|2000|1

-- cms_count: NULL for a NULL key, an error for a NULL sketch; a bound sketch (kept for the
-- statement) and a handle answer as the sketch.
SELECT quote(cms_count(plain, NULL)) FROM sketches;
-- => NULL
SELECT cms_count(NULL, 1);
-- error: cms_count: the sketch is NULL, which holds no key: a subquery that found no row (is the name it looks for right?) or a NULL cell (to skip those, test the column IS NOT NULL first)
--! param @plain SELECT plain FROM sketches
SELECT sum(cms_count(@plain, k) = cms_count(plain, k)), sum(cms_count(bloom_handle(@plain), k) = cms_count(plain, k))
FROM truth, sketches;
-- => 10708|10708

-- cms_union: plain sketches of two streams sum to the sketch of both, byte for byte, as a
-- scalar, as an aggregate, and as bloom_union; conservative ones to estimates never below the
-- true counts nor above the plain sketch of both (rule 24 (count)).
CREATE TABLE halves AS
SELECT i % 2 AS half, cms_build(k, 0.01, 0.05) AS plain, cms_build(k, 1, 0.01, 0.05, 'conservative') AS cons
FROM stream GROUP BY half;
SELECT cms_union(a.plain, b.plain) = s.plain, cms_union(b.plain, a.plain) = s.plain,
       bloom_union(a.plain, b.plain) = s.plain, (SELECT cms_union(plain) FROM halves) = s.plain,
       (SELECT bloom_union(plain) FROM halves) = s.plain
FROM halves AS a, halves AS b, sketches AS s WHERE a.half = 0 AND b.half = 1;
-- => 1|1|1|1|1
CREATE TABLE cons_union AS SELECT cms_union(cons) AS u FROM halves;
SELECT count(*), sum(cms_count(u, k) >= n), sum(cms_count(u, k) <= cms_count(plain, k)),
       json_extract(cms_info(u), '$.total'), json_extract(cms_info(u), '$.update')
FROM truth, sketches, cons_union;
-- => 10708|10708|10708|30000|conservative
-- NULLs: a NULL side is NULL without validating the other; the aggregate skips NULLs and is
-- NULL over none.
SELECT quote(cms_union(NULL, x'00')), quote(cms_union(plain, NULL)), quote(cms_union(NULL, NULL)) FROM sketches;
-- => NULL|NULL|NULL
SELECT (SELECT cms_union(f) FROM (SELECT plain AS f FROM halves UNION ALL SELECT NULL)) = plain,
       quote((SELECT cms_union(f) FROM (SELECT NULL AS f))) FROM sketches;
-- => 1|NULL
SELECT cms_union(a.plain, b.plain) FROM sketches AS a, (SELECT cms_empty(0.001, 0.05) AS plain) AS b;
-- error: cms_union: incompatible filters: count-min sketches of width 272 and depth 3 (epsilon = 0.01, delta = 0.05) and of width 2719 and depth 3 (epsilon = 0.001, delta = 0.05); build both with the same epsilon and delta
SELECT cms_union(plain, cms_empty(0.01, 0.01)) FROM sketches;
-- error: cms_union: incompatible filters: count-min sketches of width 272 and depth 3 (epsilon = 0.01, delta = 0.05) and of width 272 and depth 5 (epsilon = 0.01, delta = 0.01); build both with the same epsilon and delta
SELECT cms_union(plain, cons) FROM sketches;
-- error: cms_union: incompatible filters: a count-min sketch of the plain update and one of the conservative update; build both with the same update
SELECT cms_union(f) FROM (SELECT plain AS f FROM sketches UNION ALL SELECT cons FROM sketches);
-- error: cms_union: incompatible filters: a count-min sketch of the plain update and one of the conservative update; build both with the same update
-- A sketch and a filter are different kinds, whichever comes first, also in the aggregate.
SELECT bloom_union(plain, bloom_empty(10, 0.01)) FROM sketches;
-- error: bloom_union: incompatible filters: a 'countmin' sketch and a 'standard' filter are different kinds, which cannot be combined; a union takes two filters of one kind, or two sketches
SELECT bloom_union(bloom_empty(10, 0.01, 'blocked'), plain) FROM sketches;
-- error: bloom_union: incompatible filters: a 'blocked' filter and a 'countmin' sketch are different kinds, which cannot be combined; a union takes two filters of one kind, or two sketches
SELECT bloom_union(f) FROM (SELECT bloom_empty(10, 0.01, 'cuckoo') AS f UNION ALL SELECT plain FROM sketches);
-- error: bloom_union: incompatible filters: a 'cuckoo' filter and a 'countmin' sketch are different kinds, which cannot be combined; a union takes two filters of one kind, or two sketches
SELECT bloom_union(plain, bloom_build(1, 10, 0.01, 'fuse')) FROM sketches;
-- error: bloom_union: incompatible filters: a 'countmin' sketch and a 'fuse' filter are different kinds, which cannot be combined; a union takes two filters of one kind, or two sketches

-- cms_info is bloom_info of a sketch: error_bound is epsilon * total, counters_nonzero the
-- counters above 0 (the 7 heavy keys' 3 each, here).
SELECT cms_info(plain) = bloom_info(plain), quote(cms_info(NULL)) FROM sketches;
-- => 1|NULL
SELECT cms_info(cms_build(k, 0.01, 0.05)) FROM stream WHERE typeof(k) = 'integer';
-- => {"format_version":2,"min_reader_version":2,"layout":"countmin","hash":"xxh3-128","width":272,"depth":3,"counter_bits":64,"update":"plain","epsilon":0.01,"delta":0.05,"bytes":6592,"total":10000,"error_bound":100.0,"counters_nonzero":21}

-- The Bloom functions on a sketch: a probe is 1 when the estimate is above 0; bloom_add adds
-- 1; bloom_remove, bloom_build and bloom_empty refuse it.
SELECT sum(bloom_might_contain(plain, k)), sum(bloom_might_contain(plain, k) = (cms_count(plain, k) > 0)),
       bloom_might_contain(cms_empty(0.01, 0.05), 1), bloom_add(plain, 'x') = cms_add(plain, 'x'),
       quote(bloom_might_contain(plain, NULL))
FROM truth, sketches;
-- => 10708|10708|0|1|NULL
SELECT bloom_remove(plain, 1) FROM sketches;
-- error: bloom_remove: a 'countmin' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
SELECT bloom_build(k, 100, 0.01, 'countmin') FROM stream;
-- error: bloom_build: a 'countmin' filter is not built from n and p: use cms_build(key [, count], epsilon, delta)
SELECT bloom_build(k, NULL, 0.01, 'CountMin') FROM stream;
-- error: bloom_build: a 'countmin' filter is not built from n and p: use cms_build(key [, count], epsilon, delta)
SELECT bloom_empty(100, 0.01, 'countmin');
-- error: bloom_empty: a 'countmin' filter is not built from n and p: use cms_build(key [, count], epsilon, delta)

-- The cms_* functions refuse a filter of another kind.
CREATE TABLE bloom AS SELECT bloom_build(k, 100, 0.01) AS f FROM stream WHERE i <= 100;
SELECT cms_count(f, 1) FROM bloom;
-- error: cms_count: the filter is a 'standard' filter, not a count-min sketch; build one with cms_build
--! param @bloom SELECT f FROM bloom
SELECT cms_count(@bloom, k) FROM stream;
-- error: cms_count: the filter is a 'standard' filter, not a count-min sketch; build one with cms_build
SELECT cms_add(f, 1) FROM bloom;
-- error: cms_add: the filter is a 'standard' filter, not a count-min sketch; build one with cms_build
SELECT cms_union(plain, f) FROM sketches, bloom;
-- error: cms_union: the filter is a 'standard' filter, not a count-min sketch; build one with cms_build
SELECT cms_union(f, plain) FROM sketches, bloom;
-- error: cms_union: the filter is a 'standard' filter, not a count-min sketch; build one with cms_build
SELECT cms_union(f) FROM (SELECT plain AS f FROM sketches UNION ALL SELECT f FROM bloom);
-- error: cms_union: the filter is a 'standard' filter, not a count-min sketch; build one with cms_build
SELECT cms_info(bloom_empty(10, 0.01, 'scalable'));
-- error: cms_info: the filter is a 'scalable' filter, not a count-min sketch; build one with cms_build

-- Rules 3 (parameters) and 14 (errors): epsilon and delta are REALs strictly between 0 and 1;
-- a count a whole number from 0 to 2^63 - 1; the update 'plain' or 'conservative'.
SELECT cms_build(1, 0.0, 0.01);
-- error: cms_build: epsilon must be between 0 and 1 (exclusive), got 0.0
SELECT cms_build(1, 1, 0.01);
-- error: cms_build: epsilon must be between 0 and 1 (exclusive), got 1
SELECT cms_build(1, '0.01', 0.01);
-- error: cms_build: epsilon must be between 0 and 1 (exclusive), got '0.01'
SELECT cms_empty(NULL, 0.01);
-- error: cms_empty: epsilon must be between 0 and 1 (exclusive), got NULL
SELECT cms_empty(x'00', 0.01);
-- error: cms_empty: epsilon must be between 0 and 1 (exclusive), got a BLOB of 1 byte
SELECT cms_build(1, 0.01, 1.0);
-- error: cms_build: delta must be between 0 and 1 (exclusive), got 1.0
SELECT cms_empty(0.01, -0.5);
-- error: cms_empty: delta must be between 0 and 1 (exclusive), got -0.5
SELECT cms_build(1, -1, 0.01, 0.01);
-- error: cms_build: count must be a whole number from 0 to 9223372036854775807, got -1
SELECT cms_build(1, 1.5, 0.01, 0.01);
-- error: cms_build: count must be a whole number from 0 to 9223372036854775807, got 1.5
SELECT cms_add(cms_empty(0.01, 0.01), 1, '2');
-- error: cms_add: count must be a whole number from 0 to 9223372036854775807, got '2'
SELECT cms_add(cms_empty(0.01, 0.01), 1, 9223372036854775808.0);
-- error: cms_add: count must be a whole number from 0 to 9223372036854775807, got 9.22337203685478e+18
SELECT cms_add(cms_empty(0.01, 0.01), 1, -0.5);
-- error: cms_add: count must be a whole number from 0 to 9223372036854775807, got -0.5
SELECT cms_build(1, 1, 0.01, 0.01, 'fast');
-- error: cms_build: update must be 'plain' or 'conservative', got 'fast'
SELECT cms_empty(0.01, 0.01, NULL);
-- error: cms_empty: update must be 'plain' or 'conservative', got NULL
SELECT cms_empty(0.01, 0.01, 1);
-- error: cms_empty: update must be 'plain' or 'conservative', got 1
-- The same on every row of a group.
SELECT cms_build(k, CASE WHEN i < 10 THEN 0.01 ELSE 0.02 END, 0.05) FROM stream;
-- error: cms_build: epsilon must be the same for all rows of a group, got 0.02 after 0.01
SELECT cms_build(k, 1, 0.01, CASE WHEN i < 10 THEN 0.05 ELSE 0.5 END) FROM stream;
-- error: cms_build: delta must be the same for all rows of a group, got 0.5 after 0.05
SELECT cms_build(k, 1, 0.01, 0.05, CASE WHEN i < 10 THEN 'plain' ELSE 'conservative' END) FROM stream;
-- error: cms_build: update must be the same for all rows of a group, got 'conservative' after 'plain'
-- A later row whose parameters are not the first row's to the byte is read the long way.
SELECT cms_build(k, CASE WHEN i < 10 THEN 0.01 ELSE '0.01' END, 0.05) FROM stream;
-- error: cms_build: epsilon must be between 0 and 1 (exclusive), got '0.01'
SELECT cms_build(k, 1, 0.01, 0.05, CASE WHEN i < 10 THEN 'plain' ELSE 'plains' END) FROM stream;
-- error: cms_build: update must be 'plain' or 'conservative', got 'plains'
SELECT cms_build(k, 1, 0.01, CASE WHEN i < 10 THEN 0.05 ELSE 'plain' END) FROM stream;
-- error: cms_build: delta must be between 0 and 1 (exclusive), got 'plain'; with an update the form is cms_build(key, count, epsilon, delta, update): cms_build(key, 1, epsilon, delta, update) counts each row once
SELECT cms_build(k, 1, 0.01, 0.05, CASE WHEN i < 10 THEN 'plain' ELSE 'PLAIN' END) = plain FROM stream, sketches;
-- => 1
--! param @update SELECT 'Plain'
SELECT cms_build(k, 1, 0.01, 0.05, @update) = plain FROM stream, sketches;
-- => 1
-- Counts add up to at most 2^63 - 1, the largest INTEGER: an add past it is refused, by every
-- function that adds; up to it, accepted.
CREATE TABLE big AS SELECT cms_add(cms_empty(0.01, 0.05), 'x', 9223372036854775806) AS s;
SELECT cms_count(cms_add(s, 'y'), 'x'), json_extract(cms_info(cms_add(s, 'y')), '$.total') FROM big;
-- => 9223372036854775806|9223372036854775807
SELECT cms_add(s, 'y', 2) FROM big;
-- error: cms_add: no room for the count in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT bloom_add(cms_add(s, 'y'), 'z') FROM big;
-- error: bloom_add: no room for the key in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT cms_build(k, c, 0.01, 0.05) FROM (SELECT 'x' AS k, 9223372036854775807 AS c UNION ALL SELECT 'y', 1);
-- error: cms_build: no room for the count in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT cms_union(s, cms_build(k, 0.01, 0.05)) FROM big, stream WHERE i <= 2;
-- error: cms_union: no room for the union in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT cms_union(f) FROM (SELECT s AS f FROM big UNION ALL SELECT s FROM big);
-- error: cms_union: no room for the union in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT bloom_union(s, s) FROM big;
-- error: bloom_union: no room for the union in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
-- The forms.
SELECT cms_build(1, 0.01);
-- error: cms_build: wrong number of arguments (2); the forms are cms_build(key, epsilon, delta), cms_build(key, count, epsilon, delta) and cms_build(key, count, epsilon, delta, update)
SELECT cms_empty(0.01);
-- error: cms_empty: wrong number of arguments (1); the forms are cms_empty(epsilon, delta) and cms_empty(epsilon, delta, update)
SELECT cms_count(1);
-- error: cms_count: wrong number of arguments (1); the form is cms_count(sketch, key)
SELECT cms_add(1);
-- error: cms_add: wrong number of arguments (1); the forms are cms_add(sketch, key) and cms_add(sketch, key, count)
SELECT cms_union(1, 2, 3);
-- error: cms_union: wrong number of arguments (3); the forms are cms_union(a, b), a scalar, and cms_union(sketch), an aggregate
SELECT cms_info();
-- error: cms_info: wrong number of arguments (0); the form is cms_info(sketch)
SELECT cms_add_in_place('t', 'f', 1);
-- error: cms_add_in_place: wrong number of arguments (3); the forms are cms_add_in_place(table, column, rowid, key) and cms_add_in_place(table, column, rowid, key, count)
SELECT cms_count_in_place('t', 'f', 1, 2, 3);
-- error: cms_count_in_place: wrong number of arguments (5); the form is cms_count_in_place(table, column, rowid, key)

-- Rule 8 (validation): the header's fields and the length.
SELECT cms_count(CAST(substr(s, 1, 16) || x'00' || substr(s, 18) AS BLOB), 1) FROM big;
-- error: cms_count: corrupt filter: depth 0 is outside 1..64
SELECT cms_count(CAST(s || x'00' AS BLOB), 1) FROM big;
-- error: cms_count: corrupt filter: width 272 and depth 3 do not fill 6593 bytes
SELECT cms_add(CAST(substr(s, 1, 20) || x'02' || substr(s, 22) AS BLOB), 1) FROM big;
-- error: cms_add: corrupt filter: update 2 is not 0 or 1
SELECT bloom_might_contain(CAST(substr(s, 1, 21) || x'01' || substr(s, 23) AS BLOB), 1) FROM big;
-- error: bloom_might_contain: corrupt filter: reserved byte 21 is 0x01, not 0
SELECT cms_info(CAST(substr(s, 1, 24) || zeroblob(8) || substr(s, 33) AS BLOB)) FROM big;
-- error: cms_info: corrupt filter: epsilon = 0 is not between 0 and 1
SELECT cms_union(s, CAST(substr(s, 1, 47) || x'80' || substr(s, 49) AS BLOB)) FROM big;
-- error: cms_union: corrupt filter: total 9295429630892703742 is more than 9223372036854775807

-- Rule 25 (count-min in place): the sketch stored in a cell. cms_add_in_place returns the
-- key's estimate after the add, and leaves the bytes cms_add gives, plain and conservative
-- (3,000 adds, in a transaction: in autocommit, a SELECT commits each write as it returns);
-- cms_count_in_place answers as cms_count.
CREATE TABLE cells(id INTEGER PRIMARY KEY, s BLOB);
INSERT INTO cells VALUES (1, cms_empty(0.01, 0.05)), (2, cms_empty(0.01, 0.05, 'conservative')), (3, NULL);
BEGIN;
SELECT count(*), sum(cms_add_in_place('cells', 's', 1, k) = cms_count_in_place('cells', 's', 1, k)),
       sum(cms_add_in_place('cells', 's', 2, k, 2) = cms_count_in_place('cells', 's', 2, k))
FROM stream WHERE i <= 3000;
-- => 3000|3000|3000
COMMIT;
SELECT s = (SELECT cms_build(k, 0.01, 0.05) FROM stream WHERE i <= 3000) FROM cells WHERE id = 1;
-- => 1
WITH RECURSIVE r(i, s) AS (
  SELECT 0, cms_empty(0.01, 0.05, 'conservative')
  UNION ALL SELECT r.i + 1, cms_add(s, k, 2) FROM r JOIN stream ON stream.i = r.i + 1 WHERE r.i < 3000)
SELECT s = (SELECT s FROM cells WHERE id = 2) FROM r WHERE i = 3000;
-- => 1
SELECT count(*), sum(cms_count_in_place('cells', 's', 1, k) = cms_count(s, k)) FROM truth, cells WHERE id = 1;
-- => 10708|10708
-- The estimate after (its counters shared with other keys: above the 0 adds before); a count of
-- 0 changes nothing and returns the estimate; NULL key or count: NULL, nothing read or written.
--! param @before SELECT cms_count(s, 'fresh key') FROM cells WHERE id = 1
SELECT @before > 0, cms_add_in_place('cells', 's', 1, 'fresh key', 5) - @before;
-- => 1|5
SELECT cms_add_in_place('cells', 's', 1, 'fresh key') - @before;
-- => 6
SELECT cms_add_in_place('cells', 's', 1, 'fresh key', 0) - @before, cms_count_in_place('cells', 's', 1, 'fresh key') - @before;
-- => 6|6
SELECT quote(cms_add_in_place('cells', 's', 1, NULL)), quote(cms_add_in_place('cells', 's', 1, 'x', NULL)),
       quote(cms_add_in_place('nowhere', 's', 1, NULL)), quote(cms_count_in_place('nowhere', 's', 1, NULL));
-- => NULL|NULL|NULL|NULL
SELECT s = cms_add(cms_add((SELECT cms_build(k, 0.01, 0.05) FROM stream WHERE i <= 3000), 'fresh key', 5), 'fresh key')
FROM cells WHERE id = 1;
-- => 1
-- The Bloom functions in place: an add of 1 answering whether the estimate is now 1 (the key
-- certainly not there before); a probe.
INSERT INTO cells VALUES (5, cms_empty(0.01, 0.05));
SELECT bloom_might_contain_in_place('cells', 's', 5, 'other key'), bloom_add_in_place('cells', 's', 5, 'other key');
-- => 0|1
SELECT bloom_add_in_place('cells', 's', 5, 'other key'), bloom_might_contain_in_place('cells', 's', 5, 'other key'),
       cms_count_in_place('cells', 's', 5, 'other key'), cms_add_in_place('cells', 's', 5, 'other key', 3);
-- => 0|1|2|5
SELECT s = cms_add(cms_empty(0.01, 0.05), 'other key', 5) FROM cells WHERE id = 5;
-- => 1
SELECT bloom_remove_in_place('cells', 's', 1, 'other key');
-- error: bloom_remove_in_place: a 'countmin' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
-- Errors, each changing nothing.
CREATE TABLE before AS SELECT s FROM cells WHERE id = 1;
SELECT cms_add_in_place('cells', 's', 1, 'x', -1);
-- error: cms_add_in_place: count must be a whole number from 0 to 9223372036854775807, got -1
SELECT cms_add_in_place('cells', 's', 1, 'x', 9223372036854775807);
-- error: cms_add_in_place: no room for the count in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT cms_add_in_place('cells', 's', 3, 'x');
-- error: cms_add_in_place: the filter must be a BLOB, got NULL in main.cells.s, rowid 3
SELECT cms_count_in_place('cells', 's', 4, 'x');
-- error: cms_count_in_place: no row with rowid 4 in main.cells
SELECT cms_add_in_place('cells', 'nosuch', 1, 'x');
-- error: cms_add_in_place: cannot update main.cells.nosuch: no such column: nosuch
SELECT cms_count_in_place('cells', 'nosuch', 1, 'x');
-- error: cms_count_in_place: cannot read main.cells.nosuch: no such column: nosuch
INSERT INTO cells SELECT 4, f FROM bloom;
SELECT cms_add_in_place('cells', 's', 4, 'x');
-- error: cms_add_in_place: main.cells.s, rowid 4 holds a 'standard' filter, not a count-min sketch
SELECT cms_count_in_place('cells', 's', 4, 'x');
-- error: cms_count_in_place: main.cells.s, rowid 4 holds a 'standard' filter, not a count-min sketch
UPDATE cells SET s = (SELECT CAST(substr(s, 1, 16) || x'00' || substr(s, 18) AS BLOB) FROM big) WHERE id = 4;
SELECT cms_count_in_place('cells', 's', 4, 'x');
-- error: cms_count_in_place: corrupt filter: depth 0 is outside 1..64 (main.cells.s, rowid 4)
PRAGMA query_only = ON;
SELECT cms_add_in_place('cells', 's', 1, 'x');
-- error READONLY: cms_add_in_place: cannot write main.cells.s, rowid 1: attempt to write a readonly database
SELECT cms_count_in_place('cells', 's', 5, 'other key');
-- => 5
PRAGMA query_only = OFF;
BEGIN;
SELECT cms_add_in_place('cells', 's', 1, 'x', 10) >= 10;
-- => 1
ROLLBACK;
SELECT s = (SELECT s FROM before) FROM cells WHERE id = 1;
-- => 1

-- Rule 13 (memory and limits): a sketch larger than SQLITE_LIMIT_LENGTH is SQLITE_TOOBIG.
--! limit length 10000
SELECT cms_empty(0.01, 0.01);
-- error TOOBIG: cms_empty: a sketch for epsilon = 0.01 and delta = 0.01 needs 10944 bytes, more than the length limit of 10000 bytes
SELECT cms_build(k, 0.01, 0.01) FROM stream;
-- error TOOBIG: cms_build: a sketch for epsilon = 0.01 and delta = 0.01 needs 10944 bytes, more than the length limit of 10000 bytes
