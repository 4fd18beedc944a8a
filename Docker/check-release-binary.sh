#!/usr/bin/env bash
# Fails unless a release observable-server (or observable, the command, which build-release.sh
# builds the same way) is small and self-contained: stripped, at most
# 28 MB (28,000,000 bytes); needing no shared library from a Swift toolchain (libswiftCore,
# libFoundation, libdispatch...) or ICU; and with no Foundation or ICU code linked in
# statically either (the server uses FoundationEssentials through swift-argument-parser, and
# nothing of Foundation proper, whose ICU data alone is about 30 MB).
#
#   Docker/check-release-binary.sh path/to/observable-server
#   Docker/check-release-binary.sh path/to/observable
#
# The symbols are read from path/to/observable-server.debug when it exists (what
# Docker/build-release.sh leaves beside the stripped binary), else from the binary itself.
set -euo pipefail
# shellcheck source=foundation-symbols.sh
source "$(dirname -- "$0")/foundation-symbols.sh"

binary=${1:?usage: check-release-binary.sh path/to/observable-server}
# 28 MB, up from 20: --jwt-key (issue 23) verifies signed tokens with vapor/jwt-kit, the
# maintained JWT package without SwiftNIO, which links swift-crypto (BoringSSL, and
# _CryptoExtras for RS256), swift-certificates and swift-asn1 statically: about 9 MB of a
# stripped server of 25.2 MB (Docs/performance.md#binary-size). jwt-kit needs those
# unconditionally, so no lighter build of it exists. The limit is still far below what
# Foundation and ICU add (about 45 MB), which is what it is here to catch.
limit=28000000
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
failed=0

# The size of the binary as it ships, whether or not it was stripped already.
strip --strip-all -o "$work/stripped" -- "$binary"
size=$(stat -c %s -- "$work/stripped")
echo "stripped size: $size bytes (limit $limit)"
if ((size > limit)); then
  echo "FAIL: the stripped binary is over 28 MB" >&2
  failed=1
fi

ldd -- "$binary" >"$work/ldd"
toolchain_libraries='lib(swift[A-Za-z_]*|_?Foundation[A-Za-z_]*|dispatch|BlocksRuntime|icu[a-z]*)\.so'
if grep -E "$toolchain_libraries" "$work/ldd" >&2; then
  echo "FAIL: the binary needs the shared libraries above from a Swift toolchain or ICU" >&2
  failed=1
fi

symbols=$binary
[[ -f $binary.debug ]] && symbols=$binary.debug
check_foundation_symbols "$symbols" "$work" || failed=1

if ((failed)); then exit 1; fi
echo "release binary: small and free of Foundation and ICU"
