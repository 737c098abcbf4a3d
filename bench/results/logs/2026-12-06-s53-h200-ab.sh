#!/usr/bin/env bash
# Session 53, a short call with the device time left (~100 s): main before (s52main, ad8e9d9)
# and after (s53main) the float4 boundary scan, through the API on an H200 (call 5 measured it
# on an H100).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s53-h200-ab.sh   (carry out/carry)
set -u
for n in s52main s53main; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.5" \
  "--config R4 --seqlen 131072" |
  timeout 110 bash scripts/api_ab.sh --rounds 2 --lib "before=out/dev/s52main" --lib "after=out/dev/s53main" > "$OUT/api_ab_h200.log" 2>&1
echo "api_ab rc=$?"; tail -6 "$OUT/api_ab_h200.log"
