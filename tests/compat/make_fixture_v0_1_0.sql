-- make_fixture_v0_1_0.sql: writes the compatibility fixture v0_1_0.db with sqlite-bloom 0.1.0.
--
-- Run ONCE, from the repository root, on a file that does not exist yet, with 0.1.0's bloom.so:
--
--   sqlite3 -batch -init /dev/null tests/compat/v0_1_0.db \
--       -cmd ".load /work/v010/build/bloom" < tests/compat/make_fixture_v0_1_0.sql
--
-- The committed v0_1_0.db is what this wrote; it is never regenerated or edited (README.md).
-- Everything is deterministic (no random(); data from recursive CTEs and arithmetic) except
-- meta's date. Plain SQL, no shell dot-command.
--
-- What the file holds:
--   meta(key, value)       bloom_version(), sqlite_version() and the date of the run
--   keys(set_name, i, key) the keys of each key set; i numbers the rows of a set
--   filters(name, id, description, built_by, filter, info)
--                          built_by: the exact SELECT that made the filter, on this database;
--                          info: bloom_info(filter) as 0.1.0 printed it; id: for probe_rows
--   probes(filter_name, key, added, answer), a view over probe_rows(filter_id, ...):
--                          answer is bloom_might_contain(filter, key) by 0.1.0; added is 1 for
--                          a key that was added to that filter (so answer 1 with added 0 is a
--                          false positive), else 0. The view only saves repeating the name.
PRAGMA page_size = 1024;
PRAGMA encoding = 'UTF-8';

CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- key has no declared type, hence no affinity: every value keeps the type it was inserted with.
CREATE TABLE keys(set_name TEXT NOT NULL, i INTEGER NOT NULL, key);
CREATE TABLE filters(name TEXT PRIMARY KEY, id INTEGER UNIQUE, description TEXT NOT NULL,
                     built_by TEXT NOT NULL, filter BLOB NOT NULL, info TEXT NOT NULL);
CREATE TABLE probe_rows(filter_id INTEGER NOT NULL, key, added INTEGER NOT NULL, answer INTEGER);
CREATE VIEW probes(filter_name, key, added, answer) AS
  SELECT f.name, r.key, r.added, r.answer FROM probe_rows r JOIN filters f ON f.id = r.filter_id;

INSERT INTO meta VALUES
  ('bloom_version', bloom_version()),
  ('sqlite_version', sqlite_version()),
  ('made_on', date('now')),
  ('made_by', 'tests/compat/make_fixture_v0_1_0.sql with /work/v010/build/bloom.so, a build of commit f675ef3828a5afac79c16e872d09f8fd6cff6ae6 (release 0.1.0)');

------------------------------------------------------------------------------------------------
-- Key sets.

