-- bloom_parquet_filters(path): the Bloom filters of a Parquet file (rule 29 (Parquet files)),
-- on the fixtures of tests/parquet (written by DuckDB 1.5.6 and @dsnp/parquetjs 1.8.7; their
-- README says what each holds). The files a file's own bytes make hostile are
-- tests/test_parquet_files.c's.
--! chdir ../parquet

-- Every column chunk with a filter, in the footer's order: DuckDB writes none for distinct_id
-- (not dictionary-encoded) or flag (BOOLEAN).
SELECT row_group, column_path, physical_type, length(filter), num_values, bloom_filter_offset,
       bloom_filter_length, created_by, problem
FROM bloom_parquet_filters('types.parquet');
-- => 0|i32|INT32|96|100|1534|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL
-- => 0|i64|INT64|96|100|1581|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL
-- => 0|f32|FLOAT|96|100|1628|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL
-- => 0|f64|DOUBLE|96|100|1675|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL
-- => 0|txt|BYTE_ARRAY|96|100|1722|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL
-- => 0|u|FIXED_LEN_BYTE_ARRAY|96|100|1769|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL
-- => 0|s.a|INT32|96|100|1816|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL
-- => 0|s.b|BYTE_ARRAY|96|100|1863|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL
-- => 0|l.list.element|INT64|96|200|1910|47|DuckDB version v1.5.6 (build 069cc9f9b5)|NULL

-- Each filter is a 'parquet' filter of the column's type (n, p and keys added not known).
SELECT column_path, json_extract(bloom_info(filter), '$.layout'),
       json_extract(bloom_info(filter), '$.physical_type'),
       json_extract(bloom_info(filter), '$.type_length'), json_extract(bloom_info(filter), '$.blocks'),
       json_extract(bloom_info(filter), '$.n'), json_extract(bloom_info(filter), '$.keys_added')
FROM bloom_parquet_filters('types.parquet') WHERE column_path IN ('i32', 'u', 'txt');
-- => i32|parquet|INT32|NULL|1|NULL|0
-- => txt|parquet|BYTE_ARRAY|NULL|1|NULL|0
-- => u|parquet|FIXED_LEN_BYTE_ARRAY|16|1|NULL|0
-- bloom_to_parquet gives back what DuckDB stored: its 15-byte header, then the bitset
-- (tests/test_parquet_files.c compares them with the file's bytes).
SELECT count(*), sum(length(bloom_to_parquet(filter)) = bloom_filter_length),
       group_concat(DISTINCT hex(substr(bloom_to_parquet(filter), 1, 15)))
FROM bloom_parquet_filters('types.parquet');
-- => 9|9|15401C1C00001C1C00001C1C000000

-- The values the file holds are found in their column's filter; others are not.
CREATE TABLE probes(column_path TEXT, key, present INTEGER);
INSERT INTO probes VALUES
  ('i32', 0, 1), ('i32', 6, 1), ('i32', 7, 0), ('i32', -1, 0),
  ('i64', 0, 1), ('i64', 4, 1), ('i64', 5, 0),
  ('f32', 0.0, 1), ('f32', 2.0, 1), ('f32', 3.0, 0), ('f32', 0.5, 0),
  ('f64', 0.0, 1), ('f64', 3.0, 1), ('f64', 4.0, 0),
  ('txt', 'v0', 1), ('txt', 'v5', 1), ('txt', 'v6', 0), ('txt', 'V0', 0),
  ('u', x'00000000000000000000000000000000', 1), ('u', x'00000002000000000000000000000000', 1),
  ('u', x'00000003000000000000000000000000', 0),
  ('s.a', 0, 1), ('s.a', 1, 1), ('s.a', 2, 0),
  ('s.b', 'x0', 1), ('s.b', 'x2', 1), ('s.b', 'x3', 0),
  ('l.list.element', 0, 1), ('l.list.element', 12, 1), ('l.list.element', 2, 0);
SELECT count(*), sum(bloom_might_contain(f.filter, p.key) = p.present)
FROM probes p JOIN bloom_parquet_filters('types.parquet') f USING (column_path);
-- => 30|30

-- Three row groups, each with its own keys: a catalog finds the row group that may hold a key.
SELECT row_group, column_path, bloom_filter_length FROM bloom_parquet_filters('row_groups.parquet');
-- => 0|key|144
-- => 0|part|47
-- => 1|key|144
-- => 1|part|47
-- => 2|key|144
-- => 2|part|47
SELECT row_group FROM bloom_parquet_filters('row_groups.parquet')
WHERE column_path = 'key' AND bloom_might_contain(filter, 'k120');
-- => 1
-- Every key of the file against every row group's filter: each found in its own row group, and
-- in another for 7 keys, which DuckDB 1.5.6's parquet_bloom_probe answers the same (its small
-- filters' false positives): the same 900 answers.
WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < 299),
  found AS (SELECT n.k, (SELECT group_concat(row_group, ',') FROM
                           (SELECT row_group FROM bloom_parquet_filters('row_groups.parquet')
                            WHERE column_path = 'key' AND bloom_might_contain(filter, 'k' || n.k)
                            ORDER BY row_group)) AS groups FROM n)
SELECT sum(groups = CAST(k / 100 AS TEXT)),
       group_concat(CASE WHEN groups != CAST(k / 100 AS TEXT) THEN 'k' || k || ':' || groups END, ' ')
