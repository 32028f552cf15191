#!/usr/bin/env bash
# Builds the apitest binary people should run: release mode, with the Swift runtime and Foundation linked
# statically (half the start-up time of a dynamically linked binary, and no Swift libraries needed at run time).
# Prints the binary's path on stdout; the build log goes to stderr. Used by `make release` and the benchmarks.
#
# Link flags, for start-up time (measured with hyperfine against curl; see bench/README.md):
# - -no-pie: a position-dependent executable needs none of the ~80,000 relative relocations the dynamic loader
#   applies to a static-stdlib PIE at every start (Swift metadata and witness tables are full of pointers), so
#   it dirties ~200 fewer pages. The shared libraries (libcurl and its dependencies) are still randomised.
# - --no-export-dynamic: the Swift driver exports every symbol of the executable (-export-dynamic) for
#   backtraces; apitest needs none of them exported, and a 5,500-symbol dynamic table slows every symbol lookup
#   the loader does for libcurl's ~35 libraries, which search the executable first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
flags=(-Xswiftc -static-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xlinker --no-export-dynamic)
swift build -c release --product apitest --scratch-path .build-static "${flags[@]}" >&2
echo "$(swift build -c release --scratch-path .build-static "${flags[@]}" --show-bin-path)/apitest"
