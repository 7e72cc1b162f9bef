#!/bin/sh
# Cross-compiles bloom.dll for 64-bit Windows with mingw-w64 (warnings as errors) and checks
# that it exports exactly one symbol, sqlite3_bloom_init, and imports only from Windows' own
# DLLs (KERNEL32.dll, msvcrt.dll): one from mingw's libgcc_s_seh-1.dll fails to load on a
# Windows without mingw.
# Exits 77 (a skip, saying why) without mingw-w64's compiler, looked for when the test runs.
# Usage: run.sh SOURCE_DIR SCRATCH_DIR
set -eu
command -v x86_64-w64-mingw32-gcc > /dev/null || {
    echo "SKIP: x86_64-w64-mingw32-gcc not found (apt-get install gcc-mingw-w64-x86-64)"
    exit 77
}
source=$1 scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch/include"
# Only the headers the build needs: the host's /usr/include would shadow mingw's C library.
for header in sqlite3.h sqlite3ext.h xxhash.h; do
    cp "/usr/include/$header" "$scratch/include/"
done
cmake -S "$source" -B "$scratch/build" -DCMAKE_TOOLCHAIN_FILE="$source/tests/windows/mingw-w64.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DBLOOM_WERROR=ON \
    -DSQLITE3EXT_INCLUDE_DIR="$scratch/include" -DXXHASH_INCLUDE_DIR="$scratch/include" > /dev/null
cmake --build "$scratch/build" --target bloom > /dev/null
dll="$scratch/build/bloom.dll"
exports=$(x86_64-w64-mingw32-objdump -p "$dll" |
    awk '/\[Ordinal\/Name Pointer\] Table/ { table = 1; next } table && NF == 0 { table = 0 } table { print $NF }')
echo "bloom.dll exports: $exports"
[ "$exports" = "sqlite3_bloom_init" ]
imports=$(x86_64-w64-mingw32-objdump -p "$dll" | awk '/DLL Name:/ { print $3 }' | sort -u | tr '\n' ' ')
echo "bloom.dll imports from: $imports"
[ "$imports" = "KERNEL32.dll msvcrt.dll " ]
