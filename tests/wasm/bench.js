// Probes per second of sqlite-bloom/filter in Node.js, for a blocked filter of 1M keys at
// p = 0.01 that the extension built: string keys (present and absent: 1M distinct strings, whose
// objects and filter lines miss the caches, and 1,000 that stay in them), integers (as numbers
// and as bigints), BLOBs; and, for scale, bloom_might_contain in SQLite (through better-sqlite3,
// 10,000 keys a statement). Prints the figures; checks only the answers (every key added found, the rate of
// the absent ones near p), never a time. Run by run_node.sh (test wasm.bench); BLOOM_BENCH_KEYS
// sets the number of keys (1,000,000).
'use strict';
const assert = require('node:assert');
const path = require('node:path');
const Database = require('better-sqlite3');

const { openFilter } = require(path.join(process.env.BLOOM_WASM_DIR, 'filter.cjs'));
const KEYS = Number(process.env.BLOOM_BENCH_KEYS || 1000000);
const PROBES = 1000000;

const db = new Database(':memory:');
db.loadExtension(process.env.BLOOM_EXTENSION);
const build = (select) => db.prepare(`WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s
                                      WHERE i < ${KEYS - 1}) SELECT ${select} AS f FROM s`).get().f;
const textFilter = build(`bloom_build('user' || i || '@example.com', ${KEYS}, 0.01, 'blocked')`);
const integerFilter = build(`bloom_build(i * 7, ${KEYS}, 0.01, 'blocked')`);
const blobFilter = build(`bloom_build(CAST('user' || i AS BLOB), ${KEYS}, 0.01, 'blocked')`);

// Runs probe(i) for i in [0, PROBES) and prints the rate; returns the number of true answers.
function measure(label, reader, probe) {
  for (let i = 0; i < 10000; i++) {
    probe(i); // warm up
  }
  let hits = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < PROBES; i++) {
    hits += probe(i) === true ? 1 : 0;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`${label.padEnd(52)} ${Math.round(PROBES / seconds).toLocaleString('en-US').padStart(11)} probes/s`);
  return hits;
}

const openStart = process.hrtime.bigint();
const text = openFilter(textFilter);
const openMs = Number(process.hrtime.bigint() - openStart) / 1e6;
const integers = openFilter(integerFilter);
const blobs = openFilter(blobFilter);
const info = text.info();
console.log(`sqlite-bloom/filter in Node.js ${process.version}: a '${info.layout}' filter of ` +
  `${info.keys_added.toLocaleString('en-US')} keys at p = ${info.p}, k = ${info.k}, ` +
  `${info.bytes.toLocaleString('en-US')} bytes (opened in ${openMs.toFixed(1)} ms)`);

const names = Array.from({ length: PROBES }, (_, i) => `user${i % KEYS}@example.com`);
const absentNames = Array.from({ length: PROBES }, (_, i) => `visitor${i}@example.org`);
const blobKeys = Array.from({ length: 1000 }, (_, i) => Buffer.from(`user${i}`));

assert.strictEqual(measure('string keys, all present', text, (i) => text.mightContain(names[i])), PROBES);
assert.strictEqual(measure('string keys, present, 1,000 distinct (in cache)', text,
  (i) => text.mightContain(names[i % 1000])), PROBES);
const falsePositives = measure('string keys, all absent', text, (i) => text.mightContain(absentNames[i]));
assert.ok(falsePositives > PROBES * 0.005 && falsePositives < PROBES * 0.02,
  `${falsePositives} false positives in ${PROBES}`);
assert.strictEqual(measure('integer keys (numbers), present', integers,
  (i) => integers.mightContain((i % KEYS) * 7)), PROBES);
assert.strictEqual(measure('integer keys (bigints), present', integers,
  (i) => integers.mightContain(BigInt((i % KEYS) * 7))), PROBES);
assert.strictEqual(measure('BLOB keys (Buffers of 5 to 8 bytes), present', blobs,
  (i) => blobs.mightContain(blobKeys[i % 1000])), PROBES);

// For scale: the extension in SQLite, 10,000 probes a statement (the filter bound once for them,
// the keys in a JSON array).
const statement = db.prepare('SELECT sum(bloom_might_contain(?, value)) FROM json_each(?)').pluck();
const batches = Array.from({ length: PROBES / 10000 },
  (_, b) => JSON.stringify(names.slice(b * 10000, (b + 1) * 10000)));
let sqlHits = 0;
const sqlStart = process.hrtime.bigint();
for (const batch of batches) {
  sqlHits += statement.get(textFilter, batch);
}
const sqlSeconds = Number(process.hrtime.bigint() - sqlStart) / 1e9;
assert.strictEqual(sqlHits, PROBES);
console.log(`${'for scale: bloom_might_contain in SQLite, string keys'.padEnd(52)} ` +
  `${Math.round(PROBES / sqlSeconds).toLocaleString('en-US').padStart(11)} probes/s`);
db.close();
