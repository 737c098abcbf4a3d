#!/usr/bin/env python3
"""Chooses a library variant from an API A/B log (scripts/api_ab.sh) by rules written down
before the run, so that a device call can go on to record the chosen variant without a person
reading the medians in between (a warm machine is released after 30 s idle).

A candidate qualifies when, against the base's medians over the rounds,
  - each of its target rows is faster by more than --gain percent, and
  - no row of the log is slower by more than --loss percent.
The first candidate named that qualifies is printed; "none" when none does (or when a row has
no median for the base or the candidate: a failed run never qualifies).

    python3 scripts/ab_choose.py LOG --base main --gain 0.5 --loss 0.5 \\
        --candidate 'both=--config R3 --seqlen 2048;--config R1 --seqlen 512 --z' \\
        --candidate 'd2n128=--config R3 --seqlen 2048'

Each --candidate is NAME=ROW[;ROW...], ROW a configuration exactly as the log names it.
With --explain, each candidate's verdict and the rows that decided it go to stderr.
"""
from __future__ import annotations

import argparse
import statistics
import sys

from probe_ab_summary import parse


def verdict(table, base: str, name: str, targets: list[str], gain: float, loss: float) -> tuple[bool, str]:
    """(qualifies, why) for one candidate over the parsed log."""
    for config in targets:
        if config not in table:
            return False, f"target row [{config}] is not in the log"
    for config, variants in table.items():
        if not variants.get(base) or not variants.get(name):
            return False, f"[{config}]: no median for {base if not variants.get(base) else name}"
        change = 100 * (statistics.median(variants[name]) / statistics.median(variants[base]) - 1)
        if config in targets and not change < -gain:
            return False, f"target [{config}] {change:+.2f}% (needs < -{gain}%)"
        if change > loss:
            return False, f"[{config}] {change:+.2f}% slower (over +{loss}%)"
    return True, "every target faster, no row slower"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("--base", required=True)
    ap.add_argument("--candidate", action="append", required=True, metavar="NAME=ROW[;ROW...]")
    ap.add_argument("--gain", type=float, default=0.5, help="percent a target row must gain (default 0.5)")
    ap.add_argument("--loss", type=float, default=0.5, help="percent any row may lose (default 0.5)")
    ap.add_argument("--explain", action="store_true")
    args = ap.parse_args(argv[1:])
    with open(args.log) as f:
        table = parse(f.read().splitlines())
    chosen = "none"
    for spec in args.candidate:
        name, sep, rows = spec.partition("=")
        if not sep or not rows:
            ap.error(f"--candidate {spec!r}: expected NAME=ROW[;ROW...]")
        ok, why = verdict(table, args.base, name, [r.strip() for r in rows.split(";")], args.gain, args.loss)
        if args.explain:
            print(f"ab_choose: {name}: {'qualifies' if ok else 'no'} ({why})", file=sys.stderr)
        if ok and chosen == "none":
            chosen = name
    print(chosen)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
