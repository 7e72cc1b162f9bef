#!/bin/sh
# Checks the built extension (an ELF shared object): it exports exactly one
# symbol, sqlite3_bloom_init, and needs neither libxxhash (xxHash is compiled
# in) nor libsqlite3 (it calls SQLite through the table it is handed).
# Usage: check_library.sh PATH/TO/bloom.so
set -u
library=$1
status=0
exported=$(nm -D --defined-only "$library" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }')
if [ "$exported" != "sqlite3_bloom_init" ]; then
    echo "exported symbols are not exactly sqlite3_bloom_init:"
    echo "$exported"
    status=1
fi
needed=$(readelf -d "$library" | awk '/NEEDED/ { print $NF }')
case "$needed" in
*xxhash* | *sqlite3*)
    echo "bloom.so must not depend on libxxhash or libsqlite3 at run time:"
    echo "$needed"
    status=1
    ;;
esac
[ "$status" = 0 ] && echo "exports: $exported; needs: $(echo $needed)"
exit "$status"
