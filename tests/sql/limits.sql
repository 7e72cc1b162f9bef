-- Limits: SQLITE_LIMIT_LENGTH, n and p at their extremes, k at its cap, keys of 0 bytes
-- and of 100 MB, headers that claim a huge m or k. Every error is checked verbatim.
CREATE TABLE keys AS
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000)
SELECT CASE i % 2 WHEN 0 THEN i ELSE 'key ' || i END AS k FROM s;
CREATE TABLE at_limit AS SELECT bloom_build(k, 1000, 0.01) AS f FROM keys;

-- A filter of exactly SQLITE_LIMIT_LENGTH bytes, from every function that makes one.
--! limit length 1264
-- (SQLite 3.31 will not read a stored value of exactly the limit: "string or blob too big".)
--! since 3.40.0
SELECT length(f), (SELECT count(*) FROM keys WHERE bloom_might_contain(f, k)) FROM at_limit;
-- => 1264|1000
--! since 3.40.0
SELECT length(bloom_add(f, 'one more')), length(bloom_union(f, f)) FROM at_limit;
-- => 1264|1264
--! since 3.40.0
SELECT length(bloom_union(f)) FROM (SELECT f FROM at_limit UNION ALL SELECT f FROM at_limit);
-- => 1264
SELECT length(bloom_build(k)), length(bloom_build(k, 1001, 0.01, 'standard')) FROM keys;
-- => 1264|1264
-- SQLite itself cannot store it: a record adds its own header bytes to the BLOB.
CREATE TABLE stored AS SELECT bloom_build(k, 1000, 0.01) AS f FROM keys;
-- error TOOBIG: string or blob too big
-- One word more than the limit allows (1272 bytes), and the blocked layout (1344 bytes).
SELECT length(bloom_build(k, 1002, 0.01)) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1002 at p = 0.01 needs 1272 bytes, more than the length limit of 1264 bytes
SELECT length(bloom_build(k, 1000, 0.01, 'blocked')) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1344 bytes, more than the length limit of 1264 bytes
--! limit length 1263
SELECT length(bloom_build(k, 1000, 0.01)) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1264 bytes, more than the length limit of 1263 bytes
-- Sized without guessing: 1000 distinct keys, the same filter, the same error at the end.
SELECT length(bloom_build(k)) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1264 bytes, more than the length limit of 1263 bytes
SELECT length(bloom_build(k, NULL, 0.01, 'blocked')) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1344 bytes, more than the length limit of 1263 bytes
-- A stored filter over the limit never reaches a function: SQLite refuses to read the column
-- (and to bind such a value).
SELECT bloom_might_contain(f, 1) FROM at_limit;
-- error TOOBIG: string or blob too big
-- bloom_info's JSON is text like any other: over the limit, it is an error.
--! limit length 250
SELECT length(bloom_build(1, 1, 0.01));
-- => 72
SELECT length(bloom_info(bloom_build(1, 1, 0.01)));
-- error TOOBIG: string or blob too big
--! limit length 1000000000

-- n at its extremes: 1, and the largest integer, for which no filter fits.
SELECT length(f), hex(substr(f, 9, 4)), bloom_might_contain(f, 1), bloom_might_contain(f, 2)
FROM (SELECT bloom_build(1, 1, 0.01) AS f);
-- => 72|07000000|1|0
--! needs exact reals
SELECT bloom_build(1, 9223372036854775807, 0.01);
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 0.01 needs 11050819926178930000 bytes, more than the length limit of 1000000000 bytes
--! needs exact reals
SELECT bloom_build(1, 9223372036854775807, 0.5, 'blocked');
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 0.5 needs 1663314137230540000 bytes, more than the length limit of 1000000000 bytes
SELECT bloom_build(1, 9223372036854775807.0, 0.01);
-- error: bloom_build: n must be at most 9223372036854775807, got 9.22337203685478e+18
SELECT bloom_build(1, -9223372036854775808, 0.01);
-- error: bloom_build: n must be a whole number >= 1 or NULL, got -9223372036854775808

