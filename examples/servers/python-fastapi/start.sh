#!/usr/bin/env bash
# Starts the FastAPI server in the foreground (configured by the environment: see README.md).
# Debian's python3 (/usr/bin/python3) has FastAPI, pydantic, uvicorn and limits; bytecode goes to build/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export PYTHONPYCACHEPREFIX="$here/build/pycache"
cd "$here"
exec /usr/bin/python3 serve.py
