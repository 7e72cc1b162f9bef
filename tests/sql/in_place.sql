-- Rule 19 (in place): the in-place functions' results, arguments and errors, and what each
-- error leaves: the cell as it was. (Equivalence with bloom_add, bloom_remove and
-- bloom_might_contain for every kind: tests/sql/kinds.sql; the authorizer, trusted_schema and
-- out-of-memory: tests/test_in_place.c.)
CREATE TABLE filters(name TEXT, filter BLOB);
INSERT INTO filters VALUES ('std', bloom_empty(1000, 0.01)), ('cnt', bloom_empty(1000, 0.01, 'counting')),
                           ('null', NULL), ('text', 'SQBF'), ('short', x'5351424601'), ('int', 7);
CREATE TABLE saved AS SELECT rowid AS id, filter FROM filters;

-- The add: 1 when the key was certainly not there, then 0; the same bytes as bloom_add.
SELECT bloom_add_in_place('filters', 'filter', 1, 'alice'), bloom_add_in_place('filters', 'filter', 1, 'alice');
-- => 1|0
SELECT filter = bloom_add(bloom_add(bloom_empty(1000, 0.01), 'alice'), 'alice') FROM filters WHERE rowid = 1;
-- => 1
SELECT bloom_might_contain_in_place('filters', 'filter', 1, 'alice'), bloom_might_contain_in_place('filters', 'filter', 1, 'bob');
-- => 1|0
-- schema.table, any case of the names, a REAL rowid with an integer's value.
SELECT bloom_might_contain_in_place('main.filters', 'FILTER', 1.0, 'alice'), bloom_might_contain_in_place('MAIN.Filters', 'filter', 1, 'alice');
-- => 1|1
-- A NULL key: NULL, nothing written, nothing checked.
SELECT bloom_add_in_place('filters', 'filter', 1, NULL), bloom_remove_in_place('nowhere', 'filter', 1, NULL),
       bloom_might_contain_in_place('filters', 'filter', 1, NULL);
-- => NULL|NULL|NULL
SELECT filter = bloom_add(bloom_add(bloom_empty(1000, 0.01), 'alice'), 'alice') FROM filters WHERE rowid = 1;
-- => 1

-- The counting filter: add, remove, and a key that is not there.
SELECT bloom_add_in_place('filters', 'filter', 2, 'alice'), bloom_remove_in_place('filters', 'filter', 2, 'alice');
-- => 1|1
SELECT filter = bloom_empty(1000, 0.01, 'counting') FROM filters WHERE rowid = 2;
-- => 1
SELECT bloom_remove_in_place('filters', 'filter', 2, 'alice');
-- error: bloom_remove_in_place: the key 'alice' is not in the filter; nothing was removed
SELECT bloom_remove_in_place('filters', 'filter', 1, 'alice');
-- error: bloom_remove_in_place: a 'standard' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys

-- What names no cell.
SELECT bloom_add_in_place('nosuch', 'filter', 1, 'x');
-- error: bloom_add_in_place: cannot update main.nosuch.filter: no such table: main.nosuch
SELECT bloom_might_contain_in_place('nosuch', 'filter', 1, 'x');
-- error: bloom_might_contain_in_place: cannot read main.nosuch.filter: no such table: main.nosuch
SELECT bloom_add_in_place('other.filters', 'filter', 1, 'x');
-- error: bloom_add_in_place: cannot update other.filters.filter: no such schema: other
SELECT bloom_add_in_place('filters', 'nosuch', 1, 'x');
-- error: bloom_add_in_place: cannot update main.filters.nosuch: no such column: nosuch
SELECT bloom_might_contain_in_place('filters', 'nosuch', 1, 'x');
-- error: bloom_might_contain_in_place: cannot read main.filters.nosuch: no such column: nosuch
SELECT bloom_remove_in_place('filters', 'filter', 99, 'x');
-- error: bloom_remove_in_place: no row with rowid 99 in main.filters
SELECT bloom_add_in_place('filters', 'filter', 'one', 'x');
-- error: bloom_add_in_place: rowid must be an integer, got 'one'
SELECT bloom_add_in_place('filters', 'filter', 1.5, 'x');
-- error: bloom_add_in_place: rowid must be an integer, got 1.5
SELECT bloom_add_in_place(NULL, 'filter', 1, 'x');
-- error: bloom_add_in_place: table must be a table's name as TEXT, got NULL
SELECT bloom_add_in_place('filters', 2, 1, 'x');
-- error: bloom_add_in_place: column must be a column's name as TEXT, got 2
SELECT bloom_add_in_place('filters', 'filter', 1);
-- error: bloom_add_in_place: wrong number of arguments (3); the form is bloom_add_in_place(table, column, rowid, key)
SELECT bloom_might_contain_in_place('filters', 'filter', 1, 'x', 2);
-- error: bloom_might_contain_in_place: wrong number of arguments (5); the form is bloom_might_contain_in_place(table, column, rowid, key)

