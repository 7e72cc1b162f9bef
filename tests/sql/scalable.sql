-- The scalable kind (kind 5, rule 22 (scalable)): what it has of its own beyond
-- tests/sql/kinds.sql: its stages and their sizing, growth (by bloom_build, bloom_add and
-- bloom_add_in_place), keys that any stage may hold not added again, the union stage by stage
-- and when it is refused, bloom_info, and its errors. Stage i is a whole standard filter sized
-- for n * 2^i keys at p * (1 - 0.8) * 0.8^i.

-- 10,000 keys of every type (1,000 times the n = 10 of the filters below), and 20,000 never
-- added.
CREATE TABLE keys(i INTEGER PRIMARY KEY, k);
INSERT INTO keys
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 10000)
SELECT i, CASE i % 4 WHEN 0 THEN i * 7919 WHEN 1 THEN i + 0.5 WHEN 2 THEN 'key ' || i
                     ELSE CAST('blob ' || i AS BLOB) END FROM s;
CREATE TABLE absent AS
SELECT CASE i % 4 WHEN 0 THEN -1 - i * 7919 WHEN 1 THEN i + 0.25 WHEN 2 THEN CAST('key ' || i AS BLOB)
                  ELSE 'blob ' || i END AS k FROM keys
UNION ALL SELECT 'absent ' || i FROM keys;

CREATE TABLE nums AS SELECT i AS value FROM keys WHERE i <= 1000;

-- Rule 2 (sizing): one stage at first, the standard filter for n at p * (1 - 0.8) (the same
-- double: 0.01 * (1 - 0.8) is 0.0019999999999999996), after the kind's 64-byte header.
SELECT substr(bloom_empty(100, 0.01, 'scalable'), 65) = bloom_empty(100, 0.01 * (1 - 0.8)),
       length(bloom_empty(100, 0.01, 'scalable')), length(bloom_empty(100, 0.01 * (1 - 0.8)));
-- => 1|296|232
SELECT hex(substr(bloom_empty(100, 0.01, 'scalable'), 1, 64));
-- => 5351424602020501010201000000000064000000000000007B14AE47E17A843F9A9999999999E93F000000000000000000000000000000000000000000000000
-- Rule 17 (empty): bloom_empty is bloom_build over no key; the kind's name in any case.
SELECT bloom_empty(100, 0.01, 'scalable') = bloom_build(NULL, 100, 0.01, 'scalable'),
       bloom_empty(100, 0.01, 'Scalable') = bloom_empty(100, 0.01, 'scalable');
-- => 1|1
-- p above 0.5 is allowed, as for the standard kind.
SELECT json_extract(bloom_info(bloom_empty(10, 0.9, 'scalable')), '$.stages[0].p');
-- => 0.18

-- Rule 11 (info): the header, each stage, the capacity of the stages and their compound rate.
SELECT bloom_info(bloom_build(value, 4, 0.1, 'scalable')) FROM nums WHERE value BETWEEN 1 AND 10;
-- => {"format_version":2,"min_reader_version":2,"layout":"scalable","hash":"xxh3-128","stage_layout":"standard","growth":2,"tightening":0.8,"bytes":216,"n":4,"p":0.1,"keys_added":10,"capacity":12,"stage_count":2,"stages":[{"n":4,"p":0.02,"k":6,"m":64,"bytes":72,"keys_added":4,"bits_set":23,"fill_ratio":0.359375,"estimated_fp_rate":0.00215420570748392},{"n":8,"p":0.016,"k":6,"m":128,"bytes":80,"keys_added":6,"bits_set":31,"fill_ratio":0.2421875,"estimated_fp_rate":0.000201794973918368}],"estimated_fp_rate":0.00235556597351771}

-- Growth: 10,000 keys into a filter for n = 10 make 10 stages (capacity 10 * (2^10 - 1)).
-- keys_added counts the keys that no stage may have held at their turn: the others (false
-- positives then) changed nothing.
CREATE TABLE grown AS SELECT bloom_build(k, 10, 0.01, 'scalable') AS f FROM (SELECT k FROM keys ORDER BY i);
SELECT json_extract(i, '$.stage_count'), json_extract(i, '$.capacity'), json_extract(i, '$.keys_added'),
       json_extract(i, '$.bytes') = length(f), json_extract(i, '$.estimated_fp_rate') < 0.01
