#!/bin/sh
# Installs DuckDB's Node client, @duckdb/node-api (pinned in package.json here: the Parquet
# files it writes, and so the expected output of usecase.lake_catalog, are those of that
# version), for WORKDIR, outside the source tree (into npm's cache of the tests, as client.node
# does: npm_install, ../../node.sh), then runs test.js with node's test runner.
# better-sqlite3@12 (also in package.json) is taken from client.node's install, NODE_MODULES,
# when that has built it: its install compiles SQLite (minutes on 2 cores), DuckDB's takes
# seconds (a prebuilt binary in its npm package). Without it, both are installed here.
# Exits 77 (a skip for ctest, with the reason) when there is no Node.js 20 or later with npm,
# or when npm cannot reach its registry to install what is missing.
# Usage: run.sh NODE NPM WORKDIR NODE_MODULES EXTENSION SQLITE3 LAKE_PARENT LAKE_SCRIPT
#   LAKE_PARENT is the directory in which test.js writes lake/ (sql/lake_catalog.sql reads it
#   there), LAKE_SCRIPT that script, which test.js runs in the SQLITE3 shell.
set -u
node=$1 npm=$2 workdir=$3 client_modules=$4 extension=$5 sqlite3=$6 lake_parent=$7 script=$8
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../node.sh"

require_node "$node" "@duckdb/node-api, better-sqlite3@12 and this test" "$npm"

# What to install: package.json, less better-sqlite3 when client.node has built it.
mkdir -p "$workdir" || exit 1
if [ -f "$client_modules/better-sqlite3/build/Release/better_sqlite3.node" ]; then
    node_path="$workdir/node_modules:$client_modules"
    "$node" -e '
        const manifest = require(process.argv[1]);
        delete manifest.dependencies["better-sqlite3"];
        process.stdout.write(JSON.stringify(manifest, null, 2) + "\n");' \
        "$here/package.json" > "$workdir/package.wanted.json" || exit 1
    echo "better-sqlite3 $("$node" -p "require('$client_modules/better-sqlite3/package.json').version"), from client.node's install"
else
    node_path="$workdir/node_modules"
    cp "$here/package.json" "$workdir/package.wanted.json" || exit 1
fi
npm_install "$node" "$npm" "$workdir" "$workdir/package.wanted.json" \
    @duckdb/node-api/package.json "DuckDB's client"

BLOOM_EXTENSION=$extension BLOOM_PARQUET_WORKDIR=$workdir BLOOM_SQLITE3=$sqlite3 \
BLOOM_LAKE_PARENT=$lake_parent BLOOM_LAKE_SCRIPT=$script NODE_PATH=$node_path \
    exec "$node" --test "$here/test.js"
