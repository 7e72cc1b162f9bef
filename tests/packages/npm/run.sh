#!/bin/sh
# Installs the packed npm tarball as a user would, npm install of the file into a scratch
# project, next to better-sqlite3@12: the one client.node built when there is one (linked, as
# compiling it takes minutes), else installed here from the registry. Runs test.js there with
# node's test runner (with the README's examples of the package; its node:sqlite part where
# node has loadExtension), then compiles types.ts (and types.mts, an ES module) against the
# package's index.d.ts and filter.d.cts and filter.d.mts with TypeScript's tsc --strict (typescript@5, installed once into TYPESCRIPT_DIR; left out, saying
# so, when npm cannot reach its registry).
# test.js also checks that the tarball holds the files INSTALL_DOC (docs/install.md) lists for it.
# Exits 77 (a skip, saying why) without Node.js 20 or later and npm, or when neither
# better-sqlite3 can be had nor node:sqlite can load extensions.
# Usage: run.sh NODE NPM TARBALL VERSION SCRATCH_DIR CLIENT_NODE_MODULES TEST_JS TYPES_TS
#               TYPESCRIPT_DIR README INSTALL_DOC
set -eu
node=$1 npm=$2 tarball=$3 version=$4 scratch=$5 client_modules=$6 test_file=$7 types_file=$8
typescript=$9 readme=${10} install_doc=${11}
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

. "$(dirname "$0")/../../node.sh"
require_node "$node" "the package and better-sqlite3@12" "$npm"
[ -f "$tarball" ] || { echo "no npm tarball at $tarball"; exit 1; }

rm -rf "$scratch"
mkdir -p "$scratch"
printf '{ "name": "sqlite-bloom-package-test", "private": true }\n' > "$scratch/package.json"
(cd "$scratch" && "$npm" install --loglevel=error "$tarball")

if [ -f "$client_modules/better-sqlite3/build/Release/better_sqlite3.node" ]; then
    ln -s "$client_modules/better-sqlite3" "$scratch/node_modules/better-sqlite3"
    echo "better-sqlite3 $("$node" -p "require('$client_modules/better-sqlite3/package.json').version"), from client.node's install"
elif npm_reachable "$npm"; then
    echo "npm install better-sqlite3@12 (compiles its SQLite: minutes)"
    (cd "$scratch" && "$npm" install --loglevel=error better-sqlite3@12)
else
    echo "better-sqlite3 cannot be installed: npm cannot reach its registry ($("$npm" config get registry))"
fi
node_sqlite_loads=$("$node" -e "try { process.stdout.write(String(typeof require('node:sqlite').DatabaseSync.prototype.loadExtension === 'function')) } catch { process.stdout.write('false') }")
if [ ! -e "$scratch/node_modules/better-sqlite3" ] && [ "$node_sqlite_loads" != true ]; then
    echo "SKIP: no database to load into: better-sqlite3 cannot be installed, and node $node_version has no node:sqlite loadExtension (22.13.0 or later in 22.x, 23.5.0 or later)"
    exit 77
fi

cp "$test_file" "$scratch/test.js"
(cd "$scratch" && BLOOM_EXPECTED_VERSION=$version BLOOM_README=$readme BLOOM_TARBALL=$tarball \
    BLOOM_INSTALL_DOC=$install_doc "$node" --test test.js)

tsc=$typescript/node_modules/typescript/bin/tsc
if [ ! -f "$tsc" ]; then
    if npm_reachable "$npm"; then
        mkdir -p "$typescript"
        printf '{ "name": "sqlite-bloom-typescript", "private": true }\n' > "$typescript/package.json"
        (cd "$typescript" && "$npm" install --loglevel=error typescript@5)
    else
        echo "types.ts not compiled: npm cannot reach its registry for typescript"
        exit 0
    fi
fi
cp "$types_file" "$scratch/types.ts"
cp "$(dirname "$types_file")/types.mts" "$scratch/types.mts"
(cd "$scratch" && "$node" "$tsc" --strict --noEmit --noUnusedLocals false --module node16 \
    --moduleResolution node16 --target es2022 types.ts types.mts)
echo "types.ts and types.mts compiled with tsc $("$node" "$tsc" --version | cut -d' ' -f2) --strict against index.d.ts and filter.d.cts, filter.d.mts"
