#!/usr/bin/env bash
# npm run bench [-- options]: bundles bench/run.ts and bench/phase.ts with esbuild into bench/work/bundle/
# with the parallel reader's thread (readerWorker.js) beside them (gitignored, and not out/, which other
# scripts clean while a bench may be running; better-sqlite3 and @cortex-js/compute-engine stay
# external, as in the product's bundles) and runs the driver from the repository root.
# Options: see bench/run.ts (--preset small|full, --scale full|quarter, --skip ..., --out FILE).
# --shapes [--only a,b]: the cost-growth bench instead (bench/shapes.ts: many problems, checkpoints, models,
# scorers, a million samples); writes bench/shapes.json and bench/SHAPES.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-node.sh
node_modules/.bin/esbuild bench/run.ts bench/phase.ts bench/shapes.ts src/core/index/readerWorker.ts --bundle --platform=node --format=cjs \
  --target=node22 --external:better-sqlite3 --external:@cortex-js/compute-engine --outdir=bench/work/bundle --entry-names=[name] --log-level=warning \
  --alias:jsonc-parser=./node_modules/jsonc-parser/lib/esm/main.js
status=0
if [ "${1:-}" = --shapes ]; then
  shift
  node bench/work/bundle/shapes.js "$@" || status=$?
else
  node bench/work/bundle/run.js "$@" || status=$?
fi
# the files it wrote, formatted as biome (the lint of npm test) wants them
npx biome format --write bench/*.md bench/*.json >/dev/null 2>&1 || true
exit $status
