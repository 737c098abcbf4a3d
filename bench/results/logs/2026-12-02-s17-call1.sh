#!/bin/bash
# Session 17 call 1: the state pass with consumer-computed weights (sp = this tree) against main
# (base = 1de3789): GPU suites on the new build (1 and 3 splits, sm90 kernel tests), API A/B on
# the split rows, ncu durations of R4's kernels, probe A/B of the main kernels (the pair form's
# dead td.dt store removed) and the carve-out question (cv = 9fbb8cb's storage form).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
B=out/dev/build-gpu; A=out/ab
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
export LD_LIBRARY_PATH=$PWD/$B
FLASHSSD_NUM_SPLITS=3 timeout 100 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_splits3.log 2>&1; echo "gpu splits3 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_splits3.log | tail -3
timeout 100 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90.log 2>&1; echo "sm90 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90.log | tail -3
timeout 100 $B/tests/gpu/flashssd_gpu_tests > $O/gpu.log 2>&1; echo "gpu rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu.log | tail -3
unset LD_LIBRARY_PATH
printf '%s\n' "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 8192" \
  | timeout 200 bash scripts/api_ab.sh --rounds 3 --lib base=$A/baselib --lib sp=$B > $O/api_ab.log 2>&1
cat $O/api_ab.log
for v in base sp; do
  L=$A/baselib; bin=$L/flashssd_bench; [ $v = sp ] && { L=$B; bin=$B/bench/flashssd_bench; }
  LD_LIBRARY_PATH=$PWD/$L timeout 60 ncu --metrics gpu__time_duration.sum --csv -k regex:"ssd_fwd|boundary|chunk_scores" $bin --config R4 --iters 1 --warmup 1 --no-verify > $O/ncu_r4_$v.csv 2>$O/ncu_r4_$v.err
  echo "ncu $v rc=$?"; python3 -c "
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>5]
h=rows[0]; k=h.index('Kernel Name'); m=h.index('Metric Value'); u=h.index('Metric Unit')
for r in rows[1:]: print(r[m], r[u], r[k][:32], r[k][-50:])
" $O/ncu_r4_$v.csv
done
printf '%s\n' "--N 128" "--N 128 --z 1" "--N 64" "--N 64 --z 1" "--N 128 --packed 4" "--N 64 --P 128 --H 32" \
  "--N 128 --carveout 100 | base cv" "--N 128 | cv" "--N 128 --carveout 0 | base cv" \
  | timeout 150 bash scripts/probe_ab.sh --rounds 2 --variants "base sp" > $O/probe.log 2>&1
cat $O/probe.log
