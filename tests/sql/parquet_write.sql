-- bloom_parquet_write(source, destination, column_path, row_group, filter): 'parquet' filters
-- written into a copy of a Parquet file (rule 31 (Parquet writes)), on the fixtures of
-- tests/parquet (their README says what each holds; make_fixtures.cjs, their values), read back
-- by bloom_parquet_filters (rule 29 (Parquet files)). The statements run in a directory of the
-- build's, where the copies go, with a link to the fixtures, parquet/. Hostile sources (an
-- encrypted footer, an encrypted column, a chunk whose data is in another file, truncations) are
-- tests/test_parquet_files.c's, and so are the copies' bytes; client.parquet has DuckDB read what
-- it writes.
--! scratch ../parquet

CREATE TABLE n AS WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 6143)
SELECT i FROM s;

-- no_filters.parquet: ids 0 to 9, no filter. One filter of the column, for every row group
-- (NULL): one chunk given it. Read back, it is the filter given, byte for byte in Parquet's form,
-- right after the data (the source's footer began at byte 92), and holds every id. (The filter
-- comes from FROM: SQLite 3.31 refuses any aggregate of a subquery over a table without FROM,
-- count((SELECT x FROM t)) too, "misuse of aggregate".)
CREATE TABLE ids AS SELECT bloom_build(i, 10, 0.01, 'parquet INT64') AS filter FROM n WHERE i < 10;
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'ids.parquet', 'id', NULL, filter)
FROM ids;
-- => 1
SELECT row_group, column_path, physical_type, length(filter), num_values, bloom_filter_offset,
       bloom_filter_length, created_by, problem,
       bloom_to_parquet(filter) = (SELECT bloom_to_parquet(filter) FROM ids)
