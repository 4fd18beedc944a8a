#!/bin/bash
# Issue 26, goals 1, 2 and 5 in one sitting: a broadcast to 19,000 subscribers with
# observable-server at 1 and 2 event loops beside Redis, NATS and Mosquitto (3 interleaved
# rounds), then the tails at 5,000 and 20,000 values a second x 10 subscribers beside Redis and
# NATS (5 interleaved rounds each). Prints the rows Docs/performance.md shows ("Every core",
# "Tails") and whether goals 1 and 2 hold. 7 to 10 minutes on a quiet 2-core machine
# (Mosquitto takes 5 to 45 s to take 19,000 subscriptions); raw JSON is kept in OUT.
# usage: Docs/bench/every-core-tails.sh [OUT]   (after both release builds:
#   swift build -c release --product observable-server
#   swift build -c release --product observable-bench)
set -eu
cd "$(dirname "$0")/../.."
BENCH=${BENCH:-.build/release/observable-bench}
SERVER=${SERVER:-.build/release/observable-server}
OUT=${1:-$(mktemp -d /tmp/every-core-tails.XXXXXX)}
mkdir -p "$OUT"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); results in $OUT"
"$BENCH" --scenario broadcast --peers observable,redis,nats,mosquitto --broadcast-threads 1,2 \
  --repeats 3 --server "$SERVER" --no-build --timeout 600 --json >"$OUT/broadcast.json"
for rate in 5000 20000; do
  "$BENCH" --scenario latency --peers observable-epoll,redis,nats --rate "$rate" \
    --latency-subscribers 10 --repeats 5 --server "$SERVER" --no-build --timeout 120 \
    --json >"$OUT/latency-$rate.json"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 Docs/bench/every-core-tails.py "$OUT"
