#!/bin/sh
# Runs a test of sqlite-bloom/filter in Node.js (SCRIPT: test_filter.js with node's test runner,
# bench.js as it is), with better-sqlite3 from CLIENT_MODULES (client.node's install) to ask the
# extension for its answers. Exits 77 (a skip, saying why) without Node.js 20 or later, or
# without better-sqlite3 there (client.node skipped: npm could not reach its registry).
# Usage: run_node.sh NODE WASM_DIR CLIENT_MODULES EXTENSION FIXTURE_V0_1_0 SCRIPT
set -u
node=$1 wasm_dir=$2 client_modules=$3 extension=$4 fixture=$5 script=$6

. "$(dirname "$0")/../node.sh"
require_node "$node" "sqlite-bloom/filter's tests"
if [ ! -f "$client_modules/better-sqlite3/build/Release/better_sqlite3.node" ]; then
    echo "SKIP: no better-sqlite3 in $client_modules (client.node installs it, when npm reaches its registry)"
    exit 77
fi
for file in bloom_filter.wasm filter.cjs filter.mjs; do
    [ -f "$wasm_dir/$file" ] || { echo "no $wasm_dir/$file: build the target bloom_wasm"; exit 1; }
done

export BLOOM_WASM_DIR="$wasm_dir" BLOOM_EXTENSION="$extension" BLOOM_FIXTURE_V0_1_0="$fixture"
export NODE_PATH="$client_modules"
case $(basename "$script") in
    test_*) exec "$node" --test "$script" ;;
    *) exec "$node" "$script" ;;
esac
