#!/bin/sh
# Builds the npm package sqlite-bloom with npm pack: index.js, index.d.ts and README.md from
# here, package.json from package.json.in (version, os and cpu filled in), bloom.so (stripped)
# and LICENSE. npm pack needs no registry.
# Usage: build_npm.sh NPM SOURCE_DIR BLOOM_SO VERSION NODE_OS NODE_CPU LICENSE OUT_DIR [STRIP]
set -eu
npm=$1 source=$2 module=$3 version=$4 os=$5 cpu=$6 license=$7 out=$8 strip=${9:-}
staging=$out/npm-staging
rm -rf "$staging"
mkdir -p "$staging" "$out"
cp "$source/index.js" "$source/index.d.ts" "$source/README.md" "$staging/"
sed -e "s/@VERSION@/$version/" -e "s/@OS@/$os/" -e "s/@CPU@/$cpu/" "$source/package.json.in" \
    > "$staging/package.json"
cp "$license" "$staging/LICENSE"
cp "$module" "$staging/bloom.so"
if [ -n "$strip" ]; then
    "$strip" --strip-unneeded --remove-section=.comment "$staging/bloom.so"
fi
rm -f "$out/sqlite-bloom-$version.tgz"
(cd "$staging" && "$npm" pack --silent --pack-destination "$out" > /dev/null)
rm -rf "$staging"
ls "$out/sqlite-bloom-$version.tgz"
