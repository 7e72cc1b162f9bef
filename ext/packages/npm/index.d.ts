// Types of sqlite-bloom for Node.js (index.js).

/**
 * A database that can load an SQLite extension: better-sqlite3's `Database`, or node:sqlite's
 * `DatabaseSync` opened with `{ allowExtension: true }`.
 */
export interface ExtensionLoadingDatabase {
  loadExtension(path: string): unknown;
}

/** The absolute path of the extension, `bloom.so`, in this package. */
export declare function getLoadablePath(): string;

/**
 * Loads sqlite-bloom into `db`: its `bloom_*` SQL functions are then available on that
 * connection. Throws a `TypeError` if `db` has no `loadExtension` method, and the database's
 * own error if loading fails (a node:sqlite database opened without `allowExtension`, say).
 */
export declare function load(db: ExtensionLoadingDatabase): void;
