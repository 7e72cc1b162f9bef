-- Use case: shipping a filter instead of the data (client's side)
--
-- A client has received blocklist.db, written by sql/shipping_a_filter.sql, and not the
-- list of 250,000 blocked domains. Which of the domains it visits must it ask the service
-- about? Only those the filter flags; every other one is certainly not blocked.
--
-- Run, in the directory where sql/shipping_a_filter.sql wrote blocklist.db:
--   sqlite3 -readonly blocklist.db -cmd ".load build/bloom" < sql/shipping_a_filter_client.sql
.headers on
.mode column

-- All the client has: one table, one row, one BLOB.
SELECT name, length(filter) AS filter_bytes, json_extract(bloom_info(filter), '$.n') AS n,
       json_extract(bloom_info(filter), '$.p') AS p,
       (SELECT p.page_count * s.page_size FROM pragma_page_count() p, pragma_page_size() s)
         AS file_bytes,
       (SELECT count(*) FROM sqlite_schema) AS schema_objects
FROM filters;
.parameter set @blocklist "(SELECT filter FROM filters WHERE name = 'blocklist')"

-- The same filter received as a SQL literal, in blocklist_filter.sql.
CREATE TEMP TABLE shipped(filter BLOB);
.read blocklist_filter.sql
.parameter set @literal "(SELECT filter FROM temp.shipped)"

-- The client's 100,000 visits, the same as the publisher's script probed: 99,000 clean
-- sites and 1,000 blocked domains (regenerated here by the publisher's formula, which is
-- how this client can know which ones are blocked without the list).
CREATE TEMP TABLE words(i INTEGER PRIMARY KEY, word TEXT);
INSERT INTO words(i, word) VALUES (0, 'secure'), (1, 'login'), (2, 'account'), (3, 'verify'),
  (4, 'update'), (5, 'free'), (6, 'bonus'), (7, 'wallet'), (8, 'support'), (9, 'billing'),
  (10, 'auth'), (11, 'prize'), (12, 'cloud'), (13, 'mail'), (14, 'pay'), (15, 'bank'),
  (16, 'shop'), (17, 'store'), (18, 'service'), (19, 'portal'), (20, 'center'), (21, 'online'),
  (22, 'app'), (23, 'web'), (24, 'id'), (25, 'check'), (26, 'zone'), (27, 'hub'), (28, 'desk'),
  (29, 'point'), (30, 'gate'), (31, 'track');
CREATE TEMP TABLE tlds(i INTEGER PRIMARY KEY, tld TEXT);
INSERT INTO tlds(i, tld) VALUES (0, 'com'), (1, 'net'), (2, 'xyz'), (3, 'top'), (4, 'info'),
  (5, 'click'), (6, 'site'), (7, 'online');
CREATE TEMP TABLE visits AS
SELECT 'www.' || w.word || value || '.example.com' AS domain, 0 AS blocked
FROM generate_series(1, 99000) JOIN words w ON w.i = value % 32
UNION ALL
SELECT a.word || '-' || b.word || ((x >> 8) % 10000) || '.' || t.tld, 1
FROM (WITH RECURSIVE lcg(n, x) AS (
        SELECT 1, 4242
        UNION ALL
        SELECT n + 1, (1664525 * x + 1013904223) % 4294967296 FROM lcg WHERE n < 1000)
      SELECT x FROM lcg)
JOIN words a ON a.i = x >> 27 JOIN words b ON b.i = (x >> 22) % 32 JOIN tlds t ON t.i = (x >> 19) % 8;

.print ''
SELECT count(*) AS visits,
       sum(NOT bloom_might_contain(@blocklist, domain)) AS certainly_clean,
       sum(bloom_might_contain(@blocklist, domain)) AS asked_about,
       sum(bloom_might_contain(@blocklist, domain) AND blocked) AS blocked,
       sum(bloom_might_contain(@blocklist, domain) AND NOT blocked) AS clean_but_flagged,
       printf('%.1f %%', 100.0 * sum(NOT bloom_might_contain(@blocklist, domain)) / count(*))
         AS questions_saved
FROM visits;

.print ''
.mode list
.headers off
SELECT 'check: ' || CASE
  WHEN @literal = @blocklist
   AND (SELECT count(*) FROM visits WHERE blocked AND NOT bloom_might_contain(@blocklist, domain)) = 0
   AND (SELECT count(*) FROM visits WHERE bloom_might_contain(@literal, domain))
       = (SELECT count(*) FROM visits WHERE bloom_might_contain(@blocklist, domain))
  THEN 'ok: the literal is the same filter; every blocked domain visited is flagged'
  ELSE 'MISMATCH' END;
