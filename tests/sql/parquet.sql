-- The Parquet split-block kind ('parquet', kind 7): rule 27 (Parquet filters), sentence by
-- sentence, and its bytes (docs/format.md section 4.7). What every kind does: tests/sql/kinds.sql;
-- the bytes of Parquet files (rule 28 (Parquet bytes)): tests/sql/parquet_bytes.sql, whose
-- bloom_from_parquet makes here the filters of the types only a Parquet file has (INT32, FLOAT,
-- INT96, FIXED_LEN_BYTE_ARRAY).

-- 1. Hashed as Parquet hashes them: format.md's vectors, in a filter of z = 5 blocks (a bitset
-- of 160 bytes after the header Parquet's writers write, numBytes zigzag 320): the block of
-- each key, one bit in each of its eight words, and no other bit.
CREATE TABLE z5 AS
SELECT column1 AS t, bloom_from_parquet(CAST(x'15C0021C1C00001C1C00001C1C000000' || zeroblob(160) AS BLOB),
                                        column1) AS f
FROM (VALUES ('INT32'), ('INT64'), ('FLOAT'), ('DOUBLE'), ('BYTE_ARRAY'));
SELECT hex(substr(bloom_add(f, 5), 65 + 32 * 3, 32)), json_extract(bloom_info(bloom_add(f, 5)), '$.bits_set'),
       hex(substr(bloom_add(f, 4294967295), 65 + 32 * 2, 32))
FROM z5 WHERE t = 'INT32';
-- => 0000200000000001020000000800000002000000002000000010000000000004|8|0001000000000020400000000010000008000000040000000000000204000000
SELECT hex(substr(bloom_add(f, 5), 65 + 32 * 2, 32)), json_extract(bloom_info(bloom_add(f, 5)), '$.bits_set'),
       hex(substr(bloom_add(f, -1.0), 65 + 32 * 2, 32))
FROM z5 WHERE t = 'INT64';
-- => 0080000000080000000100000000000800010000004000004000000000004000|8|0000000200080000200000000000001010000000040000000000100000000040
SELECT t, hex(substr(bloom_add(f, 1.5), 65 + 32 * 1, 32)) FROM z5 WHERE t IN ('FLOAT', 'DOUBLE') ORDER BY t;
-- => DOUBLE|0000000400000400000040000100000001000000800000000000400000000008
-- => FLOAT|0000040000004000000020000000080000000100000004000008000000200000
SELECT hex(substr(bloom_add(f, 'hello'), 65, 32)), bloom_add(f, 'hello') = bloom_add(f, x'68656C6C6F')
FROM z5 WHERE t = 'BYTE_ARRAY';
-- => 0000100000020000000400008000000000020000000000800000001000000008|1

-- 2. A filter that holds no key yet has no type; its first key gives it one: an INTEGER INT64,
-- a REAL DOUBLE, a TEXT or BLOB BYTE_ARRAY.
SELECT json_extract(bloom_info(bloom_empty(10, 0.01, 'parquet')), '$.physical_type') IS NULL,
       json_extract(bloom_info(bloom_empty(10, 0.01, 'parquet')), '$.keys_added');
-- => 1|0
SELECT typeof(k), json_extract(bloom_info(bloom_build(k, 10, 0.01, 'parquet')), '$.physical_type'),
       json_extract(bloom_info(bloom_add(bloom_empty(10, 0.01, 'parquet'), k)), '$.physical_type')
FROM (SELECT 7 AS k UNION ALL SELECT 7.5 UNION ALL SELECT 'seven' UNION ALL SELECT x'07')
GROUP BY typeof(k) ORDER BY typeof(k);
-- => blob|BYTE_ARRAY|BYTE_ARRAY
-- => integer|INT64|INT64
-- => real|DOUBLE|DOUBLE
-- => text|BYTE_ARRAY|BYTE_ARRAY
-- A NULL is no key (rule 6 (nulls and groups)): it gives no type, and adds nothing.
SELECT bloom_add(bloom_empty(10, 0.01, 'parquet'), NULL) = bloom_empty(10, 0.01, 'parquet');
-- => 1
-- In bloom_build, the first key of the group: each group its own type, in the order of its rows.
CREATE TABLE typed(g INTEGER, i INTEGER, k, PRIMARY KEY (g, i)) WITHOUT ROWID;
INSERT INTO typed VALUES (1, 1, NULL), (1, 2, 2), (1, 3, 3.0), (2, 1, NULL), (2, 2, 'x'), (2, 3, x'79'),
                         (3, 1, 2.5), (3, 2, 3), (4, 1, 3), (4, 2, 2.5);
SELECT g, json_extract(bloom_info(bloom_build(k, 10, 0.01, 'parquet')), '$.physical_type'),
       json_extract(bloom_info(bloom_build(k, 10, 0.01, 'parquet')), '$.keys_added')
FROM typed WHERE g < 4 GROUP BY g ORDER BY g;
-- => 1|INT64|2
-- => 2|BYTE_ARRAY|2
-- => 3|DOUBLE|2
SELECT bloom_build(k, 10, 0.01, 'parquet') FROM typed WHERE g = 4;
-- error: bloom_build: the key 2.5 is not a value of the filter's type, INT64; nothing was added

-- ... unless the kind names it: 'parquet' and a physical type, in any case, in bloom_build,
-- bloom_empty and a live table's kind. Then the first key no longer decides: an INT32 filter
-- built from INTEGERs is the filter bloom_from_parquet makes of that type, with the same keys
-- added, to the byte of what a Parquet writer stores.
SELECT json_extract(bloom_info(bloom_empty(10, 0.01, column1)), '$.physical_type'),
       json_extract(bloom_info(bloom_empty(10, 0.01, column1)), '$.keys_added')
