# Shared by bench/peers_ns.sh and bench/peers_step.sh (sourced).
# timed PREFIX COMMAND...: stdout to PREFIX.out (the peer's JSON line), stderr to
# PREFIX.log, the wall seconds of the whole command to PREFIX.wall
timed() {
  local prefix=$1 t0 t1
  shift
  t0=$(date +%s.%N)
  "$@" >"$prefix.out" 2>"$prefix.log" || echo "# exit $? of: $*" >&2
  t1=$(date +%s.%N)
  awk -v a="$t1" -v b="$t0" 'BEGIN { print a - b }' >"$prefix.wall"
}
