#!/bin/sh
# Runs the SQL examples of a Markdown document against the results it shows: every ```sql
# block, in order, as one sqltest script (see tests/sqltest.c: a "-- => ROW" or "-- error:"
# line after a statement is its expected result). Lines outside the blocks become empty
# lines, so that sqltest's line numbers are those of the document. The blocks may use two
# commands of the sqlite3 shell: .load (sqltest has loaded the extension) and
# .parameter set @NAME "EXPRESSION" (sqltest's --! param); any other is an error.
# The examples run in SCRATCH_DIR/NAME.top, made anew each run, which holds a symbolic link to
# each entry of the working directory (the top of the repository) but its build directories:
# they name the repository's files as a reader at its top does, and a file an example writes
# (bloom_parquet_write's) goes there, not into the repository.
# Usage: run_examples.sh SQLTEST EXTENSION DOCUMENT SCRATCH_DIR
set -eu
sqltest=$1 extension=$2 document=$3 scratch=$4
name=$(basename "$document" .md)
mkdir -p "$scratch"
top=$(pwd)
rm -rf "${scratch:?}/$name.top"
mkdir "$scratch/$name.top"
for entry in "$top"/*; do
    [ -f "$entry/CMakeCache.txt" ] || ln -s "$entry" "$scratch/$name.top/"
done
awk '/^```sql[ \t]*$/ { inside = 1; print ""; next }
     /^```/           { inside = 0 }
     !inside          { print ""; next }
     /^\.load /       { print ""; next }
     /^\.parameter set @[A-Za-z_]+ ".*"$/ {
         match($0, /@[A-Za-z_]+/)
         value = substr($0, RSTART + RLENGTH + 2)
         print "--! param " substr($0, RSTART, RLENGTH) " SELECT " substr(value, 1, length(value) - 1)
         next
     }
     /^\./            { print FILENAME ":" NR ": a shell command sqltest cannot run: " $0 > "/dev/stderr"; failed = 1 }
                      { print }
     END              { exit failed }' "$document" > "$scratch/$name.sql"
cd "$scratch/$name.top"
exec "$sqltest" "$extension" "$scratch/$name.sql" "$scratch/$name.db"
