#!/bin/bash
# Session 17 call 9 (information for the next session, not landed): the state pass's consumer
# computing tile i + 2's weights (scan) beside scaling tile i + 1's operand, both while tile i's
# update runs (v2), against the final library (fin = c4252f5, SASS of
# bd6f08c). The split suite and racecheck at 3 splits on v2, ncu durations of R4's kernels,
# API A/B.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
F=out/dev/build-gpu; V=out/ab/v2lib
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
FLASHSSD_NUM_SPLITS=3 LD_LIBRARY_PATH=$PWD/$V timeout 60 $V/flashssd_gpu_tests > $O/v2_splits3.log 2>&1; rc=$?; echo "v2 gpu splits3 rc=$rc"; grep -E "^\[  PASSED|^\[  FAILED" $O/v2_splits3.log | tail -3
[ $rc = 0 ] || exit 1
FLASHSSD_NUM_SPLITS=3 LD_LIBRARY_PATH=$PWD/$V timeout 90 compute-sanitizer --tool racecheck --racecheck-report hazard $V/flashssd_gpu_tests --gtest_filter='*Small*' > $O/v2_racecheck.log 2>&1; echo "v2 racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/v2_racecheck.log
for v in fin v2; do
  L=$F; bin=$F/bench/flashssd_bench; [ $v = v2 ] && { L=$V; bin=$V/flashssd_bench; }
  LD_LIBRARY_PATH=$PWD/$L timeout 60 ncu --metrics gpu__time_duration.sum --csv -k regex:"ssd_fwd_sm90_kernel" $bin --config R4 --iters 1 --warmup 1 --no-verify > $O/ncu_r4_$v.csv 2>/dev/null
  echo "ncu $v rc=$?"; grep '^"[0-9]' $O/ncu_r4_$v.csv | awk -F'","' '{print $5, $NF}' | sed 's/void sm90::ssd_fwd_sm90_kernel<sm90::SsdFwdSm90<64, 128, 2, cutlass::bfloat16_t>, //; s/(T1::Params)//'
done
printf '%s\n' "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" \
  | timeout 150 bash scripts/api_ab.sh --rounds 2 --lib fin=$F --lib v2=$V > $O/api_ab.log 2>&1
cat $O/api_ab.log