FROM (SELECT f, bloom_info(f) AS i FROM grown);
-- => 10|10230|9959|1|1
-- Rule 7 (probe): no false negative; a NULL key is NULL.
SELECT count(*), sum(bloom_might_contain(f, k)), quote(bloom_might_contain(f, NULL)) FROM grown, keys;
-- => 10000|10000|NULL
-- Rule 6 (nulls and groups): NULL keys are skipped (here one after each key), and each group
-- grows its own filter.
SELECT bloom_build(CASE WHEN j = 0 THEN k END, 10, 0.01, 'scalable') = (SELECT f FROM grown)
FROM (SELECT k, j FROM keys, (SELECT 0 AS j UNION ALL SELECT 1) ORDER BY i, j);
-- => 1
SELECT i % 2, bloom_build(k, 10, 0.01, 'scalable') = (SELECT bloom_build(k, 10, 0.01, 'scalable') FROM keys AS o
                                                     WHERE o.i % 2 = keys.i % 2),
       json_extract(bloom_info(bloom_build(k, 10, 0.01, 'scalable')), '$.stage_count')
FROM keys GROUP BY i % 2 ORDER BY 1;
-- => 0|1|9
-- => 1|1|9

-- Each stage is a whole standard filter: cut out, its header is that of bloom_empty(n * 2^i,
-- p * (1 - 0.8) * 0.8^i) (bloom_union keeps the n and p of its first argument, and refuses
-- another m or k), every stage but the last holds its capacity, and their keys add up.
CREATE TABLE stages AS
WITH RECURSIVE s(i, start, n, p) AS (
  SELECT 0, 65, 10, 0.01 * (1 - 0.8)
  UNION ALL
  SELECT i + 1, start + json_extract(bloom_info(f), '$.stages[' || i || '].bytes'), n * 2, p * 0.8
  FROM s, grown WHERE i + 1 < json_extract(bloom_info(f), '$.stage_count'))
SELECT i, n, p, substr(f, start, json_extract(bloom_info(f), '$.stages[' || i || '].bytes')) AS f
FROM s, grown;
SELECT i, n, bloom_union(bloom_empty(n, p), f) = f, json_extract(bloom_info(f), '$.keys_added')
FROM stages ORDER BY i;
-- => 0|10|1|10
-- => 1|20|1|20
-- => 2|40|1|40
-- => 3|80|1|80
-- => 4|160|1|160
-- => 5|320|1|320
-- => 6|640|1|640
-- => 7|1280|1|1280
-- => 8|2560|1|2560
-- => 9|5120|1|4849
SELECT 64 + sum(length(f)) = (SELECT length(f) FROM grown), sum(json_extract(bloom_info(f), '$.keys_added'))
FROM stages;
-- => 1|9959
-- A probe is 1 where any stage's is, for keys added and keys never added.
SELECT count(*), sum(bloom_might_contain(g.f, k) = (SELECT max(bloom_might_contain(s.f, k)) FROM stages AS s))
FROM grown AS g, (SELECT k FROM keys WHERE i <= 3000 UNION ALL SELECT k FROM absent WHERE rowid <= 3000);
-- => 6000|6000
-- False positives: at most p, and as the stages' fill predicts (their compound
-- estimated_fp_rate r: within 4 standard deviations of 20,000 r).
SELECT s <= 200, (s - 20000 * r) * (s - 20000 * r) <= 16 * 20000 * r * (1 - r)
FROM (SELECT sum(bloom_might_contain(f, k)) AS s, json_extract(bloom_info(f), '$.estimated_fp_rate') AS r
      FROM grown, absent);
-- => 1|1

-- Rule 9 (add): bloom_add, one key at a time from the empty filter, grows it as bloom_build
-- does, to the same bytes; a key any stage may hold leaves it as it was.
WITH RECURSIVE r(i, f) AS (
  SELECT 0, bloom_empty(10, 0.01, 'scalable')
  UNION ALL
  SELECT r.i + 1, bloom_add(r.f, (SELECT k FROM keys WHERE keys.i = r.i + 1)) FROM r WHERE r.i < 10000)
SELECT f = (SELECT f FROM grown) FROM r WHERE i = 10000;
-- => 1
SELECT bloom_add(f, 'key 2') = f, bloom_add(f, 4 * 7919.0) = f, bloom_add(f, NULL) = f,
       bloom_add(NULL, 'key 2') IS NULL FROM grown;
