# Sourced by check-command-binary.sh and check-release-binary.sh: the one check that no
# Foundation or ICU code is linked into a binary statically.
#
#   check_foundation_symbols SYMBOLS_FILE WORK_DIR
#
# Reads SYMBOLS_FILE's symbol table into WORK_DIR/nm; prints the count and returns 1 when the
# table is missing or any such symbol is there.
check_foundation_symbols() {
  local symbols=$1 work=$2 status=0 linked
  nm -- "$symbols" >"$work/nm" 2>/dev/null || true
  if [[ ! -s $work/nm ]]; then
    echo "FAIL: $symbols has no symbols to check for Foundation and ICU" >&2
    status=1
  fi
  # Defined or undefined: Foundation's and FoundationInternationalization's Swift symbols,
  # ICU's C++ namespace (icu_76::...) and its data blob (icudt76_dat).
  linked=$(grep -cE ' (\$s10Foundation|\$s30FoundationInternationalization|_ZN6icu_[0-9]+|icudt[0-9]+_dat)' "$work/nm" || true)
  echo "Foundation and ICU symbols: $linked"
  if ((linked > 0)); then
    echo "FAIL: Foundation or ICU is linked in" >&2
    status=1
  fi
  return $status
}
