-- Reads made.db, which write_filters.sql wrote on another platform (tests/platforms/run.sh): the
-- filters hold the bytes this machine builds from the same keys, and answer here as they must,
-- every key present and the same false positives on the keys absent; the live table answers
-- for its keys and its integrity check passes.
ATTACH 'made.db' AS made;
SELECT count(*) FROM made.filters;
-- => 9
-- The same bytes as built here.
SELECT kind FROM made.filters AS f
WHERE filter IS NOT CASE kind
    WHEN 'countmin' THEN (SELECT cms_build(k, 0.001, 0.01) FROM made.keys)
    ELSE (SELECT bloom_build(k, 2000, 0.01, f.kind) FROM made.kind_keys AS m WHERE m.kind = f.kind)
    END;
-- => (no rows)
-- No false negative.
SELECT count(*) FROM made.filters JOIN made.kind_keys USING (kind)
WHERE NOT bloom_might_contain(filter, k);
-- => 0
-- The false positives over 20,000 absent keys of the four types (a Parquet filter TEXT, a Spark
-- filter TEXT for a REAL),
-- kind by kind (the filter the outer row's, read once a kind, not once a key).
CREATE TEMP TABLE absent AS
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 19999)
SELECT CASE i % 4 WHEN 0 THEN -i * 7919 - 5 WHEN 1 THEN i + 1000.5 WHEN 2 THEN 'absent ' || i
                  ELSE CAST('gone ' || i AS BLOB) END AS k, 'absent ' || i AS text_k FROM s;
SELECT kind, (SELECT sum(bloom_might_contain(f.filter,
                   CASE WHEN f.kind = 'parquet' OR (f.kind = 'spark' AND typeof(k) = 'real')
                        THEN text_k ELSE k END)) FROM absent)
FROM made.filters AS f ORDER BY kind;
-- => blocked|176
-- => counting|204
-- => countmin|733
-- => cuckoo|138
-- => fuse|174
-- => parquet|18
-- => scalable|49
-- => spark|199
-- => standard|204
SELECT count(*) FROM made.keys WHERE NOT EXISTS (SELECT 1 FROM made.live WHERE key = k);
-- => 0
SELECT name FROM made.live WHERE key = 'key 2' ORDER BY name;
-- => part 3
PRAGMA made.integrity_check;
-- => ok
