-- Use case: is this username free?
--
-- A sign-up form checks every name a user types against 200,000 accounts. Almost every
-- candidate is free, so almost every lookup finds nothing. A filter of the taken names
-- answers "certainly free" for most candidates without touching the users table (or the
-- server that holds it); only a "maybe" goes on to the exact lookup. The filter is a live
-- table that a trigger keeps current as accounts sign up, so it never needs rebuilding.
-- Usernames are case-insensitive: add and probe lower(), as the index uses NOCASE.
--
-- Run: sqlite3 :memory: -cmd ".load build/bloom" < sql/username_availability.sql
.headers on
.mode column

-- Usernames like "anna.schmidt417": 32 first names, 32 last names, 4 separators and
-- numbers 0 to 1000, chosen by a linear congruential generator (the same on every run).
CREATE TABLE firsts(i INTEGER PRIMARY KEY, name TEXT);
INSERT INTO firsts(name) VALUES ('anna'), ('ben'), ('chloe'), ('david'), ('emma'), ('felix'),
  ('grace'), ('hugo'), ('ines'), ('jonas'), ('kate'), ('liam'), ('mia'), ('noah'), ('olivia'),
  ('paul'), ('quinn'), ('rosa'), ('sam'), ('tara'), ('umar'), ('vera'), ('will'), ('xena'),
  ('yusuf'), ('zoe'), ('alex'), ('bea'), ('carl'), ('dora'), ('eli'), ('fatima');
CREATE TABLE lasts(i INTEGER PRIMARY KEY, name TEXT);
INSERT INTO lasts(name) VALUES ('smith'), ('muller'), ('garcia'), ('rossi'), ('dubois'),
  ('jansen'), ('novak'), ('silva'), ('kowalski'), ('nielsen'), ('costa'), ('weber'), ('moreau'),
  ('fischer'), ('lopez'), ('berg'), ('ivanov'), ('murphy'), ('schmidt'), ('bianchi'), ('martin'),
  ('horvat'), ('lindqvist'), ('papadopoulos'), ('yilmaz'), ('kim'), ('tanaka'), ('okafor'),
  ('haddad'), ('singh'), ('nguyen'), ('cohen');

CREATE TABLE draws(i INTEGER PRIMARY KEY, name TEXT NOT NULL);
WITH RECURSIVE lcg(n, x) AS (
  SELECT 1, 20240601
  UNION ALL
  SELECT n + 1, (1664525 * x + 1013904223) % 4294967296 FROM lcg WHERE n < 300000
)
INSERT INTO draws
SELECT n, CASE WHEN (x >> 9) % 8 = 0 THEN upper(substr(f.name, 1, 1)) || substr(f.name, 2)
               ELSE f.name END
          || substr('._-', 1 + (x >> 20) % 4, (x >> 20) % 4 > 0) || l.name
          || CASE WHEN (x >> 10) % 1024 < 1001 THEN (x >> 10) % 1024 ELSE '' END
FROM lcg JOIN firsts f ON f.i = 1 + (x >> 27) JOIN lasts l ON l.i = 1 + (x >> 22) % 32;

-- The filter of taken names, sized for the 200,000 accounts expected, at 1 %, and the
-- trigger that adds each new account's name to it. (Accounts that are deleted or renamed need
-- a kind that removes names: sql/usernames_taken_and_released.sql.)
CREATE VIRTUAL TABLE taken USING bloom(n = 200000, p = 0.01);
CREATE TABLE users(id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE COLLATE NOCASE);
CREATE TRIGGER users_taken AFTER INSERT ON users BEGIN
  INSERT INTO taken(key) VALUES (lower(NEW.username));
END;

-- The first 200,000 draws sign up (a repeated name is refused by the NOCASE unique index,
-- and so never reaches the filter); the next 100,000 are candidates typed into the form.
INSERT OR IGNORE INTO users(username) SELECT name FROM draws WHERE i <= 200000 ORDER BY i;
CREATE TABLE candidates(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO candidates(name) SELECT name FROM draws WHERE i > 200000 ORDER BY i;

-- The answer: the filter first (a probe of the live table by key), the users table only
-- when it says "maybe".
CREATE TABLE answer AS
SELECT id, maybe,
       CASE WHEN maybe = 0 THEN 1
            ELSE NOT EXISTS (SELECT 1 FROM users u WHERE u.username = name) END AS free
FROM (SELECT c.id, c.name, EXISTS (SELECT 1 FROM taken WHERE key = lower(c.name)) AS maybe
      FROM candidates c);

-- The exact answer: a lookup for every candidate.
CREATE TABLE exact AS
SELECT c.id, NOT EXISTS (SELECT 1 FROM users u WHERE u.username = c.name) AS free
FROM candidates c;

SELECT (SELECT count(*) FROM users) AS taken_names,
       (SELECT count(*) FROM candidates) AS candidates,
       (SELECT sum(free) FROM exact) AS free,
       (SELECT count(*) - sum(free) FROM exact) AS taken;

.print ''
-- The false-positive rate is below 1 %: the filter holds fewer names than the 200,000 it was
-- sized for.
SELECT (SELECT count(*) FROM answer WHERE maybe = 0) AS certainly_free_without_lookup,
       (SELECT printf('%.1f %%', 100.0 * sum(maybe = 0) / count(*)) FROM answer) AS lookups_saved,
       (SELECT count(*) FROM answer WHERE maybe = 1) AS lookups,
       (SELECT count(*) FROM answer WHERE maybe = 1 AND free = 0) AS found_taken,
       (SELECT count(*) FROM answer WHERE maybe = 1 AND free = 1) AS false_positives,
       (SELECT printf('%.2f %%', 100.0 * sum(maybe = 1 AND free = 1) / sum(free)) FROM answer)
         AS false_positive_rate;

.print ''
-- filter_bytes: the length of the filter's snapshot (SELECT filter), the BLOB that the live
-- table keeps in page-sized rows.
SELECT length(filter) AS filter_bytes,
       (SELECT sum(length(username)) FROM users) AS bytes_of_the_names,
       printf('%.1f', 1.0 * (SELECT sum(length(username)) FROM users) / length(filter))
         AS times_smaller
FROM taken;

.print ''
-- The filter follows the table: the first candidate it called certainly free signs up, and
-- the next probe of that name says "maybe".
CREATE TABLE signup AS
SELECT 'before signing up' AS moment, c.name,
       EXISTS (SELECT 1 FROM taken WHERE key = lower(c.name)) AS maybe_taken
FROM candidates c JOIN answer a USING (id) WHERE a.maybe = 0 ORDER BY id LIMIT 1;
INSERT INTO users(username) SELECT name FROM signup;
INSERT INTO signup
SELECT 'after', s.name, EXISTS (SELECT 1 FROM taken WHERE key = lower(s.name)) FROM signup s;
SELECT * FROM signup;

.print ''
.mode list
.headers off
SELECT 'check: ' || CASE WHEN (SELECT count(*) FROM answer a JOIN exact e USING (id)
                               WHERE a.free = e.free) = 100000
                          AND (SELECT count(*) FROM answer a JOIN exact e USING (id)
                               WHERE e.free = 0 AND a.maybe = 0) = 0
                         THEN 'ok: every answer is the exact one, no taken name was called free'
                         ELSE 'MISMATCH' END;
