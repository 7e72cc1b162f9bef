// The columns of the Parquet file that test.js has DuckDB write: every type DuckDB writes a
// Bloom filter for, with what DuckDB makes of it in Parquet (the physical type), how SQLite
// holds a value of it for bloom_might_contain (the key: INTEGER, REAL, TEXT or BLOB), and how
// to write that value back in DuckDB's SQL for its parquet_bloom_probe.
//
// Each column is made from v, the value's number: row i of the 30,720 (three row groups of
// 10,240) has v = (i // 10240) * d / 2 + (i * 7919) % d, so each row group holds d values (d is
// 50 or 600; DuckDB writes filters only for dictionary-encoded chunks, and encodes a chunk so
// when it has fewer distinct values than a fifth of its rows) and shares half of them with the
// next: 2d in all.
//
// Fields: name; sql, the column's value from v (and i); physical, its Parquet physical type;
// length, a FIXED_LEN_BYTE_ARRAY's; key, the SQL (DuckDB's) of the SQLite key from the column c
// as read back from the file; keyType; fromDuck, the key from DuckDB's JavaScript value when
// it is not that value; probe, DuckDB's SQL for a key; absent, a random key of the column's
// domain (or domain, all of them, for a small one); filter, whether DuckDB writes this column
// a filter (false: it does not, and the test checks that it does not); filteredRowGroups;
// probed: false when DuckDB's parquet_bloom_probe cannot be asked (see nested columns);
// probeBug: how DuckDB 1.5.6's parquet_bloom_probe gets the column wrong (it excludes present
// keys: the filter DuckDB wrote holds them, as the extension rebuilds it byte for byte from
// them); such a column is probed with its present keys only, and the test checks that the bug
// is there, so that a DuckDB without it has the column compared in full; probeBlind: why
// DuckDB 1.5.6's parquet_bloom_probe answers "maybe" for every key of the column (it does not
// probe the filter), which the test checks on its present keys and ABSENT_FEW absent ones;
// many: a column whose chunks are probed with ABSENT_MANY absent keys (one for each physical
// type DuckDB probes, BYTE_ARRAY from TEXT and from BLOB), the others with ABSENT_FEW (each DuckDB probe
// takes a millisecond: the keys of every type are converted, hashed and probed by the same
// code once they are the type's bytes).
'use strict';

const ROWS = 30720;
const ROW_GROUP_SIZE = 10240;
const TWO_63 = 1n << 63n;
const TWO_64 = 1n << 64n;

// A multiplicative hash of v into [0, 2^32) (v < 1200, so v * m fits in a BIGINT).
const hash32 = '((v * 2654435761) % 4294967296)';
// A multiplicative hash of v into [0, 2^64), in HUGEINT.
const hash64 = '((v::HUGEINT * 11400714819323198485) % 18446744073709551616)';

