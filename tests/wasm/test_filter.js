// sqlite-bloom/filter (filter.cjs and filter.mjs of build/wasm, the extension's core compiled to
// WebAssembly) held to the extension itself, loaded into better-sqlite3: every kind the
// extension builds (the list read from its own error message), every key type, and every filter
// of the 0.1.0 fixture database answer as bloom_might_contain (rules 5 (keys) and 7 (probe)),
// and describe themselves as bloom_info (rule 11 (info)); corrupt filters fail with its messages
// (rule 8 (validation)). Run by run_node.sh, which sets BLOOM_WASM_DIR, BLOOM_EXTENSION and
// BLOOM_FIXTURE_V0_1_0.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const Database = require('better-sqlite3');

const WASM_DIR = process.env.BLOOM_WASM_DIR;
const { openFilter } = require(path.join(WASM_DIR, 'filter.cjs'));

const db = new Database(':memory:');
db.loadExtension(process.env.BLOOM_EXTENSION);
db.defaultSafeIntegers(true); // INTEGERs read as bigints, exactly
const probeStatement = db.prepare('SELECT bloom_might_contain(?, ?) AS answer');
const infoStatement = db.prepare('SELECT bloom_info(?) AS info');

// The SQL value a key of the reader stands for (rule 5 (keys)), as better-sqlite3 binds it: an
// integral number in the 64-bit range as an INTEGER (a bigint; better-sqlite3 binds every
// number as a REAL), a Uint8Array or ArrayBuffer as a BLOB (a Buffer), undefined as NULL.
function sqlValue(key) {
  if (typeof key === 'number' && Number.isInteger(key) && key >= -(2 ** 63) && key < 2 ** 63) {
    return BigInt(key);
  }
  if (key instanceof ArrayBuffer) {
    return Buffer.from(key);
  }
  if (key instanceof Uint8Array) {
    return Buffer.from(key.buffer, key.byteOffset, key.length);
  }
  return key === undefined ? null : key;
}

// bloom_might_contain(filter, value) as the reader answers: true, false or null.
function sqlAnswer(filter, value) {
  const { answer } = probeStatement.get(filter, value);
  return answer === null ? null : answer === 1n;
}

// A refused probe's message without the key as shown, which the reader writes as JavaScript
// writes it (a number) and SQL as SQLite prints it: the rest is the same text.
function withoutKey(message) {
  return message.replace(/^(bloom_might_contain: the key ).*?( is (INTEGER|REAL|TEXT|BLOB), and no)/s,
    '$1KEY$2');
}

// What f answers for key: true, false or null, or the error of a key of an SQL type its values
// never have (rule 27 (Parquet filters)), as { error } without the key; any other error thrown.
function outcome(f, key) {
  try {
    return f(key);
  } catch (error) {
    if (!/ is (INTEGER|REAL|TEXT|BLOB), and no /.test(error.message)) {
      throw error;
    }
    return { error: withoutKey(error.message) };
  }
}

// bloom_info(filter), parsed.
function sqlInfo(filter) {
  return JSON.parse(infoStatement.get(filter).info);
}

// A key for messages.
function show(key) {
  if (typeof key === 'bigint') {
    return `${key}n`;
  }
  if (key instanceof Uint8Array || key instanceof ArrayBuffer) {
    return `x'${Buffer.from(key instanceof ArrayBuffer ? new Uint8Array(key) : key).toString('hex')}'`;
  }
  return typeof key === 'string' ? JSON.stringify(key) : String(key);
}

// Asserts that the reader's filter answers for every key as the extension does for filter.
function assertSameAnswers(reader, filter, keys, label) {
  for (const key of keys) {
    const expected = outcome((k) => sqlAnswer(filter, sqlValue(k)), key);
    assert.deepStrictEqual(outcome((k) => reader.mightContain(k), key), expected,
      `${label}: key ${show(key)}`);
    if (typeof key === 'number' && Number.isInteger(key) && !Object.is(key, -0) &&
        !label.startsWith('spark')) {
      // 1 and 1.0 are one key: the extension answers the same for the REAL (or refuses it, as
      // a REAL). Not in a Spark filter, whose keys are Spark's: the REAL 1.0 is no key there,
      // an error (rule 32 (Spark filters)), while a JavaScript number is one, a long.
      const real = outcome((k) => sqlAnswer(filter, k), key);
      const anyClass = (o) => (o.error !== undefined ? { error: o.error.replace(/INTEGER|REAL/g, 'NUMBER') } : o);
      assert.deepStrictEqual(anyClass(real), anyClass(expected), `${label}: REAL ${key}`);
    }
  }
}

