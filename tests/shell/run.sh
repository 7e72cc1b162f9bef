#!/bin/sh
# Runs SCRIPT through the real sqlite3 shell in WORKDIR (where bloom.so is built)
# and compares its stdout and stderr with EXPECTED.out and EXPECTED.err.
# Usage: run.sh SQLITE3 WORKDIR SCRIPT EXPECTED [SHELL ARGUMENTS...]
set -u
sqlite3=$1 workdir=$2 script=$3 expected=$4
shift 4
name=$(basename "$expected")
cd "$workdir" || exit 2
# No ~/.sqliterc and the C locale, so that only the script decides what is printed.
LC_ALL=C "$sqlite3" -batch -init /dev/null "$@" < "$script" > "$name.actual.out" 2> "$name.actual.err"
status=0
diff -u "$expected.out" "$name.actual.out" || status=1
diff -u "$expected.err" "$name.actual.err" || status=1
[ "$status" = 0 ] && echo "$name: stdout and stderr as expected"
exit "$status"
