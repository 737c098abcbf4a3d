#!/bin/bash
# Session 20 call 4: call 3's ring of prefetched dt (kProducerAheadRounds 1-3, /tmp/s20 diff
# kept in -call3-ahead-ring.diff, not kept) changed nothing: the ring's register shift (a MOV of
# the load's destination) waits for the load, so the skeleton's producer still stalled on it.
# Here the dt load is removed altogether (SKEL_NODT: load_raw_dt returns fixed bits; timing
# only) in the skeleton (sk1nodt; tree /tmp/sk1 = call 3's kAhead = 1 tree + the skeleton diff,
# NVCC_FLAGS="-DSKEL_C=1 -DSKEL_P=1 -DSKEL_SMALL=1 -DSKEL_NODT=1") and in the real kernel
# (a1nodt: /tmp/a1, -DSKEL_NODT=1): the consumer skeleton's own floor, and whether the real
# producer's dt latency counts at all.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "a1 a1nodt sk1 sk1nodt" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
v=sk1nodt
timeout 100 ncu --section SourceCounters --section WarpStateStats --section SpeedOfLight \
  -k regex:ssd_fwd_sm90_kernel -c 1 -o $O/ncu_$v out/ab/${v}_probe --softplus 1 --iters 2 > $O/ncu_$v.log 2>&1
echo "ncu $v rc=$?"
ncu -i $O/ncu_$v.ncu-rep --page source --csv --print-source sass > $O/raw_$v.csv 2>/dev/null
python3 scripts/ncu_sass_table.py $O/raw_$v.csv --out $O/sass_$v.csv --top 20 > $O/sass_${v}_top.txt 2>&1
head -24 $O/sass_${v}_top.txt
ncu -i $O/ncu_$v.ncu-rep --page details --csv > $O/ncu_${v}_details.csv 2>/dev/null
grep -E 'Duration|Throughput|Frequency' $O/ncu_${v}_details.csv | awk -F'","' '{print $(NF-2), $NF}' | head -12
gzip -f $O/sass_$v.csv; rm -f $O/raw_$v.csv $O/ncu_$v.ncu-rep
