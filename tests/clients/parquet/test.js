// sqlite-bloom's 'parquet' kind held to DuckDB: DuckDB (npm @duckdb/node-api, the version
// package.json pins) writes Parquet files with Bloom filters for every type it writes them
// for, and for every column chunk the extension must list the filter as parquet_metadata()
// does, return its bytes exactly, and answer every probe as DuckDB's parquet_bloom_probe does;
// filters the extension builds, put into a copy of the file, must be read by DuckDB as the
// extension reads them. Then the lake of sql/lake_catalog.sql: written here, its script run in
// the sqlite3 shell, its answers checked against DuckDB scanning every file.
// Run through run.sh, which installs the packages and sets the environment read below.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const Database = require('better-sqlite3');
const { DuckDBInstance } = require('@duckdb/node-api');
const { COLUMNS, ROWS, ROW_GROUP_SIZE } = require('./columns.js');
const { readFooter, writeStruct, replaceBloomFilters } = require('./thrift.js');
const lake = require('./lake.js');

const EXTENSION = process.env.BLOOM_EXTENSION;
const WORKDIR = process.env.BLOOM_PARQUET_WORKDIR;
const SQLITE3 = process.env.BLOOM_SQLITE3;
const LAKE_PARENT = process.env.BLOOM_LAKE_PARENT;
const LAKE_SCRIPT = process.env.BLOOM_LAKE_SCRIPT;
for (const [name, value] of Object.entries({ EXTENSION, WORKDIR, SQLITE3, LAKE_PARENT, LAKE_SCRIPT })) {
  assert.ok(value, `set BLOOM_${name === 'WORKDIR' ? 'PARQUET_WORKDIR' : name} (run.sh does)`);
}

// Random keys absent from a column, probed per column (so per chunk, which also has the other
// row groups' keys as absent keys) in the file DuckDB wrote: ABSENT_MANY for the columns marked
// many, ABSENT_FEW for the others; in the copy holding the extension's filters, ABSENT_IN_COPY.
const ABSENT_MANY = 2000;
const ABSENT_FEW = 200;
const ABSENT_IN_COPY = 100;
const MASK64 = (1n << 64n) - 1n;

// splitmix64: the same keys at every run.
function random(seed) {
  let state = BigInt(seed);
  const next = () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  };
  return {
    int: (lo, hi) => BigInt(lo) + next() % (BigInt(hi) - BigInt(lo)),
    number: () => Number(next() >> 11n) / 2 ** 53,
    bytes: (n) => Buffer.from(Array.from({ length: n }, () => Number(next() & 0xffn))),
    // Letters, digits and spaces.
    plain: (n) => Buffer.from(Array.from({ length: n }, () =>
      'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 '.charCodeAt(Number(next() % 63n)))),
  };
}

// A key's identity, to tell keys apart across the JavaScript types that bind them.
function keyId(key) {
  if (typeof key === 'bigint') return `i${key}`;
  if (typeof key === 'number') return `r${Object.is(key, -0) ? '-0' : key}`;
  if (typeof key === 'string') return `t${key}`;
  return `b${key.toString('hex')}`;
}

// A key as SQL would write it, for messages.
function showKey(key) {
  if (typeof key === 'bigint') return String(key);
  if (typeof key === 'number') return `${Object.is(key, -0) ? '-0.0' : key} (REAL)`;
  if (typeof key === 'string') return `'${key}'`;
  return `X'${key.toString('hex')}'`;
}

function openSqlite(file = ':memory:') {
  const db = new Database(file);
  db.loadExtension(EXTENSION);
  return db;
}

// The SQLite side: the statements the checks run, each prepared when first run.
function sqliteSide(db) {
  const statement = (sql, adjust = (s) => s.pluck()) => {
    let prepared;
    const ready = () => (prepared ??= adjust(db.prepare(sql)));
    return { get: (...args) => ready().get(...args), all: (...args) => ready().all(...args) };
  };
  const one = statement;
  return {
    filters: statement(`SELECT row_group, column_path, physical_type, filter, num_values,
                               bloom_filter_offset, bloom_filter_length, created_by
                        FROM bloom_parquet_filters(?)`,
                       (s) => s.safeIntegers()),
    toParquet: one('SELECT bloom_to_parquet(?)'),
    fromParquet: one('SELECT bloom_from_parquet(?, ?)'),
    mightContain: one('SELECT bloom_might_contain(?, ?)'),
    info: one('SELECT bloom_info(?)'),
    add: one('SELECT bloom_add(?, ?)'),
    build(keys, n, p, kind = 'parquet') {
      db.exec('CREATE TEMP TABLE IF NOT EXISTS build_keys(k); DELETE FROM build_keys');
      const insert = db.prepare('INSERT INTO build_keys VALUES (?)');
      db.transaction(() => keys.forEach((k) => insert.run(k)))();
      return one('SELECT bloom_build(k, ?, ?, ?) FROM build_keys').get(n, p, kind);
    },
    // A filter of the keys for a column of the physical type, sized for them at p: bloom_build
    // with the kind 'parquet' and the type, or the kind alone where the keys' SQL type gives
    // the column's type (INTEGER INT64, REAL DOUBLE, TEXT and BLOB BYTE_ARRAY); checked against
    // the empty filter of that size made of that type by bloom_from_parquet, the keys added
    // one by one.
    buildTyped(keys, keyType, physical, p) {
      const natural = { INTEGER: 'INT64', REAL: 'DOUBLE', TEXT: 'BYTE_ARRAY', BLOB: 'BYTE_ARRAY' };
      const built = this.build(keys, keys.length, p, `parquet ${physical}`);
      if (natural[keyType] === physical) {
        assert.deepStrictEqual(this.build(keys, keys.length, p), built, physical);
      }
      const empty = one("SELECT bloom_from_parquet(bloom_to_parquet(bloom_empty(?, ?, 'parquet')), ?)")
        .get(keys.length, p, physical);
      const added = keys.reduce((filter, key) => this.add.get(filter, key), empty);
      assert.deepStrictEqual(this.toParquet.get(built), this.toParquet.get(added), physical);
      return built;
    },
  };
}

// The DuckDB side.
async function duckSide() {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  await connection.run('SET threads = 1');
  const rows = async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJS();
  return {
    connection,
    rows,
    // parquet_bloom_probe's answer for each row group: Map row group -> excludes.
    async probe(file, column, valueSql) {
      const result = await rows(`SELECT row_group_id, bloom_filter_excludes
                                 FROM parquet_bloom_probe('${file}', '${column}', ${valueSql})`);
      return new Map(result.map((r) => [Number(r.row_group_id), r.bloom_filter_excludes]));
    },
  };
}

