-- Use case: which objects are worth caching? (one-hit wonders)
--
-- Most objects a CDN or a disk cache serves are requested once and never again: writing
-- them into the cache costs disk writes and evicts objects that will be requested again.
-- The remedy: admit an object only on its second request. That needs to remember every
-- object requested once, which is most objects; a filter of first requests (a
-- "doorkeeper") remembers them in a few bits each. A false positive admits an object on
-- its first request, which is the cost of caching without a doorkeeper, and rare.
--
-- The request log is replayed in order; the doorkeeper is a live table, which a trigger
-- asks and adds to at each request.
-- Run: sqlite3 :memory: -cmd ".load build/bloom" < sql/one_hit_wonders.sql
.headers on
.mode column

-- 100,000 requests: 30 % to 2,000 popular objects, 30 % to 20,000 others, 40 % to a long
-- tail of 2,000,000, drawn by a linear congruential generator (the same on every run).
-- An object's size, 1 kB to 1 MB, follows from its number.
CREATE TABLE requests(t INTEGER PRIMARY KEY, object TEXT NOT NULL, bytes INTEGER NOT NULL);
WITH RECURSIVE lcg(t, x) AS (
  SELECT 1, 1234567
  UNION ALL
  SELECT t + 1, (1664525 * x + 1013904223) % 4294967296 FROM lcg WHERE t < 100000
), pick(t, o) AS (
  SELECT t, CASE WHEN (x >> 8) % 10 < 3 THEN (x >> 12) % 2000
                 WHEN (x >> 8) % 10 < 6 THEN 2000 + (x >> 12) % 20000
                 ELSE 22000 + (x >> 11) % 2000000 END FROM lcg
)
INSERT INTO requests
SELECT t, '/objects/' || o || '.bin', 1024 * (1 + (o * 2654435761) % 4294967296 % 1024) FROM pick;

-- The doorkeeper: a filter of objects requested before, sized for 60,000 objects at 1 %.
CREATE VIRTUAL TABLE doorkeeper USING bloom(n = 60000, p = 0.01);
CREATE TABLE cache(object TEXT PRIMARY KEY, bytes INTEGER, admitted_at INTEGER) WITHOUT ROWID;

-- Replaying a request: admit its object if the doorkeeper has seen it, else remember it.
CREATE TABLE replay(t INTEGER PRIMARY KEY, object TEXT, bytes INTEGER);
CREATE TRIGGER doorkeeper_admits AFTER INSERT ON replay BEGIN
  INSERT OR IGNORE INTO cache
  SELECT NEW.object, NEW.bytes, NEW.t
  WHERE EXISTS (SELECT 1 FROM doorkeeper WHERE key = NEW.object);
  INSERT INTO doorkeeper(key)
  SELECT NEW.object WHERE NOT EXISTS (SELECT 1 FROM doorkeeper WHERE key = NEW.object);
END;
INSERT INTO replay SELECT * FROM requests ORDER BY t;

-- The exact answer: an object belongs in the cache once it has been requested twice, and
-- is written there at its second request.
CREATE TABLE exact AS
SELECT object, min(bytes) AS bytes, count(*) AS requests FROM requests GROUP BY object;
CREATE TABLE second_request AS
SELECT object, t FROM (SELECT object, t, row_number() OVER (PARTITION BY object ORDER BY t) AS nth
                       FROM requests)
WHERE nth = 2;

SELECT (SELECT count(*) FROM requests) AS requests, count(*) AS objects,
       sum(requests = 1) AS one_hit_wonders,
       printf('%.1f %%', 100.0 * sum(requests = 1) / count(*)) AS of_objects
FROM exact;

.print ''
-- Cache writes: without a doorkeeper every object is written on its first request.
SELECT 'no doorkeeper' AS policy, count(*) AS cache_writes,
       printf('%.2f GB', sum(bytes) / 1e9) AS written, NULL AS one_hit_wonders_written FROM exact
UNION ALL
SELECT 'exact, on the 2nd request', count(*), printf('%.2f GB', sum(bytes) / 1e9), 0
FROM exact WHERE requests >= 2
UNION ALL
SELECT 'doorkeeper filter', count(*), printf('%.2f GB', sum(c.bytes) / 1e9), sum(e.requests = 1)
FROM cache c JOIN exact e USING (object);

.print ''
SELECT (SELECT length(filter) FROM doorkeeper) AS doorkeeper_bytes,
       (SELECT sum(length(object)) FROM exact) AS bytes_of_the_object_names,
       (SELECT json_extract(bloom_info(filter), '$.keys_added') FROM doorkeeper) AS keys_added,
       (SELECT printf('%.2f %%', 100 * json_extract(bloom_info(filter), '$.estimated_fp_rate'))
        FROM doorkeeper) AS rate_now;

-- Every object requested twice is admitted at its second request at the latest (earlier
-- only when a false positive let it in on its first), and every one-hit wonder in the
-- cache was admitted on its first, only, request: a false positive.
.print ''
.mode list
.headers off
SELECT 'check: ' || CASE
  WHEN (SELECT count(*) FROM second_request s LEFT JOIN cache c USING (object)
        WHERE c.admitted_at IS NULL OR c.admitted_at > s.t) = 0
   AND (SELECT count(*) FROM cache c JOIN exact e USING (object)
        WHERE e.requests >= 2 OR c.admitted_at = (SELECT min(t) FROM requests r WHERE r.object = c.object))
       = (SELECT count(*) FROM cache)
   AND (SELECT count(*) FROM second_request) = (SELECT count(*) FROM exact WHERE requests >= 2)
  THEN 'ok: every object requested twice is cached by its second request; the rest are false positives'
  ELSE 'MISMATCH' END;
