#!/usr/bin/env bash
# Session 55: the N = 256 kernels' two register-bound exceptions retried now that session 54's
# warpgroup broadcast freed their descriptors' registers (ptxas: no spill in either, where
# each spilled 4-8 bytes before):
#   s55fold  (2026-12-06-s55-patches/n256_fold.patch): the state fold (kFoldFloor 2^-64) in the
#            bf16 N = 256 kernels (session 21 measured 0.796 -> 0.779 with its 8-byte spill);
#            two N = 256 cases added to the Hopper suite (every tile refolding; large states).
#   s55fsip  (n256_fold_sip.patch): the same plus the short item prologue at N = 256 (bf16 and
#            fp16; session 35 left N = 256 out for a 4-byte spill in its gated kernel).
# Every other kernel's SASS is main's (scripts/sass_diff.py). API A/B against main (s54main), 5
# rounds, the N = 256 rows and a bf16 N = 128 control; then both variants' suites (each scheme
# forced at 3 splits) and s55fsip's sanitizers.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s55-n256.sh   (carry out/carry)
set -u
for n in s54main s55fold s55fsip; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
printf "%s\n" "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 8192 --N 256 --z" \
  "--config R1 --seqlen 512 --N 256" "--config R1 --seqlen 512 --N 256 --z" "--config R1 --seqlen 32768 --N 256" \
  "--config R1 --seqlen 8192 --N 256 --dtype fp16" "--config R1 --seqlen 512 --N 256 --dtype fp16 --z" \
  "--config R1 --seqlen 8192" |
  timeout 200 bash scripts/api_ab.sh --rounds 5 --lib "main=out/dev/s54main" --lib "fold=out/dev/s55fold" \
    --lib "fsip=out/dev/s55fsip" > "$OUT/api_ab_n256.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_n256.log"
. scripts/device_variant.sh
VARIANT_SCHEMES="state fixup"
variant_suites fsip out/dev/s55fsip
variant_suites fold out/dev/s55fold
variant_pack suites
echo "suites done at ${SECONDS} s"
VARIANT_SCHEMES="state"
variant_sanitize fsip out/dev/s55fsip memcheck racecheck
variant_pack sanitize
echo "all done at ${SECONDS} s"
