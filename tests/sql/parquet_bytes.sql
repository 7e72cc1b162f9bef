-- Rule 28 (Parquet bytes): bloom_to_parquet and bloom_from_parquet, a 'parquet' filter as the
-- bytes a Parquet file stores at a column chunk's bloom_filter_offset, and back.
CREATE TABLE ids AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 5000) SELECT i FROM s;
CREATE TABLE f AS SELECT bloom_build(i, 5000, 0.01, 'parquet') AS f FROM ids;

-- The header Parquet's writers write for numBytes 8192 (DuckDB's and parquet-java's 17 bytes:
-- numBytes, then BLOCK, XXHASH and UNCOMPRESSED as empty structs), then the bitset unchanged.
SELECT length(bloom_to_parquet(f)), hex(substr(bloom_to_parquet(f), 1, 17)),
       substr(bloom_to_parquet(f), 18) = substr(f, 65) FROM f;
-- => 8209|158080011C1C00001C1C00001C1C000000|1
-- A smaller bitset has a shorter numBytes: 32 bytes, zigzag 64 in one byte. (|| makes TEXT:
-- the BLOBs below are cast back.)
SELECT hex(bloom_to_parquet(bloom_empty(1, 0.5, 'parquet')));
-- => 15401C1C00001C1C00001C1C0000000000000000000000000000000000000000000000000000000000000000000000
SELECT bloom_to_parquet(NULL);
-- => NULL

-- Back: the same bitset and answers, the type given, n and p not known, no key added here.
CREATE TABLE back AS SELECT bloom_from_parquet(bloom_to_parquet(f), 'INT64') AS b FROM f;
SELECT substr(b, 65) = substr(f, 65), bloom_to_parquet(b) = bloom_to_parquet(f) FROM back, f;
-- => 1|1
SELECT json_extract(i, '$.physical_type'), json_extract(i, '$.n'), json_extract(i, '$.p'),
       json_extract(i, '$.keys_added'), json_extract(i, '$.bitset_bytes')
FROM (SELECT bloom_info(b) AS i FROM back);
-- => INT64|NULL|NULL|0|8192
SELECT sum(bloom_might_contain(b, i)), sum(bloom_might_contain(b, i + 0.0)) FROM back, ids;
-- => 5000|5000
-- A filter read from Parquet takes keys and unions like one built here.
SELECT bloom_might_contain(bloom_add(b, -7), -7), bloom_union(b, f) = bloom_union(f, b) FROM back, f;
-- => 1|0
SELECT substr(bloom_union(b, f), 65) = substr(f, 65) FROM back, f;
-- => 1

-- The physical type, in any case; FIXED_LEN_BYTE_ARRAY with or without its length.
SELECT json_extract(bloom_info(bloom_from_parquet(bloom_to_parquet(f), 'fixed_len_byte_array(16)')), '$.type_length'),
       json_extract(bloom_info(bloom_from_parquet(bloom_to_parquet(f), 'Double')), '$.physical_type')
FROM f;
-- => 16|DOUBLE
SELECT bloom_might_contain(bloom_from_parquet(bloom_to_parquet(f), 'FIXED_LEN_BYTE_ARRAY(4)'), x'00000000'),
       bloom_might_contain(bloom_from_parquet(bloom_to_parquet(f), 'FIXED_LEN_BYTE_ARRAY(4)'), x'0000')
FROM f;
-- => 0|0
SELECT bloom_from_parquet(bloom_to_parquet(f), 'BOOLEAN') FROM f;
-- error: bloom_from_parquet: physical_type must be 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY' or 'FIXED_LEN_BYTE_ARRAY(length)', got 'BOOLEAN'
SELECT bloom_from_parquet(bloom_to_parquet(f), 'FIXED_LEN_BYTE_ARRAY(0)') FROM f;
-- error: bloom_from_parquet: physical_type must be 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY' or 'FIXED_LEN_BYTE_ARRAY(length)', got 'FIXED_LEN_BYTE_ARRAY(0)'
SELECT bloom_from_parquet(bloom_to_parquet(f), 'INT64(8)') FROM f;
-- error: bloom_from_parquet: physical_type must be 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY' or 'FIXED_LEN_BYTE_ARRAY(length)', got 'INT64(8)'
SELECT bloom_from_parquet(bloom_to_parquet(f), 5) FROM f;
-- error: bloom_from_parquet: physical_type must be 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY' or 'FIXED_LEN_BYTE_ARRAY(length)', got 5
SELECT bloom_from_parquet(NULL, 'INT64');
-- => NULL

-- The bytes: a header in the forms the protocol allows; then exactly the bitset it announces.
-- @dsnp/parquetjs writes the unions as empty structs (1C 00 each): the one member meant.
SELECT json_extract(bloom_info(bloom_from_parquet(CAST(x'15401C001C001C0000' || zeroblob(32) AS BLOB), 'INT32')), '$.blocks');
-- => 1
SELECT bloom_from_parquet(CAST(x'15401C1C00001C1C00001C1C000000' || zeroblob(31) AS BLOB), 'INT32');
-- error: bloom_from_parquet: the header announces a bitset of 32 bytes, and 31 bytes follow it
SELECT bloom_from_parquet(CAST(x'15401C1C00001C1C00001C1C000000' || zeroblob(64) AS BLOB), 'INT32');
-- error: bloom_from_parquet: the header announces a bitset of 32 bytes, and 64 bytes follow it
SELECT bloom_from_parquet(x'15401C1C0000', 'INT32');
-- error: bloom_from_parquet: not a Parquet Bloom filter: its 6 bytes end inside the header
SELECT bloom_from_parquet('not bytes', 'INT32');
-- error: bloom_from_parquet: bytes must be a BLOB: a Parquet Bloom filter's header and bitset, got 'not bytes'
SELECT bloom_to_parquet(bloom_build(1, 10, 0.01, 'blocked'));
-- error: bloom_to_parquet: the filter is a 'blocked' filter, not a Parquet one; build one with bloom_build(key, n, p, 'parquet')
SELECT bloom_to_parquet(x'00');
-- error: bloom_to_parquet: not a Bloom filter: length 1 is shorter than the 64-byte header
SELECT bloom_to_parquet(1, 2);
-- error: bloom_to_parquet: wrong number of arguments (2); the form is bloom_to_parquet(filter)
SELECT bloom_from_parquet(x'00');
-- error: bloom_from_parquet: wrong number of arguments (1); the form is bloom_from_parquet(bytes, physical_type)
