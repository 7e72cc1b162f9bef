# The three charts of docs/performance.md, drawn from the data files that
# `bloom_bench --charts DATA` writes as it prints tables 1, 11a and 13 (see the comment at the
# top of each file). Run by charts.sh: gnuplot -e "data='DATA'; out='OUT'" charts.gp

set terminal svg size 760,500 font 'sans,13' noenhanced background '#ffffff'
set encoding utf8
set grid back lc rgb '#dddddd' lw 1
set border 3 lc rgb '#444444'
set tics nomirror out
# Okabe and Ito's colours, which read apart for most colour-blind readers.
array colour[7] = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#777777']
do for [i = 1:7] {
    set linetype i lc rgb colour[i] lw 2 pt (i + 3) ps 0.8
}

# (a) Bits per key against the measured rate, each kind a line, and the lower bound.
file = data.'/bits_per_key.dat'
stats file using 4 nooutput
kinds = STATS_blocks
rate_low = STATS_min / 3
rate_high = STATS_max * 2
set output out.'/bits_per_key.svg'
set title 'Bits per key against the false-positive rate (table 13)'
set xlabel 'false-positive rate measured on absent keys (log scale; fewer to the right)'
set ylabel 'bits per key: filter bytes × 8 / keys (log scale)'
set logscale xy 2
set logscale x 10
set xrange [rate_high:rate_low]
set yrange [2.5:100]
# A tic's label is a format: %% is a per cent sign.
set xtics ('30 %%' 0.3, '10 %%' 0.1, '1 %%' 0.01, '0.1 %%' 0.001, '0.01 %%' 0.0001, \
           '0.001 %%' 1e-5, '0.0001 %%' 1e-6)
set ytics (3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96)
set key outside right top reverse Left box lc rgb '#bbbbbb' opaque samplen 2
bound(x) = log(1 / x) / log(2)
plot bound(x) with lines lc rgb '#000000' dt 2 lw 2 title 'lower bound: log₂(1/p)', \
     for [i = 0:kinds - 1] file index i using 4:3 with linespoints lt (i + 1) \
         title columnheader(1)
unset logscale
set xtics auto
set ytics auto
set tics nomirror out
set autoscale

# (b) What a committed insert costs as the filter grows, blocked filters (table 11a).
file = data.'/insert_cost.dat'
set output out.'/insert_cost.svg'
set title "A committed insert as the filter grows: blocked filters at p = 1 % (table 11a)"
set xlabel 'filter capacity, keys (log scale); the filter'."'".'s bytes below' offset 0,-1
set ylabel 'µs per insert, one a transaction (log scale)'
stats file using 2 nooutput
set logscale xy
set format y '%.0f'
set xrange [STATS_min / 2:STATS_max * 2]
set yrange [5:1e6]
set key inside top left reverse Left box lc rgb '#bbbbbb' opaque samplen 2 font ',11'
size(bytes) = bytes < 1e6 ? sprintf('%.0f KB', bytes / 1e3) : sprintf('%.3g MB', bytes / 1e6)
keys(n) = n < 1e6 ? sprintf('%.0fk', n / 1e3) : sprintf('%.0fM', n / 1e6)
# The blocked rows: capacity, bytes, then plain, live table, in place and a trigger into an
# ordinary table, in µs.
set table $blocked
plot file using 2:3:4:5:6:7 with table if (strcol(1) eq 'blocked')
unset table
plot $blocked using 1:5:xtic(keys($1)."\n".size($2)) with linespoints lt 2 pt 7 \
         title 'in place: trigger runs bloom_add_in_place on the BLOB', \
     '' using 1:5:(sprintf('%.0f', $5)) with labels offset 0,0.9 font ',11' tc rgb colour[2] \
         notitle, \
     '' using 1:4 with linespoints lt 1 pt 5 \
         title 'live table: trigger inserts into a bloom virtual table', \
     '' using 1:4:(sprintf('%.0f', $4)) with labels offset 2.2,0.7 font ',11' tc rgb colour[1] \
         notitle, \
     '' using 1:6 with linespoints lt 4 pt 11 \
         title 'trigger inserts the name into an ordinary table', \
     '' using 1:3 with linespoints lt 3 pt 9 title 'plain insert, no filter', \
     '' using 1:3:(sprintf('%.0f', $3)) with labels offset 0,-0.9 font ',11' tc rgb colour[3] \
         notitle
unset logscale
unset format
set autoscale

# (c) Probe cost per kind against the two floors, one panel a filter size (table 1).
file = data.'/probe_cost.dat'
stats file using 7 nooutput
sizes = STATS_blocks
set terminal svg size 1100,480 font 'sans,13' noenhanced background '#ffffff'
set output out.'/probe_cost.svg'
set multiplot layout 1, sizes title 'A probe per kind against the floors (table 1): ' . \
    'SELECT sum(f(?1, x)) over 1M rows, p = 1 %'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.9 noborder
set boxwidth 0.9
set xtics rotate by 45 right nomirror
set xlabel ''
set grid noxtics ytics
unset title
do for [s = 0:sizes - 1] {
    set autoscale
    stats file index s using 4 nooutput
    noop = STATS_min
    stats file index s using 2 nooutput
    filter_keys = STATS_max
    stats file index s using 5 nooutput
    top = STATS_max
    stats file index s using 7 nooutput
    top = STATS_max > top ? STATS_max : top
    set title keys(filter_keys) . ' keys in the filter'
    set yrange [0:top * 1.6]
    set ylabel (s == 0 ? 'ns per row (medians, in turns)' : '')
    if (s == 0) {
        set key inside top left Left reverse box lc rgb '#bbbbbb' opaque samplen 2
    } else {
        unset key
    }
    set arrow 1 from graph 0, first noop to graph 1, first noop nohead front lc rgb '#000000' \
        dt 2 lw 2
    plot file index s using 5:xtic(1) lc rgb '#bbbbbb' \
             title 'hash-and-touch floor', \
         '' index s using 7 lc rgb colour[1] title 'bloom_might_contain', \
         NaN with lines lc rgb '#000000' dt 2 lw 2 title 'no-op floor'
    unset arrow 1
}
unset multiplot
