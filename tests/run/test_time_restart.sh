#!/usr/bin/env bash
# Checkpoint/restart of a time-dependent run (navier_stokes/checkpoint.c, "kind time";
# apps/navier_stokes_time.c: the monitor's series in the checkpoint) on config/dfg2d3.ini
# (BDF2, so u_n-1 and the previous step size matter) at level 2, dt = 0.05:
#  (a) a run to t = 0.5 on 2 ranks with a checkpoint after step 10, continued to t = 1
#      on 1 and on 2 ranks: output.timeseries (without the seconds column) and the summary
#      (every value but timings and rank counts) equal the uninterrupted run's, bit for bit;
#      the same with fs-theta (1 rank, restart at step 5 of 10);
#  (b) kill -9 of a run to t = 6 (120 steps, checkpoint every step) as soon as its first
#      checkpoint exists (t = 2, 40 steps, ended before the kill on a quiet machine),
#      restart: the same CSV and summary as the uninterrupted run (also the CSV lines the
#      killed run wrote after its last checkpoint are replaced);
#  (c) SIGTERM to the ranks: exit 6, reason "interrupted", one message naming the
#      checkpoint, which continues to the same result on 1 rank;
#  (d) a stationary checkpoint given to a time run, a time checkpoint given to a
#      stationary run, and one of another time.dt: one line, exit 1.
# FEASTC may point to another build. ~30 s on an idle machine.
. "$(dirname "$0")/lib.sh"
SRC=${FEAST_SRC:?}
DFG=("$SRC/config/dfg2d3.ini" grid.level=2 time.dt=0.05)
cd "$TMP" || exit 1
: >runs.log
feastc_np() { # lib.sh's, with the output appended to runs.log; np 1 without mpirun
  local np=$1; shift
  rm -f "$TMP/last.json"
  if [ "$np" -gt 1 ]; then
    "$MPIEXEC" --oversubscribe --bind-to none -np "$np" "$FEASTC" "$@" output.summary="$TMP/last.json" \
      output.verbosity=0 </dev/null >>"$TMP/runs.log" 2>&1
  else
    "$FEASTC" "$@" output.summary="$TMP/last.json" output.verbosity=0 </dev/null >>"$TMP/runs.log" 2>&1
  fi
}
# same_csv A B: equal but for the seconds column
same_csv() { diff -q <(cut -d, -f1-7 "$1") <(cut -d, -f1-7 "$2") >/dev/null && [ "$(wc -l <"$1")" -gt 1 ]; }
# same_summary A B: every value but timings (the seconds per step and its phases too), amdahl, ranks and
# the memory estimate, bit for bit
same_summary() {
  "$PY" - "$1" "$2" <<'PYEOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
skip = {"timings", "amdahl", "ranks", "memory_estimate_gib"}
d = sorted(k for k in set(a) | set(b)
           if k not in skip and "seconds_per_step" not in k and a.get(k) != b.get(k))
if d: print("differ:", ", ".join("%s %r %r" % (k, a.get(k), b.get(k)) for k in d[:6]))
sys.exit(1 if d else 0)
PYEOF
}
step_of() { grep -a -m1 '^time.step ' "$1" | cut -d' ' -f2; }

# ---- the uninterrupted runs ----
feastc_np 1 "${DFG[@]}" time.end=1 output.timeseries=ref1.csv
cp last.json ref1.json
check "uninterrupted run to t = 1: $(json time_steps ref1.json) steps, converged" \
  "'$(json converged ref1.json)' == 'true' and $(json time_steps ref1.json) == 20"

# ---- (a) checkpoint after step 10 (2 ranks), continued on 1 and 2 ranks ----
feastc_np 2 "${DFG[@]}" time.end=0.5 output.checkpoint=half.bin output.checkpoint_interval=5 output.timeseries=half.csv
check "(a) first half: exit $?, checkpoint after step $(step_of half.bin)" "'$(step_of half.bin)' == '10'"
for np in 1 2; do
  feastc_np $np "${DFG[@]}" time.end=1 --restart half.bin output.timeseries=a$np.csv
  rc=$?
  same_csv ref1.csv a$np.csv && c=1 || c=0
  same_summary ref1.json last.json && s=1 || s=0
  check "(a) restart on $np rank(s): exit $rc, same CSV ($c), same summary ($s)" "$rc == 0 and $c == 1 and $s == 1"
done