// Has DuckDB write the columns into file, ROWS rows in row groups of ROW_GROUP_SIZE, each row
// group with distinct values (columns.js).
async function writeFile(duck, file, columns, distinct, options = '') {
  const select = columns.filter((c) => c.sql !== null).map((c) => `${c.sql} AS ${c.name}`).join(',\n');
  await duck.connection.run(`
    COPY (SELECT ${select}
          FROM (SELECT i, (i // ${ROW_GROUP_SIZE}) * ${distinct / 2} + (i * 7919) % ${distinct} AS v
                FROM range(${ROWS}) t(i)))
    TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP_SIZE}${options})`);
}

// The keys of a column in each row group with a filter, as SQLite holds them: Map row group ->
// keys.
async function presentKeys(duck, file, column) {
  const value = column.unnest ? `unnest(${column.name})` : column.name;
  const result = await duck.rows(`
    SELECT DISTINCT rg, ${column.key} AS key
    FROM (SELECT file_row_number // ${ROW_GROUP_SIZE} AS rg, ${value} AS c
          FROM read_parquet('${file}', file_row_number = true))
    WHERE c IS NOT NULL AND rg IN (${column.filteredRowGroups.join(', ')}) ORDER BY rg`);
  const byRowGroup = new Map();
  for (const { rg, key } of result) {
    const group = Number(rg);
    if (!byRowGroup.has(group)) byRowGroup.set(group, []);
    byRowGroup.get(group).push(column.fromDuck ? column.fromDuck(key) : key);
  }
  return byRowGroup;
}

// Keys of the column in no row group: all the others of a small domain, else count random ones.
function absentKeys(column, present, count, seed) {
  const seen = new Set([...present.values()].flat().map(keyId));
  if (column.domain) return column.domain.filter((k) => !seen.has(keyId(k)));
  const r = random(seed);
  const keys = [];
  while (keys.length < count) {
    const key = column.absent(r);
    if (seen.has(keyId(key))) continue;
    seen.add(keyId(key));
    keys.push(key);
  }
  return keys;
}

// Parquet's name of a physical type as bloom_from_parquet takes it.
function typeName(column) {
  return column.physical === 'FIXED_LEN_BYTE_ARRAY' ? `FIXED_LEN_BYTE_ARRAY(${column.length})` : column.physical;
}

// The column chunks of a file that DuckDB wrote a filter for, from parquet_metadata().
async function duckChunks(duck, file) {
  const result = await duck.rows(`
    SELECT row_group_id, replace(path_in_schema, ', ', '.') AS path, type, bloom_filter_offset,
           bloom_filter_length, num_values
    FROM parquet_metadata('${file}') WHERE bloom_filter_offset IS NOT NULL
    ORDER BY row_group_id, column_id`);
  return result.map((r) => ({
    rowGroup: Number(r.row_group_id), path: r.path, physical: r.type,
    offset: Number(r.bloom_filter_offset), length: Number(r.bloom_filter_length),
    numValues: Number(r.num_values),
  }));
}

// Everything about one file DuckDB wrote at the false-positive rate fpp: its chunks, their
// bytes, the keys of every column (few: ABSENT_FEW absent keys for every column).
async function describeFile(duck, file, fpp, columns, seed, few = false) {
  const bytes = fs.readFileSync(file);
  const chunks = await duckChunks(duck, file);
  const keys = new Map();
  for (const [index, column] of columns.entries()) {
    if (!column.filter) continue;
    const present = await presentKeys(duck, file, column);
    keys.set(column.path, { present, absent: absentKeys(column, present, column.many && !few ? ABSENT_MANY : ABSENT_FEW, seed + index) });
  }
  const [meta] = await duck.rows(`SELECT created_by, num_rows FROM parquet_file_metadata('${file}')`);
  return { file, fpp, bytes, chunks, keys, createdBy: meta.created_by, columns };
}

// DuckDB's answers for the keys of every probed column of the file (present keys only for a
// column whose probeBug DuckDB has): for each column and key,
// {column, key, rowGroups (those that hold it), excludes (parquet_bloom_probe's answer by row
// group)}.
async function duckAnswers(duck, file, columns, keysOf) {
  const answers = [];
  for (const column of columns) {
    if (!column.filter || !column.probed) continue;
    const { present, absent } = keysOf(column);
    const all = new Map();
    for (const [rowGroup, keys] of present) {
      for (const key of keys) {
        const id = keyId(key);
        if (!all.has(id)) all.set(id, { column, key, rowGroups: new Set() });
        all.get(id).rowGroups.add(rowGroup);
      }
    }
    if (!column.probeBug) for (const key of absent) all.set(keyId(key), { column, key, rowGroups: new Set() });
    for (const answer of all.values()) {
      answer.excludes = await duck.probe(file, column.name, column.probe(answer.key));
      answers.push(answer);
    }
  }
  return answers;
}

// Compares the extension's answers (on the filter filterOf(path, row group) gives) with
// DuckDB's: record(column, rowGroup, key, present, ours, duckdb) for each chunk with a filter.
function compareAnswers(answers, filterOf, sqlite, record) {
  for (const { column, key, rowGroups, excludes } of answers) {
    if (column.probeBug || column.probeBlind) continue;
    for (const rowGroup of column.filteredRowGroups) {
      const ours = sqlite.mightContain.get(filterOf(column.path, rowGroup), key);
      record(column, rowGroup, key, rowGroups.has(rowGroup), ours, excludes.get(rowGroup) ? 0 : 1);
    }
  }
}

