#!/usr/bin/env python3
"""Instruction counts of the sm90 forward's consumer tile loop, from the SASS of an object file
or library (cuobjdump -sass): for each ssd_fwd_sm90_kernel, the loop is the back edge after the
last HGMMA that jumps above the first one (the consumers' per-tile loop). Static counts: each
consumer warp executes the loop once per tile, less what its branches skip (docs/HOPPER_PLAN.md,
session 13: 838 -> 728 instructions at N = 128).

  python3 scripts/sass_loop_stats.py build-gpu/src/kernels/CMakeFiles/flashssd_sm90.dir/sm90/ssd_fwd_sm90_bf16_n128.cu.o [--ops]
"""
import collections
import os
import re
import shutil
import subprocess
import sys


def cuobjdump():
    here = os.path.dirname(os.path.abspath(__file__))
    local = os.path.join(here, "..", ".deps", "cuda-tools", "nvidia", "cu13", "bin", "cuobjdump")
    return local if os.path.exists(local) else shutil.which("cuobjdump") or "cuobjdump"


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    sass = subprocess.run([cuobjdump(), "-sass", argv[1]], capture_output=True, text=True, check=True).stdout
    for func in re.split(r"\n\s*Function : ", sass)[1:]:
        name = func.split("\n")[0].strip()
        if "ssd_fwd_sm90_kernel" not in name:
            continue
        ins = []
        for line in func.split("\n"):
            m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
            if m:
                ins.append((int(m.group(1), 16), m.group(2)))
        hgmma = [a for a, t in ins if "HGMMA" in t]
        loop = None
        for a, t in ins:
            m = re.search(r"BRA\s.*?0x([0-9a-f]+)\s*$", t)
            if hgmma and m and a > max(hgmma) and int(m.group(1), 16) < min(hgmma) and loop is None:
                loop = (int(m.group(1), 16), a)
        if loop is None:
            print(f"{name[:120]}\n  {len(ins)} instructions, no tile loop found")
            continue
        body = [t for a, t in ins if loop[0] <= a <= loop[1]]
        print(f"{name[:120]}\n  tile loop {loop[0]:#x}..{loop[1]:#x}: {len(body)} instructions ({len(ins)} in the kernel)")
        if "--ops" in argv:
            ops = collections.Counter(re.sub(r"^@!?U?P\w+\s+", "", t).split()[0] for t in body)
            print("  " + ", ".join(f"{op} {n}" for op, n in ops.most_common(20)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
