#!/usr/bin/python3
"""Where does the time go: one config under two settings, the FEAST paper's tables.

Runs feastc on CONFIG under setting C (the baseline: the paper's superscript C, by default
solver.target=cpu) and setting G (the accelerated one: superscript G, by default
solver.target=gpu) over a list of levels, REPEAT times each (alternating C and G), and
prints, from the "amdahl" objects of the run summaries (feast/io/amdahl.h):

  stokes (Table 2):  L, T_lin^C, T_loc^C, T_lin^G, T_loc^G, R_acc, S_max, S_loc, S_tot
  ns     (Table 3):  Re, L, R_ass^C, R_lin^C, R_ass^G, R_lin^G, R_acc, S_tot, S_max
  dfg    (Table 4):  L, R_ass^C, R_lin^C, R_ass^G, R_lin^G, R_acc, S_loc, S_tot, S_max

with R_acc = T_loc^C / T_lin^C (stokes table) or T_loc^C / T_tot^C (ns, dfg), S_max =
1 / (1 - R_acc), S_loc = T_loc^C / T_loc^G, S_tot = T_lin^C / T_lin^G (stokes) or
T_tot^C / T_tot^G (ns, dfg), R_ass^X = T_ass^X / T_tot^X, R_lin^X = T_lin^X / T_tot^X.
It also checks that both settings computed the same result (l2_error, kinetic_energy,
drag_coefficient, lift_coefficient: relative difference) and prints both iteration
counts, and Amdahl's prediction S_pred = 1/((1 - R_acc) + R_acc/S_loc) from the measured
local speedup (CSV, plot). --cores N adds the paper's Table 2 (bottom): setting C on N MPI ranks, the
honest baseline for buying accelerators.

Outputs: Markdown on stdout and in OUT/compare.md, OUT/compare.csv, OUT/compare.png
(matplotlib: measured S_tot against S_max, and S_loc, per level), the run summaries in
OUT/runs/; one progress line per run on stderr.

Example without a GPU (CPU double vs CPU single local multigrids):
  bench/compare.py config/poisson.ini -C solver.local_precision=double \\
      -G solver.local_precision=single --levels 6 7 8 --cores 2
"""
import argparse
import csv
import datetime
import json
import math
import os
import platform
import shlex
import statistics
import subprocess
import sys

TIMES = ("T_tot", "T_lin", "T_loc", "T_ass", "T_setup")
# results both settings must agree on, where the summary has them
RESULTS = ("l2_error", "kinetic_energy", "drag_coefficient", "lift_coefficient", "pressure_difference")
TABLES = {
    "stokes": ["L", "T_lin^C", "T_loc^C", "T_lin^G", "T_loc^G", "R_acc", "S_max", "S_loc", "S_tot"],
    "ns": ["Re", "L", "R_ass^C", "R_lin^C", "R_ass^G", "R_lin^G", "R_acc", "S_tot", "S_max"],
    "dfg": ["L", "R_ass^C", "R_lin^C", "R_ass^G", "R_lin^G", "R_acc", "S_loc", "S_tot", "S_max"],
}
TABLE_ALIASES = {"linear": "stokes", "poisson": "stokes", "stokes": "stokes", "ns": "ns",
                 "navier-stokes": "ns", "cavity": "ns", "dfg": "dfg"}
EXIT_NAMES = {1: "bad input", 2: "not converged", 3: "size or memory limit", 4: "runtime failure",
              5: "feature not available in this build or on this machine"}


def die(msg):
    print(f"compare: error: {msg}", file=sys.stderr)
    sys.exit(1)


def ratio(a, b):
    return a / b if b and b > 0 else float("nan")


