#!/usr/bin/env bash
# Checks the systemd units with `systemd-analyze verify` against a real binary.
#
#   Docker/systemd/verify.sh path/to/observable-server
#
# verify insists that ExecStart= names an existing executable, but the units name the
# installed path /usr/local/bin/observable-server. Rather than writing there, the units are
# copied to a temporary directory with ExecStart= pointing at the given binary. verify only
# warns (and still exits 0) about unknown keys or unparsable values, so any output at all
# counts as a failure. Drop-ins in UNIT.d/ directories are copied too, and checked with the
# unit they extend.
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 path/to/observable-server" >&2
  exit 2
fi
binary=$(realpath -- "$1")
if [[ ! -x $binary ]]; then
  echo "verify.sh: $1 is not an executable file" >&2
  exit 2
fi
units_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)

work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
units=()
for unit in "$units_dir"/*.socket "$units_dir"/*.service; do
  copy="$work/$(basename -- "$unit")"
  sed "s|/usr/local/bin/observable-server|$binary|g" "$unit" >"$copy"
  units+=("$copy")
done
# Drop-ins (observable-server.service.d/*.conf) are read from beside the unit they extend.
for dropins in "$units_dir"/*.d; do
  [[ -d $dropins ]] || continue
  mkdir -p -- "$work/$(basename -- "$dropins")"
  for conf in "$dropins"/*.conf; do
    sed "s|/usr/local/bin/observable-server|$binary|g" "$conf" \
      >"$work/$(basename -- "$dropins")/$(basename -- "$conf")"
  done
done

status=0
output=$(systemd-analyze verify --man=no "${units[@]}" 2>&1) || status=$?
if ((status != 0)) || [[ -n $output ]]; then
  printf '%s\n' "$output" >&2
  echo "verify.sh: systemd-analyze verify reported problems (exit $status)" >&2
  exit 1
fi
echo "verify.sh: ${#units[@]} units verified against $binary"
