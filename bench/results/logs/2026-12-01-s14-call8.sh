#!/bin/bash
# Session 14 call 8: ncu per-instruction stall samples (SourceCounters, WarpStateStats) of the
# final code's plain loop (b0: diagonal rows after the token factors, 0.488 ms) and of call 2's
# slower layout (c0: columns between the barriers, 0.527 ms); probe R1 8k, N = 128, API's dt.
O=$OUT
for v in b0 c0; do
  timeout 100 ncu --section SourceCounters --section WarpStateStats --import-source no -k regex:ssd_fwd --launch-skip 1 --launch-count 1 -o /tmp/$v out/ab/${v}_probe --N 128 --softplus 1 --iters 2 > /tmp/ncu_$v.log 2>&1; echo "ncu $v rc=$?"; tail -1 /tmp/ncu_$v.log
  ncu -i /tmp/$v.ncu-rep --page details > $O/ncu_${v}_details.txt 2>&1
  ncu -i /tmp/$v.ncu-rep --page source --csv --print-source sass > /tmp/sass_$v.csv 2>&1
  python3 - /tmp/sass_$v.csv $O/ncu_${v}_sass.csv <<'PY'
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
  gzip -9 $O/ncu_${v}_sass.csv
done
ls -la $O
