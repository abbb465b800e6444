#!/usr/bin/env bash
# Starts the Node server in the foreground (configured by the environment: see README.md).
# Its packages (lossless-json, rate-limiter-flexible) come from the repository's node_modules (npm ci).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -d "$here/../../../node_modules/lossless-json" ]; then
  echo "node server: run npm ci at the repository's root first (lossless-json is missing)" >&2
  exit 1
fi
exec node "$here/server.mjs"