FROM (VALUES ('parquet INT32'), ('Parquet float'), ('parquet FIXED_LEN_BYTE_ARRAY(16)'),
             ('PARQUET BYTE_ARRAY'), ('parquet INT96'));
-- => INT32|0
-- => FLOAT|0
-- => FIXED_LEN_BYTE_ARRAY|0
-- => BYTE_ARRAY|0
-- => INT96|0
CREATE TABLE int32s(g INTEGER, k);
INSERT INTO int32s VALUES (1, 5), (1, -7), (1, 4294967295), (1, 2.0), (2, 1.5), (3, 'x'), (4, 2147483648);
SELECT bloom_to_parquet(bloom_build(k, 100, 0.01, 'parquet INT32')) =
       bloom_to_parquet(bloom_add(bloom_add(bloom_add(bloom_add(
           bloom_from_parquet(bloom_to_parquet(bloom_empty(100, 0.01, 'parquet')), 'INT32'),
           5), -7), 4294967295), 2.0)),
       json_extract(bloom_info(bloom_build(k, 100, 0.01, 'parquet INT32')), '$.physical_type'),
       bloom_might_contain(bloom_build(k, 100, 0.01, 'parquet INT32'), -1)
FROM int32s WHERE g = 1;
-- => 1|INT32|1
SELECT json_extract(bloom_info(bloom_build(k, NULL, 0.01, 'parquet DOUBLE')), '$.physical_type'),
       bloom_might_contain(bloom_build(k, NULL, 0.01, 'parquet DOUBLE'), 5.0)
FROM int32s WHERE g = 1;
-- => DOUBLE|1
SELECT bloom_build(k, 100, 0.01, 'parquet INT32') FROM int32s WHERE g = 2;
-- error: bloom_build: the key 1.5 is not a value of the filter's type, INT32; nothing was added
SELECT bloom_build(k, 100, 0.01, 'parquet INT32') FROM int32s WHERE g = 3;
-- error: bloom_build: the key 'x' is not a value of the filter's type, INT32; nothing was added
SELECT bloom_build(k, 100, 0.01, 'parquet FLOAT') FROM int32s WHERE g = 1;
-- error: bloom_build: the key 4294967295 is not a value of the filter's type, FLOAT; nothing was added
SELECT bloom_build(k, 100, 0.01, 'parquet FIXED_LEN_BYTE_ARRAY(2)') FROM (SELECT x'0102' AS k UNION ALL SELECT x'010203');
-- error: bloom_build: the key a BLOB of 3 bytes is not a value of the filter's type, FIXED_LEN_BYTE_ARRAY(2); nothing was added
-- A live table's filters take the type of its kind.
CREATE VIRTUAL TABLE days USING bloom(kind = 'parquet INT32', n = 1000, p = 0.01);
INSERT INTO days(key) VALUES (20426), (4294967295);
SELECT count(*) FROM days WHERE key = 20426;
-- => 1
SELECT count(*) FROM days WHERE key = -1;
-- => 1
SELECT json_extract(bloom_info(filter), '$.physical_type') FROM days;
-- => INT32
INSERT INTO days(key) VALUES ('2025-12-05');
-- error: days: the key '2025-12-05' is not a value of the filter's type, INT32; nothing was added
DROP TABLE days;
-- A type the kind cannot name, and a kind that names none, are errors; so is a kind that
-- changes within a group, its type too, as any parameter (rule 3 (parameters)).
SELECT bloom_empty(10, 0.01, 'parquet INT8');
-- error: bloom_empty: a 'parquet' kind may name a physical type: 'parquet INT32', 'parquet INT64', 'parquet INT96', 'parquet FLOAT', 'parquet DOUBLE', 'parquet BYTE_ARRAY', 'parquet FIXED_LEN_BYTE_ARRAY' or 'parquet FIXED_LEN_BYTE_ARRAY(length)', got 'parquet INT8'
SELECT bloom_build(k, 10, 0.01, 'parquet ') FROM int32s;
-- error: bloom_build: a 'parquet' kind may name a physical type: 'parquet INT32', 'parquet INT64', 'parquet INT96', 'parquet FLOAT', 'parquet DOUBLE', 'parquet BYTE_ARRAY', 'parquet FIXED_LEN_BYTE_ARRAY' or 'parquet FIXED_LEN_BYTE_ARRAY(length)', got 'parquet '
CREATE VIRTUAL TABLE days USING bloom(kind = 'parquet BOOLEAN', n = 1000, p = 0.01);
-- error: days: a 'parquet' kind may name a physical type: 'parquet INT32', 'parquet INT64', 'parquet INT96', 'parquet FLOAT', 'parquet DOUBLE', 'parquet BYTE_ARRAY', 'parquet FIXED_LEN_BYTE_ARRAY' or 'parquet FIXED_LEN_BYTE_ARRAY(length)', got 'parquet BOOLEAN'
SELECT bloom_build(k, 10, 0.01, 'blocked INT32') FROM int32s;
-- error: bloom_build: kind must be 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'parquet', 'fuse' or 'spark', got 'blocked INT32'
SELECT bloom_build(k, 100, 0.01, CASE WHEN k = -7 THEN 'parquet INT64' ELSE 'parquet INT32' END)
FROM int32s WHERE g = 1;
-- error: bloom_build: kind must be the same for all rows of a group, got 'parquet INT64' after 'parquet INT32'
SELECT bloom_build(k, 100, 0.01, CASE WHEN k = -7 THEN 'parquet' ELSE 'parquet INT32' END)
FROM int32s WHERE g = 1;
-- error: bloom_build: kind must be the same for all rows of a group, got 'parquet' after 'parquet INT32'
SELECT bloom_build(k, 100, 0.01, CASE WHEN k = -7 THEN 'PARQUET int32' ELSE 'parquet INT32' END) IS NOT NULL
FROM int32s WHERE g = 1;
-- => 1

