#!/bin/bash
# Issue 26, goal 2: which stage holds a latency tail. Runs one latency round (RATE values a
# second x 10 subscribers) per server named, records the scheduler's events system-wide and the
# system calls of the bench's and the servers' threads for 2 s in the middle of each server's
# publishing (perf, as root), and prints each server's values split into stages by
# Docs/bench/tail-stages.py: pickup (publish to the server thread's wake-up), sending, and on to
# the bench's reader, each with the time its thread waited for a CPU. About 15 s a server.
# usage: Docs/bench/tail-stages.sh RATE PEER... [OUT]   e.g. tail-stages.sh 5000 observable redis
#   (PEER: observable, observable-epoll, redis, nats; after both release builds, as for
#   every-core-tails.sh; BENCH= and SERVER= name other builds)
set -eu
cd "$(dirname "$0")/../.."
BENCH=${BENCH:-.build/release/observable-bench}
SERVER=${SERVER:-.build/release/observable-server}
RATE=$1; shift
OUT=$(mktemp -d /tmp/tail-stages.XXXXXX)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); traces in $OUT"
for PEER in "$@"; do
  BASE="$OUT/$PEER-$RATE"
  "$BENCH" --scenario latency --peers "$PEER" --rate "$RATE" --latency-subscribers 10 \
    --repeats 1 --server "$SERVER" --no-build --timeout 120 --json >"$BASE.json" 2>"$BASE.bench" &
  BP=$!
  # The bench names each server as it starts measuring it; the subscribers open meanwhile.
  for _ in $(seq 1 1500); do
    grep -q "× 10, $PEER\$" "$BASE.bench" 2>/dev/null && break
    sleep 0.02
  done
  # Then its publisher thread starts (the bench's third): record from a little after that.
  for _ in $(seq 1 1500); do
    [ "$(ls /proc/$BP/task 2>/dev/null | wc -l)" -ge 3 ] && break
    sleep 0.02
  done
  sleep 0.3
  TIDS=$(ls /proc/$BP/task; for CHILD in $(pgrep -P $BP); do ls /proc/$CHILD/task; done)
  FILTER=""
  for TID in $TIDS; do FILTER="$FILTER${FILTER:+ || }common_pid == $TID"; done
  echo "bench $BP server $(pgrep -P $BP | head -n 1)" >"$BASE.pids"
  perf record -a -k CLOCK_MONOTONIC -e sched:sched_switch -e sched:sched_wakeup \
    -e raw_syscalls:sys_enter --filter "$FILTER" -e raw_syscalls:sys_exit --filter "$FILTER" \
    -o "$BASE.data" -- sleep 2 2>"$BASE.perf.log"
  wait $BP
  perf script -i "$BASE.data" -F comm,tid,cpu,time,event,trace 2>/dev/null >"$BASE.txt"
  python3 Docs/bench/tail-stages.py "$BASE"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
