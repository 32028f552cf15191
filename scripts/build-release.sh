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
# - libstdc++ linked statically (the Swift runtime is C++): the shared libstdc++ costs ~0.9 ms of symbol binding
#   and page faults at every start (4,300 symbolic relocations). The toolchain links `-lstdc++`; a directory
#   holding only libstdc++.a, searched first, makes the linker take the archive. libxml2's ICU, which also uses
#   libstdc++, loads the shared one when XML is first decoded (CLibXML2 dlopens libxml2). Without libstdc++.a
#   (Debian libstdc++-12-dev) the binary links the shared library as before.
#
# APITEST_RELEASE_SCRATCH names another build folder (default .build-static; keep the .build- prefix, which
# .gitignore covers), for a second release build beside the first, as the benchmarks' A/B builds need.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scratch="${APITEST_RELEASE_SCRATCH:-.build-static}"
flags=(-Xswiftc -static-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xlinker --no-export-dynamic)
archive="$(clang -print-file-name=libstdc++.a 2>/dev/null || true)"
if [[ "$archive" == /* && -f "$archive" ]]; then
    mkdir -p "$scratch/static-libstdc++"
    ln -sf "$archive" "$scratch/static-libstdc++/libstdc++.a"
    flags+=(-Xlinker "-L$root/$scratch/static-libstdc++")
else
    echo "build-release: no libstdc++.a found; linking the shared libstdc++" >&2
fi
swift build -c release --product apitest --scratch-path "$scratch" "${flags[@]}" >&2
binary="$(swift build -c release --scratch-path "$scratch" "${flags[@]}" --show-bin-path)/apitest"
if [[ "$archive" == /* ]] && readelf -d "$binary" 2>/dev/null | grep -q 'NEEDED.*libstdc++'; then
    echo "build-release: warning: $binary still needs the shared libstdc++" >&2
fi
echo "$binary"
