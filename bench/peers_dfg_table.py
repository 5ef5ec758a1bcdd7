#!/usr/bin/env python3
"""The tables of bench/peers_dfg.sh from its output folder: one row per run (code, level,
unknowns, wall time, iterations, c_D, c_L, delta p and their signed relative errors against
the DFG 2D-1 references c_D = 5.57953523384, c_L = 0.010618948146, delta p = 0.11752016697),
then per threshold the least wall time each code needs to bring the largest of the three
errors below it, and the ratio peer / feastc (> 1: feastc faster). c_L is the hardest of the
three (1 % of it is 1e-4); a second, clearly labelled table does the same with the largest
error of c_D and delta p only (c_L left out). A run that did not converge, or lacks one of
the quantities, reaches no threshold. Writes OUTPUT_FOLDER/peers_dfg.json (every run's raw
numbers and both summaries). Environment: FEAST_LEVELS, PEER_LEVELS, TOLS (in %),
PEER_OPTS (printed), as the script sets.

usage: peers_dfg_table.py OUTPUT_FOLDER"""
import json, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers_ns_table import load, wall  # the same files: summaries, peer JSON lines, .wall

REF = {"c_D": 5.57953523384, "c_L": 0.010618948146, "delta_p": 0.11752016697}
NAMES = list(REF)
PEER, FEAST = "deal.II peer", "feastc"


def num(v):
    return float(v) if isinstance(v, (int, float)) and math.isfinite(v) else None


def peer_run(out, level):
    p = f"{out}/peer_L{level}"
    d = load(p + ".out")
    if not d:
        return None
    stages = d.get("stages") or []
    ok = bool(d.get("converged")) and math.isfinite(d.get("res_final", math.nan))
    return {"code": PEER, "level": level, "dofs": d["n_dofs"], "wall": wall(p), "ok": ok,
            "values": {k: num(d.get(k)) for k in NAMES},
            "its": f"{d['newton_steps']} Newton / {d['fgmres_its']} FGMRES"
                   + (f" (continuation, {len(stages)} stages)" if d.get("continuation") else ""),
            "internal_wall_s": d.get("wall_s"), "peak_rss_mb": d.get("peak_rss_mb"), "stages": stages}


def feast_run(out, level):
    p = f"{out}/feast_L{level}"
    s = load(p + ".json")
    if not s:
        return None
    keys = {"c_D": "drag_coefficient", "c_L": "lift_coefficient", "delta_p": "pressure_difference"}
    return {"code": FEAST, "level": level, "dofs": s["dofs"], "wall": wall(p), "ok": bool(s.get("converged")),
            "values": {k: num(s.get(v)) for k, v in keys.items()},
            "its": f"{s.get('nonlinear_iterations')} nonlinear / {s.get('linear_iterations')} linear"
                   + (f" ({s['continuation_stages']} continuation stages)" if s.get("continuation_stages") else "")}


def largest(run, names):
    errs = [run["errors_percent"][k] for k in names]
    if not run["ok"] or any(e is None for e in errs):
        return math.inf
    return max(abs(e) for e in errs)


def thresholds(runs, tols, names, title):
    best = {}
    for run in runs:
        worst = largest(run, names)
        for tol in tols:
            if worst < tol:
                best[(run["code"], tol)] = min(best.get((run["code"], tol), math.inf), run["wall"])
    print(title)
    print()
    print("| largest error below | feastc (s) | peer (s) | peer / feastc |")
    print("|---:|---:|---:|---:|")
    summary = []
    show = lambda t: f"{t:.2f}" if math.isfinite(t) else "not reached"
    for tol in tols:
        f, p = best.get((FEAST, tol), math.inf), best.get((PEER, tol), math.inf)
        ratio = p / f if math.isfinite(f) and math.isfinite(p) else None
        print(f"| {tol:g} % | {show(f)} | {show(p)} | {f'{ratio:.2f}' if ratio else '-'} |")
        summary.append({"tol_percent": tol, "feastc_s": f if math.isfinite(f) else None,
                        "peer_s": p if math.isfinite(p) else None, "peer_over_feastc": ratio})
    print()
    return summary


def main():
    out = sys.argv[1]
    fl = [int(x) for x in os.environ.get("FEAST_LEVELS", "2 3 4 5 6 7 8").split()]
    pl = [int(x) for x in os.environ.get("PEER_LEVELS", "0 1 2 3 4").split()]
    tols = [float(x) for x in os.environ.get("TOLS", "3 1 0.3").split()]
    runs = [r for r in [peer_run(out, L) for L in pl] + [feast_run(out, L) for L in fl] if r]
    print("DFG 2D-1 (Re = 20); signed relative errors against c_D = 5.57953523384, "
          "c_L = 0.010618948146, delta p = 0.11752016697; wall: the whole program, from outside; "
          f"peer options: {os.environ.get('PEER_OPTS') or 'none'}")
    print()
    print("| code | L | unknowns | wall (s) | iterations | c_D | c_L | delta p | c_D err % | c_L err % "
          "| delta p err % | max % | max of c_D, delta p % |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for run in runs:
        v = run["values"]
        run["errors_percent"] = {k: (100 * (v[k] / REF[k] - 1) if v[k] is not None else None) for k in NAMES}
        e = run["errors_percent"]
        a, b = largest(run, NAMES), largest(run, ["c_D", "delta_p"])
        run["max_error_percent"] = a if math.isfinite(a) else None
        run["max_error_cD_dp_percent"] = b if math.isfinite(b) else None
        note = "" if run["ok"] else " (not converged)"
        vals = " | ".join(f"{v[k]:.8g}" if v[k] is not None else "-" for k in NAMES)
        errs = " | ".join(f"{e[k]:+.4f}" if e[k] is not None else "-" for k in NAMES)
        shown = lambda x: f"{x:.4f}" if math.isfinite(x) else "-"
        print(f"| {run['code']} | {run['level']} | {run['dofs']} | {run['wall']:.2f} | {run['its']}{note} "
              f"| {vals} | {errs} | {shown(a)} | {shown(b)} |")
    print()
    full = thresholds(runs, tols, NAMES, "Least wall time to bring the largest error of c_D, c_L and delta p below:")
    part = thresholds(runs, tols, ["c_D", "delta_p"],
                      "For information only, c_L left out: least wall time to bring the largest error of "
                      "c_D and delta p below:")
    raw = os.path.join(out, "peers_dfg.json")
    with open(raw, "w") as fh:
        json.dump({"peer_options": os.environ.get("PEER_OPTS", ""), "reference": {"source": "Schaefer & Turek (1996), DFG 2D-1", **REF}, "runs": runs,
                   "summary": full, "summary_cD_dp_only": part}, fh, indent=1)
    print(f"raw: {raw}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
