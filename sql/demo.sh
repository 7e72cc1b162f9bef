#!/bin/sh
# Quick start on Debian or Ubuntu: installs the packages the build needs when
# they are missing (as root; otherwise prints the apt-get line to run), builds
# bloom.so with CMake and runs sql/demo.sql in the sqlite3 shell.
# Usage: sh sql/demo.sh
set -eu
cd "$(dirname "$0")/.."

packages="build-essential cmake sqlite3 libsqlite3-dev libxxhash-dev python3 python3-xxhash"
missing=""
for package in $packages; do
    if ! dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
    else
        echo "These packages are missing. Install them, then run this again:"
        echo "  sudo apt-get install -y$missing"
        exit 1
    fi
fi

# CMake presets of version 6 need CMake 3.25 (Debian 12, Ubuntu 24.04 and later).
version=$(cmake --version | awk 'NR == 1 { print $3 }')
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
if [ "$major" -lt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -lt 25 ]; }; then
    echo "CMake 3.25 or later is needed; this is CMake $version"
    exit 1
fi
cmake --preset default
cmake --build --preset default
echo
echo "== sqlite3 :memory: -cmd '.load build/bloom' < sql/demo.sql"
sqlite3 :memory: -cmd ".load build/bloom" < sql/demo.sql