-- p at its extremes: k = 64 at p = 4e-20 is allowed (the blocked layout takes 38 there), more
-- is not; p just under 1 needs one hash function and one word; blocked takes p up to 0.5.
SELECT json_extract(bloom_info(bloom_build(1, 1000, 4e-20)), '$.k'),
       json_extract(bloom_info(bloom_build(1, 1000, 4e-20, 'blocked')), '$.k');
-- => 64|38
SELECT bloom_build(1, 1000, 3e-20);
-- error: bloom_build: p = 3.0e-20 needs 65 hash functions, more than 64
SELECT bloom_build(1, 1000, 1e-20, 'blocked');
-- error: bloom_build: p = 1.0e-20 needs 66 hash functions, more than 64
SELECT bloom_build(1, 1000, 4.9406564584124654e-324);
-- error: bloom_build: p = 4.94065645841247e-324 needs 1074 hash functions, more than 64
--! needs exact reals
SELECT length(f), hex(substr(f, 9, 4)), bloom_might_contain(f, 1), bloom_might_contain(f, 2)
FROM (SELECT bloom_build(1, 1000, 0.9999999999999999) AS f);
-- => 72|01000000|1|0
-- (bloom_info shows p with 15 digits too: this p < 1 reads as 1.0.)
--! needs exact reals
SELECT json_extract(bloom_info(bloom_build(1, 1000, 0.9999999999999999)), '$.p'),
       hex(substr(bloom_build(1, 1000, 0.9999999999999999), 33, 8));
-- => 1.0|FFFFFFFFFFFFEF3F
SELECT length(bloom_build(1, 1000, 0.5, 'blocked'));
-- => 256
-- (The message shows the rate with 15 digits: 0.5000000000000001 reads as 0.5.)
SELECT bloom_build(1, 1000, 0.5000000000000001, 'blocked');
-- error: bloom_build: the blocked layout needs p <= 0.5, got 0.5

-- k at its cap: every key added probes 1 with 64 positions.
SELECT hex(substr(f, 9, 4)), (SELECT count(*) FROM keys WHERE bloom_might_contain(f, k))
FROM (SELECT bloom_build(k, 1000, 4e-20) AS f FROM keys);
-- => 40000000|1000
-- A crafted filter of one word with k = 64 is valid: a key sets at most 64 bits of it.
SELECT bloom_might_contain(g, 1), bloom_might_contain(bloom_add(g, 1), 1),
       json_extract(bloom_info(bloom_add(g, 1)), '$.bits_set')
FROM (SELECT CAST(substr(f, 1, 8) || x'40' || substr(f, 10) AS BLOB) AS g
      FROM (SELECT bloom_build(NULL, 1, 0.5) AS f));
-- => 0|1|39

-- Keys of 0 bytes: x'', zeroblob(0) and CAST('' AS BLOB) are one key, '' another; NULL none.
SELECT bloom_might_contain(f, x''), bloom_might_contain(f, zeroblob(0)),
       bloom_might_contain(f, CAST('' AS BLOB)), bloom_might_contain(f, ''),
       bloom_might_contain(f, NULL)
FROM (SELECT bloom_build(x'', 1000, 1e-6) AS f);
-- => 1|1|1|0|NULL
SELECT bloom_might_contain(f, ''), bloom_might_contain(f, x'')
FROM (SELECT bloom_build('', 1000, 1e-6) AS f);
-- => 1|0
SELECT json_extract(i, '$.n'), json_extract(i, '$.keys_added')
FROM (SELECT bloom_info(bloom_build(k)) AS i
      FROM (SELECT x'' AS k UNION ALL SELECT '' UNION ALL SELECT zeroblob(0) UNION ALL SELECT NULL));
-- => 2|3

-- Keys of 100 MB, TEXT and BLOB: hashed where they lie.
--! param @text SELECT printf('%.*c', 100000000, 'k')
SELECT length(@text), bloom_might_contain(f, @text), bloom_might_contain(f, 'k')
FROM (SELECT bloom_build(@text, 10, 1e-6) AS f);
-- => 100000000|1|0
SELECT bloom_might_contain(f, zeroblob(100000000)), bloom_might_contain(f, zeroblob(99999999))
FROM (SELECT bloom_build(zeroblob(100000000), 10, 1e-6) AS f);
-- => 1|0

