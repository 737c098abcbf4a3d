#!/usr/bin/env bash
# Session 57, call 7 (the H200 of calls 4-6, while warm), API A/B, 5 rounds: the defaults planned
# after call 6, emulated by the environment on s57win: runs of 64 tiles (FLASHSSD_STATE_RUNS: R1
# 32k 4, R4 128k 8, R4 512k 32) and the windowed state pass in place of the fix-up's choice
# (FLASHSSD_SPLIT_SCHEME=state), against main (s56main).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s57-call7.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
for c in s56main s57win; do bash scripts/carry.sh unpack $c > /dev/null || exit 1; done
M=out/dev/s56main W=out/dev/s57win
ab() {  # <tag> <runs> <rows...>
  local tag=$1 runs=$2; shift 2
  printf "%s\n" "$@" | timeout 150 bash scripts/api_ab.sh --rounds 5 --lib "main=$M" \
    --lib "win64=$W,FLASHSSD_SPLIT_SCHEME=state,FLASHSSD_STATE_RUNS=$runs" > "$OUT/api_ab_$tag.log" 2>&1
  echo "$tag rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_$tag.log"
}
ab r1 4 "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1"
ab r4_128k 8 "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --z" "--config R4 --seqlen 131072 --A-scale 0.1"
ab r4_512k 32 "--config R4 --seqlen 524288"
echo "all done at ${SECONDS} s"