FROM bloom_parquet_filters('ids.parquet');
-- => 0|id|INT64|96|10|92|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL|1
SELECT count(*), sum(bloom_might_contain(f.filter, i))
FROM n, bloom_parquet_filters('ids.parquet') f WHERE i < 10;
-- => 10|10
SELECT count(*), sum(bloom_might_contain(f.filter, i))
FROM n, bloom_parquet_filters('ids.parquet') f WHERE i >= 10;
-- => 6134|0
-- The copy as a source: a filter given again replaces the one there (whose bytes stay, unused,
-- in the data: the new one goes after them, at the copy's footer, byte 139).
SELECT bloom_parquet_write('ids.parquet', 'ids_again.parquet', 'id', 0, f)
FROM (SELECT bloom_build(i, 1000, 0.001, 'parquet INT64') AS f FROM n WHERE i < 10);
-- => 1
SELECT row_group, column_path, bloom_filter_offset, bloom_filter_length, length(filter)
FROM bloom_parquet_filters('ids_again.parquet');
-- => 0|id|139|4112|4160

-- types.parquet: 100 rows of every physical type DuckDB writes a filter for. The values of its
-- columns, as SQLite holds them (make_fixtures.cjs).
CREATE TABLE type_values(column_path TEXT, key);
INSERT INTO type_values
SELECT 'i32', i % 7 FROM n WHERE i < 100 UNION ALL
SELECT 'i64', i % 5 FROM n WHERE i < 100 UNION ALL
SELECT 'f32', CAST(i % 3 AS REAL) FROM n WHERE i < 100 UNION ALL
SELECT 'f64', CAST(i % 4 AS REAL) FROM n WHERE i < 100 UNION ALL
SELECT 'txt', 'v' || (i % 6) FROM n WHERE i < 100 UNION ALL
SELECT 'u', CASE i % 3 WHEN 0 THEN x'00000000000000000000000000000000'
                      WHEN 1 THEN x'00000001000000000000000000000000'
                      ELSE x'00000002000000000000000000000000' END FROM n WHERE i < 100 UNION ALL
SELECT 's.a', i % 2 FROM n WHERE i < 100 UNION ALL
SELECT 's.b', 'x' || (i % 3) FROM n WHERE i < 100 UNION ALL
SELECT 'l.list.element', i % 2 FROM n WHERE i < 100 UNION ALL
SELECT 'l.list.element', 10 + i % 3 FROM n WHERE i < 100 UNION ALL
SELECT 'distinct_id', i FROM n WHERE i < 100;
-- A filter of each column, of its type, at 0.1 % (bigger than DuckDB's): distinct_id, which
-- DuckDB gave none (every value distinct), gets one too. Ten rows, one statement: the filters
-- follow the data in the rows' order (distinct_id's at the source's footer, byte 1957), the
-- footer in the file's.
CREATE TABLE type_filters AS
SELECT column_path,
       bloom_build(key, 100, 0.001,
                   'parquet ' || CASE column_path WHEN 'i32' THEN 'INT32' WHEN 's.a' THEN 'INT32'
                                  WHEN 'f32' THEN 'FLOAT' WHEN 'f64' THEN 'DOUBLE'
                                  WHEN 'txt' THEN 'BYTE_ARRAY' WHEN 's.b' THEN 'BYTE_ARRAY'
                                  WHEN 'u' THEN 'FIXED_LEN_BYTE_ARRAY(16)' ELSE 'INT64' END)
       AS filter
FROM type_values GROUP BY column_path;
SELECT bloom_parquet_write('parquet/types.parquet', 'types.parquet', column_path, NULL, filter)
FROM (SELECT * FROM type_filters ORDER BY column_path);
-- => 10
SELECT row_group, column_path, physical_type, length(filter), num_values, bloom_filter_offset,
       bloom_filter_length, problem
FROM bloom_parquet_filters('types.parquet');
-- => 0|i32|INT32|320|100|2773|272|NULL
-- => 0|i64|INT64|320|100|3045|272|NULL
-- => 0|f32|FLOAT|320|100|2229|272|NULL
-- => 0|f64|DOUBLE|320|100|2501|272|NULL
-- => 0|txt|BYTE_ARRAY|320|100|4133|272|NULL
-- => 0|u|FIXED_LEN_BYTE_ARRAY|320|100|4405|272|NULL
-- => 0|s.a|INT32|320|100|3589|272|NULL
-- => 0|s.b|BYTE_ARRAY|320|100|3861|272|NULL
-- => 0|l.list.element|INT64|320|200|3317|272|NULL
-- => 0|distinct_id|INT64|320|100|1957|272|NULL
SELECT count(*), sum(bloom_to_parquet(r.filter) = bloom_to_parquet(t.filter))
FROM bloom_parquet_filters('types.parquet') r JOIN type_filters t USING (column_path);
-- => 10|10
-- Every value of every column found in its filter; values no column holds, mostly not.
SELECT count(*), sum(bloom_might_contain(r.filter, v.key))
FROM bloom_parquet_filters('types.parquet') r JOIN type_values v USING (column_path);
-- => 1100|1100
SELECT count(*), sum(bloom_might_contain(r.filter, CASE WHEN r.physical_type LIKE '%BYTE_ARRAY'
                                                         THEN 'absent' || i ELSE 1000 + i END))
FROM bloom_parquet_filters('types.parquet') r, n WHERE i < 1000;
-- => 10000|1

-- row_groups.parquet: three row groups, each with its own keys ('k0' to 'k99', 'k100' to 'k199',
-- 'k200' to 'k299'). A filter of 'key' for each row group, built by GROUP BY, and one of 'part'
-- for every row group: six chunks, the last three pointing at the one copy of 'part''s filter.
-- Each key found in its own row group's filter (and, at 0.1 %, in no other).
CREATE TABLE keyed AS SELECT i / 2048 AS g, 'k' || (100 * (i / 2048) + i % 100) AS key FROM n;
CREATE TABLE group_filters AS
SELECT g, bloom_build(key, 100, 0.001, 'parquet BYTE_ARRAY') AS filter FROM keyed GROUP BY g;
SELECT bloom_parquet_write('parquet/row_groups.parquet', 'row_groups.parquet', column_path, g,
                           filter)
FROM (SELECT 'key' AS column_path, g, filter FROM group_filters
      UNION ALL SELECT 'part', NULL, bloom_build(g, 3, 0.01, 'parquet INT64') FROM keyed
      ORDER BY 1, 2);
-- => 6
SELECT row_group, column_path, physical_type, bloom_filter_offset, bloom_filter_length
FROM bloom_parquet_filters('row_groups.parquet');
-- => 0|key|BYTE_ARRAY|3033|272
-- => 0|part|INT64|3849|47
-- => 1|key|BYTE_ARRAY|3305|272
-- => 1|part|INT64|3849|47
-- => 2|key|BYTE_ARRAY|3577|272
-- => 2|part|INT64|3849|47
SELECT count(*), sum(bloom_to_parquet(r.filter) = bloom_to_parquet(g.filter))
FROM bloom_parquet_filters('row_groups.parquet') r JOIN group_filters g ON g.g = r.row_group
WHERE r.column_path = 'key';
-- => 3|3
WITH keys AS (SELECT DISTINCT g, key FROM keyed)
SELECT count(*), sum(r.row_group = keys.g),
       sum(bloom_might_contain(r.filter, keys.key) AND r.row_group = keys.g),
       sum(bloom_might_contain(r.filter, keys.key) AND r.row_group != keys.g)
FROM keys JOIN bloom_parquet_filters('row_groups.parquet') r ON r.column_path = 'key';
-- => 900|300|300|0
-- 'part''s filter holds 0, 1 and 2: a filter of the whole column, true of each row group.
SELECT row_group FROM bloom_parquet_filters('row_groups.parquet')
WHERE column_path = 'part' AND bloom_might_contain(filter, 2);
-- => 0
-- => 1
-- => 2

-- @dsnp/parquetjs's file: its 'name' chunk has an offset without a length; given a filter, it
-- has both.
SELECT bloom_parquet_write('parquet/parquetjs.parquet', 'parquetjs.parquet', 'name', 0, f)
FROM (SELECT bloom_build(name, 3, 0.01, 'parquet BYTE_ARRAY') AS f
      FROM (SELECT 'apples' AS name UNION ALL SELECT 'oranges' UNION ALL SELECT 'kiwi'));
-- => 1
SELECT column_path, physical_type, bloom_filter_offset, bloom_filter_length,
       CASE WHEN filter IS NOT NULL THEN bloom_might_contain(filter, 'kiwi') END, problem
FROM bloom_parquet_filters('parquetjs.parquet');
-- => name|BYTE_ARRAY|2474|47|1|NULL
-- => quantity|INT64|1364|NULL|NULL|written by @dsnp/parquetjs, which hashes a number as its decimal text, not as Parquet's plain encoding: its filter would miss values the column holds

-- Over no row: NULL, and no file (the same destination is written next).
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', NULL, filter)
FROM ids WHERE 0;
-- => NULL

-- Errors, each naming the function and the value. Each after the first row leaves no file: the
-- next statement, which writes the same destination, would find it (and say so).
SELECT bloom_parquet_write(42, 'later.parquet', 'id', NULL, filter) FROM ids;
-- error: bloom_parquet_write: source must be TEXT, the path of a file, got 42
SELECT bloom_parquet_write('parquet/no_filters.parquet' || char(0), 'later.parquet', 'id', NULL,
                           filter) FROM ids;
-- error: bloom_parquet_write: source must be TEXT without NUL, got 'parquet/no_filters.parquet\x00'
SELECT bloom_parquet_write('parquet/no_filters.parquet', NULL, 'id', NULL, filter) FROM ids;
-- error: bloom_parquet_write: destination must be TEXT, the path of a file, got NULL
SELECT bloom_parquet_write('no such file.parquet', 'later.parquet', 'id', NULL, filter)
FROM ids;
-- error: bloom_parquet_write: cannot open source 'no such file.parquet': No such file or directory
SELECT bloom_parquet_write('.', 'later.parquet', 'id', NULL, filter) FROM ids;
-- error: bloom_parquet_write: cannot open source '.': Is a directory
SELECT bloom_parquet_write('parquet/README.md', 'later.parquet', 'id', NULL, filter) FROM ids;
-- error: bloom_parquet_write: source 'parquet/README.md': not a Parquet file: no PAR1 at its end
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'parquet/types.parquet', 'id', NULL,
                           filter) FROM ids;
-- error: bloom_parquet_write: destination 'parquet/types.parquet' exists: the function writes a new file, never over one
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'no such directory/ids.parquet', 'id',
                           NULL, filter) FROM ids;
