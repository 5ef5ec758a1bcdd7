#!/usr/bin/env bash
# The layering by #include (issue #45, item 1; tools/check_layers.py): feast < coproc <
# scarc < navier_stokes < apps, no file including a header of a layer above its own, no
# include circle among the headers. The tree passes; a copy of the layers with one planted
# upward include (feast/vector.c including scarc/scarc.h) fails with one line naming the
# file, the line and both layers; a copy with a planted circle (feast/error.h including
# feast/log.h, which includes feast/error.h) fails naming the circle.
. "$(dirname "$0")/lib.sh"
check_layers() { "$PY" "$FEAST_SRC/tools/check_layers.py" "$1" >"$TMP/out.txt" 2>&1; rc=$?; cat "$TMP/out.txt"; }

check_layers "$FEAST_SRC"
check "the tree: exit 0 (got $rc), no upward include, no circle" \
  "$rc == 0 and $(grep -c 'no upward include, no include circle' "$TMP/out.txt") == 1"

copy() { # a fresh copy of the layers' folders in $TMP/tree
  rm -rf "$TMP/tree" && mkdir -p "$TMP/tree"
  for d in feast coproc scarc navier_stokes apps; do cp -r "$FEAST_SRC/$d" "$TMP/tree/"; done
}
copy
sed -i '1i #include "scarc/scarc.h"' "$TMP/tree/feast/vector.c"
check_layers "$TMP/tree"
check "a planted upward include: exit 1 (got $rc), one line naming feast/vector.c:1 and both layers" \
  "$rc == 1 and $(grep -c '' "$TMP/out.txt") == 1 and \
   $(grep -c '^feast/vector.c:1: includes scarc/scarc.h: layer scarc is above feast' "$TMP/out.txt") == 1"

copy
grep -q '#include "feast/error.h"' "$TMP/tree/feast/log.h" || sed -i '1i #include "feast/error.h"' "$TMP/tree/feast/log.h"
sed -i '1i #include "feast/log.h"' "$TMP/tree/feast/error.h"
check_layers "$TMP/tree"
check "a planted include circle: exit 1 (got $rc), the circle named" \
  "$rc == 1 and $(grep -c 'an include circle: .*feast/error.h.*feast/log.h' "$TMP/out.txt") >= 1"
finish
