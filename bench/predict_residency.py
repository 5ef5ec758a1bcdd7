#!/usr/bin/env python3
"""S_tot of solver.residency = device, predicted before a GPU run (issue #46).

    bench/predict_residency.py HOST.json DEVICE.json [options]

HOST.json: the summary of a CPU run (solver.target = cpu, one rank) of a case; DEVICE.json:
the summary of the same case with solver.target = gpu, solver.residency = device on the
CUDA host emulator (build/bin/feastc_emu), which counts what crosses between the memories
(the summary's device_residency) but times nothing. Both must have the same iterations.

The model (docs/user-guide/gpu.md, "What a device run will cost"):
  on the device:  the linear solve but its coarse-grid solves and the host's part of the
                  interface sums (T_lin - T_coarse - T_exchange of the CPU run), bandwidth-
                  bound kernels: CPU time x (the CPU's copy bandwidth / the device's);
  crossing:       bytes_crossed / the link's bandwidth, round_trips x the round-trip
                  latency, launches x the launch cost;
  on the host:    everything else, as measured (assembly, setup, coarse solves, the
                  exchange's host work, output).
  T_pred = T_host + T_device + T_crossing, S_tot = T_tot(CPU) / T_pred, S_max = T_tot /
  T_host (all device work free).
The CPU's copy bandwidth is measured here (a memcpy of 256 MiB, one core, best of 5)
unless --cpu-gbs gives it; the device's defaults are an H200's measured copy (4,192 GB/s,
docs/benchmarks.md), PCIe 5 (50 GB/s), 10 us a round trip and 4 us a launch.
"""
import argparse
import json
import sys
import time


def copy_gbs():
    """a STREAM-like copy on one core: 256 MiB copied by memcpy (a bytearray slice), best of 5"""
    a = bytearray(b"\x01") * (256 << 20)
    b = bytearray(len(a))
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        b[:] = a
        best = min(best, time.perf_counter() - t)
    return 2 * len(a) / best / 1e9


def predict(host, dev, cpu_gbs, dev_gbs, link_gbs, rt_us, launch_us):
    t = host["timings"]
    counts = dev["device_residency"]
    T_tot, T_lin = t["total"], t.get("linear_solve", 0.0)
    T_coarse, T_ex = t.get("coarse_solve", 0.0), t.get("comm_exchange", 0.0)
    moved = max(T_lin - T_coarse - T_ex, 0.0)
    T_host = T_tot - moved
    T_device = moved * cpu_gbs / dev_gbs
    T_link = counts["bytes_crossed"] / (link_gbs * 1e9)
    T_rt = counts.get("round_trips", 0) * rt_us * 1e-6
    T_launch = counts["launches"] * launch_us * 1e-6
    T_pred = T_host + T_device + T_link + T_rt + T_launch
    return {
        "T_tot": T_tot, "moved": moved, "T_host": T_host, "T_device": T_device, "T_link": T_link,
        "T_round_trips": T_rt, "T_launches": T_launch, "T_pred": T_pred, "S_tot": T_tot / T_pred,
        "S_max": T_tot / T_host if T_host > 0 else float("inf"),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("host")
    ap.add_argument("device")
    ap.add_argument("--cpu-gbs", type=float, help="the CPU's copy bandwidth, one core (default: measured)")
    ap.add_argument("--dev-gbs", type=float, default=4192.0)
    ap.add_argument("--link-gbs", type=float, default=50.0)
    ap.add_argument("--rt-us", type=float, default=10.0)
    ap.add_argument("--launch-us", type=float, default=4.0)
    a = ap.parse_args()
    host, dev = (json.load(open(f)) for f in (a.host, a.device))
    if "device_residency" not in dev:
        sys.exit(f"predict_residency.py: {a.device} has no device_residency section (not a residency = device run)")
    for k in ("nonlinear_iterations", "linear_iterations"):
        if host.get(k) != dev.get(k):
            print(f"predict_residency.py: warning: {k} {host.get(k)} (host) vs {dev.get(k)} (device)", file=sys.stderr)
    cpu = a.cpu_gbs or copy_gbs()
    p = predict(host, dev, cpu, a.dev_gbs, a.link_gbs, a.rt_us, a.launch_us)
    print(f"CPU copy {cpu:.1f} GB/s, device copy {a.dev_gbs:.0f} GB/s, link {a.link_gbs:.0f} GB/s, "
          f"round trip {a.rt_us:g} us, launch {a.launch_us:g} us")
    print("| T_tot CPU [s] | moved to the device [s] | host [s] | device [s] | link [s] | round trips [s] | launches [s] | T_pred [s] | S_tot | S_max |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("| {T_tot:.3f} | {moved:.3f} | {T_host:.3f} | {T_device:.4f} | {T_link:.4f} | {T_round_trips:.4f} | "
          "{T_launches:.4f} | {T_pred:.3f} | {S_tot:.2f} | {S_max:.2f} |".format(**p))


if __name__ == "__main__":
    main()
