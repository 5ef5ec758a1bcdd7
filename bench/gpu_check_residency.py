#!/usr/bin/env python3
"""The device-mode tables of bench/gpu_check.sh (solver.residency = device, issue #46).

  gpu_check_residency.py header
  gpu_check_residency.py row NAME L CPU.json GPU.json DEVICE.json
      one row: iterations of the CPU, host-mode GPU and device-mode runs, the device
      run's result against the CPU's (relative difference; the Done means ask 1e-8), T_tot
      of the three, S_tot = T_tot(cpu) / T_tot(device), the bytes that crossed and the
      round trips per linear iteration, the device memory estimate and peak
  gpu_check_residency.py allcores NCPU CPU_NP.json DEVICE.json
      the device mode against every core of the host as MPI ranks (one line)
  gpu_check_residency.py weak RUN.json ...
      weak scaling: per run (the ranks, the level, unknowns per rank) T_tot, the linear
      solve's time per linear iteration and its efficiency against the first run's
A missing or unreadable summary shows as "-" (the step that wrote it failed)."""
import json
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def get(d, *keys):
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def num(v, digits=3):
    return "-" if v is None else f"{v:.{digits}f}"


def its(d):
    if d is None:
        return "-"
    if "nonlinear_iterations" in d:
        return f"{d['nonlinear_iterations']}/{d.get('linear_iterations', '-')}"
    return str(d.get("global_mg_iterations", "-"))


def result(c, g):
    """a result quantity of the CPU run and the device run's relative difference from it"""
    for k in ("drag_coefficient", "kinetic_energy", "l2_error"):
        if c and g and k in c and k in g and c[k]:
            return f"{k} {c[k]:.10g}, {abs(g[k] - c[k]) / abs(c[k]):.1e}"
    return "-"


def ratio(x, y):
    return None if x is None or not y else x / y


def header():
    print("iterations: global MG (Poisson) or nonlinear/linear; T_tot from the summaries' amdahl "
          "section; S_tot = T_tot(cpu) / T_tot(device); crossed: bytes both ways per linear "
          "iteration (vectors staged, interface values, matrices, scalars), with the round trips")
    print()
    print("| config | L | its cpu / gpu / device | result cpu, rel. diff. device | T_tot cpu (s) | "
          "T_tot gpu (s) | T_tot device (s) | S_tot device | crossed per linear it (kB) | round trips "
          "per linear it | device memory estimate / peak (GiB) |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|")


def row(name, level, fc, fg, fd):
    c, g, d = load(fc), load(fg), load(fd)
    t = [get(x, "amdahl", "T_tot") for x in (c, g, d)]
    per = get(d, "device_residency", "per_linear_iteration") or {}
    crossed = per.get("bytes_crossed")
    memory = f"{num(get(d, 'device_memory_estimate_gib'), 4)} / {num(get(d, 'device_residency', 'device_memory_peak_gib'), 4)}"
    print(f"| {name} | {level} | {its(c)} / {its(g)} / {its(d)} | {result(c, d)} | {num(t[0])} | {num(t[1])} | "
          f"{num(t[2])} | {num(ratio(t[0], t[2]), 2)} | {num(None if crossed is None else crossed / 1e3, 1)} | "
          f"{num(per.get('round_trips'), 1)} | {memory} |")


def allcores(ncpu, fc, fd):
    c, d = load(fc), load(fd)
    tc, td = get(c, "amdahl", "T_tot"), get(d, "amdahl", "T_tot")
    print(f"DFG 2D-1 on all {ncpu} cores (MPI ranks): T_tot {num(tc)} s, its {its(c)}; device mode on one GPU: "
          f"T_tot {num(td)} s, its {its(d)}; S_tot against all cores {num(ratio(tc, td), 2)} "
          f"(the Done means ask >= 2); {result(c, d)}")


def weak(files):
    runs = [d for d in (load(f) for f in files) if d]
    print("| ranks | L | unknowns | per rank | its | T_tot (s) | T_lin per linear it (ms) | efficiency |")
    print("|---:|---:|---:|---:|---|---:|---:|---:|")
    base = None
    for d in runs:
        t_lin, n_lin = get(d, "amdahl", "T_lin"), d.get("linear_iterations")
        per = None if t_lin is None or not n_lin else t_lin / n_lin
        base = per if base is None else base
        print(f"| {d.get('ranks', '-')} | {d.get('level', '-')} | {d.get('dofs', '-')} | "
              f"{d['dofs'] // d['ranks'] if d.get('dofs') and d.get('ranks') else '-'} | {its(d)} | "
              f"{num(get(d, 'amdahl', 'T_tot'))} | {num(None if per is None else 1e3 * per, 2)} | "
              f"{num(ratio(base, per), 2)} |")
    if not runs:
        print("| - | - | - | - | - | - | - | - |")


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["header"]:
        header()
    elif a[:1] == ["row"] and len(a) == 6:
        row(*a[1:])
    elif a[:1] == ["allcores"] and len(a) == 4:
        allcores(*a[1:])
    elif a[:1] == ["weak"]:
        weak(a[1:])
    else:
        sys.exit(__doc__)