def parse_args(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(
        prog="bench/compare.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n")[0],
        epilog="Settings take config overrides (section.key=value), repeated or space separated.\n"
               "Trailing key=value arguments apply to both settings.\n\n" + __doc__.split("\n\n", 1)[1])
    p.add_argument("config", help="feastc config (.ini)")
    p.add_argument("overrides", nargs="*", help="section.key=value for both settings")
    p.add_argument("-C", "--baseline", action="append", metavar="K=V",
                   help="overrides of setting C (default: solver.target=cpu)")
    p.add_argument("-G", "--accelerated", action="append", metavar="K=V",
                   help="overrides of setting G (default: solver.target=gpu)")
    p.add_argument("--levels", type=int, nargs="+", default=[5, 6, 7], help="grid levels (default 5 6 7)")
    p.add_argument("--re", type=float, nargs="+", help="Reynolds numbers (problem.re), one table row each")
    p.add_argument("--repeat", type=int, default=3, help="runs per setting and level (default 3)")
    p.add_argument("--pick", choices=("best", "median"), default="best",
                   help="how repeated runs make one figure: the minimum (best) or the median of each "
                        "time over the runs (default best)")
    p.add_argument("--table", default="auto", choices=["auto"] + sorted(TABLE_ALIASES),
                   help="auto: stokes for poisson and stokes, dfg for navier-stokes runs with a drag "
                        "coefficient, ns otherwise")
    p.add_argument("--np-c", type=int, default=1, help="MPI ranks of setting C (default 1)")
    p.add_argument("--np-g", type=int, default=1, help="MPI ranks of setting G (default 1)")
    p.add_argument("--cores", default="0",
                   help="also run setting C on this many ranks ('all' = every core, %d here) and print "
                        "the multi-core table (default 0: off)" % (os.cpu_count() or 1))
    p.add_argument("--agree-rtol", type=float, default=1e-6,
                   help="largest relative difference of the results that counts as the same (1e-6)")
    p.add_argument("--out", default="compare_out", help="output folder (default compare_out)")
    p.add_argument("--feastc", default=os.environ.get("FEASTC", os.path.join(here, "..", "build", "bin", "feastc")),
                   help="feastc executable (default $FEASTC or build/bin/feastc)")
    p.add_argument("--mpiexec", default=os.environ.get("MPIEXEC", "mpiexec"), help="MPI launcher ($MPIEXEC)")
    p.add_argument("--mpi-flags", default=None,
                   help="launcher flags, given as --mpi-flags='...' (default: --bind-to core, or "
                        "--oversubscribe --bind-to none with more ranks than cores)")
    p.add_argument("--reuse", action="store_true",
                   help="take summaries already in OUT/runs instead of running again (re-render tables)")
    p.add_argument("--no-plot", action="store_true", help="skip the PNG")
    a = p.parse_intermixed_args(argv)
    split = lambda lst, default: [w for s in (lst or [default]) for w in shlex.split(s)]
    a.set_c = split(a.baseline, "solver.target=cpu")
    a.set_g = split(a.accelerated, "solver.target=gpu")
    for o in a.set_c + a.set_g + a.overrides:
        if "=" not in o or o.startswith("-"):
            die(f"'{o}' is not a config override section.key=value")
    a.cores = (os.cpu_count() or 1) if a.cores == "all" else int(a.cores)
    if a.repeat < 1 or a.np_c < 1 or a.np_g < 1 or a.cores < 0:
        die("--repeat, --np-c, --np-g must be >= 1 and --cores >= 0")
    return a


class Runner:
    def __init__(self, a):
        self.a = a
        self.runs_dir = os.path.join(a.out, "runs")
        os.makedirs(self.runs_dir, exist_ok=True)
        if not a.reuse and not os.access(a.feastc, os.X_OK):
            die(f"feastc not found at {a.feastc} (build it, or pass --feastc / set FEASTC)")
        self.count = 0

    def command(self, np, overrides, summary):
        cmd = [self.a.feastc, self.a.config] + overrides + [f"output.summary={summary}", "output.verbosity=0"]
        if np == 1:
            return cmd
        flags = self.a.mpi_flags
        if flags is None:
            flags = "--bind-to core" if np <= (os.cpu_count() or 1) else "--oversubscribe --bind-to none"
        return [self.a.mpiexec] + shlex.split(flags) + ["-np", str(np)] + cmd

    def run(self, tag, label, np, overrides, total):
        self.count += 1
        path = os.path.join(self.runs_dir, tag + ".json")
        reused = self.a.reuse and os.path.exists(path)
        if not reused:
            if os.path.exists(path):
                os.remove(path)
            env = dict(os.environ)
            if os.geteuid() == 0:  # Open MPI refuses root without these
                env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
                env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            cmd = self.command(np, overrides, os.path.abspath(path))
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               stdin=subprocess.DEVNULL)
            if p.returncode not in (0, 2) or not os.path.exists(path):
                why = EXIT_NAMES.get(p.returncode, "")
                hint = ""
                if p.returncode == 5 and "gpu" in " ".join(overrides):
                    hint = ("\n  no GPU here? compare two CPU settings instead, e.g. -C solver.local_precision=double "
                            "-G solver.local_precision=single")
                die(f"run {label} failed with exit {p.returncode} ({why}):\n  {shlex.join(cmd)}\n"
                    f"  {p.stderr.strip()[-2000:]}{hint}")
        with open(path) as f:
            d = json.load(f)
        if "amdahl" not in d:
            die(f"{path} has no 'amdahl' object: feastc too old, or a dry run")
        t = d["amdahl"]
        its = iterations(d)
        print(f"[{self.count:3d}/{total}] {label}: T_tot {t['T_tot']:.3f} s  T_lin {t['T_lin']:.3f} s  "
              f"T_loc {t['T_loc']:.3f} s  {its[1]} {its[0]}"
              f"{'' if d.get('converged', True) else '  NOT CONVERGED'}{'  (reused)' if reused else ''}",
              file=sys.stderr, flush=True)
        return d


