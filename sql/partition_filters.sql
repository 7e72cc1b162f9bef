-- Use case: which partitions can hold this key? (the storage-engine pattern)
--
-- Orders are stored in one partition per day, 30 days of 20,000 orders, as a storage
-- engine keeps one file per day or per flush. Support looks orders up by their code,
-- which is random: every partition's smallest and largest code span almost the whole
-- range, so min/max ranges ("zone maps") rule out almost nothing, and without an index
-- across partitions a lookup must search each one. Keep one filter per partition, by name in
-- one live table that a trigger keeps current as orders arrive, and search only the
-- partitions whose filter says "maybe": SELECT name FROM order_codes WHERE key = ?.
--
-- Run: sqlite3 :memory: -cmd ".load build/bloom" < sql/partition_filters.sql
.headers on
.mode column

-- One filter per partition, named by its day and sized for its 20,000 orders at 1 %: the
-- trigger adds each order's code to its day's filter, which the day's first order makes.
CREATE VIRTUAL TABLE order_codes USING bloom(n = 20000, p = 0.01);
CREATE TABLE orders(day INTEGER, code TEXT, amount_cents INTEGER, PRIMARY KEY (day, code))
  WITHOUT ROWID;
CREATE TRIGGER orders_coded AFTER INSERT ON orders BEGIN
  INSERT INTO order_codes(name, key) VALUES (NEW.day, NEW.code);
END;

-- Order number n is placed on day 1 + (n - 1) / 20000; its code is a bijective hash of n
-- printed in hexadecimal, such as ORD-9E3779B1: distinct, and in no order.
INSERT INTO orders
SELECT 1 + (value - 1) / 20000, printf('ORD-%08X', (value * 2654435761) % 4294967296),
       100 + (value * 7919) % 50000
FROM generate_series(1, 600000);

-- Each partition's min and max code, for comparison.
CREATE TABLE zone_maps AS SELECT day, min(code) AS min_code, max(code) AS max_code
FROM orders GROUP BY day;

-- 2,000 lookups: codes of 1,000 orders (every 600th) and 1,000 codes of no order
-- (a hash of numbers beyond the last order, as a mistyped or foreign code would be).
CREATE TABLE lookups(code TEXT PRIMARY KEY);
INSERT INTO lookups
SELECT printf('ORD-%08X', (value * 600 * 2654435761) % 4294967296) FROM generate_series(1, 1000)
UNION ALL
SELECT printf('ORD-%08X', ((600000 + value) * 2654435761) % 4294967296) FROM generate_series(1, 1000);

-- The answer: search only the partitions whose filter says "maybe". Joined on key, the live
-- table gives for each lookup the filters that might hold its code; a name is the day as text.
CREATE TABLE maybe AS
SELECT l.code, CAST(f.name AS INTEGER) AS day FROM lookups l JOIN order_codes f ON f.key = l.code;
CREATE TABLE answer AS
SELECT m.code, m.day FROM maybe m
WHERE EXISTS (SELECT 1 FROM orders o WHERE o.day = m.day AND o.code = m.code);

-- The exact answer: search every partition.
CREATE TABLE exact AS
SELECT l.code, o.day FROM lookups l JOIN orders o ON o.code = l.code;

SELECT (SELECT count(*) FROM order_codes) AS partitions, (SELECT count(*) FROM orders) AS orders,
       (SELECT count(*) FROM lookups) AS lookups, (SELECT count(*) FROM exact) AS orders_found;

.print ''
-- Partition searches: every partition for every lookup; those whose [min, max] code
-- range holds the code; those whose filter says "maybe", of which some find nothing
-- (the filter's false positives).
SELECT (SELECT count(*) FROM zone_maps, lookups) AS without_filters,
       (SELECT count(*) FROM zone_maps z, lookups l WHERE l.code BETWEEN z.min_code AND z.max_code)
         AS with_min_max,
       (SELECT count(*) FROM maybe) AS with_filters,
       (SELECT count(*) FROM maybe) - (SELECT count(*) FROM answer) AS in_vain,
       printf('%.1f %%', 100.0 - 100.0 * (SELECT count(*) FROM maybe) /
                                      (SELECT count(*) FROM zone_maps, lookups)) AS skipped;

.print ''
-- The filters' bytes: their snapshots, as SELECT filter gives them.
SELECT sum(length(filter)) AS bytes_of_30_filters,
       (SELECT sum(length(code)) FROM orders) AS bytes_of_the_codes
FROM order_codes;

.print ''
.mode list
.headers off
SELECT 'check: ' || CASE
  WHEN (SELECT count(*) FROM exact) = 1000
   AND (SELECT count(*) FROM (SELECT code, day FROM answer EXCEPT SELECT code, day FROM exact)) = 0
   AND (SELECT count(*) FROM (SELECT code, day FROM exact EXCEPT SELECT code, day FROM answer)) = 0
  THEN 'ok: the partitions searched found exactly the orders a search of every partition finds'
  ELSE 'MISMATCH' END;
