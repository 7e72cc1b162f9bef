-- How the filter reaches bloom_might_contain: three query forms over the same
-- 1.2 MB filter (1M keys at 1 %). Prints the time of each; not a test.
-- Run from the repository root: sqlite3 :memory: < tests/bench/query_forms.sql
.load build/bloom
CREATE TABLE keys AS SELECT value AS k FROM generate_series(1, 1000000);
CREATE TABLE filters AS SELECT 'k' AS name, bloom_build(k, 1000000, 0.01) AS filter FROM keys;
.parameter set @f "(SELECT filter FROM filters)"
.timer on
-- 1. Bound parameter, 1M rows.
SELECT sum(bloom_might_contain(@f, k)) FROM keys;
-- 2. Scalar subquery, 100k rows: the filter is copied for every row.
SELECT sum(bloom_might_contain((SELECT filter FROM filters), k)) FROM keys WHERE k <= 100000;
-- 3. Join with the table that stores it, 20k rows: read again for every row.
SELECT sum(bloom_might_contain(filters.filter, keys.k)) FROM keys, filters WHERE k <= 20000;
