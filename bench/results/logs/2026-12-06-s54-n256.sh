#!/usr/bin/env bash
# Session 54, call 7: the warpgroup broadcast at N = 256 only (branch s54-n256-uniform, patch
# 2026-12-06-s54-patches/n256_uniform.patch, staged s54n256; its N = 256 kernels' SASS is s54wg's,
# verified in call 4, every other kernel's is main's) against main (s53main), 5 rounds: the N = 256
# rows in bf16 and fp16 (fp16 N = 256 was not timed in call 5), a split N = 256 row, and a bf16
# N = 128 row as the control (identical SASS); then its GPU suites.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s54-n256.sh   (carry out/carry)
set -u
for n in s53main s54n256; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
printf "%s\n" "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 8192 --N 256 --z" \
  "--config R1 --seqlen 8192 --N 256 --dtype fp16" "--config R1 --seqlen 8192 --N 256 --dtype fp16 --z" \
  "--config R1 --seqlen 512 --N 256" "--config R1 --seqlen 32768 --N 256" "--config R1 --seqlen 8192" |
  timeout 200 bash scripts/api_ab.sh --rounds 5 --lib "main=out/dev/s53main" --lib "n256=out/dev/s54n256" > "$OUT/api_ab_n256.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_n256.log"
. scripts/device_variant.sh
VARIANT_SCHEMES="state fixup"
variant_suites n256 out/dev/s54n256  # (with the Hopper suite, as the call ran it by hand)
variant_pack n256
echo "all done at ${SECONDS} s"
