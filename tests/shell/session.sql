-- A shell session: load, build, store, reopen, probe, and what errors look like.
.open --new shell_session.db
.load ./bloom
SELECT bloom_version() = bloom_version();
CREATE TABLE users(email TEXT);
INSERT INTO users SELECT 'user' || value || '@example.com' FROM generate_series(1, 1000);
CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB);
INSERT INTO filters SELECT 'users', bloom_build(email, 1000, 0.01) FROM users;
-- Extensions belong to a connection: a reopened database needs .load again.
.open shell_session.db
SELECT bloom_might_contain(filter, 'user7@example.com') FROM filters;
.load ./bloom
SELECT name, length(filter), bloom_might_contain(filter, 'user7@example.com'), bloom_might_contain(filter, 'nobody@example.com') FROM filters;
SELECT count(*) FROM users WHERE bloom_might_contain((SELECT filter FROM filters), email);
SELECT bloom_build(email, 0, 0.01) FROM users;
SELECT bloom_might_contain('oops', 1);
SELECT 'still running';
.load ./no_such_extension
