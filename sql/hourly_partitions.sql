-- Use case: which of 10,000 partitions can hold this key? (the index over many filters)
--
-- Events are stored in one partition an hour, 10,000 hours (about 14 months) of 100 events,
-- as a log or a lake keeps a file an hour. Support asks which hours hold a customer's events;
-- a customer appears in a few dozen hours, at random. One filter a partition, in one live
-- table, answers "which partitions might hold this customer" without opening them; but probing
-- 10,000 filters one by one for every question costs more than it saves. The table's index
-- ('optimize') keeps the filters' bits transposed, a row a bit position holding that bit of
-- every filter, so a lookup reads a few rows whatever the number of partitions.
--
-- Run: sqlite3 :memory: -cmd ".load build/bloom" < sql/hourly_partitions.sql
.headers on
.mode column

-- Event i (from 0) is in hour i / 100; its customer, one of 50,000, a hash of i.
CREATE TABLE events(hour INTEGER, customer INTEGER);
INSERT INTO events
SELECT value / 100, (value * 2654435761) % 4294967296 % 50000 + 1 FROM generate_series(0, 999999);
CREATE INDEX events_by_customer ON events(customer, hour);

-- One 'blocked' filter an hour, for its 100 events at 0.1 %, loaded at once, then the index.
CREATE VIRTUAL TABLE hours USING bloom(kind = 'blocked', n = 100, p = 0.001);
INSERT INTO hours(name, key) SELECT printf('h%05d', hour), customer FROM events;
INSERT INTO hours(hours) VALUES ('optimize');

-- 2,000 questions: 1,000 customers with events (every 50th) and 1,000 customers of none
-- (numbers past the last, as a mistyped or foreign id would be).
CREATE TABLE asked(customer INTEGER PRIMARY KEY);
INSERT INTO asked SELECT value * 50 FROM generate_series(1, 1000);
INSERT INTO asked SELECT 50000 + value FROM generate_series(1, 1000);

-- The answer: the hours whose filter says "maybe", by a join on key (the table of the keys
-- first), which the index answers; then only those partitions are searched.
CREATE TABLE maybe AS
SELECT a.customer, CAST(substr(h.name, 2) AS INTEGER) AS hour FROM asked a JOIN hours h ON h.key = a.customer;
CREATE TABLE answer AS
SELECT DISTINCT m.customer, m.hour FROM maybe m
WHERE EXISTS (SELECT 1 FROM events e WHERE e.customer = m.customer AND e.hour = m.hour);

-- The exact answer: every partition searched.
CREATE TABLE exact AS
SELECT DISTINCT a.customer, e.hour FROM asked a JOIN events e ON e.customer = a.customer;

SELECT (SELECT count(*) FROM hours) AS partitions, (SELECT count(*) FROM events) AS events,
       (SELECT count(*) FROM asked) AS questions, (SELECT count(*) FROM exact) AS hours_found;

.print ''
-- Partition searches: every partition for every question, against those whose filter says
-- "maybe", of which some find nothing (false positives: at most about 10,000 x 0.1 % = 10 a
-- question; fewer, as each filter's bits are rounded up to whole blocks of 512).
SELECT (SELECT count(*) FROM hours) * (SELECT count(*) FROM asked) AS without_filters,
       (SELECT count(*) FROM maybe) AS with_filters,
       (SELECT count(*) FROM maybe) - (SELECT count(*) FROM answer) AS in_vain,
       printf('%.2f', ((SELECT count(*) FROM maybe) - (SELECT count(*) FROM answer)) / 2000.0)
         AS in_vain_a_question,
       printf('%.2f %%', 100.0 - 100.0 * (SELECT count(*) FROM maybe) /
                                     ((SELECT count(*) FROM hours) * (SELECT count(*) FROM asked)))
         AS skipped;

.print ''
-- The bytes: the filters' snapshots, and the index's rows (the same bits, transposed), against
-- the customer ids of the events.
SELECT (SELECT sum(length(filter)) FROM hours) AS bytes_of_the_filters,
       (SELECT sum(length(data)) FROM hours_chunks WHERE id < 0) AS bytes_of_the_index,
       (SELECT count(*) FROM hours_chunks WHERE id < 0) AS rows_of_the_index,
       (SELECT count(*) FROM events) * 8 AS bytes_of_the_ids;

.print ''
-- A window of the last week: a range on name narrows the answer; and the first 1,000 hours
-- expired by one DELETE, gone from every answer at once (the index is not made again).
SELECT count(*) AS maybe_last_week FROM asked a JOIN hours h ON h.key = a.customer
WHERE h.name >= 'h09832';
DELETE FROM hours WHERE name < 'h01000';
SELECT count(*) AS partitions_kept,
       (SELECT count(*) FROM asked a JOIN hours h ON h.key = a.customer WHERE h.name < 'h01000')
         AS maybe_in_expired FROM hours;

.print ''
.mode list
.headers off
SELECT 'check: ' || CASE
  WHEN (SELECT count(*) FROM (SELECT customer, hour FROM exact EXCEPT SELECT customer, hour FROM answer)) = 0
   AND (SELECT count(*) FROM (SELECT customer, hour FROM answer EXCEPT SELECT customer, hour FROM exact)) = 0
   AND (SELECT count(*) FROM asked a JOIN hours h ON h.key = a.customer) =
       (SELECT count(*) FROM maybe WHERE hour >= 1000)
  THEN 'ok: the partitions searched found exactly the hours a search of every partition finds'
  ELSE 'MISMATCH' END;