-- 3. Every key is then taken as a value of that type, as a Parquet reader compares values: a
-- number as the value it equals, so that 1 and 1.0 are one key wherever the type holds them.
-- INT64: 1.0 is the key 1, added or probed; DOUBLE: 1 is the key 1.0.
SELECT (SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 1 AS k UNION ALL SELECT 1.0))
     = (SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 1 AS k UNION ALL SELECT 1)),
       (SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 1.0 AS k UNION ALL SELECT 1))
     = (SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 1.0 AS k UNION ALL SELECT 1.0));
-- => 1|1
SELECT bloom_might_contain(bloom_build(1, 10, 0.01, 'parquet'), 1.0),
       bloom_might_contain(bloom_build(1.0, 10, 0.01, 'parquet'), 1),
       substr(bloom_add(bloom_build(1, 10, 0.01, 'parquet'), 1.0), 65) = substr(bloom_build(1, 10, 0.01, 'parquet'), 65),
       substr(bloom_add(bloom_build(1.0, 10, 0.01, 'parquet'), 1), 65) = substr(bloom_build(1.0, 10, 0.01, 'parquet'), 65);
-- => 1|1|1|1
-- INT64 holds a REAL with no fraction from -2^63 to below 2^64 as its low 64 bits (format.md
-- 4.7): 2^63 is the bits of -2^63, 2^64 - 2048 those of -2048.
SELECT bloom_might_contain(bloom_build(-9223372036854775808, 10, 0.01, 'parquet'), 9223372036854775808.0),
       bloom_might_contain(bloom_build(-2048, 10, 0.01, 'parquet'), 18446744073709549568.0),
       bloom_might_contain(bloom_build(-2048, 10, 0.01, 'parquet'), -2048.0);
-- => 1|1|1
-- DOUBLE holds an INTEGER that a binary64 holds exactly: 2^53, not 2^53 + 1.
SELECT bloom_might_contain(bloom_build(9007199254740992.0, 10, 0.01, 'parquet'), 9007199254740992),
       bloom_might_contain(bloom_build(-9223372036854775808.0, 10, 0.01, 'parquet'), -9223372036854775808);
-- => 1|1
-- 0.0 and -0.0 are one key: a DOUBLE zero is added as both zeros' encodings (8 zero bytes, and
-- the sign bit alone: the plain encodings of the INT64 values 0 and -2^63), and found by
-- either; an INT64 filter takes both as 0.
SELECT bloom_build(0.0, 10, 0.01, 'parquet') = bloom_build(-0.0, 10, 0.01, 'parquet'),
       substr(bloom_build(-0.0, 10, 0.01, 'parquet'), 65)
       = (SELECT substr(bloom_build(k, 10, 0.01, 'parquet'), 65) FROM (SELECT 0 AS k UNION ALL SELECT -9223372036854775808)),
       bloom_might_contain(bloom_build(0.0, 10, 0.01, 'parquet'), -0.0),
       bloom_might_contain(bloom_build(-0.0, 10, 0.01, 'parquet'), 0.0),
       bloom_might_contain(bloom_build(-0.0, 10, 0.01, 'parquet'), 0),
       bloom_might_contain(bloom_build(0, 10, 0.01, 'parquet'), -0.0),
       bloom_might_contain(bloom_build(0, 10, 0.01, 'parquet'), 0.0);
-- => 1|1|1|1|1|1|1
-- A DOUBLE filter of a Parquet file holds the zero its writer hashed, either one: both zeros
-- find it.
SELECT bloom_might_contain(d, 0.0), bloom_might_contain(d, -0.0), bloom_might_contain(d, 0)
FROM (SELECT bloom_from_parquet(bloom_to_parquet(bloom_build(0, 10, 0.01, 'parquet')), 'DOUBLE') AS d
      UNION ALL
      SELECT bloom_from_parquet(bloom_to_parquet(bloom_build(-9223372036854775808, 10, 0.01, 'parquet')), 'DOUBLE'));
-- => 1|1|1
-- => 1|1|1

-- 4. A TEXT as its UTF-8 bytes and a BLOB as its bytes: 'abc' and x'616263' are one key, as in
-- a Parquet string column.
SELECT bloom_build('abc', 10, 0.01, 'parquet') = bloom_build(x'616263', 10, 0.01, 'parquet'),
       bloom_might_contain(bloom_build('abc', 10, 0.01, 'parquet'), x'616263'),
       bloom_might_contain(bloom_build(x'616263', 10, 0.01, 'parquet'), 'abc'),
       bloom_might_contain(bloom_build('é', 10, 0.01, 'parquet'), x'C3A9'),
       bloom_might_contain(bloom_build(x'', 10, 0.01, 'parquet'), ''),
       bloom_might_contain(bloom_build('abc', 10, 0.01, 'parquet'), 'ABC');
-- => 1|1|1|1|1|0
SELECT (SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 'abc' AS k UNION ALL SELECT x'616263'))
     = (SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 'abc' AS k UNION ALL SELECT 'abc'));
-- => 1