-- => 1|1|1|1
-- A filter whose last stage is full grows by a stage for a new key only.
CREATE TABLE full AS SELECT bloom_build(value, 4, 0.01, 'scalable') AS f FROM nums WHERE value BETWEEN 1 AND 4;
SELECT json_extract(bloom_info(f), '$.stage_count'), json_extract(bloom_info(f), '$.keys_added'),
       bloom_add(f, 1) = f,
       json_extract(bloom_info(bloom_add(f, 5)), '$.stage_count'),
       json_extract(bloom_info(bloom_add(f, 5)), '$.stages[1].keys_added'),
       bloom_add(f, 5) = (SELECT bloom_build(value, 4, 0.01, 'scalable') FROM nums WHERE value BETWEEN 1 AND 5)
FROM full;
-- => 1|4|1|2|1|1

-- Rule 19 (in place): the same adds where the filter is stored: each add that needs a stage
-- grows the cell (an UPDATE of it, run by the function); the same bytes, and the add answers 1
-- for each key it counted.
CREATE TABLE stored(id INTEGER PRIMARY KEY, f BLOB);
INSERT INTO stored VALUES (1, bloom_empty(10, 0.01, 'scalable'));
BEGIN;
SELECT sum(bloom_add_in_place('stored', 'f', 1, k)) FROM keys;
-- => 9959
COMMIT;
SELECT f = (SELECT f FROM grown), (SELECT count(*) FROM keys WHERE NOT bloom_might_contain_in_place('stored', 'f', 1, k))
FROM stored;
-- => 1|0
SELECT bloom_add_in_place('stored', 'f', 1, 'key 2'), bloom_add_in_place('stored', 'f', 1, NULL),
       f = (SELECT f FROM grown) FROM stored;
-- => 0|NULL|1
-- A probe in place answers as bloom_might_contain, for keys never added too.
SELECT count(*), sum(bloom_might_contain_in_place('stored', 'f', 1, k) = bloom_might_contain(f, k))
FROM stored, absent WHERE absent.rowid <= 4000;
-- => 4000|4000
-- Growth in place rolls back with its transaction, and with its statement.
INSERT INTO stored SELECT 2, f FROM full;
BEGIN;
SELECT bloom_add_in_place('stored', 'f', 2, 5);
-- => 1
SELECT json_extract(bloom_info(f), '$.stage_count'), f = bloom_add((SELECT f FROM full), 5) FROM stored WHERE id = 2;
-- => 2|1
ROLLBACK;
SELECT f = (SELECT f FROM full) FROM stored WHERE id = 2;
-- => 1
CREATE TABLE log(k);
CREATE TRIGGER log_add AFTER INSERT ON log BEGIN
  SELECT bloom_add_in_place('stored', 'f', 2, NEW.k);
  SELECT RAISE(ABORT, 'refused') WHERE NEW.k = 'refused';
END;
INSERT INTO log VALUES (5), ('refused');
-- error CONSTRAINT: refused
SELECT f = (SELECT f FROM full), (SELECT count(*) FROM log) FROM stored WHERE id = 2;
-- => 1|0
INSERT INTO log VALUES (5), (6);
SELECT f = (SELECT bloom_build(value, 4, 0.01, 'scalable') FROM nums WHERE value BETWEEN 1 AND 6) FROM stored WHERE id = 2;
-- => 1
-- PRAGMA query_only: refused before anything, the cell as it was.
UPDATE stored SET f = (SELECT f FROM full) WHERE id = 2;
PRAGMA query_only = ON;
SELECT bloom_add_in_place('stored', 'f', 2, 5);
-- error READONLY: bloom_add_in_place: cannot write main.stored.f, rowid 2: attempt to write a readonly database
PRAGMA query_only = OFF;
SELECT f = (SELECT f FROM full) FROM stored WHERE id = 2;
-- => 1
-- Rule 19 (in place): a table whose UPDATE of the column fires a trigger is refused before
-- anything, by an add that would grow the filter and by one that would not (so the same call
-- never obeys the trigger or passes it by depending on the growth); the cell as it was.
CREATE TABLE grew(id INTEGER, bytes INTEGER);
CREATE TRIGGER stored_grew AFTER UPDATE OF f ON stored BEGIN INSERT INTO grew VALUES (NEW.id, length(NEW.f)); END;
SELECT bloom_add_in_place('stored', 'f', 2, 1);
-- error: bloom_add_in_place: cannot write main.stored.f in place: an UPDATE of it fires a trigger, which a write in place would not; use UPDATE main.stored SET f = bloom_add(f, key) WHERE rowid = 2 instead
SELECT bloom_add_in_place('stored', 'f', 2, 5);
-- error: bloom_add_in_place: cannot write main.stored.f in place: an UPDATE of it fires a trigger, which a write in place would not; use UPDATE main.stored SET f = bloom_add(f, key) WHERE rowid = 2 instead
UPDATE stored SET f = bloom_add(bloom_add(f, 5), 6) WHERE rowid = 2;
SELECT id, bytes, bytes = (SELECT length(f) FROM stored WHERE id = 2) FROM grew;
-- => 2|216|1
DROP TRIGGER stored_grew;
UPDATE stored SET f = (SELECT f FROM full) WHERE id = 2;
-- In a TEMP table and in an attached database (the UPDATE that grows the cell names its
-- schema), the column named in any case.
CREATE TEMP TABLE scratch(f BLOB);
INSERT INTO scratch SELECT f FROM full;
ATTACH ':memory:' AS side;
CREATE TABLE side.cells(f BLOB);
INSERT INTO side.cells SELECT f FROM full;
SELECT bloom_add_in_place('temp.scratch', 'f', 1, 5), bloom_add_in_place('side.cells', 'F', 1, 5);
-- => 1|1
SELECT (SELECT f FROM temp.scratch) = bloom_add(f, 5), (SELECT f FROM side.cells) = bloom_add(f, 5) FROM full;
-- => 1|1
DETACH side;