test('DuckDB\'s Parquet Bloom filters, read and written by the extension', async (t) => {
  fs.mkdirSync(WORKDIR, { recursive: true });
  const duck = await duckSide();
  const db = openSqlite();
  t.after(() => db.close());
  const sqlite = sqliteSide(db);
  const [{ v: duckVersion }] = await duck.rows('SELECT version() AS v');
  t.diagnostic(`DuckDB ${duckVersion}, SQLite ${db.prepare('SELECT sqlite_version()').pluck().get()}`);

  // The file of every type, 50 values a row group, and a second of two columns, 600 values a
  // row group at a smaller false-positive rate (bigger filters: 64 blocks).
  const types = path.join(WORKDIR, 'types.parquet');
  await writeFile(duck, types, COLUMNS, 50);
  const rarer = COLUMNS.filter((c) => ['i64', 's'].includes(c.name));
  const tight = path.join(WORKDIR, 'fpp_0.001.parquet');
  await writeFile(duck, tight, rarer, 600, ', BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.001');
  const files = [await describeFile(duck, types, 0.01, COLUMNS, 1000),
                 await describeFile(duck, tight, 0.001, rarer, 2000, true)];
  const counts = { sameBytes: 0, builtPresent: 0, duckdb: 0, duckdbExcluded: 0, chunks: 0, bytes: 0, rebuilt: 0, present: 0, absent: 0, copyPresent: 0, copyAbsent: 0 };

  await t.test('DuckDB writes a filter for every column chunk expected, and no other', () => {
    for (const { chunks, columns, file } of files) {
      const expected = columns.filter((c) => c.filter)
        .flatMap((c) => c.filteredRowGroups.map((rowGroup) => `${rowGroup} ${c.path} ${c.physical}`)).sort();
      const actual = chunks.map((c) => `${c.rowGroup} ${c.path} ${c.physical}`).sort();
      assert.deepStrictEqual(actual, expected, file);
      for (const chunk of chunks) assert.strictEqual(chunk.numValues, ROW_GROUP_SIZE * (chunk.path === 'l.list.element' ? 2 : 1));
    }
    // 31 columns with filters in 3 row groups, one (mixed) in 2 only; 2 columns in 3.
    assert.strictEqual(files[0].chunks.length, 31 * 3 - 1);
    assert.strictEqual(files[1].chunks.length, 3 * 2);
  });

  // Each chunk's filter, as bloom_from_parquet makes it of the bytes at bloom_filter_offset.
  const read = new Map();
  const filterOf = (file) => (columnPath, rowGroup) => {
    const key = `${file}|${rowGroup}/${columnPath}`;
    if (!read.has(key)) {
      const { bytes, chunks, columns } = files.find((f) => f.file === file);
      const chunk = chunks.find((c) => c.path === columnPath && c.rowGroup === rowGroup);
      const column = columns.find((c) => c.path === columnPath);
      read.set(key, sqlite.fromParquet.get(bytes.subarray(chunk.offset, chunk.offset + chunk.length),
                                           typeName(column)));
    }
    return read.get(key);
  };

  await t.test('bloom_from_parquet reads the bytes at bloom_filter_offset; bloom_to_parquet gives them back', () => {
    for (const { file, bytes, chunks } of files) {
      for (const chunk of chunks) {
        const filter = filterOf(file)(chunk.path, chunk.rowGroup);
        const stored = bytes.subarray(chunk.offset, chunk.offset + chunk.length);
        const where = `${path.basename(file)} row group ${chunk.rowGroup} ${chunk.path}`;
        assert.deepStrictEqual(sqlite.toParquet.get(filter), stored, where);
        const info = JSON.parse(sqlite.info.get(filter));
        assert.strictEqual(info.physical_type, chunk.physical, where);
        // Our filter is the 64-byte header, then the very bitset the file stores after its
        // BloomFilterHeader; DuckDB's bitsets are a power of two of 32-byte blocks.
        assert.strictEqual(info.bitset_bytes, info.blocks * 32, where);
        assert.strictEqual(filter.length, 64 + info.bitset_bytes, where);
        assert.deepStrictEqual(filter.subarray(64), stored.subarray(stored.length - info.bitset_bytes), where);
        assert.strictEqual(info.blocks & (info.blocks - 1), 0, where);
        counts.bytes++;
      }
    }
    assert.strictEqual(counts.bytes, 92 + 6);
  });

  // In file order: row groups in order, and a row group's chunks in the schema's order; each
  // filter what bloom_from_parquet makes of the bytes, with its type's length.
  await t.test('bloom_parquet_filters lists exactly the chunks parquet_metadata() lists with a filter', () => {
    for (const { file, chunks, createdBy } of files) {
      const rows = sqlite.filters.all(file);
      assert.deepStrictEqual(
        rows.map((r) => ({
          rowGroup: Number(r.row_group), path: r.column_path, physical: r.physical_type,
          offset: Number(r.bloom_filter_offset), length: Number(r.bloom_filter_length),
          numValues: Number(r.num_values),
        })),
        chunks, file);
      for (const r of rows) {
        const where = `${path.basename(file)} row group ${r.row_group} ${r.column_path}`;
        assert.strictEqual(r.created_by, createdBy, where);
        assert.deepStrictEqual(r.filter, filterOf(file)(r.column_path, Number(r.row_group)), where);
        counts.chunks++;
      }
    }
    assert.strictEqual(counts.chunks, 92 + 6);
  });

  await t.test('a filter rebuilt from the chunk\'s values at DuckDB\'s size is DuckDB\'s, byte for byte', () => {
    for (const { file, bytes, chunks, columns, keys } of files) {
      for (const chunk of chunks) {
        const column = columns.find((c) => c.path === chunk.path);
        const stored = bytes.subarray(chunk.offset, chunk.offset + chunk.length);
        const info = JSON.parse(sqlite.info.get(filterOf(file)(chunk.path, chunk.rowGroup)));
        // DuckDB's header, then a bitset of zeros: the empty filter of its size and type.
        const empty = Buffer.concat([stored.subarray(0, stored.length - info.bitset_bytes),
                                     Buffer.alloc(info.bitset_bytes)]);
        let filter = sqlite.fromParquet.get(empty, typeName(column));
        for (const key of keys.get(chunk.path).present.get(chunk.rowGroup)) filter = sqlite.add.get(filter, key);
        assert.deepStrictEqual(sqlite.toParquet.get(filter), stored,
                               `${path.basename(file)} row group ${chunk.rowGroup} ${chunk.path}`);
        counts.rebuilt++;
      }
    }
    assert.strictEqual(counts.rebuilt, 92 + 6);
  });

  // DuckDB's answers, first checked alone: every key of a chunk may be there (else this
  // test's keys or its values in DuckDB's SQL are wrong), and a chunk without a filter
  // excludes nothing.
  await t.test('parquet_bloom_probe: DuckDB finds every present key (the keys and their SQL are right)', async () => {
    const misses = [];
    const bugs = new Map();
    const blind = new Map();
    for (const described of files) {
      const { file, columns, keys } = described;
      described.answers = await duckAnswers(duck, file, columns, (c) => keys.get(c.path));
      for (const { column, key, rowGroups, excludes } of described.answers) {
        assert.strictEqual(excludes.size, ROWS / ROW_GROUP_SIZE);
        for (const [rowGroup, excluded] of excludes) {
          const filtered = column.filteredRowGroups.includes(rowGroup);
          if (column.probeBug) {
            if (rowGroups.has(rowGroup)) {
              const [wrong, all] = bugs.get(column) ?? [0, 0];
              bugs.set(column, [wrong + (excluded ? 1 : 0), all + 1]);
            }
            continue;
          }
          if (column.probeBlind) {
            const [excluding, all] = blind.get(column) ?? [0, 0];
            blind.set(column, [excluding + (excluded ? 1 : 0), all + 1]);
          }
          if (excluded && (rowGroups.has(rowGroup) || !filtered)) misses.push(`${column.path} row group ${rowGroup} key ${showKey(key)}`);
          if (filtered) counts.duckdb++;
          if (filtered && excluded) counts.duckdbExcluded++;
        }
      }
    }
    assert.deepStrictEqual(misses.slice(0, 20), [], `${misses.length} present keys DuckDB excludes`);
    t.diagnostic(`DuckDB's answers: ${counts.duckdb}, of which "excluded" ${counts.duckdbExcluded}`);
    assert.strictEqual(counts.duckdb, 60886);
    // The columns DuckDB 1.5.6 probes wrongly: most present keys excluded.
    assert.deepStrictEqual([...bugs.keys()].map((c) => c.path), ['dec4', 'dec9', 'dec18', 'tsms', 'bz']);
    for (const [column, [wrong, all]] of bugs) {
      t.diagnostic(`DuckDB's parquet_bloom_probe excludes ${wrong} of ${all} present keys of ${column.path} (${column.physical}): ${column.probeBug}`);
      assert.ok(wrong > all / 2, `${column.path}: DuckDB's bug is gone (${wrong} of ${all}): compare the column in full`);
    }
    assert.deepStrictEqual([...blind.keys()].map((c) => c.path), ['uu', 'iv']);
    for (const [column, [excluding, all]] of blind) {
      t.diagnostic(`DuckDB's parquet_bloom_probe excludes ${excluding} of ${all} keys of ${column.path} (${column.physical}), present and absent: ${column.probeBlind}`);
      assert.strictEqual(excluding, 0, `${column.path}: DuckDB now probes the column: compare it in full`);
    }
  });

  await t.test('bloom_might_contain answers as parquet_bloom_probe, for present and absent keys', () => {
    const disagreements = [];
    const falseNegatives = [];
    for (const { file, columns, keys, answers } of files) {
      compareAnswers(answers, filterOf(file), sqlite,
        (column, rowGroup, key, present, ours, duckdb) => {
          counts[present ? 'present' : 'absent']++;
          const where = `${path.basename(file)} ${column.path} (${column.physical}) row group ${rowGroup} key ${showKey(key)}`;
          if (ours !== duckdb) disagreements.push(`${where}: ours ${ours}, DuckDB's ${duckdb}`);
          if (present && ours !== 1) falseNegatives.push(where);
        });
      // The nested columns DuckDB cannot probe, and those it probes wrongly or not at all:
      // every present key may be there.
      for (const column of columns.filter((c) => c.filter && (!c.probed || c.probeBug || c.probeBlind))) {
        for (const [rowGroup, present] of keys.get(column.path).present) {
          for (const key of present) {
            if (sqlite.mightContain.get(filterOf(file)(column.path, rowGroup), key) !== 1) {
              falseNegatives.push(`${column.path} row group ${rowGroup} key ${showKey(key)}`);
            }
            counts.present++;
          }
        }
      }
    }
    assert.deepStrictEqual(disagreements.slice(0, 20), [], `${disagreements.length} disagreements with DuckDB`);
    assert.deepStrictEqual(falseNegatives.slice(0, 20), [], `${falseNegatives.length} false negatives`);
    // Every present key of every chunk (those DuckDB cannot probe too), and 200 to 2,000 absent
    // keys a column, asked of each of its chunks.
    assert.deepStrictEqual([counts.present, counts.absent], [8350, 52386]);
  });

  await t.test('filters built by the extension, put into a copy of the file, are read by DuckDB as by the extension', async () => {
    const disagreements = [];
    const copies = new Map();
    for (const { file, bytes, chunks, columns, keys, fpp } of files) {
      // The footer reads and writes back unchanged (the check of the Thrift code).
      const { tree, start } = readFooter(bytes);
      assert.deepStrictEqual(writeStruct(tree), bytes.subarray(start, bytes.length - 8));
      const built = new Map();
      copies.set(path.join(WORKDIR, `ours_${path.basename(file)}`), built);
      const replacements = new Map();
      for (const chunk of chunks) {
        const column = columns.find((c) => c.path === chunk.path);
        const present = keys.get(chunk.path).present.get(chunk.rowGroup);
        const filter = sqlite.buildTyped(present, column.keyType, typeName(column), fpp);
        built.set(`${chunk.rowGroup}/${chunk.path}`, filter);
        const ours = sqlite.toParquet.get(filter);
        replacements.set(`${chunk.rowGroup}/${chunk.path}`, ours);
        // Sized for the chunk's keys at the file's rate, as DuckDB sizes its filters but by
        // another model (rule 27 (Parquet filters)): where the sizes agree, the same keys give
        // the same bytes.
        if (ours.length === chunk.length) {
          assert.deepStrictEqual(ours, bytes.subarray(chunk.offset, chunk.offset + chunk.length), `${chunk.path} row group ${chunk.rowGroup}`);
          counts.sameBytes++;
        }
      }
      const copy = path.join(WORKDIR, `ours_${path.basename(file)}`);
      fs.writeFileSync(copy, replaceBloomFilters(bytes, replacements));
      const fewer = (column) => ({ present: keys.get(column.path).present,
                                   absent: keys.get(column.path).absent.slice(0, ABSENT_IN_COPY) });
      for (const chunk of chunks) {
        const filter = built.get(`${chunk.rowGroup}/${chunk.path}`);
        for (const key of keys.get(chunk.path).present.get(chunk.rowGroup)) {
          if (sqlite.mightContain.get(filter, key) !== 1) disagreements.push(`built ${chunk.path} row group ${chunk.rowGroup} key ${showKey(key)}: ours 0 (present)`);
          counts.builtPresent++;
        }
      }
      const answers = await duckAnswers(duck, copy, columns.filter((c) => !c.probeBug && !c.probeBlind), fewer);
      compareAnswers(answers, (p, rg) => built.get(`${rg}/${p}`), sqlite,
        (column, rowGroup, key, present, ours, duckdb) => {
          counts[present ? 'copyPresent' : 'copyAbsent']++;
          if (ours !== duckdb || (present && ours !== 1)) {
            disagreements.push(`${path.basename(copy)} ${column.path} (${column.physical}) row group ${rowGroup} key ${showKey(key)}: ours ${ours}, DuckDB's ${duckdb}${present ? ' (present)' : ''}`);
          }
        });
    }
    assert.deepStrictEqual(disagreements.slice(0, 20), [], `${disagreements.length} disagreements with DuckDB`);
    assert.deepStrictEqual([counts.builtPresent, counts.copyPresent, counts.copyAbsent, counts.sameBytes],
                           [8350, 6700, 13450, 6]);
    // The extension reads its own filters back from the copies.
    for (const { file, chunks } of files) {
      const copy = path.join(WORKDIR, `ours_${path.basename(file)}`);
      const rows = sqlite.filters.all(copy);
      assert.strictEqual(rows.length, chunks.length);
      // The same bytes in Parquet's form (read back, n and p are not known).
      for (const r of rows) {
        assert.deepStrictEqual(sqlite.toParquet.get(r.filter),
                               sqlite.toParquet.get(copies.get(copy).get(`${r.row_group}/${r.column_path}`)));
      }
    }
  });

  t.diagnostic(`chunks ${counts.chunks}, bytes compared ${counts.bytes}, rebuilt ${counts.rebuilt}; ` +
               `answers compared with DuckDB: present ${counts.present}, absent ${counts.absent}; ` +
               `in the copy with the extension's filters: present ${counts.copyPresent}, absent ${counts.copyAbsent} ` +
               `(${counts.sameBytes} of them of DuckDB's size and bytes)`);
});

