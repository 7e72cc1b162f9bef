-- The bloom virtual table, a live filter (rule 26 (live table)): one body of statements, checked
-- verbatim.
CREATE TABLE numbers(value INTEGER PRIMARY KEY);
INSERT INTO numbers WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < 4000)
  SELECT v FROM n;
CREATE TABLE keys(i INTEGER PRIMARY KEY, k);
INSERT INTO keys(k) SELECT CASE value % 4 WHEN 0 THEN value WHEN 1 THEN 'k' || value
  WHEN 2 THEN value * 0.5 ELSE CAST('b' || value AS BLOB) END FROM numbers WHERE value <= 3000;

-- The statements of the issue, as written.
CREATE TABLE users(email TEXT);
INSERT INTO users VALUES ('bob@example.com'), ('carol@example.com'), (NULL);
CREATE TABLE orders(id INTEGER PRIMARY KEY, email TEXT);
INSERT INTO orders(email) VALUES ('alice'), ('bob@example.com'), ('dave@example.com');
CREATE TABLE closed_accounts(email TEXT);
INSERT INTO closed_accounts VALUES ('o-123'), ('o-456');
CREATE VIRTUAL TABLE seen USING bloom(kind = 'blocked', n = 1000000, p = 0.01);
INSERT INTO seen(key) VALUES ('alice');
INSERT INTO seen(key) SELECT email FROM users;
SELECT count(*) FROM seen WHERE key = 'alice';
-- => 1
SELECT count(*) FROM seen WHERE key = 'zed';
-- => 0
SELECT * FROM orders o WHERE EXISTS (SELECT 1 FROM seen WHERE key = o.email);
-- => 1|alice
-- => 2|bob@example.com
SELECT length(filter), json_extract(bloom_info(filter), '$.keys_added') FROM seen;
-- => 1239872|3
CREATE VIRTUAL TABLE parts USING bloom(kind = 'counting', n = 100000, p = 0.001);
INSERT INTO parts(name, key) VALUES ('2026-12-01', 'o-123');
INSERT INTO parts(name, key) VALUES ('2026-12-02', 'o-123'), ('2026-12-02', 'o-456');
SELECT name FROM parts WHERE key = 'o-123';
-- => 2026-12-01
-- => 2026-12-02
SELECT count(*) FROM parts WHERE name = '2026-12-01' AND key = 'o-123';
-- => 1
DELETE FROM parts WHERE name = '2026-12-01' AND key = 'o-123';
SELECT count(*) FROM parts WHERE name = '2026-12-01' AND key = 'o-123';
-- => 0
SELECT name FROM parts WHERE key = 'o-123';
-- => 2026-12-02
DELETE FROM seen WHERE key IN (SELECT email FROM closed_accounts);
DELETE FROM parts WHERE key IN (SELECT email FROM closed_accounts);
SELECT name FROM parts WHERE key IN ('o-123', 'o-456');
-- => (no rows)
DELETE FROM parts WHERE name = '2026-12-01';
SELECT name, length(filter) FROM parts;
-- => 2026-12-02|718944
INSERT INTO parts(name, filter) SELECT '2026-11-30', bloom_build(k, 1000, 0.01, 'counting') FROM keys WHERE i <= 500;
SELECT name, length(filter), json_extract(bloom_info(filter), '$.keys_added') FROM parts;
-- => 2026-12-02|718944|0
-- => 2026-11-30|4864|500
-- B. Every kind, its keys added one statement at a time in order: the snapshot is the BLOB of
-- bloom_build (cms_build) of the same keys, and no key added is missed. A Parquet filter holds
-- the values of one type (rule 27 (Parquet filters)): its keys are these as TEXT that keeps
-- their type apart, typeof(k) || ':' || k.
CREATE VIRTUAL TABLE t1 USING bloom(kind = 'standard', n = 2000, p = 0.01);
CREATE VIRTUAL TABLE t2 USING bloom(kind = 'blocked', n = 2000, p = 0.01);
CREATE VIRTUAL TABLE t3 USING bloom(kind = 'counting', n = 2000, p = 0.01);
CREATE VIRTUAL TABLE t4 USING bloom(kind = 'cuckoo', n = 4000, p = 0.01);
CREATE VIRTUAL TABLE t5 USING bloom(kind = 'scalable', n = 100, p = 0.01);
CREATE VIRTUAL TABLE t6 USING bloom(kind = 'countmin', epsilon = 0.01, delta = 0.01);
CREATE VIRTUAL TABLE t7 USING bloom(kind = 'parquet', n = 2000, p = 0.01);
SELECT name FROM sqlite_master WHERE name LIKE 't6%' ORDER BY name;
-- => t6
-- => t6_chunks
-- => t6_config
-- => t6_filters
SELECT count(*) FROM t1_chunks;
-- => 0
INSERT INTO t1(key) SELECT k FROM keys ORDER BY i;
INSERT INTO t2(key) SELECT k FROM keys ORDER BY i;
INSERT INTO t3(key) SELECT k FROM keys ORDER BY i;
INSERT INTO t4(key) SELECT k FROM keys ORDER BY i;
INSERT INTO t5(key) SELECT k FROM keys ORDER BY i;
INSERT INTO t6(key) SELECT k FROM keys ORDER BY i;
INSERT INTO t7(key) SELECT typeof(k) || ':' || k FROM keys ORDER BY i;
SELECT (SELECT filter FROM t1) = (SELECT bloom_build(k, 2000, 0.01, 'standard') FROM (SELECT k FROM keys ORDER BY i)),
       (SELECT filter FROM t2) = (SELECT bloom_build(k, 2000, 0.01, 'blocked') FROM (SELECT k FROM keys ORDER BY i)),
       (SELECT filter FROM t3) = (SELECT bloom_build(k, 2000, 0.01, 'counting') FROM (SELECT k FROM keys ORDER BY i)),
       (SELECT filter FROM t4) = (SELECT bloom_build(k, 4000, 0.01, 'cuckoo') FROM (SELECT k FROM keys ORDER BY i)),
       (SELECT filter FROM t5) = (SELECT bloom_build(k, 100, 0.01, 'scalable') FROM (SELECT k FROM keys ORDER BY i)),
       (SELECT filter FROM t6) = (SELECT cms_build(k, 0.01, 0.01) FROM (SELECT k FROM keys ORDER BY i)),
       (SELECT filter FROM t7) = (SELECT bloom_build(typeof(k) || ':' || k, 2000, 0.01, 'parquet') FROM (SELECT k FROM keys ORDER BY i));
