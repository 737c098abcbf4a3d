#!/usr/bin/env bash
# Session 50, not run (the device was "paused" after four refused starts): one call, ~6 min.
#   here, first: bash bench/results/logs/2026-12-05-s50-next-prepare.sh   (fresh checkout: ~15 min)
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s50-next-call-not-run.sh   (carry out/carry third_party_bench)
#  1. s50vec (branch s50-fixup-vec 909e4d2 = patches/fixup-vec.patch: the fix-up's y and z as one
#     16-byte vector per token and slice, h_in's chunks swizzled): GPU suite by default and with
#     the fix-up forced at 3 splits, memcheck and racecheck (small shapes, fix-up forced, 3
#     splits); ncu of the fix-up against main's; API A/B against main. Merge if correct and
#     no slower.
#  2. the work-list chunk (kChunkTiles 4 against 8, 16, 2): 2026-12-05-s50-chunk.sh (suites,
#     sanitizers of ck8 / ck16, ncu, API A/B, main's crossover, the quick GPU pytest).
# Dry-run here on a fresh clone after the prepare script (stub nvidia-smi / ncu / compute-sanitizer
# on PATH, no GPU: the suites skip, flashssd_bench fails): every stage reached, 7 files in $OUT.
# The prepare script's builds there had the same fix-up SASS as this session's (md5 of the
# instructions: s50main, s50vec, ck8).
set -u
for n in s50main s50vec; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --z" \
  "--config R4 --seqlen 131072 --N 256" "--config R1 --seqlen 32768" "--config R1 --seqlen 8192" |
  variant_against s50vec out/dev/s50vec out/dev/s50main
bash bench/results/logs/2026-12-05-s50-chunk.sh
