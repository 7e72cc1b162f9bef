-- Rules 3 (parameters) and 14 (errors): every argument error names the function and the
-- offending value.

-- n: a whole number >= 1 (an integral REAL counts) or NULL; nothing else (no affinity).
SELECT bloom_build(1, 0, 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0
SELECT bloom_build(1, -5, 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got -5
SELECT bloom_build(1, 1.5, 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 1.5
SELECT bloom_build(1, 0.0, 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0.0
SELECT bloom_build(1, '1000', 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got '1000'
SELECT bloom_build(1, x'E803', 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got a BLOB of 2 bytes
SELECT bloom_build(1, 9e999, 0.01);
-- error: bloom_build: n must be at most 9223372036854775807, got Inf
SELECT bloom_build(1, 1e30, 0.01);
-- error: bloom_build: n must be at most 9223372036854775807, got 1.0e+30
SELECT bloom_build(1, 'it''s a very long text that goes on and on and on', 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 'it''s a very long text that goes on and o'...

-- p: a REAL strictly between 0 and 1.
SELECT bloom_build(1, 10, 1.5);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 1.5; p is a fraction: 1.5 % is 0.015
SELECT bloom_build(1, 10, 0.0);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 0.0
SELECT bloom_build(1, 10, 1.0);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 1.0; p is a fraction: 1.0 % is 0.01
SELECT bloom_build(1, 10, -0.01);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got -0.01
SELECT bloom_build(1, 10, 0);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 0
SELECT bloom_build(1, 10, '0.01');
-- error: bloom_build: p must be between 0 and 1 (exclusive), got '0.01'
SELECT bloom_build(1, 10, NULL);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got NULL
SELECT bloom_build(1, 10, x'00');
-- error: bloom_build: p must be between 0 and 1 (exclusive), got a BLOB of 1 byte
SELECT bloom_build(1, 10, 1e-30);
-- error: bloom_build: p = 1.0e-30 needs 100 hash functions, more than 64
SELECT bloom_build(1, 10, 4.9406564584124654e-324);
-- error: bloom_build: p = 4.94065645841247e-324 needs 1074 hash functions, more than 64

-- Rule 8 (validation): something other than a BLOB where a filter should be.
SELECT bloom_might_contain('a filter', 1);
-- error: bloom_might_contain: the filter must be a BLOB, got 'a filter'
SELECT bloom_might_contain(42, 1);
-- error: bloom_might_contain: the filter must be a BLOB, got 42
SELECT bloom_might_contain(4.2, 1);
-- error: bloom_might_contain: the filter must be a BLOB, got 4.2
-- An invalid filter is an error even when the key is NULL.
SELECT bloom_might_contain('a filter', NULL);
-- error: bloom_might_contain: the filter must be a BLOB, got 'a filter'
-- A filter stored as TEXT (as some clients do) must be turned back into a BLOB.
-- Control characters and bytes that are not UTF-8 are shown as \xNN.
SELECT bloom_might_contain(CAST(substr(bloom_build(1, 10, 0.01), 1, 8) AS TEXT), 1);
-- error: bloom_might_contain: the filter must be a BLOB, got 'SQBF\x01\x01\x01\x01'; this TEXT holds a filter's bytes: pass the BLOB itself, not CAST(filter AS TEXT)
SELECT bloom_might_contain(CAST(x'41C0E282AC42F09F998243' AS TEXT), 1);
-- error: bloom_might_contain: the filter must be a BLOB, got 'A\xC0€B🙂C'
SELECT bloom_might_contain(CAST(x'41E282' AS TEXT), 1);
-- error: bloom_might_contain: the filter must be a BLOB, got 'A\xE2\x82'
SELECT bloom_might_contain(CAST(CAST(bloom_build(1, 10, 0.01) AS TEXT) AS BLOB), 1);
-- => 1

-- Bytes that are not well-formed UTF-8 (overlong, surrogate, above U+10FFFF, stray
-- continuation) and C1 control characters are shown as \xNN; U+00A0 is shown as is.
SELECT bloom_might_contain(CAST(x'41E08080EDA080F4908080C0AFC29FC2A042' AS TEXT), 1);
-- error: bloom_might_contain: the filter must be a BLOB, got 'A\xE0\x80\x80\xED\xA0\x80\xF4\x90\x80\x80\xC0\xAF\xC2\x9F B'

-- REALs show 15 significant digits, or 17 where 15 would hide what is wrong.
--! needs exact reals
SELECT bloom_build(1, 1000000.0000000001, 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 1000000.0000000001
--! needs exact reals
SELECT bloom_build(1, 100, CASE WHEN x > 1 THEN 0.1 + 0.2 ELSE 0.3 END) FROM (SELECT 1 AS x UNION ALL SELECT 2);
-- error: bloom_build: p must be the same for all rows of a group, got 0.30000000000000004 after 0.29999999999999999

-- A connection with a small SQLITE_LIMIT_LENGTH gets messages cut to the limit, with their
-- own result codes, not "out of memory".
--! limit length 60
SELECT bloom_might_contain(x'00', 1);
-- error: bloom_might_contain: not a Bloom filter: length 1 is shorter
SELECT bloom_build(1, 1000, 0.01);
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1264 by
--! limit length 1000000000

-- Rule 14 (errors): where the fix is plain, the message says what to do.
-- The arguments swapped, as another SQLite Bloom extension orders them.
SELECT bloom_might_contain('alice', bloom_build(1, 10, 0.01));
-- error: bloom_might_contain: the filter must be a BLOB, got 'alice'; the filter comes first: bloom_might_contain(filter, key)
SELECT bloom_might_contain(x'616C696365', bloom_build(1, 10, 0.01));
-- error: bloom_might_contain: not a Bloom filter: length 5 is shorter than the 64-byte header; the filter comes first: bloom_might_contain(filter, key)
SELECT bloom_add(42, bloom_build(1, 10, 0.01, 'blocked'));
-- error: bloom_add: the filter must be a BLOB, got 42; the filter comes first: bloom_add(filter, key)
-- p as a percentage.
SELECT bloom_build(1, 1000, 1);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 1; p is a fraction: 1 % is 0.01
SELECT bloom_build(1, 1000, 5);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 5; p is a fraction: 5 % is 0.05
SELECT bloom_build(1, 1000, 100.0);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 100.0; p is a fraction: 100.0 % is 1.0
SELECT bloom_build(1, 1000, 101);
-- error: bloom_build: p must be between 0 and 1 (exclusive), got 101
-- n and p swapped (n a fraction, p a number >= 1): the order of the form called.
SELECT bloom_build(1, 0.01, 1000);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0.01; n and p seem swapped: the order is bloom_build(key, n, p)
SELECT bloom_build(1, 0.01, 1000.0, 'blocked');
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0.01; n and p seem swapped: the order is bloom_build(key, n, p, kind)
SELECT bloom_build(1, 0.5, 1);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0.5; n and p seem swapped: the order is bloom_build(key, n, p)
SELECT bloom_empty(0.01, 1000);
-- error: bloom_empty: n must be a whole number >= 1, got 0.01; n and p seem swapped: the order is bloom_empty(n, p)
SELECT bloom_empty(0.01, 1000, 'cuckoo');
-- error: bloom_empty: n must be a whole number >= 1, got 0.01; n and p seem swapped: the order is bloom_empty(n, p, kind)
-- Not swapped: p a fraction too, n not one, p not a number.
SELECT bloom_build(1, 0.01, 0.5);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0.01
SELECT bloom_build(1, 0, 1000);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0
SELECT bloom_build(1, 1.5, 1000);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 1.5
SELECT bloom_build(1, 0.01, '1000');
-- error: bloom_build: n must be a whole number >= 1 or NULL, got 0.01
SELECT bloom_empty(-0.5, 1000);
-- error: bloom_empty: n must be a whole number >= 1, got -0.5
-- A filter as TEXT: its hex.
SELECT bloom_might_contain(hex(bloom_build(1, 10, 0.01)), 1);
-- error: bloom_might_contain: the filter must be a BLOB, got '5351424601010101070000000000000080000000'...; this TEXT is a filter in hex: pass the BLOB itself (hex() is for display), or unhex() it on SQLite 3.41 and later
SELECT bloom_info(lower(hex(bloom_build(1, 10, 0.01))));
-- error: bloom_info: the filter must be a BLOB, got '5351424601010101070000000000000080000000'...; this TEXT is a filter in hex: pass the BLOB itself (hex() is for display), or unhex() it on SQLite 3.41 and later
SELECT bloom_info('5351424');
-- error: bloom_info: the filter must be a BLOB, got '5351424'

-- A number of arguments no form has: the forms (the first a user tries for p alone).
SELECT bloom_build(1, 0.01);
-- error: bloom_build: wrong number of arguments (2); the forms are bloom_build(key), bloom_build(key, n, p) and bloom_build(key, n, p, kind); for p alone, bloom_build(key, NULL, p)
SELECT bloom_build(k, 0.01) FROM (SELECT 1 AS k WHERE 0);
-- error: bloom_build: wrong number of arguments; the forms are bloom_build(key), bloom_build(key, n, p) and bloom_build(key, n, p, kind); for p alone, bloom_build(key, NULL, p)
SELECT bloom_build();
-- error: bloom_build: wrong number of arguments (0); the forms are bloom_build(key), bloom_build(key, n, p) and bloom_build(key, n, p, kind); for p alone, bloom_build(key, NULL, p)
SELECT bloom_build(1, 2, 0.01, 'standard', 5);
-- error: bloom_build: wrong number of arguments (5); the forms are bloom_build(key), bloom_build(key, n, p) and bloom_build(key, n, p, kind); for p alone, bloom_build(key, NULL, p)
SELECT bloom_might_contain(bloom_build(1, 10, 0.01));
-- error: bloom_might_contain: wrong number of arguments (1); the form is bloom_might_contain(filter, key)
SELECT bloom_add(bloom_build(1, 10, 0.01), 1, 2);
-- error: bloom_add: wrong number of arguments (3); the form is bloom_add(filter, key)
SELECT bloom_info();
-- error: bloom_info: wrong number of arguments (0); the form is bloom_info(filter)
SELECT bloom_union(NULL, NULL, NULL);
-- error: bloom_union: wrong number of arguments (3); the forms are bloom_union(a, b), a scalar, and bloom_union(filter), an aggregate
SELECT bloom_empty(10);
-- error: bloom_empty: wrong number of arguments (1); the forms are bloom_empty(n, p) and bloom_empty(n, p, kind)
SELECT bloom_version(1);
-- error: bloom_version: wrong number of arguments (1); the form is bloom_version()