-- => 1|1|1|1|1|1|1
SELECT (SELECT count(*) FROM keys WHERE NOT EXISTS (SELECT 1 FROM t1 WHERE key = keys.k)),
       (SELECT count(*) FROM keys WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE key = keys.k)),
       (SELECT count(*) FROM keys WHERE NOT EXISTS (SELECT 1 FROM t3 WHERE key = keys.k)),
       (SELECT count(*) FROM keys WHERE NOT EXISTS (SELECT 1 FROM t4 WHERE key = keys.k)),
       (SELECT count(*) FROM keys WHERE NOT EXISTS (SELECT 1 FROM t5 WHERE key = keys.k)),
       (SELECT count(*) FROM keys WHERE NOT EXISTS (SELECT 1 FROM t6 WHERE key = keys.k)),
       (SELECT count(*) FROM keys WHERE NOT EXISTS (SELECT 1 FROM t7 WHERE key = typeof(keys.k) || ':' || keys.k));
-- => 0|0|0|0|0|0|0
SELECT json_extract(bloom_info(filter), '$.stage_count') FROM t5;
-- => 5
-- The same answers as the functions on the snapshot, for keys in and out.
SELECT sum((SELECT count(*) FROM t1 WHERE key = v) = bloom_might_contain((SELECT filter FROM t1), v)),
       sum((SELECT count(*) FROM t4 WHERE key = v) = bloom_might_contain((SELECT filter FROM t4), v)),
       sum((SELECT count(*) FROM t5 WHERE key = v) = bloom_might_contain((SELECT filter FROM t5), v)),
       sum(coalesce((SELECT count FROM t6 WHERE key = v), 0) = cms_count((SELECT filter FROM t6), v)),
       sum((SELECT count(*) FROM t7 WHERE key = 'text:' || v) = bloom_might_contain((SELECT filter FROM t7), 'text:' || v))
FROM (SELECT 'k' || value AS v FROM numbers);
-- => 4000|4000|4000|4000|4000
-- C. A loaded BLOB of every kind snapshots back to its bytes, and answers as it did.
CREATE VIRTUAL TABLE loaded USING bloom;
INSERT INTO loaded(name, filter) SELECT 'standard', bloom_build(k, 2000, 0.01) FROM keys WHERE i <= 1000;
INSERT INTO loaded(name, filter) SELECT 'blocked', bloom_build(k, 2000, 0.01, 'blocked') FROM keys WHERE i <= 1000;
INSERT INTO loaded(name, filter) SELECT 'counting', bloom_build(k, 2000, 0.01, 'counting') FROM keys WHERE i <= 1000;
INSERT INTO loaded(name, filter) SELECT 'cuckoo', bloom_build(k, 4000, 0.01, 'cuckoo') FROM keys WHERE i <= 1000;
INSERT INTO loaded(name, filter) SELECT 'scalable', bloom_build(k, 100, 0.01, 'scalable') FROM keys WHERE i <= 1000;
INSERT INTO loaded(name, filter) SELECT 'countmin', cms_build(k, 0.01, 0.01) FROM keys WHERE i <= 1000;
INSERT INTO loaded(name, filter) SELECT 'parquet', bloom_build(typeof(k) || ':' || k, 2000, 0.01, 'parquet') FROM keys WHERE i <= 1000;
SELECT name, filter = CASE name WHEN 'standard' THEN (SELECT bloom_build(k, 2000, 0.01) FROM keys WHERE i <= 1000)
  WHEN 'blocked' THEN (SELECT bloom_build(k, 2000, 0.01, 'blocked') FROM keys WHERE i <= 1000)
  WHEN 'counting' THEN (SELECT bloom_build(k, 2000, 0.01, 'counting') FROM keys WHERE i <= 1000)
  WHEN 'cuckoo' THEN (SELECT bloom_build(k, 4000, 0.01, 'cuckoo') FROM keys WHERE i <= 1000)
  WHEN 'scalable' THEN (SELECT bloom_build(k, 100, 0.01, 'scalable') FROM keys WHERE i <= 1000)
  WHEN 'parquet' THEN (SELECT bloom_build(typeof(k) || ':' || k, 2000, 0.01, 'parquet') FROM keys WHERE i <= 1000)
  ELSE (SELECT cms_build(k, 0.01, 0.01) FROM keys WHERE i <= 1000) END FROM loaded;
