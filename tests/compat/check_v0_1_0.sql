-- check_v0_1_0.sql: filters written by sqlite-bloom 0.1.0 must read, probe, inspect, grow and
-- merge in this extension exactly as they did in 0.1.0, and the same keys must build the same
-- bytes. The fixture v0_1_0.db was written once by 0.1.0 (make_fixture_v0_1_0.sql, README.md)
-- and is never regenerated: a failure here is a break of compatibility, not a stale fixture.
--
-- Run by sqltest (tests/sqltest.c) with the working directory tests/compat (the test
-- compat.v0_1_0): the fixture is attached by a relative name, read-only.

-- A file: URI opens it read-only and immutable; SQLite reads URIs in ATTACH when it was built
-- with SQLITE_USE_URI (Debian's is). Without that, the plain name, guarded by query_only below.
ATTACH (SELECT CASE WHEN sqlite_compileoption_used('USE_URI')
                    THEN 'file:v0_1_0.db?mode=ro&immutable=1' ELSE 'v0_1_0.db' END) AS old;
-- Nothing below writes: this makes sure of it, for the fixture and for the scratch database.
PRAGMA query_only = ON;

------------------------------------------------------------------------------------------------
-- The fixture is the one 0.1.0 wrote, whole.

SELECT key, value FROM old.meta WHERE key IN ('bloom_version', 'sqlite_version') ORDER BY key;
-- => bloom_version|0.1.0
-- => sqlite_version|3.40.1
SELECT (SELECT count(*) FROM old.keys), (SELECT count(*) FROM old.filters),
       (SELECT count(*) FROM old.probe_rows), (SELECT count(*) FROM old.probes);
-- => 2189|30|7776|7776
SELECT set_name, typeof(key), count(*) FROM old.keys GROUP BY 1, 2 ORDER BY 1, 2;
-- => edge|blob|9
-- => edge|integer|16
-- => edge|null|2
-- => edge|real|20
-- => edge|text|18
-- => groups|blob|30
-- => groups|integer|30
-- => groups|real|30
-- => groups|text|30
-- => mixed|blob|500
-- => mixed|integer|500
-- => mixed|real|500
-- => mixed|text|500
-- => nulls|null|3
-- => one|text|1
-- Every filter's size and first 48 bytes of header (magic, versions, layout, hash, k, m, n, p
-- and keys added), as 0.1.0 wrote them.
SELECT name, length(filter), hex(substr(filter, 1, 48)) FROM old.filters ORDER BY name;
-- => edge_auto|136|5351424601010101070000000000000040020000000000003A000000000000007B14AE47E17A843F3F00000000000000
-- => edge_auto_blocked|128|5351424601010201040000000000000000020000000000003A000000000000009A9999999999A93F3F00000000000000
-- => edge_auto_p001|176|53514246010101010A0000000000000080030000000000003A00000000000000FCA9F1D24D62503F3F00000000000000
-- => edge_blocked|192|53514246010102010600000000000000000400000000000064000000000000007B14AE47E17A843F3F00000000000000
-- => edge_k63|752|53514246010101013F0000000000000080150000000000003C00000000000000ACD2B64FC983FD3B3F00000000000000
-- => edge_p09|72|5351424601010101010000000000000040000000000000003C00000000000000CDCCCCCCCCCCEC3F3F00000000000000
-- => edge_p1e6_blocked|384|53514246010102011000000000000000000A0000000000003C000000000000008DEDB5A0F7C6B03E3F00000000000000
-- => edge_std|184|53514246010101010700000000000000C00300000000000064000000000000007B14AE47E17A843F3F00000000000000
-- => edge_std_add|184|53514246010101010700000000000000C00300000000000064000000000000007B14AE47E17A843F4200000000000000
-- => empty|184|53514246010101010700000000000000C00300000000000064000000000000007B14AE47E17A843F0000000000000000
-- => empty_add|184|53514246010101010700000000000000C00300000000000064000000000000007B14AE47E17A843F0200000000000000
-- => empty_blocked|192|53514246010102010600000000000000000400000000000064000000000000007B14AE47E17A843F0000000000000000
-- => empty_blocked_add|192|53514246010102010600000000000000000400000000000064000000000000007B14AE47E17A843F0200000000000000
-- => groups_blocked_part0|256|53514246010102010600000000000000000600000000000078000000000000007B14AE47E17A843F2800000000000000
-- => groups_blocked_part1|256|53514246010102010600000000000000000600000000000078000000000000007B14AE47E17A843F2800000000000000
-- => groups_blocked_part2|256|53514246010102010600000000000000000600000000000078000000000000007B14AE47E17A843F2800000000000000
-- => groups_blocked_union|256|53514246010102010600000000000000000600000000000078000000000000007B14AE47E17A843F7800000000000000
-- => groups_over|80|5351424601010101070000000000000080000000000000000C000000000000007B14AE47E17A843F7800000000000000
-- => groups_p1e6|496|53514246010101011400000000000000800D00000000000078000000000000008DEDB5A0F7C6B03E7800000000000000
-- => groups_part0|208|53514246010101010700000000000000800400000000000078000000000000007B14AE47E17A843F2800000000000000
-- => groups_part1|208|53514246010101010700000000000000800400000000000078000000000000007B14AE47E17A843F2800000000000000
-- => groups_part2|208|53514246010101010700000000000000800400000000000078000000000000007B14AE47E17A843F2800000000000000
-- => groups_union|208|53514246010101010700000000000000800400000000000078000000000000007B14AE47E17A843F7800000000000000
-- => groups_union01|208|53514246010101010700000000000000800400000000000078000000000000007B14AE47E17A843F5000000000000000
-- => mixed_auto_blocked|2560|53514246010102010600000000000000004E000000000000D0070000000000007B14AE47E17A843FD007000000000000
-- => mixed_std|2464|53514246010101010700000000000000004B000000000000D0070000000000007B14AE47E17A843FD007000000000000
-- => nulls_auto|72|53514246010101010700000000000000400000000000000001000000000000007B14AE47E17A843F0000000000000000
-- => nulls_std|80|5351424601010101070000000000000080000000000000000A000000000000007B14AE47E17A843F0000000000000000
-- => one_blocked_p05|128|5351424601010201010000000000000000020000000000000100000000000000000000000000E03F0100000000000000
-- => one_std|72|53514246010101010700000000000000400000000000000001000000000000007B14AE47E17A843F0100000000000000

