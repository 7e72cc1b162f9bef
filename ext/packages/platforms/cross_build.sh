#!/bin/sh
# Builds the extension for another platform in a build directory of its own, with one of the
# toolchain files here: bloom.so or bloom.dll (target bloom) and, for Linux, the static library
# of the -dev package (bloom_static); a later run builds what changed.
# Only SQLite's and xxHash's headers are copied from the host (INCLUDE_DIRS): the host's
# /usr/include would shadow the other platform's C library. packages.cmake runs it for the
# packages, and the platform.* tests (tests/platforms) use what it built.
# Usage: cross_build.sh SOURCE_DIR BUILD_DIR TOOLCHAIN BUILD_TYPE WERROR TARGETS INCLUDE_DIRS
#   TARGETS and INCLUDE_DIRS are ;-separated lists
set -eu
source=$1 build=$2 toolchain=$3 build_type=$4 werror=$5
targets=$(printf '%s' "$6" | tr ';' ' ')
include_dirs=$(printf '%s' "$7" | tr ';' ' ')
mkdir -p "$build/include"
for header in sqlite3.h sqlite3ext.h xxhash.h; do
    for dir in $include_dirs; do
        if [ -f "$dir/$header" ]; then
            cmp -s "$dir/$header" "$build/include/$header" || cp "$dir/$header" "$build/include/"
            break
        fi
    done
    [ -f "$build/include/$header" ] || { echo "cross_build.sh: no $header in $include_dirs"; exit 1; }
done
# Configured each time (a second of CMake), so that a change of this build's type or warnings
# reaches it.
cmake -S "$source" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCMAKE_BUILD_TYPE="$build_type" -DBLOOM_WERROR="$werror" -DBUILD_TESTING=OFF \
    -DBLOOM_PLATFORMS=OFF -DSQLITE3EXT_INCLUDE_DIR="$build/include" \
    -DXXHASH_INCLUDE_DIR="$build/include" > "$build/configure.log" ||
    { cat "$build/configure.log"; rm -f "$build/CMakeCache.txt"; exit 1; }
# Two compilers at a time, whatever make runs this: a jobserver of a parent make does not reach
# this build (MAKEFLAGS emptied), which would otherwise run one at a time.
# shellcheck disable=SC2086 # the targets, a word each
MAKEFLAGS= cmake --build "$build" --parallel 2 --target $targets > "$build/build.log" ||
    { cat "$build/build.log"; exit 1; }
