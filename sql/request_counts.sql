-- Use case: how often has this object been requested today? (a count-min sketch)
--
-- The request log of sql/one_hit_wonders.sql, replayed once more. There a Bloom filter, a
-- doorkeeper, admitted an object to the cache on its second request. A filter answers
-- "seen before?" only; a count-min sketch answers "how many times?", never less than the
-- truth and, with probability 99 %, at most epsilon times the requests of the day more. So
-- it can admit an object on its third request, which keeps out the objects requested twice
-- as well, and it finds the heavy hitters of the day as they happen: the objects requested
-- 25 times or more. One sketch a day, by name in a live table: a trigger adds each request
-- to it, writing the object's 5 counters, and reads the object's new estimate back.
--
-- Size it for the smallest count it must tell apart: admitting on the third request needs
-- errors below 1, so epsilon times the day's requests (10 here) must be small, and the
-- conservative update does the rest. A second, coarser sketch (epsilon = 0.001, ten times
-- smaller) is kept beside it to show what too coarse a sketch does to that question.
-- Run: sqlite3 :memory: -cmd ".load build/bloom" < sql/request_counts.sql
.headers on
.mode column

-- The same 100,000 requests as sql/one_hit_wonders.sql: 30 % to 2,000 popular objects, 30 %
-- to 20,000 others, 40 % to a long tail of 2,000,000.
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

-- The day's sketch: epsilon = 0.0001, so an estimate is at most 10 requests above the truth
-- with probability 1 - delta = 99 %; the conservative update makes the errors smaller still.
-- The coarse sketch beside it, in a table of its own: epsilon = 0.001.
CREATE VIRTUAL TABLE daily_counts
USING bloom(kind = 'countmin', epsilon = 0.0001, delta = 0.01, update = 'conservative');
CREATE VIRTUAL TABLE daily_counts_coarse
USING bloom(kind = 'countmin', epsilon = 0.001, delta = 0.01, update = 'conservative');
CREATE TABLE cache(object TEXT PRIMARY KEY, bytes INTEGER, admitted_at INTEGER) WITHOUT ROWID;
CREATE TABLE cache_coarse(object TEXT PRIMARY KEY, bytes INTEGER) WITHOUT ROWID;
CREATE TABLE heavy_hitters(object TEXT PRIMARY KEY, found_at INTEGER) WITHOUT ROWID;

-- Replaying a request: count it in both sketches, read the object's estimates back (count,
-- for WHERE key = ?), and admit or flag the object by them.
CREATE TABLE replay(t INTEGER PRIMARY KEY, object TEXT, bytes INTEGER);
CREATE TABLE estimates(t INTEGER PRIMARY KEY, estimate INTEGER, coarse INTEGER);
CREATE TRIGGER count_request AFTER INSERT ON replay BEGIN
  INSERT INTO daily_counts(name, key) VALUES ('2026-12-03', NEW.object);
  INSERT INTO daily_counts_coarse(name, key) VALUES ('2026-12-03', NEW.object);
  INSERT INTO estimates
  SELECT NEW.t, (SELECT count FROM daily_counts WHERE name = '2026-12-03' AND key = NEW.object),
         (SELECT count FROM daily_counts_coarse WHERE name = '2026-12-03' AND key = NEW.object);
  INSERT OR IGNORE INTO cache
  SELECT NEW.object, NEW.bytes, NEW.t FROM estimates WHERE t = NEW.t AND estimate >= 3;
  INSERT OR IGNORE INTO cache_coarse
  SELECT NEW.object, NEW.bytes FROM estimates WHERE t = NEW.t AND coarse >= 3;
  INSERT OR IGNORE INTO heavy_hitters
  SELECT NEW.object, NEW.t FROM estimates WHERE t = NEW.t AND estimate >= 25;
END;
BEGIN;
INSERT INTO replay SELECT * FROM requests ORDER BY t;
COMMIT;

-- The exact answers.
CREATE TABLE exact AS
SELECT object, min(bytes) AS bytes, count(*) AS requests FROM requests GROUP BY object;
CREATE TABLE nth AS
SELECT object, t, row_number() OVER (PARTITION BY object ORDER BY t) AS n FROM requests;

