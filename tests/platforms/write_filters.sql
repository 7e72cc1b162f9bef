-- Filters of every kind, and a live table, written where this runs, for check_filters.sql to
-- read on another platform (tests/platforms/run.sh runs it under qemu-aarch64 and Wine, and on
-- this machine for them to read). The keys are of the four types; a Parquet filter, which holds
-- one type, gets them as TEXT that keeps the types apart, and a Spark filter, which takes no
-- REAL, its REALs so (REALs of few digits, whose text every version of SQLite writes the same).
CREATE TABLE keys(k);
INSERT INTO keys
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 1999)
SELECT CASE i % 4 WHEN 0 THEN i * 7919 - 3000000 WHEN 1 THEN i + 0.25 WHEN 2 THEN 'key ' || i
                  ELSE CAST('blob ' || i AS BLOB) END FROM s;
CREATE TABLE kinds(kind TEXT PRIMARY KEY);
INSERT INTO kinds VALUES ('standard'), ('blocked'), ('counting'), ('cuckoo'), ('scalable'),
                         ('parquet'), ('fuse'), ('countmin'), ('spark');
CREATE VIEW kind_keys AS
SELECT kind, CASE WHEN kind = 'parquet' OR (kind = 'spark' AND typeof(k) = 'real')
                 THEN typeof(k) || ':' || k ELSE k END AS k
FROM kinds, keys;
CREATE TABLE filters(kind TEXT PRIMARY KEY, filter BLOB NOT NULL);
INSERT INTO filters
SELECT kind, bloom_build(k, 2000, 0.01, kind) FROM kind_keys WHERE kind <> 'countmin' GROUP BY kind
UNION ALL SELECT 'countmin', cms_build(k, 0.001, 0.01) FROM keys;
SELECT count(*), sum(length(filter)) FROM filters;
-- => 9|138961
CREATE VIRTUAL TABLE live USING bloom(kind = 'blocked', n = 100000, p = 0.001);
INSERT INTO live(name, key) SELECT 'part ' || (rowid % 10), k FROM keys;
SELECT count(*) FROM live_filters;
-- => 10
