#!/usr/bin/env bash
# The example servers of examples/servers/<stack>/ (see README.md):
#   run.sh install                     install each stack's Debian packages that are missing (apt-get)
#   run.sh start <stack> [VAR=value…]  start one in the foreground (HOST, PORT, WINDOW_MS, DAY_MS, API_KEY_*…)
#   run.sh check <stack>               exit 0 when it can run here, else print why (exit 1)
#   run.sh certify <stack>|all [-- suite flags…]
#                                      certify it (them) with the suite under --profile full on a short
#                                      window and day; prints each stack's verdict; exit 1 unless every
#                                      stack that could run is CERTIFIED (a stack without its directory or
#                                      toolchain is skipped with the reason); CERTIFY_JOBS=N certifies N
#                                      stacks side by side (default 1)
# Every server it starts listens on 127.0.0.1 and is stopped when its certification ends, whatever happens.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
STACKS=(python-fastapi node go java-jackson)

# The short world of a certification: 60 requests per 2 s window and 1,000 per 60 s day (the Free plan's
# numbers) — the daily scenario spends a whole day's quota within one day. Overridable from the environment.
WINDOW_MS_CERTIFY="${CERTIFY_WINDOW_MS:-2000}"
DAY_MS_CERTIFY="${CERTIFY_DAY_MS:-60000}"
START_TIMEOUT_S="${CERTIFY_START_TIMEOUT_S:-180}" # a first javac or go build on a busy 2-core machine
SEED="${CERTIFY_SEED:-20261126}"                  # the exploration's seed: the same requests on every run
FREE_KEY="${API_KEY_FREE:-as_demo_free_5f1c9e27a8b34d60}"

die() { echo "run.sh: $*" >&2; exit 2; }

# The Debian packages of a stack (node: none, its packages come from npm ci).
packages() {
  case "$1" in
    python-fastapi) echo "python3 python3-fastapi python3-uvicorn python3-pydantic python3-limits" ;;
    node) echo "" ;;
    go) echo "golang-go" ;;
    java-jackson) echo "default-jdk-headless libjackson2-databind-java" ;;
  esac
}

# Why a stack cannot run here (empty when it can).
missing_toolchain() {
  case "$1" in
    python-fastapi)
      /usr/bin/python3 -c 'import fastapi, uvicorn, pydantic, limits' >/dev/null 2>&1 ||
        echo "Debian's python3 lacks fastapi, uvicorn, pydantic or limits (run.sh install)" ;;
    node)
      command -v node >/dev/null || { echo "node is not on PATH"; return; }
      [ -d "$root/node_modules/lossless-json" ] && [ -d "$root/node_modules/rate-limiter-flexible" ] ||
        echo "lossless-json or rate-limiter-flexible missing (npm ci at the repository's root)" ;;
    go) command -v go >/dev/null || echo "go is not on PATH (run.sh install: golang-go)" ;;
    java-jackson)
      command -v javac >/dev/null || { echo "javac is not on PATH (run.sh install: default-jdk-headless)"; return; }
      ls /usr/share/java/jackson-databind*.jar >/dev/null 2>&1 ||
        echo "no Jackson jars in /usr/share/java (run.sh install: libjackson2-databind-java)" ;;
  esac
}

