#!/bin/sh
# The core on a big-endian machine: builds the core, its unit tests and cross_filter for
# s390x with Debian's cross compiler, runs them under qemu-user, and exchanges filters with
# the host (little-endian) build of cross_filter in both directions.
# Usage: run.sh SOURCE_DIR SCRATCH_DIR HOST_CROSS_FILTER CORE_SOURCES
#   CORE_SOURCES  the C files of the core (a ;-separated list is split)
# Exits 77 (a skip, saying why) without the s390x cross compiler or qemu-s390x, looked for when
# the test runs.
set -eu
for tool in s390x-linux-gnu-gcc qemu-s390x; do
    command -v "$tool" > /dev/null || {
        echo "SKIP: $tool not found (apt-get install gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user)"
        exit 77
    }
done
source=$1 scratch=$2 host=$3
core=$(printf '%s' "$4" | tr ';' ' ')
rm -rf "$scratch"
mkdir -p "$scratch/include" "$scratch/from_s390x" "$scratch/from_host"
cp /usr/include/xxhash.h "$scratch/include/" # alone: the host's /usr/include would shadow s390x's
includes=$(for layer in "$source"/ext/*/; do printf ' -I%s' "${layer%/}"; done)
cc="s390x-linux-gnu-gcc -std=c11 -O2 -static -Wall -Wextra -Werror$includes -isystem $scratch/include"
# shellcheck disable=SC2086 # $core is a list of paths without spaces
$cc -o "$scratch/test_core" $core "$source"/tests/unit/*.c -lm
# shellcheck disable=SC2086
$cc -o "$scratch/cross_filter" $core "$source/tests/bigendian/cross_filter.c" -lm
qemu-s390x "$scratch/test_core" "$source/tests/golden" "$source/docs/format.md"
qemu-s390x "$scratch/cross_filter" write "$scratch/from_s390x"
"$host" check "$scratch/from_s390x"
"$host" write "$scratch/from_host"
qemu-s390x "$scratch/cross_filter" check "$scratch/from_host"