def iterations(d):
    """(count, name): the iteration count that the settings may differ in"""
    for k in ("linear_iterations", "global_mg_iterations"):
        if k in d:
            return d[k], k
    return 0, "iterations"


def pick(runs, how):
    """one summary standing for repeated runs of a setting: every time T_* is the minimum
    (best) or the median over the runs, timer by timer (the runs share the machine with
    others, and noise hits one phase of a run, not all). T_loc <= T_lin <= T_tot holds in
    every run, so it holds for these order statistics too. Results and iteration counts
    are those of the first run (the runs are deterministic)."""
    d = dict(runs[0])
    stat = min if how == "best" else statistics.median
    d["amdahl"] = dict(d["amdahl"], **{k: stat(r["amdahl"][k] for r in runs) for k in TIMES})
    return d


def table_kind(a, d):
    if a.table != "auto":
        return TABLE_ALIASES[a.table]
    if d.get("problem") == "navier-stokes":
        return "dfg" if "drag_coefficient" in d else "ns"
    return "stokes"


def row_values(kind, c, g):
    """the derived figures of one (Re, L) from the representative runs of C and G"""
    C, G = c["amdahl"], g["amdahl"]
    base = "T_lin" if kind == "stokes" else "T_tot"
    v = {f"{k}^{s}": X[k] for s, X in (("C", C), ("G", G)) for k in TIMES}
    for s, X in (("C", C), ("G", G)):
        v[f"R_ass^{s}"] = ratio(X["T_ass"], X["T_tot"])
        v[f"R_lin^{s}"] = ratio(X["T_lin"], X["T_tot"])
    v["R_acc"] = ratio(C["T_loc"], C[base])
    v["S_max"] = 1 / (1 - v["R_acc"]) if v["R_acc"] < 1 else float("inf")
    v["S_loc"] = ratio(C["T_loc"], G["T_loc"])
    v["S_tot"] = ratio(C[base], G[base])
    # Amdahl's law with the measured local speedup: what S_tot should be if only T_loc
    # changed between C and G
    v["S_pred"] = 1 / ((1 - v["R_acc"]) + v["R_acc"] / v["S_loc"]) if v["S_loc"] > 0 else float("nan")
    return v


def fmt(col, x):
    if isinstance(x, str):
        return x
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if col == "L":
        return str(int(x))
    if col == "Re":
        return f"{x:g}"
    if col.startswith("T_"):
        return f"{x:.3f}"
    return f"{x:.2f}"


def md_table(cols, rows):
    out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---:" for _ in cols) + "|"]
    out += ["| " + " | ".join(fmt(c, r.get(c)) for c in cols) + " |" for r in rows]
    return out


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    return f"{platform.node()}, {os.cpu_count()} cores{', ' + model if model else ''}"


