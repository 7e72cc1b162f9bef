-- Rule 17 (empty): bloom_empty(N, P [, LAYOUT]) is the empty filter bloom_build(NULL, N, P
-- [, LAYOUT]) makes, as a scalar: where an aggregate cannot stand.
SELECT bloom_empty(1000, 0.01) = (SELECT bloom_build(NULL, 1000, 0.01)),
       bloom_empty(1000, 0.01, 'blocked') = (SELECT bloom_build(NULL, 1000, 0.01, 'blocked')),
       bloom_empty(1, 1e-19) = (SELECT bloom_build(NULL, 1, 1e-19)),
       bloom_empty(5e5, 0.5, 'BLOCKED') = (SELECT bloom_build(NULL, 500000, 0.5, 'blocked'));
-- => 1|1|1|1
SELECT json_extract(bloom_info(bloom_empty(1000, 0.01)), '$.keys_added'),
       bloom_might_contain(bloom_empty(1000, 0.01), 'x'), length(bloom_empty(1000, 0.01));
-- => 0|0|1264

-- In VALUES, UPDATE ... SET and a column's DEFAULT, where bloom_build, an aggregate, is refused.
CREATE TABLE t(f BLOB);
INSERT INTO t VALUES (bloom_build(NULL, 100, 0.01));
-- error: misuse of aggregate function bloom_build()
UPDATE t SET f = bloom_build(NULL, 100, 0.01);
-- error: misuse of aggregate function bloom_build()
CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB DEFAULT (bloom_empty(10000, 0.01)));
INSERT INTO filters(name) VALUES ('users');
INSERT INTO filters VALUES ('orders', bloom_empty(100, 0.001, 'blocked'));
SELECT name, length(filter), json_extract(bloom_info(filter), '$.layout') FROM filters ORDER BY name;
-- => orders|320|blocked
-- => users|12048|standard
UPDATE filters SET filter = bloom_add(bloom_empty(100, 0.01), 'x') WHERE name = 'orders';
SELECT bloom_might_contain(filter, 'x'), json_extract(bloom_info(filter), '$.n') FROM filters
WHERE name = 'orders';
-- => 1|100

-- Errors: as bloom_build's, but n is required.
SELECT bloom_empty(NULL, 0.01);
-- error: bloom_empty: n must be a whole number >= 1, got NULL
SELECT bloom_empty(0, 0.01);
-- error: bloom_empty: n must be a whole number >= 1, got 0
SELECT bloom_empty(10, 1);
-- error: bloom_empty: p must be between 0 and 1 (exclusive), got 1; p is a fraction: 1 % is 0.01
SELECT bloom_empty(10, 0.01, 'quotient');
-- error: bloom_empty: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet' or 'spark', got 'quotient'
SELECT bloom_empty(10, 0.6, 'blocked');
-- error: bloom_empty: the blocked layout needs p <= 0.5, got 0.6
SELECT bloom_empty(10, 1e-30);
-- error: bloom_empty: p = 1.0e-30 needs 100 hash functions, more than 64
--! limit length 1000
SELECT bloom_empty(1000, 0.01);
-- error TOOBIG: bloom_empty: a filter for n = 1000 at p = 0.01 needs 1264 bytes, more than the length limit of 1000 bytes
