#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for a bounded time.
#
#   Fuzz/run.sh TARGET|all SECONDS
#
# TARGET is a folder name under Fuzz/Targets. Each run starts from the seeds in
# Fuzz/Corpus/TARGET and from what earlier runs on this machine found (.build-fuzz/corpus/TARGET,
# not committed). Prints executions and coverage per target; exits non-zero if any target finds
# a crash, a failed property, a leak or a timeout, after showing its report and the saved input.
# Reproduce a finding with: .build-fuzz/release/fuzz-TARGET FILE
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: Fuzz/run.sh TARGET|all SECONDS (targets: $(ls Fuzz/Targets | tr '\n' ' '))" >&2
  exit 2
}
(($# == 2)) || usage
[[ $2 =~ ^[1-9][0-9]*$ ]] || usage
seconds=$2
if [[ $1 == all ]]; then
  mapfile -t targets < <(ls Fuzz/Targets)
else
  [[ -d Fuzz/Targets/$1 ]] || usage
  targets=("$1")
fi

scratch=$PWD/.build-fuzz
mkdir -p "$scratch"

# The system's gold linker fails with an internal error on these objects, so link with the lld
# that ships with the toolchain; a toolset file is how SwiftPM is told which linker to use.
swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
lld=$swift_bin/ld.lld
[[ -x $lld ]] || lld=$(command -v ld.lld) || {
  echo "ld.lld not found next to swift or on PATH" >&2
  exit 1
}
printf '{ "schemaVersion": "1.0", "linker": { "path": "%s" } }\n' "$lld" >"$scratch/toolset.json"

echo "== building ${targets[*]} (release, -sanitize=fuzzer,address)"
build=(swift build -c release --package-path Fuzz --scratch-path "$scratch"
  --toolset "$scratch/toolset.json"
  # The targets use the server's internal API through @testable import.
  -Xswiftc -enable-testing -Xswiftc -sanitize=fuzzer,address)
if ((${#targets[@]} == 1)); then build+=(--product "fuzz-${targets[0]}"); fi
if ! "${build[@]}" >"$scratch/build.log" 2>&1; then
  grep -v "Cannot export local symbol" "$scratch/build.log" | tail -n 40 >&2
  echo "the fuzz targets did not build" >&2
  exit 1
fi
if grep -E "^$PWD/Fuzz/.*: warning:" "$scratch/build.log"; then
  echo "warnings in the fuzz targets" >&2
  exit 1
fi

# Swift's own crash handler would compete with libFuzzer's and ASan's reports.
export SWIFT_BACKTRACE=enable=no
failed=()
for target in "${targets[@]}"; do
  corpus=$scratch/corpus/$target
  findings=$scratch/findings/$target
  log=$scratch/logs/$target.log
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  status=0
  # New inputs go to the first folder only, so the committed seeds stay as they are. The outer
  # timeout is a backstop should the fuzzer itself hang.
  timeout --kill-after=10 $((seconds + 120)) \
    "$scratch/release/fuzz-$target" "$corpus" "Fuzz/Corpus/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1 || status=$?
  # A run that fails while loading the seeds has printed no statistics yet.
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  coverage=$( (grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" || true) | tail -n 1)
  corpus_size=$( (grep -oE 'corp: [0-9]+' "$log" || true) | tail -n 1)
  printf '%-14s %s s  executions: %s  %s  %s  exit: %s\n' "$target" "$seconds" \
    "${executions:-?}" "${coverage:-cov: ?}" "${corpus_size:-corp: ?}" "$status"
  if ((status != 0)); then
    failed+=("$target")
    grep -E "fuzz property failed|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|SUMMARY" "$log" >&2 || true
    grep -E "Test unit written to" "$log" >&2 || tail -n 30 "$log" >&2
    echo "full report: $log" >&2
  fi
done

if ((${#failed[@]})); then
  echo "findings in: ${failed[*]}" >&2
  exit 1
fi
