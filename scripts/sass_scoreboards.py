#!/usr/bin/env python3
"""Prints the dependency scoreboards of a kernel's SASS: for each instruction, the scoreboard
its result sets (wb, long-latency ops: global / shared loads, MUFU, ...), the one its source
reads release (rb), and the scoreboards it waits for (wait). An instruction that waits on a
scoreboard waits for every op still pending on it, so a value loaded once per work item
that shares a scoreboard with a load issued in every tile makes its first user in the tile
loop wait for that newer load too. docs/HOPPER_PLAN.md, session 14: the producer's
`a = dt * A_h` waited on scoreboard 5 with the per-tile dt prefetch, one layout of the
producer's code (0.527 ms) and not the other (0.488 ms).

    python3 scripts/sass_scoreboards.py OBJECT_OR_LIBRARY --kernel REGEX [--from 0x9000] [--to 0xad00]
                                       [--board 5] [--grep LDG]

The fields come from the high 64 bits of each 128-bit sm_70+ instruction: stall cycles bits
41-44, yield 45, write scoreboard 46-48, read scoreboard 49-51, wait mask 52-57 (7 = none).
cuobjdump is found, and its text parsed, by scripts/check_sm90_sass.py (sass_functions).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_sm90_sass import find_cuobjdump, sass_functions  # noqa: E402

def control(hi: int) -> dict[str, int | None]:
    """The scheduling fields of an instruction's high 64 bits (None: no scoreboard)."""
    wb, rb = (hi >> 46) & 7, (hi >> 49) & 7
    return {"stall": (hi >> 41) & 0xF, "yield": (hi >> 45) & 1, "wb": None if wb == 7 else wb,
            "rb": None if rb == 7 else rb, "wait": (hi >> 52) & 0x3F}


def functions(sass: str) -> dict[str, list[tuple[int, str, dict]]]:
    """Each function's instructions as (address, text, control fields)."""
    return {name: [(a, t, control(hi)) for a, t, hi in ins] for name, ins in sass_functions(sass).items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--kernel", required=True, help="regular expression on the mangled name (first match)")
    ap.add_argument("--from", dest="lo", default="0", help="first address (hex)")
    ap.add_argument("--to", dest="hi", default="0xffffffff", help="last address (hex)")
    ap.add_argument("--board", type=int, help="only instructions that set, release or wait on this scoreboard")
    ap.add_argument("--grep", help="only instructions whose text contains this")
    args = ap.parse_args()
    cuobjdump = find_cuobjdump()
    if not cuobjdump:
        print("sass_scoreboards: no cuobjdump with nvdisasm", file=sys.stderr)
        return 77
    sass = subprocess.run([cuobjdump, "-sass", args.binary], capture_output=True, text=True, check=True).stdout
    names = [n for n in functions(sass) if re.search(args.kernel, n)]
    if not names:
        print(f"sass_scoreboards: no function matches {args.kernel!r}", file=sys.stderr)
        return 1
    lo, hi = int(args.lo, 16), int(args.hi, 16)
    print(names[0])
    for addr, text, c in functions(sass)[names[0]]:
        if not lo <= addr <= hi or (args.grep and args.grep not in text):
            continue
        b = args.board
        if b is not None and c["wb"] != b and c["rb"] != b and not (c["wait"] >> b) & 1:
            continue
        waits = ",".join(str(i) for i in range(6) if (c["wait"] >> i) & 1) or "-"
        wb = "-" if c["wb"] is None else c["wb"]
        rb = "-" if c["rb"] is None else c["rb"]
        print(f"{addr:#07x}  wb {wb}  rb {rb}  wait {waits:<7} stall {c['stall']:2d}  {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
