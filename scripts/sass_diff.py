#!/usr/bin/env python3
"""Compares the SASS of two builds (libflashssd.so, an object file, a probe binary) function by
function: whether a change of code reaches the machine code. A change that leaves every kernel
byte-identical (a rename, a moved helper) needs no device run; any other needs the GPU suites and
an A/B (docs/HOPPER_PLAN.md, sessions 44-45).

    python3 scripts/sass_diff.py BASE NEW [--loops]

BASE and NEW are files, or folders holding a libflashssd.so* (a build folder, or a staged one:
out/dev/<name>, scripts/stage_variant.sh), which stand for that library.

Per function: "identical", "registers" (the same instructions with other register numbers or
reuse flags) or "different" (instruction count and opcode changes); functions in only one build
are listed. --loops adds, for the Hopper forward's kernels, the tile loop's length in both
(check_sm90_sass.py's tile_loop: the consumers' per-tile loop) and its opcode changes.
Exit 0: every function of both is identical; 1: anything differs (or a build has no SASS);
77: no cuobjdump.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_sm90_sass as sass  # noqa: E402  (find_cuobjdump, sass_functions, opcodes, tile_loop, describe)

def library_of(path: str) -> str:
    """The file a BASE / NEW argument names: itself, or a folder's libflashssd.so* (the file the
    links lead to). cuobjdump given a folder fails with "Memory allocation failure"."""
    if not os.path.isdir(path):
        return path
    libs = sorted(f for f in os.listdir(path) if f.startswith("libflashssd.so"))
    if not libs:
        raise SystemExit(f"sass_diff: no libflashssd.so* in the folder {path}")
    return os.path.realpath(os.path.join(path, libs[0]))


def functions(tool: str, path: str) -> dict[str, list[tuple[int, str]]]:
    """Each function's (address, instruction text)."""
    out = subprocess.run([tool, "--dump-sass", path], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"sass_diff: {tool} failed on {path}: {out.stderr.strip()}")
    return {name: [(addr, t) for addr, t, _ in ins] for name, ins in sass.sass_functions(out.stdout).items()}


def without_registers(ins: list[str]) -> list[str]:
    return [re.sub(r"\.reuse", "", re.sub(r"\bU?R\d+\b", "R", re.sub(r"\bU?P\d\b", "P", t))) for t in ins]


def delta(a: list[str], b: list[str]) -> str:
    d = sass.opcodes(b)
    d.subtract(sass.opcodes(a))
    moved = sorted(((op, n) for op, n in d.items() if n), key=lambda x: -abs(x[1]))
    return ", ".join(f"{op} {n:+d}" for op, n in moved[:8]) or "same opcodes, reordered"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--loops", action="store_true", help="the forward kernels' tile loops")
    args = ap.parse_args()
    tool = sass.find_cuobjdump()
    if tool is None:
        print("SKIPPED sass_diff: no cuobjdump with nvdisasm (CUDA toolkit or scripts/setup_deps.sh)")
        return 77
    args.base, args.new = library_of(args.base), library_of(args.new)
    a, b = functions(tool, args.base), functions(tool, args.new)
    if not a or not b:
        print(f"sass_diff: no SASS functions in {args.base if not a else args.new}")
        return 1
    counts = collections.Counter()
    for name in sorted(set(a) | set(b), key=sass.describe):
        label = sass.describe(name)[:90]
        if name not in b or name not in a:
            counts["only in one"] += 1
            print(f"only in {'base' if name in a else 'new '}  {label}")
            continue
        x, y = [t for _, t in a[name]], [t for _, t in b[name]]
        if x == y:
            counts["identical"] += 1
            print(f"identical    {len(x):6d}  {label}")
            continue
        kind = "registers" if without_registers(x) == without_registers(y) else "different"
        counts[kind] += 1
        print(f"{kind:12s} {len(x):6d} -> {len(y):6d}  {label}: {delta(x, y)}")
        if args.loops and "ssd_fwd_sm90_kernel" in name:
            lx, ly = sass.tile_loop(a[name]), sass.tile_loop(b[name])
            print(f"             tile loop {len(lx)} -> {len(ly)}: {delta(lx, ly)}")
    print("sass_diff: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    return 0 if set(counts) <= {"identical"} else 1


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
