#!/usr/bin/env bash
# The layering by #include (issue #45, item 1; tools/check_layers.py): the core's floors
# feast/base < config < mesh < parallel < la < fem < io, then solvers < coproc < scarc <
# navier_stokes < apps; no file including a header of a layer above its own, no include
# circle among the headers, no source file in feast/ outside a floor. The tree passes; a
# copy of the layers with one planted upward include (feast/la/vector.c including
# scarc/scarc.h) fails with one line naming the file, the line and both layers, as does
# one between floors (feast/mesh/refine.c including feast/la/vector.h); a copy with a
# planted circle (feast/base/error.h including feast/base/log.h, which includes
# feast/base/error.h) fails naming the circle; a file dropped into feast/ itself is named.
# The vector storage (FeastVec.host) is used only in feast/la (issue #45, item 4): a copy
# with a planted use in navier_stokes/post.c and one in examples/poisson.c fails with one
# line for each, while the same use in feast/la/gather.c and the word in a comment or a
# string pass.
# Tests reach a layer's internals (a *_private.h, or tests/ns_testing_private.h) only when
# they say why in a "white-box" comment.
. "$(dirname "$0")/lib.sh"
check_layers() { "$PY" "$FEAST_SRC/tools/check_layers.py" "$1" >"$TMP/out.txt" 2>&1; rc=$?; cat "$TMP/out.txt"; }

check_layers "$FEAST_SRC"
check "the tree: exit 0 (got $rc), no upward include, no circle, the vector storage only in feast/la" \
  "$rc == 0 and $(grep -c 'no upward include, no include circle; vector storage only in feast/la' "$TMP/out.txt") == 1"

copy() { # a fresh copy of the layers' folders in $TMP/tree
  rm -rf "$TMP/tree" && mkdir -p "$TMP/tree"
  for d in feast solvers coproc scarc navier_stokes apps examples; do cp -r "$FEAST_SRC/$d" "$TMP/tree/"; done
}
copy
sed -i '1i #include "scarc/scarc.h"' "$TMP/tree/feast/la/vector.c"
check_layers "$TMP/tree"
check "a planted upward include: exit 1 (got $rc), one line naming feast/la/vector.c:1 and both layers" \
  "$rc == 1 and $(grep -c '' "$TMP/out.txt") == 1 and \
   $(grep -c '^feast/la/vector.c:1: includes scarc/scarc.h: layer scarc is above feast/la' "$TMP/out.txt") == 1"

copy
sed -i '1i #include "feast/la/vector.h"' "$TMP/tree/feast/mesh/refine.c"
check_layers "$TMP/tree"
check "a planted include of a floor above: exit 1 (got $rc), one line naming feast/mesh/refine.c:1" \
  "$rc == 1 and $(grep -c '' "$TMP/out.txt") == 1 and \
   $(grep -c '^feast/mesh/refine.c:1: includes feast/la/vector.h: layer feast/la is above feast/mesh' "$TMP/out.txt") == 1"

copy
echo 'int stray;' >"$TMP/tree/feast/stray.c"
check_layers "$TMP/tree"
check "a file in feast/ outside the floors: exit 1 (got $rc), named" \
  "$rc == 1 and $(grep -c '^feast/stray.c: in no layer' "$TMP/out.txt") == 1"

copy
post_lines=$(grep -c '' "$TMP/tree/navier_stokes/post.c")
example_lines=$(grep -c '' "$TMP/tree/examples/poisson.c")
cat >>"$TMP/tree/navier_stokes/post.c" <<'EOF'
/* a comment may name x->host[0][0] */
static const char *storage_word = "x->host";
static double first_value(const FeastVec *x) { return x->host[0][0]; }
EOF
echo 'static double *block_one(FeastVec v) { return v.host[1]; }' >>"$TMP/tree/examples/poisson.c"
echo 'static double *block_one(const FeastVec *v) { return v->host[1]; }' >>"$TMP/tree/feast/la/gather.c"
check_layers "$TMP/tree"
check "planted uses of the vector storage: exit 1 (got $rc), one line each for post.c:$((post_lines + 3)) and examples/poisson.c:$((example_lines + 1)), none for feast/la" \
  "$rc == 1 and $(grep -c '' "$TMP/out.txt") == 2 and \
   $(grep -c "^navier_stokes/post.c:$((post_lines + 3)): uses the vector storage (.host) outside feast/la" "$TMP/out.txt") == 1 and \
   $(grep -c "^examples/poisson.c:$((example_lines + 1)): uses the vector storage" "$TMP/out.txt") == 1"

copy
grep -q '#include "feast/base/error.h"' "$TMP/tree/feast/base/log.h" || sed -i '1i #include "feast/base/error.h"' "$TMP/tree/feast/base/log.h"
sed -i '1i #include "feast/base/log.h"' "$TMP/tree/feast/base/error.h"
check_layers "$TMP/tree"
check "a planted include circle: exit 1 (got $rc), the circle named" \
  "$rc == 1 and $(grep -c 'an include circle: .*feast/base/error.h.*feast/base/log.h' "$TMP/out.txt") >= 1"
unnamed=$(grep -lE '#include "([a-z_/]*_private[.]h|ns_testing_private[.]h)"' "$FEAST_SRC"/tests/unit/*.c \
  "$FEAST_SRC"/tests/mpi/*.c | xargs -r grep -L 'white-box' | sed "s|$FEAST_SRC/||")
public=$(grep -lE '#include "ns_testing[.]h"' "$FEAST_SRC"/tests/unit/*.c "$FEAST_SRC"/tests/mpi/*.c | wc -l)
echo "tests on ns_testing.h (public headers only): $public; white-box tests without the word: ${unnamed:-none}"
check "every test that includes a private header says white-box (unnamed: ${unnamed:-none})" "'${unnamed}' == ''"
check "some flow tests use the public headers only ($public)" "$public >= 5"
finish
