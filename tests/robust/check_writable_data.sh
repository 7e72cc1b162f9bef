#!/bin/sh
# Checks that the extension keeps no writable global data of its own (ELF only).
#
# Usage: check_writable_data.sh MODULE BASELINE OBJECTS...
#   MODULE    the built bloom.so
#   BASELINE  a module with one empty function, compiled and linked like MODULE:
#             the writable data the toolchain adds to any module (crt files, linker)
#   OBJECTS   the object files compiled from ext/ (a ;-separated list is split)
#
# Writable data is any symbol in a section the loader maps writable (flags W and A),
# .data.rel.ro* excepted (read-only once relocated): .data, .bss, thread-local
# storage, and common symbols. Two checks:
#  1. in the objects of ext/, the only writable symbol is bloom_api, the (atomic) pointer
#     to SQLite's routines that every load stores; and
#     the writable sections hold no byte that no symbol names;
#  2. the module holds no writable symbol beyond those and the baseline's.
set -u
allowed="bloom_api"
module=$1
baseline=$2
shift 2
objects=$(printf '%s\n' "$@" | tr ';' '\n')
status=0

# Prints "index name bytes" of each writable section of the ELF file $1.
writable_sections() {
    readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9][0-9]*\)\]/\1/p' |
        awk 'NF == 11 && $8 ~ /W/ && $8 ~ /A/ && $2 !~ /^\.data\.rel\.ro/ { print $1, $2, $6 }' |
        while read -r index name size; do
            echo "$index $name $(printf '%d' "0x$size")"
        done
}

# Prints "name bytes" of each symbol of the ELF file $1 in a writable section, or common.
writable_symbols() {
    indexes=" $(writable_sections "$1" | awk '{ print $1 }' | tr '\n' ' ') COM "
    readelf -sW "$1" |
        awk -v indexes="$indexes" '$1 ~ /^[0-9]+:$/ && NF >= 8 && $4 != "SECTION" &&
             $4 != "FILE" && index(indexes, " " $7 " ") > 0 { print $8, $3 }' |
        sort -u |
        while read -r name size; do
            echo "$name $(printf '%d' "$size")"
        done
}

for file in "$module" "$baseline" $objects; do
    if ! readelf -h "$file" >/dev/null; then
        echo "$file: not an ELF file"
        exit 1
    fi
done

found=""
for object in $objects; do
    symbols=$(writable_symbols "$object")
    found="$found $(echo "$symbols" | awk 'NF { printf "%s (%s bytes) ", $1, $2 }')"
    unexpected=$(echo "$symbols" | awk -v allowed=" $allowed " 'NF && index(allowed, " " $1 " ") == 0')
    if [ -n "$unexpected" ]; then
        echo "$object: writable global data (name, bytes):"
        echo "$unexpected"
        status=1
    fi
    section_bytes=$(writable_sections "$object" | awk '{ total += $3 } END { print total + 0 }')
    symbol_bytes=$(echo "$symbols" | awk '{ total += $2 } END { print total + 0 }')
    if [ "$section_bytes" != "$symbol_bytes" ]; then
        echo "$object: $section_bytes bytes of writable sections, of which only $symbol_bytes are named:"
        writable_sections "$object"
        status=1
    fi
done

toolchain=$(writable_symbols "$baseline" | awk '{ printf "%s ", $1 }')
added=$(writable_symbols "$module" | awk -v known=" $toolchain$allowed " 'index(known, " " $1 " ") == 0')
if [ -n "$added" ]; then
    echo "$module: writable data neither from ext/ (allowed: $allowed) nor from the toolchain:"
    echo "$added"
    status=1
fi
if [ "$status" = 0 ]; then
    echo "writable data of ext/:$found"
    echo "beyond it, the module holds only the toolchain's: $toolchain"
fi
exit "$status"
