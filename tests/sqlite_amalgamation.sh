# Shell functions for the tests that build SQLite from its amalgamation (client.sqlite_*,
# platform.windows_x64), sourced by their run scripts: the amalgamation found or fetched, and
# compiled once per amalgamation, compiler and flags, between build directories.

# amalgamation_from SOURCE WORKDIR NPM: sets amalgamation to a directory holding sqlite3.c and
# sqlite3.h. SOURCE is dir:DIR (one already there: the better-sqlite3 that client.node installed)
# or npm:PACKAGE (a better-sqlite3 fetched into WORKDIR by npm pack, once). Exits 77 (a skip for
# ctest, with the reason) when it cannot be had.
amalgamation_from() {
    case $1 in
    dir:*)
        amalgamation=${1#dir:}
        [ -f "$amalgamation/sqlite3.c" ] ||
            { echo "SKIP: no SQLite amalgamation in $amalgamation (client.node installs it)"; exit 77; }
        ;;
    npm:*)
        amalgamation=$2/amalgamation
        [ -f "$amalgamation/sqlite3.c" ] && return 0
        package=${1#npm:}
        command -v "$3" > /dev/null || { echo "SKIP: npm not found, to fetch $package"; exit 77; }
        rm -rf "$2/pack" && mkdir -p "$2/pack" "$amalgamation" || exit 1
        (cd "$2/pack" && "$3" pack --silent "$package" > /dev/null 2>&1) ||
            { echo "SKIP: npm cannot fetch $package"; exit 77; }
        tar xzf "$2"/pack/*.tgz -C "$2/pack" || exit 1
        # Older packages keep the amalgamation as deps/sqlite3.tar.gz, newer ones as files.
        if [ -f "$2/pack/package/deps/sqlite3.tar.gz" ]; then
            tar xzf "$2/pack/package/deps/sqlite3.tar.gz" -C "$amalgamation" || exit 1
        else
            cp "$2"/pack/package/deps/sqlite3/sqlite3.[ch] "$amalgamation" || exit 1
        fi
        ;;
    *)
        echo "SOURCE must be dir:DIR or npm:PACKAGE, got $1"
        exit 2
        ;;
    esac
}

# compile_amalgamation CC FLAGS OBJECT: compiles $amalgamation/sqlite3.c with CC and FLAGS (a
# word each) into OBJECT, or copies it from the cache: $BLOOM_SQLITE_CACHE (set and empty:
# nowhere), else $XDG_CACHE_HOME/sqlite-bloom/sqlite, else ~/.cache/sqlite-bloom/sqlite, where
# objects are named by the SHA-256 of the amalgamation, the compiler's version and the flags, and
# written aside and renamed.
compile_amalgamation() {
    if [ "${BLOOM_SQLITE_CACHE+set}" = set ]; then
        cache=$BLOOM_SQLITE_CACHE
    elif [ -n "${XDG_CACHE_HOME:-}" ]; then
        cache=$XDG_CACHE_HOME/sqlite-bloom/sqlite
    else
        cache=${HOME:+$HOME/.cache/sqlite-bloom/sqlite}
    fi
    key=
    if [ -n "$cache" ] && mkdir -p "$cache" 2> /dev/null && [ -w "$cache" ] &&
        command -v sha256sum > /dev/null; then
        key=$({ cat "$amalgamation/sqlite3.c"; "$1" --version | head -n 1; echo "$2"; } |
            sha256sum | cut -c 1-16)
    fi
    if [ -n "$key" ] && [ -f "$cache/$key.o" ]; then
        echo "$amalgamation/sqlite3.c compiled already: $cache/$key.o"
        cp "$cache/$key.o" "$3" || exit 1
    else
        echo "compiling $amalgamation/sqlite3.c with $1"
        # shellcheck disable=SC2086 # the flags, a word each
        "$1" $2 -c "$amalgamation/sqlite3.c" -o "$3" || exit 1
        if [ -n "$key" ] && ! { cp "$3" "$cache/.$key.$$" && mv -f "$cache/.$key.$$" "$cache/$key.o"; }; then
            rm -f "$cache/.$key.$$"
        fi
    fi
}

# SQLite's defaults, with what the tests use (FTS5, JSON before 3.38 made it a default, the math
# functions, as Debian's and better-sqlite3's builds have them) and what a planner may call a
# function from (STAT4).
amalgamation_flags="-O1 -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_JSON1 -DSQLITE_ENABLE_MATH_FUNCTIONS \
-DSQLITE_ENABLE_STAT4 -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_THREADSAFE=1"