-- 5. A key that no value of the type equals is certainly absent: bloom_might_contain answers 0,
-- even where every bit is set. 2,000 keys in one block (a filter for 10) set all its 256 bits:
-- every INTEGER then probes 1, and every other number 0.
CREATE TABLE saturated AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000)
SELECT bloom_build(i, 10, 0.01, 'parquet') AS f FROM s;
SELECT json_extract(bloom_info(f), '$.blocks'), json_extract(bloom_info(f), '$.bits_set'),
       bloom_might_contain(f, 123456789), bloom_might_contain(f, 123456789.0),
       bloom_might_contain(f, 1.5), bloom_might_contain(f, 1e30),
       bloom_might_contain(f, 18446744073709551616.0),
       bloom_might_contain(f, -9223372036854777856.0), quote(bloom_might_contain(f, NULL))
FROM saturated;
-- => 1|256|1|1|0|0|0|0|NULL
SELECT bloom_might_contain(d, 2.5), bloom_might_contain(d, 2), bloom_might_contain(d, 9007199254740993),
       bloom_might_contain(d, 9223372036854775807)
FROM (SELECT bloom_build(i * 0.5, 10, 0.01, 'parquet') AS d FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000) SELECT i FROM s));
-- => 1|1|0|0
CREATE TABLE strings AS
SELECT bloom_build('k' || i, 10, 0.01, 'parquet') AS b FROM (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000) SELECT i FROM s);
SELECT bloom_might_contain(b, 'anything'), bloom_might_contain(b, x'00') FROM strings;
-- => 1|1
-- A key of an SQL type no value of the filter's has (a TEXT or BLOB for a number type, a number
-- for BYTE_ARRAY, INT96 and FIXED_LEN_BYTE_ARRAY) is an error that says how such a column
-- stores what the key likely means: a DATE probed as text was a silent 0.
SELECT bloom_might_contain(bloom_build(20155, 10, 0.01, 'parquet INT32'), '2025-03-08');
-- error: bloom_might_contain: the key '2025-03-08' is TEXT, and no TEXT is a value of the filter's type, INT32 (a DATE column holds its days since 1970-01-01: probe with CAST(strftime('%s', key) AS INTEGER) / 86400; others hold integers)
SELECT bloom_might_contain(bloom_build(20155, 10, 0.01, 'parquet INT32'),
                           CAST(strftime('%s', '2025-03-08') AS INTEGER) / 86400);
-- => 1
SELECT bloom_might_contain(f, '1') FROM saturated;
-- error: bloom_might_contain: the key '1' is TEXT, and no TEXT is a value of the filter's type, INT64 (a TIMESTAMP column holds its microseconds or milliseconds since 1970-01-01 UTC, as its unit says: probe with CAST(strftime('%s', key) AS INTEGER) * 1000000 or * 1000; others hold integers)
SELECT bloom_might_contain(f, x'01') FROM saturated;
-- error: bloom_might_contain: the key a BLOB of 1 byte is BLOB, and no BLOB is a value of the filter's type, INT64 (a TIMESTAMP column holds its microseconds or milliseconds since 1970-01-01 UTC, as its unit says: probe with CAST(strftime('%s', key) AS INTEGER) * 1000000 or * 1000; others hold integers)
SELECT bloom_might_contain(bloom_build(0.5, 10, 0.01, 'parquet'), '2.5');
-- error: bloom_might_contain: the key '2.5' is TEXT, and no TEXT is a value of the filter's type, DOUBLE (its values are numbers: probe with CAST(key AS REAL))
SELECT bloom_might_contain(bloom_build(0.5, 10, 0.01, 'parquet FLOAT'), 'x');
-- error: bloom_might_contain: the key 'x' is TEXT, and no TEXT is a value of the filter's type, FLOAT (its values are numbers: probe with CAST(key AS REAL))
SELECT bloom_might_contain(b, 1) FROM strings;
-- error: bloom_might_contain: the key 1 is INTEGER, and no INTEGER is a value of the filter's type, BYTE_ARRAY (a string column holds TEXT: probe with CAST(key AS TEXT))
SELECT bloom_might_contain(b, 1.5) FROM strings;
-- error: bloom_might_contain: the key 1.5 is REAL, and no REAL is a value of the filter's type, BYTE_ARRAY (a string column holds TEXT: probe with CAST(key AS TEXT))
SELECT bloom_might_contain(bloom_build(zeroblob(12), 10, 0.01, 'parquet INT96'), 7);
-- error: bloom_might_contain: the key 7 is INTEGER, and no INTEGER is a value of the filter's type, INT96 (its values are 12 bytes, a legacy timestamp's nanoseconds of the day then its Julian day, little-endian: probe with such a BLOB)
SELECT bloom_might_contain(bloom_build(zeroblob(16), 10, 0.01, 'parquet FIXED_LEN_BYTE_ARRAY(16)'), 7);
-- error: bloom_might_contain: the key 7 is INTEGER, and no INTEGER is a value of the filter's type, FIXED_LEN_BYTE_ARRAY(16) (its values are BLOBs of the type's length: probe a UUID with unhex(replace(key, '-', '')), on SQLite 3.41 and later)
-- A value of another length is of the type's SQL type: certainly absent.
SELECT bloom_might_contain(bloom_build(zeroblob(16), 10, 0.01, 'parquet FIXED_LEN_BYTE_ARRAY(16)'), 'short'),
       bloom_might_contain(bloom_build(zeroblob(12), 10, 0.01, 'parquet INT96'), zeroblob(11));
-- => 0|0
-- A filter with no type holds no value.
SELECT bloom_might_contain(e, 0), bloom_might_contain(e, 0.0), bloom_might_contain(e, ''),
       bloom_might_contain(e, x'')
FROM (SELECT bloom_empty(10, 0.01, 'parquet') AS e);
-- => 0|0|0|0

