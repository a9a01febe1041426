#!/usr/bin/env bash
# Compiles the TypeScript sources and tests to out/ (unless --no-compile: scripts/test.sh compiles once for
# both suites), then runs the unit and integration tests with node's test runner, TEST_CONCURRENCY files at a
# time (default 2, the machine's cores), in two passes:
#   1. every test file, on the default SQLite driver (better-sqlite3 on this machine);
#   2. with TRACE_INSPECTOR_SQLITE_DRIVER=node:sqlite, the fallback used where better-sqlite3 cannot load
#      (hosts with glibc < 2.34): the fewest, cheapest test files that together prepare every SQL statement the
#      test files prepared in pass 1, in their own processes or in a CLI or worker they started (recorded by
#      scripts/sqlite-use.cjs, chosen by scripts/sqlite-cover.mjs), never a file marked
#      `// sqlite-parity: skip — <why>` (its subject is not storage: naming rules, readers, wording, cost
#      ratios). Child processes (the CLI in tests) inherit the variable; the suites that choose their drivers
#      themselves (test/unit/sqlite*.test.ts) skip it.
# `--pass 1` or `--pass 2` runs one pass (pass 2 needs pass 1's record). Per-file times:
# test-output/times/unit-pass1.tsv and unit-pass2.tsv. Fails if a pass fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
compile=1
passes=(1 2)
while [ $# -gt 0 ]; do
  case "$1" in
    --no-compile) compile=0 ;;
    --pass) passes=("$2") && shift ;;
    *) echo "usage: test-unit.sh [--no-compile] [--pass 1|2]" >&2 && exit 2 ;;
  esac
  shift
done
if [ $compile = 1 ]; then
  rm -rf out
  npx tsc -p .
fi
times=test-output/times
mkdir -p "$times"
used="$times/sqlite-use.log"
run() { # run <pass> <files...>: node --test, spec output here, per-file times in $times/unit-<pass>.tsv
  local pass=$1
  shift
  # a test that hangs (a worker's uncaught error the test never awaits) fails after 5 minutes instead of holding
  # the run
  node --test --test-concurrency="${TEST_CONCURRENCY:-2}" --test-timeout="${TEST_TIMEOUT_MS:-300000}" \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=./scripts/test-times.mjs --test-reporter-destination="$times/unit-$pass.tsv" "$@"
}
status=0
for pass in "${passes[@]}"; do
  if [ "$pass" = 1 ]; then
    echo "[test-unit] pass 1 of 2: default SQLite driver, every test file" >&2
    rm -f "$used"
    (
      unset TRACE_INSPECTOR_SQLITE_DRIVER SQLITE_USE_TEST_FILE
      SQLITE_USE_LOG="$PWD/$used" NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--require $PWD/scripts/sqlite-use.cjs" \
        run pass1 "out/test/unit/**/*.test.js"
    ) || status=$?
  else
    if [ ! -s "$used" ]; then
      echo "[test-unit] pass 2 needs pass 1's record of the test files that open a database ($used)" >&2
      exit 1
    fi
    # the fewest, cheapest files that prepare every statement pass 1 prepared (sqlite-cover.mjs), minus the files
    # whose source says `// sqlite-parity: skip — <why>` (their subject is not storage)
    mapfile -t db_files < <(node scripts/sqlite-cover.mjs "$used" "$times/unit-pass1.tsv" test/unit)
    if [ ${#db_files[@]} = 0 ]; then
      echo "[test-unit] pass 2: no statement recorded in pass 1 ($used): is better-sqlite3 the default driver here?" >&2
      exit 1
    fi
    echo "[test-unit] pass 2 of 2: TRACE_INSPECTOR_SQLITE_DRIVER=node:sqlite, ${#db_files[@]} of $(find out/test/unit -name '*.test.js' | wc -l) test files" >&2
    TRACE_INSPECTOR_SQLITE_DRIVER=node:sqlite run pass2 "${db_files[@]}" || status=$?
  fi
done
exit $status
