#!/usr/bin/env bash
# Session 57, call 10 (any card; ~301 s of budget left). s57rev = main after the review's notes
# (comments, a static_assert, the window test widened: 7 runs at P = 128, N = 256 and 3 heads per
# group); its kernels should be s57main's SASS (checked here before staging).
# 1. the split tests (GpuForwardSplit.*) by default;
# 2. API A/B, 2 rounds, the window on (default) and off on split calls with short state passes
#    (few heads, batch 1), where the two window kernels (~11 us) may cost more than they save.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s57-call10.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
bash scripts/carry.sh unpack s57rev > /dev/null || exit 1
R=out/dev/s57rev
LD_LIBRARY_PATH=$PWD/$R timeout 120 $R/tests/gpu/flashssd_gpu_tests --gtest_filter='GpuForwardSplit.*' > "$OUT/rev_split_tests.log" 2>&1
echo "split tests rc=$? at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$OUT/rev_split_tests.log" | head
printf "%s\n" "--config R1 --H 8 --batch 1 --seqlen 32768" "--config R1 --H 16 --batch 1 --seqlen 65536" \
  "--config R1 --H 64 --batch 1 --seqlen 16384" "--config R3 --batch 1 --seqlen 65536" "--config R1 --seqlen 32768" |
  timeout 120 bash scripts/api_ab.sh --rounds 2 --lib "window=$R" --lib "whole=$R,FLASHSSD_STATE_WINDOW=0" > "$OUT/api_ab_short.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_short.log"
echo "all done at ${SECONDS} s"