-- => standard|1
-- => blocked|1
-- => counting|1
-- => cuckoo|1
-- => scalable|1
-- => countmin|1
-- => parquet|1
SELECT name FROM loaded WHERE key = 'k1' ORDER BY name;
-- => blocked
-- => counting
-- => countmin
-- => cuckoo
-- => scalable
-- => standard
SELECT count(*) FROM keys WHERE i <= 1000 AND (SELECT count(*) FROM loaded WHERE key = keys.k) < 6;
-- => 0
-- (The Parquet filter holds its keys as TEXT, as in B.)
SELECT count(*) FROM keys WHERE i <= 1000 AND NOT EXISTS (SELECT 1 FROM loaded WHERE name = 'parquet' AND key = typeof(keys.k) || ':' || keys.k);
-- => 0
-- A table without arguments makes no filter of its own; a loaded one takes keys.
INSERT INTO loaded(key) VALUES ('x');
-- error: loaded: no unnamed filter, and the table was created without the parameters to make one: load one with INSERT INTO loaded(filter)
INSERT INTO loaded(name, key) VALUES ('nope', 'x');
-- error: loaded: no filter named 'nope', and the table was created without the parameters to make one: load one with INSERT INTO loaded(name, filter)
INSERT INTO loaded(name, key) VALUES ('blocked', 'new key'), ('scalable', 'new key'), ('parquet', 'new key');
SELECT name FROM loaded WHERE key = 'new key' AND name != 'countmin' ORDER BY name;
-- => blocked
-- => parquet
-- => scalable
-- D. Names: the unnamed filter beside named ones; name = NULL holds for no row, name IS NULL for
-- the unnamed filter; a number is a name as its text; a filter's key rows, its name.
CREATE VIRTUAL TABLE named USING bloom(kind = 'standard', n = 100, p = 0.01);
INSERT INTO named(key) VALUES ('u');
INSERT INTO named(name, key) VALUES ('a', 'x'), (2026, 'y');
INSERT INTO named(name) VALUES ('empty');
SELECT rowid, name FROM named;
-- => 1|NULL
-- => 2|a
-- => 3|2026
-- => 4|empty
SELECT count(*) FROM named WHERE name = NULL;
-- => 0
SELECT rowid, name FROM named WHERE name IS NULL;
-- => 1|NULL
SELECT name FROM named WHERE name = '2026';
-- => 2026
SELECT name FROM named WHERE name = 2026 AND key = 'y';
-- => 2026
SELECT name FROM named WHERE name IS 'a' AND key = 'x';
-- => a
SELECT name FROM named WHERE key = 'u';
-- => NULL
SELECT quote(name), key FROM named WHERE key = 'x';
-- => 'a'|x
SELECT count(*) FROM named WHERE name = x'61';
-- => 0
INSERT INTO named(name, key) VALUES (x'61', 'x');
-- error: named: name must be TEXT, got a BLOB of 1 byte
INSERT INTO named(name) VALUES ('a');
SELECT count(*) FROM named;
-- => 4
-- A filter with no keys costs no chunk rows.
SELECT count(*) FROM named_chunks WHERE id >> 32 = (SELECT rowid FROM named WHERE name = 'empty');
-- => 0
-- 'allocate' writes a row of zeros for each chunk a filter has no row for, in order (making the
-- filter if need be), and changes none of its bytes, its count or its answers; the chunk rows
-- with keys are kept; later adds rewrite the rows where they lie.
CREATE VIRTUAL TABLE paid USING bloom(kind = 'blocked', n = 100000, p = 0.01);
INSERT INTO paid(name, key) VALUES ('a', 1), ('a', 'x');
CREATE TABLE paid_before AS SELECT name, filter FROM paid;
SELECT count(*), sum(keys) FROM paid_chunks;
-- => 2|2
INSERT INTO paid(paid, name) VALUES ('allocate', 'a');
CREATE TABLE paid_rows AS SELECT count(*) AS n, max(length(data)) AS chunk FROM paid_chunks;
SELECT n > 2, n = (sum(length(data)) + chunk - 1) / chunk, sum(keys),
       sum(length(data)) = (SELECT length(filter) - 64 FROM paid WHERE name = 'a')
FROM paid_chunks, paid_rows;
-- => 1|1|2|1
SELECT p.filter = b.filter FROM paid AS p, paid_before AS b WHERE p.name = 'a' AND b.name = 'a';
-- => 1
SELECT key FROM paid WHERE name = 'a' AND key IN (1, 2, 'x');
-- => 1
-- => x
INSERT INTO paid(name, key) VALUES ('a', 2);
SELECT count(*) = (SELECT n FROM paid_rows), sum(keys),
       (SELECT count(*) FROM paid WHERE name = 'a' AND key = 2) FROM paid_chunks;
