#!/bin/sh
# Installs the wheel as a user would: a virtual environment of PYTHON (Debian's python3), then
# pip install of the wheel file with no index. Runs test_wheel.py there, from a directory
# outside the source tree, so that sqlite_bloom is the installed one; it also runs the README's
# examples of the package.
# Exits 77 (a skip, saying why) without PYTHON or its venv module (Debian's python3-venv).
# Usage: run.sh PYTHON WHEEL VERSION SCRATCH_DIR TEST_WHEEL_PY README
set -eu
python=$1 wheel=$2 version=$3 scratch=$4 test_file=$5 readme=$6
[ -x "$python" ] || { echo "SKIP: $python not found (apt-get install python3)"; exit 77; }
"$python" -c 'import ensurepip, venv' 2> /dev/null || {
    echo "SKIP: $python cannot create virtual environments with pip (apt-get install python3-venv)"
    exit 77
}
[ -f "$wheel" ] || { echo "no wheel at $wheel"; exit 1; }
rm -rf "$scratch"
mkdir -p "$scratch"
"$python" -m venv "$scratch/venv"
"$scratch/venv/bin/python" -m pip install --quiet --no-index --disable-pip-version-check "$wheel"
"$scratch/venv/bin/python" -m pip list --disable-pip-version-check 2> /dev/null | grep -i 'sqlite.bloom'
cp "$test_file" "$scratch/"
cd "$scratch"
BLOOM_EXPECTED_VERSION=$version BLOOM_README=$readme exec "$scratch/venv/bin/python" -m unittest -v "$(basename "$test_file" .py)"
