#!/usr/bin/env bash
# The main job: builds the VSIX and opens VS Code with the extension on the bundled example
# results folder. Uses the desktop `code` when installed; otherwise starts the web VS Code
# (code-server, installed by scripts/setup-e2e.sh) on 127.0.0.1 and prints its URL.
# Usage: npm run demo [-- <results folder>]   (PORT=8080 to choose the port)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
FOLDER="$(cd "${1:-examples/demo-results}" && pwd)"
VSIX="$(bash scripts/package.sh | tail -n 1)"
if command -v code >/dev/null 2>&1 && [ -z "${TRACE_INSPECTOR_WEB:-}" ]; then
  code --install-extension "$VSIX" --force
  exec code "$FOLDER"
fi
bash scripts/setup-e2e.sh
DEMO_DIR="$PWD/.tools/demo"
mkdir -p "$DEMO_DIR/user/User" "$DEMO_DIR/extensions"
# The demo window: no trust prompt, no welcome page, no AI chat panel (scripts/demo-settings.json).
cp scripts/demo-settings.json "$DEMO_DIR/user/User/settings.json"
CS="$PWD/.tools/code-server/node_modules/code-server/out/node/entry.js"
node "$CS" --install-extension "$VSIX" --force --extensions-dir "$DEMO_DIR/extensions" --user-data-dir "$DEMO_DIR/user" >/dev/null
PORT="${PORT:-8080}"
echo "Trace Inspector demo: open http://127.0.0.1:$PORT/?folder=$FOLDER"
exec node "$CS" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --user-data-dir "$DEMO_DIR/user" --extensions-dir "$DEMO_DIR/extensions" "$FOLDER"
