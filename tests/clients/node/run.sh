#!/bin/sh
# Installs better-sqlite3 (package.json here) into WORKDIR, outside the source
# tree, then runs test.js with node's test runner against the extension.
# Exits 77 (a skip for ctest, with the reason) when there is no Node.js 20 or later with npm,
# or when npm cannot reach its registry: better-sqlite3 cannot be installed then.
# Usage: run.sh NODE NPM WORKDIR EXTENSION
set -u
node=$1 npm=$2 workdir=$3 extension=$4
here=$(cd "$(dirname "$0")" && pwd)

for tool in "$node" "$npm"; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not found: install Node.js 20 or later, with npm"; exit 77; }
done
version=$("$node" -p 'process.versions.node') || exit 1
if [ "${version%%.*}" -lt 20 ]; then
    echo "SKIP: node $version is too old: better-sqlite3@12 and this test need node 20 or later"
    exit 77
fi

mkdir -p "$workdir" || exit 1
if cmp -s "$here/package.json" "$workdir/package.json" &&
   [ -f "$workdir/node_modules/better-sqlite3/package.json" ]; then
    echo "better-sqlite3 already installed in $workdir"
else
    registry=$("$npm" config get registry)
    if ! "$npm" ping --fetch-retries=0 --fetch-timeout=20000 >/dev/null 2>&1; then
        echo "SKIP: npm cannot reach its registry ($registry), so better-sqlite3 cannot be installed"
        exit 77
    fi
    rm -f "$workdir/package.json"
    cp "$here/package.json" "$workdir/package.json" || exit 1
    echo "npm install in $workdir (from $registry)"
    start=$(date +%s)
    (cd "$workdir" && "$npm" install --no-audit --no-fund --loglevel=error) || {
        rm -f "$workdir/package.json"  # install again next time
        echo "npm install failed"
        exit 1
    }
    echo "npm install took $(( $(date +%s) - start )) s"
fi

BLOOM_EXTENSION=$extension NODE_PATH="$workdir/node_modules" \
    exec "$node" --test "$here/test.js"
