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

nm -- "$binary" >"$work/nm" 2>/dev/null || true
if [[ ! -s $work/nm ]]; then
  echo "FAIL: $binary has no symbols to check for Foundation and ICU" >&2
  failed=1
fi
# Defined or undefined: Foundation's and FoundationInternationalization's Swift symbols, ICU's
# C++ namespace (icu_76::...) and its data blob (icudt76_dat).
linked=$(grep -cE ' (\$s10Foundation|\$s30FoundationInternationalization|_ZN6icu_[0-9]+|icudt[0-9]+_dat)' "$work/nm" || true)
echo "Foundation and ICU symbols: $linked"
if ((linked > 0)); then
  echo "FAIL: Foundation or ICU is linked in" >&2
  failed=1
fi

if ((failed)); then exit 1; fi
echo "observable: free of Foundation and ICU"
