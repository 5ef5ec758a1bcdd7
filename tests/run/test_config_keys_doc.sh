#!/usr/bin/env bash
# docs/reference/config-keys.md is what tools/gen_config_keys.sh makes of this build's
# `feastc --help-config`: regenerated into a temporary file and compared with the
# committed one; a key, default, range or help text changed without regenerating the
# reference fails here, with the diff and the command that regenerates it. ~1 s.
. "$(dirname "$0")/lib.sh"
ref="$FEAST_SRC/docs/reference/config-keys.md"
"$FEAST_SRC/tools/gen_config_keys.sh" "$FEASTC" >"$TMP/config-keys.md"
rc=$?
check "tools/gen_config_keys.sh exits 0" "$rc == 0"
check "docs/reference/config-keys.md exists" "$([ -f "$ref" ] && echo 1 || echo 0) == 1"
if diff -u "$ref" "$TMP/config-keys.md" >"$TMP/diff"; then
  same=1
else
  same=0
  cat "$TMP/diff"
  echo "the committed reference differs from the generated one; regenerate it with"
  echo "  tools/gen_config_keys.sh build/bin/feastc > docs/reference/config-keys.md"
fi
check "docs/reference/config-keys.md is the generated reference" "$same == 1"
finish
