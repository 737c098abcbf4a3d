#!/usr/bin/env python3
"""Checks the Hopper kernels' SASS in a built libflashssd (issue 5's "HGMMA and no local
memory"): every ssd_fwd_sm90_kernel instantiation must issue HGMMA and none may touch local
memory (STL / LDL: spills or a stack array). ptxas -v says the same at build time
(cmake/ptxas_guard.sh); this reads the binary that ships.

    python3 scripts/check_sm90_sass.py build/libflashssd.so [--expect 18]

cuobjdump (with nvdisasm beside it) comes from $CUOBJDUMP, the PATH, the CUDA toolkit, or
.deps/cuda-tools (scripts/setup_deps.sh installs NVIDIA's wheels there when the toolkit has
none). Exit 0: all good; 1: a kernel fails or fewer kernels than --expect; 77: no cuobjdump
(CTest reports the test as skipped).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_cuobjdump() -> str | None:
    candidates = [os.environ.get("CUOBJDUMP"), shutil.which("cuobjdump"), "/usr/local/cuda/bin/cuobjdump",
                  os.path.join(REPO, ".deps/cuda-tools/nvidia/cu13/bin/cuobjdump")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            # SASS needs nvdisasm beside cuobjdump (or on the PATH): without it cuobjdump prints none.
            here = os.path.join(os.path.dirname(c), "nvdisasm")
            if os.path.isfile(here) or shutil.which("nvdisasm"):
                return c
    return None


def kernel_stats(sass: str) -> dict[str, dict[str, int]]:
    stats: dict[str, dict[str, int]] = {}
    current = None
    for line in sass.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            current = m.group(1) if "ssd_fwd_sm90_kernel" in m.group(1) else None
            if current:
                stats[current] = {"HGMMA": 0, "STL": 0, "LDL": 0}
            continue
        if current:
            for op in stats[current]:
                if re.search(r"\b" + op + r"\b", line):
                    stats[current][op] += 1
    return stats


def describe(name: str) -> str:
    # _ZN...SsdFwdSm90ILi64ELi<N>ELi<heads>EN7cutlass<len><type>EEELb<gate>ELb<state pass>E...
    m = re.search(r"SsdFwdSm90ILi(\d+)ELi(\d+)ELi(\d+)EN7cutlass\d+(\w+?)EEELb(\d)ELb(\d)", name)
    if not m:
        return name
    p, n, heads, elem, gate, state = m.groups()
    kind = "state pass" if state == "1" else ("main, z" if gate == "1" else "main")
    return f"{elem.rstrip('_t')} P={p} N={n} heads/CTA={heads} {kind}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("library")
    ap.add_argument("--expect", type=int, default=0, help="at least this many sm90 kernels")
    args = ap.parse_args()
    tool = find_cuobjdump()
    if tool is None:
        print("SKIPPED check_sm90_sass: no cuobjdump with nvdisasm (CUDA toolkit or scripts/setup_deps.sh)")
        return 77
    out = subprocess.run([tool, "--dump-sass", args.library], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"check_sm90_sass: {tool} failed: {out.stderr.strip()}")
        return 1
    stats = kernel_stats(out.stdout)
    bad = 0
    for name in sorted(stats, key=describe):
        s = stats[name]
        ok = s["HGMMA"] > 0 and s["STL"] == 0 and s["LDL"] == 0
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {describe(name):45s} HGMMA {s['HGMMA']:3d}  STL {s['STL']}  LDL {s['LDL']}")
    if len(stats) < args.expect:
        print(f"check_sm90_sass: {len(stats)} sm90 kernels in {args.library}, expected at least {args.expect}")
        return 1
    print(f"check_sm90_sass: {len(stats)} kernels, {bad} failing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