------------------------------------------------------------------------------------------------
-- Probing: every stored probe gives the stored answer (NULL for a NULL key).

SELECT count(*), sum(p.answer IS NOT bloom_might_contain(f.filter, p.key))
FROM old.probes p JOIN old.filters f ON f.name = p.filter_name;
-- => 7776|0
-- Per filter, recomputed here: probes, keys added among them, answers 1, false positives
-- (answer 1 for a key never added) and NULL keys. These are 0.1.0's figures.
SELECT f.name, count(*), sum(p.added), sum(bloom_might_contain(f.filter, p.key)),
       sum(bloom_might_contain(f.filter, p.key) AND NOT p.added), sum(p.key IS NULL)
FROM old.filters f JOIN old.probes p ON p.filter_name = f.name
GROUP BY f.name ORDER BY f.name;
-- => edge_auto|111|63|63|0|0
-- => edge_auto_blocked|111|63|65|2|0
-- => edge_auto_p001|111|63|63|0|0
-- => edge_blocked|112|63|64|1|1
-- => edge_k63|111|63|63|0|0
-- => edge_p09|111|63|89|26|0
-- => edge_p1e6_blocked|111|63|63|0|0
-- => edge_std|112|63|63|0|1
-- => edge_std_add|114|66|66|0|0
-- => empty|49|0|0|0|1
-- => empty_add|50|2|2|0|0
-- => empty_blocked|48|0|0|0|0
-- => empty_blocked_add|50|2|2|0|0
-- => groups_blocked_part0|88|40|40|0|0
-- => groups_blocked_part1|88|40|40|0|0
-- => groups_blocked_part2|88|40|40|0|0
-- => groups_blocked_union|168|120|120|0|0
-- => groups_over|420|120|407|287|0
-- => groups_p1e6|168|120|120|0|0
-- => groups_part0|88|40|40|0|0
-- => groups_part1|88|40|40|0|0
-- => groups_part2|88|40|40|0|0
-- => groups_union|168|120|121|1|0
-- => groups_union01|128|80|81|1|0
-- => mixed_auto_blocked|2400|2000|2003|3|0
-- => mixed_std|2400|2000|2003|3|0
-- => nulls_auto|48|0|0|0|0
-- => nulls_std|48|0|0|0|0
-- => one_blocked_p05|49|1|1|0|0
-- => one_std|50|1|1|0|1
-- No probe row is lost by the view's join.
SELECT count(*) FROM old.probe_rows r LEFT JOIN old.filters f ON f.id = r.filter_id WHERE f.name IS NULL;
-- => 0

