#!/usr/bin/env python3
"""Summarises a scripts/probe_ab.sh log: per configuration, each variant's median over the
rounds (with its range), and its ratio to the first variant named (the base), so that an A/B
reads without arithmetic by hand. Lines that are not rounds (the GPU line, failures) are
skipped; a variant whose every run failed is shown as "failed".

    python3 scripts/probe_ab_summary.py out/probe_ab.log      # or the log on stdin

probe_ab.sh prints this after its rounds.
"""
from __future__ import annotations

import re
import statistics
import sys

ROUND = re.compile(r"^round=\d+ (\S+) \[(.*)\] (\S+)\s*$")


def parse(lines):
    """{config: {variant: [ms, ...]}} in first-seen order; failed runs are left out."""
    table: dict[str, dict[str, list[float]]] = {}
    for line in lines:
        m = ROUND.match(line)
        if not m:
            continue
        variant, config, value = m.groups()
        runs = table.setdefault(config, {}).setdefault(variant, [])
        try:
            runs.append(float(value))
        except ValueError:
            pass  # "failed"
    return table


def summarise(table) -> str:
    out = []
    for config, variants in table.items():
        first = next(iter(variants))
        base = statistics.median(variants[first]) if variants[first] else None  # no ratios without it
        cells = []
        for variant, runs in variants.items():
            if not runs:
                cells.append(f"{variant} failed")
                continue
            med = statistics.median(runs)
            rel = f" {100 * (med / base - 1):+.1f}%" if base and variant != first else ""
            cells.append(f"{variant} {med:.4f} ({min(runs):.4f}-{max(runs):.4f}){rel}")
        out.append(f"[{config}]  " + "  ".join(cells))
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        with open(argv[1]) as f:
            lines = f.read().splitlines()
    else:
        lines = sys.stdin.read().splitlines()
    print(summarise(parse(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
