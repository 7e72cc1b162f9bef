#!/bin/sh
# Instructions per row of a probe query over 100,000 rows, counted by callgrind: the floor
# (noop) and bloom_might_contain for filters of 10k, 1M and 100M keys in both layouts of a Bloom
# filter and the binary fuse kind.
# Usage: instructions.sh BLOOM_INSTRUCTIONS EXTENSION
set -eu
driver=$1 extension=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
count() { # KEYS LAYOUT FUNCTION: instructions per row
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out" \
        "$driver" "$extension" "$1" "$2" "$3" 2>&1 |
        awk '/Collected :/ { printf "%.0f", $NF / 100000 }'
}
floor=$(count 10000 standard noop)
echo "### Instructions per row (callgrind)"
echo
echo "\`SELECT sum(f(?1, x)) FROM keys\` over 100,000 rows, the filter bound: the no-op function costs $floor instructions a row."
echo
echo "| keys in the filter | layout | instructions/row | ratio to noop |"
echo "|---|---|---|---|"
for keys in 10000 1000000 100000000; do
    for layout in standard blocked fuse; do
        probe=$(count "$keys" "$layout" bloom_might_contain)
        echo "| $keys | $layout | $probe | $(echo "scale=2; $probe / $floor" | bc) |"
    done
done
