-- Rule 19 (in place): the guards SQLite keeps for a table hold for the in-place functions. Each
-- hole an attack found has its reproducer here, now an error that changes nothing (or the right
-- answer), and what the guards must not refuse still works. (The authorizer's SQLITE_IGNORE and
-- the flags: tests/test_in_place.c.)

-- 1. A VIRTUAL generated column before the filter column: SQLite 3.40's incremental BLOB I/O
-- would open the column after it. Readers and writers refuse the table, as later SQLite's own
-- sqlite3_blob_open does, pointing to the functions on the BLOB value.
CREATE TABLE gen(id INTEGER PRIMARY KEY, a BLOB, g INT AS (length(a)) VIRTUAL, f BLOB, other BLOB);
INSERT INTO gen(id, a, f, other)
VALUES (1, x'00', bloom_empty(100, 0.01), bloom_add(bloom_empty(100, 0.001), 'alice'));
CREATE TABLE gen_saved AS SELECT f, other FROM gen;
SELECT bloom_might_contain_in_place('gen', 'f', 1, 'alice');
-- error: bloom_might_contain_in_place: cannot read main.gen.f in place: its table has generated columns, which SQLite's incremental BLOB I/O cannot read (3.40 reads another column); use SELECT bloom_might_contain(f, key) FROM main.gen WHERE rowid = 1 instead
SELECT bloom_add_in_place('gen', 'f', 1, 'mallory');
-- error: bloom_add_in_place: cannot write main.gen.f in place: its table has generated columns, which an UPDATE computes and a write in place would not; use UPDATE main.gen SET f = bloom_add(f, key) WHERE rowid = 1 instead
SELECT cms_count_in_place('gen', 'f', 1, 'alice');
-- error: cms_count_in_place: cannot read main.gen.f in place: its table has generated columns, which SQLite's incremental BLOB I/O cannot read (3.40 reads another column); use SELECT cms_count(f, key) FROM main.gen WHERE rowid = 1 instead
SELECT g.f = s.f, g.other = s.other FROM gen g, gen_saved s;
-- => 1|1
-- The way the message points to works, and obeys the table.
SELECT bloom_might_contain(f, 'alice'), bloom_might_contain(other, 'alice') FROM gen WHERE rowid = 1;
-- => 0|1

-- 2. A column called rowid that is not the rowid (INTEGER PRIMARY KEY DESC is no alias; nor is a
-- member of a composite key): the call names the row by its rowid, for the check of the cell,
-- the blob handle and the UPDATE that grows a scalable filter alike. X grows; Y stays.
CREATE TABLE desc_key(rowid INTEGER PRIMARY KEY DESC, name TEXT, f BLOB);
INSERT INTO desc_key(_rowid_, rowid, name, f) VALUES
 (1, 2, 'X', bloom_add(bloom_add(bloom_empty(2, 0.01, 'scalable'), 'x1'), 'x2')),
 (2, 1, 'Y', bloom_add(bloom_empty(100, 0.01, 'scalable'), 'y-secret'));
CREATE TABLE desc_saved AS SELECT _rowid_ AS id, f FROM desc_key;
SELECT bloom_add_in_place('desc_key', 'f', 1, 'new');
-- => 1
SELECT _rowid_, name, bloom_might_contain(f, 'new'), bloom_might_contain(f, 'y-secret'),
       json_extract(bloom_info(f), '$.stage_count') FROM desc_key ORDER BY _rowid_;
-- => 1|X|1|0|2
-- => 2|Y|0|1|1
SELECT count(*) FROM desc_key k JOIN desc_saved s ON s.id = k._rowid_ WHERE k.f = s.f;
-- => 1
CREATE TABLE composite(rowid INTEGER, part TEXT, f BLOB, PRIMARY KEY (rowid, part));
INSERT INTO composite(_rowid_, rowid, part, f) VALUES
 (1, 2, 'a', bloom_add(bloom_empty(1, 0.01, 'scalable'), 'k')),
 (2, 1, 'b', bloom_empty(1, 0.01, 'scalable'));
