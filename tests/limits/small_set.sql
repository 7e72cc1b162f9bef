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
