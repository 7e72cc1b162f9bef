#!/bin/sh
# The extension's SQL tests on another version of SQLite than the system's: the amalgamation
# inside an npm package of better-sqlite3. SOURCE is dir:DIR, the amalgamation of the
# better-sqlite3 that client.node installed (the newest SQLite the project can reach), or
# npm:better-sqlite3@VERSION, a package fetched here with npm pack (an old one holds the oldest
# SQLite the extension supports, rule 16 (loading)). Compiles tests/sqltest.c and
# tests/test_in_place.c against it (once; again when they, the amalgamation or this script
# change; the amalgamation's object kept between build directories, below), then runs test_in_place and every SQL script given, with the extension as built
# (against the system's headers). Exits 77 (a skip for ctest, with the reason) when the
# amalgamation cannot be had: client.node has not installed better-sqlite3, or npm cannot
# fetch the package.
# Usage: run.sh CC NPM SOURCE WORKDIR TESTS_DIR EXTENSION SCRIPT...
set -u
cc=$1 npm=$2 source=$3 workdir=$4 tests=$5 extension=$6
shift 6
mkdir -p "$workdir" || exit 1

case $source in
dir:*)
    amalgamation=${source#dir:}
    [ -f "$amalgamation/sqlite3.c" ] ||
        { echo "SKIP: no SQLite amalgamation in $amalgamation (client.node installs it)"; exit 77; }
    ;;
npm:*)
    amalgamation=$workdir/amalgamation
    if [ ! -f "$amalgamation/sqlite3.c" ]; then
        package=${source#npm:}
        command -v "$npm" >/dev/null || { echo "SKIP: npm not found, to fetch $package"; exit 77; }
        rm -rf "$workdir/pack" && mkdir -p "$workdir/pack" "$amalgamation" || exit 1
        (cd "$workdir/pack" && "$npm" pack --silent "$package" >/dev/null 2>&1) ||
            { echo "SKIP: npm cannot fetch $package"; exit 77; }
        tar xzf "$workdir"/pack/*.tgz -C "$workdir/pack" || exit 1
        # Older packages keep the amalgamation as deps/sqlite3.tar.gz, newer ones as files.
        if [ -f "$workdir/pack/package/deps/sqlite3.tar.gz" ]; then
            tar xzf "$workdir/pack/package/deps/sqlite3.tar.gz" -C "$amalgamation" || exit 1
        else
            cp "$workdir"/pack/package/deps/sqlite3/sqlite3.[ch] "$amalgamation" || exit 1
        fi
    fi
    ;;
*)
    echo "run.sh: SOURCE must be dir:DIR or npm:PACKAGE, got $source"
    exit 2
    ;;
esac

stale() { # whether $1 is missing or older than $2, the amalgamation or this script
    [ ! -f "$1" ] || [ "$2" -nt "$1" ] || [ "$amalgamation/sqlite3.c" -nt "$1" ] || [ "$0" -nt "$1" ]
}
# SQLite's defaults, with what the tests use (FTS5, JSON before 3.38 made it a default, the math
# functions, as Debian's and better-sqlite3's builds have them) and what a planner may call a
# function from (STAT4).
flags="-O1 -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_JSON1 -DSQLITE_ENABLE_MATH_FUNCTIONS \
-DSQLITE_ENABLE_STAT4 -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_THREADSAFE=1"
# The compiled amalgamation is kept between build directories, as npm's installs are
# (tests/node.sh): in $BLOOM_SQLITE_CACHE (set and empty: nowhere), else
# $XDG_CACHE_HOME/sqlite-bloom/sqlite, else ~/.cache/sqlite-bloom/sqlite, named by the SHA-256 of
# the amalgamation, the compiler's version and the flags; written aside and renamed.
if [ "${BLOOM_SQLITE_CACHE+set}" = set ]; then
    cache=$BLOOM_SQLITE_CACHE
elif [ -n "${XDG_CACHE_HOME:-}" ]; then
    cache=$XDG_CACHE_HOME/sqlite-bloom/sqlite
else
    cache=${HOME:+$HOME/.cache/sqlite-bloom/sqlite}
fi
if stale "$workdir/sqlite3.o" "$amalgamation/sqlite3.h"; then
    key=
    if [ -n "$cache" ] && mkdir -p "$cache" 2> /dev/null && [ -w "$cache" ] &&
        command -v sha256sum > /dev/null; then
        key=$({ cat "$amalgamation/sqlite3.c"; "$cc" --version | head -n 1; echo "$flags"; } |
            sha256sum | cut -c 1-16)
    fi
    if [ -n "$key" ] && [ -f "$cache/$key.o" ]; then
        echo "$amalgamation/sqlite3.c compiled already: $cache/$key.o"
        cp "$cache/$key.o" "$workdir/sqlite3.o" || exit 1
    else
        echo "compiling $amalgamation/sqlite3.c"
        # shellcheck disable=SC2086 # the flags, a word each
        "$cc" $flags -c "$amalgamation/sqlite3.c" -o "$workdir/sqlite3.o" || exit 1
        if [ -n "$key" ] && ! { cp "$workdir/sqlite3.o" "$cache/.$key.$$" &&
            mv -f "$cache/.$key.$$" "$cache/$key.o"; }; then
            rm -f "$cache/.$key.$$"
        fi
    fi
fi
for program in sqltest test_in_place test_live test_live_hostile; do
    if stale "$workdir/$program" "$tests/$program.c" || [ "$workdir/sqlite3.o" -nt "$workdir/$program" ]; then
        "$cc" -O1 -I"$amalgamation" -I"$tests" "$tests/$program.c" "$workdir/sqlite3.o" \
            -o "$workdir/$program" -ldl -lpthread -lm || exit 1
    fi
done
version=$(sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"$/\1/p' "$amalgamation/sqlite3.h")
echo "SQLite $version"
failed=0
"$workdir/test_in_place" "$extension" "$workdir/in_place" || failed=1
"$workdir/test_live" "$extension" "$workdir/live" || failed=1
"$workdir/test_live_hostile" "$extension" "$workdir/live_hostile" || failed=1
for script in "$@"; do
    "$workdir/sqltest" "$extension" "$script" "$workdir/test.db" || failed=1
done
exit $failed
