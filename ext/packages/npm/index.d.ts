// Types of sqlite-bloom for Node.js (index.js).

/**
 * A database that can load an SQLite extension: better-sqlite3's `Database`, or node:sqlite's
 * `DatabaseSync` opened with `{ allowExtension: true }`.
 */
export interface ExtensionLoadingDatabase {
  loadExtension(path: string): unknown;
}

/**
 * The absolute path of the extension in this package for this machine's platform
 * (`prebuilds/linux-x64/bloom.so`, `prebuilds/win32-x64/bloom.dll`, ...). Throws an `Error`
 * naming the platform when the package has no build for it.
 */
export declare function getLoadablePath(): string;

/**
 * Loads sqlite-bloom into `db`: its `bloom_*` SQL functions are then available on that
 * connection. Throws an `Error` on a platform the package has no build for (as
 * `getLoadablePath`), a `TypeError` if `db` has no `loadExtension` method, and the database's
 * own error if loading fails (a node:sqlite database opened without `allowExtension`, say).
 */
export declare function load(db: ExtensionLoadingDatabase): void;
