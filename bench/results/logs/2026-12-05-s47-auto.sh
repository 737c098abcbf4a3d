#!/usr/bin/env bash
# Session 47, branch s47-auto: the split schemes chosen on the device (src/kernels/sm90/split_fixup.h),
# the fix-up kernel's second form (y and z loaded before its GEMM and stores, 128 registers,
# CTAs by occupancy). One device call:
#   1. the split tests (SplitSchemesMatchReference forces each scheme; the others run the default
#      choice), the GPU suite at 3 splits with the fix-up forced and with the choice, the Hopper
#      suite;
#   2. memcheck and racecheck on the small shapes at 3 splits with the choice;
#   3. the API A/B: main's library (out/dev/cstma) against the branch's with the state pass forced,
#      the fix-up forced and the choice (default); slow decays (--A-scale 0.01) without main;
#   4. ncu's kernel durations of R4 128k under the choice.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s47-auto.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s47auto > /dev/null || exit 1
bash scripts/carry.sh unpack s45next > /dev/null || exit 1
F=out/dev/auto M=out/dev/cstma
T=$F/tests/gpu/flashssd_gpu_tests
(
export LD_LIBRARY_PATH=$PWD/$F
timeout 200 $T --gtest_filter='GpuForwardSplit.*' > $O/split_tests.log 2>&1
echo "split tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|Failure" $O/split_tests.log | head -20
for scheme in fixup auto; do
  FLASHSSD_SPLIT_SCHEME=$scheme FLASHSSD_NUM_SPLITS=3 timeout 150 $T > $O/gpu_${scheme}3.log 2>&1
  echo "GPU suite, $scheme at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_${scheme}3.log | head -10
done
timeout 120 $F/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1
echo "sm90 tests rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/sm90_tests.log | head
for scheme in auto; do
  FLASHSSD_SPLIT_SCHEME=$scheme FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool memcheck $T --gtest_filter='*Small*' > $O/memcheck_${scheme}3.log 2>&1
  echo "memcheck ($scheme, 3 splits) rc=$?"; grep -E "ERROR SUMMARY" $O/memcheck_${scheme}3.log
done
FLASHSSD_NUM_SPLITS=3 timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard $T --gtest_filter='*Small*' > $O/racecheck_auto3.log 2>&1
echo "racecheck (auto, 3 splits) rc=$?"; grep -E "RACECHECK SUMMARY" $O/racecheck_auto3.log
)
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" \
  "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 8192" |
  timeout 260 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib state=$F,FLASHSSD_SPLIT_SCHEME=state \
    --lib fixup=$F,FLASHSSD_SPLIT_SCHEME=fixup --lib auto=$F > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -6 $O/api_ab.log
printf "%s\n" "--config R4 --seqlen 131072 --A-scale 0.01" "--config R1 --seqlen 32768 --z --A-scale 0.01" |
  timeout 90 bash scripts/api_ab.sh --rounds 2 --lib state=$F,FLASHSSD_SPLIT_SCHEME=state \
    --lib fixup=$F,FLASHSSD_SPLIT_SCHEME=fixup --lib auto=$F > $O/api_ab_slow.log 2>&1
echo "api_ab slow rc=$?"; tail -3 $O/api_ab_slow.log
for args in "--config R4 --seqlen 131072"; do
  name=$(echo "$args" | tr -c 'A-Za-z0-9\n' '_')
  LD_LIBRARY_PATH=$PWD/$F timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    $F/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > $O/ncu_$name.csv 2>&1
  echo "ncu [$args] rc=$?"; python3 scripts/ncu_durations.py $O/ncu_$name.csv | head -14
done
(cd $O && tar -czf auto_logs.tgz *.log *.csv && rm -f *.log *.csv)
ls $O
