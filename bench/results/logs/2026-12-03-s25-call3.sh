#!/bin/bash
# Session 25 call 3: call 2 found the dt box's TMA itself illegal (compute-sanitizer: the
# UTMALDG.3D at ssd_fwd_sm90.cuh's dt copy), in every failing case at batch 1, where set_dt_tma
# gave the extent-1 batch mode a 16-byte stride (below the token stride). dttma_probe = call 2's
# (that stride); dttmab_probe = the batch mode's stride made seqlen x token stride. First: does
# either fault at batch 1 / batch 2; then, if dttmab runs, the A/B of call 1 (base = HEAD).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
for v in dttma dttmab; do for b in 1 2; do
  echo "== $v batch $b"; timeout 60 out/ab/${v}_probe --N 128 --batch $b --seqlen 8192 --state-pass 4 --softplus 1 --iters 3 --dt-tma 1 2>&1 | tail -2
done; done | tee $O/fault.log
printf "%s\n" "--N 128 --batch 1 --seqlen 131072 --state-pass 4 | base" "--N 128 --batch 1 --seqlen 131072 --state-pass 4 --dt-tma 1 | dttmab" \
  "--N 128 --batch 2 --seqlen 32768 --state-pass 2 | base" "--N 128 --batch 2 --seqlen 32768 --state-pass 2 --dt-tma 1 | dttmab" \
  "--N 64 --batch 1 --seqlen 131072 --state-pass 4 | base" "--N 64 --batch 1 --seqlen 131072 --state-pass 4 --dt-tma 1 | dttmab" \
  "--N 256 --batch 1 --seqlen 131072 --state-pass 4 | base dttmab" \
  | timeout 150 bash scripts/probe_ab.sh --rounds 3 --variants "base dttmab" > $O/probe_ab.log 2>&1
tail -8 $O/probe_ab.log
