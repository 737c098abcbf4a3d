#!/usr/bin/env bash
# Session 61, call 4 (what ~340 s of device time can hold): the window search's loads issued
# together (s61wl = main + 2026-12-06-s61-window-loads.patch; SASS: only state_window_kernel differs
# from s61main's, 8 LDG issued together, no local memory). In order of value, so that a cut run
# still returns the first parts:
#   1. API A/B, 3 rounds, s61wl against s61main: R1 32k, z, A x 0.1 (whole-split windows), R1 8k
#      (one split: the control), R4 128k, A x 0.25;
#   2. ncu of the two window kernels (state scheme, R1 32k, R4 128k) on both;
#   3. the window search's tests: GPU suite with the window forced, state scheme at 3 splits.
# The whole pre-merge list (variant_checks, ~330 s on an H100) is for a later call.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s61-call4.sh   (carry out/carry)
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
. scripts/device_variant.sh
for n in s61main s61wl; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s61main F=out/dev/s61wl
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1" \
  "--config R1 --seqlen 8192" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.25" |
  timeout 90 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "wl=$F" > "$OUT/api_ab.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab.log"
for lib in "main:$M" "wl:$F"; do
  VARIANT_SCHEMES=state variant_ncu "${lib%%:*}" "${lib#*:}" "state_window|tile_log_decay" \
    "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"
done
echo "ncu at ${SECONDS} s"
variant_window_suite wl $F
echo "all done at ${SECONDS} s"
