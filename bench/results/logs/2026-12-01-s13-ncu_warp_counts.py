"""What session 13 read from the per-instruction ncu columns (s13-ncu_extract.py's CSV, e.g.
2026-12-01-s13-call1-ncu_sass.csv.gz; optional stall CSV, e.g. -call10-ncu_stalls.csv.gz):
executed instructions per consumer warp and tile in the tile loop, split by how many of a
warpgroup's four warps run each one (the mask's causal imbalance), and the producer's
instructions per warp and tile, samples and stall reasons. Addresses are offsets from the
kernel's first instruction; the loop bounds and the producer's start come from
scripts/sass_loop_stats.py on the same build (defaults: the N = 128 kernel of e2aae70 / ce333da
builds differ slightly, pass them).

  python3 2026-12-01-s13-ncu_warp_counts.py SASS.csv.gz [--loop 0x19f0 0x4a10] [--producer 0x5400]
      [--steps 32768] [--stalls STALLS.csv.gz]
"""
import collections, csv, gzip, re, sys

def opener(path):
    return gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")

def opt(name, n, default):
    return sys.argv[sys.argv.index(name) + 1: sys.argv.index(name) + 1 + n] if name in sys.argv else default

rows = list(csv.DictReader(opener(sys.argv[1])))
lo, hi = (int(x, 16) for x in opt("--loop", 2, ["0x19f0", "0x4a10"]))
prod = int(opt("--producer", 1, ["0x5400"])[0], 16)
steps = int(opt("--steps", 1, ["32768"])[0])  # CTA tile steps (R1 8k: 1024 tiles x 32 head pairs)
base = int(rows[0]["Address"], 16)
num = lambda s: float((s or "0").replace(",", ""))
total = sum(num(r["Warp Stall Sampling (All Samples)"]) for r in rows)
by_share, samples = collections.Counter(), collections.Counter()
prod_instr = prod_samples = 0.0
for r in rows:
    a = int(r["Address"], 16) - base
    e, s = num(r["Instructions Executed"]), num(r["Warp Stall Sampling (All Samples)"])
    if lo <= a <= hi:
        share = round(e / steps / 8 * 4) / 4  # of the 8 consumer warps per CTA step
        by_share[share] += 1
        samples["consumer loop"] += s
    elif a >= prod:
        if e / steps / 4 > 0.5:
            prod_instr += e / steps / 4
        prod_samples += s
mean = sum(k * v for k, v in by_share.items())
print(f"consumer loop: {sum(by_share.values())} instructions; executed per warp and tile {mean:.0f} on average")
for k in sorted(by_share):
    print(f"  run by {k * 100:3.0f}% of the warps: {by_share[k]} instructions")
print(f"  samples {samples['consumer loop'] / total * 100:.1f}% of all")
print(f"producer: ~{prod_instr:.0f} instructions per warp and tile run by every producer warp; samples {prod_samples / total * 100:.1f}% of all")
stalls = opt("--stalls", 1, None)
if stalls:
    agg = collections.Counter()
    for r in csv.DictReader(opener(stalls[0])):
        if int(r["Address"], 16) - base >= prod:
            for k, v in r.items():
                if k.startswith("stall_"):
                    agg[k] += num(v)
    t = sum(agg.values())
    print("producer stall reasons: " + ", ".join(f"{k[6:]} {v / t * 100:.1f}%" for k, v in agg.most_common(6)))