-- error: bloom_parquet_write: cannot create destination 'no such directory/ids.parquet': No such file or directory
SELECT bloom_parquet_write('parquet/types.parquet', 'later.parquet', 'nope', NULL, filter)
FROM ids;
-- error: bloom_parquet_write: no column 'nope' in source 'parquet/types.parquet'; its columns are 'i32', 'i64', 'f32', 'f64', 'txt', 'u', 's.a', 's.b', 'l.list.element', 'distinct_id', 'flag'
SELECT bloom_parquet_write('parquet/types.parquet', 'later.parquet', 's', NULL, filter) FROM ids;
-- error: bloom_parquet_write: no column 's' in source 'parquet/types.parquet'; its columns are 'i32', 'i64', 'f32', 'f64', 'txt', 'u', 's.a', 's.b', 'l.list.element', 'distinct_id', 'flag'
SELECT bloom_parquet_write('parquet/types.parquet', 'later.parquet', NULL, NULL, filter)
FROM ids;
-- error: bloom_parquet_write: column_path must be TEXT, a column's path_in_schema joined by '.', got NULL
SELECT bloom_parquet_write('parquet/row_groups.parquet', 'later.parquet', 'part', 3, filter)
FROM ids;
-- error: bloom_parquet_write: row_group 3 is not in source 'parquet/row_groups.parquet', whose row groups are 0 to 2
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', -1, filter)
FROM ids;
-- error: bloom_parquet_write: row_group -1 is not in source 'parquet/no_filters.parquet', whose only row group is 0
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', 0.0, filter)
FROM ids;
-- error: bloom_parquet_write: row_group must be an INTEGER from 0, or NULL for every row group, got 0.0
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', '0', filter)
FROM ids;
-- error: bloom_parquet_write: row_group must be an INTEGER from 0, or NULL for every row group, got '0'
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', NULL, NULL);
-- error: bloom_parquet_write: the filter for column 'id' of source 'parquet/no_filters.parquet' is NULL: a subquery that found no row? (an empty filter is bloom_empty(n, p, 'parquet INT64'))
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', NULL, x'00');
-- error: bloom_parquet_write: not a Bloom filter: length 1 is shorter than the 64-byte header
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', NULL,
                           bloom_empty(10, 0.01));
