-- Use case: is this username taken, while accounts come and go?
--
-- A service keeps the usernames in use in a cuckoo filter, so that the sign-up form can answer
-- "certainly free" without a lookup. Accounts are created, deleted (their names are released
-- and may be taken again) and renamed: the filter is a live table, and triggers keep it
-- current, adding and removing one name at a time. Usernames are case-insensitive: the filter
-- holds lower(username), as the index uses NOCASE.
--
-- Run: sqlite3 :memory: -cmd ".load build/bloom" < sql/usernames_taken_and_released.sql
.headers on
.mode column

CREATE TABLE users(id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE COLLATE NOCASE);
-- Sized for 40,000 names in use at once, at 1 %.
CREATE VIRTUAL TABLE usernames USING bloom(kind = 'cuckoo', n = 40000, p = 0.01);

CREATE TRIGGER users_created AFTER INSERT ON users BEGIN
  INSERT INTO usernames(key) VALUES (lower(NEW.username));
END;
-- Remove only what you added: a name is removed only when its account goes or is renamed, so
-- only names that were added are removed (removing one that was not could take away another
-- name's fingerprint, and that name would then probe 0).
CREATE TRIGGER users_deleted AFTER DELETE ON users BEGIN
  DELETE FROM usernames WHERE key = lower(OLD.username);
END;
CREATE TRIGGER users_renamed AFTER UPDATE OF username ON users BEGIN
  DELETE FROM usernames WHERE key = lower(OLD.username);
  INSERT INTO usernames(key) VALUES (lower(NEW.username));
END;

-- 100,000 operations, interleaved: 60 % sign-ups, 25 % deletions, 15 % renames, drawn by a
-- linear congruential generator (the same on every run). Names are "user" and a number below
-- 100,000, one in eight capitalized; a name already in use, in any case, is refused by the
-- index (and never reaches the filter). Each operation is a row of the queue, which a trigger
-- carries out, so that the users table sees them one by one, in order.
CREATE TABLE queue(i INTEGER PRIMARY KEY, x INTEGER NOT NULL);
CREATE TRIGGER queue_run AFTER INSERT ON queue BEGIN
  INSERT OR IGNORE INTO users(username)
  SELECT CASE WHEN (NEW.x >> 5) % 8 = 0 THEN 'User' ELSE 'user' END || ((NEW.x >> 8) % 100000)
  WHERE (NEW.x >> 24) % 100 < 60;
  DELETE FROM users
  WHERE (NEW.x >> 24) % 100 BETWEEN 60 AND 84
    AND id = (SELECT id FROM users WHERE id >= (NEW.x >> 8) % (SELECT max(id) FROM users)
              ORDER BY id LIMIT 1);
  UPDATE OR IGNORE users SET username = 'user' || ((NEW.x >> 3) % 100000)
  WHERE (NEW.x >> 24) % 100 >= 85
    AND id = (SELECT id FROM users WHERE id >= (NEW.x >> 8) % (SELECT max(id) FROM users)
              ORDER BY id LIMIT 1);
END;
-- What happened to each name: every name the operations touched, and whether it is in use.
CREATE TABLE touched(name TEXT PRIMARY KEY);
CREATE TRIGGER users_touched AFTER INSERT ON users BEGIN
  INSERT OR IGNORE INTO touched VALUES (lower(NEW.username));
END;
CREATE TRIGGER users_touched_renamed AFTER UPDATE OF username ON users BEGIN
  INSERT OR IGNORE INTO touched VALUES (lower(NEW.username));
END;

WITH RECURSIVE lcg(i, x) AS (
  SELECT 1, 20261203
  UNION ALL
  SELECT i + 1, (1664525 * x + 1013904223) % 4294967296 FROM lcg WHERE i < 100000
)
INSERT INTO queue SELECT i, x FROM lcg;

SELECT (SELECT count(*) FROM queue) AS operations,
       (SELECT count(*) FROM users) AS names_in_use,
       (SELECT count(*) FROM touched) AS names_ever_used,
       (SELECT count(*) FROM touched WHERE name NOT IN (SELECT lower(username) FROM users))
         AS names_released;

-- The sign-up check, one name per statement as a form sends it: a probe by key reads the rows
-- that hold the name's two buckets, not the whole filter. Only a "maybe" goes on to the users
-- table.
.print ''
WITH typed(name) AS (SELECT * FROM (SELECT upper(username) FROM users ORDER BY id LIMIT 3)
                    UNION ALL SELECT 'User' || i FROM (SELECT 1 AS i UNION ALL SELECT 2
                                                       UNION ALL SELECT 5))
SELECT t.name AS typed, EXISTS (SELECT 1 FROM usernames WHERE key = lower(t.name)) AS maybe_taken,
       EXISTS (SELECT 1 FROM users WHERE username = t.name) AS taken
FROM typed t;

-- Every name in use probes 1 (no false negative); names released probe 0 again, but for false
-- positives; names never used likewise.
.print ''
CREATE TABLE probes AS
SELECT t.name, t.name IN (SELECT lower(username) FROM users) AS in_use,
       EXISTS (SELECT 1 FROM usernames WHERE key = t.name) AS maybe
FROM touched AS t
UNION ALL
SELECT 'guest' || i, 0, EXISTS (SELECT 1 FROM usernames WHERE key = 'guest' || i)
FROM (WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 100000)
      SELECT i FROM s);
SELECT sum(in_use AND maybe = 0) AS false_negatives,
       sum(in_use = 0 AND name LIKE 'user%' AND maybe = 1) AS released_probing_1,
       sum(in_use = 0 AND name LIKE 'user%') AS released,
       sum(name LIKE 'guest%' AND maybe = 1) AS never_used_probing_1,
       printf('%.2f %%', 100.0 * sum(in_use = 0 AND maybe = 1) / sum(in_use = 0))
         AS false_positive_rate
FROM probes;

.print ''
SELECT json_extract(bloom_info(filter), '$.keys_added') AS names_in_filter,
       printf('%.1f %%', 100 * json_extract(bloom_info(filter), '$.load_factor')) AS load,
       printf('%.2f %%', 100 * json_extract(bloom_info(filter), '$.estimated_fp_rate'))
         AS model_rate,
       length(filter) AS filter_bytes,
       (SELECT sum(length(username)) FROM users) AS bytes_of_the_names
FROM usernames;

.print ''
.mode list
.headers off
SELECT 'check: ' || CASE WHEN (SELECT sum(in_use AND maybe = 0) FROM probes) = 0
                          AND (SELECT json_extract(bloom_info(filter), '$.keys_added') FROM usernames)
                              = (SELECT count(*) FROM users)
                          AND (SELECT 1.0 * sum(in_use = 0 AND maybe = 1) / sum(in_use = 0)
                               FROM probes) <= 0.011
                         THEN 'ok: every name in use probes 1, the filter holds as many names as '
                              || 'the table, the false-positive rate is at most 1.1 %'
                         ELSE 'MISMATCH' END;
