#!/bin/sh
# The static library defines one global symbol, sqlite3_bloom_init: no other name of the
# extension can clash with one of the program that links it (ELF only).
# Usage: check_static_symbols.sh LIBRARY
set -eu
symbols=$(nm -g --defined-only "$1" | awk 'NF == 3 { print $3 }' | sort -u | tr '\n' ' ')
echo "global symbols of $(basename "$1"): $symbols"
[ "$symbols" = "sqlite3_bloom_init " ]
