#!/bin/sh
# Builds the npm package sqlite-bloom with npm pack: index.js (the table of its binaries filled
# in), index.d.ts and README.md from here, package.json from package.json.in (version filled
# in), LICENSE, each BINARY (stripped) as prebuilds/PLATFORM/FILE, and from FILTER_DIR
# (build/wasm/, made by wasm.cmake) sqlite-bloom/filter, filter.cjs, filter.mjs, filter.d.cts and
# filter.d.mts, and the page check-names.html. docs/install.md lists these files, and package.npm
# checks that the tarball holds them and no other. npm pack needs no registry.
# Usage: build_npm.sh NPM SOURCE_DIR VERSION LICENSE OUT_DIR FILTER_DIR BINARY...
#   BINARY  PLATFORM:PATH:STRIP, PLATFORM as Node.js names it (process.platform-process.arch:
#           linux-x64, linux-arm64, win32-x64), PATH its bloom.so or bloom.dll, STRIP its strip
set -eu
npm=$1 source=$2 version=$3 license=$4 out=$5 filter=$6
shift 6
staging=$out/npm-staging
rm -rf "$staging"
mkdir -p "$staging" "$out"
cp "$source/index.d.ts" "$source/README.md" "$staging/"
table=
for binary in "$@"; do
    platform=${binary%%:*} rest=${binary#*:}
    module=${rest%%:*} strip=${rest#*:}
    file=prebuilds/$platform/$(basename "$module")
    mkdir -p "$staging/prebuilds/$platform"
    cp "$module" "$staging/$file"
    "$strip" --strip-unneeded --remove-section=.comment "$staging/$file"
    table="$table  '$platform': '$file',\\n"
done
sed -e "s#^  // @BINARIES@\$#$table#" "$source/index.js" > "$staging/index.js"
sed -e "s/@VERSION@/$version/" "$source/package.json.in" > "$staging/package.json"
cp "$filter/filter.cjs" "$filter/filter.mjs" "$filter/filter.d.cts" "$filter/filter.d.mts" \
   "$filter/check-names.html" "$staging/"
cp "$license" "$staging/LICENSE"
rm -f "$out/sqlite-bloom-$version.tgz"
(cd "$staging" && "$npm" pack --silent --pack-destination "$out" > /dev/null)
rm -rf "$staging"
ls "$out/sqlite-bloom-$version.tgz"
