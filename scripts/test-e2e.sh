#!/usr/bin/env bash
# End-to-end tests: a real VS Code workbench (code-server) in headless Chromium, driven by Playwright
# (test/e2e/harness.ts). Installs what it needs (scripts/setup-e2e.sh; --no-setup when the caller did, as
# scripts/test.sh does), compiles the tests to out/ unless they are up to date, packages the extension into
# a VSIX when the project has a packaging script (set E2E_VSIX=path to test a given VSIX instead), then runs
# the given compiled test files (default out/test/e2e/**/*.e2e.js) in E2E_LANES lanes (default 2), each lane one
# file at a time on its own code-server where the files can share it (test/e2e/sharedServer.ts).
# Artifacts: test-output/e2e/ (screenshots in test-output/e2e/screenshots/); per-file times in
# test-output/times/e2e.tsv.
# Environment: E2E_LANES (default 2), E2E_EXTRA_LANES_AFTER (a file: lanes after the first start once it exists),
# E2E_FILE_TIMEOUT (seconds per file, default 900), E2E_RETRIES (a failed file's reruns, default 1; a pass on a
# rerun is printed as flaky at the end, with the failed run's messages), E2E_TIMEOUT_SCALE,
# E2E_HEADED (see harness.ts).
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
# The files run in E2E_LANES lanes at once (default 2): an end-to-end file mostly waits (on the workbench, the
# extension host, its webviews), about a third of a core when it runs alone, so two lanes finish in a little more
# than half the time. Each lane has its own code-server with the VSIX installed once (test/e2e/sharedServer.ts:
# the files whose sessions would start that same server open their windows on it; its settings file is the
# lane's, so the files of a lane take turns) and takes the next file of one queue when its file ends. A lane
# whose server did not start runs its files on servers of their own.
shopt -s globstar nullglob
mapfile -t queue_files < <(for f in ${files[@]}; do echo "$f"; done)
shopt -u globstar nullglob
lanes="${E2E_LANES:-2}"
retries="${E2E_RETRIES:-1}"
[ "$retries" -ge 0 ] 2>/dev/null || retries=1
[ "$lanes" -ge 1 ] 2>/dev/null || lanes=1
[ "${#queue_files[@]}" -ge "$lanes" ] || lanes=${#queue_files[@]}
logs=test-output/e2e/files
rm -rf "$logs"
mkdir -p "$logs" test-output/times
servers=()
infos=()
for n in $(seq 1 "$lanes"); do
  infos[n]=""
  if [ -n "${E2E_VSIX:-}" ] && [ -z "${E2E_SHARED_SERVER:-}" ] && [ -f out/test/e2e/sharedServer.js ]; then
    info="$PWD/test-output/e2e/shared-server-$n.json"
    rm -f "$info"
    node out/test/e2e/sharedServer.js "$info" "$E2E_VSIX" "shared-server-$n" &
    servers[n]=$!
    infos[n]="$info"
  fi
done
for n in $(seq 1 "$lanes"); do
  [ -n "${infos[n]}" ] || continue
  while [ ! -s "${infos[n]}" ] && kill -0 "${servers[n]}" 2>/dev/null; do sleep 0.2; done
  if [ ! -s "${infos[n]}" ]; then
    echo "[test-e2e] lane $n: its shared code-server did not start: each of its files starts its own" >&2
    infos[n]=""
  fi
done
t3=$(date +%s)

queue="$logs/queue"
# the longest files first (times of an idle run, 20-65 s; the rest take 10-25 s), so that no lane starts a long
# file when the other is nearly done; files not named keep their order after them
slow_first=(themes preview keyboard restore perf problemView partialIndex extension rewardModels)
{
  for s in "${slow_first[@]}"; do printf '%s\n' "${queue_files[@]}" | grep "/$s\.e2e\.js$" || true; done
  printf '%s\n' "${queue_files[@]}" | grep -v -E "/($(IFS='|'; echo "${slow_first[*]}"))\.e2e\.js$" || true
} >"$queue"
# next_file: the first file of the queue, taken off it (under a lock: the lanes share the queue)
next_file() { flock "$queue.lock" bash -c 'f="$(head -n 1 "$1")"; [ -z "$f" ] || sed -i 1d "$1"; printf "%s" "$f"' _ "$queue"; }
lane() {
  local n=$1 f name rc
  # E2E_EXTRA_LANES_AFTER=<file>: lanes after the first wait for that file (scripts/test.sh makes it when the unit
  # suite, which fills both cores, has ended: a second lane beside it only slows every file and times some out)
  if [ "$n" -gt 1 ] && [ -n "${E2E_EXTRA_LANES_AFTER:-}" ]; then
    while [ ! -e "$E2E_EXTRA_LANES_AFTER" ] && [ -s "$queue" ]; do sleep 1; done
    [ -s "$queue" ] && echo "[test-e2e] lane $n starts (the unit suite has ended)" >&2
  fi
  while f="$(next_file)" && [ -n "$f" ]; do
    name="$(basename "$f" .js)"
    for attempt in $(seq 0 "$retries"); do
      rc=0
      E2E_SHARED_SERVER="${infos[n]:-${E2E_SHARED_SERVER:-}}" timeout --kill-after=30 "${E2E_FILE_TIMEOUT:-900}" \
        node --test --test-timeout=900000 \
        --test-reporter=spec --test-reporter-destination=stdout \
        --test-reporter=./scripts/test-times.mjs --test-reporter-destination="$logs/$name.tsv" "$f" \
        >"$logs/$name.log" 2>&1 || rc=$?
      [ "$rc" != 0 ] || break
      [ "$attempt" -lt "$retries" ] || break
      # a failed file runs again once (E2E_RETRIES): a real fault fails both times; a pass on the retry is
      # reported as flaky at the end with the first run's failures, never hidden
      mv "$logs/$name.log" "$logs/$name.failed-run.log"
      echo "$name" >>"$logs/flaky"
      echo "[test-e2e] lane $n: $name FAILED ($rc), runs again (E2E_RETRIES=$retries); its first failures:" >&2
      grep -a -m 3 '^\[e2e\] FAIL ' "$logs/$name.failed-run.log" | cut -c 1-900 | sed 's|^|  |' >&2 || true
    done
    echo "$rc" >"$logs/$name.rc"
    # the file's test output whole, one file at a time
    flock "$logs/print.lock" bash -c 'cat "$1"; echo "[test-e2e] lane $2: $3 $4 ($5 s)" >&2' _ "$logs/$name.log" "$n" \
      "$name" "$([ "$rc" = 0 ] && echo ok || echo "FAILED ($rc)")" "$(cut -f 1 "$logs/$name.tsv" 2>/dev/null | head -n 1)"
  done
}
pids=()
for n in $(seq 1 "$lanes"); do
  lane "$n" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
t4=$(date +%s)
for n in "${!servers[@]}"; do
  kill "${servers[n]}" 2>/dev/null || true
  wait "${servers[n]}" 2>/dev/null || true
done

status=0
failed=()
for f in "${queue_files[@]}"; do
  name="$(basename "$f" .js)"
  if [ "$(cat "$logs/$name.rc" 2>/dev/null || echo missing)" != 0 ]; then
    status=1
    failed+=("$name")
  fi
done
cat "$logs"/*.tsv 2>/dev/null | sort -t $'\t' -k 1,1nr >test-output/times/e2e.tsv || true
if [ -s "$logs/flaky" ]; then
  for name in $(sort -u "$logs/flaky"); do
    [ "$(cat "$logs/$name.rc")" = 0 ] || continue
    echo "[test-e2e] flaky: $name failed, then passed on its retry; the failed run's first failures (whole log: $logs/$name.failed-run.log):" >&2
    grep -a -m 3 '^\[e2e\] FAIL ' "$logs/$name.failed-run.log" | cut -c 1-900 | sed 's|^|  |' >&2 || true
  done
fi
if [ ${#failed[@]} != 0 ]; then
  echo "[test-e2e] failed: ${failed[*]} (their output above; test-output/e2e/files/<file>.log); their first failures:" >&2
  # the lines the harness's reportFailure wrote, the first of each file's (a later test often fails because an earlier one did)
  for name in "${failed[@]}"; do grep -a -m 3 '^\[e2e\] FAIL ' "$logs/$name.log" | cut -c 1-900 | sed "s|^|  $name: |" >&2 || true; done
fi

echo "[test-e2e] setup $((t1 - t0)) s, compile $((t2 - t1)) s, package and shared servers $((t3 - t2)) s, tests $((t4 - t3)) s in $lanes lanes; screenshots in test-output/e2e/screenshots/" >&2
if [ $status = 0 ] && [ $pkg_status != 0 ]; then status=1; fi
exit $status
