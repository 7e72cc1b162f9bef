#!/bin/sh
# Line and branch coverage of the extension's sources, from the gcov counters the test suite
# left in a BLOOM_COVERAGE build. Each source is compiled into several targets (the module,
# the core library, the static library): each is reported.
# Usage: coverage.sh BUILD_DIR EXT_DIR
set -eu
build=$1 ext=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
found=0
for data in $(find "$build" -path '*/ext/*.gcda' | sort); do
    found=1
    source="$ext/$(basename "$data" .gcda)"
    # The object's directory is CMakeFiles/<target>.dir/..., with __ for each ../ of the source.
    target=$(echo "$data" | sed 's|.*/CMakeFiles/\([^/]*\)\.dir/.*|\1|')
    echo "$(basename "$source") in $target:"
    gcov -b -n "$data" 2>/dev/null |
        awk -v f="$source" '$0 == "File '"'"'" f "'"'"'" { left = 4; next } left > 0 { print "  " $0; left-- }'
done
[ "$found" = 1 ] || { echo "no coverage data: run the tests of a BLOOM_COVERAGE build first"; exit 1; }
