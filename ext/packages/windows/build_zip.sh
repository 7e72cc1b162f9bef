#!/bin/sh
# Builds the Windows zip of sqlite-bloom: a folder sqlite-bloom-VERSION-windows-x64 holding
# bloom.dll (stripped), README.md (the one here, with VERSION filled in) and LICENSE. Its members
# are stamped with SOURCE_DATE_EPOCH, else the last commit's time, else now.
# Usage: build_zip.sh BLOOM_DLL README LICENSE VERSION ZIP STRIP SOURCE_DIR
set -eu
dll=$1 readme=$2 license=$3 version=$4 zip=$5 strip=$6 source=$7
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$source" log -1 --format=%ct 2>/dev/null || date +%s)}
name=sqlite-bloom-$version-windows-x64
staging=$(dirname "$zip")/zip-staging
rm -rf "$staging" "$zip"
mkdir -p "$staging/$name"
cp "$dll" "$staging/$name/bloom.dll"
"$strip" --strip-unneeded --remove-section=.comment "$staging/$name/bloom.dll"
sed -e "s/@VERSION@/$version/g" "$readme" > "$staging/$name/README.md"
cp "$license" "$staging/$name/LICENSE"
mtime=$(date -u -d "@$epoch" "+%Y-%m-%d %H:%M:%S UTC")
(cd "$staging" && cmake -E tar cf "$zip" --format=zip --mtime="$mtime" "$name")
rm -rf "$staging"
ls "$zip"