-- 6. ... and bloom_build, bloom_add, bloom_add_in_place and a live table refuse to add it, with
-- an error that names the key and the type, adding nothing.
SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 1 AS k UNION ALL SELECT 'k1');
-- error: bloom_build: the key 'k1' is not a value of the filter's type, INT64; nothing was added
SELECT bloom_build(k, NULL, 0.01, 'parquet') FROM (SELECT 1 AS k UNION ALL SELECT 'k1');
-- error: bloom_build: the key 'k1' is not a value of the filter's type, INT64; nothing was added
SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 1 AS k UNION ALL SELECT 1.5);
-- error: bloom_build: the key 1.5 is not a value of the filter's type, INT64; nothing was added
SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 1 AS k UNION ALL SELECT x'6B31');
-- error: bloom_build: the key a BLOB of 2 bytes is not a value of the filter's type, INT64; nothing was added
SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 0.5 AS k UNION ALL SELECT 9007199254740993);
-- error: bloom_build: the key 9007199254740993 is not a value of the filter's type, DOUBLE; nothing was added
SELECT bloom_build(k, 10, 0.01, 'parquet') FROM (SELECT 'a' AS k UNION ALL SELECT 1);
-- error: bloom_build: the key 1 is not a value of the filter's type, BYTE_ARRAY; nothing was added
SELECT bloom_add(bloom_build(1, 10, 0.01, 'parquet'), 'x');
-- error: bloom_add: the key 'x' is not a value of the filter's type, INT64; nothing was added
SELECT bloom_add(bloom_build(1, 10, 0.01, 'parquet'), 18446744073709551616.0);
-- error: bloom_add: the key 1.84467440737096e+19 is not a value of the filter's type, INT64; nothing was added
SELECT bloom_add(bloom_build(1.5, 10, 0.01, 'parquet'), 'a');
-- error: bloom_add: the key 'a' is not a value of the filter's type, DOUBLE; nothing was added
SELECT bloom_add(bloom_build('a', 10, 0.01, 'parquet'), 2.5);
-- error: bloom_add: the key 2.5 is not a value of the filter's type, BYTE_ARRAY; nothing was added
-- In place: the type from the first key added there; a refused key leaves the BLOB as it was.
CREATE TABLE stored(id INTEGER PRIMARY KEY, f BLOB);
INSERT INTO stored VALUES (1, bloom_empty(100, 0.01, 'parquet'));
SELECT bloom_add_in_place('stored', 'f', 1, 42), bloom_add_in_place('stored', 'f', 1, 42.0),
       bloom_add_in_place('stored', 'f', 1, 43);
-- => 1|0|1
CREATE TABLE stored_before AS SELECT f FROM stored;
SELECT bloom_add_in_place('stored', 'f', 1, 'x');
-- error: bloom_add_in_place: the key 'x' is not a value of the filter's type, INT64; nothing was added
SELECT bloom_add_in_place('stored', 'f', 1, 0.5);
-- error: bloom_add_in_place: the key 0.5 is not a value of the filter's type, INT64; nothing was added
SELECT f = (SELECT f FROM stored_before), f = (SELECT bloom_build(k, 100, 0.01, 'parquet') FROM (
         SELECT 42 AS k UNION ALL SELECT 42.0 UNION ALL SELECT 43)),
       json_extract(bloom_info(f), '$.physical_type'), json_extract(bloom_info(f), '$.keys_added')
FROM stored;
-- => 1|1|INT64|3
SELECT bloom_might_contain_in_place('stored', 'f', 1, 42.0), bloom_might_contain_in_place('stored', 'f', 1, 0.5),
       bloom_might_contain_in_place('stored', 'f', 1, 9e99);
-- => 1|0|0
SELECT bloom_might_contain_in_place('stored', 'f', 1, '42');
-- error: bloom_might_contain_in_place: the key '42' is TEXT, and no TEXT is a value of the filter's type, INT64 (a TIMESTAMP column holds its microseconds or milliseconds since 1970-01-01 UTC, as its unit says: probe with CAST(strftime('%s', key) AS INTEGER) * 1000000 or * 1000; others hold integers)
-- A live table: each filter takes its type from its first key; a refused key fails its
-- statement, whose rows before it are undone.
CREATE VIRTUAL TABLE t USING bloom(kind = 'parquet', n = 1000, p = 0.01);
INSERT INTO t(key) VALUES (1), (2.0), (3);
INSERT INTO t(key) VALUES (4), ('x');
-- error: t: the key 'x' is not a value of the filter's type, INT64; nothing was added
INSERT INTO t(name, key) VALUES ('texts', 'x'), ('texts', x'79'), ('reals', 0.5), ('reals', 2);
INSERT INTO t(name, key) VALUES ('reals', 'x');
-- error: t: the key 'x' is not a value of the filter's type, DOUBLE; nothing was added
INSERT INTO t(name, key) VALUES ('texts', 7);
-- error: t: the key 7 is not a value of the filter's type, BYTE_ARRAY; nothing was added
SELECT name, json_extract(bloom_info(filter), '$.physical_type'), json_extract(bloom_info(filter), '$.keys_added')
FROM t;
-- => NULL|INT64|3
-- => texts|BYTE_ARRAY|2
-- => reals|DOUBLE|2
SELECT (SELECT filter FROM t WHERE name IS NULL)
       = (SELECT bloom_build(k, 1000, 0.01, 'parquet') FROM (SELECT 1 AS k UNION ALL SELECT 2.0 UNION ALL SELECT 3));
-- => 1
SELECT name FROM t WHERE key = 2;
-- => NULL
-- => reals
SELECT name FROM t WHERE key = 'y';
-- => texts
SELECT (SELECT count(*) FROM t WHERE key = 4), (SELECT count(*) FROM t WHERE key = 1.5),
       (SELECT count(*) FROM t WHERE key = '1'), (SELECT count(*) FROM t WHERE key = x'01');
