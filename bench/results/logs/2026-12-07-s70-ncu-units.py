#!/usr/bin/env python3
"""Session 70: the units' busy fractions per active SM from ncu raw pages (--page raw --csv).
With 11 CTAs only 11 of the SMs work, so the per-SM maxima are read (.max), not the averages.
Usage: s70-ncu-units.py name=work.raw.csv ...  (work = tile-slices in the launch)."""
import csv, sys
keys = [
    ("duration us", "gpu__time_duration.sum", 1e-3),
    ("SM GHz", "smsp__cycles_elapsed.avg.per_second", 1e-9),
    ("elapsed cycles", "sm__cycles_elapsed.max", 1),
    ("active cycles (busiest SM)", "sm__cycles_active.max", 1),
    ("issue % (busiest SM)", "sm__issue_active.max.pct_of_peak_sustained_elapsed", 1),
    ("tensor pipe % (busiest SM)", "sm__pipe_tensor_op_hmma_cycles_active.max.pct_of_peak_sustained_elapsed", 1),
    ("LSU wavefronts % (busiest SM)", "l1tex__data_pipe_lsu_wavefronts.max.pct_of_peak_sustained_elapsed", 1),
    ("ALU % (busiest SM)", "sm__inst_executed_pipe_alu.max.pct_of_peak_sustained_elapsed", 1),
    ("FMA % (busiest SM)", "sm__inst_executed_pipe_fma.max.pct_of_peak_sustained_elapsed", 1),
    ("XU % (busiest SM)", "sm__inst_executed_pipe_xu.max.pct_of_peak_sustained_elapsed", 1),
    ("mio2rf writeback % (busiest SM)", "sm__mio2rf_writeback_active.max.pct_of_peak_sustained_elapsed", 1),
    ("DRAM %", "dram__cycles_active.avg.pct_of_peak_sustained_elapsed", 1),
    ("L2 -> xbar % (avg slice)", "lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed", 1),
    ("shared wavefronts (all)", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 1),
    ("LSU wavefronts (avg per SM)", "l1tex__data_pipe_lsu_wavefronts.avg", 1),
    ("warp instructions", "smsp__inst_executed.sum", 1),
    ("bank-conflict wavefronts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 1),
]
stalls = ["selected", "wait", "not_selected", "short_scoreboard", "dispatch_stall", "barrier", "long_scoreboard",
          "gmma", "math_pipe_throttle", "branch_resolving", "no_instruction", "mio_throttle"]
cols = []
for arg in sys.argv[1:]:
    name, rest = arg.split("=", 1)
    work, path = rest.split(":", 1)
    rows = list(csv.reader(open(path)))
    d = dict(zip(rows[0], rows[2]))
    def g(k, d=d):
        for h, v in d.items():
            if h.endswith(k) or h.split(".", 2)[-1] == k or h == k:
                try: return float(v.replace(",", ""))
                except ValueError: return float("nan")
        return float("nan")
    cols.append((name, float(work), g, d))
print("| measure | " + " | ".join(c[0] for c in cols) + " |")
print("|---|" + "---|" * len(cols))
for label, k, scale in keys:
    print(f"| {label} | " + " | ".join(f"{c[2](k) * scale:,.3g}" for c in cols) + " |")
for label, f in [("warp instructions per tile-slice", lambda g, w: g("smsp__inst_executed.sum") / w),
                 ("shared wavefronts per tile-slice", lambda g, w: g("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum") / w),
                 ("busiest SM's elapsed cycles / 768 (tile-slices a CTA at H = 66: not R1 8k's 512)", lambda g, w: g("sm__cycles_elapsed.max") / 768)]:
    print(f"| {label} | " + " | ".join(f"{f(c[2], c[1]):,.4g}" for c in cols) + " |")
for s in stalls:
    print(f"| stall {s} (warps per issue) | " + " | ".join(f"{c[2]('smsp__average_warps_issue_stalled_' + s + '_per_issue_active.ratio'):.3f}" for c in cols) + " |")