// An unscaled decimal as DuckDB's literal text: decimalText(-12345n, 3) is '-12.345'.
function decimalText(unscaled, scale) {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

// 16 bytes as a UUID's text.
function uuidText(bytes) {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// An INTERVAL's Parquet bytes: months, days and milliseconds, 3 little-endian uint32.
function intervalBytes(months, days, millis) {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32LE(Number(months), 0);
  bytes.writeUInt32LE(Number(days), 4);
  bytes.writeUInt32LE(Number(millis), 8);
  return bytes;
}

// A SQL string literal.
function quote(text) {
  return `'${text.replaceAll("'", "''")}'`;
}

// Integers of [lo, hi) as keys.
function range(lo, hi) {
  return Array.from({ length: hi - lo }, (_, i) => BigInt(lo + i));
}

const DECIMAL_BUG = "it hashes the value's integer part (12 for 12.34) in the physical type, not the unscaled integer (1234) that the writer hashes";

const FIXED_BLIND = 'it answers "maybe" for every value of a FIXED_LEN_BYTE_ARRAY column';

const integer = (duck, sql, lo, hi) => ({
  physical: 'INT32', keyType: 'INTEGER', sql: `(${sql})::${duck}`, key: 'c::BIGINT',
  probe: (k) => `(${k})::${duck}`, absent: (r) => r.int(lo, hi),
});

const COLUMNS = [
  { name: 'i32', many: true, ...integer('INTEGER', `${hash32} - 2147483648`, -(2 ** 31), 2 ** 31),
    sql: `CASE WHEN i % 101 = 0 THEN NULL ELSE (${hash32} - 2147483648)::INTEGER END` },
  { name: 'i16', ...integer('SMALLINT', '(v * 40503) % 65536 - 32768', -32768, 32768) },
  { name: 'i8', ...integer('TINYINT', 'v % 150 - 75'), domain: range(-128, 128), absent: undefined },
  { name: 'u8', ...integer('UTINYINT', 'v % 150 + 100'), domain: range(0, 256), absent: undefined },
  { name: 'u16', ...integer('USMALLINT', '(v * 40503) % 65536', 0, 65536) },
  // UINTEGER is INT32 in Parquet: a value of 2^31 or more is stored as its bits, a negative
  // int32; SQLite holds it as the INTEGER it is, which the filter takes by its low 32 bits.
  { name: 'u32', ...integer('UINTEGER', hash32, 0, 2 ** 32) },
  // A DATE is INT32, days since 1970-01-01: the key is that count (unixepoch(d) / 86400 in SQLite).
  { name: 'd', physical: 'INT32', keyType: 'INTEGER',
    sql: "DATE '1970-01-01' + ((v * 7919) % 80001 - 40000)::INTEGER",
    key: "(c - DATE '1970-01-01')::BIGINT",
    probe: (k) => `DATE '1970-01-01' + (${k})::INTEGER`, absent: (r) => r.int(-100000, 100000) },
  // A DECIMAL is its unscaled integer: INT32 up to 9 digits, INT64 up to 18.
  { name: 'dec4', physical: 'INT32', keyType: 'INTEGER', probeBug: DECIMAL_BUG,
    sql: '(((v * 7919) % 19999 - 9999) * 0.01)::DECIMAL(4,2)', key: '(c::DECIMAL(38,2) * 100)::BIGINT',
    probe: (k) => `${quote(decimalText(k, 2))}::DECIMAL(4,2)`, absent: (r) => r.int(-9999, 10000) },
  { name: 'dec9', physical: 'INT32', keyType: 'INTEGER', probeBug: DECIMAL_BUG,
    sql: `((${hash32} % 1999999999 - 999999999) * 0.001)::DECIMAL(9,3)`, key: '(c::DECIMAL(38,3) * 1000)::BIGINT',
    probe: (k) => `${quote(decimalText(k, 3))}::DECIMAL(9,3)`,
    absent: (r) => r.int(-999999999, 1000000000) },
  { name: 'dec18', physical: 'INT64', keyType: 'INTEGER', probeBug: DECIMAL_BUG,
    sql: `((${hash64} % 1999999999999999999 - 999999999999999999) * 0.001)::DECIMAL(18,3)`,
    key: '(c::DECIMAL(38,3) * 1000)::BIGINT', probe: (k) => `${quote(decimalText(k, 3))}::DECIMAL(18,3)`,
    absent: (r) => r.int(-999999999999999999n, 1000000000000000000n) },
  { name: 'i64', many: true, physical: 'INT64', keyType: 'INTEGER', sql: `(${hash64} - 9223372036854775808)::BIGINT`,
    key: 'c', probe: (k) => `(${k})::BIGINT`, absent: (r) => r.int(-TWO_63, TWO_63) },
  // UBIGINT is INT64: a value of 2^63 or more is stored as its bits, a negative int64, and
  // SQLite cannot hold it as an INTEGER: the key is value - 2^64.
  { name: 'u64', physical: 'INT64', keyType: 'INTEGER', sql: `${hash64}::UBIGINT`,
    key: '(c::HUGEINT - CASE WHEN c >= 9223372036854775808 THEN 18446744073709551616 ELSE 0 END)::BIGINT',
    probe: (k) => `${k < 0n ? k + TWO_64 : k}::UBIGINT`, absent: (r) => r.int(-TWO_63, TWO_63) },
  // Timestamps are INT64 in their unit: microseconds (TIMESTAMP, TIMESTAMPTZ, TIMESTAMP_S,
  // which DuckDB writes in microseconds), milliseconds (TIMESTAMP_MS), nanoseconds (TIMESTAMP_NS).
  { name: 'ts', physical: 'INT64', keyType: 'INTEGER',
    sql: `make_timestamp((${hash64} % 4000000000000000 - 2000000000000000)::BIGINT)`,
    key: 'epoch_us(c)', probe: (k) => `make_timestamp((${k})::BIGINT)`,
    absent: (r) => r.int(-2000000000000000n, 2000000000000000n) },
  { name: 'tstz', physical: 'INT64', keyType: 'INTEGER',
    sql: `make_timestamp((${hash64} % 4000000000000000 - 2000000000000000)::BIGINT)::TIMESTAMPTZ`,
    key: 'epoch_us(c)', probe: (k) => `make_timestamp((${k})::BIGINT)::TIMESTAMPTZ`,
    absent: (r) => r.int(-2000000000000000n, 2000000000000000n) },
  { name: 'tss', physical: 'INT64', keyType: 'INTEGER',
    sql: `make_timestamp(((${hash64} % 4000000000 - 2000000000) * 1000000)::BIGINT)::TIMESTAMP_S`,
    key: 'epoch_us(c::TIMESTAMP)', probe: (k) => `make_timestamp((${k})::BIGINT)::TIMESTAMP_S`,
    absent: (r) => r.int(-2000000000, 2000000000) * 1000000n },
  { name: 'tsms', physical: 'INT64', keyType: 'INTEGER',
    probeBug: 'it hashes the value in microseconds; the writer stores and hashes milliseconds',
    sql: `make_timestamp(((${hash64} % 4000000000000 - 2000000000000) * 1000)::BIGINT)::TIMESTAMP_MS`,
    key: 'epoch_ms(c::TIMESTAMP)', probe: (k) => `make_timestamp((${k})::BIGINT * 1000)::TIMESTAMP_MS`,
    absent: (r) => r.int(-2000000000000n, 2000000000000n) },
  { name: 'tsns', physical: 'INT64', keyType: 'INTEGER',
    sql: `make_timestamp_ns((${hash64} % 8000000000000000000 - 4000000000000000000)::BIGINT)`,
    key: 'epoch_ns(c)', probe: (k) => `make_timestamp_ns((${k})::BIGINT)`,
    absent: (r) => r.int(-4000000000000000000n, 4000000000000000000n) },
  // TIME is INT64 microseconds since midnight.
  { name: 't', physical: 'INT64', keyType: 'INTEGER',
    sql: `TIME '00:00:00' + to_microseconds((${hash64} % 86400000000)::BIGINT)`,
    key: 'epoch_us(c)', probe: (k) => `TIME '00:00:00' + to_microseconds((${k})::BIGINT)`,
    absent: (r) => r.int(0, 86400000000) },
  // HUGEINT is written as DOUBLE, and read back as DOUBLE.
  { name: 'hi', physical: 'DOUBLE', keyType: 'REAL',
    sql: `(${hash64} * 1000003 - 9223372036854775808000000)::HUGEINT`,
    key: 'c', probe: (k) => `${quote(String(k))}::DOUBLE`,
    absent: (r) => Number(r.int(-(1n << 84n), 1n << 84n)) },
  // A FLOAT's key is its value as a double, which SQLite holds exactly.
  { name: 'f', many: true, physical: 'FLOAT', keyType: 'REAL',
    sql: '((v * 7919) % 20001 - 10000)::FLOAT / 7::FLOAT', key: 'c::DOUBLE',
    probe: (k) => `${quote(String(k))}::DOUBLE::FLOAT`,
    absent: (r) => Math.fround((r.number() - 0.5) * 3000) },
  { name: 'dbl', many: true, physical: 'DOUBLE', keyType: 'REAL',
    sql: '((v * 7919) % 20001 - 10000)::DOUBLE / 7 * pow(10, v % 41 - 20)', key: 'c',
    probe: (k) => `${quote(String(k))}::DOUBLE`,
    absent: (r) => (r.number() - 0.5) * 10 ** Number(r.int(-20, 21)) },
  { name: 's', many: true, physical: 'BYTE_ARRAY', keyType: 'TEXT',
    sql: `CASE WHEN i % 103 = 0 THEN NULL WHEN v = 7 THEN ''
               ELSE 'key ' || v || ' ' || ['α', '日本語', '🙂', 'o''k'][v % 4 + 1] END`,
    key: 'c', probe: (k) => quote(k),
    absent: (r) => `key ${r.int(1200, 1000000)} ${['α', '日本語', '🙂', "o'k", ''][Number(r.int(0, 5))]}` },
  // A BLOB of letters, digits and spaces (DuckDB's probe escapes others, quotes among them:
  // see bz), and one of any bytes (zeros among them).
  { name: 'b', many: true, physical: 'BYTE_ARRAY', keyType: 'BLOB',
    sql: `('blob ' || v || ' ' || ${hash32})::BLOB`, key: 'c',
    probe: (k) => `unhex('${k.toString('hex')}')`, absent: (r) => r.plain(Number(r.int(1, 13))) },
  { name: 'bz', physical: 'BYTE_ARRAY', keyType: 'BLOB',
    probeBug: "it hashes a BLOB as its escaped text (\\x00 for a zero byte, quotes escaped too), not its bytes",
    sql: `unhex(printf('%08x00%04x', ${hash32}, v))`, key: 'c',
    probe: (k) => `unhex('${k.toString('hex')}')`, absent: (r) => r.bytes(Number(r.int(1, 13))) },
  { name: 'js', physical: 'BYTE_ARRAY', keyType: 'TEXT',
    sql: `('{"k": ' || v || '}')::JSON`, key: 'c::VARCHAR', probe: (k) => `${quote(k)}::JSON`,
    absent: (r) => `{"k": ${r.int(1200, 1000000000)}}` },
  // A UUID is FIXED_LEN_BYTE_ARRAY(16), its 16 bytes in the order of its text: a BLOB key
  // (unhex(replace(uuid, '-', '')) in SQLite).
  { name: 'uu', physical: 'FIXED_LEN_BYTE_ARRAY', length: 16, keyType: 'BLOB', probeBlind: FIXED_BLIND,
    sql: 'md5(v::VARCHAR)::UUID', key: "unhex(replace(c::VARCHAR, '-', ''))",
    probe: (k) => `${quote(uuidText(k))}::UUID`, absent: (r) => r.bytes(16) },
  // An INTERVAL is FIXED_LEN_BYTE_ARRAY(12): months, days, milliseconds.
  { name: 'iv', physical: 'FIXED_LEN_BYTE_ARRAY', length: 12, keyType: 'BLOB', probeBlind: FIXED_BLIND,
    sql: `to_months((v % 30)::INTEGER) + to_days(((v * 7) % 40)::INTEGER)
          + to_milliseconds(((v * 7919) % 60000)::BIGINT)`,
    key: "[datepart('year', c) * 12 + datepart('month', c), datepart('day', c), datepart('microseconds', c) // 1000]",
    fromDuck: (x) => intervalBytes(...x),
    probe: (k) => `to_months(${k.readUInt32LE(0)}) + to_days(${k.readUInt32LE(4)}) + to_milliseconds(${k.readUInt32LE(8)})`,
    absent: (r) => intervalBytes(r.int(0, 30), r.int(0, 40), r.int(0, 60000)) },
  // No filter: DuckDB writes DECIMAL(38) (FIXED_LEN_BYTE_ARRAY(16)) without a dictionary, and
  // BOOLEAN without a dictionary.
  { name: 'dec38', physical: 'FIXED_LEN_BYTE_ARRAY', filter: false,
    sql: `(${hash64} * 0.001)::DECIMAL(38,3)` },
  { name: 'bo', physical: 'BOOLEAN', filter: false, sql: 'v % 2 = 0' },
  // A filter in the first two row groups only: the third has a distinct value per row, too
  // many for a dictionary.
  { name: 'mixed', physical: 'INT64', keyType: 'INTEGER', filteredRowGroups: [0, 1],
    sql: `(CASE WHEN i < ${2 * ROW_GROUP_SIZE} THEN v * 1000003 ELSE i END)::BIGINT`, key: 'c',
    probe: (k) => `(${k})::BIGINT`, absent: (r) => r.int(-TWO_63, TWO_63) },
  // Nested columns, last: DuckDB 1.5.6's parquet_bloom_probe finds a column by its index among
  // the top-level columns and reads the filter of the leaf at that index, so that after a
  // nested column it probes another column's filter (and it does not accept a nested column's
  // name at all). Their filters are checked here for all but DuckDB's answers.
  { name: 'l', path: 'l.list.element', physical: 'INT32', keyType: 'INTEGER', probed: false,
    sql: '[v, v + 1000]::INTEGER[]', unnest: true, key: 'c::BIGINT', absent: (r) => r.int(2000, 1000000) },
  { name: 'st', path: 'st.a', physical: 'INT64', keyType: 'INTEGER', probed: false,
    sql: "{'a': v * 3, 'b': 'st ' || v}", key: 'c.a', absent: (r) => r.int(-TWO_63, TWO_63) },
  { name: 'st', path: 'st.b', physical: 'BYTE_ARRAY', keyType: 'TEXT', probed: false,
    sql: null, key: 'c.b', absent: (r) => `st ${r.int(1200, 1000000)}` },
].map((column) => ({
  path: column.name, filter: true, probed: true, many: false, probeBug: null, probeBlind: null, filteredRowGroups: [0, 1, 2], ...column,
}));

module.exports = { COLUMNS, ROWS, ROW_GROUP_SIZE };
