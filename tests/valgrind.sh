#!/bin/sh
# The suite's C test programs under valgrind's memcheck: any memory error or leak
# (definite, indirect or possible) fails the test (--error-exitcode, set by the preset).
#
# Usage, from the top of the repository: sh tests/valgrind.sh [ctest options...]
#
# Not run under memcheck: the tests whose command is a shell script (the sqlite3 shell,
# Python, Node, install, cross builds: valgrind would check sh, not the extension), the
# accuracy tests and the benchmark (10M probes each: hours under memcheck; sql.big and
# the fuzz replays take the same paths on smaller filters), and sql.spark_golden (Spark's
# 36,415 answers: 125 s under memcheck; sql.spark takes the same paths on fewer keys).
set -eu
cd "$(dirname "$0")/.."
cmake --preset valgrind
cmake --build --preset valgrind
ctest --test-dir build-valgrind -T memcheck --output-on-failure \
    -R '^(core\.unit|sql\..*|compat\..*|api|in_place|live\.hostile|memory|static|limits\.small_set|fuzz\..*\.replay|robust\.(oom|threads))$' \
    -E '^sql\.spark_golden$' \
    "$@"
