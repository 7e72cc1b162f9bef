-- bloom_union(a, b) and bloom_union(filter): unions of compatible filters.
CREATE TABLE events(day INTEGER, user_id INTEGER);
INSERT INTO events
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 30000)
SELECT i % 7, (i * 7919) % 20011 FROM s;
CREATE TABLE whole AS SELECT bloom_build(user_id, 20000, 0.01) AS f FROM events;
CREATE TABLE daily AS SELECT day, bloom_build(user_id, 20000, 0.01) AS f FROM events GROUP BY day;

-- The union of the parts is the filter of the whole, byte for byte: the bits
-- are ORed and the counts of keys added sum up.
SELECT bloom_union(f) = (SELECT f FROM whole) FROM daily;
-- => 1
SELECT bloom_union(a.f, b.f) = (SELECT bloom_build(user_id, 20000, 0.01) FROM events WHERE day IN (1, 2))
FROM daily a, daily b WHERE a.day = 1 AND b.day = 2;
-- => 1
SELECT json_extract(bloom_info(bloom_union(f)), '$.keys_added'), (SELECT count(*) FROM events) FROM daily;
-- => 30000|30000
-- Union is the same in any order, and idempotent in its bits.
SELECT bloom_union(f) = (SELECT bloom_union(f) FROM (SELECT f FROM daily ORDER BY day DESC)) FROM (SELECT f FROM daily ORDER BY day);
-- => 1
SELECT substr(bloom_union(f, f), 65) = substr(f, 65), json_extract(bloom_info(bloom_union(f, f)), '$.keys_added') FROM whole;
-- => 1|60000
-- Every key of every part probes 1 in the union.
--! param @all SELECT bloom_union(f) FROM daily
SELECT count(*), sum(bloom_might_contain(@all, user_id)) FROM events;
-- => 30000|30000

-- Across database files: one filter per file, merged through ATTACH.
ATTACH (SELECT file || '-part2' FROM pragma_database_list WHERE name = 'main') AS part2;
DROP TABLE IF EXISTS part2.filters;
CREATE TABLE part2.filters AS SELECT bloom_build(user_id, 20000, 0.01) AS f FROM events WHERE day >= 4;
CREATE TABLE main.filters AS SELECT bloom_build(user_id, 20000, 0.01) AS f FROM events WHERE day < 4;
--! reopen
ATTACH (SELECT file || '-part2' FROM pragma_database_list WHERE name = 'main') AS part2;
SELECT bloom_union(a.f, b.f) = (SELECT f FROM whole) FROM main.filters a, part2.filters b;
-- => 1
SELECT bloom_union(f) = (SELECT f FROM whole) FROM (SELECT f FROM main.filters UNION ALL SELECT f FROM part2.filters);
-- => 1
DETACH part2;

-- NULLs: the scalar gives NULL, the aggregate skips them; no filter at all gives NULL.
SELECT quote(bloom_union(NULL, f)), quote(bloom_union(f, NULL)) FROM whole;
-- => NULL|NULL
SELECT bloom_union(f) = (SELECT f FROM whole) FROM (SELECT f FROM whole UNION ALL SELECT NULL);
-- => 1
SELECT quote(bloom_union(f)) FROM (SELECT NULL AS f UNION ALL SELECT NULL);
-- => NULL
SELECT quote(bloom_union(f)) FROM daily WHERE 0;
-- => NULL
SELECT bloom_union(f) = f FROM whole;
-- => 1

-- Filters that differ in m or k cannot be merged; n and p may differ, and the
-- union keeps those of its first filter.
SELECT bloom_union(bloom_build(1, 1000, 0.01), bloom_build(1, 2000, 0.01));
-- error: bloom_union: incompatible filters: one built for n = 1000 at p = 0.01 (9600 bits, k = 7), the other for n = 2000 at p = 0.01 (19200 bits, k = 7); build both with the same n, p and kind
SELECT bloom_union(f) FROM (SELECT bloom_build(1, 1000, 0.01) AS f UNION ALL SELECT bloom_build(1, 1000, 0.001));
-- error: bloom_union: incompatible filters: one built for n = 1000 at p = 0.01 (9600 bits, k = 7), the other for n = 1000 at p = 0.001 (14400 bits, k = 10); build both with the same n, p and kind
SELECT bloom_union(bloom_build(1, 1000, 0.01), bloom_build(1, 667, 0.001));
-- error: bloom_union: incompatible filters: one built for n = 1000 at p = 0.01 (9600 bits, k = 7), the other for n = 667 at p = 0.001 (9600 bits, k = 10); build both with the same n, p and kind
SELECT hex(substr(bloom_union(bloom_build(1, 1000, 0.01), bloom_build(2, 1001, 0.0101)), 25, 16));
-- => E8030000000000007B14AE47E17A843F
SELECT hex(substr(bloom_union(bloom_build(2, 1001, 0.0101), bloom_build(1, 1000, 0.01)), 25, 16));
-- => E903000000000000014D840D4FAF843F

-- Invalid filters: the same errors as bloom_might_contain.
SELECT bloom_union('a', f) FROM whole;
-- error: bloom_union: the filter must be a BLOB, got 'a'
SELECT bloom_union(f, x'00') FROM whole;
-- error: bloom_union: not a Bloom filter: length 1 is shorter than the 64-byte header
SELECT bloom_union(x) FROM (SELECT bloom_build(1, 10, 0.01) AS x UNION ALL SELECT 42);
-- error: bloom_union: the filter must be a BLOB, got 42
