#!/usr/bin/env python3
"""The per-instruction stall table of an ncu report's SASS page, trimmed to what the notes use
(address, source, instructions executed, stall samples and their reasons), and a summary of the
most-stalled instructions: where a kernel's warps wait.

On the device, after `ncu --section SourceCounters --section WarpStateStats -o rep ...`:

    ncu -i rep.ncu-rep --page source --csv --print-source sass > raw.csv
    python3 scripts/ncu_sass_table.py raw.csv --out table.csv [--top 30]

Here, on a table saved by an earlier call (gzip is read as such):

    python3 scripts/ncu_sass_table.py bench/results/logs/<call>-sass.csv.gz --top 30

The summary gives each instruction's index in the table, its share of all samples, its three
largest stall reasons, and the samples per block of 100 instructions (to tell a kernel's
producer loop from its consumers').
"""
from __future__ import annotations

import argparse
import csv
import gzip
import io
import sys

KEEP = ("Address", "Source", "Instructions Executed")


def read_rows(path: str) -> list[list[str]]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        return list(csv.reader(io.StringIO(f.read())))


def trim(rows: list[list[str]]) -> list[list[str]]:
    """The header row (the first with a 'Source' column) and the columns KEEP, the sample counts
    and the stall reasons (not the not-issued duplicates)."""
    hi = next(i for i, r in enumerate(rows) if "Source" in r)
    head = rows[hi]
    want = [i for i, c in enumerate(head)
            if c in KEEP or "Warp Stall Sampling" in c or (c.startswith("stall_") and "Not Issued" not in c)]
    return [[head[i] for i in want]] + [[r[i] for i in want] for r in rows[hi + 1:] if len(r) > max(want)]


def summary(table: list[list[str]], top: int) -> str:
    head, body = table[0], table[1:]
    col = {c: i for i, c in enumerate(head)}
    samples = col["Warp Stall Sampling (All Samples)"]
    stalls = [c for c in head if c.startswith("stall_")]
    n = lambda r, c: int(float(r[col[c]] or 0)) if c in col else 0
    total = sum(n(r, head[samples]) for r in body) or 1
    out = [f"{len(body)} instructions, {total} samples, {sum(n(r, 'Instructions Executed') for r in body)} executed"]
    ranked = sorted(range(len(body)), key=lambda i: -n(body[i], head[samples]))[:top]
    for i in ranked:
        r = body[i]
        s = n(r, head[samples])
        why = sorted(((n(r, c), c[6:]) for c in stalls), reverse=True)[:3]
        out.append(f"{i:5d} {s:7d} {100 * s / total:5.1f}%  executed {n(r, 'Instructions Executed'):10d}  "
                   f"{r[col['Source']].strip()[:58]:58s} " + ", ".join(f"{w} {k}" for k, w in why if k))
    out.append("samples per 100 instructions: " + ", ".join(
        f"{b}: {100 * sum(n(r, head[samples]) for r in body[b:b + 100]) / total:.1f}%"
        for b in range(0, len(body), 100) if sum(n(r, head[samples]) for r in body[b:b + 100]) > total / 100))
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="ncu's --page source --csv output, or a table this script wrote (.gz allowed)")
    ap.add_argument("--out", help="write the trimmed table here")
    ap.add_argument("--top", type=int, default=0, help="print the N most-stalled instructions")
    args = ap.parse_args()
    table = trim(read_rows(args.csv))
    if args.out:
        with open(args.out, "w", newline="") as f:
            csv.writer(f).writerows(table)
    if args.top:
        print(summary(table, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
