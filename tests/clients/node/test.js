// sqlite-bloom from Node with better-sqlite3, on the SQLite bundled in it.
// Run through run.sh, which installs better-sqlite3 and sets BLOOM_EXTENSION
// (the path of bloom.so) and NODE_PATH.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Database = require('better-sqlite3');

const EXTENSION = process.env.BLOOM_EXTENSION;
assert.ok(EXTENSION, 'set BLOOM_EXTENSION to the path of bloom.so');

const KEYS = Array.from({ length: 10000 }, (_, i) => `user${i}@example.com`);
const ABSENT = Array.from({ length: 100000 }, (_, i) => `visitor${i}@example.org`);

function open(file = ':memory:') {
  const db = new Database(file);
  db.loadExtension(EXTENSION);
  return db;
}

// Builds a filter of keys in SQL and returns it to JavaScript as a Buffer.
function build(db, keys, n = 10000, p = 0.01) {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS k(key); DELETE FROM k');
  const insert = db.prepare('INSERT INTO k VALUES (?)');
  db.transaction(() => keys.forEach((key) => insert.run(key)))();
  return db.prepare('SELECT bloom_build(key, ?, ?) FROM k').pluck().get(n, p);
}

test('sqlite-bloom from better-sqlite3', async (t) => {
  const db = open();
  t.after(() => db.close());
  const probe = db.prepare('SELECT bloom_might_contain(?, ?)').pluck();
  const filter = build(db, KEYS);
  t.diagnostic(`SQLite ${db.prepare('SELECT sqlite_version()').pluck().get()}, ` +
               `bloom ${db.prepare('SELECT bloom_version()').pluck().get()}`);

  await t.test('build, then probe from JavaScript with the filter bound', () => {
    assert.ok(Buffer.isBuffer(filter));
    assert.strictEqual(filter.subarray(0, 4).toString(), 'SQBF');
    assert.strictEqual(filter.length, 12048);
    assert.ok(KEYS.every((key) => probe.get(filter, key) === 1));
    const falsePositives = ABSENT.filter((key) => probe.get(filter, key) === 1).length;
    // 1 % of 100,000 is 1,000, give or take 31 (one standard deviation).
    assert.ok(falsePositives > 850 && falsePositives < 1150, `${falsePositives} false positives`);
  });

  await t.test('JavaScript values are SQL values', () => {
    const f = build(db, [42, 'abc', Buffer.from([0, 1]), 1.5, 2n ** 62n]);
    assert.strictEqual(probe.get(f, 42), 1);     // a number is bound as a REAL: 42.0 = 42
    assert.strictEqual(probe.get(f, 42n), 1);    // a BigInt as an INTEGER
    assert.strictEqual(probe.get(f, '42'), 0);   // TEXT is not INTEGER
    assert.strictEqual(probe.get(f, 'abc'), 1);
    assert.strictEqual(probe.get(f, Buffer.from('abc')), 0);  // BLOB is not TEXT
    assert.strictEqual(probe.get(f, Buffer.from([0, 1])), 1);
    assert.strictEqual(probe.get(f, 1.5), 1);
    assert.strictEqual(probe.get(f, 2n ** 62n), 1);
    assert.strictEqual(probe.get(f, null), null);
    // null is NULL: no filter, an error rather than no answer.
    assert.throws(() => probe.get(null, 42), /the filter is NULL/);
  });

  await t.test('a table probed with a bound filter', () => {
    db.exec('CREATE TABLE emails(email TEXT)');
    const insert = db.prepare('INSERT INTO emails VALUES (?)');
    db.transaction(() => KEYS.slice(0, 5000).forEach((key) => insert.run(key)))();
    const count = db.prepare('SELECT count(*) FROM emails WHERE bloom_might_contain(?, email)');
    assert.strictEqual(count.pluck().get(filter), 5000);
  });

  await t.test('bloom_info is JSON', () => {
    const info = JSON.parse(db.prepare('SELECT bloom_info(?)').pluck().get(filter));
    assert.strictEqual(info.layout, 'standard');
    assert.deepStrictEqual([info.k, info.m, info.bytes], [7, 95872, 12048]);
    assert.deepStrictEqual([info.n, info.p, info.keys_added], [10000, 0.01, 10000]);
    assert.ok(Math.abs(info.estimated_keys - 10000) < 4 * info.estimated_keys_error);
    assert.strictEqual(info.over_capacity, false);
  });

  await t.test('the union of two halves is the whole', () => {
    const first = build(db, KEYS.slice(0, 5000));
    const second = build(db, KEYS.slice(5000));
    assert.deepStrictEqual(db.prepare('SELECT bloom_union(?, ?)').pluck().get(first, second), filter);
    db.exec('CREATE TABLE parts(f BLOB)');
    const insert = db.prepare('INSERT INTO parts VALUES (?)');
    [first, second, null].forEach((f) => insert.run(f));
    assert.deepStrictEqual(db.prepare('SELECT bloom_union(f) FROM parts').pluck().get(), filter);
  });

  await t.test('bloom_add', () => {
    const empty = db.prepare('SELECT bloom_build(NULL, 100, 0.01)').pluck().get();
    const added = db.prepare('SELECT bloom_add(?, ?)').pluck().get(empty, 'x');
    assert.deepStrictEqual([probe.get(empty, 'x'), probe.get(added, 'x')], [0, 1]);
    assert.deepStrictEqual(added, build(db, ['x'], 100));
  });

  await t.test('errors are thrown with their message', () => {
    const cases = [
      ['SELECT bloom_build(1, 0, 0.01)', [],
       'bloom_build: n must be a whole number >= 1 or NULL, got 0'],
      ['SELECT bloom_build(1, 10, ?)', [1.5],
       'bloom_build: p must be between 0 and 1 (exclusive), got 1.5; p is a fraction: 1.5 % is 0.015'],
      ['SELECT bloom_might_contain(?, 1)', ['oops'],
       "bloom_might_contain: the filter must be a BLOB, got 'oops'"],
      ['SELECT bloom_might_contain(?, 1)', [Buffer.from([0])],
       'bloom_might_contain: not a Bloom filter: length 1 is shorter than the 64-byte header'],
      ['SELECT bloom_union(bloom_build(1, 1000, 0.01), bloom_build(1, 2000, 0.01))', [],
       'bloom_union: incompatible filters: one built for n = 1000 at p = 0.01 (9600 bits, k = 7), the other for n = 2000 at p = 0.01 (19200 bits, k = 7); build both with the same n, p and kind'],
    ];
    for (const [sql, parameters, message] of cases) {
      assert.throws(() => db.prepare(sql).get(...parameters),
                    { name: 'SqliteError', code: 'SQLITE_ERROR', message });
    }
  });

  await t.test('stored in a file, probed after reopening', () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-node-'));
    t.after(() => fs.rmSync(directory, { recursive: true, force: true }));
    const file = path.join(directory, 'filters.db');
    const writer = open(file);
    writer.exec('CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB)');
    writer.prepare("INSERT INTO filters VALUES ('users', ?)").run(build(writer, KEYS));
    writer.close();

    const reader = new Database(file, { readonly: true });
    const sql = "SELECT bloom_might_contain(filter, ?) FROM filters WHERE name = 'users'";
    // Extensions belong to a connection: a new one must load it again.
    assert.throws(() => reader.prepare(sql), /no such function: bloom_might_contain/);
    reader.loadExtension(EXTENSION);
    const stored = reader.prepare(sql).pluck();
    assert.strictEqual(stored.get(KEYS[7]), 1);
    assert.strictEqual(stored.get('eve@example.com'), 0);
    assert.deepStrictEqual(reader.prepare('SELECT filter FROM filters').pluck().get(), filter);
    reader.close();
  });
});