is_stack() { local s; for s in "${STACKS[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
present() { [ -f "$here/$1/start.sh" ]; }

cmd_install() {
  local want=() s p
  for s in "${STACKS[@]}"; do
    present "$s" || continue
    for p in $(packages "$s"); do
      dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || want+=("$p")
    done
  done
  if [ ${#want[@]} -eq 0 ]; then
    echo "run.sh: every stack's Debian packages are installed"
    return 0
  fi
  echo "run.sh: installing ${want[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if [ "$(id -u)" -ne 0 ]; then
    echo "run.sh: cannot install ${want[*]}: apt-get needs root" >&2
    return 1
  fi
  apt-get update -qq >/dev/null 2>&1 || true # an old list may still do
  if ! apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null 2>&1; then
    echo "run.sh: cannot install ${want[*]}: apt-get install failed" >&2
    return 1
  fi
}

cmd_check() {
  local stack="${1:-}" why
  is_stack "$stack" || die "unknown stack '${stack}'; stacks: ${STACKS[*]}"
  present "$stack" || { echo "no examples/servers/$stack/start.sh on this branch"; return 1; }
  why="$(missing_toolchain "$stack")"
  [ -z "$why" ] || { echo "$why"; return 1; }
}

cmd_start() {
  local stack="${1:-}"
  is_stack "$stack" || die "unknown stack '${stack}'; stacks: ${STACKS[*]}"
  present "$stack" || die "no $stack server here (examples/servers/$stack/start.sh)"
  shift
  local why
  why="$(missing_toolchain "$stack")"
  [ -z "$why" ] || die "$stack cannot start: $why"
  exec env "$@" bash "$here/$stack/start.sh"
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

server_pid=""
stop_server() {
  [ -n "$server_pid" ] || return 0
  # start.sh runs in a session of its own (setsid): its build steps and the server stop together.
  kill -TERM -- "-$server_pid" 2>/dev/null
  local i
  for i in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
  kill -KILL -- "-$server_pid" 2>/dev/null
  wait "$server_pid" 2>/dev/null
  server_pid=""
}
suite_pid=""
stop_suite() {
  [ -n "$suite_pid" ] || return 0
  kill -TERM "$suite_pid" 2>/dev/null # npm passes it on: the suite stops and writes its reports
  wait "$suite_pid" 2>/dev/null
  suite_pid=""
}
trap 'stop_suite; stop_server' EXIT
trap 'stop_suite; stop_server; exit 130' INT TERM

# Starts a stack on a free port and waits for its "listening on" line; sets base_url.
base_url=""
start_for_certify() {
  local stack="$1" log="$2" port i
  port="$(free_port)" || return 1
  HOST=127.0.0.1 PORT="$port" WINDOW_MS="$WINDOW_MS_CERTIFY" DAY_MS="$DAY_MS_CERTIFY" API_KEY_FREE="$FREE_KEY" \
    setsid bash "$here/$stack/start.sh" >"$log" 2>&1 </dev/null &
  server_pid=$!
  for i in $(seq 1 $((START_TIMEOUT_S * 5))); do
    if grep -q "^listening on http://127.0.0.1:$port/v1" "$log"; then
      base_url="http://127.0.0.1:$port/v1"
      return 0
    fi
    kill -0 "$server_pid" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

# Certifies one stack; prints its verdict line; returns 0 (CERTIFIED), 1 (not) or 3 (skipped).
certify_one() {
  local stack="$1"; shift
  local reports="$root/reports/stacks/$stack" why url code outcome t0 secs
  if ! present "$stack"; then echo "$stack: skipped (no examples/servers/$stack/start.sh on this branch)"; return 3; fi
  why="$(missing_toolchain "$stack")"
  if [ -n "$why" ]; then echo "$stack: skipped ($why)"; return 3; fi
  rm -rf "$reports" && mkdir -p "$reports"
  t0=$SECONDS
  if ! start_for_certify "$stack" "$reports/server.log"; then
    printf '%s\n' "$stack: NOT CERTIFIED (the server printed no 'listening on' line within ${START_TIMEOUT_S} s; $reports/server.log:)
$(tail -n 20 "$reports/server.log" | sed 's/^/    /')"
    stop_server
    return 1
  fi
  url="$base_url"
  echo "$stack: certifying $url (window ${WINDOW_MS_CERTIFY} ms, day ${DAY_MS_CERTIFY} ms, seed $SEED)…"
  # In the background and waited for: a signal to run.sh is handled at once (stop_suite), not after the run.
  (cd "$root" && ANIMAL_STORE_API_KEY="$FREE_KEY" exec npm start --silent -- --base-url "$url" --plan free --profile full \
    --allow-daily --window-ms "$WINDOW_MS_CERTIFY" --day-ms "$DAY_MS_CERTIFY" --engine node --seed "$SEED" \
    --reports-dir "$reports" --no-progress "$@") >"$reports/suite.log" 2>&1 &
  suite_pid=$!
  wait "$suite_pid"
  code=$?
  suite_pid=""
  stop_server
  secs=$((SECONDS - t0))
  outcome="$(node -e 'try{console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).outcome)}catch{console.log("no report")}' "$reports/certification.json")"
  if [ "$code" -eq 0 ] && [ "$outcome" = "certified" ]; then
    echo "$stack: CERTIFIED in ${secs} s — $(grep -m1 ' failed · ' "$reports/suite.log" | sed 's/^ *//')"
    return 0
  fi
  # One write, so that stacks certified side by side do not interleave their lines.
  printf '%s\n' "$stack: NOT CERTIFIED (exit $code, outcome $outcome) in ${secs} s; reports in $reports:
$(sed -n '/^animal-store certification:/,$p' "$reports/suite.log" | head -n 40 | sed 's/^/    /')"
  return 1
}

# One stack's certification in the background (CERTIFY_JOBS > 1): its own server, its exit code in a file.
lane() {
  local stack="$1" rcfile="$2"; shift 2
  trap 'stop_suite; stop_server' EXIT
  trap 'stop_suite; stop_server; exit 130' INT TERM
  certify_one "$stack" "$@"
  echo $? >"$rcfile"
}

cmd_certify() {
  local target="${1:-}"; [ -n "$target" ] || die "usage: run.sh certify <stack>|all [-- suite flags…]"
  shift
  [ "${1:-}" = "--" ] && shift
  local list=() s failed=0 rc jobs="${CERTIFY_JOBS:-1}" rcdir
  if [ "$target" = all ]; then list=("${STACKS[@]}"); else
    is_stack "$target" || die "unknown stack '$target'; stacks: ${STACKS[*]} or all"
    list=("$target")
  fi
  [[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "CERTIFY_JOBS must be a positive integer, not '$jobs'"
  command -v node >/dev/null || die "node is not on PATH (the suite runs on Node)"
  if [ "$jobs" -eq 1 ]; then
    for s in "${list[@]}"; do
      certify_one "$s" "$@"
      rc=$?
      [ "$rc" -eq 1 ] && failed=1
    done
    return "$failed"
  fi
  # Side by side: each stack's lines are printed as they come (one write each), its verdict last.
  rcdir="$(mktemp -d)"
  trap 'kill -TERM $(jobs -p) 2>/dev/null; wait; rm -rf "$rcdir"; exit 130' INT TERM
  for s in "${list[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    lane "$s" "$rcdir/$s" "$@" &
  done
  wait
  for s in "${list[@]}"; do
    rc="$(cat "$rcdir/$s" 2>/dev/null || echo 1)"
    [ "$rc" -eq 1 ] && failed=1
  done
  rm -rf "$rcdir"
  return "$failed"
}

case "${1:-}" in
  install) cmd_install ;;
  check) shift; cmd_check "$@" ;;
  start) shift; cmd_start "$@" ;;
  certify) shift; cmd_certify "$@" ;;
  *) die "usage: run.sh install | check <stack> | start <stack> [VAR=value…] | certify <stack>|all [-- suite flags…]" ;;
esac
