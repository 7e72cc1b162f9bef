-- bloom_build(key, NULL, p) and bloom_build(key): sized for the distinct keys seen.
CREATE TABLE rows AS
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 49999)
SELECT j % 4 AS cls, CASE j % 4
  WHEN 0 THEN CASE WHEN (i / 8000) % 2 = 0 THEN j ELSE j * 1.0 END
  WHEN 1 THEN j + 0.5 WHEN 2 THEN 'k' || j ELSE CAST('k' || j AS BLOB) END AS k
FROM (SELECT i, i % 8000 AS j FROM s);
-- 50,000 rows hold 8,000 distinct keys, 2,000 each as INTEGER (half of those
-- rows spell it as an integral REAL: the same key), REAL, TEXT and BLOB.
SELECT count(*), count(DISTINCT k) FROM rows;
-- => 50000|8000

-- The filter sized at the end is byte for byte the one built with n = the distinct count.
SELECT bloom_build(k, NULL, 0.001) = (SELECT bloom_build(k, 8000, 0.001) FROM rows) FROM rows;
-- => 1
SELECT bloom_build(k) = (SELECT bloom_build(k, 8000, 0.01) FROM rows) FROM rows;
-- => 1
SELECT json_extract(i, '$.n'), json_extract(i, '$.p'), json_extract(i, '$.keys_added'), json_extract(i, '$.over_capacity')
FROM (SELECT bloom_info(bloom_build(k)) AS i FROM rows);
-- => 8000|0.01|50000|0

-- Duplicates do not inflate it: 10 copies of each row give the same filter but for the count.
SELECT substr(bloom_build(k, NULL, 0.01), 1, 40) = substr(f, 1, 40), substr(bloom_build(k, NULL, 0.01), 65) = substr(f, 65)
FROM rows, (SELECT bloom_build(k) AS f FROM rows), (WITH RECURSIVE c(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM c WHERE j < 10) SELECT j FROM c);
-- => 1|1

-- GROUP BY: each group sized for its own distinct keys.
SELECT cls, json_extract(bloom_info(bloom_build(k)), '$.n') FROM rows GROUP BY cls ORDER BY 1;
-- => 0|2000
-- => 1|2000
-- => 2|2000
-- => 3|2000

-- NULL keys are skipped; only NULL keys give an empty filter sized for one key; no rows give NULL.
SELECT json_extract(bloom_info(bloom_build(k)), '$.n') FROM (SELECT 1 AS k UNION ALL SELECT NULL UNION ALL SELECT 2);
-- => 2
SELECT hex(bloom_build(NULL, NULL, 0.5)) = hex(bloom_build(NULL, 1, 0.5));
-- => 1
SELECT quote(bloom_build(k)) FROM rows WHERE 0;
-- => NULL

-- n must be NULL on every row or on none; p is still checked on every row.
SELECT bloom_build(k, CASE WHEN rowid > 10 THEN 8000 END, 0.01) FROM rows;
-- error: bloom_build: n must be the same for all rows of a group, got 8000 after NULL
SELECT bloom_build(k, CASE WHEN rowid > 10 THEN NULL ELSE 8000 END, 0.01) FROM rows;
-- error: bloom_build: n must be the same for all rows of a group, got NULL after 8000
SELECT bloom_build(k, NULL, 1.5) FROM rows;
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 1.5; p is a fraction: 1.5 % is 0.015
-- A p too small for the number of hash functions is found when the filter is sized.
SELECT bloom_build(k, NULL, 1e-30) FROM rows;
-- error: bloom_build: p = 1.0e-30 needs 100 hash functions, more than 64
-- So is a filter over the length limit: 8000 keys at 1 % need 9,656 bytes.
--! limit length 9655
SELECT bloom_build(k) FROM rows;
-- error TOOBIG: bloom_build: a filter for n = 8000 at p = 0.01 needs 9656 bytes, more than the length limit of 9655 bytes
--! limit length 9656
SELECT length(bloom_build(k)) FROM rows;
-- => 9656
