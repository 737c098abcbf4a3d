#!/usr/bin/env python3
"""Session 69: the factored tile's chain in the SASS of the ungated bf16 N = 128 main kernel.
Input: `nvdisasm -fun <index> -lrm count -c <cubin>` of the kernel (the `# live` column is the
live GPR count before each instruction). Prints the most live registers, the HGMMA count and,
in the factored tile (its h C^T is the last eight HGMMA.64x64x16), the instructions from the
first h C^T HGMMA to the last, from there to the next WARPGROUP.DEPBAR, and from that wait to the
next HGMMA, with their opcode mix.
  cuobjdump -xelf all out/ab/main_probe; nvdisasm -fun 54 -lrm count -c sm90_forward_probe.sm_90a.cubin > main.lr
  python3 2026-12-07-s69-sass-chain.py main.lr"""
import re
import sys
from collections import Counter


def load(path):
    rows = []
    for line in open(path):
        m = re.match(r"\s*/\*([0-9a-f]+)\*/\s+(.*?);\s*//\s*\|\s*(\d+)\s*\|", line)
        if m:
            rows.append((int(m.group(1), 16), m.group(2).strip(), int(m.group(3))))
    return rows


def opcode(ins):
    words = ins.split()
    return (words[1] if words[0].startswith("@") else words[0]).split(".")[0]


def mix(rows):
    return ", ".join(f"{k} {v}" for k, v in Counter(opcode(r[1]) for r in rows).most_common(8))


for path in sys.argv[1:]:
    rows = load(path)
    print(f"{path}: {len(rows)} instructions, at most {max(r[2] for r in rows)} live registers, "
          f"{sum('HGMMA' in r[1] for r in rows)} HGMMA")
    hc = [i for i, r in enumerate(rows) if "HGMMA.64x64x16" in r[1]][-8:]
    wait = next(i for i in range(hc[-1], len(rows)) if "WARPGROUP.DEPBAR" in rows[i][1])
    nxt = next(i for i in range(wait, len(rows)) if "HGMMA" in rows[i][1])
    print(f"  h C^T's 8 HGMMA span {hc[-1] - hc[0]} instructions ({mix(rows[hc[0]:hc[-1]])})")
    print(f"  its last HGMMA -> the wait: {wait - hc[-1]} ({mix(rows[hc[-1]:wait])})")
    print(f"  the wait -> the next HGMMA ({rows[nxt][1].split()[0]}): {nxt - wait} ({mix(rows[wait:nxt])})")
