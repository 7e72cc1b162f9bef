-- Use case: which files of a data lake can hold this key? (a catalog of Parquet Bloom filters)
--
-- Orders land in a data lake as Parquet files, one a day: 20 days of 16,384 orders in two row
-- groups each, written by DuckDB, which stores a split-block Bloom filter for each row group
-- of a column it dictionary-encodes, such as customer_id (a customer orders on a day or two
-- of the twenty). "The orders of customer 4242" must otherwise open every file. Read each
-- file's filters once into a SQLite catalog with bloom_parquet_filters, and a lookup opens only
-- the files with a row group whose filter says "maybe": no file that holds the key is skipped,
-- and a file is read in vain only at the filters' false-positive rate.
--
-- Run from the directory that holds lake/, which tests/clients/parquet/lake.js writes with
-- DuckDB's @duckdb/node-api 1.5.6-r.1, found where the test client.parquet installs it (run
-- ctest --test-dir build -R client.parquet once) or where npm install @duckdb/node-api@1.5.6-r.1
-- in the working directory puts it. From the repository's root:
--   node tests/clients/parquet/lake.js .
--   sqlite3 :memory: -cmd ".load build/bloom" < sql/lake_catalog.sql
-- Why DuckDB wrote a filter for customer_id and not for order_id: docs/functions.md, "Parquet
-- files with Bloom filters, from DuckDB".
.headers on
.mode column

-- The lake's files and their sizes, as a catalog keeps them (fsdir is the shell's).
CREATE TABLE lake_files(path TEXT PRIMARY KEY, bytes INTEGER NOT NULL);
INSERT INTO lake_files
SELECT name, length(data) FROM fsdir('lake') WHERE name GLOB 'lake/orders_*.parquet' ORDER BY name;

-- The catalog: every row group's filter of customer_id, from the files' footers.
CREATE TABLE catalog AS
SELECT f.path, p.row_group, p.num_values, p.filter
FROM lake_files f, bloom_parquet_filters(f.path) p
WHERE p.column_path = 'customer_id';

SELECT count(DISTINCT path) AS files, count(*) AS row_groups, sum(num_values) AS orders,
       (SELECT sum(bytes) FROM lake_files) AS lake_bytes, sum(length(filter)) AS catalog_bytes,
       (SELECT DISTINCT json_extract(bloom_info(filter), '$.physical_type') FROM catalog)
         AS physical_type
FROM catalog;

-- Lookups: customers 1 to 1,000 of the 20,000. The files to read for each: those with a row
-- group whose filter may hold it.
CREATE TABLE lookups(customer_id INTEGER PRIMARY KEY);
INSERT INTO lookups SELECT value FROM generate_series(1, 1000);
CREATE TABLE files_to_read AS
SELECT DISTINCT l.customer_id, c.path
FROM lookups l JOIN catalog c ON bloom_might_contain(c.filter, l.customer_id);

.print ''
-- A few of them: the days to read, the files skipped and the bytes not read.
SELECT l.customer_id,
       ifnull((SELECT group_concat(substr(path, 21, 2), ' ')
               FROM (SELECT path FROM files_to_read r WHERE r.customer_id = l.customer_id
                     ORDER BY path)), '-') AS days_to_read,
       (SELECT count(*) FROM lake_files) -
         (SELECT count(*) FROM files_to_read r WHERE r.customer_id = l.customer_id) AS files_skipped,
       (SELECT sum(bytes) FROM lake_files f
        WHERE f.path NOT IN (SELECT path FROM files_to_read r WHERE r.customer_id = l.customer_id))
         AS bytes_not_read
FROM lookups l WHERE l.customer_id IN (1, 2, 3, 42, 500, 999);

.print ''
-- All 1,000: files opened without the catalog and with it, and the bytes of those files.
SELECT (SELECT count(*) FROM lookups) AS lookups,
       (SELECT count(*) FROM lookups, lake_files) AS files_without_catalog,
       (SELECT count(*) FROM files_to_read) AS files_with_catalog,
       printf('%.1f %%', 100.0 - 100.0 * (SELECT count(*) FROM files_to_read) /
                                      (SELECT count(*) FROM lookups, lake_files)) AS skipped,
       (SELECT sum(bytes) FROM lookups, lake_files) AS bytes_without_catalog,
       (SELECT sum(f.bytes) FROM files_to_read r JOIN lake_files f USING (path)) AS bytes_with_catalog;

.print ''
-- The same catalog as a live table of Parquet filters, a row group's filter by name, and its
-- index ('optimize'), so that a lookup by key reads a few rows of the index whatever the number
-- of row groups, not every filter: the files it names are the same.
CREATE VIRTUAL TABLE live_catalog USING bloom;
INSERT INTO live_catalog(name, filter) SELECT path || '#' || row_group, filter FROM catalog;
INSERT INTO live_catalog(live_catalog) VALUES ('optimize');
CREATE TABLE files_by_index AS
SELECT DISTINCT l.customer_id, substr(c.name, 1, instr(c.name, '#') - 1) AS path
FROM lookups l JOIN live_catalog c ON c.key = l.customer_id;
SELECT (SELECT count(*) FROM live_catalog) AS filters,
       (SELECT count(*) FROM live_catalog_chunks WHERE id < 0) AS index_rows,
       (SELECT count(*) FROM files_by_index) AS files_with_index,
       (SELECT count(*) FROM (SELECT * FROM files_by_index EXCEPT SELECT * FROM files_to_read)) +
       (SELECT count(*) FROM (SELECT * FROM files_to_read EXCEPT SELECT * FROM files_by_index))
         AS differences;