SELECT bloom_add_in_place('composite', 'f', 1, 'new'), bloom_might_contain_in_place('composite', 'f', 1, 'new'),
       bloom_might_contain_in_place('composite', 'f', 2, 'new');
-- => 1|1|0
SELECT _rowid_, part, json_extract(bloom_info(f), '$.stage_count'), json_extract(bloom_info(f), '$.keys_added')
FROM composite ORDER BY _rowid_;
-- => 1|a|2|2
-- => 2|b|1|0

-- 3. An untrusted schema reads no other database: the readers are not innocuous, so with
-- trusted_schema = OFF a trigger of an attached database cannot call them (a view of it could
-- not read main either). Its INSERT fails; nothing reaches the attacker's table.
CREATE TABLE secrets(id INTEGER PRIMARY KEY, f BLOB);
INSERT INTO secrets VALUES (1, bloom_add(bloom_empty(100, 0.01), 'alice')),
                           (2, cms_add(cms_empty(0.01, 0.01), 'alice', 42));
ATTACH ':memory:' AS evil;
CREATE TABLE evil.bait(x);
CREATE TABLE evil.loot(a, b);
CREATE TRIGGER evil.steal AFTER INSERT ON bait BEGIN
  INSERT INTO loot SELECT bloom_might_contain_in_place('main.secrets', 'f', 1, 'alice'),
                          cms_count_in_place('main.secrets', 'f', 2, 'alice');
END;
CREATE TRIGGER evil.steal_probe AFTER INSERT ON bait WHEN NEW.x = 2 BEGIN
  INSERT INTO loot SELECT bloom_might_contain_in_place('main.secrets', 'f', 1, 'alice'), 0;
END;
PRAGMA trusted_schema = OFF;
INSERT INTO evil.bait VALUES (1);
-- error: unsafe use of bloom_might_contain_in_place()
INSERT INTO evil.bait VALUES (2);
-- error: unsafe use of bloom_might_contain_in_place()
SELECT count(*) FROM evil.bait, evil.loot;
-- => 0
-- The application's own SQL may read them.
SELECT bloom_might_contain_in_place('main.secrets', 'f', 1, 'alice'), cms_count_in_place('secrets', 'f', 2, 'alice');
-- => 1|42
PRAGMA trusted_schema = ON;
DETACH evil;

