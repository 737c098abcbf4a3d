#!/usr/bin/env bash
# Session 57, call 9 (the H100 of call 8, warm): API A/B, 3 rounds, s57final (runs of 64 tiles,
# "auto" the windowed state pass) against main (s56main) on the split rows, with the benchmark's
# decays and 10x slower ones.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s57-call9.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
for c in s56main s57final; do bash scripts/carry.sh unpack $c > /dev/null || exit 1; done
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1" \
  "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.1" "--config R4 --seqlen 524288" |
  timeout 200 bash scripts/api_ab.sh --rounds 3 --lib "main=out/dev/s56main" --lib "final=out/dev/s57final" > "$OUT/api_ab_final.log" 2>&1
echo "rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_final.log"
