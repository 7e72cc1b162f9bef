// sqlite-bloom for Node.js: the path of the extension, bloom.so, in this package, and load(db)
// to load it into a better-sqlite3 Database or a node:sqlite DatabaseSync. bloom.so is built for
// one platform, which build_npm.sh writes below; sqlite-bloom/filter (filter.cjs, filter.mjs),
// the filters read by WebAssembly, runs on any.
'use strict';
const path = require('node:path');

// The platform of bloom.so, as Node.js names it (process.platform, process.arch).
const PLATFORM = { os: '@OS@', cpu: '@CPU@' };

// The absolute path of bloom.so in this package.
function getLoadablePath() {
  return path.join(__dirname, 'bloom.so');
}

// Loads sqlite-bloom into db, a database with loadExtension(path): better-sqlite3's Database,
// or node:sqlite's DatabaseSync opened with { allowExtension: true } (Node.js 22.13 or later).
function load(db) {
  if (process.platform !== PLATFORM.os || process.arch !== PLATFORM.cpu) {
    throw new Error(
      `sqlite-bloom: this package's bloom.so is built for ${PLATFORM.os} ${PLATFORM.cpu}, not ` +
        `${process.platform} ${process.arch}; its filters can still be read here, without ` +
        "SQLite, by require('sqlite-bloom/filter')");
  }
  if (db == null || typeof db.loadExtension !== 'function') {
    throw new TypeError(
      'sqlite-bloom: load(db) needs a database with a loadExtension(path) method: a better-sqlite3 ' +
        'Database, or a node:sqlite DatabaseSync opened with { allowExtension: true } ' +
        '(Node.js 22.13.0 or later in 22.x, 23.5.0 or later)');
  }
  try {
    db.loadExtension(getLoadablePath());
  } catch (error) {
    if (db.constructor && db.constructor.name === 'DatabaseSync') {
      throw new Error(
        `sqlite-bloom: ${error.message} (node:sqlite loads extensions only into a database ` +
          'opened with new DatabaseSync(path, { allowExtension: true }))',
        { cause: error });
    }
    throw error;
  }
}

exports.getLoadablePath = getLoadablePath;
exports.load = load;
