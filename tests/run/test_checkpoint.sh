#!/usr/bin/env bash
# Checkpoint/restart of the nonlinear solver (navier_stokes/checkpoint.c) on the cavity,
# Re = 100, L = 4 (L = 3 with FEAST_CKPT_QUICK=1, the sanitizer build), 2 ranks:
#  - kill -9 of both ranks at several moments of a run that checkpoints every step, then
#    --restart: the same final kinetic energy (bit for bit), nonlinear, linear and V-cycle
#    counts as the uninterrupted run; copies of the checkpoint taken every 20 ms while it
#    is being rewritten all carry a valid checksum (never half-written);
#  - SIGTERM to the ranks: exit 6, summary reason "interrupted", a valid checkpoint that
#    restarts to the same result, on 2 and on 1 rank (global node order); SIGINT at 1 rank;
#  - damaged or foreign checkpoints (flipped byte in header and data, truncated, empty,
#    other level, other mesh, other Reynolds number): one error line, exit 1.
# FEASTC may point to another build. ~70 s. FEAST_CKPT_QUICK=1 (test_asan_runs.sh, on
# its ASan/UBSan build): L = 3, no kill -9 loop, no SIGINT and no 1-rank restart, i.e.
# the code paths (write, SIGTERM, restart, every rejection) once each.
# The signals are sent after the first checkpoint and must arrive before the run ends: at
# L = 4 that window is ~0.1 s (a loaded CI machine missed it), so the SIGTERM and SIGINT
# runs are at L = 6 (5 in the quick mode), where it is seconds, with their own reference.
. "$(dirname "$0")/lib.sh"
SRC=${FEAST_SRC:?}
LEVEL=4 SIGNAL_LEVEL=6 QUICK=${FEAST_CKPT_QUICK:-0}
[ "$QUICK" = 1 ] && LEVEL=3 SIGNAL_LEVEL=5
CAV=("$SRC/config/cavity.ini" grid.level=$LEVEL)
SCAV=("$SRC/config/cavity.ini" grid.level=$SIGNAL_LEVEL)
cd "$TMP" || exit 1
# every run's output is kept here: a sanitizer build (test_asan_runs.sh) must report nothing
: >runs.log
feastc_np() { # lib.sh's, with the output appended to runs.log
  local np=$1; shift
  rm -f "$TMP/last.json"
  "$MPIEXEC" --oversubscribe --bind-to none -np "$np" "$FEASTC" "$@" output.summary="$TMP/last.json" output.verbosity=0 \
    </dev/null >>"$TMP/runs.log" 2>&1
}

# valid_checkpoint FILE: magic line, sizes and the checksum trailer (an independent reader
# of feast/io/checkpoint_io.c's version 2: FNV-1a 64 of the header plus one splitmix64
# term per value, modulo 2^64)
valid_checkpoint() {
  "$PY" - "$1" <<'PYEOF'
import sys
import numpy as np
b = open(sys.argv[1], "rb").read()
M = 0xffffffffffffffff
if not b.startswith(b"feastc-checkpoint 2\n") or len(b) < 26 or b[-26:-17] != b"checksum ":
    sys.exit(1)
end = b.find(b"\ndata\n") + 6
h = 0xcbf29ce484222325
for c in b[:end]:
    h = ((h ^ c) * 0x100000001b3) & M
sizes = [int(l.split()[2]) for l in b[:end].decode().splitlines() if l.split()[0] in ("array", "field")]
if end < 6 or end + 8 * sum(sizes) + 26 != len(b):
    sys.exit(1)
def mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xbf58476d1ce4e5b9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94d049bb133111eb)
    return z ^ (z >> np.uint64(31))
total, at = h, end
with np.errstate(over="ignore"):
    for a, n in enumerate(sizes):
        bits = np.frombuffer(b, dtype=np.uint64, count=n, offset=at)
        salt = np.uint64(0x9e3779b97f4a7c15) * np.uint64(a + 1) + np.arange(n, dtype=np.uint64)
        total = (total + int(mix(bits ^ mix(salt)).sum(dtype=np.uint64))) & M
        at += 8 * n
sys.exit(0 if int(b[-17:-1], 16) == total else 1)
PYEOF
}
results() { echo "$(json kinetic_energy "$1") $(json nonlinear_iterations "$1") $(json linear_iterations "$1") $(json global_mg_iterations "$1")"; }

# ---- the uninterrupted run ----
feastc_np 2 "${CAV[@]}"
ref=$(results "$TMP/last.json")
echo "uninterrupted (KE, nonlinear, linear, V cycles): $ref"
check "uninterrupted run converged" "'$(json converged)' == 'true'"

