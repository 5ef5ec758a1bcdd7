#!/usr/bin/env bash
# Outputs never clobber inputs (feast/base/paths.c): every output key (output.summary, .vtk,
# .matrix_market, .centerlines, .checkpoint) pointed at an input (config file, mesh,
# restart checkpoint) by the same path, a symlink, a hard link, ./ and ../ spellings, or
# by the temporary file of an atomic write, and two outputs on one file, existing or not: exit 1 with one message naming the key
# and both paths, before any solve, and every input unchanged byte for byte.
# FEASTC may point to another build. ~20 s.
. "$(dirname "$0")/lib.sh"
SRC=${FEAST_SRC:?}
IN=$TMP/in
mkdir -p "$IN/sub"
cp "$SRC/grids/unitsquare8.feast" "$IN/mesh.feast"
sed 's|^file = .*|file = mesh.feast|' "$SRC/config/poisson.ini" >"$IN/p.ini"
sed 's|^file = .*|file = mesh.feast|; s|^level = .*|level = 2|' "$SRC/config/cavity.ini" >"$IN/cav.ini"
# inputs whose names match derived output names: a mesh named like a VTK piece of rank 1,
# a config named like a right-hand side and like a centre line
cp "$IN/mesh.feast" "$IN/m_r1.vtu"
cp "$IN/p.ini" "$IN/a_rhs.mtx"
cp "$IN/cav.ini" "$IN/cl_u.csv"
cp "$IN/mesh.feast" "$IN/s.json.tmp" # the temporary file of an atomic write of s.json
ln -s p.ini "$IN/link.ini"
ln "$IN/cav.ini" "$IN/hard.ini"
# a valid checkpoint as the restart input (and the allowed case: output.checkpoint on it)
(cd "$IN" && "$FEASTC" cav.ini output.checkpoint=ck.bin output.verbosity=0 >/dev/null 2>&1)
check "the cavity L2 run writes the restart input ck.bin" "$(test -s "$IN/ck.bin" && echo 1 || echo 0) == 1"
cp "$IN/ck.bin" "$IN/ck_u.csv"
ln -s ck.bin "$IN/ck_link"
(cd "$IN" && md5sum p.ini mesh.feast m_r1.vtu a_rhs.mtx cl_u.csv s.json.tmp cav.ini ck.bin ck_u.csv) >"$TMP/inputs.md5"

# clash NP CONFIG EXPECT(&-separated) ARGS...: run in $IN, expect exit 1, one stderr line
# with every EXPECT substring, inputs unchanged, no output written
clash() {
  local np=$1 cfg=$2 expect=$3; shift 3
  rm -f "$IN"/out* "$IN"/new*
  if [ "$np" -gt 1 ]; then
    (cd "$IN" && timeout 60 "$MPIEXEC" -q --oversubscribe --bind-to none -np "$np" "$FEASTC" "$cfg" "$@") </dev/null >"$TMP/out" 2>"$TMP/err"
  else
    (cd "$IN" && timeout 60 "$FEASTC" "$cfg" "$@") </dev/null >"$TMP/out" 2>"$TMP/err"
  fi
  local rc=$? msg ok=1 why=""
  msg=$(grep -m1 '^feastc' "$TMP/err")
  [ "$rc" -eq 1 ] || { ok=0; why+=" exit $rc (want 1)"; }
  [ "$(grep -c '' "$TMP/err")" -eq 1 ] || { ok=0; why+=" $(grep -c '' "$TMP/err") stderr lines"; }
  IFS='&' read -ra subs <<<"$expect"
  for s in "${subs[@]}"; do grep -qF -- "$s" <<<"$msg" || { ok=0; why+=" message lacks '$s'"; }; done
  (cd "$IN" && md5sum -c --quiet "$TMP/inputs.md5") >/dev/null 2>&1 || { ok=0; why+=" AN INPUT CHANGED"; }
  checks=$((checks + 1))
  if [ $ok -eq 1 ]; then echo "ok: np=$np $cfg $*: $msg"; else
    fail=$((fail + 1)); echo "FAILED: np=$np $cfg $*:$why"; sed 's/^/    stderr: /' "$TMP/err" | head -5
  fi
}
same='same file'
# each output key at least once; every spelling (same path, ./, ../, symlink, hard link)
# and both kinds of file (existing, not yet existing) at least once
clash 1 p.ini "output.summary&p.ini&the config file"                   output.summary=p.ini
clash 1 p.ini "output.summary&./p.ini"                                 output.summary=./p.ini --dry-run
clash 1 p.ini "output.summary&link.ini&p.ini"                          output.summary=link.ini
clash 1 "$IN/sub/../p.ini" "output.summary&p.ini"                      output.summary=p.ini
clash 1 p.ini "output.summary&s.json.tmp&grid.file"                    output.summary=s.json grid.file=s.json.tmp
clash 2 p.ini "output.vtk&m_r1.vtu&grid.file"                          output.vtk=m grid.file=m_r1.vtu
clash 1 p.ini "output.vtk&out.pvtu&output.summary&$same"               output.vtk=out output.summary=out.pvtu
clash 1 a_rhs.mtx "output.matrix_market&a_rhs.mtx&the config file"     output.matrix_market=a.mtx
clash 1 p.ini "output.matrix_market&sub/../p.ini"                      output.matrix_market=sub/../p.ini
clash 1 cl_u.csv "output.centerlines&cl_u.csv&the config file"         output.centerlines=cl
clash 1 cav.ini "output.checkpoint&hard.ini"                           output.checkpoint=hard.ini --dry-run
clash 1 cav.ini "output.checkpoint&sub/../../in/mesh.feast&grid.file"  output.checkpoint=sub/../../in/mesh.feast
clash 1 cav.ini "output.centerlines&ck_u.csv&--restart"                --restart ck_u.csv output.centerlines=ck
clash 1 cav.ini "output.summary&ck_link&--restart"                     --restart ck.bin output.summary=ck_link
clash 2 cav.ini "output.checkpoint&output.summary&$same"               output.checkpoint=new.bin output.summary=./new.bin
clash 1 cav.ini "output.centerlines&output.checkpoint&new_u.csv"       output.centerlines=new output.checkpoint=sub/../new_u.csv

# no clash: a run with separate outputs works, and the checkpoint may continue the restart file
(cd "$IN" && "$FEASTC" cav.ini --restart ck.bin output.checkpoint=ck.bin output.summary=out.json output.verbosity=0) >"$TMP/out" 2>&1
rc=$?
check "restart with output.checkpoint = the restart file: exit 0 (got $rc)" "$rc == 0"
finish
