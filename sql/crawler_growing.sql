-- Use case: a crawler whose set of seen pages grows far past the first guess.
--
-- A crawler starts on a small site it expects to hold about 1,000 pages, and keeps a filter
-- of the pages it has fetched to skip links it has seen. The site links out, and the crawl
-- ends 44 times past the guess. A filter sized for 1,000 pages fills up: past its n every
-- new page looks seen more and more often, and the crawler skips most of the web it was
-- meant to find. A 'scalable' filter grows a stage at a time and keeps its rate at 1 %.
--
-- The stream of links is replayed in order. A trigger fetches a link's page when the filter
-- says it was certainly not seen; the filter is a live table, and a trigger on the table of
-- fetched pages adds each page to it. The exact answer is a table of distinct pages.
-- Run: sqlite3 :memory: -cmd ".load build/bloom" < sql/crawler_growing.sql
.headers on
.mode column

-- 100,000 links; link t points to a page drawn from the pages 1 to 1 + 0.8 t, so that the
-- site seems small at first and new pages keep appearing (a linear congruential generator,
-- the same on every run).
CREATE TABLE links(t INTEGER PRIMARY KEY, url TEXT NOT NULL);
WITH RECURSIVE lcg(t, x) AS (
  SELECT 1, 42
  UNION ALL
  SELECT t + 1, (1664525 * x + 1013904223) % 4294967296 FROM lcg WHERE t < 100000
)
INSERT INTO links
SELECT t, 'https://www.site' || (page % 97) || '.example/page/' || page || '.html'
FROM (SELECT t, 1 + (x >> 8) % (1 + t * 4 / 5) AS page FROM lcg);

-- The filters, both for the guess of 1,000 pages at 1 %, and the pages each crawl fetched.
CREATE VIRTUAL TABLE seen_scalable USING bloom(kind = 'scalable', n = 1000, p = 0.01);
CREATE VIRTUAL TABLE seen_fixed USING bloom(kind = 'standard', n = 1000, p = 0.01);
CREATE TABLE fetched_scalable(t INTEGER PRIMARY KEY, url TEXT);
CREATE TABLE fetched_fixed(t INTEGER PRIMARY KEY, url TEXT);
CREATE TRIGGER fetched_scalable_seen AFTER INSERT ON fetched_scalable BEGIN
  INSERT INTO seen_scalable(key) VALUES (NEW.url);
END;
CREATE TRIGGER fetched_fixed_seen AFTER INSERT ON fetched_fixed BEGIN
  INSERT INTO seen_fixed(key) VALUES (NEW.url);
END;

CREATE TABLE replay(t INTEGER PRIMARY KEY, url TEXT);
CREATE TRIGGER crawl AFTER INSERT ON replay BEGIN
  INSERT INTO fetched_scalable SELECT NEW.t, NEW.url
  WHERE NOT EXISTS (SELECT 1 FROM seen_scalable WHERE key = NEW.url);
  INSERT INTO fetched_fixed SELECT NEW.t, NEW.url
  WHERE NOT EXISTS (SELECT 1 FROM seen_fixed WHERE key = NEW.url);
END;
BEGIN;
INSERT INTO replay SELECT * FROM links ORDER BY t;
COMMIT;

-- The exact crawl: each distinct page, fetched at its first link.
CREATE TABLE pages AS SELECT url, min(t) AS first_t FROM links GROUP BY url;

SELECT count(*) AS links, (SELECT count(*) FROM pages) AS distinct_pages,
       (SELECT count(*) FROM pages) / 1000 AS times_the_guess
FROM links;

.print ''
-- skipped_pages: pages never fetched because the filter took their first link for a seen
-- page (its false positives); fetched_twice: pages fetched again (never: no false negatives).
SELECT 'scalable, n = 1,000' AS filter, count(*) AS fetched,
       (SELECT count(*) FROM pages) - count(DISTINCT url) AS skipped_pages,
       printf('%.2f %%', 100.0 * ((SELECT count(*) FROM pages) - count(DISTINCT url))
                         / (SELECT count(*) FROM pages)) AS of_pages,
       count(*) - count(DISTINCT url) AS fetched_twice,
       (SELECT length(filter) FROM seen_scalable) AS bytes
FROM fetched_scalable
UNION ALL
SELECT 'standard, n = 1,000', count(*), (SELECT count(*) FROM pages) - count(DISTINCT url),
       printf('%.2f %%', 100.0 * ((SELECT count(*) FROM pages) - count(DISTINCT url))
                         / (SELECT count(*) FROM pages)),
       count(*) - count(DISTINCT url), (SELECT length(filter) FROM seen_fixed)
FROM fetched_fixed
UNION ALL
SELECT 'standard, n = final count', NULL, NULL, NULL, NULL,
       length(bloom_empty((SELECT count(*) FROM pages), 0.01));

.print ''
SELECT json_extract(i, '$.stage_count') AS stages, json_extract(i, '$.capacity') AS capacity,
       json_extract(i, '$.keys_added') AS keys_added,
       printf('%.3f %%', 100 * json_extract(i, '$.estimated_fp_rate')) AS rate_now,
       (SELECT group_concat(json_extract(s.value, '$.n'), ', ')
        FROM json_each(i, '$.stages') AS s) AS stage_capacities
FROM (SELECT bloom_info(filter) AS i FROM seen_scalable);

-- Every page fetched by the scalable filter's crawl was fetched at its first link, once; every
-- page it skipped was taken for seen at its first link (a false positive), and the filter
-- still answers 1 for every page it fetched.
.print ''
.mode list
.headers off
SELECT 'check: ' || CASE
  WHEN (SELECT count(*) FROM fetched_scalable f JOIN pages p USING (url) WHERE f.t = p.first_t)
       = (SELECT count(*) FROM fetched_scalable)
   AND (SELECT count(*) - count(DISTINCT url) FROM fetched_scalable) = 0
   AND (SELECT count(*) FROM fetched_scalable f
        WHERE EXISTS (SELECT 1 FROM seen_scalable WHERE key = f.url))
       = (SELECT count(*) FROM fetched_scalable)
   AND (SELECT count(*) - count(DISTINCT url) FROM fetched_fixed) = 0
  THEN 'ok: no page fetched twice; every fetched page still probes 1; the skipped ones are false positives'
  ELSE 'MISMATCH' END;
