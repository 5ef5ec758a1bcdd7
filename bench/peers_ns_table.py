#!/usr/bin/env python3
"""The tables of bench/peers_ns.sh from its output folder: one row per run (code, Re,
level, unknowns, wall time, iterations, the three extrema's relative errors), then per
Reynolds number and accuracy the least wall time each code needs to bring the largest
extremum error below it, and feastc's speedup (peer time / feastc time; > 1: feastc
faster). Environment: RES, FEAST_LEVELS, PEER_LEVELS, TOLS (in %), as the script sets.

usage: peers_ns_table.py OUTPUT_FOLDER"""
import json, math, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from compare_ghia import BOTELLA, LINES, extremum, read_profile  # noqa: E402

NAMES = [name for name, _, _ in LINES]


def load(path):
    """a JSON file (feastc's summary), or the JSON last line of the peer's output"""
    try:
        with open(path) as f:
            text = f.read().strip()
    except OSError:
        return None
    for candidate in (text, text.splitlines()[-1] if text else ""):
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    return None


def wall(prefix):
    try:
        with open(prefix + ".wall") as f:
            return float(f.read())
    except (OSError, ValueError):
        return math.nan


def peer_run(out, re, level):
    p = f"{out}/peer_re{re}_L{level}"
    d = load(p + ".out")
    if not d:
        return None
    d = d.get("result", d)
    stages = d.get("stages") or [{}]  # a failed direct attempt before continuation's stages is no failure
    ok = bool(d.get("converged", stages[-1].get("converged", False))) and math.isfinite(d.get("res_final", math.nan))
    return {"code": "deal.II peer", "level": level, "dofs": d["n_dofs"], "wall": wall(p), "ok": ok,
            "its": f"{d['newton_steps']} Newton / {d['fgmres_its']} FGMRES"
                   + (" (continuation)" if d.get("continuation") else ""),
            "values": {k: d[k] for k in NAMES}}


def feast_run(out, re, level):
    p = f"{out}/feast_re{re}_L{level}"
    s = load(p + ".json")
    if not s:
        return None
    try:
        profiles = {k: read_profile(f"{p}_{k}.csv") for k in ("u", "v")}
    except OSError:
        return None
    values = {name: extremum(profiles[line], sign)[0] for name, line, sign in LINES}
    return {"code": "feastc", "level": level, "dofs": s["dofs"], "wall": wall(p), "ok": bool(s["converged"]),
            "its": f"{s['nonlinear_iterations']} nonlinear / {s['linear_iterations']} linear", "values": values}


def references(re, peer):
    """Botella & Peyret where they exist, else the peer's two finest levels extrapolated
    at third order"""
    if re in BOTELLA:
        return {k: BOTELLA[re][k][0] for k in NAMES}, "Botella & Peyret (1998)"
    good = [r for r in peer if r and r["ok"]]
    if len(good) < 2:
        return None, "none (the peer needs two converged levels)"
    a, b = good[-2]["values"], good[-1]["values"]
    return ({k: b[k] + (b[k] - a[k]) / 7.0 for k in NAMES},
            f"the peer's L{good[-2]['level']} and L{good[-1]['level']} extrapolated at order 3")


def main():
    out = sys.argv[1]
    res = [int(r) for r in os.environ.get("RES", "100 400 1000").split()]
    fl = [int(x) for x in os.environ.get("FEAST_LEVELS", "4 5 6").split()]
    pl = [int(x) for x in os.environ.get("PEER_LEVELS", "4 5 6").split()]
    tols = [float(x) for x in os.environ.get("TOLS", "1 0.3 0.1").split()]
    summary = []
    print("| Re | code | L | unknowns | wall (s) | iterations | u_min err % | v_max err % | v_min err % | max % |")
    print("|---:|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for re in res:
        peer = [peer_run(out, re, L) for L in pl]
        feast = [feast_run(out, re, L) for L in fl]
        ref, source = references(re, peer)
        best = {}
        for run in [r for r in peer + feast if r]:
            errs = {k: 100 * abs(run["values"][k] / ref[k] - 1) for k in NAMES} if ref else {}
            worst = max(errs.values()) if errs and run["ok"] else math.inf
            cells = " | ".join(f"{errs[k]:.3f}" if errs else "-" for k in NAMES)
            print(f"| {re} | {run['code']} | {run['level']} | {run['dofs']} | {run['wall']:.2f} | {run['its']}"
                  f"{'' if run['ok'] else ' (not converged)'} | {cells} | {worst:.3f} |")
            for tol in tols:
                if worst < tol:
                    key = (run["code"], tol)
                    best[key] = min(best.get(key, math.inf), run["wall"])
        summary.append((re, source, best))
    print()
    print("| Re | reference | largest extremum error below | feastc (s) | peer (s) | feastc speedup |")
    print("|---:|---|---:|---:|---:|---:|")
    for re, source, best in summary:
        for tol in tols:
            f, p = best.get(("feastc", tol), math.inf), best.get(("deal.II peer", tol), math.inf)
            ratio = f"{p / f:.2f}" if math.isfinite(f) and math.isfinite(p) else "-"
            show = lambda t: f"{t:.2f}" if math.isfinite(t) else "not reached"
            print(f"| {re} | {source} | {tol:g} % | {show(f)} | {show(p)} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
