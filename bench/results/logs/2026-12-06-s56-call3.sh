#!/usr/bin/env bash
# Session 56, call 3 (ask for an nvidia-h200; any card does the second part). On an H200 first the
# record on main (s55main, staged at c575bd9; its checks ran on an H100 in call 2: 69/69, 69/69 at
# 3 splits, 31/31, memcheck 0, racecheck 0). Then, on any card, the cleanup s56spg
# (2026-12-06-s56-patches/drop_sets_per_group.patch: Params::sets_per_group, read only on the
# host since 2db445e, removed; 18 kernels differ from main's only in their parameter loads,
# scripts/sass_diff.py): its suites (the state scheme forced at 3 splits), memcheck and
# racecheck, and an API A/B against main as a control (3 rounds).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s56-call3.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=290 bash scripts/device_record.sh s55main; echo "record rc=$? at ${SECONDS} s"
else
  bash scripts/carry.sh unpack s55main > /dev/null || exit 1
fi
bash scripts/carry.sh unpack s56spg > /dev/null || exit 1
. scripts/device_variant.sh
VARIANT_SCHEMES="state"
variant_suites spg out/dev/s56spg
variant_sanitize spg out/dev/s56spg memcheck racecheck
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" \
  "--config R1 --seqlen 32768" "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 8192 --N 64" |
  timeout 90 bash scripts/api_ab.sh --rounds 3 --lib "main=out/dev/s55main" --lib "spg=out/dev/s56spg" > "$OUT/api_ab_spg.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_spg.log"
variant_pack spg
echo "all done at ${SECONDS} s"
