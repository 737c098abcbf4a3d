#!/usr/bin/env bash
# Session 54, call 5 (warm after call 4): s54wg against main (s53main), 5 rounds over more rows.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s54-wg-ab5.sh   (carry out/carry)
set -u
for n in s53main s54wg; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 2048" "--config R1 --seqlen 8192" "--config R1 --seqlen 16384" \
  "--config R1 --seqlen 512 --z" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" \
  "--config R2 --seqlen 2048" "--config R2 --seqlen 2048 --z" "--config R3 --seqlen 2048" "--config R4 --seqlen 131072" \
  "--config R4 --seqlen 524288" "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 8192 --N 256 --z" \
  "--config R1 --seqlen 8192 --N 64" "--config R1 --seqlen 8192 --dtype fp16" "--config R1 --seqlen 8192 --dtype fp16 --z" |
  timeout 300 bash scripts/api_ab.sh --rounds 5 --lib "main=out/dev/s53main" --lib "wg=out/dev/s54wg" > "$OUT/api_ab_wg5.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_wg5.log"
