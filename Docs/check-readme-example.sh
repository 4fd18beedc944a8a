#!/usr/bin/env bash
# Builds the README's ObservableClient example as a new user would: its `Package.swift` and
# `main.swift`, taken from the README (the ```swift blocks whose first line names a file), in a
# package of their own beside a link named `observable-server` to this checkout, then runs it
# against a server and with no server. A separate package, not a test target, because only a
# package of its own shows that the printed manifest and imports are complete.
#
# Usage: Docs/check-readme-example.sh [path/to/observable-server]  (default: the debug build)
# Dependencies resolve as for this package (the host's git and SwiftPM settings), so it works
# offline wherever `swift build` does here. About a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
server_binary=${1:-$root/.build/debug/observable-server}

work=$(mktemp -d)
server_pid=
finish() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf -- "$work"
}
trap finish EXIT

ln -s "$root" "$work/observable-server"
mkdir "$work/example"
python3 - "$root/README.md" "$work/example" <<'EOF'
import os, re, sys
readme, package = sys.argv[1], sys.argv[2]
blocks = re.findall(r"^```swift\n// ([\w./]+)\n(.*?)^```$", open(readme).read(), re.M | re.S)
wanted = {"Package.swift", "Sources/RoomMonitor/main.swift"}
found = {path for path, _ in blocks}
if found != wanted:
    sys.exit(f"README: expected the blocks {sorted(wanted)}, found {sorted(found)}")
for path, text in blocks:
    os.makedirs(os.path.dirname(os.path.join(package, path)) or package, exist_ok=True)
    with open(os.path.join(package, path), "w") as out:
        out.write(text)
EOF

echo "== README example: swift build (a package that depends on this one by path)"
(cd "$work/example" && swift build 2>&1 | tail -n 3)
example=$work/example/.build/debug/RoomMonitor

log=$work/server.log
"$server_binary" --listen 127.0.0.1:0 2>"$log" &
server_pid=$!
port=
for _ in $(seq 100); do
  port=$(sed -n 's/.* msg="listening" .*address=127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
  [[ -n $port ]] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [[ -z $port ]]; then
  cat -- "$log" >&2
  echo "the server did not start" >&2
  exit 1
fi

echo "== README example: run against 127.0.0.1:$port"
output=$(OBSERVABLE_SERVER=127.0.0.1:$port timeout 30 "$example" 2>&1)
echo "$output"
for expected in '^temp: 21\.5$' '^receivers: 1$' '^clock "[0-9T:-]+Z"$'; do
  if ! grep -Eq "$expected" <<<"$output"; then
    echo "README example: no line matching $expected" >&2
    exit 1
  fi
done

kill -TERM "$server_pid"
wait "$server_pid" || true
server_pid=

echo "== README example: run with no server"
status=0
output=$(OBSERVABLE_SERVER=127.0.0.1:$port timeout 30 "$example" 2>&1) || status=$?
echo "$output"
if ((status != 1)) || ! grep -q '^room-monitor: cannot connect to 127.0.0.1:' <<<"$output" \
  || grep -qi 'fatal error\|backtrace' <<<"$output"; then
  echo "README example: with no server, expected one room-monitor: line and exit 1 (got $status)" >&2
  exit 1
fi
echo "README example: builds, runs, and fails cleanly with no server"