-- => 0|0|0|0

-- 7. An INT32 filter takes the integers from -2^31 to 2^32 - 1, the upper half as Parquet
-- stores an unsigned 32-bit column's values (4294967295 is the INT32 -1); a FLOAT one the
-- numbers a binary32 holds exactly; a FIXED_LEN_BYTE_ARRAY one only values of its length (any
-- when the length is not known), INT96 of 12 bytes.
CREATE TABLE typed_files AS
SELECT column1 AS t, bloom_from_parquet(bloom_to_parquet(bloom_empty(10, 0.01, 'parquet')), column1) AS f
FROM (VALUES ('INT32'), ('FLOAT'), ('FIXED_LEN_BYTE_ARRAY(4)'), ('FIXED_LEN_BYTE_ARRAY'), ('INT96'));
SELECT bloom_might_contain(bloom_add(f, -1), 4294967295), bloom_might_contain(bloom_add(f, 4294967295), -1),
       bloom_might_contain(bloom_add(f, -2147483648), -2147483648), bloom_might_contain(bloom_add(f, 5), 5.0),
       bloom_might_contain(bloom_add(f, 5.0), 5), bloom_might_contain(bloom_add(f, 7), 4294967303),
       bloom_might_contain(bloom_add(f, 7), 7.5)
FROM typed_files WHERE t = 'INT32';
-- => 1|1|1|1|1|0|0
SELECT bloom_add(f, 4294967296) FROM typed_files WHERE t = 'INT32';
-- error: bloom_add: the key 4294967296 is not a value of the filter's type, INT32; nothing was added
SELECT bloom_add(f, -2147483649) FROM typed_files WHERE t = 'INT32';
-- error: bloom_add: the key -2147483649 is not a value of the filter's type, INT32; nothing was added
SELECT bloom_add(f, 1.5) FROM typed_files WHERE t = 'INT32';
-- error: bloom_add: the key 1.5 is not a value of the filter's type, INT32; nothing was added
-- A REAL just below 2^64 is no INT32 value either (its low 32 bits are those of -2048).
SELECT bloom_add(f, 18446744073709549568.0) FROM typed_files WHERE t = 'INT32';
-- error: bloom_add: the key 1.84467440737095e+19 is not a value of the filter's type, INT32; nothing was added
SELECT bloom_might_contain(bloom_add(f, -2048), 18446744073709549568.0), bloom_might_contain(bloom_add(f, -2048), -2048.0)
FROM typed_files WHERE t = 'INT32';
-- => 0|1
SELECT bloom_might_contain(bloom_add(f, 1.5), 1.5), bloom_might_contain(bloom_add(f, 16777216), 16777216.0),
       bloom_might_contain(bloom_add(f, 1.5), 0.1), bloom_might_contain(bloom_add(f, 1.5), 16777217)
FROM typed_files WHERE t = 'FLOAT';
-- => 1|1|0|0
SELECT bloom_add(f, 0.1) FROM typed_files WHERE t = 'FLOAT';
-- error: bloom_add: the key 0.1 is not a value of the filter's type, FLOAT; nothing was added
SELECT bloom_add(f, 16777217) FROM typed_files WHERE t = 'FLOAT';
-- error: bloom_add: the key 16777217 is not a value of the filter's type, FLOAT; nothing was added
SELECT bloom_might_contain(bloom_add(f, 'abcd'), x'61626364'), bloom_might_contain(bloom_add(f, 'abcd'), 'abc')
FROM typed_files WHERE t = 'FIXED_LEN_BYTE_ARRAY(4)';
-- => 1|0
SELECT bloom_add(f, 'abc') FROM typed_files WHERE t = 'FIXED_LEN_BYTE_ARRAY(4)';
-- error: bloom_add: the key 'abc' is not a value of the filter's type, FIXED_LEN_BYTE_ARRAY(4); nothing was added
SELECT bloom_add(f, 1234) FROM typed_files WHERE t = 'FIXED_LEN_BYTE_ARRAY(4)';
-- error: bloom_add: the key 1234 is not a value of the filter's type, FIXED_LEN_BYTE_ARRAY(4); nothing was added
SELECT json_extract(bloom_info(bloom_add(bloom_add(f, 'abc'), x'6465')), '$.keys_added')
FROM typed_files WHERE t = 'FIXED_LEN_BYTE_ARRAY';
-- => 2
SELECT bloom_might_contain(bloom_add(f, 'abcdefghijkl'), x'6162636465666768696A6B6C') FROM typed_files WHERE t = 'INT96';
-- => 1
SELECT bloom_add(f, 'abcdefghijk') FROM typed_files WHERE t = 'INT96';
-- error: bloom_add: the key 'abcdefghijk' is not a value of the filter's type, INT96; nothing was added

-- 8. Sizing meets p by the Parquet specification's model, then rounds the bitset up to a power
-- of two (the model's fewest blocks, computed apart: 1 up to 24 keys at 1 %, 2 from 25, 3 from
-- 49 (so 4), 83 for 2,000 (so 128), 206 for 5,000 (so 256); at 0.1 %, 1 up to 15 keys, 132 for
-- 2,000 (so 256); at 50 %, 64 for 5,000).
SELECT column1, column2, json_extract(bloom_info(bloom_empty(column1, column2, 'parquet')), '$.blocks')
FROM (VALUES (24, 0.01), (25, 0.01), (48, 0.01), (49, 0.01), (2000, 0.01), (5000, 0.01),
             (15, 0.001), (16, 0.001), (2000, 0.001), (5000, 0.5));