// bloom_parquet_write (rule 31 (Parquet writes)) on a file DuckDB wrote without any filter (every
// value distinct: no dictionary, so no filter): filters for each row group of three columns and
// one for every row group of a fourth, built in SQLite from the values DuckDB wrote, written into
// a copy that DuckDB then reads: the same rows, the source's bytes up to its footer, the same
// footer but the new fields, each filter listed by parquet_metadata() where bloom_parquet_filters
// lists it, and parquet_bloom_probe answering as bloom_might_contain for the values of the file
// (never excluding a value's own row group) and for absent ones, most of which it excludes. A
// probe of DuckDB's opens the file (1.3 to 1.7 ms): every value of id and name is probed, every
// WRITE_SAMPLE-th of code and price; bloom_might_contain is asked every value of every column.
const WRITE_GROUP = 2048; // DuckDB's row groups are whole vectors of 2,048 rows
const WRITE_GROUPS = 2;
const WRITE_ABSENT = 250;
const WRITE_SAMPLE = 8;

// A struct tree without the fields of ColumnMetaData that a Bloom filter sets (14 and 15), in
// every chunk of every row group (thrift.js's trees: FileMetaData.row_groups is field 4,
// RowGroup.columns 1, ColumnChunk.meta_data 3).
function withoutFilterFields(tree) {
  const find = (struct, id) => struct.find((f) => f.id === id);
  for (const rowGroup of find(tree, 4).value.items) {
    for (const chunk of find(rowGroup, 1).value.items) {
      const meta = find(chunk, 3).value;
      meta.splice(0, meta.length, ...meta.filter((f) => f.id !== 14 && f.id !== 15));
    }
  }
  return tree;
}

