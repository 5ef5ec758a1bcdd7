#!/usr/bin/python3
"""Plot the time series of a time-dependent feastc run (output.timeseries = FILE.csv,
columns t,dt,drag_coefficient,lift_coefficient,pressure_difference,nonlinear_steps,
linear_iterations,seconds,assembly_seconds,local_mg_seconds): c_D(t), c_L(t) and delta p(t) in three stacked panels with a
shared t axis, written to a PNG (matplotlib, Agg backend: no display needed).

--reference dfg2d3 marks John's (2004) reference values of DFG 2D-3 (c_D,max 2.950921575
at t = 3.93625, c_L,max 0.47795 at t = 5.693125, delta p(8) = -0.1116) as crosses with
dotted guide lines; --reference dfg2d2 shades the intervals of Schaefer & Turek (1996) for
the periodic 2D-2 flow (c_D,max in [3.22, 3.24], c_L,max in [0.99, 1.01], delta p at the
half period in [2.46, 2.50]; St in [0.295, 0.305] is printed).

It also prints the extrema of c_D, c_L and delta p for t >= --from (default: the whole
run; for 2D-2 take the last periods, after the start-up) and the Strouhal number
D / (U T) from the mean distance T of the lift maxima there (--diameter 0.1, --velocity 1:
the DFG values).

usage: plot_timeseries.py FILE.csv [-o FILE.png] [--reference dfg2d3|dfg2d2] [--from T]
                          [--title TEXT] [--dpi N]"""
import argparse, csv, math, os, sys

COLUMNS = ("t", "drag_coefficient", "lift_coefficient", "pressure_difference")

# John, "Reference values for drag and lift of a two-dimensional time-dependent flow
# around a cylinder", Int. J. Numer. Meth. Fluids 44 (2004) 777-788
DFG2D3 = {"drag_coefficient": (3.93625, 2.950921575),
          "lift_coefficient": (5.693125, 0.47795),
          "pressure_difference": (8.0, -0.1116)}
# Schaefer & Turek (1996), test 2D-2: the intervals of the benchmark's definition
DFG2D2 = {"drag_coefficient": (3.22, 3.24), "lift_coefficient": (0.99, 1.01),
          "pressure_difference": (2.46, 2.50), "strouhal_number": (0.295, 0.305)}


def read_series(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"{path}: empty file")
    head = [h.strip() for h in rows[0]]
    missing = [c for c in COLUMNS if c not in head]
    if missing:
        raise ValueError(f"{path}: no column {', '.join(missing)} in the header {','.join(head)}")
    idx = {c: head.index(c) for c in COLUMNS}
    data = {c: [] for c in COLUMNS}
    for n, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        try:
            for c in COLUMNS:
                data[c].append(float(row[idx[c]]))
        except (IndexError, ValueError) as e:
            raise ValueError(f"{path}:{n}: bad line ({e})") from None
    if not data["t"]:
        raise ValueError(f"{path}: no data lines")
    return data


def maxima(t, y):
    """the local maxima of y (interior samples), refined by the parabola through the sample
    and its neighbours: list of (time, value)"""
    out = []
    for i in range(1, len(y) - 1):
        if y[i] > y[i - 1] and y[i] >= y[i + 1]:
            h0, h1 = t[i] - t[i - 1], t[i + 1] - t[i]
            # parabola through (−h0, y0), (0, y1), (h1, y2)
            d0, d1 = (y[i] - y[i - 1]) / h0, (y[i + 1] - y[i]) / h1
            a = (d1 - d0) / (h0 + h1)
            b = d0 + a * h0
            s = min(max(-b / (2 * a), -h0), h1) if a < 0 else 0.0
            out.append((t[i] + s, y[i] + b * s + a * s * s))
    return out


def extrema(t, y, sign):
    """max (sign 1) or min (-1) of y, parabola-refined; (time, value)"""
    m = maxima(t, [sign * v for v in y])
    best = max(range(len(y)), key=lambda i: sign * y[i])
    cand = [(t[best], sign * y[best])] + m
    tt, v = max(cand, key=lambda p: p[1])
    return tt, sign * v


