#!/bin/bash
# Session 20 call 2: call 1's stall table showed skc3's producer waiting on its per-stage
# __ldg of the chunk scores' scale (score_inv) before it can arrive on the stage (STS long_sb,
# 12% of all samples) and skc3's consumers waiting on the stage (15.7%): the skeleton is paced
# by that serial load, not by the memory system. SKEL_NOINV (-call2-skeleton-noinv.diff,
# cumulative on main, timing only) replaces the load by 1. Builds (after patching /tmp/v):
#   S="-DSKEL_C=1 -DSKEL_P=1 -DSKEL_SMALL=1"
#   NVCC_FLAGS="$S -DSKEL_NOINV=1" scripts/build_probe.sh /tmp/v out/ab/skc3f_probe
#   NVCC_FLAGS="$S -DSKEL_NOINV=1 -DSKEL_NOTURN=1" scripts/build_probe.sh /tmp/v out/ab/skc3fnt_probe
#   NVCC_FLAGS="-DSKEL_C=1 -DSKEL_NOINV=1" scripts/build_probe.sh /tmp/v out/ab/skcf_probe   # real producer, 2 stages
#   NVCC_FLAGS="-DSKEL_NOINV=1" scripts/build_probe.sh /tmp/v out/ab/basef_probe
#   NVCC_FLAGS="-DSKEL_NOTURN=1" scripts/build_probe.sh /tmp/v out/ab/basent_probe
#   scripts/build_probe.sh out/ab/base_probe; NVCC_FLAGS="$S" scripts/build_probe.sh /tmp/v out/ab/skc3_probe
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base basef basent skc3 skc3f skc3fnt skcf" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
for v in skc3f; do
  timeout 100 ncu --section SourceCounters --section WarpStateStats --section SpeedOfLight \
    -k regex:ssd_fwd_sm90_kernel -c 1 -o $O/ncu_$v out/ab/${v}_probe --softplus 1 --iters 2 > $O/ncu_$v.log 2>&1
  echo "ncu $v rc=$?"
  ncu -i $O/ncu_$v.ncu-rep --page source --csv --print-source sass > $O/raw_$v.csv 2>/dev/null
  python3 scripts/ncu_sass_table.py $O/raw_$v.csv --out $O/sass_$v.csv --top 25 > $O/sass_${v}_top.txt 2>&1
  head -30 $O/sass_${v}_top.txt
  ncu -i $O/ncu_$v.ncu-rep --page details --csv > $O/ncu_${v}_details.csv 2>/dev/null
  grep -E 'Duration|Throughput|Warp Cycles|Issue' $O/ncu_${v}_details.csv | awk -F'","' '{print $(NF-2), $NF}' | head -20
  gzip -f $O/sass_$v.csv; rm -f $O/raw_$v.csv $O/ncu_$v.ncu-rep
done
