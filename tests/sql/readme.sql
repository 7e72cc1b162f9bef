-- The SQL examples of README.md, with the results it shows or states. (The examples of every
-- function are in docs/functions.md, tested elsewhere.)
CREATE TABLE users(email TEXT);
INSERT INTO users
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000)
SELECT 'user' || i || '@example.com' FROM s;

-- The introduction.
CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB);
INSERT INTO filters SELECT 'users', bloom_build(email, 1000000, 0.01) FROM users;
SELECT bloom_might_contain((SELECT filter FROM filters WHERE name = 'users'), 'eve@example.com');
-- => 0
SELECT bloom_might_contain((SELECT filter FROM filters WHERE name = 'users'), 'user1@example.com');
-- => 1

-- The sqlite3 shell: .parameter set, then a probe of every row with the bound filter.
CREATE TABLE signups(email TEXT);
INSERT INTO signups VALUES ('user1@example.com'), ('user500@example.com'), ('eve@example.com');
--! param @users SELECT filter FROM filters WHERE name = 'users'
SELECT count(*) FROM signups WHERE bloom_might_contain(@users, email);
-- => 2

-- Python and Node: the filter built, returned, then bound with the key.
--! param @built SELECT bloom_build(email, 1000000, 0.01) FROM users
SELECT @built = (SELECT filter FROM filters WHERE name = 'users');
-- => 1
SELECT bloom_might_contain(@built, 'eve@example.com');
-- => 0
-- Python's 42 and 42.0 (and Node's number 42, a REAL) are one key; "42" and b"42" are not.
SELECT bloom_might_contain(bloom_build(42, 100, 0.01), 42.0),
       bloom_might_contain(bloom_build(42.0, 100, 0.01), 42),
       bloom_might_contain(bloom_build('42', 100, 0.01), x'3432');
-- => 1|1|0

-- Keys: 1 and 1.0 are one key; '1' and 1 are not, nor 'abc' and x'616263'; no collation.
SELECT bloom_might_contain(bloom_build(1, 100, 0.01), 1.0),
       bloom_might_contain(bloom_build(1, 100, 0.01), '1'),
       bloom_might_contain(bloom_build('abc', 100, 0.01), x'616263'),
       bloom_might_contain(bloom_build('Alice', 100, 0.01), 'alice');
-- => 1|0|0|0
-- Not even a column's NOCASE, which = itself applies.
CREATE TABLE people(name TEXT COLLATE NOCASE);
INSERT INTO people VALUES ('Alice');
SELECT count(*) FROM people WHERE name = 'alice';
-- => 1
SELECT bloom_might_contain((SELECT bloom_build(name, 100, 0.01) FROM people), 'alice');
-- => 0
-- lower() on both sides for case-insensitive matching.
SELECT bloom_might_contain((SELECT bloom_build(lower(name), 100, 0.01) FROM people), lower('ALICE'));
-- => 1
-- A TEXT column holds '42' for 42: CAST one side.
CREATE TABLE accounts(id TEXT);
INSERT INTO accounts VALUES (42);
SELECT typeof(id) FROM accounts;
-- => text
SELECT bloom_might_contain((SELECT bloom_build(id, 100, 0.01) FROM accounts), 42),
       bloom_might_contain((SELECT bloom_build(id, 100, 0.01) FROM accounts), CAST(42 AS TEXT));
-- => 0|1

-- How to write the query: the bound filter (.parameter set @f) and the scalar subquery give
-- the same answers.
CREATE TABLE filters2(name TEXT, f BLOB);
INSERT INTO filters2 SELECT 'a', bloom_build(email, 1000, 0.01) FROM users;
--! param @f SELECT f FROM filters2 WHERE name = 'a'
SELECT sum(bloom_might_contain(@f, email)) FROM users;
-- => 1000
SELECT sum(bloom_might_contain((SELECT f FROM filters2 WHERE name = 'a'), email)) FROM users;
-- => 1000
