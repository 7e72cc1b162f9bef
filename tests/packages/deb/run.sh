#!/bin/sh
# Installs the two Debian packages with dpkg -i as a user would, but into a throwaway root under
# SCRATCH_DIR with an administrative directory of its own: the machine's /usr, its dpkg database,
# its dpkg lock and its dpkg.log are never touched, as root or not (--force-not-root). The
# private database knows the installed packages the two depend on (their entries copied from the
# machine's), so that dpkg checks the dependencies as it would on the machine. Then: the
# versions and the file lists dpkg records, bloom.so loaded in the sqlite3 shell from its
# installed path and a filter probed, a program built with find_package(sqlite_bloom) finding the
# -dev package's files in the root and linking them, and dpkg -r and --purge leaving the root
# empty. None of the paths the packages bring may appear on the machine.
# Exits 77 (a skip, saying why) without dpkg.
# Usage: run.sh MODULE_DEB DEV_DEB VERSION SQLITE3 MULTIARCH CONSUMER_SOURCE_DIR SCRATCH_DIR
# shellcheck disable=SC2016 # the ${Field}s of dpkg-query's formats are dpkg-query's, not the shell's
set -eu
module_deb=$1 dev_deb=$2 version=$3 sqlite3=$4 multiarch=$5 consumer=$6 scratch=$7
packages='libsqlite3-mod-bloom libsqlite3-mod-bloom-dev'
module=/usr/lib/$multiarch/sqlite3/bloom.so

command -v dpkg > /dev/null || { echo "SKIP: no dpkg: not a Debian system"; exit 77; }
unset DPKG_ROOT DPKG_ADMINDIR DPKG_FORCE

rm -rf "$scratch"
root=$scratch/root admin=$scratch/admin
mkdir -p "$root" "$admin/info" "$admin/updates"
# dpkg on the throwaway root: its own database and log, and its lock in that database.
dpkg_private() {
    dpkg --instdir="$root" --admindir="$admin" --log="$scratch/dpkg.log" --force-not-root "$@"
}
query_private() {
    dpkg-query --admindir="$admin" "$@"
}

