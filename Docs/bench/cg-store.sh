#!/bin/bash
# Instructions per retained publish on the event loop's thread and on the store's writer
# thread, under callgrind (load does not change the count): COUNT retained publishes over 1,000
# topics, pipelined 200 at a time by one client, as retained_fsync_bench.py sends them.
# usage: cg-store.sh SERVER MODE [COUNT]; SERVER a release observable-server, MODE
# always|batch|off. Each thread's total is divided by COUNT; the start (opening the store) runs
# on the main thread, which is left out.
set -eu
SERVER=$(realpath "$1"); MODE=$2; COUNT=${3:-10000}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# valgrind cannot read the release binary's debug information.
strip --strip-debug -o "$DIR/server" "$SERVER"
SCRIPTS=$(cd "$(dirname "$0")/../../Tests/ObservableServerTests/Scripts" && pwd)
python3 - "$DIR" "$MODE" "$COUNT" "$SCRIPTS" <<'PY'
import os, shutil, subprocess, sys
directory, mode, count, scripts = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.path.insert(0, scripts)
import retained_fsync_bench as bench
port = bench.free_port()
process = subprocess.Popen(
    ["valgrind", "-q", "--tool=callgrind", "--separate-threads=yes",
     f"--callgrind-out-file={directory}/cg.out", f"{directory}/server",
     "--listen", f"127.0.0.1:{port}", "--data-dir", f"{directory}/data", "--fsync", mode,
     "--threads", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
try:
    bench.wait_listening(process)
    sock = bench.connect(port, deadline=120)
    bench.read_greeting(sock)
    bench.pipelined(sock, bench.observable_requests(count, 1000), 200, bench.observable_answers)
    sock.close()
finally:
    process.terminate()
    process.wait()
PY
for profile in "$DIR"/cg.out-*; do
  total=$(sed -n 's/^totals: //p' "$profile")
  # Told apart by what they run: the writer commits batches, the loop feeds lines to sessions.
  if grep -q BatchWriterC5write "$profile"; then
    echo "$MODE store writer: $((total / COUNT)) instructions per retained publish"
  elif grep -q LineFramerC4feed "$profile"; then
    echo "$MODE event loop: $((total / COUNT)) instructions per retained publish"
  fi
done