SELECT count(*) AS requests, (SELECT count(*) FROM exact) AS objects,
       (SELECT sum(requests = 1) FROM exact) AS requested_once,
       (SELECT sum(requests = 2) FROM exact) AS requested_twice,
       (SELECT length(filter) FROM daily_counts WHERE name = '2026-12-03') AS sketch_bytes,
       (SELECT length(filter) FROM daily_counts_coarse WHERE name = '2026-12-03') AS coarse_bytes
FROM requests;

.print ''
-- Cache writes by admission policy. Admitting on the third request keeps out the objects
-- requested only twice too; the sketch lets in a few more, whose estimate passed 2 early; the
-- coarse one, whose errors are well within its bound of 100, lets in most of the tail.
SELECT 'on the 1st request' AS admitted, count(*) AS cache_writes,
       printf('%.2f GB', sum(bytes) / 1e9) AS written FROM exact
UNION ALL
SELECT 'on the 2nd (exact)', count(*), printf('%.2f GB', sum(bytes) / 1e9) FROM exact
WHERE requests >= 2
UNION ALL
SELECT 'on the 3rd (exact)', count(*), printf('%.2f GB', sum(bytes) / 1e9) FROM exact
WHERE requests >= 3
UNION ALL
SELECT 'on the 3rd (sketch)', count(*), printf('%.2f GB', sum(bytes) / 1e9) FROM cache
UNION ALL
SELECT 'on the 3rd (coarse sketch)', count(*), printf('%.2f GB', sum(bytes) / 1e9)
FROM cache_coarse;

.print ''
-- How far the estimates were off, over every request (estimate - true count so far).
SELECT 'epsilon 0.0001' AS sketch, sum(e.estimate = n.n) AS exact_estimates,
       sum(e.estimate > n.n) AS over, sum(e.estimate < n.n) AS under,
       max(e.estimate - n.n) AS largest_error,
       printf('%.1f %%', 100.0 * sum(e.estimate - n.n <= 10) / count(*)) AS within_10
FROM estimates e JOIN nth n USING (t)
UNION ALL
SELECT 'epsilon 0.001', sum(e.coarse = n.n), sum(e.coarse > n.n), sum(e.coarse < n.n),
       max(e.coarse - n.n), printf('%.1f %%', 100.0 * sum(e.coarse - n.n <= 10) / count(*))
FROM estimates e JOIN nth n USING (t);

.print ''
-- Heavy hitters: the objects requested 25 times or more today, found as they happened
-- (found_before: how many requests of the day earlier than their 25th, on average).
SELECT (SELECT count(*) FROM exact WHERE requests >= 25) AS heavy_hitters,
       (SELECT count(*) FROM heavy_hitters h JOIN exact e USING (object)
        WHERE e.requests >= 25) AS found,
       (SELECT count(*) FROM heavy_hitters h JOIN exact e USING (object)
        WHERE e.requests < 25) AS false_alarms,
       (SELECT printf('%.1f', avg(n.t - h.found_at)) FROM heavy_hitters h JOIN nth n USING (object)
        WHERE n.n = 25) AS found_before;

-- Never below the truth: every object is admitted by its third request and every heavy
-- hitter is found by its 25th, and the day's sketch still counts each object at least as
-- often as it was requested.
.print ''
.mode list
.headers off
SELECT 'check: ' || CASE
  WHEN (SELECT count(*) FROM estimates e JOIN nth n USING (t)
        WHERE e.estimate < n.n OR e.coarse < n.n) = 0
   AND (SELECT count(*) FROM nth n LEFT JOIN cache c USING (object)
        WHERE n.n = 3 AND (c.admitted_at IS NULL OR c.admitted_at > n.t)) = 0
   AND (SELECT count(*) FROM nth n LEFT JOIN heavy_hitters h USING (object)
        WHERE n.n = 25 AND (h.found_at IS NULL OR h.found_at > n.t)) = 0
   AND (SELECT count(*) FROM exact e
        WHERE coalesce((SELECT count FROM daily_counts WHERE name = '2026-12-03' AND key = e.object),
                       0) < e.requests) = 0
  THEN 'ok: no estimate below the true count; every object requested 3 times was admitted by then'
  ELSE 'MISMATCH' END;
