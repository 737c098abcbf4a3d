#!/usr/bin/env python3
"""Checks the Hopper kernels' SASS in a built libflashssd (issue 5's "HGMMA and no local
memory"): every ssd_fwd_sm90_kernel instantiation must issue HGMMA and none may touch local
memory (STL / LDL: spills or a stack array). ptxas -v says the same at build time
(cmake/ptxas_guard.sh); this reads the binary that ships. Nor may any instruction between an
HGMMA that takes its A operand from registers and the next WARPGROUP.DEPBAR (in address order)
write those registers: the WGMMA reads them while in flight (session 17: ptxas let a
preparation under a run-time branch overwrite them, NaN in the state pass, and no ptxas
message). It also prints each kernel's tile
loop length (the back edge after the last HGMMA that jumps above the first one: the consumers'
per-tile loop; each consumer warp runs it once per tile, less what its branches skip) and,
with --ops, the loop's commonest opcodes (docs/HOPPER_PLAN.md, session 13: 838 -> 728 at N = 128).
At N = 256 the main kernels' tile loop may hold no R2UR: their warpgroup index is broadcast so
that ptxas keeps the shared-memory descriptors in uniform registers (session 54: without it 13
R2UR in the loop, and R1 N = 256 0.5-1.6% slower).

    python3 scripts/check_sm90_sass.py build/libflashssd.so [--expect 18] [--ops]

cuobjdump (with nvdisasm beside it) comes from $CUOBJDUMP, the PATH, the CUDA toolkit, or
.deps/cuda-tools (scripts/setup_deps.sh installs NVIDIA's wheels there when the toolkit has
none). Exit 0: all good; 1: a kernel fails or fewer kernels than --expect; 77: no cuobjdump
(CTest reports the test as skipped).
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import signal
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


_FIRST = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;\s*/\*\s*(0x[0-9a-f]+)\s*\*/")
_SECOND = re.compile(r"\s*/\*\s*(0x[0-9a-f]+)\s*\*/\s*$")


def sass_functions(sass: str) -> dict[str, list[tuple[int, str, int]]]:
    """cuobjdump -sass text as each function's instructions: (address, text, the high 64 bits
    of the 128-bit encoding, where the scheduling fields are; scripts/sass_scoreboards.py)."""
    out: dict[str, list[tuple[int, str, int]]] = {}
    name, pending = None, None
    for line in sass.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            name, pending = m.group(1), None
            out[name] = []
            continue
        if name is None:
            continue
        m = _FIRST.match(line)
        if m:
            pending = (int(m.group(1), 16), m.group(2))
            continue
        m = _SECOND.match(line)
        if m and pending:
            out[name].append((pending[0], pending[1], int(m.group(1), 16)))
            pending = None
    return out


def kernel_stats(sass: str) -> tuple[dict[str, dict[str, int]], dict[str, list[tuple[int, str]]]]:
    stats: dict[str, dict[str, int]] = {}
    code: dict[str, list[tuple[int, str]]] = {}
    for name, ins in sass_functions(sass).items():
        if "ssd_fwd_sm90_kernel" not in name:
            continue
        stats[name] = {op: sum(1 for _, t, _ in ins if re.search(r"\b" + op + r"\b", t)) for op in ("HGMMA", "STL", "LDL")}
        code[name] = [(a, t) for a, t, _ in ins]
    return stats, code


_NO_DEST = ("ST", "RED", "ATOM", "SYNCS", "BAR", "BRA", "WARP", "HGMMA", "NOP", "EXIT", "RET", "CALL", "UTMA", "MEMBAR", "FENCE", "DEPBAR", "ARRIVES")


def _written_registers(text: str) -> set[int]:
    """The general registers an instruction writes (its first operand, with the width of
    vector loads and wide multiplies), or none for stores, barriers and branches."""
    t = re.sub(r"^@!?U?P\w+\s+", "", text)
    op = t.split()[0] if t.split() else ""
    if op.startswith(_NO_DEST):
        return set()
    m = re.match(r"\S+\s+R(\d+)\b", t)
    if not m:
        return set()
    width = 4 if (".128" in op or (op.startswith("LDSM") and op.endswith(".4"))) else 2 if (".64" in op or op.endswith(".2") or ".WIDE" in op) else 1
    return set(range(int(m.group(1)), int(m.group(1)) + width))


def inflight_operand_writes(ins: list[tuple[int, str]]) -> list[str]:
    """Instructions that write an in-flight HGMMA's register A operand (4 registers from its
    second operand), in address order: a group of HGMMAs ends with the one marked gsb0, and
    WARPGROUP.DEPBAR.LE gsb0, n retires all but the n latest groups."""
    bad, groups, current = [], [], set()
    for _, t in ins:
        if re.search(r"\bHGMMA\.", t):
            m = re.search(r"\bHGMMA\.\S+\s+R\d+,\s*R(\d+)", t)
            if m:
                current |= set(range(int(m.group(1)), int(m.group(1)) + 4))
            if re.search(r",\s*gsb0\s*$", t):
                groups.append(current)
                current = set()
            continue
        m = re.search(r"WARPGROUP\.DEPBAR\.LE\s+gsb0,\s*(0x[0-9a-f]+|\d+)", t)
        if m:
            keep = int(m.group(1), 0)
            groups = groups[len(groups) - keep:] if keep else []
            continue
        if _written_registers(t) & set().union(current, *groups):
            bad.append(t)
    return bad


def opcodes(ins: list[str]) -> collections.Counter:
    """Each opcode's count in instruction texts (a predicate such as @!P0 is not an opcode)."""
    return collections.Counter(re.sub(r"^@!?U?P\w+\s+", "", t).split()[0] for t in ins if t.strip())


