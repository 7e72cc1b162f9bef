#!/bin/sh
# make_golden.sh SKETCH_SOURCES [OUT]: compiles SparkGolden.java against Spark's sketch package
# and writes the golden Spark filters to OUT (default: spark_golden.txt beside this script).
#
# SKETCH_SOURCES is either a directory holding org/apache/spark/util/sketch/*.java (Spark's
# common/sketch/src/main/java), or a git directory of apache/spark, whose HEAD's sketch package
# is extracted to a temporary directory first. Spark's sources are never committed here; this
# needs a JDK 17 (Debian's openjdk-17: javac and java) and nothing else.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sources=$1
out=${2:-$here/spark_golden.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
package=org/apache/spark/util/sketch
if [ -d "$sources/$package" ]; then
    src=$sources
else
    src=$work/src
    mkdir -p "$src/$package"
    prefix=common/sketch/src/main/java/$package
    for f in $(git --git-dir="$sources" ls-tree --name-only HEAD "$prefix/"); do
        git --git-dir="$sources" show "HEAD:$f" > "$src/$package/$(basename "$f")"
    done
fi
mkdir -p "$work/classes"
javac -nowarn -d "$work/classes" "$src/$package"/*.java 2>/dev/null ||
    javac -d "$work/classes" "$src/$package"/*.java
javac -cp "$work/classes" -d "$work/classes" "$here/SparkGolden.java"
java -ea -cp "$work/classes" SparkGolden > "$work/golden.txt"
mv "$work/golden.txt" "$out"
echo "wrote $out: $(grep -c '^filter ' "$out") filters"