-- Spot probes of keys whose canonical form matters, against edge_std.
--! param @edge SELECT filter FROM old.filters WHERE name = 'edge_std'
SELECT bloom_might_contain(@edge, 2), bloom_might_contain(@edge, 2.0), bloom_might_contain(@edge, 0),
       bloom_might_contain(@edge, -0.0), bloom_might_contain(@edge, 9007199254740993),
       bloom_might_contain(@edge, 9223372036854775807), bloom_might_contain(@edge, -9223372036854775808),
       bloom_might_contain(@edge, 9223372036854775808.0), bloom_might_contain(@edge, 9e999),
       bloom_might_contain(@edge, -9e999), bloom_might_contain(@edge, 'ünïcödé'),
       bloom_might_contain(@edge, '😀'), bloom_might_contain(@edge, x''), bloom_might_contain(@edge, ''),
       bloom_might_contain(@edge, CAST('hello' AS BLOB)), bloom_might_contain(@edge, NULL);
-- => 1|1|1|1|1|1|1|1|1|1|1|1|1|1|1|NULL
-- Keys never added: 123 is there only as the REAL 123.0, so the INTEGER 123 is the same key.
SELECT bloom_might_contain(@edge, 123), bloom_might_contain(@edge, '123'),
       bloom_might_contain(@edge, 'Ünïcödé'), bloom_might_contain(@edge, x'01'),
       bloom_might_contain(@edge, 'hello '), bloom_might_contain(@edge, 3);
-- => 1|0|0|0|0|0

------------------------------------------------------------------------------------------------
-- bloom_info reads every header and bit array as 0.1.0 did. The whole text, whose REALs are
-- printed by SQLite:
--! needs exact reals
SELECT count(*), sum(bloom_info(filter) IS NOT info) FROM old.filters;
-- => 30|0
-- and its fields that are not REALs, everywhere:
SELECT count(*), sum(json_extract(bloom_info(filter), '$.format_version', '$.min_reader_version',
                                  '$.layout', '$.hash', '$.k', '$.m', '$.bytes', '$.n',
                                  '$.keys_added', '$.bits_set', '$.over_capacity')
                     IS NOT json_extract(info, '$.format_version', '$.min_reader_version',
                                         '$.layout', '$.hash', '$.k', '$.m', '$.bytes', '$.n',
                                         '$.keys_added', '$.bits_set', '$.over_capacity'))
FROM old.filters;
-- => 30|0
SELECT name, json_extract(bloom_info(filter), '$.k', '$.m', '$.keys_added', '$.bits_set', '$.over_capacity')
FROM old.filters WHERE name IN ('edge_k63', 'groups_over', 'one_blocked_p05', 'nulls_auto') ORDER BY name;
-- => edge_k63|[63,5504,63,2696,false]
-- => groups_over|[7,128,120,127,true]
-- => nulls_auto|[7,64,0,0,false]
-- => one_blocked_p05|[1,512,1,1,false]
--! needs exact reals
SELECT bloom_info(filter) FROM old.filters WHERE name = 'groups_over';
-- => {"format_version":1,"min_reader_version":1,"layout":"standard","hash":"xxh3-128","k":7,"m":128,"bytes":80,"n":12,"p":0.01,"keys_added":120,"bits_set":127,"fill_ratio":0.9921875,"estimated_keys":88.4,"estimated_keys_error":17.8,"estimated_fp_rate":0.946577678756283,"over_capacity":true}

------------------------------------------------------------------------------------------------
-- Building: every filter, rebuilt here from the fixture's keys by the SELECT of its built_by
-- (keys and filters read as old.keys and old.filters), is byte for byte the stored one.

