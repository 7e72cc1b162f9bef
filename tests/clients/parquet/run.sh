#!/bin/sh
# Installs DuckDB's Node client, @duckdb/node-api (pinned in package.json here: the Parquet
# files it writes, and so the expected output of usecase.lake_catalog, are those of that
# version), into WORKDIR, outside the source tree, then runs test.js with node's test runner.
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

for tool in "$node" "$npm"; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not found: install Node.js 20 or later, with npm"; exit 77; }
done
version=$("$node" -p 'process.versions.node') || exit 1
if [ "${version%%.*}" -lt 20 ]; then
    echo "SKIP: node $version is too old: @duckdb/node-api, better-sqlite3@12 and this test need node 20 or later"
    exit 77
fi

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
if cmp -s "$workdir/package.wanted.json" "$workdir/package.json" &&
   [ -f "$workdir/node_modules/@duckdb/node-api/package.json" ]; then
    echo "DuckDB's client already installed in $workdir"
else
    registry=$("$npm" config get registry)
    if ! "$npm" ping --fetch-retries=0 --fetch-timeout=20000 >/dev/null 2>&1; then
        echo "SKIP: npm cannot reach its registry ($registry), so DuckDB's client cannot be installed"
        exit 77
    fi
    rm -f "$workdir/package.json"
    cp "$workdir/package.wanted.json" "$workdir/package.json" || exit 1
    echo "npm install in $workdir (from $registry)"
    start=$(date +%s)
    (cd "$workdir" && "$npm" install --no-audit --no-fund --loglevel=error) || {
        rm -f "$workdir/package.json"  # install again next time
        echo "npm install failed"
        exit 1
    }
    echo "npm install took $(( $(date +%s) - start )) s"
fi

BLOOM_EXTENSION=$extension BLOOM_PARQUET_WORKDIR=$workdir BLOOM_SQLITE3=$sqlite3 \
BLOOM_LAKE_PARENT=$lake_parent BLOOM_LAKE_SCRIPT=$script NODE_PATH=$node_path \
    exec "$node" --test "$here/test.js"
