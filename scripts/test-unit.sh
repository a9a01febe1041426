#!/usr/bin/env bash
# Compiles the TypeScript sources and tests, then runs every unit and integration test with node's test
# runner twice: on the default SQLite driver (better-sqlite3 on this machine), then again with
# TRACE_INSPECTOR_SQLITE_DRIVER=node:sqlite, the fallback used where better-sqlite3 cannot load (hosts with
# glibc < 2.34). Child processes (the CLI in tests) inherit the variable. The few suites that choose
# their drivers themselves (test/unit/sqlite*.test.ts) run in the first pass only. Fails if either pass fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
rm -rf out
npx tsc -p .
status=0
echo "[test-unit] pass 1 of 2: default SQLite driver" >&2
env -u TRACE_INSPECTOR_SQLITE_DRIVER node --test --test-reporter=spec "out/test/unit/**/*.test.js" || status=$?
echo "[test-unit] pass 2 of 2: TRACE_INSPECTOR_SQLITE_DRIVER=node:sqlite" >&2
TRACE_INSPECTOR_SQLITE_DRIVER=node:sqlite node --test --test-reporter=spec "out/test/unit/**/*.test.js" || status=$?
exit $status
