#!/usr/bin/env bash
# tools/plot_timeseries.py on the time series of a tiny time-dependent run (DFG 2D-3,
# level 1, 4 BDF2 steps of 0.1): the PNG (default name next to the CSV, and -o) exists and
# is a valid PNG (signature, IHDR chunk with its CRC, IEND) of the size asked for; the
# statistics line names the extrema; a CSV without the columns is one error, exit 1.
# Skipped (77) without matplotlib.
. "$(dirname "$0")/lib.sh"
"$PY" -c 'import matplotlib' 2>/dev/null || { echo "matplotlib not available: skipped"; exit 77; }
TOOL="$FEAST_SRC/tools/plot_timeseries.py"
feastc_np 1 "$FEAST_SRC/config/dfg2d3.ini" grid.level=1 time.dt=0.1 time.end=0.4 output.timeseries="$TMP/ts.csv" \
  || fail=$((fail + 1))
check "the run wrote 4 time steps" "$(wc -l <"$TMP/ts.csv") == 5"

valid_png() { # FILE WIDTH HEIGHT
  "$PY" - "$@" <<'PYEOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
ok = data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
n, = struct.unpack(">I", data[8:12])
w, h = struct.unpack(">II", data[16:24])
crc, = struct.unpack(">I", data[16 + n:20 + n])
ok = ok and crc == zlib.crc32(data[12:16 + n]) and data[-8:-4] == b"IEND"
print(f"{sys.argv[1]}: {len(data)} bytes, {w} x {h}")
sys.exit(0 if ok and (w, h) == (int(sys.argv[2]), int(sys.argv[3])) else 1)
PYEOF
}

out=$("$PY" "$TOOL" "$TMP/ts.csv" 2>&1); rc=$?
echo "$out"
check "default output: exit 0" "$rc == 0"
valid_png "$TMP/ts.png" 800 800; check "ts.png next to the CSV is a valid 800 x 800 PNG" "$? == 0"
grep -q "c_D  max" <<<"$out"; check "the statistics name c_D max" "$? == 0"

"$PY" "$TOOL" "$TMP/ts.csv" -o "$TMP/ref.png" --reference dfg2d3 --dpi 50 --from 0.2; rc=$?
check "--reference dfg2d3 -o: exit 0" "$rc == 0"
valid_png "$TMP/ref.png" 400 400; check "ref.png is a valid 400 x 400 PNG" "$? == 0"
"$PY" "$TOOL" "$TMP/ts.csv" -o "$TMP/ref2.png" --reference dfg2d2 >/dev/null; rc=$?
check "--reference dfg2d2: exit 0 and a PNG" "$rc == 0 and $(test -s "$TMP/ref2.png" && echo 1 || echo 0) == 1"

printf 't,x\n0,1\n' >"$TMP/bad.csv"
err=$("$PY" "$TOOL" "$TMP/bad.csv" 2>&1 >/dev/null); rc=$?
echo "bad CSV: $err"
check "a CSV without the columns: exit 1, one line naming them" \
  "$rc == 1 and '$(echo "$err" | wc -l)' == '1' and 'drag_coefficient' in '''$err'''"
check "no PNG for the bad CSV" "$(test -e "$TMP/bad.png" && echo 1 || echo 0) == 0"
finish
