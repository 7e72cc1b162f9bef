#!/bin/sh
# The SQL test suite on another platform, and filters exchanged with this machine both ways.
# PLATFORM is linux_arm64 (MODULE, bloom.so for aarch64, loaded by Debian's arm64 SQLite under
# qemu-aarch64) or windows_x64 (MODULE, bloom.dll, loaded under Wine by SQLite's amalgamation
# built with mingw-w64: the one in AMALGAMATION_DIR, else that of better-sqlite3@12.11.1 fetched
# by NPM; tests/sqlite_amalgamation.sh).
#   1. the module exports only sqlite3_bloom_init, and needs no more than its packages say: on
#      Linux libc and libm, no newer glibc than this machine's bloom.so (HOST_MODULE) needs; on
#      Windows, Windows' own KERNEL32.dll and msvcrt.dll;
#   2. tests/sqltest.c, built for the platform, runs every SCRIPT there, as sql.NAME does here;
#   3. write_filters.sql there, check_filters.sql here (HOST_SQLTEST, HOST_MODULE) on its file,
#      and the same the other way.
# Exits 77 (a skip, saying why) without the platform's tools, looked for when the test runs.
# Usage: run.sh PLATFORM MODULE SCRATCH TESTS_DIR HOST_SQLTEST HOST_MODULE AMALGAMATION_DIR NPM
#               SCRIPT...
set -u
platform=$1 module=$2 scratch=$3 tests=$4 host_sqltest=$5 host_module=$6 amalgamation_dir=$7 npm=$8
shift 8
needs() { # needs TOOL INSTALL: a skip saying how to install TOOL, when it is not on the PATH
    command -v "$1" > /dev/null || { echo "SKIP: $1 not found ($2)"; exit 77; }
}
mkdir -p "$scratch"
case $platform in
linux_arm64)
    sqlite=/usr/lib/aarch64-linux-gnu/libsqlite3.so.0
    needs aarch64-linux-gnu-gcc "apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
    needs qemu-aarch64 "apt-get install qemu-user"
    [ -f "$sqlite" ] || {
        echo "SKIP: no arm64 SQLite at $sqlite (dpkg --add-architecture arm64; apt-get update; apt-get install libsqlite3-0:arm64)"
        exit 77
    }
    sh "$tests/check_library.sh" "$module" || exit 1
    newest_glibc() { objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1; }
    arm64_glibc=$(newest_glibc "$module") host_glibc=$(newest_glibc "$host_module")
    echo "newest glibc symbol: $arm64_glibc (this machine's bloom.so: $host_glibc)"
    [ "$(printf '%s\n%s\n' "$arm64_glibc" "$host_glibc" | sort -V | tail -n 1)" = "$host_glibc" ] ||
        { echo "bloom.so for arm64 needs a newer glibc than this machine's"; exit 1; }
    # SQLite's headers are this machine's (Debian's arm64 SQLite is the same version), alone:
    # the host's /usr/include would shadow the arm64 C library's.
    mkdir -p "$scratch/include"
    cp /usr/include/sqlite3.h "$scratch/include/"
    aarch64-linux-gnu-gcc -std=c11 -O1 -Wall -Werror -I"$scratch/include" -I"$tests" \
        "$tests/sqltest.c" "$sqlite" -o "$scratch/sqltest" || exit 1
    run_there() { # run_there SCRIPT DATABASE, in the working directory
        qemu-aarch64 "$scratch/sqltest" "$module" "$1" "$2"
    }
    ;;
