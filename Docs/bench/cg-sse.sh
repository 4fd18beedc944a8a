#!/bin/bash
# Server instructions per delivered message over TCP and over Server-Sent Events, under
# callgrind (load does not change the count). Per transport, two runs of
# transport_fanout_cost.py (VALUES and 3 x VALUES deliveries); their difference leaves out the
# server's start and the subscriptions.
# usage: cg-sse.sh SERVER SUBS VALUES [TRANSPORTS]; SERVER a release observable-server,
# TRANSPORTS default tcp,sse. KEEP=DIR keeps the profiles there (cg.TRANSPORT.DELIVERIES) for
# callgrind_annotate. valgrind has no io_uring, so the server sends through epoll.
set -eu
SERVER=$(realpath "$1"); SUBS=$2; VALUES=$3; TRANSPORTS=${4:-tcp,sse}
SCRIPT=$(dirname "$(realpath "$0")")/../../Tests/ObservableServerTests/Scripts/transport_fanout_cost.py
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
OUT=${KEEP:-$DIR}
mkdir -p "$OUT"
# valgrind cannot read the release binary's debug information.
strip --strip-debug -o "$DIR/server" "$SERVER"
cat >"$DIR/server.sh" <<EOF2
#!/bin/bash
exec valgrind --tool=callgrind --callgrind-out-file=$OUT/cg.\$TAG $DIR/server "\$@" 2>/dev/null
EOF2
chmod +x "$DIR/server.sh"
for transport in ${TRANSPORTS//,/ }; do
  declare -A total=()
  for values in "$VALUES" $((3 * VALUES)); do
    TAG=$transport.$values python3 "$SCRIPT" "$DIR/server.sh" --values "$values" --rounds 1 \
      --counts "$SUBS" --transports "$transport" --start-seconds 300 >/dev/null
    # valgrind writes the profile as the server exits, which may be after the script returns.
    for _ in $(seq 600); do grep -q '^summary: ' "$OUT/cg.$transport.$values" 2>/dev/null && break; sleep 0.2; done
    total[$values]=$(sed -n 's/^summary: //p' "$OUT/cg.$transport.$values")
  done
  # The script publishes VALUES / SUBS values, each delivered to every subscriber.
  delivered=$((2 * VALUES / SUBS * SUBS))
  echo "$transport, $SUBS subscribers: $(((total[$((3 * VALUES))] - total[$VALUES]) / delivered)) instructions per delivered message"
done
