#!/bin/sh
# Runs the lake catalog use case (tests/shell/run.sh and its arguments) on the lake that
# client.parquet writes with DuckDB; exits 77 (a skip, saying why) when there is none.
# Usage: usecase.sh LAKE_DIR RUN_SH ARGUMENTS...
set -u
lake=$1 run_sh=$2
shift 2
if [ ! -f "$lake/orders_2024-03-20.parquet" ]; then
    echo "SKIP: no lake at $lake: client.parquet writes it with DuckDB (Node.js 20 and npm)"
    exit 77
fi
exec sh "$run_sh" "$@"