-- 'edge': edge values of every type, and two NULLs (which bloom_build skips).
INSERT INTO keys(set_name, i, key) VALUES
  -- INTEGER
  ('edge', 1, 0),
  ('edge', 2, 1),
  ('edge', 3, -1),
  ('edge', 4, 2),
  ('edge', 5, 42),
  ('edge', 6, 255),
  ('edge', 7, 256),
  ('edge', 8, 2147483647),
  ('edge', 9, 2147483648),
  ('edge', 10, -2147483649),
  ('edge', 11, 4294967296),
  ('edge', 12, 9007199254740992),          -- 2^53
  ('edge', 13, 9007199254740993),          -- 2^53 + 1: not the REAL 2^53
  ('edge', 14, -9007199254740993),
  ('edge', 15, 9223372036854775807),       -- 2^63 - 1
  ('edge', 16, -9223372036854775808),      -- -2^63
  -- REAL
  ('edge', 17, 1.5),
  ('edge', 18, -2.25),
  ('edge', 19, 0.1),
  ('edge', 20, 1e300),
  ('edge', 21, -1e300),
  ('edge', 22, 1e-300),
  ('edge', 23, 4.9406564584124654e-324),   -- the smallest subnormal
  ('edge', 24, 1.7976931348623157e308),    -- the largest finite double
  ('edge', 25, 9e999),                     -- +Inf
  ('edge', 26, -9e999),                    -- -Inf
  ('edge', 27, -0.0),                      -- the key 0
  ('edge', 28, 2.0),                       -- the key 2
  ('edge', 29, 9007199254740992.0),        -- 2^53 as a REAL: the key 9007199254740992
  ('edge', 30, 9007199254740994.0),
  ('edge', 31, 9223372036854775808.0),     -- 2^63: out of the integer range, its own key
  ('edge', 32, -9223372036854775808.0),    -- -2^63 as a REAL: the key -9223372036854775808
  ('edge', 33, 3.141592653589793),
  ('edge', 34, 1000000000000000.5),
  ('edge', 35, -1.0),                      -- the key -1
  ('edge', 36, 123.0),                     -- the key 123, no INTEGER 123 in this set
  -- TEXT
  ('edge', 37, ''),
  ('edge', 38, 'a'),
  ('edge', 39, 'hello'),
  ('edge', 40, 'Hello'),
  ('edge', 41, '1'),
  ('edge', 42, '2.0'),
  ('edge', 43, 'NULL'),
  ('edge', 44, 'ünïcödé'),
  ('edge', 45, '😀'),
  ('edge', 46, '日本語のテキスト'),
  ('edge', 47, 'e' || char(769)),          -- e and a combining acute accent
  ('edge', 48, 'é'),                       -- precomposed: another key
  ('edge', 49, 'a' || char(0) || 'b'),     -- an embedded NUL, 3 bytes
  ('edge', 50, CAST(x'C328FF' AS TEXT)),   -- not well-formed UTF-8
  ('edge', 51, ' padded '),
  ('edge', 52, replace(hex(zeroblob(110)), '00', 'long text ')),  -- 1100 bytes: more than one 1024-byte block of XXH3
  ('edge', 53, 'Ωmega 𝄞 clef'),
  ('edge', 54, replace(hex(zeroblob(20)), '00', 'mid text ')),  -- 180 bytes: XXH3's 129..240 case
  -- BLOB
  ('edge', 55, x''),
  ('edge', 56, x'00'),
  ('edge', 57, x'0000'),
  ('edge', 58, x'FF'),
  ('edge', 59, x'68656C6C6F'),             -- the bytes of 'hello'
  ('edge', 60, x'0100000000000000'),       -- the canonical bytes of the INTEGER 1
  ('edge', 61, zeroblob(64)),
  ('edge', 62, CAST(replace(hex(zeroblob(275)), '00', 'blob') AS BLOB)),  -- 1100 bytes
  ('edge', 63, x'F09F9880'),               -- the UTF-8 bytes of the emoji above
  -- NULL
  ('edge', 64, NULL),
  ('edge', 65, NULL);

-- 'one': a single key, for filters of capacity 1.
INSERT INTO keys(set_name, i, key) VALUES ('one', 1, 'the only key');

-- 'nulls': rows whose keys are all NULL.
INSERT INTO keys(set_name, i, key) VALUES ('nulls', 1, NULL), ('nulls', 2, NULL), ('nulls', 3, NULL);

-- 'mixed': 2000 generated keys, a quarter of each type; the REALs i * 1e6 (i % 8 = 5) are
-- integral, so the same keys as INTEGERs.
INSERT INTO keys(set_name, i, key)
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000)
SELECT 'mixed', i, CASE i % 8
  WHEN 0 THEN (i * 2654435761) % 4294967296 - 2147483648
  WHEN 4 THEN i * 1000003 * 1000003
  WHEN 1 THEN i * 0.25 + 1000.0
  WHEN 5 THEN CAST(i AS REAL) * 1e6
  WHEN 2 THEN printf('user%d@ex.org', i)
  WHEN 6 THEN printf('ключ%d', i)
  WHEN 3 THEN CAST(printf('%08x', (i * 2246822519) % 4294967296) AS BLOB)
  ELSE CAST(printf('blob-%d', i) || x'00FF' AS BLOB)
END FROM s;

-- 'groups': 120 generated keys of every type, in three parts i % 3 (each part mixed).
INSERT INTO keys(set_name, i, key)
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 120)
SELECT 'groups', i, CASE i % 4
  WHEN 0 THEN i * 7919 - 500000
  WHEN 1 THEN i / 3.0                      -- integral when 3 divides i: the INTEGER i / 3
  WHEN 2 THEN printf('group key %d', i)
  ELSE CAST(printf('g%d', i * 31) AS BLOB)
END FROM s;

------------------------------------------------------------------------------------------------
-- Filters. Each built_by is the exact SELECT that gives the filter on this database; for the
-- GROUP BY filters, the row of the group named in the description.

