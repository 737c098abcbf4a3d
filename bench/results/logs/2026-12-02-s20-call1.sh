#!/bin/bash
# Session 20 call 1: session 19's prepared call 10 (2026-12-02-s19-call10-not-run.sh: does the
# group's B/C/S L2 -> SM traffic pace the skeleton? builds in that file's header), then, in the
# same machine start, the SASS stall table of skc3 and base (scripts/ncu_sass_table.py).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base skc3 nocs xonly basenocs" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
for v in skc3 base; do
  timeout 100 ncu --section SourceCounters --section WarpStateStats --section MemoryWorkloadAnalysis \
    -k regex:ssd_fwd_sm90_kernel -c 1 -o $O/ncu_$v out/ab/${v}_probe --softplus 1 --iters 2 > $O/ncu_$v.log 2>&1
  echo "ncu $v rc=$?"
  ncu -i $O/ncu_$v.ncu-rep --page source --csv --print-source sass > $O/raw_$v.csv 2>/dev/null
  python3 scripts/ncu_sass_table.py $O/raw_$v.csv --out $O/sass_$v.csv --top 25 > $O/sass_${v}_top.txt 2>&1
  cat $O/sass_${v}_top.txt | head -60
  ncu -i $O/ncu_$v.ncu-rep --page details --csv > $O/ncu_${v}_details.csv 2>/dev/null
  grep -E 'Duration|Throughput|Hit Rate|L2|Stall|Warp Cycles' $O/ncu_${v}_details.csv | awk -F'","' '{print $(NF-2), $NF}' | head -30
  gzip -f $O/sass_$v.csv; rm -f $O/raw_$v.csv
done
cd $O && tar czf ncu.tgz ncu_*.ncu-rep ncu_*_details.csv && rm -f ncu_*.ncu-rep ncu_*_details.csv; ls $O
