#!/bin/sh
# Installs the build into a scratch prefix the way a release would be (--strip), checks the
# installed bloom.so (one exported symbol), and builds and runs a program that finds the
# installed package with find_package(sqlite_bloom) and links it statically.
# Usage: run.sh BUILD_DIR SCRATCH_DIR CONSUMER_SOURCE_DIR CHECK_LIBRARY_SCRIPT
set -eu
build=$1 scratch=$2 consumer=$3 check_library=$4
rm -rf "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" --strip > /dev/null
module=$(find "$scratch/prefix" -name 'bloom.so' | head -n 1)
echo "installed: ${module#$scratch/prefix/}"
sh "$check_library" "$module"
if nm "$module" > /dev/null 2>&1 && [ -n "$(nm "$module" 2> /dev/null)" ]; then
    echo "the installed bloom.so is not stripped"
    exit 1
fi
cmake -S "$consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$scratch/prefix" > /dev/null
cmake --build "$scratch/consumer" > /dev/null
"$scratch/consumer/consumer"
