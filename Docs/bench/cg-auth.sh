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
# It also prints, per authorization, the instructions spent in the authorization modules'
# own functions (ObservableAuthorization, ObservableCredentials) per delivered message, the
# same difference of two runs: what checking the rules costs, apart from what else moved.
# Last, the functions that cost something per delivery with the auth file and nothing without:
# what authorization adds, apart from how the two runs happened to batch (which moves the
# totals by more than 5 % at 1 and 10 subscribers even under valgrind).
# KEEP=DIR keeps the four profiles there, named users-U.messages-M.out, for callgrind_annotate.
set -eu
SERVER=$(realpath "$1"); BENCH=$2; SUBS=$3; MSGS=$4; WINDOW=${5:-2000}
export OBSERVABLE_BENCH_START_SECONDS=${OBSERVABLE_BENCH_START_SECONDS:-120}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# valgrind cannot read the release binary's debug information.
strip --strip-debug -o "$DIR/server" "$SERVER"
# Instrumented only once the server listens: reading the auth file under full instrumentation
# takes longer than the bench waits for a server to answer on a loaded machine. The start is
# left out of the figure anyway (see above).
# Even uninstrumented, valgrind's start took 30 s at load 27, past the bench's 15 s (8 s at
# nice -10; more with the auth file): as root the server runs at nice -10, which changes no
# count, and the bench waits up to OBSERVABLE_BENCH_START_SECONDS (120 here). Its exit (and
# the profile's dump) can take longer than the 5 s the bench allows after SIGTERM before
# SIGKILL: the wrapper passes SIGTERM on, and the bench's SIGKILL ends only the wrapper; the
# script waits for valgrind.
# Each profile is named for its row (open or auth, by whether the server has --auth-file).
cat >"$DIR/server.sh" <<EOF2
#!/bin/bash
port=\$(printf '%s\\n' "\$@" | sed -n 's/^127\\.0\\.0\\.1:\\([0-9]*\\)\$/\\1/p' | head -1)
row=open
case " \$* " in *" --auth-file "*) row=auth ;; esac
[ "\$(id -u)" = 0 ] && renice -n -10 -p \$\$ >/dev/null
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=$DIR/run.\$row.out \\
  $DIR/server "\$@" 2>/dev/null &
server=\$!
echo \$server >>$DIR/valgrind.pids
trap 'kill -TERM \$server' TERM INT
(until nc -z 127.0.0.1 "\$port" 2>/dev/null; do kill -0 \$server 2>/dev/null || exit; sleep 0.1; done
 callgrind_control -i on \$server >/dev/null 2>&1) &
while kill -0 \$server 2>/dev/null; do wait \$server; done
EOF2
chmod +x "$DIR/server.sh"
declare -A total own
for messages in "$MSGS" $((3 * MSGS)); do
  rm -f "$DIR"/run.*.out "$DIR/valgrind.pids"
  if ! "$BENCH" --no-build --server "$DIR/server.sh" --scenario fan-out --subscribers "$SUBS" \
    --messages "$messages" --window "$WINDOW" --auth-users 0,1000 --auth-rules 10 >"$DIR/bench.out"
  then
    cat "$DIR/bench.out" >&2
    exit 1
  fi
  for pid in $(cat "$DIR/valgrind.pids"); do
    while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
  done
  for row in open auth; do
    users=$([ $row = open ] && echo 0 || echo 1000)
    profile=$DIR/run.$row.out
    total[$users,$messages]=$(sed -n 's/^summary: //p' "$profile")
    # Self cost per function ("COST NAME"), kept for the comparison at the end.
    callgrind_annotate --threshold=100 "$profile" 2>/dev/null |
      sed -n 's/^ *\([0-9,]*\) ([ 0-9.]*%)  *\([^ ]*\).*/\1 \2/p' | tr -d , \
      >"$DIR/self.$users.$messages"
    # Self cost of every function of the two modules (their mangled names hold the module's).
    own[$users,$messages]=$(awk '/23ObservableAuthorization|21ObservableCredentials/ {
      sum += $1 } END { print sum + 0 }' "$DIR/self.$users.$messages")
    if [ -n "${KEEP:-}" ]; then cp "$profile" "$KEEP/users-$users.messages-$messages.out"; fi
  done
done
for users in 0 1000; do
  delivered=$((2 * MSGS * SUBS))
  long=$((3 * MSGS))
  echo "auth users $users: $(((total[$users,$long] - total[$users,$MSGS]) / delivered))" \
    "instructions per delivered message, $(((own[$users,$long] - own[$users,$MSGS]) * 100 / delivered))" \
    "hundredths of one in the authorization modules"
done
# Per function, (3N run - N run) / deliveries, for each server; listed when at least 0.05 with
# the auth file and under 0.01 without.
for users in 0 1000; do
  awk -v n="$MSGS" -v d="$((2 * MSGS * SUBS))" '
    FILENAME ~ ("\\." n "$") { cost[$2] -= $1; next } { cost[$2] += $1 }
    END { for (f in cost) printf "%s %.2f\n", f, cost[f] / d }' \
    "$DIR/self.$users.$MSGS" "$DIR/self.$users.$((3 * MSGS))" | sort >"$DIR/per.$users"
done
echo "only with authorization, instructions per delivered message:"
join -a 2 -e 0 -o 0,1.2,2.2 "$DIR/per.0" "$DIR/per.1000" |
  awk '$3 >= 0.05 && $2 < 0.01 && $2 > -0.01 { printf "  %8.2f %s\n", $3, $1 }' | sort -rn
