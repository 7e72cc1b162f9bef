// Writes the lake of sql/lake_catalog.sql with DuckDB: 20 Parquet files of orders, one a day,
// lake/orders_2024-03-01.parquet to lake/orders_2024-03-20.parquet, each of 16,384 orders in two
// row groups of 8,192. Each day's orders come from at most 1,000 of 20,000 customers, so that
// customer_id repeats and DuckDB dictionary-encodes it and writes it a Bloom filter per row
// group (it writes filters only for dictionary-encoded column chunks). The files are the same,
// byte for byte, at every run of the same DuckDB (one thread, no random function).
// Run alone: node lake.js DIR (DIR/lake is made). It needs @duckdb/node-api, 1.5.6-r.1 for the
// files of the use case's expected output, which it takes from the first place that has it:
// where node looks (NODE_PATH), the working directory's node_modules (npm install
// @duckdb/node-api@1.5.6-r.1 there), then the build directory's, where client.parquet installs
// it (ctest --test-dir build -R client.parquet).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');

const DAYS = 20;
const ORDERS_PER_DAY = 16384;
const ROW_GROUP_SIZE = 8192;
const CUSTOMERS = 20000;
const CUSTOMERS_PER_DAY = 1000;

// The file of day d (1 to 20), relative to the directory that holds lake/.
function lakeFile(day) {
  return `lake/orders_2024-03-${String(day).padStart(2, '0')}.parquet`;
}

// Order r of day d is placed by the customer in slot r % 1,000 of that day; a slot's customer
// is a multiplicative hash of (d, slot) into 1..20,000, so a customer orders on about one day
// in twenty and on no day in particular.
function ordersOfDay(day) {
  return `SELECT ${day} * 1000000 + r AS order_id,
                 DATE '2024-02-29' + ${day} AS order_day,
                 (1 + ((${day} * ${CUSTOMERS_PER_DAY} + r % ${CUSTOMERS_PER_DAY}) * 2654435761
                       % 4294967296) % ${CUSTOMERS})::BIGINT AS customer_id,
                 'SKU-' || lpad(((r * 31 + ${day}) % 500)::VARCHAR, 4, '0') AS sku,
                 (100 + (r * 7919 + ${day} * 13) % 50000)::INTEGER AS amount_cents
          FROM range(${ORDERS_PER_DAY}) t(r)`;
}

// Writes the 20 files into dir/lake with the DuckDB connection; returns their paths.
async function writeLake(connection, dir) {
  fs.mkdirSync(path.join(dir, 'lake'), { recursive: true });
  await connection.run('SET threads = 1');
  const files = [];
  for (let day = 1; day <= DAYS; day++) {
    const file = path.join(dir, lakeFile(day));
    await connection.run(`COPY (${ordersOfDay(day)}) TO '${file}'
                          (FORMAT parquet, ROW_GROUP_SIZE ${ROW_GROUP_SIZE})`);
    files.push(file);
  }
  return files;
}

module.exports = { DAYS, ORDERS_PER_DAY, ROW_GROUP_SIZE, CUSTOMERS, lakeFile, writeLake };

// The places DuckDB's client is looked for, in order: a require from here (NODE_PATH), from the
// working directory, from the directory client.parquet installs it in (the default preset's
// build directory, tests/clients/parquet of it).
const DUCKDB_PLACES = [
  { from: __filename, where: 'NODE_PATH or a node_modules above lake.js' },
  { from: path.join(process.cwd(), 'lake.js'), where: `${path.join(process.cwd(), 'node_modules')} (npm install @duckdb/node-api@1.5.6-r.1 there)` },
  { from: path.join(__dirname, '..', '..', '..', 'build', 'tests', 'clients', 'parquet', 'lake.js'),
    where: `${path.join(__dirname, '..', '..', '..', 'build', 'tests', 'clients', 'parquet', 'node_modules')} (ctest --test-dir build -R client.parquet installs it)` },
];

// DuckDB's client, and its version, from the first place that has it; exits saying where it
// looked when none has.
function loadDuckdb() {
  for (const { from } of DUCKDB_PLACES) {
    const requireThere = createRequire(from);
    let resolved;
    try {
      resolved = requireThere.resolve('@duckdb/node-api');
    } catch {
      continue;
    }
    let version = 'of unknown version';
    try {
      version = requireThere('@duckdb/node-api/package.json').version;
    } catch {
      // A version whose manifest is not exported: the files may differ from the use case's.
    }
    return { duckdb: requireThere(resolved), version };
  }
  console.error('lake.js: cannot find @duckdb/node-api; looked in:');
  for (const { where } of DUCKDB_PLACES) console.error(`  ${where}`);
  process.exit(1);
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node lake.js DIR');
    process.exit(2);
  }
  const { duckdb, version } = loadDuckdb();
  (async () => {
    const instance = await duckdb.DuckDBInstance.create(':memory:');
    const files = await writeLake(await instance.connect(), dir);
    console.log(`${files.length} files in ${path.join(dir, 'lake')}, by @duckdb/node-api ${version}`);
  })();
}
