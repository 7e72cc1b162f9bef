// make_fixtures.cjs: writes the Parquet files of tests/parquet, whose Bloom filters
// bloom_parquet_filters reads in tests/sql/parquet_files.sql and tests/test_parquet_files.c.
// The files are committed; run this only to make them again (README.md here says how).
//
// Usage: NODE_PATH=<dir>/node_modules node make_fixtures.cjs OUTDIR
// with @duckdb/node-api@1.5.6-r.1 and @dsnp/parquetjs@1.8.7 installed in <dir>.
'use strict';
const path = require('path');
const { DuckDBInstance } = require('@duckdb/node-api');
const parquet = require('@dsnp/parquetjs');

async function duckdbFixtures(out) {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  // Every physical type DuckDB writes a filter for, a nested struct, a list, and two columns
  // without a filter (all values distinct: not dictionary-encoded; BOOLEAN: never).
  await c.run(`COPY (SELECT (i % 7)::INTEGER AS i32, (i % 5)::BIGINT AS i64, (i % 3)::FLOAT AS f32,
      (i % 4)::DOUBLE AS f64, 'v' || (i % 6) AS txt,
      ('0000000' || (i % 3) || '-0000-0000-0000-000000000000')::UUID AS u,
      {'a': (i % 2)::INTEGER, 'b': 'x' || (i % 3)} AS s, [i % 2, 10 + i % 3] AS l,
      i::BIGINT AS distinct_id, (i % 2 = 0) AS flag
    FROM range(100) t(i)) TO '${path.join(out, 'types.parquet')}' (FORMAT parquet)`);
  // Three row groups of 2,048 rows, each with its own keys: k0..k99 in the first, k100..k199
  // in the second, k200..k299 in the third; and a number per row group.
  await c.run(`COPY (SELECT 'k' || (100 * (i // 2048) + i % 100) AS key, (i // 2048)::BIGINT AS part
    FROM range(6144) t(i)) TO '${path.join(out, 'row_groups.parquet')}'
    (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  // A file without any filter.
  await c.run(`COPY (SELECT i::BIGINT AS id FROM range(10) t(i))
    TO '${path.join(out, 'no_filters.parquet')}' (FORMAT parquet)`);
}

// @dsnp/parquetjs: bloom_filter_offset without bloom_filter_length, the header's unions empty.
async function parquetjsFixture(out) {
  const schema = new parquet.ParquetSchema({ name: { type: 'UTF8' }, quantity: { type: 'INT64' } });
  const writer = await parquet.ParquetWriter.openFile(schema, path.join(out, 'parquetjs.parquet'), {
    bloomFilters: [{ column: 'name', numFilterBytes: 1024 }, { column: 'quantity', numFilterBytes: 1024 }],
  });
  for (const [name, quantity] of [['apples', 10], ['oranges', 20], ['kiwi', 30]]) {
    await writer.appendRow({ name, quantity });
  }
  await writer.close();
}

(async () => {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node make_fixtures.cjs OUTDIR');
    process.exit(2);
  }
  await duckdbFixtures(out);
  await parquetjsFixture(out);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