INSERT INTO filters(name, description, built_by, filter, info)
SELECT name, description, built_by, filter, bloom_info(filter) FROM (
  SELECT 'edge_std' AS name,
         'edge keys, standard layout, n = 100, p = 0.01' AS description,
         'SELECT bloom_build(key, 100, 0.01) FROM keys WHERE set_name = ''edge''' AS built_by,
         (SELECT bloom_build(key, 100, 0.01) FROM keys WHERE set_name = 'edge') AS filter
  UNION ALL
  SELECT 'edge_blocked', 'edge keys, blocked layout, n = 100, p = 0.01',
         'SELECT bloom_build(key, 100, 0.01, ''blocked'') FROM keys WHERE set_name = ''edge''',
         (SELECT bloom_build(key, 100, 0.01, 'blocked') FROM keys WHERE set_name = 'edge')
  UNION ALL
  SELECT 'edge_auto', 'edge keys, sized at the end by the key alone (p = 0.01)',
         'SELECT bloom_build(key) FROM keys WHERE set_name = ''edge''',
         (SELECT bloom_build(key) FROM keys WHERE set_name = 'edge')
  UNION ALL
  SELECT 'edge_auto_p001', 'edge keys, sized at the end, n NULL, p = 0.001',
         'SELECT bloom_build(key, NULL, 0.001) FROM keys WHERE set_name = ''edge''',
         (SELECT bloom_build(key, NULL, 0.001) FROM keys WHERE set_name = 'edge')
  UNION ALL
  SELECT 'edge_auto_blocked', 'edge keys, sized at the end, n NULL, p = 0.05, blocked',
         'SELECT bloom_build(key, NULL, 0.05, ''blocked'') FROM keys WHERE set_name = ''edge''',
         (SELECT bloom_build(key, NULL, 0.05, 'blocked') FROM keys WHERE set_name = 'edge')
  UNION ALL
  SELECT 'edge_p09', 'edge keys, standard, n = 60, p = 0.9 (k = 1)',
         'SELECT bloom_build(key, 60, 0.9) FROM keys WHERE set_name = ''edge''',
         (SELECT bloom_build(key, 60, 0.9) FROM keys WHERE set_name = 'edge')
  UNION ALL
  SELECT 'edge_k63', 'edge keys, standard, n = 60, p = 1e-19 (k = 63)',
         'SELECT bloom_build(key, 60, 1e-19) FROM keys WHERE set_name = ''edge''',
         (SELECT bloom_build(key, 60, 1e-19) FROM keys WHERE set_name = 'edge')
  UNION ALL
  SELECT 'edge_p1e6_blocked', 'edge keys, blocked, n = 60, p = 1e-6',
         'SELECT bloom_build(key, 60, 1e-6, ''blocked'') FROM keys WHERE set_name = ''edge''',
         (SELECT bloom_build(key, 60, 1e-6, 'blocked') FROM keys WHERE set_name = 'edge')
  UNION ALL
  SELECT 'one_std', 'the one key, standard, n = 1, p = 0.01',
         'SELECT bloom_build(key, 1, 0.01) FROM keys WHERE set_name = ''one''',
         (SELECT bloom_build(key, 1, 0.01) FROM keys WHERE set_name = 'one')
  UNION ALL
  SELECT 'one_blocked_p05', 'the one key, blocked, n = 1, p = 0.5',
         'SELECT bloom_build(key, 1, 0.5, ''blocked'') FROM keys WHERE set_name = ''one''',
         (SELECT bloom_build(key, 1, 0.5, 'blocked') FROM keys WHERE set_name = 'one')
  UNION ALL
  SELECT 'empty', 'the empty filter to start from, standard, n = 100, p = 0.01',
         'SELECT bloom_build(NULL, 100, 0.01)',
         (SELECT bloom_build(NULL, 100, 0.01))
  UNION ALL
  SELECT 'empty_blocked', 'the empty filter, blocked, n = 100, p = 0.01',
         'SELECT bloom_build(NULL, 100, 0.01, ''blocked'')',
         (SELECT bloom_build(NULL, 100, 0.01, 'blocked'))
  UNION ALL
  SELECT 'nulls_std', 'rows whose keys are all NULL, n = 10, p = 0.01: an empty filter',
         'SELECT bloom_build(key, 10, 0.01) FROM keys WHERE set_name = ''nulls''',
         (SELECT bloom_build(key, 10, 0.01) FROM keys WHERE set_name = 'nulls')
  UNION ALL
  SELECT 'nulls_auto', 'rows whose keys are all NULL, sized at the end: sized for 1 key, empty',
         'SELECT bloom_build(key) FROM keys WHERE set_name = ''nulls''',
         (SELECT bloom_build(key) FROM keys WHERE set_name = 'nulls')
  UNION ALL
  SELECT 'mixed_std', '2000 mixed keys, standard, n = 2000, p = 0.01',
         'SELECT bloom_build(key, 2000, 0.01) FROM keys WHERE set_name = ''mixed''',
         (SELECT bloom_build(key, 2000, 0.01) FROM keys WHERE set_name = 'mixed')
  UNION ALL
  SELECT 'mixed_auto_blocked', '2000 mixed keys, sized at the end, n NULL, p = 0.01, blocked',
         'SELECT bloom_build(key, NULL, 0.01, ''blocked'') FROM keys WHERE set_name = ''mixed''',
         (SELECT bloom_build(key, NULL, 0.01, 'blocked') FROM keys WHERE set_name = 'mixed')
  UNION ALL
  SELECT 'groups_over', '120 group keys in a filter for n = 12 (10 times over capacity), p = 0.01',
         'SELECT bloom_build(key, 12, 0.01) FROM keys WHERE set_name = ''groups''',
         (SELECT bloom_build(key, 12, 0.01) FROM keys WHERE set_name = 'groups')
  UNION ALL
  SELECT 'groups_p1e6', '120 group keys, standard, n = 120, p = 1e-6',
         'SELECT bloom_build(key, 120, 1e-6) FROM keys WHERE set_name = ''groups''',
         (SELECT bloom_build(key, 120, 1e-6) FROM keys WHERE set_name = 'groups')
);

