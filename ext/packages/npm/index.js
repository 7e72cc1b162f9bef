// sqlite-bloom for Node.js: the path of the extension in this package, and load(db) to load it
// into a better-sqlite3 Database or a node:sqlite DatabaseSync. The package holds one build of
// the extension for each platform below (bloom.so, bloom.dll), which build_npm.sh lists, and
// picks the one for process.platform and process.arch; sqlite-bloom/filter (filter.cjs,
// filter.mjs), the filters read by WebAssembly, runs on any.
'use strict';
const path = require('node:path');

// The extension for each platform, as Node.js names it (process.platform-process.arch).
const BINARIES = {
  // @BINARIES@
};

// The absolute path of the extension in this package for this machine; throws, naming the
// machine's platform and those the package has, when it has none for it.
function getLoadablePath() {
  const platform = `${process.platform}-${process.arch}`;
  if (!Object.prototype.hasOwnProperty.call(BINARIES, platform)) {
    throw new Error(
      `sqlite-bloom: this package has no build of the extension for ${platform}, only for ` +
        `${Object.keys(BINARIES).join(', ')}; build it from source for this machine and load it ` +
        "by its path (docs/install.md of sqlite-bloom). Its filters can still be read here, " +
        "without SQLite, by require('sqlite-bloom/filter')");
  }
  return path.join(__dirname, BINARIES[platform]);
}

// Loads sqlite-bloom into db, a database with loadExtension(path): better-sqlite3's Database,
// or node:sqlite's DatabaseSync opened with { allowExtension: true } (Node.js 22.13 or later).
function load(db) {
  const extension = getLoadablePath();
  if (db == null || typeof db.loadExtension !== 'function') {
    throw new TypeError(
      'sqlite-bloom: load(db) needs a database with a loadExtension(path) method: a better-sqlite3 ' +
        'Database, or a node:sqlite DatabaseSync opened with { allowExtension: true } ' +
        '(Node.js 22.13.0 or later in 22.x, 23.5.0 or later)');
  }
  try {
    db.loadExtension(extension);
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
