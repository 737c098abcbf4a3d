#!/bin/bash
# Session 18 call 2: the state pass by pairs of tiles (one state decay and one WGMMA wait per
# two tiles, T_b folded into tile a's weights). Split-path suites at several split / run
# settings (odd tile counts per item), racecheck + memcheck at 3 splits, ncu durations, API A/B
# against main (fin = fbf611e's library).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
F=out/dev/build-gpu; M=out/ab/finlib
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
T=$F/tests/gpu/flashssd_gpu_tests
run() { env "$@" LD_LIBRARY_PATH=$PWD/$F timeout 90 $T > $O/gpu_$(echo "$*" | tr -c 'A-Za-z0-9=' _).log 2>&1; echo "gpu $* rc=$?"; }
run X=1
run FLASHSSD_NUM_SPLITS=3
run FLASHSSD_NUM_SPLITS=2 FLASHSSD_STATE_RUNS=3
run FLASHSSD_NUM_SPLITS=5
run FLASHSSD_NUM_SPLITS=7 FLASHSSD_STATE_RUNS=2
grep -hE "^\[  PASSED|^\[  FAILED" $O/gpu_*.log | sort | uniq -c
LD_LIBRARY_PATH=$PWD/$F timeout 90 $F/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90.log 2>&1; echo "sm90 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90.log
FLASHSSD_NUM_SPLITS=3 LD_LIBRARY_PATH=$PWD/$F timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard $T --gtest_filter='*Small*' > $O/racecheck3.log 2>&1; echo "racecheck3 rc=$?"; grep "RACECHECK SUMMARY" $O/racecheck3.log
FLASHSSD_NUM_SPLITS=3 FLASHSSD_STATE_RUNS=3 LD_LIBRARY_PATH=$PWD/$F timeout 100 compute-sanitizer --tool memcheck $T --gtest_filter='*Small*' > $O/memcheck3.log 2>&1; echo "memcheck3 rc=$?"; grep "ERROR SUMMARY" $O/memcheck3.log
for v in fin new; do
  L=$F; bin=$F/bench/flashssd_bench; [ $v = fin ] && { L=$M; bin=$M/flashssd_bench; }
  for cfg in "--config R4" "--config R1 --seqlen 32768"; do
  LD_LIBRARY_PATH=$PWD/$L timeout 60 ncu --metrics gpu__time_duration.sum --csv -k regex:"ssd_fwd|boundary|chunk_scores" $bin $cfg --iters 1 --warmup 1 --no-verify > $O/ncu_${v}_${cfg//[ -]/}.csv 2>/dev/null
  echo "ncu $v $cfg rc=$?"; grep '^"[0-9]' $O/ncu_${v}_${cfg//[ -]/}.csv | awk -F'","' '{n=$5; sub(/\(.*/,"",n); print substr(n,length(n)-25), $NF}'
  done
done
printf "%s --no-verify\n" "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R4 --N 256" "--config R4 --N 64" \
  | timeout 300 bash scripts/api_ab.sh --rounds 3 --lib fin=$M --lib new=$F > $O/api_ab.log 2>&1
cat $O/api_ab.log
