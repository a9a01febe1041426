#!/usr/bin/env bash
# End-to-end tests: a real VS Code workbench (code-server) in headless Chromium, driven by Playwright
# (test/e2e/harness.ts). Installs what it needs (scripts/setup-e2e.sh; --no-setup when the caller did, as
# scripts/test.sh does), compiles the tests to out/ unless they are up to date, packages the extension into
# a VSIX when the project has a packaging script (set E2E_VSIX=path to test a given VSIX instead), then runs
# the given compiled test files (default out/test/e2e/**/*.e2e.js) one file at a time, on one code-server
# where they can share it (test/e2e/sharedServer.ts).
# Artifacts: test-output/e2e/ (screenshots in test-output/e2e/screenshots/); per-file times in
# test-output/times/e2e.tsv.
# Environment: E2E_TOTAL_TIMEOUT (seconds, default 1800), E2E_TIMEOUT_SCALE, E2E_HEADED (see harness.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh

setup=1
if [ "${1:-}" = --no-setup ]; then
  setup=0
  shift
fi
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("out/test/e2e/**/*.e2e.js")

t0=$(date +%s)
[ $setup = 0 ] || bash scripts/setup-e2e.sh
t1=$(date +%s)

# Compile unless out/ already holds e2e tests at least as new as every TypeScript source.
if [ ! -f out/test/e2e/harness.js ] || [ -n "$(find src test bench -name '*.ts' -newer out/test/e2e/harness.js -print -quit 2>/dev/null)" ]; then
  echo "[test-e2e] compiling to out/" >&2
  npx tsc -p . --outDir out
fi
t2=$(date +%s)

# The project's own VSIX, fresh for this run (the smoke test packages its own throwaway extension).
# A packaging failure fails the run, but the tests still run: those that need the VSIX fail with the
# reason (harness.defaultVsixPath() throws E2E_VSIX_ERROR), the others still report.
pkg_status=0
if [ -z "${E2E_VSIX:-}" ] && [ -z "${E2E_VSIX_ERROR:-}" ] && [ -f scripts/package.sh ] && [ -f src/extension/extension.ts ]; then
  echo "[test-e2e] npm run package" >&2
  stamp="$(mktemp)"
  if pkg_out="$(npm run --silent package)"; then
    # package.sh prints the VSIX path as its last line; else take a *.vsix it wrote in the repo root
    vsix="$(printf '%s\n' "$pkg_out" | tail -n 1)"
    case "$vsix" in *.vsix) ;; *) vsix="$(find . -maxdepth 1 -name '*.vsix' -newer "$stamp" | head -n 1)" ;; esac
    if [ -n "$vsix" ] && [ -f "$vsix" ]; then
      export E2E_VSIX="$(cd "$(dirname "$vsix")" && pwd)/$(basename "$vsix")"
      echo "[test-e2e] testing $E2E_VSIX" >&2
    else
      pkg_status=1
      export E2E_VSIX_ERROR="npm run package produced no new .vsix"
    fi
  else
    pkg_status=1
    export E2E_VSIX_ERROR="npm run package failed (see its output above the test results)"
  fi
  rm -f "$stamp"
  [ $pkg_status = 0 ] || echo "[test-e2e] $E2E_VSIX_ERROR" >&2
fi
# One code-server for the run, the VSIX installed once (test/e2e/sharedServer.ts): the files whose sessions
# would start that same server open their windows on it. If it does not start, every file starts its own.
shared=""
if [ -n "${E2E_VSIX:-}" ] && [ -z "${E2E_SHARED_SERVER:-}" ] && [ -f out/test/e2e/sharedServer.js ]; then
  info="$PWD/test-output/e2e/shared-server.json"
  mkdir -p test-output/e2e
  rm -f "$info"
  node out/test/e2e/sharedServer.js "$info" "$E2E_VSIX" &
  shared=$!
  while [ ! -s "$info" ] && kill -0 "$shared" 2>/dev/null; do sleep 0.2; done
  if [ -s "$info" ]; then
    export E2E_SHARED_SERVER="$info"
  else
    echo "[test-e2e] the shared code-server did not start: every file starts its own" >&2
    shared=""
  fi
fi
t3=$(date +%s)

status=0
mkdir -p test-output/times
timeout --kill-after=30 "${E2E_TOTAL_TIMEOUT:-1800}" \
  node --test --test-concurrency=1 --test-timeout=900000 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=./scripts/test-times.mjs --test-reporter-destination=test-output/times/e2e.tsv "${files[@]}" ||
  status=$?
t4=$(date +%s)
if [ -n "$shared" ]; then
  kill "$shared" 2>/dev/null || true
  wait "$shared" 2>/dev/null || true
fi

echo "[test-e2e] setup $((t1 - t0)) s, compile $((t2 - t1)) s, package and shared server $((t3 - t2)) s, tests $((t4 - t3)) s; screenshots in test-output/e2e/screenshots/" >&2
if [ $status = 0 ] && [ $pkg_status != 0 ]; then status=1; fi
exit $status
