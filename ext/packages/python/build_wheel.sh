#!/bin/sh
# Builds the wheel of the Python package sqlite_bloom offline, with Debian's setuptools, wheel
# and pip: a copy of this directory, plus bloom.so (stripped), LICENSE and _version.py.
# Usage: build_wheel.sh PYTHON SOURCE_DIR BLOOM_SO VERSION LICENSE OUT_DIR [STRIP]
set -eu
python=$1 source=$2 module=$3 version=$4 license=$5 out=$6 strip=${7:-}
staging=$out/python-staging
rm -rf "$staging"
mkdir -p "$staging" "$out"
cp -R "$source/pyproject.toml" "$source/setup.py" "$source/README.md" "$source/sqlite_bloom" "$staging/"
rm -rf "$staging/sqlite_bloom/__pycache__"
cp "$license" "$staging/LICENSE"
printf '# Written by build_wheel.sh: the version of CMake'"'"'s project().\n__version__ = "%s"\n' \
    "$version" > "$staging/sqlite_bloom/_version.py"
cp "$module" "$staging/sqlite_bloom/bloom.so"
if [ -n "$strip" ]; then
    "$strip" --strip-unneeded --remove-section=.comment "$staging/sqlite_bloom/bloom.so"
fi
rm -f "$out"/sqlite_bloom-"$version"-*.whl
"$python" -m pip wheel --quiet --no-build-isolation --no-index --no-deps \
    --disable-pip-version-check --wheel-dir "$out" "$staging"
rm -rf "$staging"
ls "$out"/sqlite_bloom-"$version"-*.whl
