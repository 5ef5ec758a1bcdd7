#!/usr/bin/env python3
"""Compare the cavity's centre-line profiles (feastc output.centerlines = PREFIX) with
Ghia, Ghia & Shin (1982): interpolates PREFIX_u.csv / PREFIX_v.csv linearly (the Q1
solution is linear along a grid line) at the reference positions and prints one line per
point and the largest deviation. Exit 1 if a deviation exceeds --tol.

usage: compare_ghia.py PREFIX [--reference tests/data/reference/ghia_re100.csv] [--tol 0.01]"""
import argparse, csv, os, sys

def read_profile(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return [(float(a), float(b)) for a, b in rows[1:]]

def interpolate(profile, s):
    for (s0, v0), (s1, v1) in zip(profile, profile[1:]):
        if s0 <= s <= s1:
            return v0 if s1 == s0 else v0 + (v1 - v0) * (s - s0) / (s1 - s0)
    raise ValueError(f"position {s} outside the profile [{profile[0][0]}, {profile[-1][0]}]")

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("prefix")
    ap.add_argument("--reference", default=os.path.join(here, "..", "tests", "data", "reference", "ghia_re100.csv"))
    ap.add_argument("--tol", type=float, default=0.01)
    a = ap.parse_args()
    profiles = {k: read_profile(f"{a.prefix}_{k}.csv") for k in ("u", "v")}
    worst = 0.0
    with open(a.reference) as f:
        for row in csv.reader(line for line in f if not line.startswith("#")):
            line, s, ref = row[0], float(row[1]), float(row[2])
            got = interpolate(profiles[line], s)
            worst = max(worst, abs(got - ref))
            print(f"{line} at {s:.4f}: feastc {got:+.5f}  Ghia {ref:+.5f}  difference {got - ref:+.5f}")
    print(f"largest deviation {worst:.5f} (tolerance {a.tol})")
    return 0 if worst <= a.tol else 1

if __name__ == "__main__":
    sys.exit(main())
