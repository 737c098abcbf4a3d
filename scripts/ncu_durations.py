#!/usr/bin/env python3
"""Every kernel's durations from an ncu CSV of `gpu__time_duration.sum`: one line per kernel
name (the first 60 characters), in launch order, with its launches' durations. Where a call's
time goes between its kernels (pre-pass, state pass, boundary scan, main pass).

On the device:

    ncu --clock-control none --metrics gpu__time_duration.sum --csv \\
        build/bench/flashssd_bench --config R2 --iters 2 --warmup 1 --no-verify > r2.csv
    python3 scripts/ncu_durations.py r2.csv

A file with no metric rows (ncu failed) prints its last 2000 characters instead.
"""
from __future__ import annotations

import collections
import csv
import sys


def durations(path: str) -> "collections.OrderedDict[str, list[tuple[float, str]]] | None":
    """{kernel name[:60]: [(value, unit) per launch]} in first-launch order; None without rows."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    # The profiled program's own output comes first (flashssd_bench's JSON line splits into many
    # fields too): the table starts at ncu's header row.
    start = next((i for i, r in enumerate(rows) if "Kernel Name" in r and "Metric Value" in r), None)
    if start is None:
        return None
    head, rows = rows[start], [r for r in rows[start:] if len(r) == len(rows[start])]
    name, value, unit = head.index("Kernel Name"), head.index("Metric Value"), head.index("Metric Unit")
    per: collections.OrderedDict = collections.OrderedDict()
    for r in rows[1:]:
        per.setdefault(r[name][:60], []).append((float(r[value].replace(",", "")), r[unit]))
    return per


def summary(per) -> str:
    return "\n".join(f"  {name:60s} n={len(vals)} " + " ".join(f"{x:.1f}{u}" for x, u in vals)
                     for name, vals in per.items())


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: ncu_durations.py <ncu --csv output>", file=sys.stderr)
        return 2
    per = durations(args[0])
    if per is None:
        print(open(args[0]).read()[-2000:])
        return 1
    print(summary(per))
    return 0


if __name__ == "__main__":
    sys.exit(main())
