#!/bin/bash
# Session 17 call 3: ncu of the new state pass (R4 128k, its first launch): where its warps wait.
O=${OUT:-/tmp/o}; B=out/dev/build-gpu
LD_LIBRARY_PATH=$PWD/$B timeout 150 ncu --section SpeedOfLight --section SourceCounters --section WarpStateStats --section SchedulerStats --import-source no \
  -k regex:ssd_fwd --launch-count 1 -o /tmp/sp $B/bench/flashssd_bench --config R4 --iters 1 --warmup 0 --no-verify > /tmp/ncu_sp.log 2>&1; echo "ncu rc=$?"; tail -2 /tmp/ncu_sp.log
ncu -i /tmp/sp.ncu-rep --page details > $O/ncu_sp_details.txt 2>&1
ncu -i /tmp/sp.ncu-rep --page source --csv --print-source sass > /tmp/sass_sp.csv 2>&1
python3 - /tmp/sass_sp.csv $O/ncu_sp_sass.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
hi = next(i for i, r in enumerate(rows) if any('Source' == c for c in r))
head = rows[hi]
want = [i for i, c in enumerate(head) if c in ('Address', 'Source', 'Instructions Executed') or 'Warp Stall Sampling' in c or (c.startswith('stall_') and 'Not Issued' not in c)]
w = csv.writer(open(sys.argv[2], 'w', newline=''))
w.writerow([head[i] for i in want])
for r in rows[hi + 1:]:
    if len(r) > max(want): w.writerow([r[i] for i in want])
PY
gzip -9 $O/ncu_sp_sass.csv; ls -la $O; grep -A30 "Warp State Statistics" $O/ncu_sp_details.txt | head -40
