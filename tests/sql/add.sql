-- bloom_add(filter, key): a new filter with key added.
SELECT bloom_might_contain(bloom_add(bloom_build(NULL, 100, 0.01), 'x'), 'x');
-- => 1
SELECT json_extract(bloom_info(bloom_add(bloom_add(bloom_build(NULL, 100, 0.01), 'x'), 'x')), '$.keys_added');
-- => 2

-- Adding keys one by one gives the filter that building over them gives, byte for byte.
CREATE TABLE keys AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 300)
SELECT CASE i % 4 WHEN 0 THEN i WHEN 1 THEN i + 0.5 WHEN 2 THEN 'k' || i ELSE CAST('k' || i AS BLOB) END AS k FROM s;
WITH RECURSIVE added(n, f) AS (
  SELECT 0, bloom_build(NULL, 300, 0.01)
  UNION ALL
  SELECT added.n + 1, bloom_add(f, (SELECT k FROM keys WHERE rowid = added.n + 1)) FROM added WHERE added.n < 300)
SELECT f = (SELECT bloom_build(k, 300, 0.01) FROM keys) FROM added WHERE n = 300;
-- => 1

-- A NULL key returns the filter unchanged; a NULL filter gives NULL.
SELECT bloom_add(f, NULL) = f FROM (SELECT bloom_build(k, 300, 0.01) AS f FROM keys);
-- => 1
SELECT quote(bloom_add(NULL, 'x'));
-- => NULL
-- The input is not modified: bloom_add returns a new BLOB.
CREATE TABLE stored AS SELECT bloom_build(NULL, 100, 0.01) AS f;
SELECT bloom_might_contain(bloom_add(f, 'x'), 'x'), bloom_might_contain(f, 'x') FROM stored;
-- => 1|0

-- Invalid filters: the same errors as bloom_might_contain, also with a NULL key.
SELECT bloom_add('f', 1);
-- error: bloom_add: the filter must be a BLOB, got 'f'
SELECT bloom_add(x'0102', NULL);
-- error: bloom_add: not a Bloom filter: length 2 is shorter than the 64-byte header

-- An AFTER INSERT trigger keeps a stored filter current: after 10,000 inserts
-- every user probes 1, and the filter equals one built over the table.
CREATE TABLE users(email TEXT);
CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB);
INSERT INTO filters SELECT 'users', bloom_build(NULL, 10000, 0.01);
CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN
  UPDATE filters SET filter = bloom_add(filter, NEW.email) WHERE name = 'users';
END;
INSERT INTO users
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 10000)
SELECT 'user' || i || '@example.com' FROM s;
--! param @users SELECT filter FROM filters WHERE name = 'users'
SELECT count(*), sum(bloom_might_contain(@users, email)) FROM users;
-- => 10000|10000
SELECT @users = (SELECT bloom_build(email, 10000, 0.01) FROM users);
-- => 1
SELECT json_extract(bloom_info(@users), '$.keys_added'), json_extract(bloom_info(@users), '$.over_capacity');
-- => 10000|0