// The keys filters are built from: TEXT, INTEGER, REAL (integral or not, out of the 64-bit
// range, infinite, -0.0) and BLOB, with their SQL values.
const TEXT_KEYS = ['alice', '', 'émile', '日本語', '🙂 and 🙃', 'a\u0000b', 'x'.repeat(5000), '1',
  ...Array.from({ length: 200 }, (_, i) => `user${i}@example.com`)];
const INTEGER_KEYS = [0n, 1n, -1n, 42n, 2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 31n,
  -(2n ** 31n), 4294967295n, ...Array.from({ length: 200 }, (_, i) => BigInt(1000 + i * 7))];
const REAL_KEYS = [1.5, -2.25, 3.0, 1e300, -1e-300, 5e-324, 2 ** 63, -(2 ** 64), 1e19, Infinity,
  -Infinity, -0.0, 0.1, 16777217.0, 3.4028234663852886e38,
  ...Array.from({ length: 100 }, (_, i) => i / 8 + 0.0625)];
const BLOB_KEYS = [Buffer.alloc(0), Buffer.from([0, 1, 2]), Buffer.from('alice'), Buffer.alloc(16, 7),
  Buffer.alloc(12, 3), ...Array.from({ length: 50 }, (_, i) => Buffer.from(`blob ${i}`))];

// The keys probed: every key built from, in each form JavaScript has for it (a bigint and a
// number, a Buffer, a Uint8Array and an ArrayBuffer), and keys that were not.
function probeKeys() {
  const keys = [];
  for (const key of TEXT_KEYS) {
    keys.push(key, `${key}!`);
  }
  for (const key of INTEGER_KEYS) {
    keys.push(key, key < 2n ** 63n - 1n ? key + 1n : key - 1n);
    if (key >= BigInt(Number.MIN_SAFE_INTEGER) && key <= BigInt(Number.MAX_SAFE_INTEGER)) {
      keys.push(Number(key));
    }
  }
  for (const key of REAL_KEYS) {
    keys.push(key, key * 3 + 0.5);
  }
  for (const key of BLOB_KEYS) {
    const copy = new Uint8Array(key);
    keys.push(key, copy, copy.buffer, Buffer.concat([key, Buffer.from([0])]));
  }
  keys.push(null, undefined, NaN, 0, -0, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 63, 1e-320,
    Number.MAX_VALUE, Number.MIN_SAFE_INTEGER, 'ALICE', 'alice ', '\ufffd', 'bob', 2n ** 62n,
    new Uint8Array([9, 9]), new Uint8Array(new ArrayBuffer(10), 3, 4));
  return keys;
}
const PROBES = probeKeys();

// Builds a filter in SQL: SELECT <select> FROM keys, keys a table of values.
function build(values, select) {
  db.exec('DROP TABLE IF EXISTS keys; CREATE TABLE keys(k)');
  const insert = db.prepare('INSERT INTO keys VALUES (?)');
  db.transaction(() => values.forEach((value) => insert.run(value)))();
  return db.prepare(`SELECT ${select} AS f FROM keys`).get().f;
}

// The kinds bloom_build builds, from its own message for a kind it does not know, and the
// count-min sketch, which cms_build builds.
function kindsOfTheExtension() {
  let message = '';
  try {
    db.prepare("SELECT bloom_build(1, 10, 0.01, 'no such kind')").get();
  } catch (error) {
    message = error.message;
  }
  const listed = message.slice(0, message.indexOf(', got'));
  return [...listed.matchAll(/'([a-z]+)'/g)].map((m) => m[1]).concat('countmin');
}

