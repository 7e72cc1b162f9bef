// The npm package sqlite-bloom as npm installed it from its tarball into a scratch project
// (run.sh copies this file there): its files, version and types, load(db) into better-sqlite3
// and into node:sqlite where node has loadExtension, load() of something that cannot load or on
// another platform, sqlite-bloom/filter (CommonJS and ES module) against the extension, and the
// README's examples of the package (```js package blocks), and the tarball's files against the
// list of docs/install.md. BLOOM_EXPECTED_VERSION is CMake's project version, BLOOM_README the
// README's path, BLOOM_TARBALL the tarball's, BLOOM_INSTALL_DOC docs/install.md's,
// BLOOM_NPM_PLATFORMS the platforms of the builds the package holds (this machine's, then those
// cross-compiled: ext/packages/platforms), separated by commas.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const sqliteBloom = require('sqlite-bloom');

const EXPECTED_VERSION = process.env.BLOOM_EXPECTED_VERSION;
const KEYS = Array.from({ length: 1000 }, (_, i) => `user${i}@example.com`);
const ABSENT = Array.from({ length: 10000 }, (_, i) => `visitor${i}@example.org`);
const PLATFORMS = process.env.BLOOM_NPM_PLATFORMS.split(',');
const INSTALLED_AT = fs.realpathSync(path.join(process.cwd(), 'node_modules', 'sqlite-bloom'));

// The module, or null when it cannot be had here.
function optionalRequire(name) {
  try {
    return require(name);
  } catch {
    return null;
  }
}
const Database = optionalRequire('better-sqlite3');
const nodeSqlite = optionalRequire('node:sqlite');
const nodeSqliteLoads = nodeSqlite !== null &&
  typeof nodeSqlite.DatabaseSync.prototype.loadExtension === 'function';

// Builds a filter of KEYS in db, through SQL, and checks its probes: the same statements on
// better-sqlite3 and node:sqlite, whose prepare().get() and run() agree.
function buildAndProbe(db) {
  assert.strictEqual(db.prepare('SELECT bloom_version() AS v').get().v, EXPECTED_VERSION);
  db.exec('CREATE TABLE users(email TEXT)');
  const insert = db.prepare('INSERT INTO users VALUES (?)');
  KEYS.forEach((key) => insert.run(key));
  const users = db.prepare('SELECT bloom_build(email, 1000, 0.01) AS f FROM users').get().f;
  assert.ok(users instanceof Uint8Array, 'a filter is a BLOB');
  const probe = db.prepare('SELECT bloom_might_contain(?, ?) AS hit');
  assert.ok(KEYS.every((key) => probe.get(users, key).hit === 1), 'no false negative');
  const falsePositives = ABSENT.filter((key) => probe.get(users, key).hit === 1).length;
  // 1 % of 10,000 is 100, give or take 10 (one standard deviation).
  assert.ok(falsePositives > 50 && falsePositives < 150, `${falsePositives} false positives`);
}

test('the installed package', async (t) => {
  await t.test('is the version of the project', () => {
    assert.strictEqual(require('sqlite-bloom/package.json').version, EXPECTED_VERSION);
  });

  await t.test("getLoadablePath() is the build inside it for this machine's platform", () => {
    const loadable = sqliteBloom.getLoadablePath();
    assert.ok(path.isAbsolute(loadable));
    assert.strictEqual(path.relative(INSTALLED_AT, fs.realpathSync(loadable)),
      path.join('prebuilds', `${process.platform}-${process.arch}`, 'bloom.so'));
    assert.ok(fs.statSync(loadable).size > 0);
  });

  await t.test('holds a build for each platform, each for its machine', () => {
    const machines = { 'linux-x64': [0x7f, 0x45, 0x4c, 0x46, 62], 'linux-arm64': [0x7f, 0x45, 0x4c, 0x46, 183],
      'win32-x64': [0x4d, 0x5a, 0x64, 0x86] };
    assert.deepStrictEqual(PLATFORMS.filter((platform) => !(platform in machines)), []);
    for (const platform of PLATFORMS) {
      const expected = machines[platform];
      const file = path.join(INSTALLED_AT, 'prebuilds', platform,
        platform.startsWith('win32') ? 'bloom.dll' : 'bloom.so');
      const bytes = fs.readFileSync(file);
      // ELF: the magic, then e_machine at byte 18 (62 x86-64, 183 AArch64); PE: 'MZ', then the
      // COFF machine 0x8664 after the 'PE\0\0' that e_lfanew at byte 60 points to.
      const found = bytes[0] === 0x7f
        ? [...bytes.subarray(0, 4), bytes.readUInt16LE(18)]
        : [bytes[0], bytes[1], ...bytes.subarray(bytes.readUInt32LE(60) + 4, bytes.readUInt32LE(60) + 6)];
      assert.deepStrictEqual(found, expected, platform);
    }
  });

  await t.test('declares its TypeScript types', () => {
    const manifest = require('sqlite-bloom/package.json');
    const types = fs.readFileSync(path.join(INSTALLED_AT, manifest.types), 'utf8');
    assert.match(types, /export declare function getLoadablePath\(\): string;/);
    assert.match(types, /export declare function load\(db: ExtensionLoadingDatabase\): void;/);
    assert.match(types, /loadExtension\(path: string\): unknown;/);
    assert.deepStrictEqual(Object.keys(sqliteBloom).sort(), ['getLoadablePath', 'load']);
  });

  await t.test('load() of something that cannot load extensions says what can', () => {
    for (const notADatabase of [undefined, null, {}, { loadExtension: 'no' }]) {
      assert.throws(() => sqliteBloom.load(notADatabase), {
        name: 'TypeError',
        message: /needs a database with a loadExtension\(path\) method: a better-sqlite3 Database, or a node:sqlite DatabaseSync opened with \{ allowExtension: true \}/,
      });
    }
  });
});

