-- Run against a build whose hash set holds at most 4096 slots (BLOOM_SET_SLOTS_MAX), so that
-- a filter sized at the end reaches the limit that 50,331,648 distinct keys reach in a
-- normal build: 3,072 distinct keys fit, 3,073 do not, and duplicates never count.
SELECT json_extract(bloom_info(bloom_build(i)), '$.n') FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 30720) SELECT i % 3072 AS i FROM s);
-- => 3072
SELECT bloom_build(i, NULL, 0.01) FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3073) SELECT i FROM s);
-- error: bloom_build: more than 3072 distinct keys to size a filter for; give n instead of NULL
-- With n given there is no set, and no such limit.
SELECT json_extract(bloom_info(bloom_build(i, 5000, 0.01)), '$.keys_added') FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 5000) SELECT i FROM s);
-- => 5000

-- A static kind's build ('fuse', rule 30 (static filters)) keeps at most 4096 rows here
-- (BLOOM_WHOLE_KEYS_MAX; 268,435,392 in a normal build), counting repeats.
SELECT json_extract(bloom_info(bloom_build(i, NULL, 0.01, 'fuse')), '$.keys_added') FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 4096) SELECT i % 100 AS i FROM s);
-- => 100
SELECT bloom_build(i, NULL, 0.01, 'fuse') FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 4097) SELECT i % 100 AS i FROM s);
-- error: bloom_build: a 'fuse' filter is built from at most 4096 keys
-- Its scratch is allocated in pieces of at most 16,384 bytes here (BLOOM_FUSE_PIECE_MAX; what
-- SQLite allocates at once in a normal build, so about 238 million keys): 8 bytes a slot, so
-- 1,000 keys (1,408 slots) fit and 3,000 (4,096 slots) do not.
SELECT json_extract(bloom_info(bloom_build(i, NULL, 0.01, 'fuse')), '$.slots') FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000) SELECT i FROM s);
-- => 1408
SELECT bloom_build(i, NULL, 0.01, 'fuse') FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000) SELECT i FROM s);
-- error TOOBIG: bloom_build: a 'fuse' filter of 3000 keys needs 32768 bytes of scratch in one piece, more than SQLite allocates at once
