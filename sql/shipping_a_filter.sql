-- Use case: shipping a filter instead of the data (publisher's side)
--
-- A security service keeps a blocklist of 250,000 malicious domains. Clients (browsers,
-- mail gateways) must check every domain they visit, fast, offline and without telling
-- the service what they visit. The service ships them a filter of the list instead of the
-- list: a client asks the service only about the domains the filter flags, about 1 in
-- 1,000 of the clean ones at p = 0.001.
--
-- This script builds the list, writes the filter alone into blocklist.db (a small
-- standalone database) and as a SQL literal into blocklist_filter.sql, both in the
-- current directory. sql/shipping_a_filter_client.sql is the client's side, a second
-- session that has the file and not the list:
--   sqlite3 :memory: -cmd ".load build/bloom" < sql/shipping_a_filter.sql
--   sqlite3 -readonly blocklist.db -cmd ".load build/bloom" < sql/shipping_a_filter_client.sql
.headers on
.mode column

-- Domains like secure-wallet4821.xyz: two words, a number and a top-level domain, drawn by
-- a linear congruential generator (the same on every run). Repeated draws are ignored.
CREATE TABLE words(i INTEGER PRIMARY KEY, word TEXT);
INSERT INTO words(i, word) VALUES (0, 'secure'), (1, 'login'), (2, 'account'), (3, 'verify'),
  (4, 'update'), (5, 'free'), (6, 'bonus'), (7, 'wallet'), (8, 'support'), (9, 'billing'),
  (10, 'auth'), (11, 'prize'), (12, 'cloud'), (13, 'mail'), (14, 'pay'), (15, 'bank'),
  (16, 'shop'), (17, 'store'), (18, 'service'), (19, 'portal'), (20, 'center'), (21, 'online'),
  (22, 'app'), (23, 'web'), (24, 'id'), (25, 'check'), (26, 'zone'), (27, 'hub'), (28, 'desk'),
  (29, 'point'), (30, 'gate'), (31, 'track');
CREATE TABLE tlds(i INTEGER PRIMARY KEY, tld TEXT);
INSERT INTO tlds(i, tld) VALUES (0, 'com'), (1, 'net'), (2, 'xyz'), (3, 'top'), (4, 'info'),
  (5, 'click'), (6, 'site'), (7, 'online');
CREATE TABLE blocklist(domain TEXT PRIMARY KEY) WITHOUT ROWID;
WITH RECURSIVE lcg(n, x) AS (
  SELECT 1, 4242
  UNION ALL
  SELECT n + 1, (1664525 * x + 1013904223) % 4294967296 FROM lcg WHERE n < 250000
)
INSERT OR IGNORE INTO blocklist
SELECT a.word || '-' || b.word || ((x >> 8) % 10000) || '.' || t.tld
FROM lcg JOIN words a ON a.i = x >> 27 JOIN words b ON b.i = (x >> 22) % 32
JOIN tlds t ON t.i = (x >> 19) % 8;

-- The filter, sized for the list at 0.1 %, written alone into blocklist.db.
ATTACH 'blocklist.db' AS ship;
DROP TABLE IF EXISTS ship.filters;
CREATE TABLE ship.filters(name TEXT PRIMARY KEY, filter BLOB NOT NULL);
INSERT INTO ship.filters SELECT 'blocklist', bloom_build(domain, NULL, 0.001) FROM blocklist;
VACUUM ship;

-- The same filter as a SQL literal, for clients that take text (a config, a script).
.mode list
.headers off
.once blocklist_filter.sql
SELECT 'INSERT INTO shipped(filter) VALUES (x''' || hex(filter) || ''');' FROM ship.filters;
.mode column
.headers on

SELECT (SELECT count(*) FROM blocklist) AS blocked_domains,
       (SELECT sum(length(domain)) FROM blocklist) AS bytes_of_the_list,
       length(filter) AS filter_bytes,
       (SELECT p.page_count * s.page_size FROM pragma_page_count('ship') p, pragma_page_size('ship') s)
         AS blocklist_db_bytes,
       length(hex(filter)) AS literal_hex_digits
FROM ship.filters;

-- What a client will find: 100,000 visits, 99,000 to clean sites and 1,000 to blocked
-- domains (the first 1,000 drawn above), probed here against the filter and the list.
.parameter set @blocklist "(SELECT filter FROM ship.filters WHERE name = 'blocklist')"
CREATE TABLE visits AS
SELECT 'www.' || w.word || value || '.example.com' AS domain
FROM generate_series(1, 99000) JOIN words w ON w.i = value % 32
UNION ALL
SELECT a.word || '-' || b.word || ((x >> 8) % 10000) || '.' || t.tld
FROM (WITH RECURSIVE lcg(n, x) AS (
        SELECT 1, 4242
        UNION ALL
        SELECT n + 1, (1664525 * x + 1013904223) % 4294967296 FROM lcg WHERE n < 1000)
      SELECT x FROM lcg)
JOIN words a ON a.i = x >> 27 JOIN words b ON b.i = (x >> 22) % 32 JOIN tlds t ON t.i = (x >> 19) % 8;

.print ''
SELECT count(*) AS visits, sum(bloom_might_contain(@blocklist, domain)) AS flagged,
       sum(domain IN (SELECT domain FROM blocklist)) AS blocked,
       sum(bloom_might_contain(@blocklist, domain) AND domain NOT IN (SELECT domain FROM blocklist))
         AS flagged_but_clean
FROM visits;

.print ''
.mode list
.headers off
SELECT 'check: ' || CASE
  WHEN (SELECT count(*) FROM visits WHERE domain IN (SELECT domain FROM blocklist)) = 1000
   AND (SELECT count(*) FROM blocklist WHERE NOT bloom_might_contain(@blocklist, domain)) = 0
  THEN 'ok: every blocked domain is flagged by the filter in blocklist.db'
  ELSE 'MISMATCH' END;
