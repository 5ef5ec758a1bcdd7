#!/usr/bin/env python3
"""Compare feastc run summaries of two trees bit for bit, timings aside (bench/bitwise.sh).

    tools/summary_diff.py OLD_DIR NEW_DIR CASE...

For each CASE, OLD_DIR/CASE.json and NEW_DIR/CASE.json are read and flattened
("drag_coefficient", "linear_iterations_per_step[3]", ...). Wall-clock measurements are
left out: the "timings" and "amdahl" objects and every key with "seconds" in its name.
Everything else (iterations, residuals, energies, forces, errors, reasons) must be equal:
numbers as the exact values JSON carries (Python floats read back from feastc's 17
significant digits, so equal means the same double). Prints one line per case
("same, N values" or the first differing keys with both values) and a last line with the
count; exits 1 if any case differs or is missing on either side.
"""
import json
import os
import sys

WALL_CLOCK = ("timings", "amdahl")


def flatten(value, prefix=""):
    """{"a.b[2]": leaf} of a JSON value, wall-clock keys left out"""
    out = {}
    if isinstance(value, dict):
        for key, item in value.items():
            if not prefix and key in WALL_CLOCK or "seconds" in key:
                continue
            out.update(flatten(item, f"{prefix}.{key}" if prefix else key))
    elif isinstance(value, list):
        out[f"{prefix}#"] = len(value)
        for i, item in enumerate(value):
            out.update(flatten(item, f"{prefix}[{i}]"))
    else:
        out[prefix] = value
    return out


def load(folder, case):
    path = os.path.join(folder, case + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            return flatten(json.load(f)), None
    except (OSError, json.JSONDecodeError) as e:
        return None, f"{path}: {e.strerror if isinstance(e, OSError) else e}"


def compare(old, new):
    """the differing keys, sorted, with (old, new) values ('-' where a key is absent)"""
    keys = sorted(set(old) | set(new))
    return [(k, old.get(k, "-"), new.get(k, "-")) for k in keys if old.get(k, "-") != new.get(k, "-")]


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 1
    old_dir, new_dir, cases = argv[1], argv[2], argv[3:]
    failed = 0
    width = max(len(c) for c in cases)
    for case in cases:
        old, err_old = load(old_dir, case)
        new, err_new = load(new_dir, case)
        if old is None or new is None:
            failed += 1
            print(f"{case:<{width}}  MISSING  {err_old or err_new}")
            continue
        diff = compare(old, new)
        if not diff:
            facts = [f"{k} {old[k]}" for k in ("reason", "nonlinear_iterations", "linear_iterations",
                                                 "global_mg_iterations", "time_steps") if k in old]
            print(f"{case:<{width}}  same, {len(old)} values ({', '.join(facts)})")
            continue
        failed += 1
        shown = "; ".join(f"{k}: {a!r} -> {b!r}" for k, a, b in diff[:4])
        more = f" (and {len(diff) - 4} more)" if len(diff) > 4 else ""
        print(f"{case:<{width}}  DIFFERS in {len(diff)} of {len(old)} values: {shown}{more}")
    print(f"{len(cases) - failed} of {len(cases)} cases bit for bit the same")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
