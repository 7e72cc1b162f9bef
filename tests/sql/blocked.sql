-- The blocked layout, bloom_build(key, n, p, 'blocked'): all k bits of a key in one 512-bit line.
-- 1M keys at 1 %: about 9.9 bits a key, k = 6, m in whole lines; the header says layout 2.
SELECT length(f), hex(substr(f, 7, 1)), hex(substr(f, 9, 4)), json_extract(bloom_info(f), '$.m') % 512,
       json_extract(bloom_info(f), '$.layout'), printf('%.2f', json_extract(bloom_info(f), '$.m') / 1e6)
FROM (SELECT bloom_build(1, 1000000, 0.01, 'blocked') AS f);
-- => 1239872|02|06000000|0|blocked|9.92
-- k and bits a key at the classic targets: 3, 6, 9 and 12 hash functions.
SELECT p, hex(substr(f, 9, 4)), printf('%.2f', (length(f) - 64) * 8 / 1e6)
FROM (SELECT p, bloom_build(1, 1000000, p, 'blocked') AS f FROM (SELECT 0.1 AS p UNION ALL SELECT 0.01 UNION ALL SELECT 0.001 UNION ALL SELECT 0.0001) GROUP BY p) ORDER BY p DESC;
-- => 0.1|03000000|4.84
-- => 0.01|06000000|9.92
-- => 0.001|09000000|15.55
-- => 0.0001|0C000000|22.03
-- One key still takes a whole line.
SELECT length(bloom_build('x', 1, 0.01, 'blocked'));
-- => 128
-- The layout is named in any case; 'standard' is the default's name.
SELECT bloom_build(1, 100, 0.01, 'BLOCKED') = bloom_build(1, 100, 0.01, 'blocked'), bloom_build(1, 100, 0.01, 'standard') = bloom_build(1, 100, 0.01);
-- => 1|1

-- No false negatives, keys of every type.
CREATE TABLE keys AS
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 99999)
SELECT CASE i % 5 WHEN 0 THEN i WHEN 1 THEN i + 0.25 WHEN 2 THEN 'k' || i WHEN 3 THEN CAST('k' || i AS BLOB) ELSE -1.0 * i END AS k FROM s;
--! param @f SELECT bloom_build(k, 100000, 0.01, 'blocked') FROM keys
SELECT count(*), sum(bloom_might_contain(@f, k)) FROM keys;
-- => 100000|100000

-- Sized at the end, grouped, merged and added to, like the standard layout.
SELECT bloom_build(k, NULL, 0.01, 'blocked') = bloom_build(k, 100000, 0.01, 'blocked') FROM keys;
-- => 1
SELECT bloom_union(f) = @f FROM (SELECT bloom_build(k, 100000, 0.01, 'blocked') AS f FROM keys GROUP BY typeof(k));
-- => 1
SELECT bloom_might_contain(bloom_add(@f, 'new key'), 'new key'), json_extract(bloom_info(bloom_add(@f, 'new key')), '$.keys_added');
-- => 1|100001
SELECT json_extract(bloom_info(@f), '$.estimated_keys') BETWEEN 99000 AND 101000, json_extract(bloom_info(@f), '$.over_capacity');
-- => 1|0

-- Groups share the costly part of sizing (the design for p, kept for the statement): each
-- group's filter is still the one a statement of its own builds, also when p changes
-- between groups, and when n is NULL.
CREATE TABLE grouped AS
WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 60)
SELECT g, bloom_build(g, 1000, 1e-9, 'blocked') AS same_p,
       bloom_build(g, 1000, 0.001 * (1 + g % 3), 'blocked') AS changing_p,
       bloom_build(g, NULL, 1e-6, 'blocked') AS sized_at_end
FROM s GROUP BY g;
SELECT same_p = bloom_build(59, 1000, 1e-9, 'blocked') FROM grouped WHERE g = 59;
-- => 1
SELECT changing_p = bloom_build(58, 1000, 0.002, 'blocked') FROM grouped WHERE g = 58;
-- => 1
SELECT changing_p = bloom_build(59, 1000, 0.003, 'blocked') FROM grouped WHERE g = 59;
-- => 1
SELECT changing_p = bloom_build(60, 1000, 0.001, 'blocked') FROM grouped WHERE g = 60;
-- => 1
SELECT sized_at_end = bloom_build(60, NULL, 1e-6, 'blocked') FROM grouped WHERE g = 60;
-- => 1

-- A standard and a blocked filter never merge, even of the same size.
SELECT bloom_union(bloom_build(1, 1000, 0.01), bloom_build(1, 1000, 0.01, 'blocked'));
-- error: bloom_union: incompatible filters: a 'standard' filter and a 'blocked' one; build both with the same n, p and kind

-- Errors.
SELECT bloom_build(1, 100, 0.01, 'cache');
-- error: bloom_build: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet', 'fuse' or 'spark', got 'cache'
SELECT bloom_build(1, 100, 0.01, NULL);
-- error: bloom_build: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet', 'fuse' or 'spark', got NULL
SELECT bloom_build(1, 100, 0.01, 2);
-- error: bloom_build: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet', 'fuse' or 'spark', got 2
-- A layout's name as a BLOB is not its name (before 0.2.0 it was taken as one).
SELECT bloom_build(1, 100, 0.01, CAST('blocked' AS BLOB));
-- error: bloom_build: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet', 'fuse' or 'spark', got a BLOB of 7 bytes
SELECT bloom_build(k, 100000, 0.01, CASE WHEN typeof(k) = 'text' THEN 'blocked' ELSE 'standard' END) FROM keys;
-- error: bloom_build: kind must be the same for all rows of a group, got 'blocked' after 'standard'
-- Every row reads its layout as the first row does: in any case, up to a NUL, bound or not (a
-- bound TEXT ends without a NUL: sqltest binds it with its length, as client libraries do).
SELECT bloom_build(k, 100000, 0.01, CASE WHEN typeof(k) = 'text' THEN 'Blocked' ELSE 'blocked' || char(0) || 'x' END) = @f FROM keys;
-- => 1
SELECT bloom_build(k, 100000, 0.01, CASE WHEN typeof(k) = 'text' THEN 'counting' ELSE 'standard' END) FROM keys;
-- error: bloom_build: kind must be the same for all rows of a group, got 'counting' after 'standard'
--! param @layout SELECT 'blocked'
SELECT bloom_build(k, 100000, 0.01, @layout) = @f, bloom_build(k, NULL, 0.01, @layout) = @f FROM keys;
-- => 1|1
SELECT bloom_build(k, 100000, 0.01, CASE WHEN typeof(k) = 'text' THEN 'standard' ELSE @layout END) FROM keys;
-- error: bloom_build: kind must be the same for all rows of a group, got 'standard' after 'blocked'
-- The blocked layout is sized for p up to 0.5.
SELECT length(bloom_build(1, 100, 0.5, 'blocked'));
-- => 128
SELECT bloom_build(1, 100, 0.6, 'blocked');
-- error: bloom_build: the blocked layout needs p <= 0.5, got 0.6