// Filters of every kind, each with a label: full, empty, over capacity, grown, after a remove;
// the Parquet kind of every physical type.
function filtersOfEveryKind() {
  const all = [...TEXT_KEYS, ...INTEGER_KEYS, ...REAL_KEYS, ...BLOB_KEYS];
  const filters = [];
  const kinds = kindsOfTheExtension();
  for (const kind of kinds) {
    if (kind === 'countmin') {
      filters.push([`${kind}, plain`, build(all, 'cms_build(k, 0.01, 0.01)')]);
      filters.push([`${kind}, conservative`, build(all, "cms_build(k, 1, 0.001, 0.01, 'conservative')")]);
      filters.push([`${kind}, empty`, db.prepare('SELECT cms_empty(0.1, 0.1) AS f').get().f]);
      continue;
    }
    if (kind === 'parquet') {
      filters.push([`${kind}, INT64`, build(INTEGER_KEYS, "bloom_build(k, 300, 0.01, 'parquet')")]);
      filters.push([`${kind}, DOUBLE`, build(REAL_KEYS, "bloom_build(k, 300, 0.01, 'parquet')")]);
      filters.push([`${kind}, BYTE_ARRAY`, build(TEXT_KEYS, "bloom_build(k, 300, 0.01, 'parquet')")]);
      filters.push([`${kind}, BYTE_ARRAY of BLOBs`, build(BLOB_KEYS, "bloom_build(k, NULL, 0.01, 'parquet')")]);
      filters.push([`${kind}, untyped`, db.prepare("SELECT bloom_empty(100, 0.01, 'parquet') AS f").get().f]);
      for (const [type, keys] of [['INT32', INTEGER_KEYS], ['FLOAT', REAL_KEYS],
        ['FIXED_LEN_BYTE_ARRAY(16)', BLOB_KEYS], ['INT96', BLOB_KEYS], ['INT64', REAL_KEYS]]) {
        let filter = db.prepare("SELECT bloom_from_parquet(bloom_to_parquet(bloom_empty(500, 0.01, 'parquet')), ?) AS f")
          .get(type).f;
        const add = db.prepare('SELECT bloom_add(?, ?) AS f');
        for (const key of keys) {
          try {
            filter = add.get(filter, key).f;
          } catch {
            // a key that is no value of the type: refused (rule 27 (Parquet filters))
          }
        }
        filters.push([`${kind}, ${type} from Parquet`, filter]);
      }
      continue;
    }
    if (kind === 'spark') { // Spark's keys: no REAL (rule 32 (Spark filters))
      const keys = [...TEXT_KEYS, ...INTEGER_KEYS, ...BLOB_KEYS];
      filters.push([`${kind}, version 2`, build(keys, "bloom_build(k, 300, 0.01, 'spark')")]);
      filters.push([`${kind}, version 1, sized at the end`, build(keys, "bloom_build(k, NULL, 0.01, 'spark v1')")]);
      filters.push([`${kind}, over capacity`, build(keys, "bloom_build(k, 20, 0.1, 'spark')")]);
      // Spark's head of version 2, seed 42, k = 5, 16 words, then its keys added.
      const head = Buffer.concat([Buffer.from('00000002000000050000002A00000010', 'hex'), Buffer.alloc(128)]);
      let filter = db.prepare('SELECT bloom_from_spark(?) AS f').get(head).f;
      const add = db.prepare('SELECT bloom_add(?, ?) AS f');
      for (const key of keys) {
        filter = add.get(filter, key).f;
      }
      filters.push([`${kind}, seed 42 from Spark's bytes`, filter]);
      continue;
    }
    filters.push([`${kind}, n = 1000`, build(all, `bloom_build(k, 1000, 0.01, '${kind}')`)]);
    // Over capacity: the smallest n the kind builds for all the keys (a cuckoo filter, which
    // holds them all, needs more than 40); a scalable filter grows instead.
    for (const n of [40, 600, 700]) {
      try {
        filters.push([`${kind}, over capacity`, build(all, `bloom_build(k, ${n}, 0.1, '${kind}')`)]);
        break;
      } catch (error) {
        assert.match(error.message, /no room/);
      }
    }
    if (kind !== 'counting' && kind !== 'cuckoo') { // these need n (rule 4 (sized at the end))
      filters.push([`${kind}, sized at the end`, build(all, `bloom_build(k, NULL, 0.001, '${kind}')`)]);
    }
    filters.push([`${kind}, no keys`, build([null], `bloom_build(k, 100, 0.01, '${kind}')`)]);
  }
  const counting = filters.find(([label]) => label === 'counting, n = 1000')[1];
  filters.push(['counting, a key removed',
    db.prepare('SELECT bloom_remove(?, ?) AS f').get(counting, 'alice').f]);
  const cuckoo = filters.find(([label]) => label === 'cuckoo, n = 1000')[1];
  filters.push(['cuckoo, a key removed', db.prepare('SELECT bloom_remove(?, ?) AS f').get(cuckoo, 42n).f]);
  return { kinds, filters };
}
const { kinds: KINDS, filters: FILTERS } = filtersOfEveryKind();