-- 4. Defensive mode: the shadow tables of a virtual table are read-only to ordinary SQL, and to
-- the writers, while SQLite would not refuse an UPDATE prepared inside a running statement.
CREATE VIRTUAL TABLE ft USING fts5(body);
INSERT INTO ft(rowid, body) VALUES (1, bloom_empty(64, 0.5));
CREATE TABLE ft_saved AS SELECT c0 FROM ft_content;
--! defensive on
--! since 3.37.0
SELECT bloom_add_in_place('ft_content', 'c0', 1, 'x');
-- error: bloom_add_in_place: cannot write main.ft_content.c0 in place: its table is a shadow table of a virtual table, which defensive mode (SQLITE_DBCONFIG_DEFENSIVE) keeps read-only; write through the virtual table
--! since 3.37.0
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 40)
SELECT count(bloom_add_in_place('ft_content', 'c0', 1, i)) FROM s;
-- error: bloom_add_in_place: cannot write main.ft_content.c0 in place: its table is a shadow table of a virtual table, which defensive mode (SQLITE_DBCONFIG_DEFENSIVE) keeps read-only; write through the virtual table
-- Before SQLite 3.37 (no PRAGMA table_list) this code cannot tell a shadow table: while
-- defensive mode is on, the writers refuse every table.
--! before 3.37.0
SELECT bloom_add_in_place('ft_content', 'c0', 1, 'x');
-- error: bloom_add_in_place: cannot write main.ft_content.c0 in place: defensive mode is on, and before SQLite 3.37 this code cannot tell shadow tables, which defensive mode keeps read-only
--! before 3.37.0
SELECT bloom_add_in_place('secrets', 'f', 1, 'x');
-- error: bloom_add_in_place: cannot write main.secrets.f in place: defensive mode is on, and before SQLite 3.37 this code cannot tell shadow tables, which defensive mode keeps read-only
UPDATE ft_content SET c0 = bloom_add(c0, 'x') WHERE id = 1;
-- error: table ft_content may not be modified
INSERT INTO ft(ft) VALUES ('integrity-check');
-- Reading a shadow table is allowed, as to ordinary SQL.
SELECT bloom_might_contain_in_place('ft_content', 'c0', 1, 'x'), (SELECT c0 FROM ft_saved) = c0 FROM ft_content;
-- => 0|1
-- The virtual table itself: the UPDATE of a virtual table is no write of a cell.
--! since 3.37.0
SELECT bloom_add_in_place('ft', 'body', 1, 'x');
-- error: bloom_add_in_place: cannot write main.ft.body in place: its table is a virtual table; use UPDATE main.ft SET body = bloom_add(body, key) WHERE rowid = 1 instead
--! since 3.37.0
SELECT bloom_might_contain_in_place('ft', 'body', 1, 'x');
-- error: bloom_might_contain_in_place: cannot read main.ft.body in place: its table is a virtual table; use SELECT bloom_might_contain(body, key) FROM main.ft WHERE rowid = 1 instead
--! defensive off
-- Without defensive mode ordinary SQL may write a shadow table, and so may the writers.
SELECT bloom_add_in_place('ft_content', 'c0', 1, 'x');
-- => 1
UPDATE ft_content SET c0 = (SELECT c0 FROM ft_saved);
INSERT INTO ft(ft) VALUES ('integrity-check');

-- 5. CHECK constraints and STORED generated columns. A write in place would pass by a CHECK
-- constraint that an UPDATE of the column checks, and leave a STORED column stale.
CREATE TABLE checked(id INTEGER PRIMARY KEY, f BLOB CHECK (bloom_might_contain(f, 'forbidden') = 0),
                     keys INT AS (json_extract(bloom_info(f), '$.keys_added')) STORED);
INSERT INTO checked(id, f) VALUES (1, bloom_empty(100, 0.001));
SELECT bloom_add_in_place('checked', 'f', 1, 'forbidden');
-- error: bloom_add_in_place: cannot write main.checked.f in place: its table has generated columns, which an UPDATE computes and a write in place would not; use UPDATE main.checked SET f = bloom_add(f, key) WHERE rowid = 1 instead
CREATE TABLE constrained(id INTEGER PRIMARY KEY,
                         f BLOB CONSTRAINT no_forbidden CHECK (bloom_might_contain(f, 'forbidden') = 0));
INSERT INTO constrained VALUES (1, bloom_empty(100, 0.001, 'counting')),
                               (2, cms_empty(0.01, 0.01));
