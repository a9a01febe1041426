#!/usr/bin/env bash
# The README's test command: sets up everything on a fresh machine and runs every suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
# formatting and lint first: an unformatted file or a lint error fails the run (biome.json)
npx biome check .
npm run build
bash scripts/test-unit.sh
if [ -f scripts/test-e2e.sh ] && ls test/e2e/*.e2e.ts >/dev/null 2>&1; then
  bash scripts/test-e2e.sh
fi
