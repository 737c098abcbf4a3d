#!/usr/bin/env bash
# Session 54: the warpgroup index broadcast by __shfl_sync (patch 2026-12-06-s54-patches/uniform_wg.patch,
# staged s54wg) against main (s53main = 0da223a). ptxas then keeps the consumers' shared-memory
# descriptors in uniform registers: bf16 N = 128 tile loop 1347 -> 1221 instructions (R2UR -76).
#   1. API A/B (2 rounds), 2. the GPU suites (default, state / fix-up at 3 splits; Hopper suite),
#   3. memcheck / racecheck on small shapes (each scheme), logs packed as each stage ends.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s54-wg.sh   (carry out/carry)
set -u
for n in s53main s54wg; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" \
  "--config R1 --seqlen 32768" "--config R2 --seqlen 2048" "--config R3 --seqlen 2048 --z" "--config R4 --seqlen 131072" \
  "--config R1 --seqlen 8192 --N 256" |
  timeout 240 bash scripts/api_ab.sh --rounds 2 --lib "main=out/dev/s53main" --lib "wg=out/dev/s54wg" > "$OUT/api_ab_wg.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; tail -10 "$OUT/api_ab_wg.log"
. scripts/device_variant.sh
VARIANT_SCHEMES="state fixup"
variant_suites wg out/dev/s54wg  # (with the Hopper suite: the helpers took in, after this call, what it ran by hand)
variant_pack wg_suites
echo "suites done at ${SECONDS} s"
variant_sanitize wg out/dev/s54wg memcheck racecheck
variant_pack wg_sanitize
echo "all done at ${SECONDS} s"
