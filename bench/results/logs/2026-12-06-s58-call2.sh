#!/usr/bin/env bash
# Session 58, call 2 (any card). s58dead = main (s57main) + branch s58-work's first commit: a
# windowed state-pass run before its window (one CTA per run) writes its kDeadRun marks and exits
# at the kernel's entry, before the barriers' set-up and the roles' register split; host clean-ups
# (a tile_log_decay launch helper, the grid check's message, a static_assert). SASS: the six state
# passes differ, the other 52 kernels are identical (scripts/sass_diff.py).
# 1. API A/B, 3 rounds, against main, at runs of 64 tiles (the default) and shorter (FLASHSSD_STATE_RUNS:
#    R1 32k has 256 tiles per split, R4 128k 512): with the dead CTAs cheap, shorter runs may win
#    (R1 32k, runs of 64: 92 live CTAs of 256 on 132 SMs, 29 of them a whole 64 tiles; runs of 16:
#    265 live of 1024; 2026-12-06-s58-dead.py).
# 2. The suites by default and with the window forced (state scheme at 3 splits); memcheck and
#    racecheck on the small shapes with the window forced, and the Hopper suite's.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s58-call2.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
for n in s57main s58dead; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s57main D=out/dev/s58dead
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1" |
  timeout 200 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "dead=$D" --lib "dead_r32=$D,FLASHSSD_STATE_RUNS=8" \
    --lib "dead_r16=$D,FLASHSSD_STATE_RUNS=16" --lib "main_r16=$M,FLASHSSD_STATE_RUNS=16" > "$OUT/api_ab_r1.log" 2>&1
echo "api_ab R1 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_r1.log"
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.25" |
  timeout 150 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "dead=$D" --lib "dead_r32=$D,FLASHSSD_STATE_RUNS=16" \
    --lib "dead_r16=$D,FLASHSSD_STATE_RUNS=32" --lib "main_r16=$M,FLASHSSD_STATE_RUNS=32" > "$OUT/api_ab_r4.log" 2>&1
echo "api_ab R4 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_r4.log"
variant_pack ab
variant_suites dead $D
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_suites dead_win $D
echo "suites done at ${SECONDS} s"
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_sanitize dead_win $D memcheck racecheck
echo "sanitizers done at ${SECONDS} s"
variant_pack checks
echo "all done at ${SECONDS} s"