test('the module: at most 64 KB, no import, its exports', () => {
  const bytes = fs.readFileSync(path.join(WASM_DIR, 'bloom_filter.wasm'));
  console.log(`bloom_filter.wasm: ${bytes.length} bytes`);
  assert.ok(bytes.length <= 65536, `${bytes.length} bytes, more than 64 KB`);
  const module = new WebAssembly.Module(bytes);
  assert.deepStrictEqual(WebAssembly.Module.imports(module), []);
  assert.deepStrictEqual(WebAssembly.Module.exports(module).map((e) => e.name).sort(),
    ['base', 'info', 'memory', 'message', 'open', 'probe_bytes', 'probe_integer', 'probe_number']);
  // filter.cjs carries the same bytes.
  const cjs = fs.readFileSync(path.join(WASM_DIR, 'filter.cjs'), 'utf8');
  assert.ok(cjs.includes(`"${bytes.toString('base64')}"`));
});

test('every kind the extension builds is here', () => {
  assert.deepStrictEqual([...KINDS].sort(),
    ['blocked', 'counting', 'countmin', 'cuckoo', 'fuse', 'parquet', 'scalable', 'spark', 'standard']);
  for (const kind of KINDS) {
    assert.ok(FILTERS.some(([, filter]) => openFilter(filter).info().layout === kind), kind);
  }
});

test('every kind, every key type: the answers of bloom_might_contain', () => {
  for (const [label, filter] of FILTERS) {
    const reader = openFilter(filter);
    assertSameAnswers(reader, filter, PROBES, label);
    // An ArrayBuffer of the filter reads the same.
    const copy = new Uint8Array(filter).buffer;
    assertSameAnswers(openFilter(copy), filter, PROBES.slice(0, 50), `${label} (ArrayBuffer)`);
  }
});

test('every kind: info() is bloom_info', () => {
  for (const [label, filter] of FILTERS) {
    assert.deepStrictEqual(openFilter(filter).info(), sqlInfo(filter), label);
  }
  // A real whose 15th digit is a tie (655.25 / 2^16), rounded away from zero by both (the C
  // library's printf rounds it to even: 0.00999832153320312); estimates of one decimal too.
  const tie = db.prepare('SELECT bloom_empty(100, 0.009998321533203125) AS f').get().f;
  assert.strictEqual(sqlInfo(tie).p, 0.00999832153320313);
  assert.deepStrictEqual(openFilter(tie).info(), sqlInfo(tie));
  for (let keys = 1; keys <= 40; keys++) {
    const { f } = db.prepare(`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s
      WHERE i < ${keys}) SELECT bloom_build(i, 8, 0.25) AS f FROM s`).get();
    assert.deepStrictEqual(openFilter(f).info(), sqlInfo(f), `${keys} keys`);
  }
});

