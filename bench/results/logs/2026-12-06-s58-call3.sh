#!/usr/bin/env bash
# Session 58, call 3 (any card). s58ovl = main (s57main) + branch s58-work: split 0's main pass
# runs on a second stream beside the state chain (window kernels, state pass, boundary scan)
# where the plan has two splits and the state scheme, split 0 made kOverlapExtraTiles (24)
# longer; the chunk scores are queued first on every path; host clean-ups (tile_log_decay
# launch helper, messages). SASS: the main passes' item prologue (split_first, main_splits),
# the state passes reordered only (scripts/sass_diff.py: 18 different, 40 identical).
# 1. API A/B, 3 rounds, against main: the overlap with 24 (default), 0 and 48 extra tiles, and
#    off (FLASHSSD_SPLIT_OVERLAP=0: the new main passes and order without the overlap); R1 8k,
#    512 and R4 128k as controls (no overlap there).
# 2. Suites: default; two splits with the state scheme forced (the overlap on every test), with
#    the window forced too; Hopper suite; memcheck on the small shapes at two splits; quick pytest
#    (its first-call capture runs at two splits: the side stream made inside a capture).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s58-call3.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
for n in s57main s58ovl; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s57main V=out/dev/s58ovl
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1" \
  "--config R1 --seqlen 8192" "--config R1 --seqlen 512" "--config R4 --seqlen 131072" |
  timeout 240 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "ovl=$V" --lib "ovl_e0=$V,FLASHSSD_OVERLAP_EXTRA=0" \
    --lib "ovl_e48=$V,FLASHSSD_OVERLAP_EXTRA=48" --lib "ovl_off=$V,FLASHSSD_SPLIT_OVERLAP=0" > "$OUT/api_ab_ovl.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_ovl.log"
variant_pack ab
T=$V/tests/gpu/flashssd_gpu_tests
LD_LIBRARY_PATH=$PWD/$V timeout 100 $T > "$OUT/ovl_gpu_default.log" 2>&1; echo "default rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/ovl_gpu_default.log"
LD_LIBRARY_PATH=$PWD/$V FLASHSSD_NUM_SPLITS=2 FLASHSSD_SPLIT_SCHEME=state timeout 100 $T > "$OUT/ovl_gpu_state2.log" 2>&1
echo "state at 2 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$OUT/ovl_gpu_state2.log" | head
LD_LIBRARY_PATH=$PWD/$V FLASHSSD_NUM_SPLITS=2 FLASHSSD_SPLIT_SCHEME=state FLASHSSD_STATE_WINDOW=1 timeout 100 $T > "$OUT/ovl_gpu_win2.log" 2>&1
echo "windowed state at 2 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$OUT/ovl_gpu_win2.log" | head
LD_LIBRARY_PATH=$PWD/$V timeout 60 $V/tests/gpu/flashssd_sm90_gpu_tests > "$OUT/ovl_sm90.log" 2>&1; echo "sm90 rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/ovl_sm90.log"
echo "suites done at ${SECONDS} s"
LD_LIBRARY_PATH=$PWD/$V FLASHSSD_NUM_SPLITS=2 FLASHSSD_SPLIT_SCHEME=state FLASHSSD_STATE_WINDOW=1 timeout 120 compute-sanitizer --tool memcheck \
  $T --gtest_filter='*Small*' > "$OUT/ovl_memcheck_win2.log" 2>&1
echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/ovl_memcheck_win2.log" | head -3
variant_pack checks
variant_pytest pytest_quick $V "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
