#!/usr/bin/env bash
# Builds the VSIX (universal: better-sqlite3 13 ships Node-API prebuilds for 8 platforms that load in
# VS Code >= 1.101 desktop, Remote-SSH and code-server; where none loads, e.g. glibc < 2.34, the extension
# uses Node's built-in node:sqlite, which needs nothing from the VSIX: docs/hosts.md).
# Output: trace-inspector.vsix in the repo root.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
rm -rf dist
node scripts/build.mjs --production
# Marketplace READMEs need absolute image URLs: with REPOSITORY_URL (the public repository, once there is
# one) vsce rewrites relative links and images to it; without, they stay relative (fine inside VS Code).
if [ -n "${REPOSITORY_URL:-}" ]; then
  links=(--baseContentUrl "${REPOSITORY_URL%/}/blob/HEAD/" --baseImagesUrl "${REPOSITORY_URL%/}/raw/HEAD/")
else
  links=(--no-rewrite-relative-links)
fi
npx vsce package "${links[@]}" --allow-missing-repository -o trace-inspector.vsix >&2
echo "$PWD/trace-inspector.vsix"