// The files docs/install.md lists for the tarball: the names in backquotes in the first column
// of the table that follows its paragraph "**npm.**".
function filesInstallMdLists() {
  const lines = fs.readFileSync(process.env.BLOOM_INSTALL_DOC, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith('**npm.**'));
  assert.ok(start >= 0, 'docs/install.md has a paragraph **npm.**');
  const table = lines.slice(lines.findIndex((line, i) => i > start && line.startsWith('|')));
  const rows = table.slice(2, table.findIndex((line) => !line.startsWith('|')));
  return rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

test('the tarball holds the files docs/install.md lists for it, and no other', () => {
  const listed = filesInstallMdLists();
  assert.ok(listed.includes('check-names.html') && listed.includes('prebuilds/win32-x64/bloom.dll'),
    listed.join(' '));
  const packed = execFileSync('tar', ['tzf', process.env.BLOOM_TARBALL], { encoding: 'utf8' })
    .split('\n').filter((line) => line !== '')
    .map((entry) => {
      assert.match(entry, /^package\//);
      return entry.slice('package/'.length);
    });
  // The builds listed for platforms this one was not cross-compiled for are not there.
  const built = listed.filter((file) => !file.startsWith('prebuilds/') ||
    PLATFORMS.includes(file.split('/')[1]));
  assert.deepStrictEqual([...packed].sort(), [...built].sort());
  for (const file of built) {
    assert.ok(fs.statSync(path.join(INSTALLED_AT, file)).size > 0, `${file} installed`);
  }
});

test('check-names.html, in the package, is the page with the reader of filter.cjs inside', () => {
  const page = fs.readFileSync(path.join(INSTALLED_AT, 'check-names.html'), 'utf8');
  const reader = fs.readFileSync(path.join(INSTALLED_AT, 'filter.cjs'), 'utf8');
  const moduleOf = (text, name) => {
    const found = /sqliteBloomFilterReader\(\s*"([A-Za-z0-9+/=]+)"\)/.exec(text);
    assert.ok(found, `${name} holds the WebAssembly module`);
    return found[1];
  };
  assert.ok(!page.split('\n').includes('<!-- @FILTER_READER@ -->'), 'the reader put in its line');
  assert.strictEqual(moduleOf(page, 'check-names.html'), moduleOf(reader, 'filter.cjs'));
  assert.match(page, /<form id="check">/);
});

test('sqlite-bloom/filter: the WebAssembly reader, with no platform in the manifest', async (t) => {
  const manifest = require('sqlite-bloom/package.json');
  for (const file of ['filter.cjs', 'filter.mjs', 'filter.d.cts', 'filter.d.mts']) {
    assert.ok(fs.statSync(path.join(INSTALLED_AT, file)).size > 0, file);
  }
  // The reader runs on any platform, so npm installs the package on any, with or without a build
  // of the extension for it.
  assert.strictEqual(manifest.os, undefined);
  assert.strictEqual(manifest.cpu, undefined);
  assert.strictEqual(fs.realpathSync(require.resolve('sqlite-bloom/filter')),
    path.join(INSTALLED_AT, 'filter.cjs'));
  const reader = require('sqlite-bloom/filter');
  const esm = await import('sqlite-bloom/filter');
  assert.deepStrictEqual(Object.keys(reader), ['openFilter']);
  assert.deepStrictEqual(Object.keys(esm), ['openFilter']);
  assert.throws(() => reader.openFilter(new Uint8Array(1)), {
    message: 'bloom_might_contain: not a Bloom filter: length 1 is shorter than the 64-byte header',
  });

  await t.test('reads what the extension built, as the extension does', {
    skip: Database === null && 'better-sqlite3 is not installed (npm cannot reach its registry)',
  }, () => {
    const db = new Database(':memory:');
    try {
      sqliteBloom.load(db);
      db.exec('CREATE TABLE users(email TEXT)');
      const insert = db.prepare('INSERT INTO users VALUES (?)');
      KEYS.forEach((key) => insert.run(key));
      const users = db.prepare('SELECT bloom_build(email, 1000, 0.01) AS f FROM users').get().f;
      const probe = db.prepare('SELECT bloom_might_contain(?, ?) AS hit');
      for (const open of [reader.openFilter, esm.openFilter]) {
        const filter = open(users);
        for (const key of [...KEYS, ...ABSENT.slice(0, 2000)]) {
          assert.strictEqual(filter.mightContain(key), probe.get(users, key).hit === 1, key);
        }
        assert.deepStrictEqual(filter.info(),
          JSON.parse(db.prepare('SELECT bloom_info(?) AS i').get(users).i));
      }
    } finally {
      db.close();
    }
  });

  await t.test('load() and getLoadablePath() on a platform it has no build for say so', () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform');
    Object.defineProperty(process, 'platform', { ...platform, value: 'plan9' });
    try {
      const message = `sqlite-bloom: this package has no build of the extension for ` +
        `plan9-${process.arch}, only for ${PLATFORMS.join(', ')}; build it from source ` +
        'for this machine and load it by its path (docs/install.md of sqlite-bloom). Its filters ' +
        "can still be read here, without SQLite, by require('sqlite-bloom/filter')";
      assert.throws(() => sqliteBloom.load({ loadExtension() {} }), { message });
      assert.throws(() => sqliteBloom.getLoadablePath(), { message });
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });
});

test('load(db) into better-sqlite3', {
  skip: Database === null && 'better-sqlite3 is not installed (npm cannot reach its registry)',
}, () => {
  const db = new Database(':memory:');
  try {
    sqliteBloom.load(db);
    buildAndProbe(db);
  } finally {
    db.close();
  }
});

test('load(db) into node:sqlite', {
  skip: !nodeSqliteLoads &&
    `node ${process.version} has no node:sqlite DatabaseSync.prototype.loadExtension ` +
    '(22.13.0 or later in 22.x, 23.5.0 or later)',
}, async (t) => {
  await t.test('opened with allowExtension', () => {
    const db = new nodeSqlite.DatabaseSync(':memory:', { allowExtension: true });
    try {
      sqliteBloom.load(db);
      buildAndProbe(db);
    } finally {
      db.close();
    }
  });

  await t.test('opened without allowExtension: an error that names the option', () => {
    const db = new nodeSqlite.DatabaseSync(':memory:');
    try {
      assert.throws(() => sqliteBloom.load(db), { message: /allowExtension: true/ });
    } finally {
      db.close();
    }
  });
});

test('the README\'s examples print what they state', {
  skip: Database === null && 'better-sqlite3 is not installed (npm cannot reach its registry)',
}, () => {
  const readme = fs.readFileSync(process.env.BLOOM_README, 'utf8');
  const blocks = [...readme.matchAll(/^```js package\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  assert.ok(blocks.length > 0, 'no ```js package block in the README');
  for (const code of blocks) {
    // A line `console.log(...);  // VALUE` states what it prints.
    const stated = code.split('\n').map((line) => line.match(/^\s*console\.log\(.*\);?\s+\/\/\s*(.*?)\s*$/))
      .filter(Boolean).map((m) => m[1]);
    assert.ok(stated.length > 0, `a block states no printed value:\n${code}`);
    const printed = [];
    const console = { log: (...values) => printed.push(values.map(String).join(' ')) };
    new Function('require', 'console', code)(require, console);
    assert.deepStrictEqual(printed, stated);
  }
});
