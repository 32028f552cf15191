#!/usr/bin/env bash
# `make demo`: build the release apitest once (scripts/build-release.sh, scratch folder .build-static: the binary
# people then use and `make install` installs), build the demo API (debug: only its own target and Hummingbird, not
# a second build of apitest), start it on a free port, run the example suites against it with the release binary,
# stop the server whatever happens, and say where the binary is and the one command that installs it. Exits with
# apitest's exit code (0 all passed, 1 a test failed, 2 invalid suite or usage, 3 runtime error). Extra arguments go
# to `apitest run`, e.g. scripts/demo.sh --verbose.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

"$root/scripts/install-deps.sh"

echo "demo: building the release apitest (scripts/build-release.sh; several minutes the first time)"
apitest_bin="$("$root/scripts/build-release.sh" | tail -n 1)"
echo "demo: building the demo API (swift build --product apitest-demo)"
swift build --product apitest-demo
demo_bin="$(swift build --show-bin-path)/apitest-demo"
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

# Where the binary is, and the one command that installs it (with completions, man page, schema and docs).
sudo_prefix=""
if [[ "$(id -u)" -ne 0 ]]; then sudo_prefix="sudo "; fi
cat <<EOF
demo: apitest ($("$apitest_bin" --version | head -n 1)) is at $apitest_bin
demo: install it in /usr/local (bin/apitest, shell completions, man page, editor schema, docs):
          ${sudo_prefix}make install
      or elsewhere: make install PREFIX=\$HOME/.local; remove it with ${sudo_prefix}make uninstall
demo: then, with the demo API running (.build/debug/apitest-demo, port 8080): apitest run examples/
EOF
exit "$status"
