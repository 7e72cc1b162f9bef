-- A live table's index over its filters (rule 26 (live table), docs/format.md section 7):
-- INSERT INTO t(t) VALUES ('optimize') makes it; a lookup by key then reads its rows, not every
-- filter. Its answer is the same, name for name, as every filter probed itself (answers, below):
-- the same bits, read another way, false positives included. Changes after it, and a table
-- opened again, keep that so.
CREATE TABLE numbers(value INTEGER PRIMARY KEY);
INSERT INTO numbers WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < 3000)
  SELECT v FROM n;
-- Keys of each SQLite type: 1..1500 are added, 1501..3000 are not.
CREATE TABLE probes(v);
INSERT INTO probes SELECT CASE value % 4 WHEN 0 THEN value WHEN 1 THEN 'k' || value
  WHEN 2 THEN value * 0.5 ELSE CAST('b' || value AS BLOB) END FROM numbers;
CREATE VIRTUAL TABLE parts USING bloom(kind = 'blocked', n = 30, p = 0.01);
INSERT INTO parts(name, key) SELECT 'p' || (rowid / 30), v FROM probes WHERE rowid <= 1500;
SELECT count(*) FROM parts;
-- => 51
-- Each probe's names, by key (the index when there is one) and by every filter probed: the
-- filters' snapshots, taken into snapshots before each check (refreshed).
CREATE TABLE snapshots(name, filter);
CREATE VIEW answers AS SELECT rowid AS probe, v,
  (SELECT group_concat(name) FROM (SELECT name FROM parts WHERE key = v ORDER BY name)) AS by_key,
  (SELECT group_concat(name) FROM (SELECT name FROM snapshots WHERE bloom_might_contain(filter, v)
                                   ORDER BY name)) AS by_filter
  FROM probes;
CREATE VIEW checked AS SELECT count(*) AS probes,
  sum(by_key IS NOT by_filter) AS differ,
  sum(by_key IS NULL AND probe <= 1500) AS missed,
  sum(by_key IS NOT NULL AND probe > 1500) > 5 AS false_positives_seen
  FROM answers;
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM checked;
-- => 3000|0|0|1

-- Made: its rows are rows of parts_chunks at negative ids, and the storage version is 2.
INSERT INTO parts(parts) VALUES ('optimize');
SELECT count(*) > 0 FROM parts_chunks WHERE id < 0;
-- => 1
SELECT value FROM parts_config WHERE key = 'version';
-- => 2
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM checked;
-- => 3000|0|0|1
-- A lookup by key and name, and a lookup of names, go as before.
SELECT count(*) FROM parts WHERE name = 'p3' AND key = 'k97';
-- => 1
SELECT count(*) FROM parts WHERE name = 'p4' AND key = 'k97';
-- => 0
SELECT name FROM parts WHERE key IN (3.0, 'k5') ORDER BY name;
-- => p0
-- => p0
-- The column named as the table is a command, NULL when read.
SELECT parts FROM parts WHERE name = 'p0';
-- => NULL
INSERT INTO parts(parts) VALUES ('OPTIMIZE');
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM checked;
-- => 3000|0|0|1

-- Changes after it: keys added to a filter (its column stale), a new filter, a filter loaded
-- over one, a filter loaded of another geometry, filters deleted.
INSERT INTO parts(name, key) SELECT 'p7', v FROM probes WHERE rowid BETWEEN 1501 AND 1510;
INSERT INTO parts(name, key) SELECT 'new', v FROM probes WHERE rowid BETWEEN 1511 AND 1540;
INSERT OR REPLACE INTO parts(name, filter) SELECT 'p8', bloom_build(v, 30, 0.01, 'blocked')
  FROM probes WHERE rowid BETWEEN 1541 AND 1570;
INSERT INTO parts(name, filter) SELECT 'wide', bloom_build(v, 1000, 0.001, 'blocked')
  FROM probes WHERE rowid BETWEEN 1571 AND 1750;
