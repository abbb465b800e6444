#!/bin/sh
# Builds the server (incrementally, into build/) and runs it in the foreground.
# Configured by environment variables only: see README.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
GO=${GO:-/usr/bin/go}
# Go's caches stay in build/: nothing is written elsewhere.
export GOCACHE="$here/build/cache" GOPATH="$here/build/gopath" GOFLAGS=-buildvcs=false GOPROXY=off GO111MODULE=on
cd "$here"
"$GO" build -o build/animal-store .
exec "$here/build/animal-store"
