-- Use case: has the crawler seen this URL before?
--
-- A web crawler has fetched 500,000 pages. The pages of its next batch link to 300,000
-- distinct URLs, most of them pages it already has. Before queueing a link it asks "seen?";
-- a filter of the seen URLs answers without the table of URLs. The filter is a live table,
-- which a trigger keeps current as pages are stored. A false positive here is a new page
-- taken for a seen one: a page the crawler skips and never fetches. So choose p for the
-- number of skipped pages you accept: this script measures them at four rates.
--
-- Run: sqlite3 :memory: -cmd ".load build/bloom" < sql/crawler_dedup.sql
.headers on
.mode column

-- Page k has the URL https://<site>/<section>/<k>.html; sites and sections by k.
CREATE TABLE sites(i INTEGER PRIMARY KEY, host TEXT);
INSERT INTO sites(i, host) SELECT value, 'www.site' || value || '.example' FROM generate_series(0, 499);
CREATE TABLE sections(i INTEGER PRIMARY KEY, name TEXT);
INSERT INTO sections(i, name) VALUES (0, 'news'), (1, 'blog'), (2, 'products'), (3, 'docs'),
  (4, 'forum'), (5, 'about'), (6, 'events'), (7, 'archive');

-- One filter of the seen URLs at each rate, all in one live table, each named by its rate.
-- The table is created without arguments and loaded with four empty filters, one per rate
-- (a table with arguments makes every filter with the same n and p).
CREATE TABLE rates(name TEXT PRIMARY KEY, p REAL NOT NULL);
INSERT INTO rates VALUES ('0.1', 0.1), ('0.01', 0.01), ('0.001', 0.001), ('0.0001', 0.0001);
CREATE VIRTUAL TABLE seen_urls USING bloom;
INSERT INTO seen_urls(name, filter) SELECT name, bloom_empty(500000, p) FROM rates;

-- Pages 1 to 500,000 are crawled; the trigger adds each URL to the four filters as the page
-- is stored.
CREATE TABLE seen(url TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TRIGGER seen_urls_added AFTER INSERT ON seen BEGIN
  INSERT INTO seen_urls(name, key) SELECT name, NEW.url FROM rates;
END;
INSERT INTO seen SELECT 'https://' || s.host || '/' || c.name || '/' || value || '.html'
FROM generate_series(1, 500000) JOIN sites s ON s.i = value % 500
JOIN sections c ON c.i = (value / 500) % 8;

-- The next batch links to 300,000 distinct URLs: 200,000 crawled pages (those whose
-- multiplicative hash falls in the lower 2/5 of its range) and 100,000 new ones, one drawn
-- from each run of 45 pages above 500,000.
CREATE TABLE links(url TEXT PRIMARY KEY) WITHOUT ROWID;
WITH page(k) AS (
  SELECT value FROM generate_series(1, 500000)
  WHERE (value * 2654435761) % 4294967296 < 2 * 4294967296 / 5
  UNION ALL
  SELECT 500000 + 45 * value - ((value * 2654435761) % 4294967296 >> 16) % 45
  FROM generate_series(1, 100000)
)
INSERT INTO links
SELECT 'https://' || s.host || '/' || c.name || '/' || k || '.html'
FROM page JOIN sites s ON s.i = k % 500 JOIN sections c ON c.i = (k / 500) % 8;

-- Every link probed against the four filters at once: joined on key, the live table gives
-- for each link the filters that say "seen", by name. The exact answer: a lookup in the table.
CREATE TABLE flagged(url TEXT, rate TEXT, PRIMARY KEY (url, rate)) WITHOUT ROWID;
INSERT INTO flagged SELECT l.url, f.name FROM links l JOIN seen_urls f ON f.key = l.url;
CREATE TABLE answers AS SELECT url, url IN (SELECT url FROM seen) AS seen FROM links;

SELECT (SELECT count(*) FROM seen) AS crawled_pages,
       (SELECT sum(length(url)) FROM seen) AS bytes_of_their_urls,
       count(*) AS links, sum(seen) AS to_crawled_pages, count(*) - sum(seen) AS to_new_pages
FROM answers;

CREATE TABLE outcome AS
SELECT r.name AS rate, r.p,
       (SELECT count(*) FROM answers a JOIN flagged f USING (url)
        WHERE f.rate = r.name AND a.seen = 0) AS skipped,
       (SELECT count(*) FROM answers a
        WHERE a.seen = 1 AND NOT EXISTS (SELECT 1 FROM flagged f
                                         WHERE f.url = a.url AND f.rate = r.name)) AS recrawled
FROM rates r;

.print ''
-- skipped_new_pages: new pages the filter takes for seen ones (its false positives);
-- recrawled: seen pages it takes for new ones (never: a filter has no false negatives).
SELECT o.rate AS p, length(f.filter) AS filter_bytes,
       printf('%.1f', 8.0 * length(f.filter) / 500000) AS bits_per_url,
       printf('%.1f', 1.0 * (SELECT sum(length(url)) FROM seen) / length(f.filter)) AS times_smaller,
       o.skipped AS skipped_new_pages,
       printf('%.3f %%', 100.0 * o.skipped / (SELECT count(*) - sum(seen) FROM answers)) AS of_new,
       o.recrawled
FROM outcome o JOIN seen_urls f ON f.name = o.rate ORDER BY o.p DESC;

.print ''
-- Sizing: to skip at most 1 new page in 1,000, take p = 0.001 (0.1 %); the filter needs
-- m = -n ln p / (ln 2)^2 bits, which for 500,000 URLs is:
SELECT json_extract(bloom_info(filter), '$.m') AS m_bits, json_extract(bloom_info(filter), '$.k') AS k,
       length(filter) AS bytes
FROM seen_urls WHERE name = '0.001';

.print ''
.mode list
.headers off
SELECT 'check: ' || CASE
  WHEN (SELECT count(*) FROM links) = 300000 AND (SELECT sum(recrawled) FROM outcome) = 0
   AND (SELECT count(*) FROM answers a
        WHERE seen = 0 AND NOT EXISTS (SELECT 1 FROM flagged f WHERE f.url = a.url AND f.rate = '0.001'))
       + (SELECT skipped FROM outcome WHERE rate = '0.001') = (SELECT count(*) - sum(seen) FROM answers)
  THEN 'ok: no seen page is taken for new; queued plus skipped new pages = the exact new pages'
  ELSE 'MISMATCH' END;