test('bloom_parquet_write: filters written into a file DuckDB wrote without any, read by DuckDB', async (t) => {
  fs.mkdirSync(WORKDIR, { recursive: true });
  const duck = await duckSide();
  const db = openSqlite();
  t.after(() => db.close());
  const source = path.join(WORKDIR, 'unfiltered.parquet');
  const destination = path.join(WORKDIR, 'written.parquet');
  fs.rmSync(destination, { force: true });
  await duck.connection.run(`
    COPY (SELECT (i * 7 + 3)::BIGINT AS id, (i * 13 - 1000)::INTEGER AS code, 'n' || i AS name,
                 (i / 4)::DOUBLE AS price
          FROM range(${WRITE_GROUP * WRITE_GROUPS}) t(i))
    TO '${source}' (FORMAT parquet, ROW_GROUP_SIZE ${WRITE_GROUP})`);
  const [{ groups, filtered }] = await duck.rows(`
    SELECT count(DISTINCT row_group_id)::INTEGER AS groups, count(bloom_filter_offset)::INTEGER AS filtered
    FROM parquet_metadata('${source}')`);
  assert.deepStrictEqual([groups, filtered], [WRITE_GROUPS, 0]);

  // The values, by row group, into SQLite; the filters built there and written.
  const values = await duck.rows(`
    SELECT (file_row_number // ${WRITE_GROUP})::INTEGER AS g, id, code, name, price
    FROM read_parquet('${source}', file_row_number = true)`);
  db.exec('CREATE TABLE vals(g INTEGER, id INTEGER, code INTEGER, name TEXT, price REAL)');
  const insert = db.prepare('INSERT INTO vals VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => values.forEach((v) => insert.run(v.g, v.id, v.code, v.name, v.price)))();
  db.exec(`CREATE TABLE given AS
    SELECT 'id' AS column_path, g, bloom_build(id, ${WRITE_GROUP}, 0.01, 'parquet INT64') AS filter
    FROM vals GROUP BY g UNION ALL
    SELECT 'code', g, bloom_build(code, ${WRITE_GROUP}, 0.01, 'parquet INT32') FROM vals GROUP BY g
    UNION ALL
    SELECT 'price', g, bloom_build(price, ${WRITE_GROUP}, 0.01, 'parquet DOUBLE') FROM vals GROUP BY g
    UNION ALL
    SELECT 'name', NULL, bloom_build(name, ${WRITE_GROUP * WRITE_GROUPS}, 0.01, 'parquet BYTE_ARRAY')
    FROM vals`);
  const written = db.prepare(`SELECT bloom_parquet_write(?, ?, column_path, g, filter)
                              FROM given ORDER BY rowid`).pluck().get(source, destination);
  assert.strictEqual(written, 4 * WRITE_GROUPS);

  // DuckDB reads the same rows.
  const [{ missing, extra, rows }] = await duck.rows(`
    SELECT (SELECT count(*) FROM (SELECT * FROM read_parquet('${source}')
                                  EXCEPT ALL SELECT * FROM read_parquet('${destination}')))::INTEGER AS missing,
           (SELECT count(*) FROM (SELECT * FROM read_parquet('${destination}')
                                  EXCEPT ALL SELECT * FROM read_parquet('${source}')))::INTEGER AS extra,
           (SELECT count(*) FROM read_parquet('${destination}'))::INTEGER AS rows`);
  assert.deepStrictEqual({ missing, extra, rows }, { missing: 0, extra: 0, rows: WRITE_GROUP * WRITE_GROUPS });

  // The source's bytes up to its footer; the footer the same but the filters' fields, in the
  // form thrift.js writes back byte for byte.
  const sourceBytes = fs.readFileSync(source);
  const destinationBytes = fs.readFileSync(destination);
  const before = readFooter(sourceBytes), after = readFooter(destinationBytes);
  assert.deepStrictEqual(destinationBytes.subarray(0, before.start), sourceBytes.subarray(0, before.start));
  assert.deepStrictEqual(writeStruct(after.tree), destinationBytes.subarray(after.start, destinationBytes.length - 8));
  assert.deepStrictEqual(withoutFilterFields(after.tree), before.tree);

  // parquet_metadata() lists the filters where bloom_parquet_filters does; the bytes there are
  // bloom_to_parquet's of the filters given.
  const ours = db.prepare(`SELECT row_group, column_path, bloom_filter_offset, bloom_filter_length, filter
                           FROM bloom_parquet_filters(?)`).all(destination);
  const theirs = await duckChunks(duck, destination);
  assert.deepStrictEqual(theirs.map((c) => `${c.rowGroup} ${c.path} ${c.offset} ${c.length}`),
                         ours.map((r) => `${r.row_group} ${r.column_path} ${r.bloom_filter_offset} ${r.bloom_filter_length}`));
  const givenBytes = db.prepare(`SELECT bloom_to_parquet(filter) FROM given
                                 WHERE column_path = ? AND (g = ? OR g IS NULL)`).pluck();
  for (const r of ours) {
    assert.deepStrictEqual(destinationBytes.subarray(r.bloom_filter_offset, r.bloom_filter_offset + r.bloom_filter_length),
                           givenBytes.get(r.column_path, r.row_group));
  }
  assert.strictEqual(ours.length, 4 * WRITE_GROUPS);
  // The filter given for every row group is written once.
  assert.strictEqual(new Set(ours.filter((r) => r.column_path === 'name').map((r) => r.bloom_filter_offset)).size, 1);

  // parquet_bloom_probe against bloom_might_contain, for every value of the file and absent ones.
  const filterOf = new Map(ours.map((r) => [`${r.row_group}/${r.column_path}`, r.filter]));
  const sqlite = sqliteSide(db);
  const columns = {
    id: { sql: (v) => `${v}::BIGINT`, absent: (i) => BigInt(i * 7 + 5), every: 1 },
    code: { sql: (v) => `${v}::INTEGER`, absent: (i) => i * 13 - 993, every: WRITE_SAMPLE },
    name: { sql: (v) => `'${v}'`, absent: (i) => `m${i}`, every: 1 },
    price: { sql: (v) => `${v}::DOUBLE`, absent: (i) => i / 4 + 0.125, every: WRITE_SAMPLE },
  };
  const counts = { present: 0, absent: 0, excluded: 0, disagreements: [], found: 0 };
  for (const [column, { sql, absent, every }] of Object.entries(columns)) {
    for (const v of values) {
      counts.found += sqlite.mightContain.get(filterOf.get(`${v.g}/${column}`), v[column]);
    }
    const probes = values.filter((v, i) => i % every === 0).map((v) => ({ key: v[column], group: v.g }));
    for (let i = 0; i < WRITE_ABSENT; i++) probes.push({ key: absent(i), group: -1 });
    for (const { key, group } of probes) {
      const excludes = await duck.probe(destination, column, sql(key));
      for (let g = 0; g < WRITE_GROUPS; g++) {
        const duckdb = excludes.get(g) ? 0 : 1;
        const mine = sqlite.mightContain.get(filterOf.get(`${g}/${column}`), key);
        if (mine !== duckdb || (g === group && duckdb !== 1)) {
          counts.disagreements.push(`${column} row group ${g} key ${showKey(key)}: ours ${mine}, DuckDB's ${duckdb}${g === group ? ' (present)' : ''}`);
        }
        if (g === group) counts.present++;
        if (group < 0) {
          counts.absent++;
          counts.excluded += 1 - duckdb;
        }
      }
    }
  }
  assert.deepStrictEqual(counts.disagreements.slice(0, 20), [], `${counts.disagreements.length} disagreements`);
  assert.strictEqual(counts.found, 4 * WRITE_GROUP * WRITE_GROUPS);
  assert.strictEqual(counts.present, (2 + 2 / WRITE_SAMPLE) * WRITE_GROUP * WRITE_GROUPS);
  assert.strictEqual(counts.absent, 4 * WRITE_ABSENT * WRITE_GROUPS);
  assert.ok(counts.excluded >= 0.95 * counts.absent, `${counts.excluded} of ${counts.absent} absent keys excluded`);
  t.diagnostic(`bloom_parquet_write: ${written} chunks given filters; bloom_might_contain finds all ${counts.found} values ` +
               `in their row groups' filters; parquet_bloom_probe and bloom_might_contain agree on ${counts.present} ` +
               `present keys (each in its own row group) and ${counts.absent} absent ones, ${counts.excluded} of them ` +
               `excluded by DuckDB`);
});

// Where SQL's idea of a value and DuckDB's differ: the extension takes a key as SQLite holds
// it and converts it to the column's type only where SQL's equality would find the stored
// value (docs/functions.md), while DuckDB's parquet_bloom_probe first casts its value to the
// column's type (rounding a REAL, parsing a TEXT). Each case: the column and its values, the
// key, DuckDB's value for it (null: DuckDB's cast fails), the extension's answer, DuckDB's
// (null: an error), and what the difference means for a caller.
const EDGE_COLUMNS = {
  dz: ['DOUBLE', '[0.0, 1.5, 5.0, 9007199254740992.0]'],
  fz: ['FLOAT', '[0.0, 0.1, 5.0, 16777216.0]::FLOAT[]'],
  i: ['INTEGER', '[-1, 5, 2147483647]'],
  u: ['UINTEGER', '[4294967295, 5]::UINTEGER[]'],
  big: ['BIGINT', '[5, 9007199254740993]::BIGINT[]'],
  d: ['DATE', "[DATE '2024-01-01', DATE '1969-12-31']"],
  s: ['VARCHAR', "['x', '5', '']"],
  uu: ['UUID', "['0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'::UUID]"],
};
const UUID_BYTES = Buffer.from('0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'hex');
const EDGE_CASES = [
  ['dz', -0.0, "'-0.0'::DOUBLE", 1, 0, '-0.0 = 0.0 in SQL (and in DuckDB\'s scans); DuckDB\'s probe hashes -0.0\'s own bits'],
  ['dz', 5n, '5', 1, 1, 'an INTEGER exactly representable as a DOUBLE is that DOUBLE'],
  ['dz', 9007199254740993n, '9007199254740993', 0, 1, 'SQL: 9007199254740993 != 9007199254740992.0; DuckDB rounds it to the DOUBLE 2^53, which the column holds'],
  ['fz', 0.1, '0.1', 0, 1, 'a FLOAT column holds 0.1 as the float nearest to it, which SQLite holds as 0.10000000149011612, not 0.1; DuckDB rounds 0.1 to that float'],
  ['fz', Math.fround(0.1), "'0.10000000149011612'::DOUBLE", 1, 1, 'the float 0.1 as SQLite holds it'],
  ['fz', 16777216n, '16777216', 1, 1, 'an INTEGER exactly representable as a FLOAT'],
  ['fz', 16777217n, '16777217', 0, 1, 'SQL: 16777217 is no FLOAT; DuckDB rounds it to 16777216.0, which the column holds'],
  ['i', 5.0, '5.0', 1, 1, 'an integral REAL is that integer'],
  ['i', 4.5, '4.5', 0, 1, 'SQL: 4.5 is no integer; DuckDB rounds it to 5, which the column holds'],
  ['i', '5', "'5'", 'error', 1, 'SQL: the TEXT \'5\' is not the INTEGER 5, and no TEXT is an INT32 value: an error that says so; DuckDB parses it'],
  ['i', 4294967295n, '4294967295', 1, null, 'an INT32 filter takes [-2^31, 2^32) by its low 32 bits: 2^32 - 1 is -1 (a UINTEGER column\'s value); DuckDB cannot cast 2^32 - 1 to INTEGER'],
  ['i', 4294967296n + 5n, '4294967301', 0, null, 'beyond 32 bits: no INT32 value; DuckDB cannot cast it'],
  ['u', -1n, '-1', 1, null, 'UINTEGER 4294967295 is stored as the INT32 -1, and -1 is taken by its bits; DuckDB cannot cast -1 to UINTEGER'],
  ['u', 4294967295n, '4294967295', 1, 1, 'a UINTEGER\'s value as it is'],
  ['big', 9007199254740993n, '9007199254740993', 1, 1, 'an INT64 as an INTEGER'],
  ['big', 9007199254740992.0, '9007199254740992.0', 0, 0, 'an integral REAL is that integer: 2^53, which the column does not hold'],
  ['d', 19723n, "DATE '2024-01-01'", 1, 1, 'a DATE is its day count since 1970-01-01 (unixepoch(d) / 86400 in SQLite)'],
  ['d', -1n, "DATE '1969-12-31'", 1, 1, 'days before 1970 are negative'],
  ['d', '2024-01-01', "'2024-01-01'", 'error', 1, 'SQL: the TEXT \'2024-01-01\' is no day count: an error that says how to make one; DuckDB parses it as a DATE'],
  ['s', Buffer.from('x'), "'x'::BLOB", 1, 1, 'a BYTE_ARRAY filter takes a BLOB by its bytes as a TEXT by its UTF-8'],
  ['s', '', "''", 1, 1, 'the empty string is a value'],
  ['s', 5n, '5', 'error', 1, 'SQL: the INTEGER 5 is not the TEXT \'5\', and no INTEGER is a BYTE_ARRAY value: an error; DuckDB casts 5 to \'5\''],
  ['uu', UUID_BYTES, "'0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'::UUID", 1, 1, 'a UUID is its 16 bytes (unhex(replace(uuid, \'-\', \'\')) in SQLite)'],
  ['uu', '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', "'0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'", 0, 1, 'SQL: a UUID\'s text is 36 bytes, not a FIXED_LEN_BYTE_ARRAY(16) value; DuckDB parses it'],
  ['uu', UUID_BYTES.subarray(0, 15), null, 0, null, 'a BLOB of another length is no value of the type'],
];

test('where SQL and DuckDB see a value differently: the extension answers as SQL compares', async (t) => {
  fs.mkdirSync(WORKDIR, { recursive: true });
  const duck = await duckSide();
  const db = openSqlite();
  t.after(() => db.close());
  const sqlite = sqliteSide(db);
  const file = path.join(WORKDIR, 'edge.parquet');
  const select = Object.entries(EDGE_COLUMNS)
    .map(([name, [type, values]]) => `(${values})[i % len(${values}) + 1]::${type} AS ${name}`).join(', ');
  await duck.connection.run(`COPY (SELECT ${select} FROM range(4096) t(i)) TO '${file}' (FORMAT parquet)`);
  const bytes = fs.readFileSync(file);
  const chunks = await duckChunks(duck, file);
  assert.deepStrictEqual(chunks.map((c) => c.path), Object.keys(EDGE_COLUMNS));
  const filters = new Map(chunks.map((c) => [c.path, sqlite.fromParquet.get(
    bytes.subarray(c.offset, c.offset + c.length), c.path === 'uu' ? 'FIXED_LEN_BYTE_ARRAY(16)' : c.physical)]));
  const differences = [];
  for (const [column, key, duckValue, ours, duckdb, note] of EDGE_CASES) {
    let theirs = null;
    if (duckValue !== null) {
      try {
        theirs = (await duck.probe(file, column, duckValue)).get(0) ? 0 : 1;
      } catch (error) {
        assert.match(error.message, /Failed to cast value|Conversion Error/);
      }
    }
    const where = `${column} (${EDGE_COLUMNS[column][0]}) key ${showKey(key)}`;
    let answer;
    try {
      answer = sqlite.mightContain.get(filters.get(column), key);
    } catch (error) { // rule 27 (Parquet filters): a key of an SQL type the column never holds
      assert.match(error.message, /^bloom_might_contain: the key .* is (INTEGER|TEXT), and no \1 is a value of the filter's type/);
      answer = 'error';
    }
    assert.strictEqual(answer, ours, `${where}: ${note}`);
    assert.strictEqual(theirs, duckdb, `${where}: DuckDB's answer`);
    if (ours !== duckdb) differences.push(`${where}: ours ${ours}, DuckDB's ${duckdb ?? 'an error'}: ${note}`);
  }
  t.diagnostic(`${EDGE_CASES.length} cases, ${differences.length} where the answers differ:`);
  differences.forEach((d) => t.diagnostic(d));
  assert.strictEqual(differences.length, 13);
});

// The statements of the blocks of a Markdown document fenced "```sql INFO", in order, each with
// the rows its "-- => a|b" lines show (none: not checked). A statement ends with ';' at the end
// of a line.
function documentExamples(document, info) {
  const statements = [];
  let inside = false;
  let pending = [];
  for (const line of fs.readFileSync(document, 'utf8').split('\n')) {
    if (!inside) {
      inside = line.trimEnd() === `\`\`\`sql ${info}`;
      continue;
    }
    if (line.startsWith('```')) {
      assert.deepStrictEqual(pending.filter((l) => l.trim() !== ''), [], `a statement without its ';' in ${document}`);
      inside = false;
      continue;
    }
    const shown = /^-- => (.*)$/.exec(line);
    if (shown) {
      assert.ok(statements.length > 0, `a result before any statement in ${document}`);
      statements[statements.length - 1].rows.push(shown[1]);
    } else if (!line.startsWith('--')) {
      pending.push(line);
      if (/;\s*$/.test(line)) {
        statements.push({ sql: pending.join('\n'), rows: [] });
        pending = [];
      }
    }
  }
  return statements;
}

// A value of a result row as the documents show it.
function shown(value) {
  return value === null ? '' : String(value);
}

// docs/functions.md's example of a Parquet file DuckDB writes with Bloom filters: its DuckDB
// statements run in DuckDB, then its SQLite ones with the extension, each against the rows the
// document shows, the file in WORKDIR for the document's /tmp/orders.parquet; every value of
// each row group's customer_id found by that row group's filter; and what the text says of
// other limits: none, the limit less one, and one so large that DuckDB's allocation fails.
test('functions.md: the COPY options that make DuckDB write Bloom filters, read by bloom_parquet_filters', async (t) => {
  const document = path.join(__dirname, '..', '..', '..', 'docs', 'functions.md');
  const file = path.join(WORKDIR, 'orders.parquet');
  const here = (sql) => sql.replaceAll("'/tmp/orders.parquet'", `'${file}'`);
  const inDuckdb = documentExamples(document, 'duckdb');
  const inSqlite = documentExamples(document, 'parquet');
  assert.ok(inDuckdb.some((s) => /^COPY .*DICTIONARY_SIZE_LIMIT \d+/s.test(s.sql)), 'a COPY with DICTIONARY_SIZE_LIMIT');
  assert.ok([...inDuckdb, ...inSqlite].filter((s) => s.rows.length > 0).length >= 2, 'results shown');
  fs.rmSync(file, { force: true });
  const duck = await duckSide();
  const duckRows = async (sql) => (await duck.connection.runAndReadAll(sql)).getRowsJS()
    .map((row) => row.map(shown).join('|'));
  for (const { sql, rows } of inDuckdb) {
    const result = await duckRows(here(sql));
    if (rows.length > 0) assert.deepStrictEqual(result, rows, sql);
  }
  const db = openSqlite();
  t.after(() => db.close());
  for (const { sql, rows } of inSqlite) {
    const result = db.prepare(here(sql)).raw().all().map((row) => row.map(shown).join('|'));
    if (rows.length > 0) assert.deepStrictEqual(result, rows, sql);
  }

  await t.test('each row group\'s filter of customer_id holds every value of the row group', async () => {
    const groups = (await duck.rows(`SELECT row_group_id AS g, row_group_num_rows AS n
                                     FROM parquet_metadata('${file}') WHERE path_in_schema = 'customer_id'
                                     ORDER BY row_group_id`)).map((r) => Number(r.n));
    const filters = new Map(db.prepare(`SELECT row_group, filter FROM bloom_parquet_filters(?)
                                        WHERE column_path = 'customer_id'`).raw().all(file));
    assert.strictEqual(filters.size, groups.length, 'a filter for every row group');
    // Every row group but the last is full, so row r is in row group r // (its rows).
    assert.ok(groups.slice(0, -1).every((n) => n === groups[0]));
    const values = await duck.rows(`SELECT DISTINCT file_row_number // ${groups[0]} AS g, customer_id AS k
                                    FROM read_parquet('${file}', file_row_number = true)`);
    db.exec('CREATE TEMP TABLE chunk_values(row_group INTEGER, k INTEGER)');
    const insert = db.prepare('INSERT INTO chunk_values VALUES (?, ?)');
    db.transaction(() => values.forEach(({ g, k }) => insert.run(g, k)))();
    const missed = db.prepare(`SELECT count(*) FROM chunk_values
                               WHERE row_group = ? AND NOT bloom_might_contain(?, k)`).pluck();
    for (const [group, filter] of filters) assert.strictEqual(missed.get(group, filter), 0, `row group ${group}`);
    t.diagnostic(`${values.length} distinct values of row groups in ${groups.length} row groups, each found by its filter`);
  });

  await t.test('no filter without the option; at the limit less one, only where a row group has fewer values', async () => {
    const copy = inDuckdb.find((s) => /^COPY /.test(s.sql)).sql;
    const [, limit] = /DICTIONARY_SIZE_LIMIT (\d+)/.exec(copy);
    const filtersBy = async (sql) => {
      await duck.connection.run(here(sql));
      return duckRows(`SELECT path_in_schema, count(bloom_filter_length) FROM parquet_metadata('${file}')
                       GROUP BY ALL ORDER BY ALL`);
    };
    assert.deepStrictEqual(await filtersBy(copy.replace(/, DICTIONARY_SIZE_LIMIT \d+/, '')),
                           ['customer_id|0', 'order_id|0']);
    assert.deepStrictEqual(await filtersBy(copy.replace(/DICTIONARY_SIZE_LIMIT \d+/, `DICTIONARY_SIZE_LIMIT ${Number(limit) - 1}`)),
                           ['customer_id|1', 'order_id|1']);
  });

  await t.test('a limit of 100,000,000 makes DuckDB allocate 6 GiB for a VARCHAR column, and fail', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run("SET memory_limit = '2GB'");
    await assert.rejects(
      connection.run(`COPY (SELECT 'v' || (i % 10) AS s FROM range(1000) t(i))
                      TO '${path.join(WORKDIR, 'too_large_limit.parquet')}'
                      (FORMAT parquet, DICTIONARY_SIZE_LIMIT 100000000)`),
      /Out of Memory Error: failed to allocate data of size 6\.0 GiB/);
  });
});

// The lake of sql/lake_catalog.sql, written by DuckDB; the script run in the sqlite3 shell
// on a database file, then its files to read checked against DuckDB scanning every file.
test('the lake catalog: every file that holds a key is read, checked against DuckDB', async (t) => {
  const duck = await duckSide();
  const files = await lake.writeLake(duck.connection, LAKE_PARENT);
  assert.strictEqual(files.length, lake.DAYS);
  const database = path.join(WORKDIR, 'lake_catalog.db');
  fs.rmSync(database, { force: true });
  const run = spawnSync(SQLITE3, ['-batch', '-init', '/dev/null', '-cmd', `.load ${EXTENSION}`, database],
                        { cwd: LAKE_PARENT, input: fs.readFileSync(LAKE_SCRIPT), encoding: 'utf8' });
  assert.strictEqual(run.stderr, '');
  assert.strictEqual(run.status, 0);
  const db = new Database(database, { readonly: true });
  t.after(() => db.close());
  const lookups = new Set(db.prepare('SELECT customer_id FROM lookups').pluck().all());
  const toRead = new Set(db.prepare("SELECT customer_id || ' ' || path FROM files_to_read").pluck().all());
  assert.strictEqual(lookups.size, 1000);

  // DuckDB, scanning every file: the files that hold each key looked up.
  const holders = (await duck.rows(`
    SELECT DISTINCT customer_id, 'lake/' || parse_filename(filename) AS path
    FROM read_parquet('${path.join(LAKE_PARENT, 'lake')}/orders_*.parquet', filename = true)
    WHERE customer_id BETWEEN 1 AND 1000`))
    .filter((r) => lookups.has(Number(r.customer_id)))
    .map((r) => `${r.customer_id} ${r.path}`);
  const missed = holders.filter((pair) => !toRead.has(pair));
  assert.deepStrictEqual(missed, [], 'files that hold a key but were skipped');
  const held = new Set(holders);
  const inVain = [...toRead].filter((pair) => !held.has(pair));
  // Each file read in vain is one DuckDB's own filters let through too.
  for (const pair of inVain) {
    const [customer, file] = pair.split(' ');
    const excludes = await duck.probe(path.join(LAKE_PARENT, file), 'customer_id', `${customer}::BIGINT`);
    assert.ok([...excludes.values()].some((e) => !e), `${pair}: DuckDB's filters exclude it`);
  }
  t.diagnostic(`${lookups.size} lookups in ${lake.DAYS} files: ${holders.length} files hold a key, ` +
               `${toRead.size} read (${inVain.length} in vain), ${lookups.size * lake.DAYS - toRead.size} skipped`);
  assert.ok(holders.length > 0);
  assert.strictEqual(toRead.size, holders.length + inVain.length);
});
