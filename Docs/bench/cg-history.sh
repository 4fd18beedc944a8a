#!/bin/bash
# Server instructions per delivered message with history off and with --history 100, under
# callgrind (load does not change the count), and what the history adds per value kept.
# The difference of two runs (MSGS and 3 x MSGS messages) leaves out the server's start and stop.
# usage: cg-history.sh SERVER FANOUT SUBS MSGS; SERVER a release observable-server, FANOUT
# shared/bench/fanout (cc -O2 -o fanout fanout.c -lm -lssl -lcrypto).
set -eu
SERVER=$(realpath "$1"); FANOUT=$(realpath "$2"); SUBS=$3; MSGS=$4
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# valgrind cannot read the release binary's debug information.
strip --strip-debug -o "$DIR/server" "$SERVER"
run() {  # messages, profile, server flags...: prints the profile's total instructions
  local messages=$1 out=$2 port pid
  shift 2
  port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
  valgrind --tool=callgrind --callgrind-out-file="$out" "$DIR/server" --listen 127.0.0.1:$port \
    --log-level error "$@" 2>/dev/null &
  pid=$!
  # A loaded machine can take minutes to start the server under valgrind.
  for _ in $(seq 3000); do nc -z 127.0.0.1 $port 2>/dev/null && break; sleep 0.2; done
  "$FANOUT" --proto jsonl --port $port --subs "$SUBS" --msgs "$messages" --size 64 --json \
    --timeout 600 >/dev/null
  kill -TERM $pid
  wait $pid || true
  sed -n 's/^summary: //p' "$out"
}
declare -A total
for mode in off on; do
  flags=()
  [ $mode = on ] && flags=(--history 100)
  for messages in "$MSGS" $((3 * MSGS)); do
    total[$mode,$messages]=$(run "$messages" "$DIR/$mode.$messages.out" "${flags[@]}")
  done
done
big=$((3 * MSGS))
off=$((${total[off,$big]} - ${total[off,$MSGS]}))
on=$((${total[on,$big]} - ${total[on,$MSGS]}))
delivered=$((2 * MSGS * SUBS))
echo "subs $SUBS: off $((off / delivered)), on $((on / delivered)) instructions per delivered" \
  "message; history adds $(((on - off) / (2 * MSGS))) per value kept ($((100 * (on - off) / off)) %)"
