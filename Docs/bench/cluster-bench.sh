#!/bin/sh
# Cross-node fan-out through a three-node NATS cluster: the publisher on observable-server A,
# the subscribers on observable-server B, beside NATS itself (publisher on n1, subscribers on
# n2), and a single node for the CPU baseline. Prints one line per run with msgs/s and the CPU
# nanoseconds per delivered message of each process (utime+stime from /proc/PID/stat).
#
# Needs: nats-server, a release observable-server (BIN), and fanout built from
# /work/shared/bench/fanout.c with Docs/bench/fanout-cluster.diff applied (FANOUT).
set -eu
BIN=${BIN:-.build/release/observable-server}
FANOUT=${FANOUT:-/tmp/fanout-cluster}
CONFIGS=${CONFIGS:-"1:200000 10:100000 100:20000"}
REPEAT=${REPEAT:-2}
DIR=$(mktemp -d /tmp/cluster-bench.XXXXXX)
PIDS=""
cleanup() { for p in $PIDS; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$DIR"; }
trap cleanup EXIT INT TERM
for i in 1 2 3; do
  cat > "$DIR/n$i.conf" <<CONF
server_name: n$i
listen: 127.0.0.1:2942$i
jetstream { store_dir: "$DIR/store-n$i", max_memory_store: 64MB, max_file_store: 256MB }
cluster { name: obs, listen: 127.0.0.1:2962$i, routes: [nats-route://127.0.0.1:29621, nats-route://127.0.0.1:29622, nats-route://127.0.0.1:29623] }
CONF
  nats-server -c "$DIR/n$i.conf" > "$DIR/n$i.log" 2>&1 &
  PIDS="$PIDS $!"
done
N1=$(echo $PIDS | cut -d' ' -f1); N2=$(echo $PIDS | cut -d' ' -f2)
sleep 2
"$BIN" --listen 127.0.0.1:29071 --cluster nats://127.0.0.1:29421 --log-level warning > "$DIR/a.log" 2>&1 &
A=$!; PIDS="$PIDS $A"
"$BIN" --listen 127.0.0.1:29072 --cluster nats://127.0.0.1:29422 --log-level warning > "$DIR/b.log" 2>&1 &
B=$!; PIDS="$PIDS $B"
"$BIN" --listen 127.0.0.1:29073 --log-level warning > "$DIR/s.log" 2>&1 &
S=$!; PIDS="$PIDS $S"
sleep 2
ticks=$(getconf CLK_TCK)
cpu() { awk -v t="$ticks" '{ printf "%.0f", ($14 + $15) * 1e9 / t }' "/proc/$1/stat"; }
run() { # name subs msgs pubport subport proto pids...
  name=$1 subs=$2 msgs=$3 pub=$4 sub=$5 proto=$6; shift 6
  before=""; for p in "$@"; do before="$before $(cpu "$p")"; done
  out=$(FANOUT_PUB_PORT=$pub FANOUT_SETTLE_MS=300 "$FANOUT" --proto "$proto" --port "$sub" \
    --subs "$subs" --msgs "$msgs" --size 64 --json --timeout 120 | tail -1)
  rate=$(echo "$out" | sed 's/.*"delivered_rate":\([0-9.]*\).*/\1/')
  delivered=$(echo "$out" | sed 's/.*"delivered":\([0-9]*\).*/\1/')
  lost=$(echo "$out" | sed 's/.*"lost":\([0-9]*\).*/\1/')
  line="$name subs=$subs delivered_rate=$rate lost=$lost"
  set -- "$@"; i=1
  for p in "$@"; do
    b=$(echo $before | cut -d' ' -f$i); a=$(cpu "$p")
    line="$line cpu_ns_per_msg[$p]=$(( (a - b) / delivered ))"; i=$((i + 1))
  done
  echo "$line"
}
for r in $(seq "$REPEAT"); do
  for c in $CONFIGS; do
    subs=${c%%:*} msgs=${c##*:}
    run nats "$subs" "$msgs" 29421 29422 nats "$N1" "$N2"
    run cluster "$subs" "$msgs" 29071 29072 jsonl "$A" "$B" "$N1" "$N2"
    run single "$subs" "$msgs" 29073 29073 jsonl "$S"
  done
done
echo "pids: nats n1=$N1 n2=$N2 node A=$A node B=$B single=$S"