-- => 1|3|1
-- A filter not there yet is made, a NULL name the unnamed one; again is nothing to do; the
-- scalable kind's first chunk keeps its stage's header.
INSERT INTO paid(paid, name) VALUES ('allocate', 'b');
INSERT INTO paid(paid) VALUES ('allocate');
INSERT INTO paid(paid) VALUES ('allocate');
SELECT quote(name), (SELECT count(*) FROM paid_chunks WHERE id >> 32 = paid.rowid) = n
FROM paid, paid_rows ORDER BY name;
-- => NULL|1
-- => 'a'|1
-- => 'b'|1
CREATE VIRTUAL TABLE paid_growing USING bloom(kind = 'scalable', n = 1000, p = 0.01);
INSERT INTO paid_growing(key) VALUES (1);
CREATE TABLE growing_before AS SELECT filter FROM paid_growing;
INSERT INTO paid_growing(paid_growing) VALUES ('allocate');
SELECT filter = (SELECT filter FROM growing_before), (SELECT count(*) FROM paid_growing_chunks)
FROM paid_growing;
-- => 1|1
-- In a transaction rolled back, the rows are gone again.
BEGIN;
INSERT INTO paid(paid, name) VALUES ('allocate', 'c');
ROLLBACK;
SELECT count(*) FROM paid WHERE name = 'c';
-- => 0
SELECT count(*) = 3 * n FROM paid_chunks, paid_rows;
-- => 1
PRAGMA quick_check;
-- => ok
INSERT INTO paid(paid, name) VALUES ('allocate', x'63');
-- error: paid: name must be TEXT, got a BLOB of 1 byte
-- E. What a live table refuses, by exact message.
CREATE VIRTUAL TABLE e USING bloom(kind = 'blocked', n = 1000);
-- error: e: argument p is missing: a table of filters needs n and p (and kind)
CREATE VIRTUAL TABLE e USING bloom(kind = 'blocked', p = 0.01);
-- error: e: argument n is missing: a table of filters needs n and p (and kind)
CREATE VIRTUAL TABLE e USING bloom(n = 1000, p = 2);
-- error: e: p must be between 0 and 1 (exclusive), got 2; p is a fraction: 2 % is 0.02
CREATE VIRTUAL TABLE e USING bloom(n = 0, p = 0.01);
-- error: e: n must be a whole number >= 1, got 0
CREATE VIRTUAL TABLE e USING bloom(n = 0.01, p = 1000);
-- error: e: n must be a whole number >= 1, got 0.01; n and p seem swapped: n is the number of keys, p the false-positive rate
CREATE VIRTUAL TABLE e USING bloom(p = 1000, kind = 'cuckoo', n = 0.01);
-- error: e: n must be a whole number >= 1, got 0.01; n and p seem swapped: n is the number of keys, p the false-positive rate
CREATE VIRTUAL TABLE e USING bloom(n = 0.01, p = 0.5);
-- error: e: n must be a whole number >= 1, got 0.01
CREATE VIRTUAL TABLE e USING bloom(n = 1000, p = 0.01, kind = 'quotient');
-- error: e: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'countmin', 'parquet' or 'spark', got 'quotient'
CREATE VIRTUAL TABLE e USING bloom(n = 1000, p = 0.01, kind = 3);
-- error: e: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'countmin', 'parquet' or 'spark', got 3
-- The count-min sketch's other names point to its kind's.
CREATE VIRTUAL TABLE e USING bloom(kind = 'cms', epsilon = 0.01, delta = 0.01);
-- error: e: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'countmin', 'parquet' or 'spark', got 'cms'; that kind is named 'countmin'
CREATE VIRTUAL TABLE e USING bloom(kind = 'Count-Min', n = 1000, p = 0.01);
-- error: e: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'countmin', 'parquet' or 'spark', got 'Count-Min'; that kind is named 'countmin'
CREATE VIRTUAL TABLE e USING bloom(n = 1000, p = 0.01, size = 3);
-- error: e: unknown argument 'size'; the arguments are kind, n and p, or for kind = 'countmin' epsilon, delta and update
CREATE VIRTUAL TABLE e USING bloom(n = 1000, p = 0.01, N = 3);
-- error: e: argument 'N' given twice
CREATE VIRTUAL TABLE e USING bloom(n = 1000, p = 0.01, epsilon = 0.1);
-- error: e: argument epsilon is not for a table of filters, which takes n and p (and kind)
CREATE VIRTUAL TABLE e USING bloom(kind = 'countmin', epsilon = 0.1);
-- error: e: argument delta is missing: a table of count-min sketches needs epsilon and delta (and update)
CREATE VIRTUAL TABLE e USING bloom(kind = 'countmin', epsilon = 0.1, delta = 0.1, n = 5);
-- error: e: argument n is not for a table of count-min sketches, which takes epsilon and delta (and update)
CREATE VIRTUAL TABLE e USING bloom(kind = 'countmin', epsilon = 0.1, delta = 0.1, update = 'max');
-- error: e: update must be 'plain' or 'conservative', got 'max'
CREATE VIRTUAL TABLE e USING bloom(1000);
-- error: e: the arguments are name = value, got 1000
CREATE VIRTUAL TABLE e USING bloom(n = 1e12, p = 0.01);
-- error TOOBIG: e: a filter for n = 1000000000000 at p = 0.01 needs 1198132297240 bytes, more than the length limit of 1000000000 bytes
CREATE VIRTUAL TABLE e USING bloom(n = 1000, p = '0.01');
-- error: e: p must be between 0 and 1 (exclusive), got '0.01'
CREATE VIRTUAL TABLE e USING bloom(n = 1000, p = 0.001, kind = cuckoo);
SELECT json_extract(bloom_info(filter), '$.fingerprint_bits') FROM e;
-- => (no rows)
INSERT INTO e(key) VALUES (1);
SELECT json_extract(bloom_info(filter), '$.fingerprint_bits'), json_extract(bloom_info(filter), '$.keys_added') FROM e;
-- => 13|1
UPDATE e SET name = 'y';
-- error: e: a live table's rows cannot be updated: DELETE the key and INSERT the new one
UPDATE e SET key = 2 WHERE key = 1;
-- error: e: a live table's rows cannot be updated: DELETE the key and INSERT the new one
SELECT key FROM e;
-- error: e: a filter cannot list its keys: ask for one key, as in SELECT name FROM e WHERE key = ? (in a join, the table of the keys goes first; in a subquery, qualify the outer column, as in key = t.email)
SELECT name FROM e WHERE key > 0;
-- error: e: a filter cannot list its keys: ask for one key, as in SELECT name FROM e WHERE key = ? (in a join, the table of the keys goes first; in a subquery, qualify the outer column, as in key = t.email)
CREATE TABLE e_keys(k TEXT);
INSERT INTO e_keys VALUES ('x');
SELECT count(*) FROM e CROSS JOIN e_keys WHERE e.key = e_keys.k;
-- error: e: a filter cannot list its keys: ask for one key, as in SELECT name FROM e WHERE key = ? (in a join, the table of the keys goes first; in a subquery, qualify the outer column, as in key = t.email)
SELECT count(*) FROM e WHERE key IS 1;
-- => 1
SELECT count(*) FROM e WHERE key IS NULL;
-- => 0
SELECT count(*) FROM e WHERE key = 'X' COLLATE NOCASE;
-- error: e: a key cannot be compared with a collation: a filter holds the bytes of its keys; to ignore case, add and ask for lower(key)
SELECT count(*) FROM e WHERE key = 1 COLLATE BINARY;
-- => 1
DROP TABLE e_keys;
INSERT INTO e(rowid, key) VALUES (5, 3);
-- error: e: a live table's rowids are its own; rowid must be NULL, got 5
INSERT INTO e(name, key) VALUES (x'00', 3);
-- error: e: name must be TEXT, got a BLOB of 1 byte
INSERT INTO e(name, key, filter) VALUES ('x', 3, x'00');
-- error: e: a row loads a filter or adds a key, not both: INSERT INTO e(name, filter) or INSERT INTO e(name, key)
INSERT INTO e(key, count) VALUES (3, 5);
-- error: e: count is a count-min sketch's; a filter takes each key once, got 5
INSERT INTO e(name, filter) VALUES ('x', 'abc');
-- error: e: the filter must be a BLOB, got 'abc'
INSERT INTO e(name, filter) VALUES ('x', x'00');
-- error: e: not a Bloom filter: length 1 is shorter than the 64-byte header
INSERT INTO e(filter) SELECT bloom_build(k, 10, 0.01) FROM keys;
-- error CONSTRAINT: e: the unnamed filter exists; DELETE it first, or INSERT OR REPLACE
INSERT INTO e(name, filter) SELECT 'x', bloom_build(k, 10, 0.01) FROM keys WHERE i = 1;
INSERT INTO e(name, filter) SELECT 'x', bloom_build(k, 10, 0.01) FROM keys WHERE i = 2;
-- error CONSTRAINT: e: a filter named 'x' exists; DELETE it first, or INSERT OR REPLACE
INSERT OR IGNORE INTO e(name, filter) SELECT 'x', bloom_build(k, 10, 0.01) FROM keys WHERE i = 2;
SELECT (SELECT count(*) FROM e WHERE name = 'x' AND key = 'k1'), (SELECT count(*) FROM e WHERE name = 'x' AND key = 1.0);
-- => 1|0
INSERT OR REPLACE INTO e(name, filter) SELECT 'x', bloom_build(k, 10, 0.01) FROM keys WHERE i = 2;
SELECT (SELECT count(*) FROM e WHERE name = 'x' AND key = 'k1'), (SELECT count(*) FROM e WHERE name = 'x' AND key = 1.0);
-- => 0|1
-- A full cuckoo filter: the key that finds no room is refused, and nothing changes.
CREATE VIRTUAL TABLE tiny USING bloom(kind = 'cuckoo', n = 4, p = 0.01);
INSERT INTO tiny(key) SELECT 1 FROM numbers WHERE value <= 8;
INSERT INTO tiny(key) VALUES (1);
-- error: tiny: no room for the key in the 'cuckoo' filter, which holds about the n keys it was built for, and a key at most 8 times: build it with a larger n; nothing was added
SELECT json_extract(bloom_info(filter), '$.keys_added') FROM tiny;
-- => 8
-- F. Removing keys: by name and key, by key in every filter, as often as added (counting);
-- the kinds that cannot remove say so, naming the kinds that can.
CREATE VIRTUAL TABLE rc USING bloom(kind = 'counting', n = 1000, p = 0.01);
CREATE VIRTUAL TABLE rk USING bloom(kind = 'cuckoo', n = 1000, p = 0.01);
INSERT INTO rc(name, key) SELECT 'p' || (i % 3), k FROM keys WHERE i <= 900;
INSERT INTO rc(name, key) SELECT 'p0', k FROM keys WHERE i <= 30;
INSERT INTO rk(key) SELECT k FROM keys WHERE i <= 900;
SELECT name, json_extract(bloom_info(filter), '$.keys_added') FROM rc;
-- => p1|300
-- => p2|300
-- => p0|330
DELETE FROM rc WHERE key IN (SELECT k FROM keys WHERE i <= 30);
SELECT name, json_extract(bloom_info(filter), '$.keys_added') FROM rc;
-- => p1|290
-- => p2|290
-- => p0|300
SELECT count(*) FROM keys WHERE i <= 30 AND EXISTS (SELECT 1 FROM rc WHERE name = 'p0' AND key = keys.k);
-- => 10
DELETE FROM rc WHERE name = 'p0' AND key IN (SELECT k FROM keys WHERE i <= 30);
SELECT count(*) FROM keys WHERE i <= 30 AND EXISTS (SELECT 1 FROM rc WHERE key = keys.k);
-- => 0
SELECT count(*) FROM keys WHERE i > 30 AND i <= 900 AND NOT EXISTS (SELECT 1 FROM rc WHERE key = keys.k);
-- => 0
DELETE FROM rk WHERE key IN (SELECT k FROM keys WHERE i <= 450);
SELECT json_extract(bloom_info(filter), '$.keys_added') FROM rk;
-- => 450
SELECT count(*) FROM keys WHERE i > 450 AND i <= 900 AND NOT EXISTS (SELECT 1 FROM rk WHERE key = keys.k);
-- => 0
DELETE FROM t2 WHERE key = 'k1';
-- error: t2: a 'blocked' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
DELETE FROM t5 WHERE key = 'k1';
-- error: t5: a 'scalable' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
DELETE FROM t6 WHERE key = 'k1';
-- error: t6: a 'countmin' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
DELETE FROM t7 WHERE key = 'text:k1';
-- error: t7: a 'parquet' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
-- A key no filter might hold: nothing to remove, no error.
DELETE FROM t2 WHERE key = 'never added';
-- A live filter's count is the adds less the removes, stopped at 0 and at its most (2^64 - 1, a
-- cuckoo filter's slots) where it is read (snapshots, bloom_info), not at each operation as a
-- BLOB's is: they differ only after the count reached an end (a key removed that was not added).
CREATE VIRTUAL TABLE ends USING bloom(kind = 'counting', n = 100, p = 0.01);
INSERT INTO ends(name, filter) SELECT 'counted none', CAST(substr(f, 1, 40) || zeroblob(8) || substr(f, 49) AS BLOB)
FROM (SELECT bloom_build(value, 100, 0.01, 'counting') AS f FROM numbers WHERE value <= 3);
DELETE FROM ends WHERE name = 'counted none' AND key = 1;
SELECT json_extract(bloom_info(filter), '$.keys_added') FROM ends;
-- => 0
INSERT INTO ends(name, key) VALUES ('counted none', 4);
SELECT json_extract(bloom_info(filter), '$.keys_added') FROM ends;
-- => 0
SELECT json_extract(bloom_info(bloom_add(bloom_remove(CAST(substr(f, 1, 40) || zeroblob(8) || substr(f, 49) AS BLOB), 1), 4)), '$.keys_added')
FROM (SELECT bloom_build(value, 100, 0.01, 'counting') AS f FROM numbers WHERE value <= 3);
-- => 1
INSERT INTO ends(name, key) VALUES ('counted none', 5);
SELECT json_extract(bloom_info(filter), '$.keys_added') FROM ends;
-- => 1
-- A cuckoo filter of 16 slots loaded counting 16 keys but holding 2: its count stays at 16
-- through an add and a remove, where a BLOB's, stopped at 16 by the add, goes back to 15.
CREATE VIRTUAL TABLE slots USING bloom(kind = 'cuckoo', n = 4, p = 0.01);
INSERT INTO slots(filter) SELECT CAST(substr(f, 1, 40) || x'1000000000000000' || substr(f, 49) AS BLOB)
FROM (SELECT bloom_build(value, 4, 0.01, 'cuckoo') AS f FROM numbers WHERE value <= 2);
INSERT INTO slots(key) VALUES (3);
SELECT json_extract(bloom_info(filter), '$.keys_added'), json_extract(bloom_info(filter), '$.buckets') * 4 FROM slots;
-- => 16|16
DELETE FROM slots WHERE key = 3;
SELECT json_extract(bloom_info(filter), '$.keys_added') FROM slots;
-- => 16
SELECT json_extract(bloom_info(bloom_remove(bloom_add(CAST(substr(f, 1, 40) || x'1000000000000000' || substr(f, 49) AS BLOB), 3), 3)), '$.keys_added')
FROM (SELECT bloom_build(value, 4, 0.01, 'cuckoo') AS f FROM numbers WHERE value <= 2);
-- => 15
-- A count at 2^64 - 1 stays there, as in a BLOB.
CREATE VIRTUAL TABLE most USING bloom(kind = 'blocked', n = 100, p = 0.01);
INSERT INTO most(filter) SELECT CAST(substr(f, 1, 40) || x'FFFFFFFFFFFFFFFF' || substr(f, 49) AS BLOB)
FROM (SELECT bloom_build(value, 100, 0.01, 'blocked') AS f FROM numbers WHERE value <= 3);
INSERT INTO most(key) VALUES (7);
SELECT hex(substr(filter, 41, 8)), hex(substr(filter, 41, 8)) = hex(substr(bloom_add(filter, 7), 41, 8)) FROM most;
-- => FFFFFFFFFFFFFFFF|1
-- Dropping a whole filter drops its rows.
SELECT count(*) FROM rc_chunks WHERE id >> 32 = (SELECT rowid FROM rc WHERE name = 'p1');
-- => 2
DELETE FROM rc WHERE name = 'p1';
SELECT name FROM rc;
-- => p2
-- => p0
SELECT count(*) FROM rc_chunks WHERE id >> 32 NOT IN (SELECT rowid FROM rc);
-- => 0
-- H. A count-min sketch: count is the estimate; INSERT adds count (1 without it).
CREATE VIRTUAL TABLE hits USING bloom(kind = 'countmin', epsilon = 0.001, delta = 0.01, update = 'conservative');
INSERT INTO hits(key) VALUES ('/a'), ('/a'), ('/b');
INSERT INTO hits(key, count) VALUES ('/a', 40), ('/c', 0);
SELECT key, count FROM hits WHERE key IN ('/a', '/b', '/c', '/d');
-- => /a|42
-- => /b|1
SELECT coalesce((SELECT count FROM hits WHERE key = '/d'), 0);
-- => 0
SELECT filter = cms_add(cms_add(cms_add(cms_add(cms_add(cms_empty(0.001, 0.01, 'conservative'), '/a'), '/a'), '/b'), '/a', 40), '/c', 0) FROM hits;
-- => 1
INSERT INTO hits(key, count) VALUES ('/a', -1);
-- error: hits: count must be a whole number from 0, got -1
INSERT INTO hits(key, count) VALUES ('/a', 1.5);
-- error: hits: count must be a whole number from 0, got 1.5
INSERT INTO hits(key, count) VALUES ('/a', 9223372036854775807);
-- error: hits: no room for the key in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT count FROM hits WHERE key = '/a';
-- => 42
-- I. Transactions: ROLLBACK and ROLLBACK TO undo, RELEASE keeps; a statement that fails undoes
-- its own rows only.
CREATE VIRTUAL TABLE tx USING bloom(kind = 'blocked', n = 1000, p = 0.01);
BEGIN;
INSERT INTO tx(key) VALUES ('a');
SAVEPOINT s1;
INSERT INTO tx(key) VALUES ('b');
ROLLBACK TO s1;
INSERT INTO tx(key) VALUES ('c');
SAVEPOINT s2;
INSERT INTO tx(key) VALUES ('d');
RELEASE s2;
SELECT key FROM tx WHERE key IN ('a', 'b', 'c', 'd');
-- => a
-- => c
-- => d
COMMIT;
SELECT key FROM tx WHERE key IN ('a', 'b', 'c', 'd');
-- => a
-- => c
-- => d
BEGIN;
INSERT INTO tx(name, key) VALUES ('other', 'e');
INSERT INTO tx(key) VALUES ('f');
ROLLBACK;
SELECT name, key FROM tx WHERE key IN ('a', 'e', 'f');
-- => NULL|a
SELECT json_extract(bloom_info(filter), '$.keys_added') FROM tx;
-- => 3
BEGIN;
INSERT INTO tx(name, key) SELECT CASE WHEN i = 5 THEN x'00' END, 'g' || i FROM keys WHERE i <= 10;
-- error: tx: name must be TEXT, got a BLOB of 1 byte
INSERT INTO tx(key) VALUES ('h');
COMMIT;
SELECT count(*) FROM tx WHERE key IN ('g1', 'g2', 'g3', 'g4');
-- => 0
SELECT key FROM tx WHERE key = 'h';
-- => h
SELECT json_extract(bloom_info(filter), '$.keys_added') FROM tx;
-- => 4
-- A table made after a savepoint that ROLLBACK TO undoes (SQLite then calls it no more than a
-- dropped one) writes nothing after: what else the transaction did commits, and a table of the
-- same name dropped and made again in the savepoint is back as it was.
CREATE TABLE kept(x);
SAVEPOINT outer_sp;
INSERT INTO kept VALUES (1);
SAVEPOINT inner_sp;
CREATE VIRTUAL TABLE undone USING bloom(kind = 'standard', n = 1854, p = 0.2);
INSERT INTO undone(name, key) VALUES (7, 1);
ROLLBACK TO inner_sp;
RELEASE outer_sp;
SELECT count(*), (SELECT count(*) FROM sqlite_master WHERE name LIKE 'undone%') FROM kept;
-- => 1|0
CREATE VIRTUAL TABLE again USING bloom(kind = 'countmin', epsilon = 0.1, delta = 0.1);
INSERT INTO again(name, key) VALUES (7, 1), ('a', 2);
SAVEPOINT outer_sp;
INSERT INTO again(name, key) VALUES ('', 1);
SAVEPOINT inner_sp;
DROP TABLE again;
CREATE VIRTUAL TABLE again USING bloom(kind = 'standard', n = 1854, p = 0.2);
INSERT INTO again(name, key) VALUES (7, 1);
INSERT INTO again(name, key) VALUES (NULL, 1);
ROLLBACK TO inner_sp;
INSERT INTO again(name, key) VALUES ('a', 1), ('a', 2);
RELEASE outer_sp;
SELECT name, filter = CASE name WHEN 'a' THEN cms_add(cms_add(cms_add(cms_empty(0.1, 0.1), 2), 1), 2)
  ELSE cms_add(cms_empty(0.1, 0.1), 1) END FROM again ORDER BY rowid;
