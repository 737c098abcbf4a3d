#!/usr/bin/env bash
# For the next session's spare device time (~120 s; an H200): kFixupMinStateSteps 128 (patch
# 2026-12-05-s51-patches/min128.patch on main, staged s53min128) against main (s53main), now
# that the boundary scan's idle launch is cheaper (the float4 form). Sessions 52-53 measured it on
# an H100 only: R1 32k -4.1..-4.6%, A x 0.5 / 0.35 +4.3..+4.4% (the choice's ~26 us, then the
# state pass). Its H200 figures decide nothing alone; they say whether the bet's sides moved.
# Builds: stage with scripts/stage_variant.sh s53min128 bench/results/logs/2026-12-05-s51-patches/min128.patch
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s53-next-min128.sh   (carry out/carry)
set -u
for n in s53main s53min128; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.7" \
  "--config R1 --seqlen 32768 --A-scale 0.5" "--config R1 --seqlen 32768 --A-scale 0.35" |
  timeout 110 bash scripts/api_ab.sh --rounds 2 --lib "main=out/dev/s53main" --lib "min128=out/dev/s53min128" > "$OUT/api_ab_min128.log" 2>&1
echo "api_ab rc=$?"; tail -6 "$OUT/api_ab_min128.log"
