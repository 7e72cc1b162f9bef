-- Rule 5 (keys) in a UTF-16 database: TEXT is hashed as its UTF-8 bytes, so filters
-- are byte-identical whatever the encoding, and probes by literal, by column
-- and by bound text all agree.
PRAGMA encoding = 'UTF-16le';
CREATE TABLE words(w TEXT);
INSERT INTO words VALUES ('hello'), ('ünïcödé'), ('🙂'), (''), ('日本語');
CREATE TABLE f AS SELECT bloom_build(w, 100, 1e-9) AS f FROM words;
--! reopen
PRAGMA encoding;
-- => UTF-16le
SELECT count(*), sum(bloom_might_contain(f, w)) FROM words, f;
-- => 5|5
SELECT bloom_might_contain(f, 'ünïcödé'), bloom_might_contain(f, '日本語'), bloom_might_contain(f, 'unicode'), bloom_might_contain(f, CAST('hello' AS BLOB)) FROM f;
-- => 1|1|0|0
-- The BLOB holds UTF-8 hashes: a filter built from the UTF-8 bytes of the
-- same words in a BLOB form is a different filter, and the TEXT filter built
-- here equals one built from literals (which SQLite hands over as UTF-8).
SELECT f = (SELECT bloom_build(w, 100, 1e-9) FROM (SELECT 'hello' AS w UNION ALL SELECT 'ünïcödé' UNION ALL SELECT '🙂' UNION ALL SELECT '' UNION ALL SELECT '日本語')) FROM f;
-- => 1
SELECT hex(substr(f, 1, 8)), length(f) FROM f;
-- => 5351424601010101|608
-- A layout named on every row of a build, literal or bound, is read as UTF-8: '瑳湡慤摲' is
-- the bytes of 'standard' in UTF-16le, and not its name.
--! param @layout SELECT 'Blocked'
SELECT bloom_build(w, 100, 1e-9, @layout) = bloom_build(w, 100, 1e-9, 'blocked'), bloom_build(w, 100, 1e-9, CASE WHEN w = 'hello' THEN 'blocked' ELSE 'BLOCKED' END) = bloom_build(w, 100, 1e-9, 'blocked') FROM words;
-- => 1|1
SELECT bloom_build(w, 100, 1e-9, CASE WHEN w = 'hello' THEN 'standard' ELSE '瑳湡慤摲' END) FROM words;
-- error: bloom_build: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet', 'fuse' or 'spark', got '瑳湡慤摲'
