#!/bin/sh
# The extension's SQL tests on another version of SQLite than the system's: the amalgamation
# inside an npm package of better-sqlite3. SOURCE is dir:DIR, the amalgamation of the
# better-sqlite3 that client.node installed (the newest SQLite the project can reach), or
# npm:better-sqlite3@VERSION, a package fetched here with npm pack (an old one holds the oldest
# SQLite the extension supports, rule 16 (loading)). Compiles tests/sqltest.c and
# tests/test_in_place.c against it (once; again when they, the amalgamation or this script
# change; the amalgamation's object kept between build directories: tests/sqlite_amalgamation.sh),
# then runs test_in_place and every SQL script given, with the extension as built
# (against the system's headers). Exits 77 (a skip for ctest, with the reason) when the
# amalgamation cannot be had: client.node has not installed better-sqlite3, or npm cannot
# fetch the package.
# Usage: run.sh CC NPM SOURCE WORKDIR TESTS_DIR EXTENSION SCRIPT...
set -u
cc=$1 npm=$2 source=$3 workdir=$4 tests=$5 extension=$6
shift 6
mkdir -p "$workdir" || exit 1

. "$tests/sqlite_amalgamation.sh"
amalgamation_from "$source" "$workdir" "$npm"
stale() { # whether $1 is missing or older than $2, the amalgamation or this script
    [ ! -f "$1" ] || [ "$2" -nt "$1" ] || [ "$amalgamation/sqlite3.c" -nt "$1" ] || [ "$0" -nt "$1" ]
}
if stale "$workdir/sqlite3.o" "$amalgamation/sqlite3.h"; then
    compile_amalgamation "$cc" "$amalgamation_flags" "$workdir/sqlite3.o"
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