-- error: bloom_parquet_write: the filter for column 'id' of source 'parquet/no_filters.parquet' is a 'standard' filter, not a Parquet one; build one with bloom_build(key, n, p, 'parquet INT64')
SELECT bloom_parquet_write('parquet/types.parquet', 'later.parquet', 'i32', NULL,
                           bloom_empty(10, 0.01, 'parquet INT64'));
-- error: bloom_parquet_write: column 'i32' of source 'parquet/types.parquet' is INT32, the filter INT64; build it with bloom_build(key, n, p, 'parquet INT32')
SELECT bloom_parquet_write('parquet/types.parquet', 'later.parquet', 'f64', NULL,
                           bloom_empty(10, 0.01, 'parquet'));
-- error: bloom_parquet_write: column 'f64' of source 'parquet/types.parquet' is DOUBLE, the filter has no type yet; build it with bloom_build(key, n, p, 'parquet DOUBLE')
SELECT bloom_parquet_write('parquet/types.parquet', 'later.parquet', 'u', NULL,
                           bloom_empty(10, 0.01, 'parquet FIXED_LEN_BYTE_ARRAY(8)'));
-- error: bloom_parquet_write: column 'u' of source 'parquet/types.parquet' is FIXED_LEN_BYTE_ARRAY(16), the filter FIXED_LEN_BYTE_ARRAY(8); build it with bloom_build(key, n, p, 'parquet FIXED_LEN_BYTE_ARRAY(16)')
SELECT bloom_parquet_write('parquet/types.parquet', 'later.parquet', 'flag', NULL,
                           bloom_empty(10, 0.01, 'parquet INT32'));
