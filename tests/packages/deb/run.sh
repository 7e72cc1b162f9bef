#!/bin/sh
# Installs the two Debian packages with dpkg -i as a user would, loads bloom.so in the sqlite3
# shell by its installed path and probes a filter, builds and runs a program that finds the -dev
# package with find_package(sqlite_bloom), then removes and purges both and checks that every
# path they brought is gone. A trap purges them if any step fails, leaving the machine as it was.
# Exits 77 (a skip, saying why) without dpkg or root, or when either package is on the machine
# already (this test would remove it).
# Usage: run.sh MODULE_DEB DEV_DEB VERSION SQLITE3 MULTIARCH CONSUMER_SOURCE_DIR SCRATCH_DIR
set -eu
module_deb=$1 dev_deb=$2 version=$3 sqlite3=$4 multiarch=$5 consumer=$6 scratch=$7
packages='libsqlite3-mod-bloom libsqlite3-mod-bloom-dev'
module=/usr/lib/$multiarch/sqlite3/bloom.so

command -v dpkg > /dev/null || { echo "SKIP: no dpkg: not a Debian system"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: dpkg -i needs root (CI runs as root)"; exit 77; }

# The dpkg status of package $1: empty when dpkg has never heard of it.
status_of() {
    dpkg-query -W -f='${Status}' "$1" 2> /dev/null || true
}
for package in $packages; do
    case $(status_of "$package") in
    '' | *not-installed) ;;
    *)
        echo "SKIP: $package is on this machine already ($(status_of "$package")):" \
             "this test installs and removes it; dpkg --purge it first"
        exit 77
        ;;
    esac
done

rm -rf "$scratch"
mkdir -p "$scratch"
# Every path the packages bring that is not on the machine yet: all must be gone at the end.
for deb in "$module_deb" "$dev_deb"; do
    dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^/*$'
done | LC_ALL=C sort -u | while read -r path; do
    [ -e "$path" ] || [ -L "$path" ] || echo "$path"
done > "$scratch/new_paths"
[ -s "$scratch/new_paths" ] || { echo "the packages bring nothing new to this machine"; exit 1; }

installed=no
cleanup() {
    if [ "$installed" = yes ]; then
        dpkg --purge $packages > /dev/null 2>&1 || echo "cleanup: dpkg --purge $packages failed"
    fi
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

installed=yes
dpkg -i "$module_deb" "$dev_deb"
for package in $packages; do
    installed_version=$(dpkg-query -W -f='${Version}' "$package")
    [ "$installed_version" = "$version" ] || {
        echo "$package: installed version $installed_version, expected $version"
        exit 1
    }
done
dpkg -L libsqlite3-mod-bloom | grep -qx "$module" || { echo "dpkg -L does not list $module"; exit 1; }
echo "installed: $module, $(dpkg -L libsqlite3-mod-bloom-dev | grep -c .) paths of the -dev package"

# The sqlite3 shell, from a directory with no bloom.so, loading by the installed path.
answer=$(cd "$scratch" && "$sqlite3" :memory: <<EOF
.load ${module%.so}
CREATE TABLE emails(address TEXT);
INSERT INTO emails VALUES ('alice@example.com'), ('bob@example.com');
SELECT bloom_version(), bloom_might_contain(f, 'bob@example.com'),
       bloom_might_contain(f, 'eve@example.com')
FROM (SELECT bloom_build(address, 1000, 0.01) AS f FROM emails);
EOF
)
echo "sqlite3 shell: $answer"
[ "$answer" = "$version|1|0" ] || { echo "expected $version|1|0"; exit 1; }

# The -dev package: find_package(sqlite_bloom) finds it under /usr, and a program links it.
cmake -S "$consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH=/usr > /dev/null
config_dir=$(sed -n 's/^sqlite_bloom_DIR:PATH=//p' "$scratch/consumer/CMakeCache.txt")
[ "$config_dir" = "/usr/lib/$multiarch/cmake/sqlite_bloom" ] || {
    echo "find_package(sqlite_bloom) found $config_dir, not the package's"
    exit 1
}
cmake --build "$scratch/consumer" > /dev/null
"$scratch/consumer/consumer"

dpkg -r $packages
for package in $packages; do
    case $(status_of "$package") in
    '' | *not-installed | *config-files) ;;
    *) echo "$package still installed after dpkg -r: $(status_of "$package")"; exit 1 ;;
    esac
done
# No conffiles, so dpkg -r leaves nothing to purge, unless that changes.
for package in $packages; do
    case $(status_of "$package") in
    *config-files) dpkg --purge "$package" ;;
    *) echo "$package: dpkg -r left nothing to purge" ;;
    esac
done
installed=no
for package in $packages; do
    case $(status_of "$package") in
    '' | *not-installed) ;;
    *) echo "$package still known to dpkg after --purge: $(status_of "$package")"; exit 1 ;;
    esac
done
left=0
while read -r path; do
    if [ -e "$path" ] || [ -L "$path" ]; then
        echo "left behind: $path"
        left=$((left + 1))
    fi
done < "$scratch/new_paths"
[ "$left" = 0 ] || exit 1
echo "removed and purged: none of the $(wc -l < "$scratch/new_paths") paths the packages brought is left"
