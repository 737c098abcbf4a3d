#!/usr/bin/env bash
# Session 49, not run (the device budget spent): branch s49-fixup-stage 5e6fa8512d44 (the
# fix-up's second slice of y and z by cp.async with the tile's C, so that a P = 64 tile waits on
# DRAM once, not twice; 96 registers, no local memory; 8 KB more shared memory a CTA: five CTAs
# still fit at P = 64, N = 128, N = 256 drops from three to two) staged as out/dev/s49fs,
# against main's b41245461d90 (out/dev/s50main). ~3.5 min:
#   1. s49fs: GPU suite (default; fix-up forced at 3 splits), memcheck and racecheck of the small
#      shapes at 3 splits with the fix-up forced (the stage is per thread: no barrier orders it);
#   2. ncu durations of the fix-up (forced; R1 32k, R4 128k) of both;
#   3. API A/B: main, s49fs, both with the fix-up forced.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s49-next-fixup-stage-not-run.sh   (carry out/carry)
set -u
for n in s50main s49fs; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
M=out/dev/s50main N=out/dev/s49fs
variant_suites s49fs $N
variant_sanitize s49fs $N memcheck racecheck
variant_pack checks
for lib in main:$M s49fs:$N; do
  variant_ncu "${lib%%:*}" "${lib#*:}" split_fixup "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"
done
variant_pack ncu
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" |
  timeout 150 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib s49fs=$N \
    --lib main_forced=$M,FLASHSSD_SPLIT_SCHEME=fixup --lib s49fs_forced=$N,FLASHSSD_SPLIT_SCHEME=fixup > "$OUT/api_ab.log" 2>&1
echo "api_ab rc=$?"; tail -6 "$OUT/api_ab.log"
variant_pack ab
