#!/usr/bin/env python3
"""Session 70: per-opcode totals of an ncu source page (--page source --csv --print-source sass):
instructions executed, shared wavefronts (LSU), stall samples; split into the consumers and the
producer at the kernel's USETMAXREG: the first in address order is the consumers' (TRY_ALLOC to
224 registers, their code up to the second), the second the producer's (DEALLOC to 48)."""
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[1]; body = rows[2:]
ix = {h: i for i, h in enumerate(hdr)}
def num(s):
    try: return float(s.replace(",", ""))
    except ValueError: return 0.0
setmax = [k for k, r in enumerate(body) if "USETMAXREG" in r[ix["Source"]]]
print("USETMAXREG at rows", setmax, [body[k][ix["Source"]].strip() for k in setmax])
tot = collections.defaultdict(lambda: collections.Counter())
for k, r in enumerate(body):
    op = r[ix["Source"]].strip().split()
    if not op: continue
    o = op[0]
    if o.startswith("@"): o = op[1]
    base = o.split(".")[0]
    role = "prologue" if k < setmax[0] else ("consumers" if k < setmax[1] else "producer") if len(setmax) >= 2 else "all"
    c = tot[(role, base)]
    c["inst"] += num(r[ix["Instructions Executed"]])
    c["wf"] += num(r[ix["L1 Wavefronts Shared"]])
    c["wf_ideal"] += num(r[ix["L1 Wavefronts Shared Ideal"]])
    c["samples"] += num(r[ix["Warp Stall Sampling (All Samples)"]])
work = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0  # tile-slices in the launch
print(f"per tile-slice (work = {work:.0f}); warp instructions, shared wavefronts (ideal), samples %")
all_samples = sum(c["samples"] for c in tot.values())
for role in ["prologue", "consumers", "producer", "all"]:
    items = sorted(((k[1], c) for k, c in tot.items() if k[0] == role), key=lambda kc: -kc[1]["inst"])
    if not items: continue
    ti = sum(c["inst"] for _, c in items); tw = sum(c["wf"] for _, c in items); ts = sum(c["samples"] for _, c in items)
    print(f"== {role}: inst {ti / work:.1f}, wavefronts {tw / work:.1f}, samples {100 * ts / all_samples:.1f}%")
    for o, c in items:
        if c["inst"] / work < 0.5 and c["wf"] == 0: continue
        print(f"  {o:10s} inst {c['inst'] / work:7.1f}  wf {c['wf'] / work:7.1f} ({c['wf_ideal'] / work:6.1f})  samples {100 * c['samples'] / all_samples:5.1f}%")