test('keys: SQL equality, and what is no SQL value', () => {
  const filter = build([1n, 'alice', Buffer.from('bytes'), 2.5, 0n, 2n ** 63n - 1n],
    'bloom_build(k, 100, 0.000001)');
  const reader = openFilter(filter);
  assert.strictEqual(reader.mightContain(1), true);
  assert.strictEqual(reader.mightContain(1.0), true);
  assert.strictEqual(reader.mightContain(1n), true);
  assert.strictEqual(reader.mightContain(-0), true); // -0.0 is 0
  assert.strictEqual(reader.mightContain(0), true);
  assert.strictEqual(reader.mightContain(2.5), true);
  assert.strictEqual(reader.mightContain('alice'), true);
  assert.strictEqual(reader.mightContain(Buffer.from('alice')), false); // a BLOB is not TEXT
  assert.strictEqual(reader.mightContain('bytes'), false);
  assert.strictEqual(reader.mightContain(new TextEncoder().encode('bytes')), true);
  assert.strictEqual(reader.mightContain('1'), false); // TEXT is not a number
  assert.strictEqual(reader.mightContain(2n ** 63n - 1n), true);
  assert.strictEqual(reader.mightContain(2 ** 63), false); // a REAL out of range: not that INTEGER
  for (const nothing of [null, undefined, NaN]) {
    assert.strictEqual(reader.mightContain(nothing), null);
  }
  assert.strictEqual(sqlAnswer(filter, null), null);
  assert.strictEqual(sqlAnswer(filter, NaN), null); // SQLite holds NaN as NULL
  // A lone surrogate is no UTF-8: TextEncoder's U+FFFD stands for it.
  const replaced = openFilter(build(['\ufffd'], 'bloom_build(k, 10, 0.000001)'));
  assert.strictEqual(replaced.mightContain('\ud800'), true);
  for (const outside of [2n ** 63n, -(2n ** 63n) - 1n, 2n ** 64n]) {
    assert.throws(() => reader.mightContain(outside), {
      name: 'RangeError',
      message: `bloom_might_contain: the key ${outside} is not an INTEGER: SQL's integers are from ` +
        '-9223372036854775808 to 9223372036854775807',
    });
  }
  assert.throws(() => reader.mightContain(true), {
    name: 'TypeError', message: /got a boolean \(SQL has no booleans: its TRUE is 1 and FALSE is 0\)$/,
  });
  for (const [value, shown] of [[{}, 'Object object'], [[1], 'Array object'], [new Uint16Array(2), 'Uint16Array object'],
    [Symbol('k'), 'a symbol'], [() => 1, 'a function'], [new Date(0), 'Date object']]) {
    assert.throws(() => reader.mightContain(value), {
      name: 'TypeError',
      message: 'bloom_might_contain: a key is a string, a number, a bigint, a Uint8Array, an ' +
        `ArrayBuffer, null or undefined, got ${shown}`,
    });
  }
  // Keys larger than the room after the filter: the memory grows.
  const long = 'é'.repeat(300000);
  const big = Buffer.alloc(3000000, 1);
  const both = build([long, big], 'bloom_build(k, 10, 0.000001)');
  const grown = openFilter(both);
  assert.strictEqual(grown.mightContain(long), true);
  assert.strictEqual(grown.mightContain(big), true);
  assert.strictEqual(grown.mightContain(long.slice(1)), sqlAnswer(both, long.slice(1)));
  assert.strictEqual(grown.mightContain('short again'), sqlAnswer(both, 'short again'));
});

// What the extension and the reader make of bytes: an error's message, or answers and info.
function outcomes(bytes) {
  const keys = [1, 'alice', 2.5, Buffer.from('alice'), 42n];
  let sql;
  try {
    sql = { answers: keys.map((key) => outcome((k) => sqlAnswer(bytes, sqlValue(k)), key)) };
    sql.info = sqlInfo(bytes);
  } catch (error) {
    sql = { error: error.message };
  }
  let js;
  try {
    const reader = openFilter(bytes);
    js = { answers: keys.map((key) => outcome((k) => reader.mightContain(k), key)),
      info: reader.info() };
  } catch (error) {
    js = { error: error.message };
  }
  return { sql, js };
}

test('corrupt filters: bloom_might_contain\'s messages, or its answers', () => {
  let refused = 0;
  let cases = 0;
  for (const [label, filter] of FILTERS) {
    const header = label.startsWith('scalable') ? Math.min(filter.length, 192) : 64;
    const variants = [];
    for (let i = 0; i < header; i++) {
      for (const value of [0x00, 0xFF, filter[i] ^ 0x01, (filter[i] + 1) & 0xFF, filter[i] ^ 0x80]) {
        if (value !== filter[i]) {
          const bytes = Buffer.from(filter);
          bytes[i] = value;
          variants.push([`byte ${i} = ${value}`, bytes]);
        }
      }
    }
    for (const length of [0, 1, 7, 8, 63, 64, 65, filter.length - 8, filter.length - 1]) {
      if (length >= 0 && length < filter.length) {
        variants.push([`cut to ${length} bytes`, filter.subarray(0, length)]);
      }
    }
    variants.push(['a byte more', Buffer.concat([filter, Buffer.alloc(1)])]);
    variants.push(['8 bytes more', Buffer.concat([filter, Buffer.alloc(8)])]);
    for (const [what, bytes] of variants) {
      const { sql, js } = outcomes(bytes);
      assert.deepStrictEqual(js, sql, `${label}, ${what}`);
      cases++;
      refused += sql.error !== undefined;
    }
  }
  console.log(`${cases} corrupt filters: ${refused} refused with the extension's message, ` +
    `${cases - refused} read with its answers and info`);
  assert.ok(refused > cases / 2);
});