-- error: bloom_parquet_write: column 'flag' of source 'parquet/types.parquet' is BOOLEAN, which no 'parquet' filter is
-- A chunk named twice: by NULL (every row group) and by its row group.
SELECT bloom_parquet_write('parquet/row_groups.parquet', 'later.parquet', 'part', g, filter)
FROM (SELECT NULL AS g, bloom_empty(10, 0.01, 'parquet INT64') AS filter
      UNION ALL SELECT 1, bloom_empty(10, 0.01, 'parquet INT64'));
-- error: bloom_parquet_write: row group 1 of column 'part' of source 'parquet/row_groups.parquet' is given a filter twice
SELECT bloom_parquet_write(source, 'later.parquet', 'id', NULL, filter)
FROM (SELECT 'parquet/no_filters.parquet' AS source UNION ALL SELECT 'parquet/types.parquet'), ids;
-- error: bloom_parquet_write: source must be the same for all rows of a group, got 'parquet/types.parquet' after 'parquet/no_filters.parquet'
SELECT bloom_parquet_write('parquet/row_groups.parquet', destination, 'part', g, filter)
FROM (SELECT 'later.parquet' AS destination, 0 AS g
      UNION ALL SELECT 'other.parquet', 1),
     (SELECT bloom_empty(10, 0.01, 'parquet INT64') AS filter);
-- error: bloom_parquet_write: destination must be the same for all rows of a group, got 'other.parquet' after 'later.parquet'
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', NULL);
-- error: bloom_parquet_write: wrong number of arguments (4); the form is bloom_parquet_write(source, destination, column_path, row_group, filter)
-- A footer longer than SQLITE_LIMIT_LENGTH is refused, as bloom_parquet_filters refuses it.
--! limit length 1000
SELECT bloom_parquet_write('parquet/types.parquet', 'later.parquet', 'i64', NULL, filter)
FROM ids;
-- error TOOBIG: bloom_parquet_write: source 'parquet/types.parquet': a footer of 1135 bytes, more than SQLITE_LIMIT_LENGTH (1000)
--! limit length 1000000000
-- After every error, the destination is not there: written now.
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', NULL, filter)
FROM ids;
-- => 1
-- Never over a file: not the one just written, not a source's.
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'later.parquet', 'id', NULL, filter)
FROM ids;
-- error: bloom_parquet_write: destination 'later.parquet' exists: the function writes a new file, never over one
SELECT count(*), sum(bloom_filter_offset) FROM bloom_parquet_filters('parquet/types.parquet');
-- => 9|15498

-- SQLite ends the group of a statement it abandons too, and does not say so: an error in another
-- expression of a later row leaves the copy with the filters of the rows before, each true of its
-- chunks, the others as they were (DuckDB's; rule 31 (Parquet writes): compute the filters
-- first).
SELECT bloom_parquet_write('parquet/row_groups.parquet', 'abandoned.parquet', 'key', g,
                           CASE g WHEN 0 THEN (SELECT filter FROM group_filters WHERE g = 0)
                                  ELSE bloom_empty(-g, 0.01) END)
FROM (SELECT 0 AS g UNION ALL SELECT 1);
-- error: bloom_empty: n must be a whole number >= 1, got -1
SELECT row_group, bloom_filter_offset, bloom_filter_length, bloom_might_contain(filter, 'k1')
FROM bloom_parquet_filters('abandoned.parquet') WHERE column_path = 'key';
-- => 0|3033|272|1
-- => 1|2651|144|0
-- => 2|2842|144|0

-- DIRECTONLY: not from a view or a trigger, which a database file could bring.
CREATE VIEW write_view AS
SELECT bloom_parquet_write('parquet/no_filters.parquet', 'view.parquet', 'id', NULL, filter)
FROM ids;
SELECT * FROM write_view;
-- error: unsafe use of bloom_parquet_write()
CREATE TABLE log(n INTEGER);
CREATE TRIGGER log_write AFTER INSERT ON log BEGIN
  SELECT bloom_parquet_write('parquet/no_filters.parquet', 'trigger.parquet', 'id', NULL, filter)
  FROM ids;
END;
INSERT INTO log VALUES (1);
-- error: unsafe use of bloom_parquet_write()
