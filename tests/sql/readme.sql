-- The examples of README.md, with the results it shows.
CREATE TABLE users(email TEXT);
INSERT INTO users
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000)
SELECT 'user' || i || '@example.com' FROM s;
CREATE TABLE events(day TEXT, user_id INTEGER);
INSERT INTO events VALUES ('mon', 1), ('mon', 2), ('tue', 3);

-- The introduction.
CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB);
INSERT INTO filters SELECT 'users', bloom_build(email, 1000000, 0.01) FROM users;
SELECT bloom_might_contain((SELECT filter FROM filters WHERE name = 'users'), 'eve@example.com');
-- => 0
SELECT bloom_might_contain((SELECT filter FROM filters WHERE name = 'users'), 'user1@example.com');
-- => 1

-- bloom_build
SELECT length(bloom_build(email, 1000, 0.01)) FROM users;
-- => 1264
SELECT quote(bloom_build(x, 10, 0.01)) FROM (SELECT 1 AS x WHERE 0);
-- => NULL
SELECT day, length(bloom_build(user_id, 1000, 1e-6)) FROM events GROUP BY day;
-- => mon|3664
-- => tue|3664

-- bloom_might_contain
SELECT bloom_might_contain(bloom_build(x, 100, 0.01), 2)
FROM (SELECT 1 AS x UNION ALL SELECT 2);
-- => 1
SELECT bloom_might_contain(bloom_build(1, 100, 0.01), 'one');
-- => 0
SELECT bloom_might_contain(NULL, 1), bloom_might_contain(bloom_build(1, 100, 0.01), NULL);
-- => NULL|NULL

-- bloom_version
SELECT bloom_version();
-- => 0.1.0

-- Keys: the table of the README.
SELECT bloom_might_contain(bloom_build(1, 100, 0.01), 1.0), bloom_might_contain(bloom_build(0, 100, 0.01), -0.0),
       bloom_might_contain(bloom_build(9007199254740993, 100, 0.01), 9007199254740992.0),
       bloom_might_contain(bloom_build('abc', 100, 0.01), x'616263'), bloom_might_contain(bloom_build(1, 100, 0.01), '1'),
       bloom_might_contain(bloom_build('Alice', 100, 0.01), 'alice');
-- => 1|1|0|0|0|0

-- Errors: the table of the README.
SELECT bloom_build(1, 0, 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0
SELECT bloom_build(1, '1000', 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got '1000'
SELECT bloom_build(1, 1e30, 0.01);
-- error: bloom_build: n must be at most 9223372036854775807, got 1.0e+30
SELECT bloom_build(1, 10, 1.5);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 1.5
SELECT bloom_build(1, 10, 1e-30);
-- error: bloom_build: p = 1.0e-30 needs 100 hash functions, more than 64
SELECT bloom_might_contain('oops', 1);
-- error: bloom_might_contain: the filter must be a BLOB, got 'oops'
SELECT bloom_might_contain(x'00', 1);
-- error: bloom_might_contain: not a Bloom filter: length 1 is shorter than the 64-byte header

-- bloom_build sized without guessing: every user twice, 1000 distinct keys.
SELECT json_extract(bloom_info(bloom_build(email)), '$.n') FROM users, (SELECT 1 UNION ALL SELECT 2);
-- => 1000

-- bloom_info
SELECT bloom_info(bloom_build(value, 1000, 0.01)) FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 1000) SELECT value FROM s);
-- => {"format_version":1,"min_reader_version":1,"layout":"standard","hash":"xxh3-128","k":7,"m":9600,"bytes":1264,"n":1000,"p":0.01,"keys_added":1000,"bits_set":4973,"fill_ratio":0.518020833333333,"estimated_keys":1000.9,"estimated_keys_error":8.2,"estimated_fp_rate":0.0100099194645355,"over_capacity":false}
SELECT json_extract(i, '$.estimated_keys'), json_extract(i, '$.estimated_fp_rate'),
       json_extract(i, '$.over_capacity')
FROM (SELECT bloom_info(bloom_build(value, 1000, 0.01)) AS i FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 3000) SELECT value FROM s));
-- => 3005.1|0.436189502631971|1

-- bloom_union
CREATE TABLE daily AS SELECT day, bloom_build(user_id, 20000, 0.01) AS f FROM events GROUP BY day;
SELECT bloom_union(f) = (SELECT bloom_build(user_id, 20000, 0.01) FROM events) FROM daily;
-- => 1
SELECT bloom_union(bloom_build(1, 1000, 0.01), bloom_build(1, 2000, 0.01));
-- error: bloom_union: incompatible filters: m = 9600 and m = 19200 bits

-- bloom_add, and the trigger of the README
SELECT bloom_might_contain(bloom_add(bloom_build(NULL, 100, 0.01), 'x'), 'x');
-- => 1
CREATE TABLE filters2(name TEXT PRIMARY KEY, filter BLOB);
INSERT INTO filters2 SELECT 'users', bloom_build(NULL, 10000, 0.01);
CREATE TRIGGER users_filter AFTER INSERT ON users BEGIN
  UPDATE filters2 SET filter = bloom_add(filter, NEW.email) WHERE name = 'users';
END;
INSERT INTO users VALUES ('new@example.com');
SELECT bloom_might_contain(filter, 'new@example.com') FROM filters2;
-- => 1

-- Errors of the README
SELECT bloom_build(email, CASE WHEN rowid > 10 THEN 8000 END, 0.01) FROM users;
-- error: bloom_build: n must be the same for all rows of a group, got 8000 after NULL
