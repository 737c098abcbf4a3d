#!/usr/bin/env bash
# NEVER RUN (session 47: no device budget; it reached main with the merge of s47-auto in
# session 48). Its kernel form was measured through -s47-auto.sh instead.
# Session 47, branch s47-fixup, second form of the fix-up kernel (y and z loaded before the GEMM and
# before any store; 128 registers, CTAs by occupancy). One device call: the split tests and the
# GPU suite with FLASHSSD_SPLIT_SCHEME=fixup at 3 splits, memcheck / racecheck on the small shapes
# that way, the API A/B (the branch's library with the state pass, its default, against the
# fix-up), and ncu's kernel durations of R4 128k and R1 32k with the fix-up.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s47-fixup2-not-run.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s47fixup2 > /dev/null || exit 1
F=out/dev/fixup2
T=$F/tests/gpu/flashssd_gpu_tests
export LD_LIBRARY_PATH=$PWD/$F
timeout 200 $T --gtest_filter='GpuForwardSplit.*' > $O/split_tests.log 2>&1
echo "split tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|Failure" $O/split_tests.log | head -20
FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 200 $T > $O/gpu_fixup3.log 2>&1
echo "GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_fixup3.log | head -20
FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool memcheck $T --gtest_filter='*Small*' > $O/memcheck_fixup3.log 2>&1
echo "memcheck (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY" $O/memcheck_fixup3.log
FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard $T --gtest_filter='*Small*' > $O/racecheck_fixup3.log 2>&1
echo "racecheck (fixup, 3 splits) rc=$?"; grep -E "RACECHECK SUMMARY" $O/racecheck_fixup3.log
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" \
  "--config R1 --seqlen 32768 --z" "--config R4 --seqlen 131072 --A-scale 0.01" "--config R1 --seqlen 32768 --z --A-scale 0.01" |
  timeout 240 bash scripts/api_ab.sh --rounds 2 --lib new=$F --lib fixup=$F,FLASHSSD_SPLIT_SCHEME=fixup > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -7 $O/api_ab.log
for args in "--config R4 --seqlen 131072" "--config R1 --seqlen 32768"; do
  name=$(echo "$args" | tr -c 'A-Za-z0-9\n' '_')
  FLASHSSD_SPLIT_SCHEME=fixup timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    $F/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > $O/ncu_$name.csv 2>&1
  echo "ncu [$args] fixup rc=$?"; python3 scripts/ncu_durations.py $O/ncu_$name.csv | head -12
done
(cd $O && tar -czf fixup2_logs.tgz *.log *.csv && rm -f *.log *.csv)
ls $O
