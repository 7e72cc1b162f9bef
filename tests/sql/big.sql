-- Rule 7 (probe) at scale: 1M keys of every type, each probed as stored and, for
-- numbers, as the other numeric type: never a false negative.
CREATE TABLE keys AS
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 999999)
SELECT CASE i % 5 WHEN 0 THEN i * 2654435761 WHEN 1 THEN i + 0.25 WHEN 2 THEN 'key-' || i
  WHEN 3 THEN CAST('key-' || i AS BLOB) ELSE -1.0 * i END AS k FROM s;
CREATE TABLE filter AS SELECT bloom_build(k, 1000000, 0.01) AS f FROM keys;
SELECT typeof(k), count(*) FROM keys GROUP BY 1 ORDER BY 1;
-- => blob|200000
-- => integer|200000
-- => real|400000
-- => text|200000
-- The filter is bound as a parameter: joined to the keys table instead, SQLite
-- 3.40 would read its 1.2 MB from overflow pages again for every row.
--! param @f SELECT f FROM filter
SELECT count(*), sum(bloom_might_contain(@f, k)) FROM keys;
-- => 1000000|1000000
SELECT count(*), sum(bloom_might_contain(@f, CASE typeof(k) WHEN 'integer' THEN k * 1.0 ELSE CAST(k AS INTEGER) END))
FROM keys WHERE typeof(k) = 'integer' OR (typeof(k) = 'real' AND k = CAST(k AS INTEGER));
-- => 400000|400000