-- One filter per group (GROUP BY), both layouts, sized for the whole so that they merge.
INSERT INTO filters(name, description, built_by, filter, info)
SELECT 'groups_part' || g, 'the group i % 3 = ' || g || ' of the group keys, standard, n = 120, p = 0.01',
       'SELECT i % 3, bloom_build(key, 120, 0.01) FROM keys WHERE set_name = ''groups'' GROUP BY i % 3',
       f, bloom_info(f)
FROM (SELECT i % 3 AS g, bloom_build(key, 120, 0.01) AS f FROM keys WHERE set_name = 'groups' GROUP BY i % 3);

INSERT INTO filters(name, description, built_by, filter, info)
SELECT 'groups_blocked_part' || g, 'the group i % 3 = ' || g || ' of the group keys, blocked, n = 120, p = 0.01',
       'SELECT i % 3, bloom_build(key, 120, 0.01, ''blocked'') FROM keys WHERE set_name = ''groups'' GROUP BY i % 3',
       f, bloom_info(f)
FROM (SELECT i % 3 AS g, bloom_build(key, 120, 0.01, 'blocked') AS f FROM keys WHERE set_name = 'groups' GROUP BY i % 3);

-- Filters made from stored filters: unions and additions.
INSERT INTO filters(name, description, built_by, filter, info)
SELECT name, description, built_by, filter, bloom_info(filter) FROM (
  SELECT 'groups_union' AS name,
         'bloom_union aggregate of groups_part0..2: the bytes of bloom_build(key, 120, 0.01) over the group keys' AS description,
         'SELECT bloom_union(filter) FROM filters WHERE name IN (''groups_part0'', ''groups_part1'', ''groups_part2'')' AS built_by,
         (SELECT bloom_union(filter) FROM filters WHERE name IN ('groups_part0', 'groups_part1', 'groups_part2')) AS filter
  UNION ALL
  SELECT 'groups_union01', 'bloom_union scalar of groups_part0 and groups_part1',
         'SELECT bloom_union(a.filter, b.filter) FROM filters a, filters b WHERE a.name = ''groups_part0'' AND b.name = ''groups_part1''',
         (SELECT bloom_union(a.filter, b.filter) FROM filters a, filters b WHERE a.name = 'groups_part0' AND b.name = 'groups_part1')
  UNION ALL
  SELECT 'groups_blocked_union', 'bloom_union aggregate of groups_blocked_part0..2',
         'SELECT bloom_union(filter) FROM filters WHERE name IN (''groups_blocked_part0'', ''groups_blocked_part1'', ''groups_blocked_part2'')',
         (SELECT bloom_union(filter) FROM filters WHERE name IN ('groups_blocked_part0', 'groups_blocked_part1', 'groups_blocked_part2'))
  UNION ALL
  SELECT 'edge_std_add', 'edge_std with three keys added by bloom_add (and a NULL, which changes nothing)',
         'SELECT bloom_add(bloom_add(bloom_add(bloom_add(filter, ''added later''), 4096), x''CAFE''), NULL) FROM filters WHERE name = ''edge_std''',
         (SELECT bloom_add(bloom_add(bloom_add(bloom_add(filter, 'added later'), 4096), x'CAFE'), NULL) FROM filters WHERE name = 'edge_std')
  UNION ALL
  SELECT 'empty_add', 'empty with two keys added by bloom_add',
         'SELECT bloom_add(bloom_add(filter, ''x''), 2.5) FROM filters WHERE name = ''empty''',
         (SELECT bloom_add(bloom_add(filter, 'x'), 2.5) FROM filters WHERE name = 'empty')
  UNION ALL
  SELECT 'empty_blocked_add', 'empty_blocked with two keys added by bloom_add',
         'SELECT bloom_add(bloom_add(filter, x''00''), -7) FROM filters WHERE name = ''empty_blocked''',
         (SELECT bloom_add(bloom_add(filter, x'00'), -7) FROM filters WHERE name = 'empty_blocked')
);