SELECT bloom_add_in_place('constrained', 'f', 1, 'forbidden');
-- error: bloom_add_in_place: cannot write main.constrained.f in place: an UPDATE of it checks the CHECK constraint no_forbidden, which a write in place would pass by; use UPDATE main.constrained SET f = bloom_add(f, key) WHERE rowid = 1 instead
SELECT bloom_add_in_place('constrained', 'f', 1, 'allowed');
-- error: bloom_add_in_place: cannot write main.constrained.f in place: an UPDATE of it checks the CHECK constraint no_forbidden, which a write in place would pass by; use UPDATE main.constrained SET f = bloom_add(f, key) WHERE rowid = 1 instead
SELECT bloom_remove_in_place('constrained', 'f', 1, 'allowed');
-- error: bloom_remove_in_place: cannot write main.constrained.f in place: an UPDATE of it checks the CHECK constraint no_forbidden, which a write in place would pass by; use UPDATE main.constrained SET f = bloom_remove(f, key) WHERE rowid = 1 instead
SELECT cms_add_in_place('constrained', 'f', 2, 'forbidden');
-- error: cms_add_in_place: cannot write main.constrained.f in place: an UPDATE of it checks the CHECK constraint no_forbidden, which a write in place would pass by; use UPDATE main.constrained SET f = cms_add(f, key, count) WHERE rowid = 2 instead
-- The UPDATE it points to obeys the constraint; the probes read as before.
UPDATE constrained SET f = bloom_add(f, 'forbidden') WHERE rowid = 1;
-- error CONSTRAINT: CHECK constraint failed: no_forbidden
SELECT bloom_might_contain_in_place('constrained', 'f', 1, 'forbidden'), cms_count_in_place('constrained', 'f', 2, 'forbidden');
-- => 0|0
PRAGMA integrity_check;
-- => ok
-- With PRAGMA ignore_check_constraints an UPDATE checks none, and the writers may.
PRAGMA ignore_check_constraints = ON;
SELECT bloom_add_in_place('constrained', 'f', 1, 'allowed');
-- => 1
PRAGMA ignore_check_constraints = OFF;
-- A CHECK constraint on another column is not checked by an UPDATE of this one.
CREATE TABLE other_check(id INTEGER PRIMARY KEY, n INTEGER CHECK (n > 0), f BLOB NOT NULL);
INSERT INTO other_check VALUES (1, 5, bloom_empty(100, 0.01));
SELECT bloom_add_in_place('other_check', 'f', 1, 'k');
-- => 1

