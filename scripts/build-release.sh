#!/usr/bin/env bash
# Builds the apitest binary people should run: release mode, with the Swift runtime and Foundation linked
# statically (half the start-up time of a dynamically linked binary, and no Swift libraries needed at run time).
# Prints the binary's path on stdout; the build log goes to stderr. Used by `make release` and the benchmarks.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
swift build -c release --product apitest --scratch-path .build-static -Xswiftc -static-stdlib >&2
echo "$(swift build -c release --scratch-path .build-static -Xswiftc -static-stdlib --show-bin-path)/apitest"