def tile_loop(ins: list[tuple[int, str]]) -> list[str]:
    """The instructions of the first back edge after the last HGMMA to above the first one."""
    hgmma = [a for a, t in ins if "HGMMA" in t]
    if not hgmma:
        return []
    for a, t in ins:
        m = re.search(r"BRA\s.*?0x([0-9a-f]+)\s*$", t)
        if m and a > max(hgmma) and int(m.group(1), 16) < min(hgmma):
            return [t for b, t in ins if int(m.group(1), 16) <= b <= a]
    return []


def uniform_descriptors_expected(name: str) -> bool:
    """The kernels whose tile loop must move no descriptor into uniform registers (R2UR): the
    N = 256 main kernels (ssd_fwd_sm90.cuh broadcasts their warpgroup index)."""
    d = describe(name)
    return " N=256 " in d and "state pass" not in d


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
    ap.add_argument("--ops", action="store_true", help="the tile loop's commonest opcodes")
    args = ap.parse_args()
    tool = find_cuobjdump()
    if tool is None:
        print("SKIPPED check_sm90_sass: no cuobjdump with nvdisasm (CUDA toolkit or scripts/setup_deps.sh)")
        return 77
    out = subprocess.run([tool, "--dump-sass", args.library], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"check_sm90_sass: {tool} failed: {out.stderr.strip()}")
        return 1
    stats, code = kernel_stats(out.stdout)
    bad = 0
    for name in sorted(stats, key=describe):
        s = stats[name]
        clobbers = inflight_operand_writes(code[name])
        ok = s["HGMMA"] > 0 and s["STL"] == 0 and s["LDL"] == 0 and not clobbers
        loop = tile_loop(code[name])
        r2ur = opcodes(loop).get("R2UR", 0)
        ok = ok and not (uniform_descriptors_expected(name) and r2ur)
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {describe(name):45s} HGMMA {s['HGMMA']:3d}  STL {s['STL']}  LDL {s['LDL']}"
              f"  in-flight A writes {len(clobbers)}  tile loop {len(loop):4d} of {len(code[name])} instructions,"
              f" R2UR {r2ur}")
        for t in clobbers[:3]:
            print(f"     writes an in-flight HGMMA operand: {t}")
        if uniform_descriptors_expected(name) and r2ur:
            print("     R2UR in the tile loop: the warpgroup index is no longer warp-uniform to ptxas (ssd_fwd_sm90.cuh)")
        if args.ops and loop:
            ops = opcodes(loop)
            print("     " + ", ".join(f"{op} {n}" for op, n in ops.most_common(16)))
    if len(stats) < args.expect:
        print(f"check_sm90_sass: {len(stats)} sm90 kernels in {args.library}, expected at least {args.expect}")
        return 1
    print(f"check_sm90_sass: {len(stats)} kernels, {bad} failing")
    return 1 if bad else 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly, not with a traceback
    sys.exit(main())
