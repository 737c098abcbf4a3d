#!/usr/bin/env bash
# NOT RUN in session 51 (no device machine could be started: 21 tries). The fix-up's work-list
# chunk: kChunkTiles 4 on main against 1 and 2 (staged s51ck1 / s51ck2: split_fixup.cu's constant
# edited, built, scripts/stage_device_build.sh; packed: scripts/carry.sh pack s51ck dev/s51ck1
# dev/s51ck2; 2026-12-05-s51-next-prepare.sh makes them). Since 64bd228 a CTA takes a contiguous
# run of the list's entries and loads h_in once per window it enters, so the chunk no longer
# amortizes h_in: it only sets the grain of the balance. 2026-12-05-s51-chunk_model.log (the
# window model): the longest CTA's tiles against the mean, chunk 4 -> 1: R4 128k x1.25 -> x1.02,
# A x 0.5 x1.10 -> x1.01, R1 32k A x 0.7 x1.25 -> x1.06 (R1 32k A x 1 x1.07 either way).
# A review of ck1 (a helper, reading and a host simulation of the list: no fault) noted that at
# chunk 1 each tile also starts an entry's chain (the entry's load, a 64-bit division, A and
# dt_bias): s51ck1p (patch ck1p.patch) loads the next entry during this one's tiles, divides in
# 32 bits and loads A / dt_bias once per window. ck1p gets the whole check for a merge
# (variant_against: suites default / fix-up forced at 3 splits, memcheck, racecheck, ncu of the
# fix-up, API A/B); ck1 and ck2 the suites and the ncu.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s51-next-chunk.sh   (carry out/carry)
set -u
for n in s51main s51ck; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
M=out/dev/s51main
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --z" \
  "--config R4 --seqlen 131072 --A-scale 0.5" "--config R1 --seqlen 32768" |
  variant_against ck1p out/dev/s51ck1p $M
for v in ck1 ck2; do
  variant_suites $v out/dev/s51$v
  variant_ncu $v out/dev/s51$v split_fixup "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072" \
    "R4_128k_z --config R4 --seqlen 131072 --z"
  variant_pack $v
done
