#!/usr/bin/env bash
# Session 60, call 3 (~60 s of run, with what device time was left): the split plan's knobs on
# main's build (s60side2: the chunk scores now overlap the split kernels, which may move the best
# number of splits and runs). API A/B, 3 rounds, against the default plan: FLASHSSD_NUM_SPLITS
# 2, 3, 4, 6; FLASHSSD_STATE_RUNS 2, 8 (the scheme stays auto). No build: host knobs only.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s60-call3.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
bash scripts/carry.sh unpack s60side2 > /dev/null || exit 1
F=out/dev/s60side2
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 16384" \
  "--config R4 --seqlen 131072" | timeout 100 bash scripts/api_ab.sh --rounds 3 --lib "main=$F" \
  --lib "splits2=$F,FLASHSSD_NUM_SPLITS=2" --lib "splits3=$F,FLASHSSD_NUM_SPLITS=3" --lib "splits4=$F,FLASHSSD_NUM_SPLITS=4" \
  --lib "splits6=$F,FLASHSSD_NUM_SPLITS=6" --lib "runs2=$F,FLASHSSD_STATE_RUNS=2" --lib "runs8=$F,FLASHSSD_STATE_RUNS=8" \
  > "$OUT/api_ab_knobs.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_knobs.log"