DELETE FROM parts WHERE name IN ('p9', 'p10');
SELECT count(*) FROM parts WHERE name = 'p7' AND key = 'k1505';
-- => 1
SELECT name FROM parts WHERE key = 'k1521';
-- => new
SELECT count(*) FROM parts WHERE name = 'p8' AND key = 'k1545';
-- => 1
SELECT count(*) FROM parts WHERE name = 'wide' AND key = 'k1701';
-- => 1
SELECT count(*) FROM parts WHERE name = 'p9';
-- => 0
CREATE VIEW checked_now AS SELECT count(*) AS probes,
  sum(by_key IS NOT by_filter) AS differ,
  sum(by_key IS NULL AND probe <= 1750 AND probe NOT BETWEEN 240 AND 329) AS missed
  FROM answers;
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM checked_now;
-- => 3000|0|0
-- In a transaction, rolled back: the index as it was.
BEGIN;
INSERT INTO parts(name, key) VALUES ('p1', 'only in the transaction');
DELETE FROM parts WHERE name = 'p2';
SELECT name FROM parts WHERE key = 'only in the transaction';
-- => p1
ROLLBACK;
SELECT count(*) FROM parts WHERE key = 'only in the transaction';
-- => 0
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM checked_now;
-- => 3000|0|0
-- Opened again: the stale columns read from their rows, the filters of no column found again.
--! reopen
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM checked_now;
-- => 3000|0|0
-- Made again: two geometries, two classes; the same answers.
INSERT INTO parts(parts) VALUES ('optimize');
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM checked_now;
-- => 3000|0|0
SAVEPOINT made;
INSERT INTO parts(parts) VALUES ('optimize');
ROLLBACK TO made;
RELEASE made;
--! reopen
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM checked_now;
-- => 3000|0|0
SELECT value FROM parts_config WHERE key = 'version';
-- => 2