# Every path the packages bring (as dpkg-deb lists it) that is not on the machine: none may be
# there at the end.
for deb in "$module_deb" "$dev_deb"; do
    dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^/*$'
done | LC_ALL=C sort -u > "$scratch/package_paths"
while read -r path; do
    [ -e "$path" ] || [ -L "$path" ] || echo "$path"
done < "$scratch/package_paths" > "$scratch/new_paths"

# The private database: the machine's entries of the packages the two depend on (dpkg-query -s
# prints an entry as the status file holds it), each with an empty list of files.
: > "$admin/status"
for deb in "$module_deb" "$dev_deb"; do
    dpkg-deb -f "$deb" Depends | tr '|' ',' | tr ',' '\n' | sed -e 's/^ *//' -e 's/[ (:].*//'
done | LC_ALL=C sort -u | grep -v -x -e '' -e libsqlite3-mod-bloom > "$scratch/depends"
# On a machine with other architectures (dpkg --add-architecture arm64), a package installed for
# several is named with the machine's.
architecture=$(dpkg --print-architecture) || exit 1
while read -r dependency; do
    if ! entry=$(dpkg-query -s "$dependency:$architecture" 2> /dev/null ||
        dpkg-query -s "$dependency" 2> /dev/null); then
        echo "$dependency, which the packages depend on, is not installed on this machine"
        exit 1
    fi
    printf '%s\n\n' "$entry" >> "$admin/status"
    for name in $(dpkg-query -W -f='${binary:Package}\n' "$dependency"); do
        : > "$admin/info/$name.list"
    done
done < "$scratch/depends"
echo "private dpkg database in $admin, with the machine's $(tr '\n' ' ' < "$scratch/depends")"

dpkg_private -i "$module_deb" "$dev_deb"
for package in $packages; do
    installed=$(query_private -W -f='${Version} ${Status}' "$package")
    [ "$installed" = "$version install ok installed" ] || {
        echo "$package: dpkg says '$installed', expected '$version install ok installed'"
        exit 1
    }
done
# What dpkg recorded is what the packages hold, and each file is in the root.
for package in $packages; do
    query_private -L "$package"
done | grep -v -x '/\.' | LC_ALL=C sort -u > "$scratch/listed_paths"
diff "$scratch/package_paths" "$scratch/listed_paths" || {
    echo "dpkg -L differs from the packages' contents (< in the .deb files, > listed)"
    exit 1
}
while read -r path; do
    [ -e "$root$path" ] || { echo "dpkg lists $path, not in $root"; exit 1; }
done < "$scratch/listed_paths"
query_private -L libsqlite3-mod-bloom | grep -qx "$module" || { echo "dpkg -L does not list $module"; exit 1; }
for file in include/sqlite_bloom.h "lib/$multiarch/libsqlite_bloom.a"; do
    [ -f "$root/usr/$file" ] || { echo "the -dev package installed no /usr/$file"; exit 1; }
done
echo "installed in $root: $module, $(query_private -L libsqlite3-mod-bloom-dev | grep -c .) paths of the -dev package"

# The sqlite3 shell, from a directory with no bloom.so, loading by the installed path.
answer=$(cd "$scratch" && "$sqlite3" :memory: <<EOF
.load $root${module%.so}
CREATE TABLE emails(address TEXT);
INSERT INTO emails VALUES ('alice@example.com'), ('bob@example.com');
SELECT bloom_version(), bloom_might_contain(f, 'bob@example.com'),
       bloom_might_contain(f, 'eve@example.com')
FROM (SELECT bloom_build(address, 1000, 0.01) AS f FROM emails);
EOF
)
echo "sqlite3 shell: $answer"
[ "$answer" = "$version|1|0" ] || { echo "expected $version|1|0"; exit 1; }

# The -dev package: find_package(sqlite_bloom) finds it in the root, and a program links it.
cmake -S "$consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$root/usr" > /dev/null
config_dir=$(sed -n 's/^sqlite_bloom_DIR:PATH=//p' "$scratch/consumer/CMakeCache.txt")
[ "$config_dir" = "$root/usr/lib/$multiarch/cmake/sqlite_bloom" ] || {
    echo "find_package(sqlite_bloom) found $config_dir, not the package's"
    exit 1
}
cmake --build "$scratch/consumer" > /dev/null
"$scratch/consumer/consumer"

# shellcheck disable=SC2086 # $packages: a list of names
dpkg_private -r $packages
for package in $packages; do
    status=$(query_private -W -f='${Status}' "$package" 2> /dev/null || true)
    case $status in
    '' | *not-installed | *config-files) ;;
    *) echo "$package still installed after dpkg -r: $status"; exit 1 ;;
    esac
done
# No conffiles, so dpkg -r leaves nothing to purge, unless that changes.
for package in $packages; do
    case $(query_private -W -f='${Status}' "$package" 2> /dev/null || true) in
    *config-files) dpkg_private --purge "$package" ;;
    *) echo "$package: dpkg -r left nothing to purge" ;;
    esac
done
for package in $packages; do
    status=$(query_private -W -f='${Status}' "$package" 2> /dev/null || true)
    case $status in
    '' | *not-installed) ;;
    *) echo "$package still known to dpkg after --purge: $status"; exit 1 ;;
    esac
done
left=$(find "$root" -mindepth 1)
[ -z "$left" ] || { echo "left behind in $root:"; echo "$left"; exit 1; }
echo "removed and purged: none of the $(wc -l < "$scratch/package_paths") paths the packages brought is left"

# The machine: none of the paths that were not there before is there now.
landed=0
while read -r path; do
    if [ -e "$path" ] || [ -L "$path" ]; then
        echo "on the machine: $path"
        landed=$((landed + 1))
    fi
done < "$scratch/new_paths"
[ "$landed" = 0 ] || exit 1
echo "on the machine: none of the $(wc -l < "$scratch/new_paths") paths it lacked is there"