def window(data, t0):
    keep = [i for i, t in enumerate(data["t"]) if t >= t0]
    return {c: [data[c][i] for i in keep] for c in COLUMNS}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="output.timeseries CSV of feastc")
    ap.add_argument("-o", "--output", help="PNG file (default: the CSV's name with .png)")
    ap.add_argument("--reference", choices=("dfg2d3", "dfg2d2"), help="draw the benchmark's reference values")
    ap.add_argument("--from", dest="t_from", type=float, default=-math.inf,
                    help="statistics (extrema, Strouhal number) for t >= this")
    ap.add_argument("--diameter", type=float, default=0.1, help="D of St = D f / U (0.1)")
    ap.add_argument("--velocity", type=float, default=1.0, help="U of St = D f / U (1)")
    ap.add_argument("--title", default=None)
    ap.add_argument("--dpi", type=int, default=100)
    a = ap.parse_args(argv)
    try:
        data = read_series(a.csv)
    except (OSError, ValueError) as e:
        print(f"plot_timeseries.py: {e}", file=sys.stderr)
        return 1
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_timeseries.py: matplotlib is not installed (Debian: apt install python3-matplotlib)",
              file=sys.stderr)
        return 1
    out = a.output or os.path.splitext(a.csv)[0] + ".png"

    w = window(data, a.t_from)
    if not w["t"]:
        print(f"plot_timeseries.py: no samples with t >= {a.t_from}", file=sys.stderr)
        return 1
    names = {"drag_coefficient": "c_D", "lift_coefficient": "c_L", "pressure_difference": "dp"}
    span = f"t in [{w['t'][0]:g}, {w['t'][-1]:g}], {len(w['t'])} samples"
    print(f"{a.csv}: {span}")
    for c in COLUMNS[1:]:
        if all(math.isnan(v) for v in w[c]):
            continue
        tmax, vmax = extrema(w["t"], w[c], 1)
        tmin, vmin = extrema(w["t"], w[c], -1)
        print(f"  {names[c]:4s} max {vmax:.8f} at t = {tmax:.6f}   min {vmin:.8f} at t = {tmin:.6f}   "
              f"final {w[c][-1]:.8f}")
    peaks = maxima(w["t"], w["lift_coefficient"])
    if len(peaks) >= 3:
        period = (peaks[-1][0] - peaks[0][0]) / (len(peaks) - 1)
        st = a.diameter / (a.velocity * period)
        line = f"  Strouhal number {st:.6f} (period {period:.6f} from {len(peaks)} lift maxima)"
        if a.reference == "dfg2d2":
            lo, hi = DFG2D2["strouhal_number"]
            line += f"; 2D-2 interval [{lo}, {hi}]"
        print(line)

    fig, axes = plt.subplots(3, 1, sharex=True, figsize=(8, 8))
    labels = {"drag_coefficient": "drag coefficient $c_D$", "lift_coefficient": "lift coefficient $c_L$",
              "pressure_difference": r"pressure difference $\Delta p$"}
    for ax, c in zip(axes, COLUMNS[1:]):
        ax.plot(data["t"], data[c], lw=1.0, color="C0", label="feastc")
        ax.set_ylabel(labels[c])
        ax.grid(True, alpha=0.3)
        if a.reference == "dfg2d3":
            tr, vr = DFG2D3[c]
            ax.axhline(vr, color="C3", ls=":", lw=0.8)
            ax.axvline(tr, color="C3", ls=":", lw=0.8)
            ax.plot([tr], [vr], "x", color="C3", ms=9, mew=2, label=f"John 2004: {vr:g} at t = {tr:g}")
            ax.legend(loc="best", fontsize=8)
        elif a.reference == "dfg2d2":
            lo, hi = DFG2D2[c]
            what = "max" if c != "pressure_difference" else "at half period"
            ax.axhspan(lo, hi, color="C3", alpha=0.25, label=f"2D-2 {what}: [{lo}, {hi}]")
            ax.legend(loc="best", fontsize=8)
    axes[-1].set_xlabel("t")
    axes[0].set_title(a.title if a.title is not None else os.path.basename(a.csv))
    fig.tight_layout()
    try:
        fig.savefig(out, dpi=a.dpi, format="png")
    except OSError as e:
        print(f"plot_timeseries.py: {out}: {e}", file=sys.stderr)
        return 1
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
