#!/bin/sh
# Runs the SQL examples of a Markdown document against the results it shows: every ```sql
# block, in order, as one sqltest script (see tests/sqltest.c: a "-- => ROW" or "-- error:"
# line after a statement is its expected result). Lines outside the blocks become empty
# lines, so that sqltest's line numbers are those of the document.
# Usage: run_examples.sh SQLTEST EXTENSION DOCUMENT SCRATCH_DIR
set -eu
sqltest=$1 extension=$2 document=$3 scratch=$4
name=$(basename "$document" .md)
mkdir -p "$scratch"
awk '/^```sql[ \t]*$/ { inside = 1; print ""; next }
     /^```/           { inside = 0 }
                      { print inside ? $0 : "" }' "$document" > "$scratch/$name.sql"
exec "$sqltest" "$extension" "$scratch/$name.sql" "$scratch/$name.db"