windows_x64)
    needs x86_64-w64-mingw32-gcc "apt-get install gcc-mingw-w64-x86-64"
    # Debian's wine64 puts its program in /usr/lib/wine, its wine64 on the PATH only with wine.
    PATH=$PATH:/usr/lib/wine
    needs wine64 "apt-get install --no-install-recommends wine64"
    needs wineserver "apt-get install --no-install-recommends wine64"
    imports=$(x86_64-w64-mingw32-objdump -p "$module" | awk '/DLL Name:/ { print $3 }' | sort -u | tr '\n' ' ')
    exports=$(x86_64-w64-mingw32-objdump -p "$module" |
        awk '/\[Ordinal\/Name Pointer\] Table/ { table = 1; next } table && NF == 0 { table = 0 } table { print $NF }')
    echo "bloom.dll exports: $exports; imports from: $imports"
    [ "$exports" = sqlite3_bloom_init ] || { echo "bloom.dll must export only sqlite3_bloom_init"; exit 1; }
    # One import from mingw's libgcc_s_seh-1.dll, say, fails to load on a Windows without mingw.
    [ "$imports" = "KERNEL32.dll msvcrt.dll " ] ||
        { echo "bloom.dll must import only from KERNEL32.dll and msvcrt.dll"; exit 1; }
    . "$tests/sqlite_amalgamation.sh"
    if [ -f "$amalgamation_dir/sqlite3.c" ]; then
        amalgamation_from "dir:$amalgamation_dir" "$scratch" "$npm"
    else
        amalgamation_from npm:better-sqlite3@12.11.1 "$scratch" "$npm"
    fi
    compile_amalgamation x86_64-w64-mingw32-gcc "$amalgamation_flags" "$scratch/sqlite3.o"
    x86_64-w64-mingw32-gcc -std=c11 -O1 -Wall -Werror -I"$amalgamation" -I"$tests" \
        "$tests/sqltest.c" "$scratch/sqlite3.o" -static -o "$scratch/sqltest.exe" || exit 1
    # A Wine of its own, quiet, made once, before the scripts; its server kept up for the whole
    # run (-p), so that two scripts at a time share it.
    export WINEPREFIX="$scratch/wine" WINEDEBUG=-all
    trap 'wineserver -k 2> /dev/null' EXIT
    [ -d "$WINEPREFIX/drive_c" ] || wine64 wineboot --init > "$scratch/wineboot.log" 2>&1 ||
        { cat "$scratch/wineboot.log"; exit 1; }
    wineserver -p
    windows_path() { case $1 in /*) echo "Z:$1" ;; *) echo "$1" ;; esac; }
    run_there() {
        wine64 "$scratch/sqltest.exe" "$(windows_path "$module")" "$(windows_path "$1")" \
            "$(windows_path "$2")"
    }
    ;;
*)
    echo "run.sh: PLATFORM must be linux_arm64 or windows_x64, got $platform"
    exit 2
    ;;
esac

# Every script, two at a time, each into a log of its own; the failures' logs printed.
mkdir -p "$scratch/sql"
export scratch
started=$(date +%s)
for script in "$@"; do echo "$script"; done | {
    failed=0
    while read -r first && { read -r second || second=; }; do
        for script in "$first" $second; do
            name=$(basename "$script" .sql)
            (run_there "$script" "$scratch/sql/$name.db" > "$scratch/sql/$name.log" 2>&1
             echo $? > "$scratch/sql/$name.status") &
        done
        wait
        for script in "$first" $second; do
            name=$(basename "$script" .sql)
            if [ "$(cat "$scratch/sql/$name.status")" = 0 ]; then
                tail -n 1 "$scratch/sql/$name.log"
            else
                cat "$scratch/sql/$name.log"
                failed=1
            fi
        done
    done
    exit $failed
} || { echo "FAILED on $platform"; exit 1; }
echo "$# scripts passed on $platform in $(($(date +%s) - started)) s"

# Filters written there read here, and written here read there.
rm -rf "$scratch/made_there" "$scratch/made_here"
mkdir -p "$scratch/made_there" "$scratch/made_here"
(cd "$scratch/made_there" && run_there "$tests/platforms/write_filters.sql" made.db &&
    "$host_sqltest" "$host_module" "$tests/platforms/check_filters.sql" check.db) || exit 1
(cd "$scratch/made_here" && "$host_sqltest" "$host_module" "$tests/platforms/write_filters.sql" made.db &&
    run_there "$tests/platforms/check_filters.sql" check.db) || exit 1
echo "filters written on $platform read here, and the other way"
