#!/usr/bin/env bash
# --dry-run reports problem sizes without assembling (also for sizes beyond memory).
. "$(dirname "$0")/lib.sh"
feastc_np 1 "$FEAST_SRC/config/poisson.ini" --dry-run grid.level=7 || fail=$((fail+1))
check "unitsquare8 L=7: 131,841 nodes" "$(json nodes) == 131841"
check "poisson: dofs = nodes" "$(json dofs) == 131841"
cat > "$TMP/channel.ini" <<EOF
[problem]
type = navier-stokes
[grid]
file = $FEAST_SRC/grids/dfg24.feast
[boundary.inflow]
u = 4*0.3*y*(0.41-y)/0.41^2
v = 0
[boundary.wall]
u = 0
v = 0
[boundary.cylinder]
u = 0
v = 0
EOF
feastc_np 1 "$TMP/channel.ini" --dry-run grid.level=9 || fail=$((fail+1))
check "dfg24 L=9: 6,297,088 nodes" "$(json nodes) == 6297088"
check "dfg24 L=9 navier-stokes: 18,891,264 dofs" "$(json dofs) == 18891264"
check "dry run flagged" "'$(json dry_run)' == 'true'"
feastc_np 1 "$FEAST_SRC/config/poisson.ini" --dry-run grid.level=12 || fail=$((fail+1))
check "L=12 dry run works (sizes beyond memory): 4096*8*... nodes" "$(json nodes) == (4*4096+1)*(2*4096+1)"
"$FEASTC" "$FEAST_SRC/config/poisson.ini" --dry-run grid.level=7 | grep -q "131841 nodes"
check "stdout names the node count" "$? == 0"
finish