-- A command is given alone (or with a name, 'allocate'), and is 'optimize' or 'allocate'.
INSERT INTO parts(parts) VALUES ('vacuum');
-- error: parts: the command is 'optimize' (the index made again) or 'allocate' (a filter's chunk rows written at once), got 'vacuum'
INSERT INTO parts(parts) VALUES (1);
-- error: parts: the command is 'optimize' (the index made again) or 'allocate' (a filter's chunk rows written at once), got 1
INSERT INTO parts(parts, name) VALUES ('optimize', 'p1');
-- error: parts: a command is given alone, or with a name for 'allocate': INSERT INTO parts(parts) VALUES ('optimize'), INSERT INTO parts(parts, name) VALUES ('allocate', NAME)
INSERT INTO parts(parts, key) VALUES ('allocate', 1);
-- error: parts: a command is given alone, or with a name for 'allocate': INSERT INTO parts(parts) VALUES ('optimize'), INSERT INTO parts(parts, name) VALUES ('allocate', NAME)
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM checked_now;
-- => 3000|0|0

-- A range of names narrows a lookup (a window of days); a DELETE of a range expires names.
SELECT name FROM parts WHERE key = 'k97' AND name >= 'p3';
-- => p3
SELECT name FROM parts WHERE key = 'k97' AND name > 'p3';
-- => (no rows)
CREATE VIEW in_window AS SELECT
  sum((SELECT group_concat(name) FROM (SELECT name FROM parts WHERE key = v AND name BETWEEN 'p2' AND 'p5' ORDER BY name)) IS NOT
      (SELECT group_concat(name) FROM (SELECT name FROM snapshots WHERE bloom_might_contain(filter, v) AND name BETWEEN 'p2' AND 'p5' ORDER BY name))),
  sum(probe BETWEEN 60 AND 179 AND NOT EXISTS (SELECT 1 FROM parts WHERE key = v AND name BETWEEN 'p2' AND 'p5'))
  FROM answers;
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM in_window;
-- => 0|0
DELETE FROM parts WHERE name < 'p15';
SELECT count(*) FROM parts WHERE name < 'p15';
-- => 0
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT sum(by_key IS NOT by_filter), sum(by_key LIKE '%p1,%' OR by_key LIKE 'p0%') FROM answers;
-- => 0|0
DELETE FROM snapshots; INSERT INTO snapshots SELECT name, filter FROM parts;
SELECT * FROM in_window;
-- => 0|0

-- Every kind: an index where the kind probes by bits (standard, blocked, parquet), none where
-- it does not; the same answers either way.
CREATE VIRTUAL TABLE k_standard USING bloom(kind = 'standard', n = 100, p = 0.01);
CREATE VIRTUAL TABLE k_parquet USING bloom(kind = 'parquet', n = 100, p = 0.01);
CREATE VIRTUAL TABLE k_counting USING bloom(kind = 'counting', n = 100, p = 0.01);
CREATE VIRTUAL TABLE k_cuckoo USING bloom(kind = 'cuckoo', n = 100, p = 0.01);
CREATE VIRTUAL TABLE k_scalable USING bloom(kind = 'scalable', n = 20, p = 0.01);
INSERT INTO k_standard(name, key) SELECT 'p' || (rowid / 30), v FROM probes WHERE rowid <= 300;
INSERT INTO k_parquet(name, key) SELECT 'p' || (rowid / 30), typeof(v) || ':' || v FROM probes WHERE rowid <= 300;
INSERT INTO k_counting(name, key) SELECT 'p' || (rowid / 30), v FROM probes WHERE rowid <= 300;
INSERT INTO k_cuckoo(name, key) SELECT 'p' || (rowid / 30), v FROM probes WHERE rowid <= 300;
INSERT INTO k_scalable(name, key) SELECT 'p' || (rowid / 30), v FROM probes WHERE rowid <= 300;
INSERT INTO k_standard(k_standard) VALUES ('optimize');
INSERT INTO k_parquet(k_parquet) VALUES ('optimize');
INSERT INTO k_counting(k_counting) VALUES ('optimize');
INSERT INTO k_cuckoo(k_cuckoo) VALUES ('optimize');
INSERT INTO k_scalable(k_scalable) VALUES ('optimize');
SELECT (SELECT count(*) > 0 FROM k_standard_chunks WHERE id < 0),
       (SELECT count(*) > 0 FROM k_parquet_chunks WHERE id < 0),
       (SELECT count(*) FROM k_counting_chunks WHERE id < 0),
       (SELECT count(*) FROM k_cuckoo_chunks WHERE id < 0),
       (SELECT count(*) FROM k_scalable_chunks WHERE id < 0);
-- => 1|1|0|0|0
SELECT (SELECT value FROM k_standard_config WHERE key = 'version'),
       (SELECT value FROM k_counting_config WHERE key = 'version');
-- => 2|1
SELECT sum((SELECT group_concat(name) FROM (SELECT name FROM k_standard WHERE key = v ORDER BY name)) IS NOT
           (SELECT group_concat(name) FROM (SELECT name FROM k_standard WHERE bloom_might_contain(filter, v) ORDER BY name))),
       sum((SELECT group_concat(name) FROM (SELECT name FROM k_parquet WHERE key = typeof(v) || ':' || v ORDER BY name)) IS NOT
           (SELECT group_concat(name) FROM (SELECT name FROM k_parquet WHERE bloom_might_contain(filter, typeof(v) || ':' || v) ORDER BY name))),
       sum((SELECT group_concat(name) FROM (SELECT name FROM k_counting WHERE key = v ORDER BY name)) IS NOT
           (SELECT group_concat(name) FROM (SELECT name FROM k_counting WHERE bloom_might_contain(filter, v) ORDER BY name))),
       sum((SELECT group_concat(name) FROM (SELECT name FROM k_cuckoo WHERE key = v ORDER BY name)) IS NOT
           (SELECT group_concat(name) FROM (SELECT name FROM k_cuckoo WHERE bloom_might_contain(filter, v) ORDER BY name))),
       sum((SELECT group_concat(name) FROM (SELECT name FROM k_scalable WHERE key = v ORDER BY name)) IS NOT
           (SELECT group_concat(name) FROM (SELECT name FROM k_scalable WHERE bloom_might_contain(filter, v) ORDER BY name))),
       sum(rowid <= 300 AND NOT EXISTS (SELECT 1 FROM k_standard WHERE key = v))
  FROM probes WHERE rowid <= 600;
-- => 0|0|0|0|0|0

-- Checked: PRAGMA integrity_check compares every column that answers with its filter (SQLite
-- 3.44 and later: xIntegrity); quick_check only the rows' shape. Rows changed by hand (defensive
-- mode off) are each undone after.
--! since 3.44.0
PRAGMA integrity_check;
-- => ok
-- The rows of the bits of the first class (class 1, group 0, positions below the map's).
CREATE VIEW bit_rows AS SELECT id FROM parts_chunks
  WHERE id < 0 AND (-1 - id) >> 32 = 1 << 16 AND (-1 - id) & 0xFFFFFFFF < 0xFFFFFFFE;
SAVEPOINT hand;
UPDATE parts_chunks SET data = zeroblob(length(data)) WHERE id IN bit_rows;
--! since 3.44.0
PRAGMA integrity_check;
-- => parts: corrupt index row -281474976710657 in parts_chunks: its bits are not its filters'
--! since 3.44.0
PRAGMA quick_check;
-- => ok
ROLLBACK TO hand;
UPDATE parts_chunks SET data = data || x'00' WHERE id IN bit_rows;
--! since 3.44.0
PRAGMA quick_check;
-- => parts: corrupt index row -281474976711168 in parts_chunks: of another length than its class says
SELECT count(*) FROM parts WHERE key = 'k5';
-- error CORRUPT: parts: corrupt index row -281474976710724 in parts_chunks: of another length than its class says
ROLLBACK TO hand;
RELEASE hand;
SELECT name FROM parts WHERE key = 'k97';
-- => p3
