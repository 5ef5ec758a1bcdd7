# Shared by bench/bitwise.sh and bench/regression.sh (sourced; $root is the repository,
# tree_args sets $work, the folder for worktrees and builds).
# tree_args SCRIPT WORK OLD_REF [NEW_REF]: the two revisions a script compares (old_ref,
# new_ref: empty for the working tree) and its folder work (made), or the usage and exit 1
tree_args() {
  [ $# -ge 3 ] || { echo "usage: $1 OLD_REF [NEW_REF]" >&2; exit 1; }
  old_ref=$3
  new_ref=${4:-}
  work=$2
  mkdir -p "$work"
}

# tree REF NAME -> prints the source folder of REF: a git worktree of it under $work
# (made anew), or the working tree itself when REF is empty
tree() {
  local ref=$1 name=$2
  if [ -z "$ref" ]; then echo "$root"; return; fi
  local dir="$work/src-$name"
  git -C "$root" worktree remove --force "$dir" >/dev/null 2>&1 || rm -rf "$dir"
  git -C "$root" worktree add --detach "$dir" "$ref" >/dev/null 2>&1
  echo "$dir"
}

# build SRC BUILD [TARGET...]: Release, no CUDA (the CPU paths), the targets (feastc)
build() {
  local src=$1 bld=$2
  shift 2
  cmake -S "$src" -B "$bld" -DCMAKE_BUILD_TYPE=Release -DFEAST_ENABLE_CUDA=OFF -DBUILD_TESTING=OFF >/dev/null
  cmake --build "$bld" -j2 --target "${@:-feastc}" >/dev/null
}

# the keys that moved (2026-12-02, navier_stokes/ns_keys.c: {"solver.old", "new.name"}):
# a tree whose feastc does not know the new names gets the old ones
moved_keys=$(grep -o '{"solver\.[a-z_]*", "[a-z_]*\.[a-z_]*"}' "$root/navier_stokes/ns_keys.c" | tr -d '{}" ' || true)
old_names() { # old_names BIN OVERRIDES: the overrides as BIN spells them
  local bin=$1 text=$2 pair
  [[ $("$bin" --help-config 2>/dev/null) == *'`nonlinear.rtol`'* ]] && { echo "$text"; return; }
  for pair in $moved_keys; do text=$(sed "s/\b${pair#*,}=/${pair%,*}=/g" <<<"$text"); done
  echo "$text"
}

# revisions OLD_REF NEW_REF: the line "# old: REV, new: REV" of a result file (an empty
# NEW_REF: HEAD + the working tree)
revisions() {
  local new_rev
  new_rev=$(git -C "$root" rev-parse --short "${2:-HEAD}")
  [ -z "$2" ] && new_rev="$new_rev + working tree"
  echo "# old: $(git -C "$root" rev-parse --short "$1"), new: $new_rev"
}