SELECT name, rebuilt = (SELECT filter FROM old.filters WHERE filters.name = r.name) FROM (
  SELECT 'edge_auto' AS name, (SELECT bloom_build(key) FROM old.keys WHERE set_name = 'edge') AS rebuilt
  UNION ALL SELECT 'edge_auto_blocked', (SELECT bloom_build(key, NULL, 0.05, 'blocked') FROM old.keys WHERE set_name = 'edge')
  UNION ALL SELECT 'edge_auto_p001', (SELECT bloom_build(key, NULL, 0.001) FROM old.keys WHERE set_name = 'edge')
  UNION ALL SELECT 'edge_blocked', (SELECT bloom_build(key, 100, 0.01, 'blocked') FROM old.keys WHERE set_name = 'edge')
  UNION ALL SELECT 'edge_k63', (SELECT bloom_build(key, 60, 1e-19) FROM old.keys WHERE set_name = 'edge')
  UNION ALL SELECT 'edge_p09', (SELECT bloom_build(key, 60, 0.9) FROM old.keys WHERE set_name = 'edge')
  UNION ALL SELECT 'edge_p1e6_blocked', (SELECT bloom_build(key, 60, 1e-6, 'blocked') FROM old.keys WHERE set_name = 'edge')
  UNION ALL SELECT 'edge_std', (SELECT bloom_build(key, 100, 0.01) FROM old.keys WHERE set_name = 'edge')
  UNION ALL SELECT 'edge_std_add', (SELECT bloom_add(bloom_add(bloom_add(bloom_add(filter, 'added later'), 4096), x'CAFE'), NULL) FROM old.filters WHERE name = 'edge_std')
  UNION ALL SELECT 'empty', (SELECT bloom_build(NULL, 100, 0.01))
  UNION ALL SELECT 'empty_add', (SELECT bloom_add(bloom_add(filter, 'x'), 2.5) FROM old.filters WHERE name = 'empty')
  UNION ALL SELECT 'empty_blocked', (SELECT bloom_build(NULL, 100, 0.01, 'blocked'))
  UNION ALL SELECT 'empty_blocked_add', (SELECT bloom_add(bloom_add(filter, x'00'), -7) FROM old.filters WHERE name = 'empty_blocked')
  UNION ALL SELECT 'groups_blocked_part' || g, f FROM (SELECT i % 3 AS g, bloom_build(key, 120, 0.01, 'blocked') AS f FROM old.keys WHERE set_name = 'groups' GROUP BY i % 3)
  UNION ALL SELECT 'groups_blocked_union', (SELECT bloom_union(filter) FROM old.filters WHERE name IN ('groups_blocked_part0', 'groups_blocked_part1', 'groups_blocked_part2'))
  UNION ALL SELECT 'groups_over', (SELECT bloom_build(key, 12, 0.01) FROM old.keys WHERE set_name = 'groups')
  UNION ALL SELECT 'groups_p1e6', (SELECT bloom_build(key, 120, 1e-6) FROM old.keys WHERE set_name = 'groups')
  UNION ALL SELECT 'groups_part' || g, f FROM (SELECT i % 3 AS g, bloom_build(key, 120, 0.01) AS f FROM old.keys WHERE set_name = 'groups' GROUP BY i % 3)
  UNION ALL SELECT 'groups_union', (SELECT bloom_union(filter) FROM old.filters WHERE name IN ('groups_part0', 'groups_part1', 'groups_part2'))
  UNION ALL SELECT 'groups_union01', (SELECT bloom_union(a.filter, b.filter) FROM old.filters a, old.filters b WHERE a.name = 'groups_part0' AND b.name = 'groups_part1')
  UNION ALL SELECT 'mixed_auto_blocked', (SELECT bloom_build(key, NULL, 0.01, 'blocked') FROM old.keys WHERE set_name = 'mixed')
  UNION ALL SELECT 'mixed_std', (SELECT bloom_build(key, 2000, 0.01) FROM old.keys WHERE set_name = 'mixed')
  UNION ALL SELECT 'nulls_auto', (SELECT bloom_build(key) FROM old.keys WHERE set_name = 'nulls')
  UNION ALL SELECT 'nulls_std', (SELECT bloom_build(key, 10, 0.01) FROM old.keys WHERE set_name = 'nulls')
  UNION ALL SELECT 'one_blocked_p05', (SELECT bloom_build(key, 1, 0.5, 'blocked') FROM old.keys WHERE set_name = 'one')
  UNION ALL SELECT 'one_std', (SELECT bloom_build(key, 1, 0.01) FROM old.keys WHERE set_name = 'one')
) AS r ORDER BY name;
-- => edge_auto|1
-- => edge_auto_blocked|1
-- => edge_auto_p001|1
-- => edge_blocked|1
-- => edge_k63|1
-- => edge_p09|1
-- => edge_p1e6_blocked|1
-- => edge_std|1
-- => edge_std_add|1
-- => empty|1
-- => empty_add|1
-- => empty_blocked|1
-- => empty_blocked_add|1
-- => groups_blocked_part0|1
-- => groups_blocked_part1|1
-- => groups_blocked_part2|1
-- => groups_blocked_union|1
-- => groups_over|1
-- => groups_p1e6|1
-- => groups_part0|1
-- => groups_part1|1
-- => groups_part2|1
-- => groups_union|1
-- => groups_union01|1
-- => mixed_auto_blocked|1
-- => mixed_std|1
-- => nulls_auto|1
-- => nulls_std|1
-- => one_blocked_p05|1
-- => one_std|1

