# Source this file: puts Node >= 22.14 first on PATH, installing it from the npm registry
# into .tools/node22 when the machine's Node is older (better-sqlite3 13 needs Node-API 10).
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=14)?0:1)'
}
if ! _node_ok; then
  if [ ! -x "$_root/.tools/node22/node_modules/.bin/node" ]; then
    echo "[setup] installing Node 22 into .tools/node22 (machine has $(node --version 2>/dev/null || echo none))" >&2
    npm install --prefix "$_root/.tools/node22" --no-audit --no-fund node@22 >&2
  fi
  export PATH="$_root/.tools/node22/node_modules/.bin:$PATH"
fi
_node_ok || { echo "[setup] could not get Node >= 22.14" >&2; return 1 2>/dev/null || exit 1; }
# npm ci when node_modules is missing or older than the lock file; a node_modules that is a symbolic link (a git
# worktree sharing another checkout's) is left alone: npm ci there would empty the folder the others are using
if [ ! -L "$_root/node_modules" ] && { [ ! -d "$_root/node_modules" ] || [ "$_root/package-lock.json" -nt "$_root/node_modules/.package-lock.json" ]; }; then
  echo "[setup] npm ci" >&2
  (cd "$_root" && npm ci --no-audit --no-fund >&2)
fi
unset -f _node_ok
