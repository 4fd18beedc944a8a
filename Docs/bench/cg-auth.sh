#!/bin/bash
# Server instructions per delivered message in fan-out, without authorization and with a
# generated auth file of 1,000 users x 10 rules, under callgrind (load does not change the
# count). The difference of two runs (MSGS and 3 x MSGS messages) leaves out the server's start,
# which with the auth file is hundreds of millions of instructions.
# usage: cg-auth.sh SERVER BENCH SUBS MSGS [WINDOW]; SERVER a release observable-server, BENCH a
# release observable-bench. Prints, per authorization, instructions per delivered message.
# WINDOW is the bench's --window, the most messages published ahead of the slowest subscriber:
# with 1 every value goes out alone (one write per delivery), so the count does not depend on
# how a loop turn happened to batch, which it does under the default (2000) even in valgrind.
set -eu
SERVER=$(realpath "$1"); BENCH=$2; SUBS=$3; MSGS=$4; WINDOW=${5:-2000}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# valgrind cannot read the release binary's debug information.
strip --strip-debug -o "$DIR/server" "$SERVER"
# Instrumented only once the server listens: reading the auth file under full instrumentation
# takes longer than the bench waits for a server to answer on a loaded machine. The start is
# left out of the figure anyway (see above); $$ is valgrind's pid once the shell execs it.
cat >"$DIR/server.sh" <<EOF2
#!/bin/bash
port=\$(printf '%s\\n' "\$@" | sed -n 's/^127\\.0\\.0\\.1:\\([0-9]*\\)\$/\\1/p' | head -1)
(until nc -z 127.0.0.1 "\$port" 2>/dev/null; do kill -0 \$\$ 2>/dev/null || exit; sleep 0.1; done
 callgrind_control -i on \$\$ >/dev/null) &
exec valgrind --tool=callgrind --instr-atstart=no \\
  --callgrind-out-file=$DIR/run.\$(date +%s%N).out $DIR/server "\$@" 2>/dev/null
EOF2
chmod +x "$DIR/server.sh"
declare -A total
for messages in "$MSGS" $((3 * MSGS)); do
  rm -f "$DIR"/run.*.out
  # One row without authorization, then one with: the profiles come out in that order.
  "$BENCH" --no-build --server "$DIR/server.sh" --scenario fan-out --subscribers "$SUBS" \
    --messages "$messages" --window "$WINDOW" --auth-users 0,1000 --auth-rules 10 >/dev/null
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
