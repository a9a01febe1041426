#!/usr/bin/env bash
# npm run bench:e2e [-- --runs N]: the problem view's and the preview's speed in a real VS Code, at the size the
# targets are stated for (test/e2e/perf.e2e.ts with E2E_PERF=full: 3 problems x 1024 samples x 2 models, plus a
# 300,000-character sample), N runs one after the other (default 1; the machine's load moves every figure, so
# compare medians). The first run sets up, compiles and packages as scripts/test-e2e.sh does; every run's
# test-output/e2e/perf.json is kept as bench/work/e2e-perf/run-<i>.json. Prints each run's figures (seconds;
# stalls in ms) and their medians. Not part of npm test, which runs the same steps on 64 samples per model.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2 && shift ;;
    *) echo "usage: npm run bench:e2e -- [--runs N]" >&2 && exit 2 ;;
  esac
  shift
done
out=bench/work/e2e-perf
rm -rf "$out"
mkdir -p "$out"
for i in $(seq 1 "$runs"); do
  echo "[bench:e2e] run $i of $runs" >&2
  if [ "$i" = 1 ]; then
    E2E_PERF=full bash scripts/test-e2e.sh out/test/e2e/perf.e2e.js
  else
    E2E_PERF=full E2E_VSIX="$PWD/trace-inspector.vsix" bash scripts/test-e2e.sh --no-setup out/test/e2e/perf.e2e.js
  fi
  cp test-output/e2e/perf.json "$out/run-$i.json"
done
source scripts/ensure-node.sh
node - "$out" "$runs" <<'EOF'
const fs = require('node:fs');
const [dir, n] = process.argv.slice(2);
const runs = Array.from({ length: Number(n) }, (_, i) => JSON.parse(fs.readFileSync(`${dir}/run-${i + 1}.json`, 'utf8')));
const s = (ms) => (ms === undefined ? '-' : (ms / 1000).toFixed(2));
const columns = {
  'chart, first open': (r) => s(r.problemView?.chartMs),
  'chart, 2nd problem': (r) => s(r.problemViewWithLongSample?.chartMs),
  'chart, after 1 s look': (r) => s(r.problemViewAfterSelection?.chartMs),
  'list, first open': (r) => s(r.problemView?.similarityMsFirstTime),
  'list, 2nd problem': (r) => s(r.problemViewWithLongSample?.similarityMsFirstTime),
  'stall ms: open / long / preview': (r) =>
    [r.problemView, r.longSampleInProblemView, r.longSampleInPreview].map((x) => x?.maxStallMs ?? '-').join(' / '),
  'stall ms, 300k sample: Rendered tab / text tab / preview scroll': (r) =>
    [r.longSampleRenderedTab, r.longSampleTextTab, r.longSampleScrollInPreview]
      .map((x) => x?.maxStallMs ?? '-')
      .join(' / '),
  'restore s: problem view / preview (from activation)': (r) =>
    [r.restore?.problemViewMs, r.restore?.previewMs].map(s).join(' / '),
  load: (r) => r.machine?.loadAverage1m ?? '-',
};
const rows = runs.map((r, i) => [`run ${i + 1}`, ...Object.values(columns).map((f) => String(f(r)))]);
const median = (xs) => {
  const v = xs.map(Number).filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return v.length ? String(v[Math.floor((v.length - 1) / 2)]) : '-';
};
// the columns of several figures each have no median
const several = Object.keys(columns).map((k) => k.includes(' / '));
rows.push(['median', ...Object.values(columns).map((_, c) => (several[c] ? '' : median(rows.map((r) => r[c + 1]))))]);
const head = ['', ...Object.keys(columns)];
const width = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
for (const r of [head, ...rows]) console.log(r.map((x, c) => x.padEnd(width[c])).join('  '));
EOF
