#!/usr/bin/env bash
# Session 57, call 6 (the H200 of calls 4-5, while warm), API A/B (3 rounds):
# 1. main (s56main) against the window branch (s57win) on rows the branch does not change
#    (R1 8k z, R2 z: the main pass identical but for three parameter offsets), to tell the
#    machine from the change in call 5's record;
# 2. the window's runs per split at R1 32k: 8 (default), 2, 4, with the benchmark's decays and
#    slower ones (A x 0.25, 0.1);
# 3. R4 (auto: the fix-up at the benchmark's decays) against the state scheme forced (the
#    windowed state pass, runs of 32 tiles and of 64): 128k, 128k A x 0.25, 512k.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s57-call6.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
for c in s56main s57win; do bash scripts/carry.sh unpack $c > /dev/null || exit 1; done
M=out/dev/s56main W=out/dev/s57win
printf "%s\n" "--config R1 --seqlen 8192 --z" "--config R2 --z" |
  timeout 80 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "win=$W" > "$OUT/api_ab_control.log" 2>&1
echo "control rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_control.log"
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --A-scale 0.25" "--config R1 --seqlen 32768 --A-scale 0.1" |
  timeout 120 bash scripts/api_ab.sh --rounds 3 --lib "win=$W" --lib "win_r2=$W,FLASHSSD_STATE_RUNS=2" \
    --lib "win_r4=$W,FLASHSSD_STATE_RUNS=4" > "$OUT/api_ab_runs.log" 2>&1
echo "runs rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_runs.log"
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.25" "--config R4 --seqlen 524288" |
  timeout 200 bash scripts/api_ab.sh --rounds 3 --lib "auto=$W" --lib "state=$W,FLASHSSD_SPLIT_SCHEME=state" \
    --lib "state_r8=$W,FLASHSSD_SPLIT_SCHEME=state,FLASHSSD_STATE_RUNS=8" > "$OUT/api_ab_r4.log" 2>&1
echo "R4 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_r4.log"
echo "all done at ${SECONDS} s"
