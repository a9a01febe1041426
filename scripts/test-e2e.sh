#!/usr/bin/env bash
# End-to-end tests: a real VS Code workbench (code-server) in headless Chromium, driven by Playwright
# (test/e2e/harness.ts). Installs what it needs (scripts/setup-e2e.sh), compiles the tests to out/
# unless scripts/test-unit.sh already did, packages the extension into a VSIX when the project has a
# packaging script (set E2E_VSIX=path to test a given VSIX instead), then runs out/test/e2e/**/*.e2e.js
# one file at a time. Artifacts: test-output/e2e/ (screenshots in test-output/e2e/screenshots/).
# Environment: E2E_TOTAL_TIMEOUT (seconds, default 1800), E2E_TIMEOUT_SCALE, E2E_HEADED (see harness.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh

t0=$(date +%s)
bash scripts/setup-e2e.sh
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
if [ -z "${E2E_VSIX:-}" ] && [ -f scripts/package.sh ] && [ -f src/extension/extension.ts ]; then
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
t3=$(date +%s)

status=0
timeout --kill-after=30 "${E2E_TOTAL_TIMEOUT:-1800}" \
  node --test --test-concurrency=1 --test-timeout=900000 --test-reporter=spec "out/test/e2e/**/*.e2e.js" || status=$?
t4=$(date +%s)

echo "[test-e2e] setup $((t1 - t0)) s, compile $((t2 - t1)) s, package $((t3 - t2)) s, tests $((t4 - t3)) s; screenshots in test-output/e2e/screenshots/" >&2
if [ $status = 0 ] && [ $pkg_status != 0 ]; then status=1; fi
exit $status