-- The filters made from stored filters, rebuilt from the keys alone: a union of parts is the
-- filter of the whole; bloom_add on a built filter is the filter built with the key.
SELECT name, rebuilt = (SELECT filter FROM old.filters WHERE filters.name = r.name) FROM (
  SELECT 'edge_std_add' AS name, (SELECT bloom_add(bloom_add(bloom_add(bloom_add(bloom_build(key, 100, 0.01), 'added later'), 4096), x'CAFE'), NULL) FROM old.keys WHERE set_name = 'edge') AS rebuilt
  UNION ALL SELECT 'edge_std_add', (SELECT bloom_build(key, 100, 0.01) FROM (SELECT key FROM old.keys WHERE set_name = 'edge' UNION ALL VALUES ('added later'), (4096), (x'CAFE')))
  UNION ALL SELECT 'empty_add', (SELECT bloom_build(key, 100, 0.01) FROM (SELECT 'x' AS key UNION ALL SELECT 2.5))
  UNION ALL SELECT 'empty_blocked_add', (SELECT bloom_build(key, 100, 0.01, 'blocked') FROM (SELECT x'00' AS key UNION ALL SELECT -7))
  UNION ALL SELECT 'groups_blocked_union', (SELECT bloom_build(key, 120, 0.01, 'blocked') FROM old.keys WHERE set_name = 'groups')
  UNION ALL SELECT 'groups_union', (SELECT bloom_build(key, 120, 0.01) FROM old.keys WHERE set_name = 'groups')
  UNION ALL SELECT 'groups_union', (SELECT bloom_union(f) FROM (SELECT bloom_build(key, 120, 0.01) AS f FROM old.keys WHERE set_name = 'groups' GROUP BY i % 3))
  UNION ALL SELECT 'groups_union01', (SELECT bloom_build(key, 120, 0.01) FROM old.keys WHERE set_name = 'groups' AND i % 3 IN (0, 1))
) AS r ORDER BY name;
-- => edge_std_add|1
-- => edge_std_add|1
-- => empty_add|1
-- => empty_blocked_add|1
-- => groups_blocked_union|1
-- => groups_union|1
-- => groups_union|1
-- => groups_union01|1

-- The same filters through other spellings of the same build: n as an integral REAL, the
-- standard layout named, the keys in another order, n given as the distinct keys counted.
SELECT (SELECT bloom_build(key, 1e2, 0.01) FROM old.keys WHERE set_name = 'edge') = (SELECT filter FROM old.filters WHERE name = 'edge_std'),
       (SELECT bloom_build(key, 100, 0.01, 'standard') FROM old.keys WHERE set_name = 'edge') = (SELECT filter FROM old.filters WHERE name = 'edge_std'),
       (SELECT bloom_build(key, 2000, 0.01) FROM (SELECT key FROM old.keys WHERE set_name = 'mixed' ORDER BY i DESC)) = (SELECT filter FROM old.filters WHERE name = 'mixed_std'),
       (SELECT bloom_build(key, 58, 0.01) FROM old.keys WHERE set_name = 'edge') = (SELECT filter FROM old.filters WHERE name = 'edge_auto'),
       (SELECT bloom_build(key, 58, 0.05, 'blocked') FROM old.keys WHERE set_name = 'edge') = (SELECT filter FROM old.filters WHERE name = 'edge_auto_blocked');
-- => 1|1|1|1|1

-- Whole filters, spelled out: the filter of capacity 1 in both layouts, and the empty one.
SELECT hex(bloom_build(key, 1, 0.01)), hex(bloom_build(key, 1, 0.5, 'blocked')) FROM old.keys WHERE set_name = 'one';
-- => 53514246010101010700000000000000400000000000000001000000000000007B14AE47E17A843F0100000000000000000000000000000000000000000000000420000002490020|5351424601010201010000000000000000020000000000000100000000000000000000000000E03F01000000000000000000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
SELECT hex(bloom_build(key)) FROM old.keys WHERE set_name = 'nulls';
-- => 53514246010101010700000000000000400000000000000001000000000000007B14AE47E17A843F0000000000000000000000000000000000000000000000000000000000000000

------------------------------------------------------------------------------------------------
-- bloom_add and bloom_union on the stored filters give the stored results.

