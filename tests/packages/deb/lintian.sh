#!/bin/sh
# Runs lintian, Debian's package checker, on the .deb files given: every tag is printed
# (informational and pedantic ones too) and any error or warning fails the test.
# Exits 77 (a skip, saying why) when lintian is not installed.
# Usage: lintian.sh DEB...
set -eu
command -v lintian > /dev/null || { echo "SKIP: lintian not found (apt-get install lintian)"; exit 77; }
lintian --version
status=0
tags=$(lintian --fail-on error,warning --display-info --pedantic "$@" 2>&1) || status=$?
printf '%s\n' "$tags" | grep -v 'running with root privileges' || true
[ "$status" = 0 ] || { echo "lintian: errors or warnings above (exit status $status)"; exit 1; }
echo "lintian: no error and no warning in $# packages"