-- Rule 4 (sized at the end): one stage, for the distinct keys. Its bits are those of the
-- filter built with n = their number, but its count of keys may differ: it counts the keys
-- no stage held at their turn, and the keys are added in another order (here 1 of the 1,000
-- was a false positive then).
CREATE TABLE thousand AS
SELECT bloom_build(value, NULL, 0.01, 'scalable') AS auto, bloom_build(value, 1000, 0.01, 'scalable') AS given
FROM nums, (SELECT 1 UNION ALL SELECT 2) WHERE value <= 1000;
SELECT json_extract(bloom_info(auto), '$.stage_count'), json_extract(bloom_info(auto), '$.n'),
       substr(auto, 1, 40) = substr(given, 1, 40), substr(auto, 65, 40) = substr(given, 65, 40),
       substr(auto, 129) = substr(given, 129),
       json_extract(bloom_info(auto), '$.keys_added'), json_extract(bloom_info(given), '$.keys_added')
FROM thousand;
-- => 1|1000|1|1|1|999|1000
-- Rule 6 (nulls and groups): over no row, NULL; over NULL keys only, the empty filter for 1 key.
SELECT quote(bloom_build(value, NULL, 0.01, 'scalable')) FROM nums WHERE value BETWEEN 1 AND 0;
-- => NULL
SELECT bloom_build(NULL, NULL, 0.01, 'scalable') = bloom_empty(1, 0.01, 'scalable');
-- => 1

-- Rule 10 (union): stage by stage, within capacity: two halves make the whole.
CREATE TABLE halves AS
SELECT (SELECT bloom_build(value, 10, 0.01, 'scalable') FROM nums WHERE value BETWEEN 1 AND 5) AS a,
       (SELECT bloom_build(value, 10, 0.01, 'scalable') FROM nums WHERE value BETWEEN 6 AND 10) AS b;
SELECT bloom_union(a, b) = (SELECT bloom_build(value, 10, 0.01, 'scalable') FROM nums WHERE value BETWEEN 1 AND 10),
       bloom_union(b, a) = bloom_union(a, b) FROM halves;
-- => 1|1
-- Of filters with different numbers of stages, the longer is copied: an empty filter added to
-- a grown one, on either side, as a scalar or an aggregate, leaves it as it was.
SELECT bloom_union(f, bloom_empty(10, 0.01, 'scalable')) = f, bloom_union(bloom_empty(10, 0.01, 'scalable'), f) = f
FROM grown;
-- => 1|1
SELECT bloom_union(f) = (SELECT f FROM grown)
FROM (SELECT bloom_empty(10, 0.01, 'scalable') AS f UNION ALL SELECT f FROM grown
      UNION ALL SELECT bloom_empty(10, 0.01, 'scalable'));
