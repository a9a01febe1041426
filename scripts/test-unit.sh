#!/usr/bin/env bash
# Compiles the TypeScript sources and tests, then runs every unit and integration test with node's test runner.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
rm -rf out
npx tsc -p .
node --test --test-reporter=spec "out/test/unit/**/*.test.js"