SELECT (SELECT bloom_add(bloom_add(bloom_add(bloom_add(filter, 'added later'), 4096), x'CAFE'), NULL) FROM old.filters WHERE name = 'edge_std')
         = (SELECT filter FROM old.filters WHERE name = 'edge_std_add'),
       (SELECT bloom_add(bloom_add(filter, 'x'), 2.5) FROM old.filters WHERE name = 'empty')
         = (SELECT filter FROM old.filters WHERE name = 'empty_add'),
       (SELECT bloom_add(bloom_add(filter, x'00'), -7) FROM old.filters WHERE name = 'empty_blocked')
         = (SELECT filter FROM old.filters WHERE name = 'empty_blocked_add'),
       (SELECT bloom_union(a.filter, b.filter) FROM old.filters a, old.filters b WHERE a.name = 'groups_part0' AND b.name = 'groups_part1')
         = (SELECT filter FROM old.filters WHERE name = 'groups_union01'),
       (SELECT bloom_union(a.filter, b.filter) FROM old.filters a, old.filters b WHERE a.name = 'groups_union01' AND b.name = 'groups_part2')
         = (SELECT filter FROM old.filters WHERE name = 'groups_union'),
       (SELECT bloom_union(a.filter, b.filter) FROM old.filters a, old.filters b WHERE a.name = 'groups_part2' AND b.name = 'groups_union01')
         = (SELECT filter FROM old.filters WHERE name = 'groups_union');
-- => 1|1|1|1|1|1
-- The aggregate, over the stored parts in either order and with NULLs among them.
SELECT (SELECT bloom_union(filter) FROM (SELECT filter FROM old.filters WHERE name GLOB 'groups_part[0-2]' ORDER BY name DESC))
         = (SELECT filter FROM old.filters WHERE name = 'groups_union'),
       (SELECT bloom_union(filter) FROM (SELECT filter FROM old.filters WHERE name GLOB 'groups_blocked_part[0-2]' UNION ALL SELECT NULL ORDER BY 1))
         = (SELECT filter FROM old.filters WHERE name = 'groups_blocked_union');
-- => 1|1
-- bloom_add of the keys of part 2, one at a time, onto the stored union of parts 0 and 1.
WITH RECURSIVE part2(n, key) AS (
  SELECT row_number() OVER (ORDER BY i), key FROM old.keys WHERE set_name = 'groups' AND i % 3 = 2
), fold(n, f) AS (
  SELECT 0, (SELECT filter FROM old.filters WHERE name = 'groups_union01')
  UNION ALL
  SELECT fold.n + 1, bloom_add(fold.f, part2.key) FROM fold JOIN part2 ON part2.n = fold.n + 1
)
SELECT n, f = (SELECT filter FROM old.filters WHERE name = 'groups_union') FROM fold ORDER BY n DESC LIMIT 1;
-- => 40|1

------------------------------------------------------------------------------------------------
-- Every function accepts every old filter, and changes only what it should: bloom_add adds one
-- key to the count and sets the key's bits, bloom_union(f, f) doubles the count and keeps the
-- bits, the aggregate of one filter is that filter, a NULL key changes nothing.

SELECT count(*),
       sum(bloom_might_contain(filter, 'a key no filter has') IN (0, 1)),
       sum(bloom_info(filter) IS NOT NULL),
       sum(bloom_add(filter, NULL) = filter),
       sum(bloom_might_contain(bloom_add(filter, 'a key no filter has'), 'a key no filter has') = 1),
       sum(substr(bloom_add(filter, 'a key no filter has'), 1, 40) = substr(filter, 1, 40)
           AND substr(bloom_add(filter, 'a key no filter has'), 49, 16) = substr(filter, 49, 16)
           AND length(bloom_add(filter, 'a key no filter has')) = length(filter)),
       sum(json_extract(bloom_info(bloom_add(filter, 'a key no filter has')), '$.keys_added')
           = json_extract(info, '$.keys_added') + 1),
       sum(substr(bloom_union(filter, filter), 1, 40) = substr(filter, 1, 40)
           AND substr(bloom_union(filter, filter), 49) = substr(filter, 49)),
       sum(json_extract(bloom_info(bloom_union(filter, filter)), '$.keys_added')
           = 2 * json_extract(info, '$.keys_added')),
       sum((SELECT bloom_union(g.filter) FROM old.filters g WHERE g.name = f.name) = filter)
FROM old.filters f;
-- => 30|30|30|30|30|30|30|30|30|30
