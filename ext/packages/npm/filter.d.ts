// Types of sqlite-bloom/filter (filter.cjs and filter.mjs): a filter BLOB that the extension
// wrote, read without SQLite by its core compiled to WebAssembly.

/**
 * A key as SQL compares it: a string is TEXT (its UTF-8), a number an INTEGER when integral in
 * the 64-bit range and a REAL otherwise (1 and 1.0 are one key, as in SQL), a bigint an INTEGER
 * (from -2^63 to 2^63 - 1), a Uint8Array (a Buffer) or an ArrayBuffer a BLOB, null and undefined
 * (and NaN, which SQLite holds as NULL) NULL.
 */
export type FilterKey = string | number | bigint | Uint8Array | ArrayBuffer | null | undefined;

/** What `bloom_info(filter)` returns, parsed: the prelude's fields, then the kind's. */
export interface FilterInfo {
  format_version: number;
  min_reader_version: number;
  /** The kind: 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', 'countmin', 'parquet', 'fuse' or 'spark'. */
  layout: string;
  /** The key hash: 'xxh3-128', 'xxh64-parquet' for a 'parquet' filter, or 'murmur3-spark' for a 'spark' filter. */
  hash: string;
  /** The size of the filter in bytes. */
  bytes: number;
  /** The kind's own fields, as the extension's documentation of bloom_info lists them. */
  [field: string]: unknown;
}

/** A filter that `openFilter` validated. */
export interface BloomFilter {
  /**
   * `false` when the key was certainly never added to the filter, `true` when it may have been,
   * `null` for a NULL key: what `bloom_might_contain(filter, key)` answers (0, 1 or NULL). Throws
   * a `TypeError` for a value that is no SQL value (a boolean, an object), a `RangeError` for a
   * bigint outside the 64-bit range.
   */
  mightContain(key: FilterKey): boolean | null;
  /** What `bloom_info(filter)` returns, as an object. Reads the whole filter. */
  info(): FilterInfo;
}

/**
 * Validates a filter BLOB of any kind and format version this version of sqlite-bloom reads, as
 * `bloom_might_contain` does, and returns it, ready to probe; its bytes are copied. Throws an
 * `Error` with `bloom_might_contain`'s message for bytes that are not a valid filter
 * ("bloom_might_contain: corrupt filter: ..."), a `TypeError` for a value that is not a
 * Uint8Array or an ArrayBuffer.
 */
export declare function openFilter(filter: Uint8Array | ArrayBuffer): BloomFilter;
