-- The counting kind (docs/format.md, 4.3): what it has of its own beyond tests/sql/kinds.sql:
-- repeats counted, saturation, union of counters, sizes and bloom_info.

-- Rule 2 (sizing): the m and k of the standard filter, four bits a position.
SELECT json_extract(c, '$.m') = json_extract(s, '$.m'), json_extract(c, '$.k') = json_extract(s, '$.k'),
       json_extract(c, '$.bytes') - 64 = 4 * (json_extract(s, '$.bytes') - 64)
FROM (SELECT bloom_info(bloom_empty(100000, 0.001, 'counting')) AS c, bloom_info(bloom_empty(100000, 0.001)) AS s);
-- => 1|1|1
SELECT length(bloom_empty(1000, 0.01, 'counting')), length(bloom_empty(1000, 0.01));
-- => 4864|1264

-- Rule 20 (remove): a key given twice counts twice: removed once, it is still there.
CREATE TABLE rows(k);
INSERT INTO rows VALUES ('a'), ('a'), ('b'), (NULL), (3), (3.0);
CREATE TABLE f AS SELECT bloom_build(k, 100, 0.01, 'counting') AS f FROM rows;
SELECT json_extract(bloom_info(f), '$.keys_added') FROM f;
-- => 5
SELECT bloom_might_contain(bloom_remove(f, 'a'), 'a'), bloom_might_contain(bloom_remove(bloom_remove(f, 'a'), 'a'), 'a') FROM f;
-- => 1|0
SELECT bloom_remove(bloom_remove(bloom_remove(f, 'a'), 'a'), 'a') FROM f;
-- error: bloom_remove: the key 'a' is not in the filter; nothing was removed
-- 3 and 3.0 are one key (rule 5 (keys)), added twice.
SELECT bloom_remove(bloom_remove(f, 3), 3.0) = bloom_remove(bloom_remove(f, 3.0), 3) FROM f;
-- => 1
SELECT bloom_remove(bloom_remove(bloom_remove(bloom_remove(f, 3), 3.0), 'a'), 'a') = bloom_build('b', 100, 0.01, 'counting') FROM f;
-- => 1
-- A NULL key changes nothing; a NULL filter is NULL.
SELECT bloom_remove(f, NULL) = f, bloom_remove(NULL, 'a') IS NULL FROM f;
-- => 1|1
SELECT bloom_remove(f) FROM f;
-- error: bloom_remove: wrong number of arguments (1); the form is bloom_remove(filter, key)

-- Saturation: a counter stops at 15 and is never decremented again; removing as often as added
-- then leaves the key probing 1 (what saturation costs), never an error.
CREATE TABLE many AS WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20)
SELECT 'x' AS k FROM s;
CREATE TABLE sat AS SELECT bloom_build(k, 100, 0.01, 'counting') AS f FROM many;
SELECT json_extract(bloom_info(f), '$.counters_saturated'), json_extract(bloom_info(f), '$.counters_nonzero'),
       json_extract(bloom_info(f), '$.k') FROM sat;
-- => 7|7|7
WITH RECURSIVE r(i, f) AS (SELECT 0, f FROM sat UNION ALL SELECT i + 1, bloom_remove(f, 'x') FROM r WHERE i < 20)
SELECT bloom_might_contain(f, 'x'), json_extract(bloom_info(f), '$.counters_saturated'),
       json_extract(bloom_info(f), '$.keys_added') FROM r WHERE i = 20;
-- => 1|7|0

-- Rule 10 (union): counters add, saturating; keys summed.
SELECT bloom_union(a.f, b.f) = bloom_build(k, 100, 0.01, 'counting') FROM f AS a, f AS b, (SELECT k FROM rows UNION ALL SELECT k FROM rows);
-- => 1
SELECT json_extract(bloom_info(bloom_union(f, f)), '$.counters_saturated') FROM sat;
-- => 7
SELECT bloom_union(f, bloom_empty(100, 0.01)) FROM f;
-- error: bloom_union: incompatible filters: a 'counting' filter and a 'standard' one; build both with the same n, p and kind

-- Rule 11 (info): the counting fields.
SELECT bloom_info(f) FROM f;
-- => {"format_version":2,"min_reader_version":2,"layout":"counting","hash":"xxh3-128","k":7,"m":960,"bytes":544,"n":100,"p":0.01,"keys_added":5,"counters_nonzero":21,"fill_ratio":0.021875,"estimated_keys":3.0,"estimated_keys_error":0.1,"estimated_fp_rate":2.39682558458298e-12,"over_capacity":false,"counter_bits":4,"counters_saturated":0}

-- Rule 8 (validation): the kind's own checks (every message: tests/unit/test_core.c).
SELECT bloom_might_contain(CAST(substr(f, 1, 12) || x'08' || substr(f, 14) AS BLOB), 1) FROM f;
-- error: bloom_might_contain: corrupt filter: counters of 8 bits, not 4
SELECT bloom_might_contain(CAST(f || x'00' AS BLOB), 1) FROM f;
-- error: bloom_might_contain: corrupt filter: m = 960 counters need 544 bytes, the BLOB has 545
