#!/usr/bin/env python3
"""Compare the cavity's centre-line profiles (feastc output.centerlines = PREFIX) with
Ghia, Ghia & Shin (1982): interpolates PREFIX_u.csv / PREFIX_v.csv linearly (the Q1
solution is linear along a grid line) at the reference positions and prints one line per
point and the largest deviation. Exit 1 if a deviation exceeds --tol.

With the Re = 100 and Re = 1000 references it also prints the extrema of the profiles
(parabola through the extreme node and its neighbours) against highly accurate values:
grid-converged ones at Re = 100, Botella & Peyret's spectral ones at Re = 1000 (more
accurate than Ghia's table, which is off by 0.006 in u_min there).

A reference row may carry a fourth field, a note: such a row (a misprint of the published
table) is printed but not compared.

usage: compare_ghia.py PREFIX [--reference tests/data/reference/ghia_re100.csv] [--tol 0.01]
                              [--extrema-tol REL]"""
import argparse, csv, os, re, sys

def read_profile(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return [(float(a), float(b)) for a, b in rows[1:]]

def interpolate(profile, s):
    for (s0, v0), (s1, v1) in zip(profile, profile[1:]):
        if s0 <= s <= s1:
            return v0 if s1 == s0 else v0 + (v1 - v0) * (s - s0) / (s1 - s0)
    raise ValueError(f"position {s} outside the profile [{profile[0][0]}, {profile[-1][0]}]")

# grid-converged extrema of the centre lines at Re = 100 (u_min on x = 0.5, v_max and
# v_min on y = 0.5), as tabulated e.g. by Marchi, Suero & Araki, J. Braz. Soc. Mech. Sci.
# Eng. 31 (2009) 186-198 (1024 x 1024 grid, Richardson-extrapolated)
# Re = 1000: Botella & Peyret, Computers & Fluids 27 (1998) 421-433, Chebyshev
# collocation (u_min at y = 0.1717, v_max at x = 0.1578, v_min at x = 0.9092)
EXTREMA = {100: ("grid-converged", {"u_min": -0.2140424, "v_max": 0.1795728, "v_min": -0.2538030}),
           1000: ("Botella-Peyret", {"u_min": -0.3885698, "v_max": 0.3769447, "v_min": -0.5270771})}

def extremum(profile, sign):
    """value and position of the extremum of sign * value: the parabola through the
    extreme node and its two neighbours"""
    k = max(range(1, len(profile) - 1), key=lambda i: sign * profile[i][1])
    (s0, v0), (s1, v1), (s2, v2) = profile[k - 1:k + 2]
    den = (s0 - s1) * (s0 - s2) * (s1 - s2)
    a = (s2 * (v1 - v0) + s1 * (v0 - v2) + s0 * (v2 - v1)) / den
    b = (s2 * s2 * (v0 - v1) + s1 * s1 * (v2 - v0) + s0 * s0 * (v1 - v2)) / den
    c = v1 - a * s1 * s1 - b * s1
    s = -b / (2 * a) if a != 0 else s1
    return a * s * s + b * s + c, s

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("prefix")
    ap.add_argument("--reference", default=os.path.join(here, "..", "tests", "data", "reference", "ghia_re100.csv"))
    ap.add_argument("--tol", type=float, default=0.01)
    ap.add_argument("--extrema-tol", type=float, default=None,
                    help="also fail if an extremum differs from the reference value by more (relative)")
    a = ap.parse_args()
    profiles = {k: read_profile(f"{a.prefix}_{k}.csv") for k in ("u", "v")}
    worst = 0.0
    with open(a.reference) as f:
        for row in csv.reader(line for line in f if not line.startswith("#")):
            line, s, ref = row[0], float(row[1]), float(row[2])
            got = interpolate(profiles[line], s)
            note = row[3] if len(row) > 3 else ""
            if note:  # a known misprint of the table: shown, not compared
                print(f"{line} at {s:.4f}: feastc {got:+.5f}  Ghia {ref:+.5f}  not compared: {note}")
                continue
            worst = max(worst, abs(got - ref))
            print(f"{line} at {s:.4f}: feastc {got:+.5f}  Ghia {ref:+.5f}  difference {got - ref:+.5f}")
    print(f"largest deviation {worst:.5f} (tolerance {a.tol})")
    m = re.search(r"re(\d+)\.csv$", os.path.basename(a.reference))
    if m and int(m.group(1)) in EXTREMA:
        source, values = EXTREMA[int(m.group(1))]
        for name, line, sign in (("u_min", "u", -1), ("v_max", "v", 1), ("v_min", "v", -1)):
            value, at = extremum(profiles[line], sign)
            ref = values[name]
            rel = (value - ref) / abs(ref)
            print(f"{name}: feastc {value:+.6f} at {at:.4f}, {source} {ref:+.7f}: relative difference {rel:+.2e}")
            if a.extrema_tol is not None and abs(rel) > a.extrema_tol:
                worst = float("inf")
    return 0 if worst <= a.tol else 1

if __name__ == "__main__":
    sys.exit(main())
