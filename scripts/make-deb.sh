#!/usr/bin/env bash
# `make deb`: builds apitest_<version>_<arch>.deb with dpkg-deb from an apitest binary (by default the release
# binary of scripts/build-release.sh, built once and reused). The version is the binary's own (`apitest --version`,
# whose one owner is APITestVersion in Sources/APITestRunner) with a Debian revision; Depends is computed by
# dpkg-shlibdeps from the libraries the binary links. The files are laid out by scripts/install.sh (prefix /usr,
# binary stripped); packaging/ holds the control template, the maintainer and the copyright (DEP-5).
# Prints the .deb's path on stdout.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: scripts/make-deb.sh [--binary PATH] [--output DIR] [--revision N] [--compression xz|gzip|zstd|none]
                           [--allow-unpackaged-libraries]

  --binary PATH        the apitest binary to package (default: the release binary, built when missing)
  --output DIR         where the .deb goes (default: the repository's folder)
  --revision N         the Debian revision (default 1): apitest_<version>-N_<arch>.deb
  --compression TYPE   dpkg-deb's compression (default xz; the tests use gzip, faster for a debug binary)
  --allow-unpackaged-libraries
                       let dpkg-shlibdeps pass libraries no Debian package owns (a debug build links the Swift
                       toolchain's libswiftCore.so & co.); such a package only runs where the toolchain is
USAGE
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary=""
output="$root"
revision=1
compression=xz
shlibdeps_flags=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
        --output) output="${2:?--output needs a folder}"; shift 2 ;;
        --revision) revision="${2:?--revision needs a number}"; shift 2 ;;
        --compression) compression="${2:?--compression needs a type}"; shift 2 ;;
        --allow-unpackaged-libraries) shlibdeps_flags+=(--ignore-missing-info); shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "make-deb: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
for tool in dpkg-deb dpkg-shlibdeps dpkg python3 gzip strip; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "make-deb: '$tool' is missing (scripts/install-deps.sh installs dpkg-dev and the rest)" >&2
        exit 3
    fi
done
if [[ ! "$revision" =~ ^[0-9]+$ ]]; then
    echo "make-deb: --revision must be a number, got '$revision'" >&2
    exit 2
fi
if [[ -z "$binary" ]]; then
    binary="$("$root/scripts/build-release.sh" | tail -n 1)"
fi
if [[ ! -x "$binary" ]]; then
    echo "make-deb: '$binary' is not an executable apitest binary" >&2
    exit 2
fi
mkdir -p "$output"
output="$(cd "$output" && pwd)"

upstream="$("$binary" --version | sed -n '1s/^apitest //p')"
if [[ ! "$upstream" =~ ^[0-9]+(\.[0-9]+)*$ ]]; then
    echo "make-deb: '$binary --version' did not start with 'apitest X.Y.Z'" >&2
    exit 3
fi
version="$upstream-$revision"
arch="$(dpkg --print-architecture)"
maintainer="$(head -n 1 "$root/packaging/maintainer")"
# Reproducible: the man page's and the changelog's date are the last commit's (or now outside a git checkout).
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}"
export SOURCE_DATE_EPOCH
commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"

work="$(mktemp -d "${TMPDIR:-/tmp}/apitest-deb.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# The staged tree is debian/apitest, the layout dpkg-shlibdeps expects (it resolves $ORIGIN against it).
stage="$work/debian/apitest"
umask 022

echo "make-deb: staging apitest $version ($arch) from $binary" >&2
"$root/scripts/install.sh" --binary "$binary" --destdir "$stage" --prefix /usr --strip >&2
mkdir -p "$stage/DEBIAN"
doc="$stage/usr/share/doc/apitest"
install -m 0644 "$root/packaging/copyright" "$doc/copyright"
{
    printf 'apitest (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * Package of apitest %s, built from commit %s.\n\n' "$upstream" "$commit"
    printf ' -- %s  %s\n' "$maintainer" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"

# dpkg-shlibdeps reads debian/control: a minimal source tree around the staged files.
printf 'Source: apitest\nMaintainer: %s\n\nPackage: apitest\nArchitecture: any\n' "$maintainer" \
    >"$work/debian/control"
substvars="$(cd "$work" && dpkg-shlibdeps -O "${shlibdeps_flags[@]}" debian/apitest/usr/bin/apitest)"
depends="${substvars#shlibs:Depends=}"
if [[ -z "$depends" || "$depends" == "$substvars" ]]; then
    echo "make-deb: dpkg-shlibdeps found no dependencies: '$substvars'" >&2
    exit 3
fi

# libxml2 is loaded with dlopen on the first XPath check (Sources/CLibXML2), so dpkg-shlibdeps cannot see it: add
# the package of the libxml2 whose ABI the headers describe (libxml2.so.2; libxml2.so.16 from 2.14 on).
xml_soname="libxml2.so.2"
if pkg-config --atleast-version=2.14 libxml-2.0 2>/dev/null; then xml_soname="libxml2.so.16"; fi
xml_path="$(ldconfig -p | awk -v soname="$xml_soname" '$1 == soname && path == "" { path = $NF } END { print path }')"
xml_package=""
if [[ -n "$xml_path" ]]; then
    xml_package="$(dpkg -S "$(readlink -f "$xml_path")" 2>/dev/null | head -n 1 | cut -d: -f1 || true)"
fi
if [[ -z "$xml_package" ]]; then
    echo "make-deb: no Debian package holds $xml_soname here; the package depends on 'libxml2'" >&2
    xml_package="libxml2"
fi
depends="$depends, $xml_package"

installed_size="$(du -s -k --apparent-size "$stage/usr" | cut -f1)"
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" -e "s|@DEPENDS@|$depends|" \
    "$root/packaging/control.in" >"$stage/DEBIAN/control"
(cd "$stage" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 0755 {} +

deb="$output/apitest_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Z"$compression" --build "$stage" "$deb" >&2
echo "$deb"
