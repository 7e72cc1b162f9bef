#!/bin/sh
# Makes the files of sqlite-bloom/filter from the WebAssembly reader (bloom_filter.wasm) and
# filter_reader.js, each with the module's bytes in base64, so that each loads with no file and
# no fetch: filter.cjs (CommonJS), filter.mjs (an ES module), their types filter.d.cts and
# filter.d.mts (filter.d.ts), and check-names.html, the page of check-names.html here with the
# reader in its line "<!-- @FILTER_READER@ -->".
# Usage: build_filter_js.sh WASM SOURCE_DIR OUT_DIR
set -eu
wasm=$1 source=$2 out=$3
mkdir -p "$out"

# The reader, and the call that makes it from the module's bytes: "NAME = sqliteBloomFilterReader(...);".
reader() {
    cat "$source/filter_reader.js"
    printf '\n%s = sqliteBloomFilterReader(\n  "' "$1"
    base64 -w 0 "$wasm"
    printf '");\n'
}

{
    printf '// sqlite-bloom/filter, CommonJS: made by build_filter_js.sh from filter_reader.js.\n'
    printf "'use strict';\n"
    reader 'const reader'
    printf 'module.exports.openFilter = reader.openFilter;\n'
} > "$out/filter.cjs.tmp"
{
    printf '// sqlite-bloom/filter, an ES module: made by build_filter_js.sh from filter_reader.js.\n'
    reader 'const reader'
    printf 'export const openFilter = reader.openFilter;\n'
} > "$out/filter.mjs.tmp"
marker='<!-- @FILTER_READER@ -->'
grep -q "^$marker\$" "$source/check-names.html" || { echo "no line $marker in check-names.html"; exit 1; }
{
    sed "/^$marker\$/,\$d" "$source/check-names.html"
    printf '<script>\n'
    reader 'const sqliteBloomFilter'
    printf '</script>\n'
    sed "1,/^$marker\$/d" "$source/check-names.html"
} > "$out/check-names.html.tmp"
for name in filter.cjs filter.mjs check-names.html; do
    mv "$out/$name.tmp" "$out/$name"
done
cp "$source/filter.d.ts" "$out/filter.d.cts"
cp "$source/filter.d.ts" "$out/filter.d.mts"
