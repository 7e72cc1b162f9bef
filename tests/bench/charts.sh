#!/bin/sh
# Draws the charts of docs/performance.md, OUT/bits_per_key.svg, OUT/insert_cost.svg and
# OUT/probe_cost.svg, from the data files `bloom_bench --charts DATA` wrote (tables 13, 11a and
# 1), by gnuplot and charts.gp. First checks that each data file has rows. Without gnuplot it
# says so and exits 0: a chart is a picture of the figures, not a test of them. A warning of
# gnuplot (a file without valid points, say) fails it.
# Usage: charts.sh DATA OUT
set -eu
data=$1 out=$2
for name in bits_per_key insert_cost probe_cost; do
    if ! grep -q '^[a-z]* [0-9]' "$data/$name.dat"; then
        echo "charts.sh: $data/$name.dat has no rows" >&2
        exit 1
    fi
done
if ! command -v gnuplot > /dev/null; then
    echo "charts.sh: gnuplot not found (Debian: apt-get install gnuplot-nox); no chart drawn"
    exit 0
fi
mkdir -p "$out"
errors=$out/gnuplot.err
if ! gnuplot -e "data='$data'; out='$out'" "$(dirname "$0")/charts.gp" 2> "$errors" ||
    [ -s "$errors" ]; then
    cat "$errors" >&2
    exit 1
fi
rm -f "$errors"
for name in bits_per_key insert_cost probe_cost; do
    test -s "$out/$name.svg"
    echo "charts.sh: $out/$name.svg ($(wc -c < "$out/$name.svg") bytes)"
done
