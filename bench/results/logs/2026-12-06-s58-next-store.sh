#!/usr/bin/env bash
# Prepared in session 58 for the next session (any card; never run: session 58's call 6 was refused,
# 250 s of device time left). s58store = main (s58main, 6e09649) + branch s58-store
# (2026-12-06-s58-store.patch): the states stored as 8-byte pairs where aligned (split / run
# states, final states; call 5's timeline: a state-pass run spends ~4.2-4.6 us storing its 64 KB
# with 4-byte stores). SASS: 18 kernels differ (STG.E.64), 40 identical.
#   here (if out/carry lacks them): bash scripts/stage_variant.sh s58main;
#     bash scripts/stage_variant.sh s58store bench/results/logs/2026-12-06-s58-store.patch
# 1. API A/B, 2 rounds, against main: R1 32k, z, R4 128k, R1 8k (control: one split).
# 2. The GPU suite by default, the split tests with the window forced at 3 splits, memcheck on the
#    small shapes with the state scheme and window forced at 3 splits, the Hopper suite.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s58-next-store.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
for n in s58main s58store; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
F=out/dev/s58main S=out/dev/s58store
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R4 --seqlen 131072" "--config R1 --seqlen 8192" |
  timeout 60 bash scripts/api_ab.sh --rounds 2 --lib "main=$F" --lib "store=$S" > "$OUT/api_ab_store.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_store.log"
T=$S/tests/gpu/flashssd_gpu_tests
LD_LIBRARY_PATH=$PWD/$S timeout 60 $T > "$OUT/store_gpu_default.log" 2>&1; echo "default rc=$?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$OUT/store_gpu_default.log" | head -5
LD_LIBRARY_PATH=$PWD/$S FLASHSSD_STATE_WINDOW=1 FLASHSSD_SPLIT_SCHEME=state FLASHSSD_NUM_SPLITS=3 timeout 40 $T --gtest_filter='GpuForwardSplit.*' > "$OUT/store_split_win3.log" 2>&1
echo "split tests, window at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$OUT/store_split_win3.log" | head -5
LD_LIBRARY_PATH=$PWD/$S timeout 30 $S/tests/gpu/flashssd_sm90_gpu_tests > "$OUT/store_sm90.log" 2>&1; echo "sm90 rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/store_sm90.log"
echo "suites at ${SECONDS} s"
LD_LIBRARY_PATH=$PWD/$S FLASHSSD_STATE_WINDOW=1 FLASHSSD_SPLIT_SCHEME=state FLASHSSD_NUM_SPLITS=3 timeout 60 compute-sanitizer --tool memcheck \
  $T --gtest_filter='*Small*' > "$OUT/store_memcheck_win3.log" 2>&1
echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/store_memcheck_win3.log" | head -3
variant_pack store
echo "all done at ${SECONDS} s"