-- Headers that claim a huge m or k: every function refuses them before reading a bit.
CREATE TABLE base AS SELECT bloom_build(1, 20, 0.01) AS f;
CREATE TABLE crafted AS SELECT
  CAST(substr(f, 1, 16) || x'0000000000000080' || substr(f, 25) AS BLOB) AS huge_m,
  CAST(substr(f, 1, 16) || x'0008AF2F00000000' || substr(f, 25) AS BLOB) AS large_m,
  CAST(substr(f, 1, 8) || x'FFFFFFFF' || substr(f, 13) AS BLOB) AS huge_k,
  CAST(substr(f, 1, 8) || x'41' || substr(f, 10) AS BLOB) AS k_65
FROM base;
SELECT bloom_might_contain(huge_m, 1) FROM crafted;
-- error: bloom_might_contain: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_info(huge_m) FROM crafted;
-- error: bloom_info: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_add(huge_m, 1) FROM crafted;
-- error: bloom_add: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_union(huge_m, f) FROM crafted, base;
-- error: bloom_union: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_union(f, huge_m) FROM crafted, base;
-- error: bloom_union: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_union(g) FROM (SELECT f AS g FROM base UNION ALL SELECT huge_m FROM crafted);
-- error: bloom_union: corrupt filter: m = 9223372036854775808 bits needs 1152921504606847040 bytes, the BLOB has 88
SELECT bloom_might_contain(large_m, 1) FROM crafted;
-- error: bloom_might_contain: corrupt filter: m = 800000000 bits needs 100000064 bytes, the BLOB has 88
SELECT bloom_info(huge_k) FROM crafted;
-- error: bloom_info: corrupt filter: k = 4294967295 is outside 1..64
SELECT bloom_add(huge_k, 1) FROM crafted;
-- error: bloom_add: corrupt filter: k = 4294967295 is outside 1..64
SELECT bloom_union(k_65, k_65) FROM crafted;
-- error: bloom_union: corrupt filter: k = 65 is outside 1..64
-- The large m made true: a valid filter of 100,000,064 bytes, probed, copied and read whole.
--! param @big SELECT CAST(substr(f, 1, 16) || x'0008AF2F00000000' || substr(f, 25, 40) || zeroblob(100000000) AS BLOB) FROM base
SELECT length(@big), bloom_might_contain(@big, 1), json_extract(i, '$.k'), json_extract(i, '$.bits_set')
FROM (SELECT bloom_info(bloom_add(@big, 1)) AS i);
-- => 100000064|0|7|7

-- The counting and cuckoo kinds at their limits.
-- The smallest: n = 1 (one 64-counter word; two buckets of 10-bit fingerprints).
SELECT length(f), bloom_might_contain(f, 1), bloom_might_contain(f, 2), bloom_might_contain(bloom_remove(f, 1), 1)
FROM (SELECT bloom_build(1, 1, 0.01, 'counting') AS f);
-- => 96|1|0|0
SELECT length(f), json_extract(bloom_info(f), '$.buckets'), json_extract(bloom_info(f), '$.fingerprint_bits'),
       bloom_might_contain(f, 1), bloom_might_contain(bloom_remove(f, 1), 1)
FROM (SELECT bloom_build(1, 1, 0.01, 'cuckoo') AS f);
-- => 74|2|10|1|0
-- The largest n: no filter fits.
--! needs exact reals
SELECT bloom_build(1, 9223372036854775807, 0.01, 'counting');
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 0.01 needs 44203279704715720000 bytes, more than the length limit of 1000000000 bytes
--! needs exact reals
SELECT bloom_build(1, 9223372036854775807, 0.01, 'cuckoo');
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 0.01 needs 12136015853546290000 bytes, more than the length limit of 1000000000 bytes
-- p at its extremes: the cuckoo filter's fingerprints go from 4 bits (p just under 1) to 32
-- (p >= 1.77e-9); the counting filter takes what the standard one takes.
SELECT json_extract(bloom_info(bloom_build(1, 1000, 0.9999, 'cuckoo')), '$.fingerprint_bits'),
       json_extract(bloom_info(bloom_build(1, 1000, 0.5, 'cuckoo')), '$.fingerprint_bits'),
       json_extract(bloom_info(bloom_build(1, 1000, 1.8e-9, 'cuckoo')), '$.fingerprint_bits'),
       json_extract(bloom_info(bloom_build(1, 1000, 4e-20, 'counting')), '$.k');
