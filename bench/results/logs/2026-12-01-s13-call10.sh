#!/bin/bash
# Session 13 call 10: ncu of the main pass with the API's dt (probe --softplus 1, R1 8k, N = 128,
# HEAD's kernels): where the producer's chain waits.
O=$OUT
timeout 150 ncu --set full --import-source no -k regex:ssd_fwd --launch-skip 1 --launch-count 1 -o /tmp/main out/ab/hdsp_probe --N 128 --softplus 1 --iters 2 > /tmp/ncu_run.log 2>&1; echo "ncu rc=$?"; tail -2 /tmp/ncu_run.log
ncu -i /tmp/main.ncu-rep --page details > $O/ncu_main_details.txt 2>&1
ncu -i /tmp/main.ncu-rep --page source --csv --print-source sass > /tmp/sass.csv 2>&1; echo "source csv rc=$? $(wc -l < /tmp/sass.csv) lines"
head -3 /tmp/sass.csv | cut -c1-300
python3 out/ab/ncu_extract.py /tmp/sass.csv $O/ncu_sass.csv; gzip -9 $O/ncu_sass.csv
# the stall-reason columns too (per instruction), for the producer's region
python3 - <<'PY' > $O/ncu_stalls.csv
import csv
rows = list(csv.reader(open('/tmp/sass.csv', newline='')))
hi = next(i for i, r in enumerate(rows) if any('Source' == c for c in r))
head = rows[hi]
want = [i for i, c in enumerate(head) if c == 'Address' or (c.startswith('stall_') and 'Not Issued' not in c)]
w = csv.writer(__import__('sys').stdout)
w.writerow([head[i] for i in want])
for r in rows[hi + 1:]:
    if len(r) > max(want): w.writerow([r[i] for i in want])
PY
gzip -9 $O/ncu_stalls.csv; ls -la $O
