#!/usr/bin/env bash
# Fails if a built `observable` command links Foundation or ICU, dynamically or statically.
# The command uses FoundationEssentials only (through swift-argument-parser and the client
# library): Foundation proper brings ICU (lib_FoundationICU.so, about 41 MB, or its data linked
# in statically) and slows every start of a short-lived command.
#
#   Docker/check-command-binary.sh path/to/observable
#
# Works on a plain `swift build -c release --product observable` (the Swift runtime in shared
# libraries, as a developer builds it) and on a --static-swift-stdlib build; the stricter
# Docker/check-release-binary.sh also wants no toolchain library at all, which only the latter
# passes.
set -euo pipefail
# shellcheck source=foundation-symbols.sh
source "$(dirname -- "$0")/foundation-symbols.sh"

binary=${1:?usage: check-command-binary.sh path/to/observable}
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
failed=0

strip --strip-all -o "$work/stripped" -- "$binary"
echo "stripped size: $(stat -c %s -- "$work/stripped") bytes"

ldd -- "$binary" >"$work/ldd"
if grep -E 'lib(Foundation|FoundationInternationalization|_FoundationICU|icu[a-z]*)\.so' \
  "$work/ldd" >&2; then
  echo "FAIL: the command needs Foundation or ICU (the shared libraries above)" >&2
  failed=1
fi

check_foundation_symbols "$binary" "$work" || failed=1

if ((failed)); then exit 1; fi
echo "observable: free of Foundation and ICU"