-- => 7|1
-- => a|1
-- => |1
-- A trigger keeps a filter current: inserts add, deletes remove, updates move the key.
CREATE TABLE people(id INTEGER PRIMARY KEY, email TEXT);
CREATE VIRTUAL TABLE emails USING bloom(kind = 'counting', n = 1000, p = 0.01);
CREATE TRIGGER people_insert AFTER INSERT ON people BEGIN INSERT INTO emails(key) VALUES (NEW.email); END;
CREATE TRIGGER people_delete AFTER DELETE ON people BEGIN DELETE FROM emails WHERE key = OLD.email; END;
CREATE TRIGGER people_update AFTER UPDATE OF email ON people BEGIN
  DELETE FROM emails WHERE key = OLD.email; INSERT INTO emails(key) VALUES (NEW.email); END;
INSERT INTO people(email) VALUES ('ann@x'), ('ben@x'), ('cat@x');
DELETE FROM people WHERE email = 'ben@x';
UPDATE people SET email = 'cathy@x' WHERE email = 'cat@x';
SELECT key FROM emails WHERE key IN ('ann@x', 'ben@x', 'cat@x', 'cathy@x');
-- => ann@x
-- => cathy@x
SELECT filter = (SELECT bloom_build(email, 1000, 0.01, 'counting') FROM people) FROM emails;
-- => 1
-- J. Shadow tables: declared, so that defensive mode keeps SQL from writing them; renamed and
-- dropped with their table; their chunks each within one page.
SELECT name FROM sqlite_master WHERE name LIKE 'tx%' ORDER BY name;
-- => tx
-- => tx_chunks
-- => tx_config
-- => tx_filters
-- (SQLite tells the bytes a page reserves from 3.32 on; before, 32 are assumed.)
--! since 3.32.0
SELECT key, value FROM tx_config WHERE key IN ('version', 'chunk_bytes');
-- => chunk_bytes|4032
-- => version|1
--! before 3.32.0
SELECT key, value FROM tx_config WHERE key IN ('version', 'chunk_bytes');
-- => chunk_bytes|3968
-- => version|1
SELECT max(length(data)) <= 4032, count(*) FROM t1_chunks;
-- => 1|1
ALTER TABLE tx RENAME TO tx2;
SELECT name FROM sqlite_master WHERE name LIKE 'tx%' ORDER BY name;
-- => tx2
-- => tx2_chunks
-- => tx2_config
-- => tx2_filters
SELECT key FROM tx2 WHERE key IN ('a', 'b', 'c', 'd');
-- => a
-- => c
-- => d
INSERT INTO tx2(key) VALUES ('after rename');
SELECT key FROM tx2 WHERE key = 'after rename';
-- => after rename
DROP TABLE tx2;
SELECT count(*) FROM sqlite_master WHERE name LIKE 'tx%';
-- => 0
-- A chunk row deleted by ordinary SQL (defensive mode off) on the connection that caches the
-- chunk: the next write of the chunk makes its row again.
CREATE VIRTUAL TABLE gone USING bloom(kind = 'blocked', n = 1000, p = 0.01);
INSERT INTO gone(key) VALUES ('first');
DELETE FROM gone_chunks;
INSERT INTO gone(key) VALUES ('second');
SELECT count(*), (SELECT count(*) FROM gone WHERE key = 'second') FROM gone_chunks;
-- => 1|1
DROP TABLE gone;
-- PRAGMA integrity_check and quick_check read into every live table (SQLite 3.44 and later:
-- xIntegrity): rows changed by hand (defensive mode off) give the first problem found, as a
-- row of the result; quick_check does not read what a kind keeps past its header. Each change
-- is undone after.
CREATE VIRTUAL TABLE sick USING bloom(kind = 'blocked', n = 100000, p = 0.01);
CREATE VIRTUAL TABLE sick_grow USING bloom(kind = 'scalable', n = 1000, p = 0.01);
INSERT INTO sick(key) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000) SELECT 'k' || i FROM s;
INSERT INTO sick_grow(key) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000) SELECT 'k' || i FROM s;
--! since 3.44.0
PRAGMA integrity_check;
-- => ok
--! since 3.44.0
PRAGMA quick_check;
-- => ok
-- Keys a transaction added and has not written yet are neither reported nor lost.
BEGIN;
INSERT INTO sick(key) VALUES ('pending');
--! since 3.44.0
PRAGMA integrity_check;
-- => ok
COMMIT;
SELECT count(*) FROM sick WHERE key = 'pending';
-- => 1
SAVEPOINT hand;
UPDATE sick_chunks SET data = zeroblob(4033) WHERE id = 1 << 32;
--! since 3.44.0
PRAGMA integrity_check;
-- => sick: corrupt chunk 4294967296 in sick_chunks: 4033 bytes, more than the 4032 of its place in filter 1
--! since 3.44.0
PRAGMA quick_check;
-- => sick: corrupt chunk 4294967296 in sick_chunks: 4033 bytes, more than the 4032 of its place in filter 1
--! before 3.44.0
PRAGMA integrity_check;
-- => ok
ROLLBACK TO hand;
UPDATE sick_chunks SET keys = 'x' WHERE id = 1 << 32;
--! since 3.44.0
PRAGMA quick_check;
-- => sick: corrupt chunk 4294967296 in sick_chunks: keys must be an INTEGER, not TEXT
ROLLBACK TO hand;
UPDATE sick_chunks SET data = 'x' WHERE id = 1 << 32;
--! since 3.44.0
PRAGMA quick_check;
-- => sick: corrupt chunk 4294967296 in sick_chunks: data must be a BLOB, not TEXT
ROLLBACK TO hand;
INSERT INTO sick_chunks VALUES (99 << 32, 0, x'00');
--! since 3.44.0
PRAGMA quick_check;
-- => sick: corrupt chunk 425201762304 in sick_chunks: of no filter (no filter 99)
ROLLBACK TO hand;
INSERT INTO sick_chunks VALUES ((1 << 32) + 1000, 0, x'00');
--! since 3.44.0
PRAGMA quick_check;
-- => sick: corrupt chunk 4294968296 in sick_chunks: filter 1 has 31 chunks
ROLLBACK TO hand;
INSERT INTO sick_filters(name, header, bytes, chunk_bytes) SELECT NULL, header, bytes, chunk_bytes FROM sick_filters;
--! since 3.44.0
PRAGMA quick_check;
-- => sick: corrupt filters 1 and 2 in sick_filters: both have no name
ROLLBACK TO hand;
UPDATE sick_filters SET header = zeroblob(64);
--! since 3.44.0
PRAGMA quick_check;
-- => sick: corrupt filter 1 in sick_filters: not a Bloom filter: magic is x'00000000', not x'53514246' (SQBF)
ROLLBACK TO hand;
UPDATE sick_grow_chunks SET data = zeroblob(length(data)) WHERE id = 1 << 32;
--! since 3.44.0
PRAGMA integrity_check;
-- => sick_grow: corrupt filter 1 in sick_grow_filters: corrupt filter: stage 0: not a Bloom filter: magic is x'00000000', not x'53514246' (SQBF)
--! since 3.44.0
PRAGMA quick_check;
-- => ok
ROLLBACK TO hand;
-- A scalable filter's count is its stages': the parts in its rows must add up to it.
UPDATE sick_grow_chunks SET keys = keys + 5 WHERE id = (SELECT max(id) FROM sick_grow_chunks);
--! since 3.44.0
PRAGMA integrity_check;
-- => sick_grow: corrupt filter 1 in sick_grow_filters: 3001 keys added, but its stages hold 2996
--! since 3.44.0
PRAGMA quick_check;
-- => ok
ROLLBACK TO hand;
RELEASE hand;
--! since 3.44.0
PRAGMA integrity_check;
-- => ok
DROP TABLE sick;
DROP TABLE sick_grow;
--! defensive on
INSERT INTO t1_chunks VALUES (1, 0, x'00');
-- error: table t1_chunks may not be modified
DELETE FROM t1_filters;
-- error: table t1_filters may not be modified
UPDATE t1_config SET value = 1;
-- error: table t1_config may not be modified
INSERT INTO t1(key) VALUES ('defensive');
SELECT count(*) FROM t1 WHERE key = 'defensive';
-- => 1
--! defensive off
-- Not innocuous: under trusted_schema = OFF, a schema's trigger cannot use the table.
PRAGMA trusted_schema = OFF;
--! since 3.32.0
INSERT INTO people(email) VALUES ('dan@x');
-- error: unsafe use of virtual table "emails"
SELECT count(*) FROM emails WHERE key = 'ann@x';
-- => 1
PRAGMA trusted_schema = ON;
-- The chunk size follows the page size, so that a chunk's row fits one page.
ATTACH ':memory:' AS small;
PRAGMA small.page_size = 1024;
CREATE VIRTUAL TABLE small.s USING bloom(kind = 'blocked', n = 5000, p = 0.01);
--! since 3.32.0
SELECT value FROM small.s_config WHERE key = 'chunk_bytes';
-- => 960
--! before 3.32.0
SELECT value FROM small.s_config WHERE key = 'chunk_bytes';
-- => 896
INSERT INTO small.s(key) SELECT k FROM keys;
SELECT (SELECT filter FROM small.s) = (SELECT bloom_build(k, 5000, 0.01, 'blocked') FROM keys), (SELECT max(length(data)) = value FROM small.s_chunks, small.s_config WHERE key = 'chunk_bytes'), (SELECT count(*) FROM small.s_chunks);
-- => 1|1|7
ATTACH ':memory:' AS large;
PRAGMA large.page_size = 65536;
CREATE VIRTUAL TABLE large.s USING bloom(kind = 'standard', n = 100000, p = 0.01);
--! since 3.32.0
SELECT value FROM large.s_config WHERE key = 'chunk_bytes';
-- => 65472
INSERT INTO large.s(key) SELECT k FROM keys;
SELECT (SELECT filter FROM large.s) = (SELECT bloom_build(k, 100000, 0.01) FROM keys), (SELECT count(*) FROM large.s_chunks);
-- => 1|2
SELECT count(*) FROM dbstat('small') WHERE name = 's_chunks' AND pagetype = 'overflow';
-- => 0
SELECT count(*) FROM dbstat('large') WHERE name = 's_chunks' AND pagetype = 'overflow';
-- => 0

-- A key is a value with no affinity (the column is declared BLOB): a list of keys after IN keeps
-- each key's type, as = does. (Declared without a type, the column had NUMERIC affinity, which
-- SQLite applied to an IN list: '2', added as TEXT, was looked up as the INTEGER 2 and missed.)
CREATE VIRTUAL TABLE typed USING bloom(kind = 'standard', n = 100, p = 0.01);
INSERT INTO typed(key) VALUES (1), ('2');
SELECT (SELECT count(*) FROM typed WHERE key IN ('1', '3')), (SELECT count(*) FROM typed WHERE key IN (2, 5)),
       (SELECT count(*) FROM typed WHERE key IN ('2', 'x')), (SELECT count(*) FROM typed WHERE key IN (1, 'x')),
       (SELECT count(*) FROM typed WHERE key = '2');
-- => 0|0|1|1|1
CREATE VIRTUAL TABLE removing USING bloom(kind = 'counting', n = 100, p = 0.01);
INSERT INTO removing(key) VALUES (1), ('1');
DELETE FROM removing WHERE key IN ('1', '2');
SELECT (SELECT count(*) FROM removing WHERE key = 1), (SELECT count(*) FROM removing WHERE key = '1');
-- => 1|0
