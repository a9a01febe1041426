#!/usr/bin/env bash
# The README's test command: sets up everything on a fresh machine, runs every suite, then prints where the
# time went (each phase's start and duration, each end-to-end file, the slowest unit test files, the load).
# Order, to keep both cores busy (docs/testing.md):
#   1. Node 22 and npm ci (scripts/ensure-node.sh), and beside them the e2e branch's Debian packages (Chromium);
#   2. in the background, the end-to-end branch: its setup (scripts/setup-e2e.sh: Chromium, code-server;
#      mostly downloads), then, once out/ is compiled, the end-to-end suite (scripts/test-e2e.sh) in one lane,
#      and in two once the unit suite has ended;
#   3. meanwhile biome (lint and format); the VSIX (scripts/package.sh: its production bundles in dist/ are the
#      ones the unit tests use, so nothing is bundled twice); tsc compiles out/ (once, for both suites); the
#      unit suite (scripts/test-unit.sh).
# The end-to-end output goes to test-output/times/e2e.log and is shown after the unit suite's, then live.
# Fails if any step fails; the summary is printed either way.
set -euo pipefail
cd "$(dirname "$0")/.."
times=test-output/times
rm -rf "$times"
mkdir -p "$times"
started=$(date +%s)
load_at_start=$(cut -d ' ' -f 1 /proc/loadavg)
# busy_cs: the machine's CPU time so far, all cores, in hundredths of a second (/proc/stat: all but idle and iowait)
busy_cs() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
busy_at_start=$(busy_cs)

# record NAME START_EPOCH STATUS: a line of $times/phases.tsv (name, start s, duration s, exit status)
record() { printf '%s\t%s\t%s\t%s\n' "$1" $(($2 - started)) $(($(date +%s) - $2)) "$3" >>"$times/phases.tsv"; }
# phase NAME COMMAND...: runs the command and records it; returns its status
phase() {
  local name=$1 t0 rc=0
  shift
  t0=$(date +%s)
  "$@" || rc=$?
  record "$name" "$t0" "$rc"
  return $rc
}

summary() {
  local rc=$?
  trap - EXIT
  {
    echo
    echo "[ci] where the time went: wall seconds on $(nproc) cores, 1-minute load average $load_at_start at the start, $(cut -d ' ' -f 1 /proc/loadavg) at the end (other work on the machine slows every figure)"
    printf '  %-66s %6s %6s %s\n' phase start took status
    [ -f "$times/phases.tsv" ] && while IFS=$'\t' read -r name start took st; do
      printf '  %-66s %6s %6s %s\n' "$name" "$start" "$took" "$([ "$st" = 0 ] && echo ok || echo "FAILED ($st)")"
    done < <(sort -t $'\t' -k 2,2n "$times/phases.tsv")
    if [ -s "$times/e2e.tsv" ]; then
      echo "  end-to-end files (each with its workbench start; in run order):"
      # e2e.tsv is slowest first; the files ran in path order
      sort -k2 "$times/e2e.tsv" | while IFS=$'\t' read -r s f; do printf '    %-64s %13s\n' "${f##*/}" "$s"; done
    fi
    for pass in pass1 pass2; do
      [ -s "$times/unit-$pass.tsv" ] || continue
      echo "  slowest unit test files, $pass (seconds, two files at a time): $(head -n 5 "$times/unit-$pass.tsv" | awk -F '\t' '{ sub(/^out\/test\/unit\//, "", $2); printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 }')"
    done
    printf '  %-66s %6s %6s %s\n' total 0 $(($(date +%s) - started)) "$([ $rc = 0 ] && echo ok || echo "FAILED ($rc)")"
    local wall=$(($(date +%s) - started)) busy=$((($(busy_cs) - busy_at_start) / 100))
    echo "  CPU: $busy s busy of $((wall * $(nproc))) s on $(nproc) cores ($((100 * busy / (wall * $(nproc) + 1)))%; every process on the machine)"
  } >&2
  exit $rc
}
trap summary EXIT

# The end-to-end branch's Debian packages (Chromium: a download and an install of 100 MB) beside Node and npm ci:
# they need neither, and on a bare machine they would otherwise hold the e2e suite back by a minute
packages_rc="$times/packages.rc"
if [ -f scripts/setup-e2e.sh ] && ls test/e2e/*.e2e.ts >/dev/null 2>&1; then
  (
    t0=$(date +%s)
    rc=0
    bash scripts/setup-e2e.sh --packages >"$times/packages.log" 2>&1 || rc=$?
    record "e2e packages: Chromium (background)" "$t0" "$rc"
    echo "$rc" >"$packages_rc"
  ) &
else
  echo 0 >"$packages_rc"
fi

t0=$(date +%s)
source scripts/ensure-node.sh
record "setup: Node 22, npm ci" "$t0" 0

# The end-to-end branch, in the background from here: its setup (mostly downloads), then, once out/ is
# compiled, the suite on the VSIX the main branch built meanwhile ($times/vsix; empty if packaging failed).
e2e_branch() {
  # the packages first (started beside npm ci); setup-e2e.sh installs them itself if that failed
  until [ -s "$packages_rc" ]; do sleep 1; done
  cat "$times/packages.log" 2>/dev/null || true
  phase "e2e setup: code-server (background)" bash scripts/setup-e2e.sh || return
  until [ -s "$times/compiled" ]; do sleep 1; done
  [ "$(cat "$times/compiled")" = 0 ] || return 1
  local vsix
  vsix="$(cat "$times/vsix")"
  if [ -f "$vsix" ]; then
    export E2E_VSIX="$vsix"
  else
    export E2E_VSIX_ERROR="npm run package failed (see its output at the start of the log)"
  fi
  # one lane while the unit suite fills both cores, two once it has ended
  export E2E_EXTRA_LANES_AFTER="$times/unit-done"
  phase "e2e tests (background)" bash scripts/test-e2e.sh --no-setup
}
e2e=0
if [ -f scripts/test-e2e.sh ] && ls test/e2e/*.e2e.ts >/dev/null 2>&1; then
  e2e_branch >"$times/e2e.log" 2>&1 &
  e2e=$!
fi

status=0
# formatting and lint first: an unformatted file or a lint error fails the run (biome.json)
phase "lint: biome check" npx biome check . || status=1
# The VSIX and the production bundles in dist/. A packaging failure fails the run, but the suites still run:
# the end-to-end tests that need the VSIX fail with the reason (harness.defaultVsixPath()).
package() { bash scripts/package.sh | tail -n 1 >"$times/vsix" && [ -f "$(cat "$times/vsix")" ]; }
phase "build: bundles (production) and VSIX" package || status=1

compiled=0
phase "compile: tsc (out/, both suites)" bash -c 'rm -rf out && npx tsc -p .' || compiled=$?
echo "$compiled" >"$times/compiled"
if [ "$compiled" = 0 ]; then
  phase "unit tests, pass 1: better-sqlite3, every file" bash scripts/test-unit.sh --no-compile --pass 1 || status=1
  phase "unit tests, pass 2: node:sqlite, the files that open a database" \
    bash scripts/test-unit.sh --no-compile --pass 2 || status=1
else
  status=1
fi

touch "$times/unit-done"

if [ "$e2e" != 0 ]; then
  echo "[test] the end-to-end branch, running since the setup: its output so far, then live" >&2
  tail -n +1 -f --pid="$e2e" "$times/e2e.log"
  wait "$e2e" || status=1
fi
exit $status
