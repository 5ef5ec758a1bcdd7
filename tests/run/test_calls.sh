#!/usr/bin/env bash
# The calls between source files (issue #45, item 1; tools/check_calls.py on the object
# files of the layer libraries): no call circle between files, no call from a layer to
# one above it. The build passes; planted objects fail: two files of feast/base calling
# each other (a circle, named with its symbols), and a file of feast/base calling one of
# feast/la (an upward call without an include).
. "$(dirname "$0")/lib.sh"
calls() { "$PY" "$FEAST_SRC/tools/check_calls.py" "$1" >"$TMP/out.txt" 2>&1; rc=$?; cat "$TMP/out.txt"; }

calls "$FEAST_BIN/.."
check "the build: exit 0 (got $rc), no call circle, no upward call" \
  "$rc == 0 and $(grep -c 'no call circle, no upward call' "$TMP/out.txt") == 1"

plant() { # plant LIB/SOURCE 'C code': an object file as the build would name it
  mkdir -p "$TMP/build/CMakeFiles/$(dirname "$1")"
  echo "$2" >"$TMP/src.c"
  cc -c "$TMP/src.c" -o "$TMP/build/CMakeFiles/$1.o"
}
plant feast_base.dir/feast/base/a.c 'void b_f(void); void a_f(void) { b_f(); }'
plant feast_base.dir/feast/base/b.c 'void a_f(void); void b_f(void) { a_f(); }'
calls "$TMP/build"
check "a planted circle: exit 1 (got $rc), both files and the symbols named" \
  "$rc == 1 and $(grep -c 'a call circle of 2 files: feast/base/a.c -> feast/base/b.c (b_f); feast/base/b.c -> feast/base/a.c (a_f)' "$TMP/out.txt") == 1"

rm -rf "$TMP/build"
plant feast_base.dir/feast/base/a.c 'void la_f(void); void a_f(void) { la_f(); }'
plant feast_la.dir/feast/la/c.c 'void la_f(void) {}'
calls "$TMP/build"
check "a planted upward call: exit 1 (got $rc), one line naming both files and layers" \
  "$rc == 1 and $(grep -c '^feast/base/a.c: calls feast/la/c.c (la_f): layer feast/la is above feast/base' "$TMP/out.txt") == 1"
finish
