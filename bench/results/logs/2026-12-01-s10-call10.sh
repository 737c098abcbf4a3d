set -u
# Session 10 device call 10: GPU pytest on db7d12c46db0's build, and ncu of the new state pass.
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
FLASHSSD_NUM_SPLITS=4 timeout 120 ncu --set full --import-source no -k regex:"ssd_fwd" --launch-count 1 -o $O/state_pass2 \
  $B/bench/flashssd_bench --config R4 --iters 1 --warmup 0 --no-verify > $O/ncu10_run.log 2>&1; echo "ncu rc=$?"
ncu -i $O/state_pass2.ncu-rep --page details > $O/state_pass2_details.txt 2>&1
grep -E "Duration|Issue Slots Busy|Warp Cycles Per Issued|Eligible Warps|Executed Instructions  " $O/state_pass2_details.txt | head -12
ncu -i $O/state_pass2.ncu-rep --page source --print-source sass --csv > $O/sass.csv 2>/dev/null
python3 - "$O/sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hi = next(i for i, r in enumerate(rows) if any(c.strip() in ("Source", "Address") for c in r))
hdr = [c.strip() for c in rows[hi]]
src, samp = hdr.index("Source"), hdr.index("Warp Stall Sampling (All Samples)")
data = []
for r in rows[hi + 1:]:
    try: data.append((float(r[samp].replace(",", "") or 0), r[src]))
    except Exception: pass
tot = sum(d[0] for d in data) or 1
for v, s in sorted(data, reverse=True)[:16]: print(f"{100*v/tot:5.1f}% {s[:100]}")
PY
rm -f $O/sass.csv $O/state_pass2.ncu-rep
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 430 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -25 $O/pytest_gpu.log
