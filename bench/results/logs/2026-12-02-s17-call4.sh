#!/bin/bash
# Session 17 call 4: the state pass with its producer computing the weights by a warp scan per half
# tile (call 2: the consumers computed them from a and dt, their scan on the critical path,
# ncu call 3). GPU suites, API A/B against main (base = 1de3789), ncu durations of R4.s kernels.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
B=out/dev/build-gpu; A=out/ab
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
export LD_LIBRARY_PATH=$PWD/$B
FLASHSSD_NUM_SPLITS=3 timeout 100 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_splits3.log 2>&1; rc3=$?; echo "gpu splits3 rc=$rc3"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_splits3.log | tail -3
timeout 100 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90.log 2>&1; echo "sm90 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90.log | tail -3
timeout 100 $B/tests/gpu/flashssd_gpu_tests > $O/gpu.log 2>&1; rc=$?; echo "gpu rc=$rc"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu.log | tail -3
[ $rc = 0 ] && [ $rc3 = 0 ] || exit 1
unset LD_LIBRARY_PATH
printf '%s\n' "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R4 --N 64" "--config R4 --N 256" \
  | timeout 200 bash scripts/api_ab.sh --rounds 3 --lib base=$A/baselib --lib sp=$B > $O/api_ab.log 2>&1
cat $O/api_ab.log
for v in sp; do
  L=$A/baselib; bin=$L/flashssd_bench; [ $v = sp ] && { L=$B; bin=$B/bench/flashssd_bench; }
  LD_LIBRARY_PATH=$PWD/$L timeout 60 ncu --metrics gpu__time_duration.sum --csv -k regex:"ssd_fwd|boundary|chunk_scores" $bin --config R4 --iters 1 --warmup 1 --no-verify > $O/ncu_r4_$v.csv 2>$O/ncu_r4_$v.err
  echo "ncu $v rc=$?"; python3 -c "
import csv,sys
rows=list(csv.reader(open(sys.argv[1]))); rows=rows[[i for i,r in enumerate(rows) if r[:1]==['ID']][0]:]
h=rows[0]; k=h.index('Kernel Name'); m=h.index('Metric Value'); u=h.index('Metric Unit')
for r in rows[1:]: print(r[m], r[u], r[k][:32], r[k][-50:])
" $O/ncu_r4_$v.csv
done
