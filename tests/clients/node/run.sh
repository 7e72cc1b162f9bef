#!/bin/sh
# Installs better-sqlite3 (package.json here, its version pinned) for WORKDIR, outside the source
# tree: into npm's cache of the tests, where the next runs find it compiled, with
# WORKDIR/node_modules a link to it (npm_install, ../../node.sh); then runs test.js with node's
# test runner against the extension.
# Exits 77 (a skip for ctest, with the reason) when there is no Node.js 20 or later with npm,
# or when npm cannot reach its registry: better-sqlite3 cannot be installed then.
# Usage: run.sh NODE NPM WORKDIR EXTENSION
set -u
node=$1 npm=$2 workdir=$3 extension=$4
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../node.sh"

require_node "$node" "better-sqlite3@12 and this test" "$npm"
mkdir -p "$workdir" || exit 1
npm_install "$node" "$npm" "$workdir" "$here/package.json" \
    better-sqlite3/build/Release/better_sqlite3.node better-sqlite3

BLOOM_EXTENSION=$extension NODE_PATH="$workdir/node_modules" \
    exec "$node" --test "$here/test.js"
