-- Rule 6 (nulls and groups): the aggregate's handling of rows, groups and NULLs.

-- Zero rows: NULL, like sum().
SELECT quote(bloom_build(x, 10, 0.01)) FROM (SELECT 1 AS x WHERE 0);
-- => NULL

-- Rows whose keys are all NULL: a valid empty filter (keys added = 0), every probe 0.
SELECT hex(bloom_build(NULL, 1, 0.5));
-- => 5351424601010101010000000000000040000000000000000100000000000000000000000000E03F0000000000000000000000000000000000000000000000000000000000000000
CREATE TABLE empty AS SELECT bloom_build(x, 100, 0.01) AS f FROM (SELECT NULL AS x UNION ALL SELECT NULL);
SELECT hex(substr(f, 41, 8)), bloom_might_contain(f, 0), bloom_might_contain(f, ''), bloom_might_contain(f, x''), bloom_might_contain(f, 1.5) FROM empty;
-- => 0000000000000000|0|0|0|0

-- NULL keys are skipped and not counted; repeats are counted (keys added at offset 40).
SELECT hex(substr(bloom_build(x, 10, 0.01), 41, 8)) FROM (SELECT 1 AS x UNION ALL SELECT NULL UNION ALL SELECT 2 UNION ALL SELECT NULL);
-- => 0200000000000000
SELECT hex(substr(bloom_build(x, 10, 0.01), 41, 8)) FROM (SELECT 7 AS x UNION ALL SELECT 7 UNION ALL SELECT 7.0);
-- => 0300000000000000
SELECT bloom_build(x, 10, 0.01) = bloom_build(x, 10, 0.01) FROM (SELECT 1 AS x UNION ALL SELECT NULL);
-- => 1
SELECT substr(f1, 65) = substr(f2, 65) FROM (SELECT bloom_build(x, 10, 0.01) AS f1 FROM (SELECT 1 AS x UNION ALL SELECT NULL)), (SELECT bloom_build(1, 10, 0.01) AS f2);
-- => 1

-- GROUP BY: one independent filter per group, byte-equal to the filter of that group alone.
CREATE TABLE events(day TEXT, user_id INTEGER);
INSERT INTO events
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 2999)
SELECT CASE i % 3 WHEN 0 THEN 'mon' WHEN 1 THEN 'tue' ELSE 'wed' END, i FROM s;
CREATE TABLE daily AS SELECT day, bloom_build(user_id, 1000, 1e-6) AS f FROM events GROUP BY day;
SELECT day, length(f), hex(substr(f, 41, 8)) FROM daily ORDER BY day;
-- => mon|3664|E803000000000000
-- => tue|3664|E803000000000000
-- => wed|3664|E803000000000000
SELECT d.day, d.f = (SELECT bloom_build(user_id, 1000, 1e-6) FROM events e WHERE e.day = d.day) FROM daily d ORDER BY d.day;
-- => mon|1
-- => tue|1
-- => wed|1
SELECT d.day, sum(bloom_might_contain(d.f, e.user_id)), sum(e.day = d.day) FROM daily d, events e GROUP BY d.day ORDER BY d.day;
-- => mon|1000|1000
-- => tue|1000|1000
-- => wed|1000|1000

-- Rule 3 (parameters): n and p must be the same on every row of a group.
SELECT bloom_build(user_id, 1000 + (user_id > 5), 0.01) FROM events;
-- error: bloom_build: n must be the same for all rows of a group, got 1001 after 1000
SELECT bloom_build(user_id, 1000, CASE WHEN user_id > 5 THEN 0.02 ELSE 0.01 END) FROM events;
-- error: bloom_build: p must be the same for all rows of a group, got 0.02 after 0.01
SELECT bloom_build(user_id, CASE WHEN user_id > 5 THEN 1000.0 ELSE 1000 END, 0.01) = bloom_build(user_id, 1000, 0.01) FROM events;
-- => 1
SELECT bloom_build(user_id, CASE WHEN user_id > 5 THEN 0 ELSE 1000 END, 0.01) FROM events;
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0
-- Later rows whose n, p and kind are the first row's to the byte are checked the quick way;
-- any other form is read as the first was: the same values pass, the rest are refused.
SELECT bloom_build(user_id, 1000, 0.01, CASE WHEN user_id > 5 THEN 'BLOCKED' ELSE 'blocked' END) = bloom_build(user_id, 1000, 0.01, 'blocked') FROM events;
-- => 1
SELECT bloom_build(user_id, CASE WHEN user_id > 5 THEN '1000' ELSE 1000 END, 0.01) FROM events;
-- error: bloom_build: n must be a whole number >= 1 or NULL, got '1000'
SELECT bloom_build(user_id, CASE WHEN user_id > 5 THEN NULL ELSE 1000 END, 0.01) FROM events;
-- error: bloom_build: n must be the same for all rows of a group, got NULL after 1000
SELECT bloom_build(user_id, 1000, CASE WHEN user_id > 5 THEN '0.01' ELSE 0.01 END) FROM events;
-- error: bloom_build: p must be between 0 and 1 (exclusive), got '0.01'
SELECT bloom_build(user_id, NULL, 0.01, CASE WHEN user_id > 5 THEN 'fuse' ELSE 'blocked' END) FROM events;
-- error: bloom_build: kind must be the same for all rows of a group, got 'fuse' after 'blocked'
-- A NULL key does not excuse a bad n or p.
SELECT bloom_build(NULL, 0, 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0
SELECT bloom_build(NULL, 10, 2);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 2; p is a fraction: 2 % is 0.02
-- Parameters may differ between groups.
SELECT day, hex(substr(f, 25, 8)) FROM (SELECT day, bloom_build(user_id, CASE day WHEN 'mon' THEN 10 ELSE 20 END, 0.01) AS f FROM events GROUP BY day) ORDER BY day;
-- => mon|0A00000000000000
-- => tue|1400000000000000
-- => wed|1400000000000000

-- It is an aggregate, not a window function.
SELECT bloom_build(user_id, 10, 0.01) OVER () FROM events;
-- error: bloom_build() may not be used as a window function