-- => 24|0.01|1
-- => 25|0.01|2
-- => 48|0.01|2
-- => 49|0.01|4
-- => 2000|0.01|128
-- => 5000|0.01|256
-- => 15|0.001|1
-- => 16|0.001|2
-- => 2000|0.001|256
-- => 5000|0.5|64
-- 5,000 keys at 1 %: a bitset of 8,192 bytes, as DuckDB's.
CREATE TABLE f5000 AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 5000)
SELECT bloom_build(i, 5000, 0.01, 'parquet') AS f FROM s;
SELECT length(f), json_extract(bloom_info(f), '$.bitset_bytes'), json_extract(bloom_info(f), '$.blocks') FROM f5000;
-- => 8256|8192|256
-- Its rate is then below p: 0.354 % by the model at 256 blocks, 0.361 % by bloom_info's
-- estimate for these keys; of 20,000 keys never added, 72 expected (a standard deviation of
-- 8.5: 38 to 106 within 4), where p would give 200.
SELECT round(json_extract(bloom_info(f), '$.estimated_fp_rate'), 5), (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20000)
  SELECT sum(bloom_might_contain(f, -i)) BETWEEN 38 AND 106 FROM s)
FROM f5000;
-- => 0.00361|1
-- Sized at the end (n NULL): for the distinct values of its type, the bytes of n given (1 and
-- 1.0 one value; keys added counting repeats in both).
CREATE TABLE mixed AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000)
SELECT i, CASE WHEN i > 2000 THEN (i - 2000) * 1.0 ELSE i END AS k FROM s;
SELECT (SELECT bloom_build(k, NULL, 0.01, 'parquet') FROM mixed) = (SELECT bloom_build(k, 2000, 0.01, 'parquet') FROM mixed),
       json_extract(bloom_info((SELECT bloom_build(k, NULL, 0.01, 'parquet') FROM mixed)), '$.n'),
       json_extract(bloom_info((SELECT bloom_build(k, NULL, 0.01, 'parquet') FROM mixed)), '$.keys_added');
-- => 1|2000|3000
SELECT (SELECT bloom_build(k, NULL, 0.01, 'parquet') FROM (SELECT 'abc' AS k UNION ALL SELECT x'616263' UNION ALL SELECT 'd'))
     = (SELECT bloom_build(k, 2, 0.01, 'parquet') FROM (SELECT 'abc' AS k UNION ALL SELECT x'616263' UNION ALL SELECT 'd'));
-- => 1
-- At most 128 MiB, as Parquet's writers size them: 100,000,000 keys at 1 % take 2^22 blocks
-- (the filter then over the length limit set here, without allocating it), 200,000,000 more.
SELECT bloom_build(1, 200000000, 0.01, 'parquet');
-- error: bloom_build: a 'parquet' filter for n = 200000000 at p = 0.01 needs a bitset of 268435456 bytes, more than the 134217728 that Parquet readers take
SELECT bloom_empty(200000000, 0.01, 'parquet');
-- error: bloom_empty: a 'parquet' filter for n = 200000000 at p = 0.01 needs a bitset of 268435456 bytes, more than the 134217728 that Parquet readers take
CREATE VIRTUAL TABLE huge USING bloom(kind = 'parquet', n = 200000000, p = 0.01);
-- error: huge: a 'parquet' filter for n = 200000000 at p = 0.01 needs a bitset of 268435456 bytes, more than the 134217728 that Parquet readers take
-- Past 10^15 bytes, the size in 4 digits.
SELECT bloom_empty(10, 1e-30, 'parquet');
-- error: bloom_empty: a 'parquet' filter for n = 10 at p = 1.0e-30 needs a bitset of 2.91e+20 bytes, more than the 134217728 that Parquet readers take
--! limit length 100000000
SELECT bloom_empty(100000000, 0.01, 'parquet');
-- error TOOBIG: bloom_empty: a filter for n = 100000000 at p = 0.01 needs 134217792 bytes, more than the length limit of 100000000 bytes
--! limit length 1000000000
-- It does not grow: past n it keeps its size, and finds every key.
SELECT length(f), json_extract(bloom_info(f), '$.keys_added'), (
  WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 2000) SELECT sum(bloom_might_contain(f, i)) FROM s)
FROM saturated;
-- => 96|2000|2000

-- 9. It merges with a filter of the same size and type, or no type: the words ORed, the type of
-- the one that has one, the keys added summed (the n and p of the first, rule 10 (union)).
CREATE TABLE parts AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 5000)
SELECT i % 4 AS part, bloom_build(i, 5000, 0.01, 'parquet') AS f FROM s GROUP BY part;
SELECT bloom_union(f) = (SELECT f FROM f5000) FROM parts;
-- => 1
SELECT bloom_union(a.f, b.f) = (SELECT bloom_union(f) FROM parts WHERE part < 2)
FROM parts AS a, parts AS b WHERE a.part = 0 AND b.part = 1;
-- => 1
SELECT bloom_union(f, bloom_empty(5000, 0.01, 'parquet')) = f, bloom_union(bloom_empty(5000, 0.01, 'parquet'), f) = f,
       json_extract(bloom_info(bloom_union(bloom_empty(5000, 0.01, 'parquet'), bloom_empty(5000, 0.01, 'parquet'))), '$.physical_type')
FROM f5000;
-- => 1|1|NULL
SELECT json_extract(bloom_info(u), '$.physical_type'), json_extract(bloom_info(u), '$.n'), json_extract(bloom_info(u), '$.keys_added')
FROM (SELECT bloom_union(f) AS u FROM (SELECT bloom_empty(10, 0.01, 'parquet') AS f UNION ALL SELECT NULL
                                       UNION ALL SELECT bloom_build('a', 20, 0.01, 'parquet')
                                       UNION ALL SELECT bloom_build('b', 24, 0.01, 'parquet')));