-- => 1
-- A union whose stage would hold more keys than it is sized for is refused (every stage of a
-- grown filter but its last is full), and so is one of filters built with other n or p.
SELECT bloom_union(f, bloom_build('x', 10, 0.01, 'scalable')) FROM grown;
-- error: bloom_union: incompatible filters: together their stage 0 would hold 11 keys, more than the 10 it is sized for; build one filter from both sets of keys
SELECT bloom_union(bloom_build('x', 10, 0.01, 'scalable'), f) FROM grown;
-- error: bloom_union: incompatible filters: together their stage 0 would hold 11 keys, more than the 10 it is sized for; build one filter from both sets of keys
SELECT bloom_union(f) FROM (SELECT a AS f FROM halves UNION ALL SELECT b FROM halves UNION ALL SELECT a FROM halves);
-- error: bloom_union: incompatible filters: together their stage 0 would hold 15 keys, more than the 10 it is sized for; build one filter from both sets of keys
SELECT bloom_union(bloom_empty(10, 0.01, 'scalable'), bloom_empty(20, 0.01, 'scalable'));
-- error: bloom_union: incompatible filters: scalable filters built with n = 10, p = 0.01 and with n = 20, p = 0.01; build both with the same n and p
SELECT bloom_union(bloom_empty(10, 0.01, 'scalable'), bloom_empty(10, 0.02, 'scalable'));
-- error: bloom_union: incompatible filters: scalable filters built with n = 10, p = 0.01 and with n = 10, p = 0.02; build both with the same n and p
SELECT bloom_union(bloom_empty(10, 0.01, 'scalable'), bloom_empty(10, 0.01));
-- error: bloom_union: incompatible filters: a 'scalable' filter and a 'standard' one; build both with the same n, p and kind
-- NULL on either side is NULL, without validating the other.
SELECT quote(bloom_union(NULL, x'00')), quote(bloom_union(f, NULL)), quote(bloom_info(NULL)) FROM grown;
-- => NULL|NULL|NULL

-- Rule 18 (handle): a handle answers as the filter.
--! param @grown SELECT f FROM grown
SELECT sum(bloom_might_contain(bloom_handle(@grown), k) = bloom_might_contain(@grown, k)) FROM absent;
-- => 20000

-- Rule 20 (remove): a scalable filter cannot remove.
SELECT bloom_remove(f, 'key 2') FROM grown;
-- error: bloom_remove: a 'scalable' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
SELECT bloom_remove_in_place('stored', 'f', 1, 'key 2');
-- error: bloom_remove_in_place: a 'scalable' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys

-- Rules 3 (parameters) and 14 (errors): n and p as for every kind; a p whose first stage would
-- need more than 64 hash functions.
SELECT bloom_build(1, 0, 0.01, 'scalable');
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0
SELECT bloom_empty(NULL, 0.01, 'scalable');
-- error: bloom_empty: n must be a whole number >= 1, got NULL
SELECT bloom_build(1, 10, 1.0, 'scalable');
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 1.0; p is a fraction: 1.0 % is 0.01
SELECT bloom_build(1, 10, 1e-19, 'scalable');
-- error: bloom_build: p = 1.0e-19 needs a first stage of rate 2.0e-20, which needs 66 hash functions, more than 64
SELECT bloom_build(value, 10, p, 'scalable') FROM (SELECT 1 AS value, 0.01 AS p UNION ALL SELECT 2, 0.02);
-- error: bloom_build: p must be the same for all rows of a group, got 0.02 after 0.01

-- A filter cannot grow past a stage that would need more than 64 hash functions: at p = 1e-18
-- stage 8 needs 65 (stages 0 to 7 hold 255 keys). Nothing is added, by any of the three.
CREATE TABLE tight AS SELECT bloom_build(value, 1, 1e-18, 'scalable') AS f FROM nums WHERE value BETWEEN 1 AND 255;
SELECT json_extract(bloom_info(f), '$.stage_count'), json_extract(bloom_info(f), '$.keys_added'),
       json_extract(bloom_info(f), '$.stages[7].k') FROM tight;
-- => 8|255|64
SELECT bloom_build(value, 1, 1e-18, 'scalable') FROM nums WHERE value BETWEEN 1 AND 256;
-- error: bloom_build: the 'scalable' filter cannot grow: its next part would need more hash functions than a filter may have; build it with a larger p, or a larger n to put that off
SELECT bloom_add(f, 256) FROM tight;
-- error: bloom_add: the 'scalable' filter cannot grow: its next part would need more hash functions than a filter may have; build it with a larger p, or a larger n to put that off
INSERT INTO stored SELECT 3, f FROM tight;
SELECT bloom_add_in_place('stored', 'f', 3, 256);
-- error: bloom_add_in_place: the 'scalable' filter cannot grow: its next part would need more hash functions than a filter may have; build it with a larger p, or a larger n to put that off
SELECT f = (SELECT f FROM tight), bloom_add_in_place('stored', 'f', 3, 255) FROM stored WHERE id = 3;
-- => 1|0

