#!/usr/bin/env bash
# Session 53, call 5 (~300 s; the A/B before the ncu; carry out/carry): branch s53-scan-vec4 (patch
# 2026-12-06-s53-patches/scan-vec4.patch, staged s53vec4): the split boundary scan with a float4
# of a row per thread, so its grid is a quarter of main's (1024 blocks at R1 32k: under one wave)
# and the launch of the scheme not taken costs less (call 2 read it 6.8-7.7 us at R1 32k and
# 4.4-5.1 at R4 128k under ncu; the working launch 10.5-11.7 and 8.9-15.6). Only that kernel's
# SASS differs from main (sass_diff: 1 different). Then the API A/B of main, s53vec4 and
# s52min128 (kFixupMinStateSteps 128) on the H200 at R1 32k with the decays slowed.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s53-vec4.sh   (carry out/carry)
set -u
for n in s52main s53vec4 s52min128; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
M=out/dev/s52main V=out/dev/s53vec4 K=out/dev/s52min128
VARIANT_SCHEMES="state fixup" variant_suites vec4 $V
VARIANT_SCHEMES="state fixup" variant_sanitize vec4 $V memcheck racecheck
variant_pack vec4_checks
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.7" \
  "--config R1 --seqlen 32768 --A-scale 0.5" "--config R1 --seqlen 32768 --A-scale 0.35" "--config R4 --seqlen 131072" |
  timeout 200 bash scripts/api_ab.sh --rounds 2 --lib "main=$M" --lib "vec4=$V" --lib "min128=$K" > "$OUT/api_ab_vec4.log" 2>&1
echo "api_ab rc=$?"; tail -9 "$OUT/api_ab_vec4.log"
variant_pack vec4_ab
# (Run as the same loop inline, commit 9da8568; variant_ncu now takes VARIANT_SCHEMES.)
for lib in "main:$M" "vec4:$V"; do
  VARIANT_SCHEMES="state fixup" variant_ncu "${lib%%:*}" "${lib#*:}" split_boundary_scan \
    "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"
done
variant_pack vec4_ncu