------------------------------------------------------------------------------------------------
-- Probes: every key added to each filter, a window of absent keys of every type per filter
-- (wider for the larger filters), and NULL keys.

-- Filters are numbered in the order of their names.
UPDATE filters SET id = (SELECT count(*) FROM filters g WHERE g.name <= filters.name);

CREATE TEMP TABLE filter_keys(filter_name TEXT NOT NULL, key);
INSERT INTO filter_keys
SELECT f.name, k.key FROM filters f JOIN keys k
  ON k.key IS NOT NULL AND k.set_name = CASE
       WHEN f.name GLOB 'edge_*' THEN 'edge'
       WHEN f.name GLOB 'one_*' THEN 'one'
       WHEN f.name GLOB 'mixed_*' THEN 'mixed'
       WHEN f.name GLOB 'groups_*' THEN 'groups'
     END
  AND CASE
       WHEN f.name GLOB 'groups_*part?' THEN k.i % 3 = CAST(substr(f.name, -1) AS INTEGER)
       WHEN f.name = 'groups_union01' THEN k.i % 3 IN (0, 1)
       ELSE 1
     END;
INSERT INTO filter_keys VALUES
  ('edge_std_add', 'added later'), ('edge_std_add', 4096), ('edge_std_add', x'CAFE'),
  ('empty_add', 'x'), ('empty_add', 2.5),
  ('empty_blocked_add', x'00'), ('empty_blocked_add', -7);

-- Absent keys: j % 8 picks the type. Some spell added keys in another type: BLOBs with the bytes
-- of the mixed TEXT keys (j % 8 = 3), TEXT with the characters of the mixed BLOB keys (j % 8 = 7).
CREATE TEMP TABLE absent(j INTEGER PRIMARY KEY, key);
INSERT INTO absent
WITH RECURSIVE s(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM s WHERE j < 2400)
SELECT j, CASE j % 8
  WHEN 0 THEN 1099511627776 + j * 13
  WHEN 4 THEN -j
  WHEN 1 THEN j + 0.125
  WHEN 5 THEN j * 1e-7
  WHEN 2 THEN printf('absent%d@ex.org', j)
  WHEN 6 THEN printf('user%d@ex.org', j)
  WHEN 3 THEN CAST(printf('user%d@ex.org', j - 1) AS BLOB)
  ELSE printf('%08x', ((j - 4) * 2246822519) % 4294967296)
END FROM s;

-- Each filter probes 48 absent keys (6 of each kind) starting at a place of its own, the windows
-- of neighbours overlapping; the mixed filters 400 past those, the over-capacity one 300.
CREATE TEMP TABLE windows(filter_name TEXT PRIMARY KEY, first INTEGER, count INTEGER);
INSERT INTO windows
SELECT name, 1 + 40 * (SELECT count(*) FROM filters g WHERE g.name < f.name), 48 FROM filters f;
UPDATE windows SET first = 1301, count = 400 WHERE filter_name = 'mixed_std';
UPDATE windows SET first = 1701, count = 400 WHERE filter_name = 'mixed_auto_blocked';
UPDATE windows SET first = 2101, count = 300 WHERE filter_name = 'groups_over';

INSERT INTO probe_rows(filter_id, key, added, answer)
SELECT f.id, fk.key, 1, bloom_might_contain(f.filter, fk.key)
FROM filters f JOIN filter_keys fk ON fk.filter_name = f.name
ORDER BY f.name, fk.rowid;

INSERT INTO probe_rows(filter_id, key, added, answer)
SELECT f.id, a.key,
       EXISTS (SELECT 1 FROM filter_keys fk WHERE fk.filter_name = f.name AND fk.key = a.key),
       bloom_might_contain(f.filter, a.key)
FROM filters f JOIN windows w ON w.filter_name = f.name
JOIN absent a ON a.j >= w.first AND a.j < w.first + w.count
ORDER BY f.name, a.j;

INSERT INTO probe_rows(filter_id, key, added, answer)
SELECT id, NULL, 0, bloom_might_contain(filter, NULL) FROM filters
WHERE name IN ('edge_std', 'edge_blocked', 'empty', 'one_std');

DROP TABLE filter_keys;
DROP TABLE absent;
DROP TABLE windows;

VACUUM;
