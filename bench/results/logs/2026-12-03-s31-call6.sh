#!/usr/bin/env bash
# Session 31, device call 6 (diagnosis, nothing kept rides on it): why fy (the factored
# intra-tile term with its exact fallback, `-call5-fy.diff`, correct) reads as HEAD while fw
# (call 3's timing-only bound of the same structure) reads -4.8% (R1 8k) / -10.2% (z).
# fy64 = fy with the fold floor back at 2^-64 (more exact tiles in the probe's strong heads,
# fewer refolds). Then ncu's SASS stall tables of fw and fy (ungated N = 128, R1 8k shape).
# Carry: out/ab32 (head, fw, fy, fy64 probes; fy = 99c9ad8's kernels).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--final-states 0" "--final-states 0 --z 1" |
  timeout 120 bash scripts/probe_ab.sh --dir out/ab32 --rounds 3 --variants "head fw fy fy64" > $O/probe_ab.log 2>&1
tail -3 $O/probe_ab.log
for v in fw fy; do
  timeout 100 ncu --section SourceCounters --section WarpStateStats \
    -k regex:ssd_fwd_sm90_kernel -c 1 -o $O/ncu_$v out/ab32/${v}_probe --final-states 0 --iters 2 > $O/ncu_$v.log 2>&1
  echo "ncu $v rc=$?"
  ncu -i $O/ncu_$v.ncu-rep --page source --csv --print-source sass > $O/raw_$v.csv 2>/dev/null
  python3 scripts/ncu_sass_table.py $O/raw_$v.csv --out $O/sass_$v.csv --top 30 > $O/sass_${v}_top.txt 2>&1
  head -45 $O/sass_${v}_top.txt
  ncu -i $O/ncu_$v.ncu-rep --page details --csv > $O/ncu_${v}_details.csv 2>/dev/null
  grep -E 'Duration|Issued|Executed Ipc|Warp Cycles|SM Frequency' $O/ncu_${v}_details.csv | awk -F'","' '{print $(NF-2), $NF}' | head -12
  gzip -f $O/sass_$v.csv; rm -f $O/raw_$v.csv
done
cd $O && tar czf ncu.tgz ncu_*.ncu-rep ncu_*_details.csv && rm -f ncu_*.ncu-rep ncu_*_details.csv
