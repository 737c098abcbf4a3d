#!/usr/bin/env bash
# Session 72's prepared call 4 (for the next session; an H200: the question is the H200's; ~190 s,
# the checks ~200 s more). Session 72's H200 record of 719f9b9 (main: fm2 + d2 + d2u) read, against
# session 69's H200 record of the code before fm2 / d2 (another machine, another session), R3
# +8.1%, R1 512 z +6.0%, R1 32k z +15.7%, N = 256 +2.2%, yet R1 -1.9..-4.1% at most lengths and
# R4 128k -4.6%. d2 alone cost the SM's own rate +7.8% on the H100 (probe, 11 CTAs; session 71), and
# the H200 is held by that rate; R3 (N = 64, P = 128) has d2 without fm2.
#  1. the API, 3 rounds: s65path (main's code before ac56c5c: no fm2, no d2), s72main (719f9b9),
#     s72d2n128 (`2026-12-07-s72-d2n128-lib.patch`: dt two rounds ahead only in the ungated
#     N = 128 kernels; N = 64 back at one), s72gnofm2 (`2026-12-07-s72-gnofm2-lib.patch`: the
#     gated kernels without fm2, every tile's record with the mask's fields, as before ac56c5c),
#     s72both (both patches, `2026-12-07-s72-both-lib.patch`; every kernel byte-identical to
#     s65path's or s72main's: `2026-12-07-s72-both-sass.txt`);
#  2. the checks on s72both, whose kernels cover both changes (GPU suite default and fix-up at 3
#     splits, Hopper suite, memcheck and racecheck on small shapes), within the call's limit.
# Carry out/carry/{s65path,s72main,s72d2n128,s72gnofm2,s72both}.tar.xz.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s72-call4.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
for v in s65path s72main s72d2n128 s72gnofm2 s72both; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
printf "%s\n" "--config R3 --seqlen 2048" "--config R3 --seqlen 2048 --z" "--config R1 --seqlen 512" \
  "--config R1 --seqlen 8192" "--config R1 --seqlen 32768" "--config R1 --seqlen 512 --z" \
  "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 32768 --z" "--config R1 --N 256 --seqlen 8192" \
  "--config R2 --seqlen 2048" "--config R4 --seqlen 131072" \
  | timeout 200 bash scripts/api_ab.sh --rounds 3 --lib main69=out/dev/s65path --lib main=out/dev/s72main \
      --lib d2n128=out/dev/s72d2n128 --lib gnofm2=out/dev/s72gnofm2 \
      --lib both=out/dev/s72both > $OUT/api_ab.log 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/api_ab.log
F=out/dev/s72both
mkdir -p "$OUT/both"
OUT=$OUT/both timeout $((575 - SECONDS)) bash -c '. scripts/device_variant.sh; variant_quick_checks both "$0"' "$F"
echo "both checks rc=$? at ${SECONDS} s"
tar -czf "$OUT/both.tgz" -C "$OUT" both && rm -rf "$OUT/both"
echo "done at ${SECONDS} s"
