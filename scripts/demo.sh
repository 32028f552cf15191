#!/usr/bin/env bash
# `make demo`: build everything, start the demo API on a free port, run the example suites against it, stop the
# server whatever happens, and exit with apitest's exit code (0 all passed, 1 a test failed, 2 invalid suite or
# usage, 3 runtime error). Extra arguments go to `apitest run`, e.g. scripts/demo.sh --verbose.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

"$root/scripts/install-deps.sh"

echo "demo: swift build"
swift build

demo_bin="$root/.build/debug/apitest-demo"
apitest_bin="$root/.build/debug/apitest"
for bin in "$demo_bin" "$apitest_bin"; do
    if [[ ! -x "$bin" ]]; then
        echo "demo: $bin was not built" >&2
        exit 3
    fi
done

workdir="$(mktemp -d "${TMPDIR:-/tmp}/apitest-demo.XXXXXX")"
server_log="$workdir/server.log"
server_pid=""

# shellcheck disable=SC2317 # called from the trap
stop_server() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$server_pid" 2>/dev/null; then
            echo "demo: apitest-demo did not stop on SIGTERM; killing it" >&2
            kill -KILL "$server_pid" 2>/dev/null || true
        fi
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}
# shellcheck disable=SC2317 # called from the trap
cleanup() {
    stop_server
    rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# stdbuf: the line we wait for must reach the log file now, not when a block-buffered stdout fills.
stdbuf -oL "$demo_bin" --port 0 >"$server_log" 2>"$workdir/server.err" </dev/null &
server_pid=$!

port=""
for _ in $(seq 1 300); do # up to 30 s
    line="$(grep -m1 -E '^apitest-demo listening on http://127\.0\.0\.1:[0-9]+' "$server_log" 2>/dev/null || true)"
    if [[ -n "$line" ]]; then
        port="${line##*:}"
        port="${port%%[!0-9]*}"
        break
    fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
        wait "$server_pid" && status=0 || status=$?
        server_pid=""
        echo "demo: apitest-demo exited (status $status) before announcing its port. Its output:" >&2
        cat "$server_log" "$workdir/server.err" >&2
        exit 3
    fi
    sleep 0.1
done
if [[ -z "$port" ]]; then
    echo "demo: apitest-demo did not print 'apitest-demo listening on http://127.0.0.1:<port>' within 30 s" >&2
    cat "$server_log" "$workdir/server.err" >&2
    exit 3
fi

echo "demo: apitest-demo listening on port $port (pid $server_pid)"
echo "demo: apitest run examples/ --var port=$port${*:+ $*}"
status=0
"$apitest_bin" run examples/ --var "port=$port" "$@" || status=$?
echo "demo: apitest exited with status $status"
exit "$status"