FROM found;
-- => 293|k150:1,2 k184:0,1 k215:0,2 k257:1,2 k261:1,2 k271:0,2 k298:0,2
SELECT row_group FROM bloom_parquet_filters('row_groups.parquet')
WHERE column_path = 'part' AND bloom_might_contain(filter, 2);
-- => 2

-- @dsnp/parquetjs: bloom_filter_offset without bloom_filter_length (NULL here), the header's
-- unions empty; the length comes from the header. It hashes a number as its decimal text: its
-- INT64 filter holds the hashes of '10', '20' and '30', so that it would answer 0 for 30, a
-- value the column holds. That filter is a problem, not a filter: its column must be read (a
-- probe of its NULL filter is an error, rule 7 (probe)).
SELECT column_path, physical_type, length(filter), bloom_filter_offset, bloom_filter_length,
       created_by, CASE WHEN filter IS NOT NULL THEN bloom_might_contain(filter, 'kiwi') END,
       CASE WHEN filter IS NOT NULL THEN bloom_might_contain(filter, 'pear') END, problem
FROM bloom_parquet_filters('parquetjs.parquet');
-- => name|BYTE_ARRAY|1088|330|NULL|@dsnp/parquetjs|1|0|NULL
-- => quantity|INT64|NULL|1364|NULL|@dsnp/parquetjs|NULL|NULL|written by @dsnp/parquetjs, which hashes a number as its decimal text, not as Parquet's plain encoding: its filter would miss values the column holds

-- A file without filters has no rows; a NULL path neither.
SELECT count(*) FROM bloom_parquet_filters('no_filters.parquet');
-- => 0
SELECT count(*) FROM bloom_parquet_filters(NULL);
-- => 0

-- The path is a hidden column; a join gives each file's filters.
CREATE TABLE files(path TEXT);
INSERT INTO files VALUES ('types.parquet'), ('row_groups.parquet'), ('no_filters.parquet'), (NULL);
SELECT files.path, count(f.row_group) FROM files LEFT JOIN bloom_parquet_filters(files.path) f
GROUP BY files.path ORDER BY files.path;
-- => NULL|0
-- => no_filters.parquet|0
-- => row_groups.parquet|6
-- => types.parquet|9
SELECT DISTINCT path FROM bloom_parquet_filters('types.parquet');
-- => types.parquet

-- A filter read into a catalog table.
CREATE TABLE catalog AS SELECT 'row_groups.parquet' AS file, * FROM bloom_parquet_filters('row_groups.parquet');
SELECT file, row_group FROM catalog WHERE column_path = 'key' AND bloom_might_contain(filter, 'k42');
-- => row_groups.parquet|0

-- Errors name the function and the path.
SELECT * FROM bloom_parquet_filters('no such file.parquet');
-- error: bloom_parquet_filters: cannot open 'no such file.parquet': No such file or directory
SELECT * FROM bloom_parquet_filters('.');
-- error: bloom_parquet_filters: cannot open '.': Is a directory
SELECT * FROM bloom_parquet_filters('README.md');
-- error: bloom_parquet_filters: 'README.md': not a Parquet file: no PAR1 at its end
SELECT * FROM bloom_parquet_filters(42);
-- error: bloom_parquet_filters: the path must be TEXT, got 42
SELECT * FROM bloom_parquet_filters(CAST('types.parquet' AS BLOB));
-- error: bloom_parquet_filters: the path must be TEXT, got a BLOB of 13 bytes
SELECT * FROM bloom_parquet_filters('types.parquet' || char(0));
-- error: bloom_parquet_filters: the path must be TEXT without NUL, got 'types.parquet\x00'
SELECT * FROM bloom_parquet_filters;
-- error: bloom_parquet_filters: needs the path of a Parquet file: SELECT * FROM bloom_parquet_filters('file.parquet')
SELECT * FROM bloom_parquet_filters('types.parquet', 1);
-- error: too many arguments on bloom_parquet_filters() - max 1

-- DIRECTONLY: not from a view or a trigger, which a database file could bring.
CREATE VIEW filters_view AS SELECT * FROM bloom_parquet_filters('types.parquet');
SELECT count(*) FROM filters_view;
-- error: unsafe use of virtual table "bloom_parquet_filters"
CREATE TABLE log(n INTEGER);
CREATE TRIGGER log_filters AFTER INSERT ON log BEGIN
  INSERT INTO catalog(file) SELECT 'x' FROM bloom_parquet_filters('types.parquet');
END;
INSERT INTO log VALUES (1);
-- error: unsafe use of virtual table "bloom_parquet_filters"
DROP TRIGGER log_filters;
DROP VIEW filters_view;

-- A footer longer than SQLITE_LIMIT_LENGTH is refused; a filter longer than it is a problem.
--! limit length 1000
SELECT count(*) FROM bloom_parquet_filters('types.parquet');
-- error TOOBIG: bloom_parquet_filters: 'types.parquet': a footer of 1135 bytes, more than SQLITE_LIMIT_LENGTH (1000)
SELECT column_path, filter, problem FROM bloom_parquet_filters('parquetjs.parquet');
-- => name|NULL|its filter would be 1088 bytes, more than SQLITE_LIMIT_LENGTH (1000)
-- => quantity|NULL|written by @dsnp/parquetjs, which hashes a number as its decimal text, not as Parquet's plain encoding: its filter would miss values the column holds
--! limit length 1000000000