-- => 4|5|32|64
SELECT bloom_build(1, 1000, 1.7e-9, 'cuckoo');
-- error: bloom_build: a 'cuckoo' filter needs p >= 1.77e-09 (fingerprints of at most 32 bits), got 1.7e-09
SELECT bloom_empty(1000, 1e-12, 'cuckoo');
-- error: bloom_empty: a 'cuckoo' filter needs p >= 1.77e-09 (fingerprints of at most 32 bits), got 1.0e-12
-- At SQLITE_LIMIT_LENGTH: a filter of exactly the limit builds, one byte less is refused.
--! limit length 4864
SELECT length(bloom_build(k, 1000, 0.01, 'counting')) FROM keys;
-- => 4864
--! limit length 4863
SELECT length(bloom_build(k, 1000, 0.01, 'counting')) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 4864 bytes, more than the length limit of 4863 bytes
--! limit length 1544
SELECT length(bloom_build(k, 1000, 0.01, 'cuckoo')), json_extract(bloom_info(bloom_build(k, 1000, 0.01, 'cuckoo')), '$.buckets')
FROM keys;
-- => 1544|296
--! limit length 1543
SELECT length(bloom_build(k, 1000, 0.01, 'cuckoo')) FROM keys;
-- error TOOBIG: bloom_build: a filter for n = 1000 at p = 0.01 needs 1544 bytes, more than the length limit of 1543 bytes
--! limit length 1000000000

-- The scalable kind at its limits (rule 22 (scalable)).
-- The smallest: n = 1, one stage of one word (k = 10 for p_0 = 0.002); 1 probes 1, 2 does not.
SELECT length(f), hex(substr(f, 9, 3)), json_extract(bloom_info(f), '$.stages[0].m'),
       bloom_might_contain(f, 1), bloom_might_contain(f, 2)
FROM (SELECT bloom_build(1, 1, 0.01, 'scalable') AS f);
-- => 136|010201|64|1|0
-- The largest n: no first stage fits.
--! needs exact reals
SELECT bloom_build(1, 9223372036854775807, 0.01, 'scalable');
-- error TOOBIG: bloom_build: a filter for n = 9223372036854775807 at p = 0.01 needs 14912915752037850000 bytes, more than the length limit of 1000000000 bytes
-- p: the first stage's rate 0.2 p needs at most 64 hash functions, and so does each stage it
-- grows by: at p = 2e-19 the first stage takes 64 and the second would need 65.
SELECT bloom_build(1, 1, 1e-19, 'scalable');
-- error: bloom_build: p = 1.0e-19 needs a first stage of rate 2.0e-20, which needs 66 hash functions, more than 64
SELECT length(bloom_build(1, 1, 2e-19, 'scalable')),
       json_extract(bloom_info(bloom_build(1, 1, 2e-19, 'scalable')), '$.stages[0].k');
