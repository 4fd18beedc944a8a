#!/bin/bash
# Instructions of the server in TLS fan-out, under callgrind (load does not change the count).
# usage: cg-tls.sh SERVER SUBS MSGS OUT; FANOUT names fanout (default ../shared/bench/fanout).
# SERVER must be stripped of debug information (strip -g): valgrind cannot read the release
# binary's. Prints the messages delivered, then the total count; OUT keeps the profile.
set -eu
BIN=$1; SUBS=$2; MSGS=$3; OUT=$4
FANOUT=${FANOUT:-../shared/bench/fanout}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$DIR/key.pem" -out "$DIR/cert.pem" 2>/dev/null
PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
valgrind --tool=callgrind --callgrind-out-file="$OUT" "$BIN" --listen "tls://127.0.0.1:$PORT" \
  --tls-cert "$DIR/cert.pem" --tls-key "$DIR/key.pem" --tls-handshake-timeout 300 \
  --log-level error 2>/dev/null &
SERVER=$!
for _ in $(seq 300); do nc -z 127.0.0.1 "$PORT" 2>/dev/null && break; sleep 0.2; done
"$FANOUT" --proto jsonl --tls --port "$PORT" --subs "$SUBS" --msgs "$MSGS" --size 64 --json \
  --timeout 600 | tail -1 | python3 -c 'import json,sys;print("delivered",json.load(sys.stdin)["delivered"])'
kill -TERM "$SERVER"; wait "$SERVER" || true
callgrind_annotate "$OUT" 2>/dev/null | grep 'PROGRAM TOTALS'
