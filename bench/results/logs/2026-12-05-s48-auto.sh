#!/usr/bin/env bash
# Session 48, call 4, branch s48-fixup (out/dev/s48b): the choice as it would merge
#   - auto takes the state pass outright where that pass is short (< 256 tiles per SM: R1 32k
#     128, R4 384), kFixupCostRatio 5 (call 3's sweep);
#   - tile_log_decay a block per tile (warps of 8 tokens); the fix-up without call 3's L2
#     prefetch (no gain: 103 -> 103 us at R1 32k, 138 -> 143 at R4 128k);
#   - a split test of the choice on the device (GpuForwardSplit.ChoiceOnTheDeviceMatchesReference).
# Checks, ncu (R1 32k and R4 128k under the choice; the fix-up kernel's stall reasons at R4
# 128k with it forced), then the API A/B against main's library (out/dev/cstma: main's kernels
# since session 46).
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s48-auto.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s48b > /dev/null || exit 1
F=out/dev/s48b M=out/dev/cstma
T=$F/tests/gpu/flashssd_gpu_tests
nvidia-smi --query-gpu=name --format=csv,noheader
(
export LD_LIBRARY_PATH=$PWD/$F
timeout 200 $T --gtest_filter='GpuForwardSplit.*' > $O/split_tests.log 2>&1
echo "split tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|Failure" $O/split_tests.log | head -20
FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 150 $T > $O/gpu_fixup3.log 2>&1
echo "GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_fixup3.log | head -10
timeout 150 $T > $O/gpu_default.log 2>&1
echo "GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_default.log | head -10
timeout 120 $F/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1
echo "sm90 tests rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/sm90_tests.log | head
FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 120 compute-sanitizer --tool memcheck $T --gtest_filter='*Small*' > $O/memcheck_fixup3.log 2>&1
echo "memcheck (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY" $O/memcheck_fixup3.log
timeout 150 compute-sanitizer --tool memcheck $T --gtest_filter='*ChoiceOnTheDevice*' > $O/memcheck_choice.log 2>&1
echo "memcheck (choice on the device) rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $O/memcheck_choice.log | head -3
for row in "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"; do
  tag=${row%% *} args=${row#* }
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    $F/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > $O/ncu_${tag}_auto.csv 2>&1
  echo "ncu $tag auto rc=$?"; python3 scripts/ncu_durations.py $O/ncu_${tag}_auto.csv | grep -v -e fill_uniform -e count_nonfinite
done
FLASHSSD_SPLIT_SCHEME=fixup timeout 90 ncu --clock-control none -k regex:split_fixup_kernel -c 1 --section SpeedOfLight \
  --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
  $F/bench/flashssd_bench --config R4 --seqlen 131072 --iters 1 --warmup 1 --no-verify > $O/ncu_fixup_sections.log 2>&1
echo "ncu fix-up sections rc=$?"; grep -E "Duration|Throughput|Achieved Occupancy|Theoretical Occupancy|Stall|Warp Cycles Per Issued|Registers|Block Limit" $O/ncu_fixup_sections.log | head -30
)
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" \
  "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 16384" "--config R4 --seqlen 131072 --A-scale 0.25" \
  "--config R4 --seqlen 131072 --A-scale 0.1" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R4 --seqlen 524288 --A-scale 0.01" "--config R1 --seqlen 32768 --z --A-scale 0.01" |
  timeout 300 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib new=$F > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -11 $O/api_ab.log
(cd $O && tar -czf s48b_logs.tgz *.log *.csv && rm -f *.log *.csv)
ls $O
