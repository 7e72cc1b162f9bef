-- sqlite-bloom demo. From the repository root, after building:
--   sqlite3 :memory: -cmd ".load build/bloom" < sql/demo.sql
-- or, in an interactive sqlite3 shell: .load build/bloom  then  .read sql/demo.sql
.headers on
.mode column

SELECT bloom_version() AS version;

-- 1. 100,000 users with e-mail addresses, generated.
CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT NOT NULL);
INSERT INTO users(email) SELECT 'user' || value || '@example.com' FROM generate_series(1, 100000);

-- 2. One Bloom filter of all their addresses, sized for 100,000 keys at 1 %
--    false positives, stored in an ordinary table.
CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB NOT NULL);
INSERT INTO filters SELECT 'users', bloom_build(email, 100000, 0.01) FROM users;

SELECT name, length(filter) AS filter_bytes,
       round(8.0 * length(filter) / 100000, 2) AS bits_per_key,
       (SELECT sum(length(email)) FROM users) AS bytes_of_the_addresses
FROM filters;

-- 3. Probes: 1 means "possibly present", 0 means "certainly not present".
.parameter set @users "(SELECT filter FROM filters WHERE name = 'users')"
SELECT email, bloom_might_contain(@users, email) AS might_contain,
       EXISTS (SELECT 1 FROM users u WHERE u.email = c.email) AS really_there
FROM (SELECT 'user42@example.com' AS email UNION ALL SELECT 'user99999@example.com'
      UNION ALL SELECT 'eve@example.com' UNION ALL SELECT 'USER42@example.com') c;

-- 4. Every user probes 1: a Bloom filter never gives a false negative.
SELECT count(*) AS users, sum(bloom_might_contain(@users, email)) AS probed_1 FROM users;

-- 5. The measured false-positive rate over 1,000,000 addresses that are not users.
SELECT count(*) AS absent_probes,
       sum(bloom_might_contain(@users, 'visitor' || value || '@example.org')) AS false_positives,
       printf('%.3f %%', 100.0 * sum(bloom_might_contain(@users, 'visitor' || value || '@example.org')) / count(*)) AS measured_rate,
       '1.000 %' AS target_rate
FROM generate_series(1, 1000000);