-- => BYTE_ARRAY|10|2
SELECT bloom_union(bloom_build(1, 10, 0.01, 'parquet'), bloom_build('a', 10, 0.01, 'parquet'));
-- error: bloom_union: incompatible filters: values of INT64 and of BYTE_ARRAY; a union holds the values of one Parquet column
SELECT bloom_union(bloom_build(1.5, 10, 0.01, 'parquet'), bloom_build(1, 10, 0.01, 'parquet'));
-- error: bloom_union: incompatible filters: values of DOUBLE and of INT64; a union holds the values of one Parquet column
SELECT bloom_union(f) FROM (SELECT bloom_build(1, 10, 0.01, 'parquet') AS f UNION ALL SELECT bloom_empty(10, 0.01, 'parquet')
                            UNION ALL SELECT bloom_build(x'01', 10, 0.01, 'parquet'));
-- error: bloom_union: incompatible filters: values of INT64 and of BYTE_ARRAY; a union holds the values of one Parquet column
SELECT bloom_union(a.f, b.f) FROM typed_files AS a, typed_files AS b
WHERE a.t = 'FIXED_LEN_BYTE_ARRAY(4)' AND b.t = 'FIXED_LEN_BYTE_ARRAY';
-- error: bloom_union: incompatible filters: values of FIXED_LEN_BYTE_ARRAY(4) and of FIXED_LEN_BYTE_ARRAY; a union holds the values of one Parquet column
SELECT bloom_union(bloom_build(1, 10, 0.01, 'parquet'), bloom_build(1, 25, 0.01, 'parquet'));
-- error: bloom_union: incompatible filters: 1 blocks and 2 blocks; build both with the same n and p
SELECT bloom_union(bloom_build(1, 10, 0.01, 'parquet'), bloom_build(1, 10, 0.01, 'blocked'));
-- error: bloom_union: incompatible filters: a 'parquet' filter and a 'blocked' one; build both with the same n, p and kind

-- 10. It neither removes keys nor grows.
SELECT bloom_remove(bloom_build(1, 10, 0.01, 'parquet'), 1);
-- error: bloom_remove: a 'parquet' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
SELECT bloom_remove_in_place('stored', 'f', 1, 42);
-- error: bloom_remove_in_place: a 'parquet' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys
DELETE FROM t WHERE key = 1;
-- error: t: a 'parquet' filter cannot remove keys; build a 'counting' or 'cuckoo' filter to remove keys

-- 11. bloom_info (format.md 4.7, "Derived figures"): three keys in a filter of 2 blocks.
CREATE TABLE small AS SELECT bloom_build(column1, 25, 0.01, 'parquet') AS f FROM (VALUES (7), (8), (9));
SELECT bloom_info(f) FROM small;
-- => {"format_version":2,"min_reader_version":2,"layout":"parquet","hash":"xxh64-parquet","physical_type":"INT64","k":8,"blocks":2,"bitset_bytes":64,"bytes":128,"n":25,"p":0.01,"keys_added":3,"bits_set":24,"fill_ratio":0.046875,"estimated_fp_rate":1.16870069177821e-10}
-- The same figures from the bytes: the bits set in each word (hex digit by hex digit), the
-- product of the eight words' shares for each block, their mean.
CREATE TABLE popcount(digit TEXT PRIMARY KEY, bits INTEGER);
INSERT INTO popcount VALUES ('0', 0), ('1', 1), ('2', 1), ('3', 2), ('4', 1), ('5', 2), ('6', 2), ('7', 3),
  ('8', 1), ('9', 2), ('A', 2), ('B', 3), ('C', 2), ('D', 3), ('E', 3), ('F', 4);
CREATE TABLE words AS
WITH RECURSIVE s(w) AS (SELECT 0 UNION ALL SELECT w + 1 FROM s WHERE w < 15),
               d(d) AS (SELECT 1 UNION ALL SELECT d + 1 FROM d WHERE d < 8)
SELECT w / 8 AS block, w % 8 AS word, sum(bits) AS c
FROM s, d, small, popcount WHERE digit = substr(hex(substr(f, 65)), w * 8 + d, 1) GROUP BY w;
WITH RECURSIVE products(block, word, v) AS (
  SELECT block, 0, c FROM words WHERE word = 0
  UNION ALL SELECT p.block, p.word + 1, p.v * w.c FROM products AS p JOIN words AS w ON w.block = p.block AND w.word = p.word + 1)
SELECT (SELECT sum(c) FROM words), (SELECT sum(c) FROM words) / 512.0,
       abs(sum(v) / (2 * 1099511627776.0) / json_extract(bloom_info(f), '$.estimated_fp_rate') - 1) < 1e-12
FROM products, small WHERE word = 7;
-- => 24|0.046875|1
-- A filter of a Parquet file has no n and p; a FIXED_LEN_BYTE_ARRAY one has its type length.
SELECT bloom_info(f) FROM typed_files WHERE t = 'FIXED_LEN_BYTE_ARRAY(4)';
-- => {"format_version":2,"min_reader_version":2,"layout":"parquet","hash":"xxh64-parquet","physical_type":"FIXED_LEN_BYTE_ARRAY","type_length":4,"k":8,"blocks":1,"bitset_bytes":32,"bytes":96,"n":null,"p":null,"keys_added":0,"bits_set":0,"fill_ratio":0.0,"estimated_fp_rate":0.0}
