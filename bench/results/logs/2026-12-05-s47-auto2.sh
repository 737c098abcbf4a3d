#!/usr/bin/env bash
# Session 47, branch s47-auto at its third form of the fix-up (a work list of the windows' chunks,
# h_in's and dt's loads in flight together), otherwise as -s47-auto.sh: the split schemes chosen on the device (src/kernels/sm90/split_fixup.h),
# the fix-up kernel's second form (y and z loaded before its GEMM and stores, 128 registers,
# CTAs by occupancy). One device call:
#   1. the split tests (SplitSchemesMatchReference forces each scheme; the others run the default
#      choice), the GPU suite at 3 splits with the fix-up forced and with the choice, the Hopper
#      suite;
#   2. memcheck on the small shapes at 3 splits with the choice (call 1 racechecked the fix-up
#      kernel's shared-memory protocol, which this form keeps);
#   3. the API A/B: the branch's library with the state pass forced (main's path: call 1 read it
#      within -2.3..+0.1% of main), the fix-up forced and the choice (the default);
#   4. ncu's kernel durations of R4 128k under the choice.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s47-auto.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s47auto2 > /dev/null || exit 1
F=out/dev/auto2
T=$F/tests/gpu/flashssd_gpu_tests
(
export LD_LIBRARY_PATH=$PWD/$F
timeout 200 $T --gtest_filter='GpuForwardSplit.*' > $O/split_tests.log 2>&1
echo "split tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|Failure" $O/split_tests.log | head -20
for scheme in auto; do
  FLASHSSD_SPLIT_SCHEME=$scheme FLASHSSD_NUM_SPLITS=3 timeout 150 $T > $O/gpu_${scheme}3.log 2>&1
  echo "GPU suite, $scheme at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_${scheme}3.log | head -10
done
for scheme in auto; do
  FLASHSSD_SPLIT_SCHEME=$scheme FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool memcheck $T --gtest_filter='*Small*' > $O/memcheck_${scheme}3.log 2>&1
  echo "memcheck ($scheme, 3 splits) rc=$?"; grep -E "ERROR SUMMARY" $O/memcheck_${scheme}3.log
done
)
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" \
  "--config R1 --seqlen 32768 --z" "--config R4 --seqlen 131072 --A-scale 0.01" "--config R1 --seqlen 32768 --z --A-scale 0.01" |
  timeout 240 bash scripts/api_ab.sh --rounds 2 --lib state=$F,FLASHSSD_SPLIT_SCHEME=state \
    --lib fixup=$F,FLASHSSD_SPLIT_SCHEME=fixup --lib auto=$F > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -7 $O/api_ab.log
LD_LIBRARY_PATH=$PWD/$F timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
  $F/bench/flashssd_bench --config R4 --seqlen 131072 --iters 2 --warmup 1 --no-verify > $O/ncu_R4_128k.csv 2>&1
echo "ncu R4 128k rc=$?"; python3 scripts/ncu_durations.py $O/ncu_R4_128k.csv | head -14
(cd $O && tar -czf auto2_logs.tgz *.log *.csv && rm -f *.log *.csv)
ls $O
