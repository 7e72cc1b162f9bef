#!/bin/sh
# check-names.html in headless Chromium: the sqlite3 shell, with the extension, writes two filter
# files of the same names (a 'blocked' and a 'fuse' filter), a file that is no filter, and what
# bloom_might_contain answers for the names to type and says of the bad file; chromium.js then
# drives the page as a user would (chooses each file, types the names, clicks Check) and holds
# its answers and messages to the shell's.
# Exits 77 (a skip, saying why) without Node.js 20 or later, or without Chromium: both are looked
# for now, when the test runs.
# Usage: run_chromium.sh NODE CHROMIUMS SQLITE3 BLOOM_DIR PAGE SCRATCH_DIR CHROMIUM_JS
#   CHROMIUMS: names (looked up on the PATH) or paths, separated by spaces: the first found runs.
set -eu
node=$1 chromiums=$2 sqlite3=$3 bloom_dir=$4 page=$5 scratch=$6 driver=$7

. "$(dirname "$0")/../node.sh"
require_node "$node" "chromium.js and this test"
chromium=
for candidate in $chromiums; do
    chromium=$(command -v "$candidate") && break
done
[ -n "$chromium" ] || {
    echo "SKIP: no Chromium: none of '$chromiums' found on the PATH ($PATH) (apt-get install chromium)"
    exit 77
}
echo "Chromium: $chromium"
[ -f "$page" ] || { echo "no $page: build the target bloom_wasm"; exit 1; }

rm -rf "$scratch"
mkdir -p "$scratch"
# The names in the filters, and the names typed: some of them, and others.
cat > "$scratch/typed.txt" <<'NAMES'
alice
bob
Alice
émile
日本語
🙂
user7
user499
user500
mallory
 alice
trent
NAMES
(cd "$bloom_dir" && "$sqlite3" :memory: -cmd ".load ./bloom" -batch > /dev/null) <<SQL
CREATE TABLE users(name TEXT);
INSERT INTO users VALUES ('alice'), ('bob'), ('émile'), ('日本語'), ('🙂');
INSERT INTO users
WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 499)
SELECT 'user' || i FROM s;
SELECT writefile('$scratch/names.bloom', bloom_build(name, 1000, 0.01, 'blocked')) FROM users;
SELECT writefile('$scratch/names.fuse', bloom_build(name, NULL, 0.001, 'fuse')) FROM users;
SELECT writefile('$scratch/notes.txt', 'SQBF, but not a filter');
SQL
(cd "$bloom_dir" && "$sqlite3" :memory: -cmd ".load ./bloom" -batch) > "$scratch/expected.txt" <<SQL
CREATE TABLE typed(name TEXT);
INSERT INTO typed SELECT value FROM json_each(json('["' || replace(CAST(readfile('$scratch/typed.txt') AS TEXT), char(10), '","') || '"]'));
DELETE FROM typed WHERE name = '';
SELECT 'names.bloom', name, bloom_might_contain(readfile('$scratch/names.bloom'), name) FROM typed;
SELECT 'names.fuse', name, bloom_might_contain(readfile('$scratch/names.fuse'), name) FROM typed;
SQL
# The shell's error for the file that is no filter: "Runtime error ...: bloom_might_contain: ...".
(cd "$bloom_dir" && "$sqlite3" :memory: -cmd ".load ./bloom" -batch \
    "SELECT bloom_might_contain(readfile('$scratch/notes.txt'), 'alice');" 2>&1 || true) \
    | sed -n 's/.*\(bloom_might_contain: .*\)$/\1/p' > "$scratch/expected_error.txt"
[ -s "$scratch/expected_error.txt" ] || { echo "the shell gave no error for notes.txt"; exit 1; }

exec "$node" "$driver" "$chromium" "$page" "$scratch"
