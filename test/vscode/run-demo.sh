#!/usr/bin/env bash
# `npm start`: builds, then starts the emulator with demo data and a real VS Code with RL Studio
# pointed at it (desktop VS Code when `code` exists, otherwise code-server in the browser, installed
# on first use). See test/vscode/demo.ts for the options.
set -euo pipefail
cd "$(dirname "$0")/../.."
node esbuild.mjs
exec node out/test/vscode/demo.js
