-- A filter stored in an ordinary table survives closing and reopening the file,
-- byte for byte, and still answers for every key (the README's first example).
CREATE TABLE users(email TEXT);
INSERT INTO users
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20000)
SELECT 'user' || i || '@example.com' FROM s;
CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB);
INSERT INTO filters SELECT 'users', bloom_build(email, 1000000, 0.01) FROM users;
CREATE TABLE fingerprint AS SELECT hex(filter) AS hex FROM filters;
--! reopen
SELECT length(filter), hex(filter) = (SELECT hex FROM fingerprint) FROM filters WHERE name = 'users';
-- => 1198200|1
SELECT bloom_might_contain((SELECT filter FROM filters WHERE name = 'users'), 'user77@example.com');
-- => 1
--! param @users SELECT filter FROM filters WHERE name = 'users'
SELECT count(*) FROM users WHERE bloom_might_contain(@users, email) = 0;
-- => 0
-- Updating it in place with a rebuilt filter, then reading it back.
INSERT INTO users VALUES ('eve@example.com');
UPDATE filters SET filter = (SELECT bloom_build(email, 1000000, 0.01) FROM users) WHERE name = 'users';
--! reopen
SELECT bloom_might_contain(filter, 'eve@example.com'), hex(substr(filter, 41, 8)) FROM filters;
-- => 1|214E000000000000
