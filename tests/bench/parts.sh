#!/bin/sh
# Where a probe's instructions go, per part, counted by callgrind over 100,000 rows of
# `SELECT sum(f(?1, x)) FROM keys` with the filter bound (a filter of 1M keys holding every
# key probed, so that every probe tests all k positions).
# Usage: parts.sh BLOOM_INSTRUCTIONS EXTENSION
set -eu
driver=$1 extension=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rows=100000
# callgrind over the query; prints nothing, leaves its counts in $out.
profile() { # LAYOUT FUNCTION
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out" \
        "$driver" "$extension" 1000000 "$1" "$2" > /dev/null 2>&1
}
# The inclusive instructions a row of the functions whose name matches $1: callgrind names
# inlined code after the file it comes from as well, so each function counts once, with the
# largest of its entries.
inclusive() {
    callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null |
        awk -v pattern="$1" -v rows="$rows" '
            $1 ~ /^[0-9,]+$/ {
                for (i = 2; i <= NF; i++) {
                    if ($i ~ /:[A-Za-z_][A-Za-z_0-9]*$/) {
                        name = $i; sub(/.*:/, "", name); count = $1; gsub(",", "", count)
                        if (name ~ pattern && count + 0 > most[name] + 0) { most[name] = count }
                        break
                    }
                }
            }
            END { for (name in most) { total += most[name] }; printf "%.0f", total / rows }'
}
total() {
    callgrind_annotate "$out" 2>/dev/null | awk -v rows="$rows" '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%.0f", $1 / rows }'
}
profile standard noop
floor=$(total)
result=$(inclusive '^sqlite3_result_int$')
echo "### Where a probe's instructions go"
echo
echo "callgrind, 100,000 rows, a bound filter of 1M keys holding every key probed (k positions"
echo "tested each time); the no-op function costs $floor a row, of which $result for its result."
echo
echo "| part | standard | blocked |"
echo "|---|---|---|"
for layout in standard blocked; do
    profile "$layout" bloom_might_contain
    eval "all_$layout=$(total)"
    eval "hash_$layout=$(inclusive '^key_hash_')"
    eval "key_$layout=$(inclusive '^sql_read_key$')"
    eval "bits_$layout=$(inclusive '^might_contain$')"
    eval "function_$layout=$(inclusive '^might_contain_func$')"
done
row() { echo "| $1 | $2 | $3 |"; }
row "SQLite's call of a function (the floor, without its result)" "$((floor - result))" "$((floor - result))"
row "the filter argument: the kept view (auxdata), the BLOB's address, the call's own code" \
    "$((function_standard - key_standard - bits_standard - result))" \
    "$((function_blocked - key_blocked - bits_blocked - result))"
row "the key: its type and value from SQLite" "$((key_standard - hash_standard))" "$((key_blocked - hash_blocked))"
row "the key's hash (XXH3-128 of 8 bytes)" "$hash_standard" "$hash_blocked"
row "the positions and their bits (k = 7 standard, 6 blocked)" "$bits_standard" "$bits_blocked"
row "the result" "$result" "$result"
row "**total** (ratio to the floor)" "$all_standard ($(echo "scale=2; $all_standard / $floor" | bc))" \
    "$all_blocked ($(echo "scale=2; $all_blocked / $floor" | bc))"
profile standard twin
twin=$(total)
echo
echo "The design of the other SQLite Bloom extension (tests/bench/twin.h: k = 4, one 32-bit"
echo "hash, taken modulo m, no validation): $twin a row ($(echo "scale=2; $twin / $floor" | bc))."