test('what is not a filter BLOB', () => {
  assert.throws(() => openFilter(Buffer.from('SQBF')), {
    name: 'Error', message: 'bloom_might_contain: not a Bloom filter: length 4 is shorter than the 64-byte header',
  });
  for (const [value, shown] of [['oops', "the string 'oops'"], [null, 'null'], [undefined, 'undefined'],
    [42, 'a number'], [new Uint16Array(40), 'Uint16Array object'], [{}, 'Object object']]) {
    assert.throws(() => openFilter(value), {
      name: 'TypeError',
      message: 'bloom_might_contain: the filter must be a BLOB (a Uint8Array or an ArrayBuffer), ' +
        `got ${shown}`,
    });
  }
  const filter = FILTERS[0][1];
  assert.throws(() => openFilter(filter.toString('hex')), { message: /this string is a filter in hex: pass its bytes/ });
  assert.throws(() => openFilter(filter.toString('latin1')), { message: /this string holds a filter's bytes as text/ });
});

test('the 0.1.0 fixture: every filter answers every probe as the extension, and prints as it', () => {
  const fixture = new Database(process.env.BLOOM_FIXTURE_V0_1_0, { readonly: true, fileMustExist: true });
  fixture.loadExtension(process.env.BLOOM_EXTENSION);
  fixture.defaultSafeIntegers(true);
  try {
    const filters = fixture.prepare('SELECT id, name, filter, bloom_info(filter) AS info FROM filters').all();
    const probes = fixture.prepare(`SELECT r.key AS key, bloom_might_contain(f.filter, r.key) AS answer,
                                           r.answer AS stored, CAST(r.key AS BLOB) AS bytes
                                    FROM probe_rows r JOIN filters f ON f.id = r.filter_id
                                    WHERE r.filter_id = ?`);
    let checked = 0;
    let notUtf8 = 0;
    for (const { id, name, filter, info } of filters) {
      const reader = openFilter(filter);
      assert.deepStrictEqual(reader.info(), JSON.parse(info), name);
      for (const { key, answer, stored, bytes } of probes.all(id)) {
        assert.strictEqual(answer, stored); // what 0.1.0 answered
        if (typeof key === 'string' && !Buffer.from(key).equals(bytes)) {
          // TEXT whose bytes are not UTF-8: no string is that key (better-sqlite3 reads it with
          // U+FFFD in place of the bad bytes); that string is another key, and answers as one.
          assert.strictEqual(reader.mightContain(key), sqlAnswer(filter, key), `${name}: ${show(key)}`);
          notUtf8++;
          continue;
        }
        const expected = answer === null ? null : answer === 1n;
        assert.strictEqual(reader.mightContain(key), expected, `${name}: key ${show(key)}`);
        checked++;
      }
    }
    console.log(`0.1.0 fixture: ${filters.length} filters, ${checked} probes, each the extension's ` +
      `answer (and ${notUtf8} of TEXT that is not UTF-8, which no string holds)`);
    assert.strictEqual(filters.length, 30);
    assert.ok(checked > 7000);
  } finally {
    fixture.close();
  }
});

test('filter.mjs, the ES module: the same reader', async () => {
  const esm = await import(pathToFileURL(path.join(WASM_DIR, 'filter.mjs')).href);
  assert.deepStrictEqual(Object.keys(esm), ['openFilter']);
  for (const [label, filter] of FILTERS.slice(0, 12)) {
    assertSameAnswers(esm.openFilter(filter), filter, PROBES.slice(0, 200), `${label} (filter.mjs)`);
  }
  assert.deepStrictEqual(Object.keys(require(path.join(WASM_DIR, 'filter.cjs'))), ['openFilter']);
});
