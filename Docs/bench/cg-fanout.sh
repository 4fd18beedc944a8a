#!/bin/bash
# Server instructions per delivered message in plain TCP fan-out (the line protocol), under
# callgrind (load does not change the count). Two runs, MSGS and 3 x MSGS messages; their
# difference leaves out the server's start and the subscriptions.
# usage: cg-fanout.sh SERVER SUBS MSGS [SERVER FLAGS...]; FANOUT names fanout (default
# ../shared/bench/fanout); RATE publishes that many values a second instead of as fast as
# possible (at a few hundred a second each value has a turn of the loop to itself, as in
# the latency scenario). valgrind 3.19 runs io_uring, so the server batches its sends as it
# does outside it; `--io-uring off` among the flags measures the epoll path. SERVER may be
# redis-server (`$(command -v redis-server)`): it is then measured the same way over RESP.
set -eu
# redis-server is a link to redis-check-rdb, which acts by the name it was started with.
NAME=$(basename "$1")
SERVER=$(realpath "$1"); SUBS=$2; MSGS=$3; shift 3
FANOUT=${FANOUT:-../shared/bench/fanout}
RATE=${RATE:-0}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# valgrind cannot read the release binary's debug information.
strip --strip-debug -o "$DIR/server" "$SERVER"
declare -A total
for messages in "$MSGS" $((3 * MSGS)); do
  PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
  if [ "$NAME" = redis-server ]; then
    PROTO=redis
    ARGS=(--port "$PORT" --bind 127.0.0.1 --save "" --appendonly no)
  else
    PROTO=jsonl
    ARGS=(--listen "127.0.0.1:$PORT" --log-level error)
  fi
  valgrind --tool=callgrind --callgrind-out-file="$DIR/run.$messages.out" "$DIR/server" \
    "${ARGS[@]}" "$@" >/dev/null 2>&1 &
  PID=$!
  for _ in $(seq 300); do nc -z 127.0.0.1 "$PORT" 2>/dev/null && break; sleep 0.2; done
  "$FANOUT" --proto "$PROTO" --port "$PORT" --subs "$SUBS" --msgs "$messages" --rate "$RATE" \
    --size 64 --json --timeout 600 >"$DIR/fanout.$messages.json"
  kill -TERM "$PID"; wait "$PID" || true
  total[$messages]=$(sed -n 's/^summary: //p' "$DIR/run.$messages.out")
done
delivered=$((2 * MSGS * SUBS))
echo "$SUBS subscribers: $(((total[$((3 * MSGS))] - total[$MSGS]) / delivered)) instructions per delivered message"
