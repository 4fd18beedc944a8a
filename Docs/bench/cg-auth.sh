#!/bin/bash
# Server instructions per delivered message in fan-out, without authorization and with a
# generated auth file of 1,000 users x 10 rules, under callgrind (load does not change the
# count). The difference of two runs (MSGS and 3 x MSGS messages) leaves out the server's start,
# which with the auth file is hundreds of millions of instructions.
# usage: cg-auth.sh SERVER BENCH SUBS MSGS; SERVER a release observable-server, BENCH a release
# observable-bench. Prints, per authorization, instructions per delivered message.
set -eu
SERVER=$(realpath "$1"); BENCH=$2; SUBS=$3; MSGS=$4
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# valgrind cannot read the release binary's debug information.
strip --strip-debug -o "$DIR/server" "$SERVER"
printf '#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=%s/run.$(date +%%s%%N).out %s "$@" 2>/dev/null\n' \
  "$DIR" "$DIR/server" >"$DIR/server.sh"
chmod +x "$DIR/server.sh"
declare -A total
for messages in "$MSGS" $((3 * MSGS)); do
  rm -f "$DIR"/run.*.out
  # One row without authorization, then one with: the profiles come out in that order.
  "$BENCH" --no-build --server "$DIR/server.sh" --scenario fan-out --subscribers "$SUBS" \
    --messages "$messages" --auth-users 0,1000 --auth-rules 10 >/dev/null
  users=0
  for profile in $(ls "$DIR"/run.*.out | sort); do
    total[$users,$messages]=$(sed -n 's/^summary: //p' "$profile")
    users=1000
  done
done
for users in 0 1000; do
  delivered=$((2 * MSGS * SUBS))
  echo "auth users $users: $(((total[$users,$((3 * MSGS))] - total[$users,$MSGS]) / delivered)) instructions per delivered message"
done