-- Cells that hold no filter.
SELECT bloom_add_in_place('filters', 'filter', 3, 'x');
-- error: bloom_add_in_place: the filter must be a BLOB, got NULL in main.filters.filter, rowid 3
SELECT bloom_might_contain_in_place('filters', 'filter', 4, 'x');
-- error: bloom_might_contain_in_place: the filter must be a BLOB, got TEXT in main.filters.filter, rowid 4
SELECT bloom_add_in_place('filters', 'filter', 6, 'x');
-- error: bloom_add_in_place: the filter must be a BLOB, got INTEGER in main.filters.filter, rowid 6
SELECT bloom_add_in_place('filters', 'filter', 5, 'x');
-- error: bloom_add_in_place: not a Bloom filter: length 5 is shorter than the 64-byte header (main.filters.filter, rowid 5)
UPDATE filters SET filter = (SELECT CAST(substr(filter, 1, 6) || x'0A' || substr(filter, 8) AS BLOB) FROM filters WHERE rowid = 1) WHERE rowid = 5;
SELECT bloom_might_contain_in_place('filters', 'filter', 5, 'x');
-- error: bloom_might_contain_in_place: corrupt filter: unknown kind 10 (main.filters.filter, rowid 5)
-- A filter one byte short of its length.
UPDATE filters SET filter = (SELECT substr(filter, 1, length(filter) - 1) FROM filters WHERE rowid = 1) WHERE rowid = 5;
SELECT bloom_add_in_place('filters', 'filter', 5, 'x');
-- error: bloom_add_in_place: corrupt filter: m = 9600 bits needs 1264 bytes, the BLOB has 1263 (main.filters.filter, rowid 5)

-- Other schemas: temp and attached databases, read-only ones refused.
CREATE TEMP TABLE scratch(f BLOB);
INSERT INTO scratch VALUES (bloom_empty(100, 0.01, 'blocked'));
SELECT bloom_add_in_place('temp.scratch', 'f', 1, 42), bloom_might_contain_in_place('temp.scratch', 'f', 1, 42.0);
-- => 1|1
SELECT bloom_add_in_place('scratch', 'f', 1, 42);
-- error: bloom_add_in_place: cannot update main.scratch.f: no such table: main.scratch; a TEMP table has that name: name it 'temp.scratch'
ATTACH ':memory:' AS side;
CREATE TABLE side.filters(filter BLOB);
INSERT INTO side.filters VALUES (bloom_empty(100, 0.01));
SELECT bloom_add_in_place('side.filters', 'filter', 1, 'x'), bloom_might_contain_in_place('side.filters', 'filter', 1, 'x');
-- => 1|1

-- PRAGMA query_only: the writers are refused, the cell unchanged; the probe still answers.
PRAGMA query_only = ON;
SELECT bloom_add_in_place('filters', 'filter', 1, 'carol');
-- error READONLY: bloom_add_in_place: cannot write main.filters.filter, rowid 1: attempt to write a readonly database
SELECT bloom_might_contain_in_place('filters', 'filter', 1, 'carol');
-- => 0
PRAGMA query_only = OFF;

-- Transactions: a rollback takes the write back; a failing statement leaves nothing of it.
BEGIN;
SELECT bloom_add_in_place('filters', 'filter', 1, 'dave');
-- => 1
ROLLBACK;
SELECT bloom_might_contain_in_place('filters', 'filter', 1, 'dave');
-- => 0
CREATE TABLE people(name TEXT);
CREATE TRIGGER people_added AFTER INSERT ON people BEGIN
  SELECT bloom_add_in_place('filters', 'filter', 1, NEW.name);
  SELECT RAISE(ABORT, 'no eve') WHERE NEW.name = 'eve';
END;
INSERT INTO people VALUES ('erin');
INSERT INTO people VALUES ('eve');
-- error CONSTRAINT: no eve
BEGIN;
INSERT INTO people VALUES ('frank'), ('eve');
-- error CONSTRAINT: no eve
COMMIT;
SELECT bloom_might_contain_in_place('filters', 'filter', 1, 'erin'), bloom_might_contain_in_place('filters', 'filter', 1, 'eve'),
       bloom_might_contain_in_place('filters', 'filter', 1, 'frank');
-- => 1|0|0
SELECT filter = bloom_add(bloom_add(bloom_add(bloom_empty(1000, 0.01), 'alice'), 'alice'), 'erin') FROM filters WHERE rowid = 1;
-- => 1

-- Rule 21 (cuckoo): a key fits 8 times; the 9th add is refused and leaves the cell as it was,
-- in place as by copy.
INSERT INTO filters VALUES ('cuckoo', bloom_empty(10, 0.01, 'cuckoo'));
BEGIN;
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 8)
SELECT sum(bloom_add_in_place('filters', 'filter', 7, 'kim')) FROM s;
-- => 1
COMMIT;
CREATE TABLE cuckoo_before AS SELECT filter FROM filters WHERE rowid = 7;
SELECT bloom_add_in_place('filters', 'filter', 7, 'kim');
-- error: bloom_add_in_place: no room for the key in the 'cuckoo' filter, which holds about the n keys it was built for, and a key at most 8 times: build it with a larger n; nothing was added
SELECT bloom_add(filter, 'kim') FROM filters WHERE rowid = 7;
-- error: bloom_add: no room for the key in the 'cuckoo' filter, which holds about the n keys it was built for, and a key at most 8 times: build it with a larger n; nothing was added
SELECT filter = (SELECT filter FROM cuckoo_before), json_extract(bloom_info(filter), '$.keys_added')
FROM filters WHERE rowid = 7;
-- => 1|8
SELECT bloom_remove_in_place('filters', 'filter', 7, 'kim');
-- => 1
SELECT json_extract(bloom_info(filter), '$.keys_added') FROM filters WHERE rowid = 7;
-- => 7

-- The cells no call could write are as they were (2, the counting filter, is empty again; 1
-- was written and 5 updated above).
SELECT group_concat(filters.rowid) FROM filters JOIN saved ON saved.id = filters.rowid
WHERE filters.filter IS saved.filter;
-- => 2,3,4,6
