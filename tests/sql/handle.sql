-- Rule 18 (handle): bloom_handle(FILTER) is a validated copy of FILTER passed as a pointer
-- value, which stands for the filter in every function, and crosses a scalar subquery without
-- the copy of the BLOB that SQLite 3.40 makes for every row.
CREATE TABLE keys(x INTEGER);
INSERT INTO keys WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000)
SELECT i FROM s;
CREATE TABLE filters(name TEXT PRIMARY KEY, f BLOB);
INSERT INTO filters SELECT 'a', bloom_build(x, 1000, 0.01) FROM keys WHERE x <= 1000;
INSERT INTO filters SELECT 'b', bloom_build(x, 1000, 0.01, 'blocked') FROM keys WHERE x <= 1000;

-- To SQL it is a NULL; to the functions, the filter.
SELECT typeof(bloom_handle(f)), bloom_handle(f) IS NULL FROM filters WHERE name = 'a';
-- => null|1
SELECT name, (SELECT count(*) FROM keys WHERE bloom_might_contain(bloom_handle(f), x)) =
             (SELECT count(*) FROM keys WHERE bloom_might_contain(f, x)),
       bloom_info(bloom_handle(f)) = bloom_info(f),
       bloom_add(bloom_handle(f), 'new') = bloom_add(f, 'new'),
       bloom_add(bloom_handle(f), NULL) = f,
       bloom_union(bloom_handle(f), f) = bloom_union(f, f)
FROM filters ORDER BY name;
-- => a|1|1|1|1|1
-- => b|1|1|1|1|1
-- (SQLite 3.31 passes the pointer through this subquery in FROM and the CTE below; 3.40 and
-- later do not.)
--! since 3.40.0
SELECT bloom_union(h) = (SELECT bloom_union(f) FROM filters WHERE name = 'a')
FROM (SELECT bloom_handle(f) AS h FROM filters WHERE name = 'a');
-- => NULL

-- The form it is for: a scalar subquery, in a query or a view. Every key added probes 1.
SELECT count(*) FROM keys
WHERE x <= 1000 AND bloom_might_contain((SELECT bloom_handle(f) FROM filters WHERE name = 'a'), x);
-- => 1000
CREATE VIEW maybe_a AS
SELECT x FROM keys WHERE bloom_might_contain((SELECT bloom_handle(f) FROM filters WHERE name = 'a'), x);
SELECT count(*) FROM maybe_a WHERE x <= 1000;
-- => 1000

-- SQLite passes no pointer through a subquery in FROM or a CTE (the last query above shows
-- it: bloom_union sees only NULLs): there the probe sees NULL, an error that says so. Use the
-- filter itself in those forms, or the scalar subquery above.
--! since 3.40.0
WITH g AS (SELECT bloom_handle(f) AS h FROM filters WHERE name = 'a')
SELECT count(*), count(bloom_might_contain(g.h, x)) FROM keys, g;
-- error: bloom_might_contain: the filter is NULL, which holds no key: a subquery that found no row (is the name it looks for right?) or a NULL cell (to skip those, test the column IS NOT NULL first)

-- Errors and NULLs: as the functions that read a filter.
SELECT bloom_handle(NULL) IS NULL;
-- => 1
SELECT bloom_might_contain(bloom_handle(NULL), 1);
-- error: bloom_might_contain: the filter is NULL, which holds no key: a subquery that found no row (is the name it looks for right?) or a NULL cell (to skip those, test the column IS NOT NULL first)
SELECT bloom_handle(x'00');
-- error: bloom_handle: not a Bloom filter: length 1 is shorter than the 64-byte header
SELECT bloom_handle('text');
-- error: bloom_handle: the filter must be a BLOB, got 'text'
SELECT bloom_handle();
-- error: bloom_handle: wrong number of arguments (0); the form is bloom_handle(filter)
