#!/bin/sh
# Builds the npm package sqlite-bloom with npm pack: index.js (the platform of bloom.so filled
# in), index.d.ts and README.md from here, package.json from package.json.in (version filled
# in), bloom.so (stripped), LICENSE, and from FILTER_DIR (build/wasm/, made by wasm.cmake)
# sqlite-bloom/filter, filter.cjs, filter.mjs, filter.d.cts and filter.d.mts, and the page
# check-names.html. docs/install.md lists these files, and package.npm checks that the tarball
# holds them and no other. npm pack needs no registry.
# Usage: build_npm.sh NPM SOURCE_DIR BLOOM_SO VERSION NODE_OS NODE_CPU LICENSE OUT_DIR FILTER_DIR
#                     [STRIP]
set -eu
npm=$1 source=$2 module=$3 version=$4 os=$5 cpu=$6 license=$7 out=$8 filter=$9 strip=${10:-}
staging=$out/npm-staging
rm -rf "$staging"
mkdir -p "$staging" "$out"
cp "$source/index.d.ts" "$source/README.md" "$staging/"
sed -e "s/@OS@/$os/" -e "s/@CPU@/$cpu/" "$source/index.js" > "$staging/index.js"
sed -e "s/@VERSION@/$version/" "$source/package.json.in" > "$staging/package.json"
cp "$filter/filter.cjs" "$filter/filter.mjs" "$filter/filter.d.cts" "$filter/filter.d.mts" \
   "$filter/check-names.html" "$staging/"
cp "$license" "$staging/LICENSE"
cp "$module" "$staging/bloom.so"
if [ -n "$strip" ]; then
    "$strip" --strip-unneeded --remove-section=.comment "$staging/bloom.so"
fi
rm -f "$out/sqlite-bloom-$version.tgz"
(cd "$staging" && "$npm" pack --silent --pack-destination "$out" > /dev/null)
rm -rf "$staging"
ls "$out/sqlite-bloom-$version.tgz"
