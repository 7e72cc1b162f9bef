#!/bin/sh
# Runs the SQL examples of a Markdown document against the results it shows: every ```sql
# block, in order, as one sqltest script (see tests/sqltest.c: a "-- => ROW" or "-- error:"
# line after a statement is its expected result). Lines outside the blocks become empty
# lines, so that sqltest's line numbers are those of the document. The blocks may use two
# commands of the sqlite3 shell: .load (sqltest has loaded the extension) and
# .parameter set @NAME "EXPRESSION" (sqltest's --! param); any other is an error.
# Usage: run_examples.sh SQLTEST EXTENSION DOCUMENT SCRATCH_DIR
set -eu
sqltest=$1 extension=$2 document=$3 scratch=$4
name=$(basename "$document" .md)
mkdir -p "$scratch"
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
exec "$sqltest" "$extension" "$scratch/$name.sql" "$scratch/$name.db"
