#!/usr/bin/env bash
# RAN as call 5 (21:28, an H100) with SKIP_CHUNK=1: the three variants (logs: -s50-calls/call5/);
# its last step, -s50-chunk.sh, did not run (the budget left was 612 s).
# Session 50, not run (the device was "paused" after four refused starts): one call, ~8-9 min
# (call 2 ran ~100 flashssd_bench runs, suites and sanitizers in 100 s; this one has ~2.5x that,
# plus the quick pytest).
#   here, first: bash bench/results/logs/2026-12-05-s50-next-prepare.sh   (fresh checkout: ~5 min)
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s50-next-call-not-run.sh   (carry out/carry third_party_bench)
#  1. s50vec (branch s50-fixup-vec 909e4d2 = patches/fixup-vec.patch: the fix-up's y and z as one
#     16-byte vector per token and slice, h_in's chunks swizzled): GPU suite by default and with
#     the fix-up forced at 3 splits, memcheck and racecheck (small shapes, fix-up forced, 3
#     splits); ncu of the fix-up against main's; API A/B against main. Merge if correct and
#     no slower.
#  2. s50range (branch s50-fixup-range = patches/fixup-range.patch: each fix-up CTA a contiguous
#     run of the work list, h_in loaded once per run of one window's entries, not per chunk):
#     the same checks and A/B.
#  3. s50vr (branch s50-fixup-vr = patches/fixup-vr.patch: both together), the same checks and
#     A/B, so that a merge of both needs no further call.
#  4. the work-list chunk (kChunkTiles 4 against 8, 16, 2): 2026-12-05-s50-chunk.sh (suites,
#     sanitizers of ck8 / ck16, ncu, API A/B, main's crossover, the quick GPU pytest).
# Dry-run here on a fresh clone after the prepare script (stub nvidia-smi / ncu / compute-sanitizer
# on PATH, no GPU: the suites skip, flashssd_bench fails): every stage reached, 7 files in $OUT.
# The prepare script's builds there had the same fix-up SASS as this session's (md5 of the
# instructions: s50main, s50vec, s50range, s50vr, ck8).
set -u
for n in s50main s50vec s50range s50vr; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --z" \
  "--config R4 --seqlen 131072 --N 256" "--config R1 --seqlen 32768" "--config R1 --seqlen 8192" |
  variant_against s50vec out/dev/s50vec out/dev/s50main
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --z" \
  "--config R4 --seqlen 131072 --A-scale 0.25" "--config R1 --seqlen 32768" |
  variant_against s50range out/dev/s50range out/dev/s50main
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --z" \
  "--config R1 --seqlen 32768" |
  variant_against s50vr out/dev/s50vr out/dev/s50main
# SKIP_CHUNK=1: the three variants only (~4 min), where the budget left is short.
[ "${SKIP_CHUNK:-0}" = 1 ] || bash bench/results/logs/2026-12-05-s50-chunk.sh
