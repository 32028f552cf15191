#!/usr/bin/env bash
# Installs the Debian packages apitest needs to build, test and run its demo; with --bench, also the tools that
# the benchmarks compare against. Idempotent: packages already installed are left alone, and `apt-get update`
# runs (once) only when something is missing. Swift itself is not a Debian package: it must already be on PATH.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/install-deps.sh [--bench] [--check]

  --bench   also install the benchmark tools (hyperfine, wrk, jq)
  --check   only report what is missing; install nothing (exit 1 when something is missing)
USAGE
}

# Build, test and demo needs: libcurl (OpenSSL flavour) and zlib headers for the C targets, OpenSSL for pinning,
# libxml2 for FoundationXML, nginx for benchmarks and integration tests, curl, python3 and GNU time for scripts;
# xmllint (libxml2-utils) and chromium read the JUnit and HTML reports in the report tests; zsh and fish parse and
# run the shell completions in their tests, bash-completion's loader finds the installed bash one; dpkg-dev (dpkg-shlibdeps) and lintian build and check the Debian package.
# protobuf-compiler (protoc) compiles the .proto files of gRPC suites and of the protobuf codec's tests.
packages=(libcurl4-openssl-dev zlib1g-dev libssl-dev libyaml-dev libmimalloc-dev openssl libxml2-dev nginx-light curl python3 time libxml2-utils chromium zsh fish bash-completion dpkg-dev lintian protobuf-compiler)
bench_packages=(hyperfine wrk jq)

with_bench=0
check_only=0
for arg in "$@"; do
    case "$arg" in
        --bench) with_bench=1 ;;
        --check) check_only=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install-deps: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
    esac
done
if [[ "$with_bench" -eq 1 ]]; then
    packages+=("${bench_packages[@]}")
fi

is_installed() {
    # `dpkg -s` succeeds for packages that were removed but not purged, so check the status line too.
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: dpkg-query not found: this script supports Debian/Ubuntu only." >&2
    echo "install-deps: install these packages (or your system's equivalents) by hand: ${packages[*]}" >&2
    exit 1
fi

missing=()
for pkg in "${packages[@]}"; do
    if ! is_installed "$pkg"; then
        missing+=("$pkg")
    fi
done

if [[ "${#missing[@]}" -eq 0 ]]; then
    echo "install-deps: all ${#packages[@]} Debian packages already installed."
elif [[ "$check_only" -eq 1 ]]; then
    echo "install-deps: missing Debian packages: ${missing[*]}" >&2
    exit 1
else
    echo "install-deps: installing missing Debian packages: ${missing[*]}"
    sudo_cmd=()
    if [[ "$(id -u)" -ne 0 ]]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "install-deps: not root and sudo is not installed; as root, run:" >&2
            echo "    apt-get update && apt-get install -y ${missing[*]}" >&2
            exit 1
        fi
        sudo_cmd=(sudo)
    fi
    # Never prompt: CI has no stdin. `env` because sudo may not pass the environment through.
    apt_env=(env DEBIAN_FRONTEND=noninteractive)
    "${sudo_cmd[@]}" "${apt_env[@]}" apt-get update -q
    "${sudo_cmd[@]}" "${apt_env[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Python modules the report and schema tests use, from PyPI when missing (skipped with --check).
if [[ "$check_only" -eq 0 ]]; then
    # module:package (PyYAML, for scripts/check-suite-schema.py, is imported as yaml; httpbin serves Digest and
    # basic authentication to the auth tests; moto, with boto3 for its set-up, verifies AWS SigV4 signatures;
    # pyspnego is the NTLM acceptor of the NTLM test's server; sse-starlette on uvicorn serves the event-stream tests;
    # websockets, and Starlette (sse-starlette's) on uvicorn, are the WebSocket tests' servers; strawberry-graphql
    # on uvicorn is the GraphQL tests' server; grpcio is the gRPC transport tests' server, with grpcio-reflection
    # for the reflection tests (1.81.1: the last release that accepts the protobuf 6 pinned here); haralyzer reads
    # the HAR report in its tests; protobuf, Google's own runtime, is the protobuf codec tests' oracle; opentelemetry-proto
    # parses every export the tracing tests' OTLP receiver gets; proxy.py is the HTTP proxy, with CONNECT tunnels, of
    # the prior-knowledge proxy tests).
    for entry in junitparser:junitparser jsonschema:jsonschema yaml:pyyaml httpbin:httpbin moto:moto[server] \
        google.protobuf:protobuf==6.33.6 \
        boto3:boto3 spnego:pyspnego sse_starlette:sse-starlette==3.7.0 uvicorn:uvicorn==0.38.0 \
        websockets:websockets==17.4 strawberry:strawberry-graphql==0.341.2 \
        grpc:grpcio==1.85.1 grpc_reflection:grpcio-reflection==1.81.1 haralyzer:haralyzer==2.4.0 opentelemetry.proto:opentelemetry-proto==1.38.0 \
        proxy:proxy.py==2.4.10; do
        module="${entry%%:*}"
        package="${entry#*:}"
        if ! python3 -c "import $module" >/dev/null 2>&1; then
            echo "install-deps: installing the Python package $package"
            # A Debian-managed python3 refuses plain pip installs (PEP 668): then install beside its packages.
            python3 -m pip install --quiet "$package" || python3 -m pip install --quiet --break-system-packages "$package"
        fi
    done
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "install-deps: 'swift' is not on PATH. apitest needs Swift 6.x (a toolchain from swift.org)." >&2
    if [[ -x /opt/swift/usr/bin/swift ]]; then
        echo "install-deps: a toolchain is installed at /opt/swift; add it to PATH:" >&2
        echo "    export PATH=/opt/swift/usr/bin:\$PATH" >&2
    fi
    exit 1
fi