def plot(a, rows, path, kind, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"compare: plot skipped: matplotlib not found for {sys.executable} "
              "(Debian: apt-get install python3-matplotlib; tools/deps.sh installs it)", file=sys.stderr)
        return False
    res = sorted({r["Re"] for r in rows}, key=lambda x: (x == "-", x))
    fig, axes = plt.subplots(1, len(res), figsize=(6 * len(res), 4.2), squeeze=False)
    for ax, re in zip(axes[0], res):
        rr = [r for r in rows if r["Re"] == re]
        L = [r["L"] for r in rr]
        ax.plot(L, [r["S_max"] for r in rr], "k--", marker="^", label="S_max = 1/(1-R_acc) (Amdahl bound)")
        ax.plot(L, [r["S_tot"] for r in rr], "C0-", marker="o", linewidth=2, label="S_tot (measured)")
        ax.plot(L, [r["S_loc"] for r in rr], "C1-", marker="s", label="S_loc (local multigrids)")
        ax.plot(L, [r["S_pred"] for r in rr], "C3:", marker="x", label="Amdahl with measured S_loc")
        if a.cores and "S_tot^n" in rr[0]:
            ax.plot(L, [r["S_tot^n"] for r in rr], "C2:", marker="d", label=f"S_tot vs C on {a.cores} ranks")
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_xlabel("level L")
        ax.set_ylabel("speedup G over C")
        ax.set_xticks(L)
        ax.set_title(title + ("" if re == "-" else f", Re {re:g}"), fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv):
    a = parse_args(argv)
    r = Runner(a)
    res_list = a.re or [None]
    settings = [("C", a.np_c, a.set_c), ("G", a.np_g, a.set_g)]
    if a.cores:
        settings.append(("Cn", a.cores, a.set_c))
    total = len(res_list) * len(a.levels) * a.repeat * len(settings)
    runs = {}
    for re in res_list:
        for L in a.levels:
            for k in range(a.repeat):
                for s, np, ov in settings:
                    common = a.overrides + ([f"problem.re={re:g}"] if re is not None else []) + [f"grid.level={L}"]
                    tag = (f"Re{re:g}_" if re is not None else "") + f"L{L}_{s}_{k + 1}"
                    label = (f"Re {re:g} " if re is not None else "") + \
                            f"L={L} {s} run {k + 1}/{a.repeat} (np {np}: {' '.join(ov)})"
                    runs.setdefault((re, L, s), []).append(r.run(tag, label, np, common + ov, total))

    first = runs[(res_list[0], a.levels[0], "C")][0]
    kind = table_kind(a, first)
    key = "T_lin" if kind == "stokes" else "T_tot"
    rows, agree, worst, worst_its = [], [], (0.0, None), (0.0, None)
    for re in res_list:
        for L in a.levels:
            c, g = pick(runs[(re, L, "C")], a.pick), pick(runs[(re, L, "G")], a.pick)
            v = row_values(kind, c, g)
            re_val = re if re is not None else c.get("re", "-") if kind == "ns" else "-"
            v.update({"Re": re_val, "L": L, "dofs": c.get("dofs")})
            if a.cores:
                cn = pick(runs[(re, L, "Cn")], a.pick)
                v[f"{key}^Cn"] = cn["amdahl"][key]
                v["S_n"] = ratio(c["amdahl"][key], cn["amdahl"][key])
                v["S_tot^n"] = ratio(cn["amdahl"][key], g["amdahl"][key])
            (ic, name), (ig, _) = iterations(c), iterations(g)
            v.update({"its^C": ic, "its^G": ig, "its": name,
                      "its_diff": (ig - ic) / ic if ic else float("nan"),
                      "converged^C": c.get("converged"), "converged^G": g.get("converged")})
            for q in RESULTS:
                if q in c and q in g and c[q] is not None and g[q] is not None:
                    rd = abs(g[q] - c[q]) / max(abs(c[q]), 1e-300)
                    v[f"{q}^C"], v[f"{q}^G"], v[f"{q}_reldiff"] = c[q], g[q], rd
                    agree.append((re_val, L, q, c[q], g[q], rd, ic, ig, name))
                    if rd >= worst[0]:
                        worst = (rd, f"{q}, L={L}" + (f", Re {re_val:g}" if re_val != "-" else ""))
            if ic and abs(v["its_diff"]) >= abs(worst_its[0]):
                worst_its = (v["its_diff"], f"L={L}")
            rows.append(v)

    # ------------------------------------------------------------------ report
    cfg = os.path.relpath(a.config)
    problem = first.get("problem", "?")
    how = f"{'best' if a.pick == 'best' else 'median'} of {a.repeat} run{'s' if a.repeat > 1 else ''}"
    lines = [f"## feastc compare: {cfg} ({problem}), table {kind}", ""]
    lines += [f"- C: `{' '.join(a.set_c)}`, {a.np_c} rank{'s' if a.np_c > 1 else ''}; "
              f"G: `{' '.join(a.set_g)}`, {a.np_g} rank{'s' if a.np_g > 1 else ''}"
              + (f"; common: `{' '.join(a.overrides)}`" if a.overrides else ""),
              f"- every time: {how} per setting, timer by timer ({'minimum' if a.pick == 'best' else 'median'} over "
              f"the runs); seconds, maxima over ranks",
              f"- R_acc = T_loc^C/{key}^C, S_max = 1/(1-R_acc), S_loc = T_loc^C/T_loc^G, S_tot = {key}^C/{key}^G"
              + (", R_ass = T_ass/T_tot, R_lin = T_lin/T_tot" if kind != "stokes" else ""),
              f"- machine: {machine()}; date {datetime.date.today().isoformat()}",
              f"- command: `{shlex.join(['bench/compare.py'] + argv)}`", ""]
    cols = TABLES[kind]
    if kind == "stokes" and a.re:
        cols = ["Re"] + cols
    lines += md_table(cols, rows) + [""]
    lines += ["Amdahl's law with the measured local speedup, 1/((1-R_acc) + R_acc/S_loc): "
              + ", ".join(f"{fmt('S', v['S_pred'])}" for v in rows) + " (measured S_tot: "
              + ", ".join(f"{fmt('S', v['S_tot'])}" for v in rows) + ")", ""]
    if a.cores:
        n = a.cores
        lines += [f"Multi-core baseline (the paper's Table 2, bottom): C on {n} ranks (Cn) against G; "
                  f"S_n = {key}^C/{key}^Cn ({a.np_c} vs {n} ranks), S_tot = {key}^Cn/{key}^G", ""]
        mcols = (["Re"] if a.re else []) + ["L", f"{key}^C", f"{key}^Cn", f"{key}^G", "S_n", "S_tot^n"]
        lines += [l.replace("S_tot^n", "S_tot") if i == 0 else l
                  for i, l in enumerate(md_table(mcols, rows))] + [""]
    lines += ["Same result? (relative difference |G - C| / |C|; iterations: " + (agree[0][8] if agree else "-") + ")", ""]
    with_re = any(x[0] != "-" for x in agree)
    acols = (["Re"] if with_re else []) + ["L", "quantity", "C", "G", "rel. diff", "its C", "its G", "its diff"]
    lines += ["| " + " | ".join(acols) + " |", "|" + "|".join("---:" for _ in acols) + "|"]
    for re_val, L, q, vc, vg, rd, ic, ig, _ in agree:
        lines.append("| " + (f"{fmt('Re', re_val)} | " if with_re else "") +
                     f"{L} | {q} | {vc:.10g} | {vg:.10g} | {rd:.1e} | {ic} | {ig} | "
                     f"{(100 * (ig - ic) / ic if ic else float('nan')):+.1f} % |")
    same = bool(agree) and worst[0] <= a.agree_rtol
    its_txt = (f"iterations differ by at most {100 * abs(worst_its[0]):.1f} % ({worst_its[1]})"
               if worst_its[1] else "iterations equal")
    if not agree:
        verdict = "agreement: no result quantity in the summaries to compare"
    elif same:
        verdict = (f"agreement: both settings computed the same result: largest relative difference "
                   f"{worst[0]:.1e} ({worst[1]}) <= {a.agree_rtol:g}; {its_txt}")
    else:
        verdict = (f"agreement: the settings DIFFER: relative difference {worst[0]:.1e} ({worst[1]}) > "
                   f"{a.agree_rtol:g}; {its_txt}")
    notconv = [f"L={v['L']}" for v in rows if v["converged^C"] is False or v["converged^G"] is False]
    lines += ["", verdict]
    if notconv:
        lines.append("warning: not converged in some runs: " + ", ".join(notconv))
    png = os.path.join(a.out, "compare.png")
    title = f"{os.path.basename(cfg)}: C = {' '.join(a.set_c)}, G = {' '.join(a.set_g)}"
    plotted = not a.no_plot and plot(a, rows, png, kind, title)
    lines += ["", f"Files: {os.path.join(a.out, 'compare.md')}, {os.path.join(a.out, 'compare.csv')}"
              + (f", {png}" if plotted else "") + f", run summaries in {r.runs_dir}/"]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    with open(os.path.join(a.out, "compare.md"), "w") as f:
        f.write(text)
    # CSV: every raw and derived figure of a row
    fields = ["Re", "L", "dofs"] + [f"{k}^{s}" for s in ("C", "G") for k in TIMES]
    if a.cores:
        fields += [f"{key}^Cn", "S_n", "S_tot^n"]
    fields += ["R_acc", "S_max", "S_loc", "S_tot", "S_pred", "R_ass^C", "R_lin^C", "R_ass^G", "R_lin^G", "its",
               "its^C", "its^G", "its_diff", "converged^C", "converged^G"]
    fields += [f"{q}{x}" for q in RESULTS if any(f"{q}^C" in v for v in rows) for x in ("^C", "^G", "_reldiff")]
    with open(os.path.join(a.out, "compare.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([c.replace("^", "_") for c in fields])
        for v in rows:
            w.writerow(["" if v.get(c) is None else v.get(c) for c in fields])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