-- => 144|64
SELECT bloom_build(k, 1, 2e-19, 'scalable') FROM (SELECT 1 AS k UNION ALL SELECT 2);
-- error: bloom_build: the 'scalable' filter cannot grow: its next part would need more hash functions than a filter may have; build it with a larger p, or a larger n to put that off
SELECT bloom_add(bloom_build(1, 1, 2e-19, 'scalable'), 2);
-- error: bloom_add: the 'scalable' filter cannot grow: its next part would need more hash functions than a filter may have; build it with a larger p, or a larger n to put that off
-- Growing at SQLITE_LIMIT_LENGTH: 100 keys fill the first stage (296 bytes), the 101st adds a
-- stage of 400 bytes. One byte under 696, bloom_build, bloom_add and bloom_add_in_place refuse
-- to grow, the cell unchanged; at 696 the first two grow, and the third writes a cell of
-- exactly the limit, which SQLite refuses to store (a record adds its header to the BLOB).
CREATE TABLE scalable_cells(id INTEGER PRIMARY KEY, f BLOB);
INSERT INTO scalable_cells SELECT 1, bloom_build(k, 100, 0.01, 'scalable') FROM keys WHERE rowid <= 100;
SELECT length(f), json_extract(bloom_info(f), '$.stage_count') FROM scalable_cells;
-- => 296|1
--! limit length 695
SELECT length(bloom_build(k, 100, 0.01, 'scalable')) FROM keys WHERE rowid <= 101;
-- error TOOBIG: bloom_build: the 'scalable' filter would grow to 696 bytes, more than the length limit of 695 bytes
SELECT length(bloom_add(f, 'one more')) FROM scalable_cells;
-- error TOOBIG: bloom_add: the 'scalable' filter would grow to 696 bytes, more than the length limit of 695 bytes
SELECT bloom_add_in_place('scalable_cells', 'f', 1, 'one more');
-- error TOOBIG: bloom_add_in_place: the 'scalable' filter would grow to 696 bytes, more than the length limit of 695 bytes
SELECT length(f), json_extract(bloom_info(f), '$.keys_added'), bloom_might_contain(f, 'one more')
FROM scalable_cells;
-- => 296|100|0
--! limit length 696
SELECT length(bloom_build(k, 100, 0.01, 'scalable')), length(bloom_add(f, 'one more'))
FROM keys, scalable_cells WHERE keys.rowid <= 101;
-- => 696|696
SELECT bloom_add_in_place('scalable_cells', 'f', 1, 'one more');
-- error TOOBIG: bloom_add_in_place: cannot write main.scalable_cells.f, rowid 1: string or blob too big
SELECT length(f), json_extract(bloom_info(f), '$.keys_added') FROM scalable_cells;
-- => 296|100
--! limit length 1000000000
SELECT bloom_add_in_place('scalable_cells', 'f', 1, 'one more');
-- => 1
SELECT length(f), json_extract(bloom_info(f), '$.keys_added'), bloom_might_contain(f, 'one more')
FROM scalable_cells;
-- => 696|101|1
-- 64 stages at most. Filters of 2, 63, 64 and 65 stages of one word each (k = 1, m = 64:
-- validation ties a stage's n and p to its place, not its m), for n = 1 and p = 1/128, each
-- stage holding its capacity 2^i: written here, each stage's rate p_i = p (1 - r) r^i
-- multiplied out as format.md 4.5 says (r = 4.0 / 5.0, the double nearest 0.8), its bits taken
-- from the header of bloom_empty(1, p_i, 'scalable'). 64 stages hold 2^64 - 1 keys.
CREATE TABLE one_word_stages AS
WITH RECURSIVE s(i, rate, body) AS (
  SELECT 0, (1.0 / 128) * (1.0 - 4.0 / 5.0), CAST(x'' AS TEXT)
  UNION ALL
  SELECT i + 1, rate * (4.0 / 5.0),
         body || x'53514246010101010100000000000000' || x'4000000000000000'
         || zeroblob(i / 8) || substr(x'0102040810204080', i % 8 + 1, 1) || zeroblob(7 - i / 8)
         || substr(bloom_empty(1, rate, 'scalable'), 25, 8)
         || zeroblob(i / 8) || substr(x'0102040810204080', i % 8 + 1, 1) || zeroblob(7 - i / 8)
         || zeroblob(24)
  FROM s WHERE i < 65)
SELECT i AS stages, body FROM s WHERE i IN (2, 63, 64, 65);
CREATE TABLE crafted_stages AS
SELECT stages,
       CAST(substr(h, 1, 10)
            || substr(x'02003F4041', CASE stages WHEN 2 THEN 1 WHEN 63 THEN 3 WHEN 64 THEN 4 ELSE 5 END, 1)
            || substr(h, 12, 29)
            || CASE stages WHEN 2 THEN x'0300000000000000' WHEN 63 THEN x'FFFFFFFFFFFFFF7F'
                           ELSE x'FFFFFFFFFFFFFFFF' END
            || substr(h, 49, 16) || body AS BLOB) AS f
FROM one_word_stages, (SELECT bloom_empty(1, 1.0 / 128, 'scalable') AS h);
SELECT stages, length(f), json_extract(bloom_info(f), '$.stage_count'),
       instr(bloom_info(f), '"capacity":18446744073709551615') > 0, bloom_might_contain(f, 'x')
FROM crafted_stages WHERE stages < 65 ORDER BY stages;
-- => 2|208|2|0|0
-- => 63|4600|63|0|0
-- => 64|4672|64|1|0
-- 2 stages full grow by a third; 63 cannot (the 64th stage, of 2^63 keys, would be larger than
-- any filter); 64 cannot (no 65th); 65 are refused.
SELECT length(bloom_add(f, 'x')) FROM crafted_stages WHERE stages = 2;
-- => 280
SELECT bloom_add(f, 'x') FROM crafted_stages WHERE stages = 63;
-- error: bloom_add: the 'scalable' filter cannot grow: its next part would be larger than any filter
SELECT bloom_add(f, 'x') FROM crafted_stages WHERE stages = 64;
-- error: bloom_add: the 'scalable' filter cannot grow: it has as many parts as a filter may have; build it with a larger n
SELECT bloom_add_in_place('crafted_stages', 'f', rowid, 'x') FROM crafted_stages WHERE stages = 64;
-- error: bloom_add_in_place: the 'scalable' filter cannot grow: it has as many parts as a filter may have; build it with a larger n
SELECT bloom_might_contain(f, 'x') FROM crafted_stages WHERE stages = 65;
-- error: bloom_might_contain: corrupt filter: 65 stages, not 1 to 64
SELECT stages, length(f), bloom_might_contain(f, 'x') FROM crafted_stages WHERE stages < 65
ORDER BY stages;
-- => 2|208|0
-- => 63|4600|0
-- => 64|4672|0

-- The count-min sketch at its limits (rule 23 (count-min sketch)).
-- The smallest: epsilon and delta just under 1, width 3 and depth 1, 88 bytes.
SELECT length(f), hex(substr(f, 9, 12)) FROM (SELECT cms_empty(0.99999, 0.99999) AS f);
-- => 88|030000000000000001000000
-- At SQLITE_LIMIT_LENGTH: width 272 and depth 5, 10,944 bytes; one byte less is refused.
--! limit length 10944
SELECT length(cms_empty(0.01, 0.01)), length(cms_build(1, 1, 0.01, 0.01, 'conservative'));
-- => 10944|10944
--! limit length 10943
SELECT cms_empty(0.01, 0.01);
-- error TOOBIG: cms_empty: a sketch for epsilon = 0.01 and delta = 0.01 needs 10944 bytes, more than the length limit of 10943 bytes
SELECT cms_build(1, 2, 0.01, 0.01);
-- error TOOBIG: cms_build: a sketch for epsilon = 0.01 and delta = 0.01 needs 10944 bytes, more than the length limit of 10943 bytes
--! limit length 1000000000
--! needs exact reals
SELECT cms_empty(1e-300, 0.5);
-- error TOOBIG: cms_empty: a sketch for epsilon = 1.0e-300 and delta = 0.5 needs 2.175e+301 bytes, more than the length limit of 1000000000 bytes
-- 64 rows at most: delta down to e^-64 = 1.6038e-28.
SELECT json_extract(cms_info(cms_empty(0.5, 1.7e-28)), '$.depth');
-- => 64
SELECT cms_empty(0.5, 1.6e-28);
-- error: cms_empty: delta = 1.6e-28 needs a depth of more than 64 rows
SELECT cms_build(1, 0.5, 1e-28);
-- error: cms_build: delta = 1.0e-28 needs a depth of more than 64 rows
-- The total at 2^63 - 1, from cms_add, cms_build and cms_union; one more is refused by every
-- function that adds, and changes nothing (in place too).
CREATE TABLE sketch_cells(id INTEGER PRIMARY KEY, s BLOB, c BLOB);
INSERT INTO sketch_cells
SELECT 1, cms_add(cms_empty(0.1, 0.1), 'a', 9223372036854775807),
       cms_add(cms_empty(0.1, 0.1, 'conservative'), 'a', 9223372036854775806);
SELECT cms_count(s, 'a'), json_extract(cms_info(s), '$.total'), cms_count(c, 'a'),
       json_extract(cms_info(c), '$.total')
FROM sketch_cells;
-- => 9223372036854775807|9223372036854775807|9223372036854775806|9223372036854775806
SELECT cms_add(s, 'b') FROM sketch_cells;
-- error: cms_add: no room for the count in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT bloom_add(s, 'b') FROM sketch_cells;
-- error: bloom_add: no room for the key in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT cms_add(c, 'b', 2) FROM sketch_cells;
-- error: cms_add: no room for the count in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT length(cms_add(s, 'b', 0)), json_extract(cms_info(cms_add(c, 'b')), '$.total')
FROM sketch_cells;
-- => 736|9223372036854775807
SELECT cms_add(s, 'a', 9223372036854775808) FROM sketch_cells;
-- error: cms_add: count must be a whole number from 0 to 9223372036854775807, got 9.22337203685478e+18
SELECT cms_add(s, 'a', -1) FROM sketch_cells;
-- error: cms_add: count must be a whole number from 0 to 9223372036854775807, got -1
SELECT json_extract(cms_info(cms_build(k, 4611686018427387904 - k, 0.1, 0.1)), '$.total')
FROM (SELECT 1 AS k UNION ALL SELECT 0);
-- => 9223372036854775807
SELECT cms_build(k, 4611686018427387904, 0.1, 0.1) FROM (SELECT 1 AS k UNION ALL SELECT 2);
-- error: cms_build: no room for the count in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT json_extract(cms_info(cms_union(cms_add(cms_empty(0.1, 0.1), 'a', 4611686018427387904),
                                       cms_add(cms_empty(0.1, 0.1), 'b', 4611686018427387903))),
                    '$.total');
-- => 9223372036854775807
SELECT cms_union(cms_add(cms_empty(0.1, 0.1), 'a', 4611686018427387904),
                 cms_add(cms_empty(0.1, 0.1), 'b', 4611686018427387904));
-- error: cms_union: no room for the union in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT cms_union(x) FROM (SELECT cms_add(cms_empty(0.1, 0.1), 'a', 4611686018427387904) AS x
                          UNION ALL SELECT cms_add(cms_empty(0.1, 0.1), 'b', 4611686018427387904));
-- error: cms_union: no room for the union in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT bloom_union(s, s) FROM sketch_cells;
-- error: bloom_union: no room for the union in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT cms_add_in_place('sketch_cells', 's', 1, 'b');
-- error: cms_add_in_place: no room for the count in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT bloom_add_in_place('sketch_cells', 's', 1, 'b');
-- error: bloom_add_in_place: no room for the key in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT cms_add_in_place('sketch_cells', 'c', 1, 'b', 2);
-- error: cms_add_in_place: no room for the count in the 'countmin' filter, whose counts would add up to more than 9223372036854775807, the largest INTEGER; nothing was added
SELECT cms_count_in_place('sketch_cells', 's', 1, 'a'), cms_count_in_place('sketch_cells', 'c', 1, 'a'),
       json_extract(cms_info(s), '$.total'), json_extract(cms_info(c), '$.total')
FROM sketch_cells;
-- => 9223372036854775807|9223372036854775806|9223372036854775807|9223372036854775806
SELECT cms_add_in_place('sketch_cells', 'c', 1, 'b') >= 1;
-- => 1
SELECT json_extract(cms_info(c), '$.total') FROM sketch_cells;
-- => 9223372036854775807