# ---- kill -9 at several moments, then --restart ----
delays="0 0.3 0.8"
[ "$QUICK" = 1 ] && delays=""
for delay in $delays; do
  rm -f ck.bin snap_*
  run_bg 2 "${CAV[@]}" output.checkpoint=ck.bin output.checkpoint_interval=1 output.verbosity=0
  wait_for ck.bin
  if [ "$delay" = 0.3 ]; then # copies while the file is being replaced, step after step
    for i in $(seq 15); do cp ck.bin "snap_$i" 2>/dev/null; sleep 0.02; done
  else
    sleep "$delay"
  fi
  # shellcheck disable=SC2046
  kill -9 $(ranks_of $pid) 2>/dev/null
  wait_bg
  bad=0
  for f in ck.bin snap_*; do [ -e "$f" ] && ! valid_checkpoint "$f" && bad=$((bad + 1)); done
  steps=$(grep -a -m1 '^ns.steps ' ck.bin | cut -d' ' -f2)
  check "kill -9 after ${delay}s: checkpoint (after step $steps) and $(ls snap_* 2>/dev/null | wc -l) copies valid" "$bad == 0"
  feastc_np 2 "${CAV[@]}" --restart ck.bin output.checkpoint=ck.bin
  rc=$?
  got=$(results "$TMP/last.json")
  check "kill -9 after ${delay}s, restart from step $steps: exit $rc, same result ($got)" "$rc == 0 and '$got' == '$ref'"
done

# ---- SIGTERM to the ranks (as a scheduler sends it): exit 6, then restart on 2 and 1 ranks ----
# (the first checkpoint, after step 2, says the nonlinear loop runs: the handlers are in)
feastc_np 2 "${SCAV[@]}"
sref=$(results "$TMP/last.json")
echo "uninterrupted at L = $SIGNAL_LEVEL: $sref"
rm -f ck.bin
run_bg 2 "${SCAV[@]}" output.checkpoint=ck.bin output.checkpoint_interval=2 output.summary=term.json output.verbosity=0
wait_for ck.bin
# shellcheck disable=SC2046
kill -TERM $(ranks_of $pid) 2>/dev/null
wait_bg
check "SIGTERM: exit 6 (got $rc)" "$rc == 6"
ck_steps=$(grep -a -m1 '^ns.steps ' ck.bin | cut -d' ' -f2)
check "SIGTERM: the checkpoint is of the last step ($ck_steps)" "'$ck_steps' == '$(json nonlinear_iterations term.json)'"
check "SIGTERM: summary reason interrupted" "'$(json reason term.json)' == 'interrupted'"
check "SIGTERM: one message naming the signal and the checkpoint" "$(grep -c 'stopped by SIGTERM.*ck.bin' bg.log) == 1"
valid_checkpoint ck.bin && v=1 || v=0
check "SIGTERM: the checkpoint is valid" "$v == 1"
cp ck.bin term.bin
nps="2 1"
[ "$QUICK" = 1 ] && nps=2
for np in $nps; do
  feastc_np $np "${SCAV[@]}" --restart term.bin
  rc=$?
  got=$(results "$TMP/last.json")
  check "SIGTERM checkpoint (step $(json nonlinear_iterations term.json)) restarted on $np rank(s): exit $rc, same result ($got)" \
    "$rc == 0 and '$got' == '$sref'"
done
# SIGINT at one rank, no mpirun
if [ "$QUICK" != 1 ]; then
  rm -f ck1.bin
  run_bg 1 "${SCAV[@]}" output.checkpoint=ck1.bin output.checkpoint_interval=1 output.verbosity=0
  wait_for ck1.bin
  kill -INT $pid
  wait_bg
  valid_checkpoint ck1.bin && v=1 || v=0
  check "SIGINT at 1 rank: exit 6 (got $rc), valid checkpoint" "$rc == 6 and $v == 1"
fi

# ---- damaged and foreign checkpoints: one line, exit 1 ----
# bad LABEL EXPECT FILE [ARGS...]
bad() {
  local label=$1 expect=$2 file=$3; shift 3
  (cd "$TMP" && timeout 120 "$FEASTC" "${SCAV[@]}" --restart "$file" "$@") </dev/null >out.log 2>err.log
  local rc=$? lines
  cat err.log >>runs.log
  lines=$(grep -c '' err.log)
  check "$label: exit 1 (got $rc), one line ($lines) with '$expect': $(head -c 200 err.log)" \
    "$rc == 1 and $lines == 1 and $(grep -c -- "$expect" err.log) == 1"
}
size=$(stat -c %s term.bin)
flip() { # flip OFFSET IN OUT: one byte xor 0x01
  cp "$2" "$3"
  printf "$(printf '\\%03o' $(($(od -An -tu1 -j "$1" -N1 "$2") ^ 1)))" | dd of="$3" bs=1 seek="$1" conv=notrunc status=none
}
flip 40 term.bin flip_header.bin
flip $((size / 2)) term.bin flip_data.bin
head -c $((size / 2)) term.bin >half.bin
head -c $((size - 1)) term.bin >minus1.bin
: >empty.bin
bad "flipped byte in the header" "checkpoint is damaged" flip_header.bin
bad "flipped byte in the data" "checkpoint is damaged" flip_data.bin
bad "truncated to half" "truncated or damaged" half.bin
bad "one byte short" "truncated or damaged" minus1.bin
bad "empty file" "not a feastc checkpoint" empty.bin
bad "other level" "grid.level" term.bin grid.level=$((SIGNAL_LEVEL - 1))
bad "other mesh" "another one" term.bin grid.file="$SRC/grids/distorted4x4.feast"
bad "other Reynolds number" "problem.re" term.bin problem.re=200
bad "other SUPG scale" "stabilisation.supg_scale = 2 (command line), but the checkpoint was written with 1" term.bin \
  stabilisation.supg_scale=2
reports=$(grep -cE 'Sanitizer|runtime error:' runs.log)
check "no sanitizer report in any run ($reports)" "$reports == 0"
finish
