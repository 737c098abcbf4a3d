set -u
# Session 10 device call 5: ncu of the state pass alone (R4, 4 splits; its first launch).
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
FLASHSSD_NUM_SPLITS=4 timeout 300 ncu --set full --import-source no -k regex:"ssd_fwd" --launch-count 1 -o $O/state_pass \
  $B/bench/flashssd_bench --config R4 --iters 1 --warmup 0 --no-verify > $O/ncu5_run.log 2>&1; echo "ncu rc=$?"
ncu -i $O/state_pass.ncu-rep --page details > $O/state_pass_details.txt 2>&1
grep -E "Duration|Throughput|Issue Slots|Warp Cycles Per|Active Warps|Stall|Eligible|Issued Warp|No Eligible|Registers|Shared Memory Configuration|Theoretical Occ|Achieved Occ|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Executed Ipc" $O/state_pass_details.txt | head -60
ncu -i $O/state_pass.ncu-rep --page source --print-source sass --csv > $O/state_pass_sass.csv 2>/dev/null; echo "sass csv rc=$? $(wc -l < $O/state_pass_sass.csv)"
python3 - "$O/state_pass_sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[0]; print(hdr[:40])
def col(name):
    for i, h in enumerate(hdr):
        if h.strip() == name: return i
    return None
src = col("Source"); samp = col("Warp Stall Sampling (All Samples)") or col("Warp Stall Sampling (All Cycles)")
print("cols", src, samp)
if src is None or samp is None: sys.exit()
data = []
for r in rows[1:]:
    try: data.append((float(r[samp] or 0), r[src]))
    except: pass
tot = sum(d[0] for d in data) or 1
for v, s in sorted(data, reverse=True)[:30]: print(f"{100*v/tot:5.1f}% {s[:100]}")
PY
rm -f $O/state_pass_sass.csv
