#!/bin/sh
# Builds the wheel of the Python package sqlite_bloom offline, with Debian's setuptools, wheel
# and pip: a copy of this directory, plus MODULE (bloom.so or bloom.dll, stripped), LICENSE,
# _version.py and _platform.py. PLATFORM is the platform of the wheel's tag (linux_x86_64,
# linux_aarch64, win_amd64), which MODULE is built for.
# Usage: build_wheel.sh PYTHON SOURCE_DIR MODULE VERSION LICENSE OUT_DIR PLATFORM [STRIP]
set -eu
python=$1 source=$2 module=$3 version=$4 license=$5 out=$6 platform=$7 strip=${8:-}
library=$(basename "$module")
staging=$out/python-staging-$platform
rm -rf "$staging"
mkdir -p "$staging" "$out"
cp -R "$source/pyproject.toml" "$source/setup.py" "$source/README.md" "$source/sqlite_bloom" "$staging/"
rm -rf "$staging/sqlite_bloom/__pycache__"
cp "$license" "$staging/LICENSE"
printf '# Written by build_wheel.sh: the version of CMake'"'"'s project().\n__version__ = "%s"\n' \
    "$version" > "$staging/sqlite_bloom/_version.py"
printf '# Written by build_wheel.sh: the platform of the wheel, and its library.\nPLATFORM = "%s"\nLIBRARY = "%s"\n' \
    "$platform" "$library" > "$staging/sqlite_bloom/_platform.py"
cp "$module" "$staging/sqlite_bloom/$library"
if [ -n "$strip" ]; then
    "$strip" --strip-unneeded --remove-section=.comment "$staging/sqlite_bloom/$library"
fi
rm -f "$out"/sqlite_bloom-"$version"-*-"$platform".whl
SQLITE_BLOOM_WHEEL_PLATFORM=$platform "$python" -m pip wheel --quiet --no-build-isolation --no-index --no-deps \
    --disable-pip-version-check --wheel-dir "$out" "$staging"
rm -rf "$staging"
ls "$out"/sqlite_bloom-"$version"-*-"$platform".whl
