-- Rule 5 (keys): keys follow SQL equality without affinity. Rule 7 (probe): no false
-- negatives.

-- Tricky values, in a column without affinity so that "=" compares them as stored.
CREATE TABLE vals(v);
INSERT INTO vals VALUES (0), (0.0), (-0.0), (1), (1.0), (-1), (-1.0), ('1'), (x'01'),
  (x'0100000000000000'), (1.5), (-1.5), (0.1), (9007199254740992), (9007199254740992.0),
  (9007199254740993), (9223372036854775807), (9223372036854775808.0), (-9223372036854775808),
  (-9223372036854775808.0), (1e300), (-1e300), (9e999), (-9e999), ('abc'), (x'616263'),
  ('ABC'), ('abc '), (''), (x''), ('é'), (CAST('é' AS BLOB)), ('e' || char(769)), (char(0)),
  (zeroblob(3)), (x'000000');

-- 36 values, 52 equal ordered pairs: 36 with themselves, 6 among 0, 0.0, -0.0, and 2 each
-- for 1, -1, 2^53, -2^63 (INTEGER and REAL) and zeroblob(3) = x'000000'.
-- For every ordered pair, a one-key filter of the first answers for the second
-- exactly what SQL's "=" answers (p = 1e-12 makes a false positive negligible).
--! needs exact reals
SELECT count(*), sum(a.v = b.v), sum(bloom_might_contain(f, b.v))
FROM (SELECT rowid AS id, v, (SELECT bloom_build(v, 1, 1e-12) FROM vals c WHERE c.rowid = vals.rowid) AS f FROM vals) a, vals b;
-- => 1296|52|52
--! needs exact reals
SELECT count(*) FROM (SELECT v, (SELECT bloom_build(v, 1, 1e-12) FROM vals c WHERE c.rowid = vals.rowid) AS f FROM vals) a, vals b
WHERE (a.v = b.v) IS NOT bloom_might_contain(f, b.v);
-- => 0

-- The same cases spelled out.
SELECT bloom_might_contain(bloom_build(1, 10, 1e-12), 1.0), bloom_might_contain(bloom_build(1.0, 10, 1e-12), 1);
-- => 1|1
SELECT bloom_might_contain(bloom_build(0, 10, 1e-12), -0.0), bloom_might_contain(bloom_build(-0.0, 10, 1e-12), 0);
-- => 1|1
SELECT bloom_might_contain(bloom_build(9007199254740992.0, 10, 1e-12), 9007199254740993);
-- => 0
SELECT bloom_might_contain(bloom_build(9223372036854775807, 10, 1e-12), 9223372036854775808.0);
-- => 0
SELECT bloom_might_contain(bloom_build('abc', 10, 1e-12), x'616263'), bloom_might_contain(bloom_build(x'616263', 10, 1e-12), 'abc');
-- => 0|0
SELECT bloom_might_contain(bloom_build(1, 10, 1e-12), '1'), bloom_might_contain(bloom_build('1', 10, 1e-12), 1);
-- => 0|0
SELECT bloom_might_contain(bloom_build('', 10, 1e-12), x''), bloom_might_contain(bloom_build('', 10, 1e-12), '');
-- => 0|1

-- No collation is applied: NOCASE columns need lower() on both sides.
CREATE TABLE people(name TEXT COLLATE NOCASE);
INSERT INTO people VALUES ('Alice'), ('Bob');
SELECT count(*) FROM people WHERE name = 'alice';
-- => 1
SELECT bloom_might_contain((SELECT bloom_build(name, 10, 1e-12) FROM people), 'alice');
-- => 0
SELECT bloom_might_contain((SELECT bloom_build(lower(name), 10, 1e-12) FROM people), lower('ALICE'));
-- => 1

-- Affinity happens when values are stored, not in the filter: a TEXT column
-- holds '42' for 42, so probe it with TEXT (CAST) as SQL's "=" would need.
CREATE TABLE codes(code TEXT);
INSERT INTO codes VALUES (42), ('x7');
SELECT typeof(code) FROM codes WHERE rowid = 1;
-- => text
SELECT bloom_might_contain(f, 42), bloom_might_contain(f, CAST(42 AS TEXT)) FROM (SELECT bloom_build(code, 10, 1e-12) AS f FROM codes);
-- => 0|1

-- Rule 7 (probe): a NULL key gives NULL; a NULL filter is an error, which a subquery that finds
-- no filter gives (a name mistyped), where NULL would make a WHERE drop every row, NOT too.
SELECT bloom_might_contain(bloom_build(1, 10, 0.01), NULL);
-- => NULL
SELECT bloom_might_contain(NULL, 1);
-- error: bloom_might_contain: the filter is NULL, which holds no key: a subquery that found no row (is the name it looks for right?) or a NULL cell (to skip those, test the column IS NOT NULL first)
SELECT bloom_might_contain(NULL, NULL);
-- error: bloom_might_contain: the filter is NULL, which holds no key: a subquery that found no row (is the name it looks for right?) or a NULL cell (to skip those, test the column IS NOT NULL first)
CREATE TABLE named(name TEXT PRIMARY KEY, f BLOB);
INSERT INTO named SELECT 'customers', bloom_build(code, 10, 0.01) FROM codes;
SELECT count(*) FROM codes WHERE NOT bloom_might_contain((SELECT f FROM named WHERE name = 'custmers'), code);
-- error: bloom_might_contain: the filter is NULL, which holds no key: a subquery that found no row (is the name it looks for right?) or a NULL cell (to skip those, test the column IS NOT NULL first)
SELECT count(*) FROM codes WHERE bloom_might_contain((SELECT f FROM named WHERE name = 'customers'), code);
-- => 2
INSERT INTO named VALUES ('none yet', NULL);
SELECT name FROM named WHERE f IS NOT NULL AND bloom_might_contain(f, 'x7');
-- => customers

-- Rule 7 (probe): 100k keys of all four types, and each number also probed as the
-- other numeric type, never give a false negative.
CREATE TABLE mixed AS
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 99999)
SELECT CASE i % 6 WHEN 0 THEN i * 7919 WHEN 1 THEN i / 8.0 WHEN 2 THEN 'key ' || i
  WHEN 3 THEN CAST('key ' || i AS BLOB) WHEN 4 THEN -i * 1.0 ELSE randomblob(i % 50) END AS k FROM s;
CREATE TABLE mixed_filter AS SELECT bloom_build(k, 100000, 0.01) AS f FROM mixed;
SELECT count(*), sum(bloom_might_contain(f, k)) FROM mixed, mixed_filter;
-- => 100000|100000
SELECT count(*), sum(bloom_might_contain(f, CASE typeof(k) WHEN 'integer' THEN k * 1.0 ELSE CAST(k AS INTEGER) END))
FROM mixed, mixed_filter WHERE typeof(k) = 'integer' OR (typeof(k) = 'real' AND k = CAST(k AS INTEGER));
-- => 33333|33333