-- Rule 8 (validation): the header and every stage's header are checked (in place too), before
-- anything is read.
SELECT bloom_might_contain(CAST(substr(f, 1, 9) || x'01' || substr(f, 11) AS BLOB), 1) FROM full;
-- error: bloom_might_contain: corrupt filter: growth 1 is less than 2
SELECT bloom_might_contain(CAST(substr(f, 1, 8) || x'03' || substr(f, 10) AS BLOB), 1) FROM full;
-- error: bloom_might_contain: corrupt filter: stage layout 3 is not 1 or 2
SELECT bloom_info(CAST(substr(f, 1, 10) || x'02' || substr(f, 12) AS BLOB)) FROM full;
-- error: bloom_info: corrupt filter: 136 bytes cannot hold 2 stages
SELECT bloom_info(CAST(substr(f, 1, 10) || x'0B' || substr(f, 12) AS BLOB)) FROM grown;
-- error: bloom_info: corrupt filter: stage 10 starts at byte 22048, too near the end of 22048 bytes
SELECT bloom_info(CAST(substr(f, 1, 10) || x'09' || substr(f, 12) AS BLOB)) FROM grown;
-- error: bloom_info: corrupt filter: the stages end at byte 11024, the BLOB has 22048
SELECT bloom_add(CAST(f || x'00' AS BLOB), 1) FROM full;
-- error: bloom_add: corrupt filter: the stages end at byte 136, the BLOB has 137
SELECT bloom_might_contain(CAST(substr(f, 1, 40) || x'05' || substr(f, 42) AS BLOB), 1) FROM full;
-- error: bloom_might_contain: corrupt filter: 5 keys added, but its stages hold 4
UPDATE stored SET f = (SELECT CAST(substr(f, 1, 64 + 24) || x'05' || substr(f, 64 + 26) AS BLOB) FROM full) WHERE id = 2;
SELECT bloom_might_contain_in_place('stored', 'f', 2, 1);
-- error: bloom_might_contain_in_place: corrupt filter: stage 0 is sized for n = 5 at p = 0.002, not as stage 0 of this filter (main.stored.f, rowid 2)

-- Rule 13 (memory and limits): growing past SQLITE_LIMIT_LENGTH is SQLITE_TOOBIG, by any of
-- the three, and adds nothing.
UPDATE stored SET f = (SELECT f FROM full) WHERE id = 2;
--! limit length 200
SELECT bloom_build(value, 4, 0.01, 'scalable') FROM nums WHERE value BETWEEN 1 AND 5;
-- error TOOBIG: bloom_build: the 'scalable' filter would grow to 216 bytes, more than the length limit of 200 bytes
SELECT bloom_add(f, 5) FROM full;
-- error TOOBIG: bloom_add: the 'scalable' filter would grow to 216 bytes, more than the length limit of 200 bytes
SELECT bloom_add_in_place('stored', 'f', 2, 5);
-- error TOOBIG: bloom_add_in_place: the 'scalable' filter would grow to 216 bytes, more than the length limit of 200 bytes
SELECT f = (SELECT f FROM full) FROM stored WHERE id = 2;
-- => 1
--! limit length 1000000000

-- Rule 19 (in place): a column called rowid does not hide the row the call names, neither for
-- the check of the cell's type nor for the UPDATE that grows the filter; a table whose columns
-- hide every name of the rowid is an error.
CREATE TABLE shadow(rowid INTEGER, f);
INSERT INTO shadow(_rowid_, rowid, f)
VALUES (1, 2, bloom_empty(1, 0.01, 'scalable')), (2, 1, 'not a filter');
SELECT bloom_add_in_place('shadow', 'f', 1, 'a'), bloom_add_in_place('shadow', 'f', 1, 'b');
-- => 1|1
SELECT _rowid_, typeof(f), CASE typeof(f) WHEN 'blob' THEN bloom_might_contain(f, 'b') END FROM shadow ORDER BY 1;
-- => 1|blob|1
-- => 2|text|NULL
CREATE TABLE hidden(rowid INTEGER, _rowid_ INTEGER, oid INTEGER, f BLOB);
INSERT INTO hidden(f) VALUES (bloom_empty(1, 0.01, 'scalable'));
SELECT bloom_might_contain_in_place('hidden', 'f', 1, 'a');
-- error: bloom_might_contain_in_place: cannot read main.hidden.f: its columns called rowid, _rowid_ and oid hide its rowid
