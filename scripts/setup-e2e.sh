#!/usr/bin/env bash
# Installs what the end-to-end tests need, idempotently:
#   - Debian packages `chromium` (the browser Playwright drives) and `ripgrep` (VS Code's search);
#   - code-server (a real VS Code workbench whose extension host is plain Node 22) into
#     .tools/code-server, following /work/shared/notes/toolchain-facts.md (its own postinstall
#     downloads from GitHub, which fails offline, so each step is done by hand).
# A marker file records a completed install per version; a second run takes well under a second.
# `--packages`: the Debian packages only (no Node needed: scripts/test.sh runs it beside `npm ci`).
# Environment: CODE_SERVER_VERSION (default 4.117.0).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
packages_only=0
[ "${1:-}" = --packages ] && packages_only=1

CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.117.0}"
tools="$root/.tools/code-server"
# bump RECIPE when the steps below change, so existing installs are redone
RECIPE=2
marker="$tools/.installed-$CODE_SERVER_VERSION-r$RECIPE"
t0=$(date +%s)
log() { echo "[setup-e2e] $*" >&2; }

# ---- Debian packages -------------------------------------------------------------------------
need_pkgs=()
[ -x /usr/bin/chromium ] || need_pkgs+=(chromium)
command -v rg >/dev/null 2>&1 || need_pkgs+=(ripgrep)
# native modules of VS Code's server are compiled by node-gyp (headers come with the Node 22 package)
command -v make >/dev/null 2>&1 || need_pkgs+=(make)
command -v g++ >/dev/null 2>&1 || need_pkgs+=(g++)
command -v python3 >/dev/null 2>&1 || need_pkgs+=(python3)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  sudo_cmd=""
  if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi
  # apt-get update only when a package has no install candidate (empty or stale lists).
  needs_update=0
  for p in "${need_pkgs[@]}"; do
    if ! apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]'; then needs_update=1; fi
  done
  if [ "$needs_update" = 1 ]; then
    log "apt-get update"
    $sudo_cmd apt-get update -q >&2
  fi
  log "apt-get install ${need_pkgs[*]}"
  if ! $sudo_cmd apt-get install -y -q --no-install-recommends "${need_pkgs[@]}" >&2; then
    log "install failed; retrying after apt-get update"
    $sudo_cmd apt-get update -q >&2
    $sudo_cmd apt-get install -y -q --no-install-recommends "${need_pkgs[@]}" >&2
  fi
fi
[ -x /usr/bin/chromium ] || { log "chromium missing after install"; exit 1; }
command -v rg >/dev/null 2>&1 || { log "ripgrep missing after install"; exit 1; }
[ $packages_only = 0 ] || exit 0
source scripts/ensure-node.sh

# ---- code-server ----------------------------------------------------------------------------
if [ -f "$marker" ]; then
  log "code-server $CODE_SERVER_VERSION already installed ($(( $(date +%s) - t0 )) s)"
  exit 0
fi

log "installing code-server $CODE_SERVER_VERSION into .tools/code-server"
rm -rf "$tools"
mkdir -p "$tools"
echo '{"name":"code-server-e2e","private":true}' > "$tools/package.json"
npm_q=(--no-audit --no-fund --loglevel=error)

# 1. the package itself, without its postinstall (which downloads from GitHub)
(cd "$tools" && npm install "${npm_q[@]}" --ignore-scripts "code-server@$CODE_SERVER_VERSION" >&2)
cs="$tools/node_modules/code-server"
vs="$cs/lib/vscode"
[ -d "$vs" ] || { log "unexpected layout: $vs missing"; exit 1; }

# 2. VS Code's own runtime dependencies, native modules rebuilt for this Node
(cd "$vs" && npm install "${npm_q[@]}" --omit=dev --ignore-scripts >&2)
(cd "$vs" && npm_config_yes=true npm rebuild "${npm_q[@]}" \
  node-pty @parcel/watcher @vscode/spdlog @vscode/native-watchdog @vscode/deviceid >&2)
for f in "node-pty/prebuilds/linux-$(node -p process.arch)" @vscode/spdlog/build/Release/spdlog.node \
         @vscode/native-watchdog/build/Release/watchdog.node; do
  [ -e "$vs/node_modules/$f" ] || { log "native module missing after rebuild: $f"; exit 1; }
done

# 3. ripgrep: the package's script downloads from GitHub; use Debian's binary instead
mkdir -p "$vs/node_modules/@vscode/ripgrep/bin"
cp "$(command -v rg)" "$vs/node_modules/@vscode/ripgrep/bin/rg"
chmod +x "$vs/node_modules/@vscode/ripgrep/bin/rg"

# 4. VS Code looks for node_modules.asar at runtime
[ -e "$vs/node_modules.asar" ] || ln -s node_modules "$vs/node_modules.asar"

# 5. the built-in extensions' dependencies
(cd "$vs/extensions" && npm install "${npm_q[@]}" --omit=dev --ignore-scripts >&2)

# 6. code-server's password hashing module
(cd "$cs" && npm_config_yes=true npm rebuild "${npm_q[@]}" argon2 >&2)

# smoke check: the server starts far enough to print its version
XDG_CONFIG_HOME="$tools/.config" XDG_DATA_HOME="$tools/.data" "$(command -v node)" "$cs/out/node/entry.js" --version >&2

touch "$marker"
log "code-server $CODE_SERVER_VERSION installed in $(( $(date +%s) - t0 )) s"