-- Indexes: one on an expression of the column or a partial one whose WHERE reads it would go
-- stale (SQLite's own check catches indexes on the column and on any expression).
CREATE TABLE partial(id INTEGER PRIMARY KEY, name TEXT, f BLOB);
CREATE INDEX partial_x ON partial(name) WHERE bloom_might_contain(f, 'x');
INSERT INTO partial VALUES (1, 'a', bloom_empty(100, 0.01));
SELECT bloom_add_in_place('partial', 'f', 1, 'x');
-- error: bloom_add_in_place: cannot write main.partial.f in place: an UPDATE of it updates an index that depends on it, which a write in place would not; use UPDATE main.partial SET f = bloom_add(f, key) WHERE rowid = 1 instead
PRAGMA integrity_check;
-- => ok
CREATE INDEX partial_name ON partial(name);
CREATE TABLE indexed_other(id INTEGER PRIMARY KEY, name TEXT UNIQUE, f BLOB);
INSERT INTO indexed_other VALUES (1, 'a', bloom_empty(100, 0.01));
SELECT bloom_add_in_place('indexed_other', 'f', 1, 'x');
-- => 1
CREATE TABLE indexed(id INTEGER PRIMARY KEY, f BLOB UNIQUE);
INSERT INTO indexed VALUES (1, bloom_empty(100, 0.01));
SELECT bloom_add_in_place('indexed', 'f', 1, 'x');
-- error: bloom_add_in_place: cannot write main.indexed.f in place: an UPDATE of it updates an index that depends on it, which a write in place would not; use UPDATE main."indexed" SET f = bloom_add(f, key) WHERE rowid = 1 instead

-- Triggers: one an UPDATE of the column fires (in the table's schema or TEMP) refuses the
-- writers; one on another column does not.
CREATE TABLE triggered(id INTEGER PRIMARY KEY, f BLOB, g INTEGER);
INSERT INTO triggered VALUES (1, bloom_empty(100, 0.01), 0);
CREATE TABLE fired(x);
CREATE TRIGGER triggered_g AFTER UPDATE OF g ON triggered BEGIN INSERT INTO fired VALUES ('g'); END;
SELECT bloom_add_in_place('triggered', 'f', 1, 'x');
-- => 1
CREATE TEMP TRIGGER triggered_f BEFORE UPDATE OF f ON main.triggered BEGIN INSERT INTO fired VALUES ('f'); END;
SELECT bloom_add_in_place('triggered', 'f', 1, 'y');
-- error: bloom_add_in_place: cannot write main.triggered.f in place: an UPDATE of it fires a trigger, which a write in place would not; use UPDATE main.triggered SET f = bloom_add(f, key) WHERE rowid = 1 instead
SELECT bloom_might_contain_in_place('triggered', 'f', 1, 'x'), bloom_might_contain_in_place('triggered', 'f', 1, 'y');
-- => 1|0
DROP TRIGGER triggered_f;
CREATE TRIGGER triggered_any AFTER UPDATE ON triggered BEGIN INSERT INTO fired VALUES ('any'); END;
SELECT bloom_add_in_place('triggered', 'f', 1, 'y');
-- error: bloom_add_in_place: cannot write main.triggered.f in place: an UPDATE of it fires a trigger, which a write in place would not; use UPDATE main.triggered SET f = bloom_add(f, key) WHERE rowid = 1 instead
SELECT count(*) FROM fired;
-- => 0

-- Foreign keys: with foreign_keys on, an UPDATE of a child column checks its parent.
PRAGMA foreign_keys = ON;
CREATE TABLE parent(f BLOB PRIMARY KEY);
CREATE TABLE child(id INTEGER PRIMARY KEY, f BLOB REFERENCES parent(f));
INSERT INTO parent VALUES (bloom_empty(100, 0.01));
INSERT INTO child SELECT 1, f FROM parent;
SELECT bloom_add_in_place('child', 'f', 1, 'x');
-- error: bloom_add_in_place: cannot write main.child.f in place: an UPDATE of it checks a foreign key, which a write in place would pass by; use UPDATE main.child SET f = bloom_add(f, key) WHERE rowid = 1 instead
PRAGMA foreign_keys = OFF;
SELECT bloom_add_in_place('child', 'f', 1, 'x');
-- => 1

-- STRICT tables and AUTOINCREMENT keep nothing a write of the bytes passes by.
--! since 3.37.0
CREATE TABLE strict_filters(id INTEGER PRIMARY KEY AUTOINCREMENT, f BLOB NOT NULL) STRICT;
--! since 3.37.0
INSERT INTO strict_filters(f) VALUES (bloom_empty(100, 0.01, 'cuckoo'));
--! since 3.37.0
SELECT bloom_add_in_place('strict_filters', 'f', 1, 'k'), bloom_remove_in_place('strict_filters', 'f', 1, 'k');
-- => 1|1

-- Names: TEXT without NUL, so that the table written is the one named; a filter where a name
-- belongs says to quote the name.
SELECT bloom_add_in_place(x'74', x'66', 1, 'a');
-- error: bloom_add_in_place: table must be a table's name as TEXT, got a BLOB of 1 byte
SELECT bloom_add_in_place('other_check', x'66', 1, 'a');
-- error: bloom_add_in_place: column must be a column's name as TEXT, got a BLOB of 1 byte
SELECT bloom_add_in_place('other_check' || char(0) || 'junk', 'f', 1, 'a');
-- error: bloom_add_in_place: table must be a table's name as TEXT without NUL characters, got 'other_check\x00junk'
SELECT bloom_might_contain_in_place('other_check', 'f' || char(0), 1, 'a');
-- error: bloom_might_contain_in_place: column must be a column's name as TEXT without NUL characters, got 'f\x00'
SELECT bloom_add_in_place('other_check', f, 1, 'a') FROM other_check;
-- error: bloom_add_in_place: column must be a column's name as TEXT, got a BLOB of 184 bytes; this BLOB is a filter, the value of a column: give the column's name in quotes, as a string ('filter', not filter)
SELECT bloom_add_in_place(f, 'f', 1, 'a') FROM other_check;
-- error: bloom_add_in_place: table must be a table's name as TEXT, got a BLOB of 184 bytes; this BLOB is a filter, the value of a column: give the table's name in quotes, as a string ('filters', not filters)
SELECT bloom_might_contain_in_place('other_check', 'f', 1, 'a');
-- => 0

-- What names no table with rows to write: a view, a WITHOUT ROWID table, a missing schema.
CREATE VIEW filters_view AS SELECT * FROM other_check;
SELECT bloom_add_in_place('filters_view', 'f', 1, 'a');
-- error: bloom_add_in_place: cannot update main.filters_view.f: main.filters_view is a view, which stores no cells; write to the table behind it: name that table, and the rowid of the filter's row there
SELECT bloom_might_contain_in_place('filters_view', 'f', 1, 'a');
-- error: bloom_might_contain_in_place: cannot read main.filters_view.f: main.filters_view is a view, which stores no cells; read from the table behind it: name that table, and the rowid of the filter's row there
CREATE TABLE no_rowid(k TEXT PRIMARY KEY, f BLOB) WITHOUT ROWID;
INSERT INTO no_rowid VALUES ('a', bloom_empty(10, 0.01)), ('b', cms_empty(0.01, 0.01));
SELECT bloom_might_contain_in_place('no_rowid', 'f', 1, 'a');
-- error: bloom_might_contain_in_place: cannot read main.no_rowid.f: main.no_rowid is a WITHOUT ROWID table: its rows have no rowid, which the in-place functions need; keep the filter in a table with a rowid, or use bloom_might_contain(f, key) in a SELECT from main.no_rowid
SELECT bloom_add_in_place('no_rowid', 'f', 1, 'a');
-- error: bloom_add_in_place: cannot update main.no_rowid.f: main.no_rowid is a WITHOUT ROWID table: its rows have no rowid, which the in-place functions need; keep the filter in a table with a rowid, or use bloom_add(f, key) in an UPDATE of main.no_rowid
SELECT bloom_remove_in_place('no_rowid', 'f', 1, 'a');
-- error: bloom_remove_in_place: cannot update main.no_rowid.f: main.no_rowid is a WITHOUT ROWID table: its rows have no rowid, which the in-place functions need; keep the filter in a table with a rowid, or use bloom_remove(f, key) in an UPDATE of main.no_rowid
SELECT cms_add_in_place('no_rowid', 'f', 2, 'a', 3);
-- error: cms_add_in_place: cannot update main.no_rowid.f: main.no_rowid is a WITHOUT ROWID table: its rows have no rowid, which the in-place functions need; keep the filter in a table with a rowid, or use cms_add(f, key, count) in an UPDATE of main.no_rowid
SELECT cms_count_in_place('no_rowid', 'f', 2, 'a');
-- error: cms_count_in_place: cannot read main.no_rowid.f: main.no_rowid is a WITHOUT ROWID table: its rows have no rowid, which the in-place functions need; keep the filter in a table with a rowid, or use cms_count(f, key) in a SELECT from main.no_rowid
-- Its columns may take every name of a rowid: still a WITHOUT ROWID table (SQLite 3.37 and
-- later tell it; earlier ones, only that those columns hide a rowid).
CREATE TABLE "no rowid all names"(rowid INTEGER PRIMARY KEY, _rowid_, oid, "the filter" BLOB) WITHOUT ROWID;
--! since 3.37.0
SELECT bloom_add_in_place('no rowid all names', 'the filter', 1, 'a');
-- error: bloom_add_in_place: cannot update main.no rowid all names.the filter: main.no rowid all names is a WITHOUT ROWID table: its rows have no rowid, which the in-place functions need; keep the filter in a table with a rowid, or use bloom_add("the filter", key) in an UPDATE of main."no rowid all names"
--! before 3.37.0
SELECT bloom_add_in_place('no rowid all names', 'the filter', 1, 'a');
-- error: bloom_add_in_place: cannot update main.no rowid all names.the filter: its columns called rowid, _rowid_ and oid hide its rowid
SELECT bloom_add_in_place('aux.other_check', 'f', 1, 'a');
-- error: bloom_add_in_place: cannot update aux.other_check.f: no such schema: aux
