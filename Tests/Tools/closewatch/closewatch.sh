#!/bin/bash
# Runs `swift test --skip-build "$@"` with closewatch.so preloaded, then prints each distinct
# stray close found, symbolized, with how often it happened. Build the tests first.
#   Tests/Tools/closewatch/closewatch.sh --filter ObservableServerTests
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/closewatch.XXXXXX)
cc -O1 -g -shared -fPIC -o "$work/closewatch.so" "$here/closewatch.c" -ldl -lpthread
status=0
CLOSEWATCH_LOG="$work/log" LD_PRELOAD="$work/closewatch.so" swift test --skip-build "$@" \
  >"$work/test.out" 2>&1 || status=$?
echo "swift test exited with $status; its output is in $work/test.out"
symbolizer=$(command -v llvm-symbolizer || echo /opt/swift/usr/bin/llvm-symbolizer)
shopt -s nullglob
logs=("$work"/log.*)
if [ ${#logs[@]} -eq 0 ]; then
  echo "no close failed with EBADF"
  exit 0
fi
# The first frames of each EBADF close, symbolized; identical stacks are counted together.
for log in "${logs[@]}"; do
  awk '/^EBADF/ { n = 0; print "--"; next } /last successful/ { n = 99 } { n++; if (n >= 2 && n <= 6) print }' "$log" |
    while read -r frame; do
      case "$frame" in
        --) echo "--" ;;
        *+0x*)
          object=$(sed -E 's/^#[0-9]+ ([^+]+)\+(0x[0-9a-f]+).*/\1/' <<<"$frame")
          offset=$(sed -E 's/^#[0-9]+ ([^+]+)\+(0x[0-9a-f]+).*/\2/' <<<"$frame")
          "$symbolizer" --obj="$object" "$offset" | head -2 | tr '\n' ' '
          echo
          ;;
      esac
    done
done | swift demangle --simplified | awk 'BEGIN { RS = "--\n" } NF { count[$0]++ } END { for (stack in count) print count[stack] " times:\n" stack }'
echo "raw logs: ${logs[*]}"