# fs-theta (three substeps; u1 is an intermediate state there): restart at step 5 of 10
FS=("${DFG[@]}" time.scheme=fs-theta)
feastc_np 1 "${FS[@]}" time.end=0.5 output.timeseries=fsref.csv
cp last.json fsref.json
feastc_np 1 "${FS[@]}" time.end=0.25 output.checkpoint=fs.bin output.checkpoint_interval=5
feastc_np 1 "${FS[@]}" time.end=0.5 --restart fs.bin output.timeseries=fs.csv
rc=$?
same_csv fsref.csv fs.csv && c=1 || c=0
same_summary fsref.json last.json && s=1 || s=0
check "(a) fs-theta, restart from step $(step_of fs.bin): exit $rc, same CSV ($c), same summary ($s)" \
  "$rc == 0 and $c == 1 and $s == 1"

# ---- (b) kill -9 in the middle of a longer run ----
feastc_np 1 "${DFG[@]}" time.end=6 output.timeseries=ref3.csv
cp last.json ref3.json
n3=$(json time_steps ref3.json)
rm -f ck.bin
run_bg 1 "${DFG[@]}" time.end=6 output.checkpoint=ck.bin output.checkpoint_interval=1 output.timeseries=k.csv \
  output.verbosity=0
wait_for ck.bin
# shellcheck disable=SC2046
kill -9 $(ranks_of $pid) 2>/dev/null
wait_bg
k=$(step_of ck.bin)
check "(b) kill -9: exit $rc, checkpoint after step $k of $n3" "$rc == 137 and 0 < ${k:-0} < $n3"
feastc_np 2 "${DFG[@]}" time.end=6 --restart ck.bin output.checkpoint=ck.bin output.timeseries=k.csv
rc=$?
same_csv ref3.csv k.csv && c=1 || c=0
same_summary ref3.json last.json && s=1 || s=0
check "(b) restart from step $k on 2 ranks: exit $rc, same CSV ($c), same summary ($s)" "$rc == 0 and $c == 1 and $s == 1"

# ---- (c) SIGTERM: exit 6 and a checkpoint that continues ----
rm -f term.bin t.csv
run_bg 2 "${DFG[@]}" time.end=6 output.checkpoint=term.bin output.checkpoint_interval=1000 \
  output.timeseries=t.csv output.summary=term.json output.verbosity=0
# the first line of the CSV (after step 1, collective) says every rank runs its steps:
# the handlers are in
for _ in $(seq 600); do [ -s t.csv ] && [ "$(grep -c '' t.csv)" -ge 2 ] && break; sleep 0.1; done
# shellcheck disable=SC2046
kill -TERM $(ranks_of $pid) 2>/dev/null
wait_bg
k=$(step_of term.bin)
check "(c) SIGTERM: exit 6 (got $rc), checkpoint after step ${k:-none} = the summary's $(json time_steps term.json)" \
  "$rc == 6 and '${k:-x}' == '$(json time_steps term.json)'"
check "(c) SIGTERM: summary reason interrupted" "'$(json reason term.json)' == 'interrupted'"
check "(c) SIGTERM: one message naming the signal and the checkpoint" \
  "$(grep -c 'stopped by SIGTERM after time step.*term.bin' bg.log) == 1"
feastc_np 1 "${DFG[@]}" time.end=6 --restart term.bin output.timeseries=t.csv
rc=$?
same_csv ref3.csv t.csv && c=1 || c=0
same_summary ref3.json last.json && s=1 || s=0
check "(c) restart from step $k on 1 rank: exit $rc, same CSV ($c), same summary ($s)" "$rc == 0 and $c == 1 and $s == 1"

# ---- (d) the kind of the checkpoint: one line, exit 1 ----
# bad LABEL EXPECT FILE [ARGS...]
bad() {
  local label=$1 expect=$2 file=$3; shift 3
  timeout 60 "$FEASTC" "${DFG[@]}" --restart "$file" "$@" </dev/null >out.log 2>err.log
  local rc=$? lines
  cat err.log >>runs.log
  lines=$(grep -c '' err.log)
  check "$label: exit 1 (got $rc), one line ($lines) with '$expect': $(head -c 300 err.log)" \
    "$rc == 1 and $lines == 1 and $(grep -c -- "$expect" err.log) == 1"
}
# a stationary checkpoint of the same problem (at t = 2, where the inflow is not zero)
feastc_np 1 "${DFG[@]}" time.scheme=none time.start=2 output.checkpoint=st.bin nonlinear.max_iterations=2 continuation.method=off
bad "(d) stationary checkpoint, time run" "checkpoint is of a stationary run" st.bin time.end=1
bad "(d) time checkpoint, stationary run" "checkpoint is of a time-dependent run" half.bin time.scheme=none time.start=2
bad "(d) time checkpoint, other time.dt" "time.dt = 0.025" half.bin time.dt=0.025 time.end=1
reports=$(grep -cE 'Sanitizer|runtime error:' runs.log)
check "no sanitizer report in any run ($reports)" "$reports == 0"
finish
