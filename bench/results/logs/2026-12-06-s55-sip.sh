#!/usr/bin/env bash
# Session 55, after call 7: the short item prologue alone at N = 256 (s55sip, patch
# 2026-12-06-s55-patches/n256_sip.patch; bf16 and fp16 N = 256 main and state passes, every other
# kernel's SASS main's). Call 7 read the fold at N = 256 a wash (+0.3% 8k, +0.9% 32k, -1.3% 512 z)
# and fold + prologue (fsip) -3.2% / -3.4% at 512 / 512 z but +0.6% / +0.8% at 8k / 32k; the fp16
# rows (no fold) read the prologue alone +0.3% at 8k and -1.9% at 512 z. API A/B against main
# (s54main), 5 rounds, then s55sip's suites (the state scheme forced at 3 splits: the state
# pass changed) and sanitizers.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s55-sip.sh   (carry out/carry)
set -u
for n in s54main s55sip; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
printf "%s\n" "--config R1 --seqlen 512 --N 256" "--config R1 --seqlen 512 --N 256 --z" \
  "--config R1 --seqlen 2048 --N 256" "--config R1 --seqlen 2048 --N 256 --z" \
  "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 8192 --N 256 --z" "--config R1 --seqlen 32768 --N 256" \
  "--config R1 --seqlen 512 --N 256 --dtype fp16" "--config R1 --seqlen 8192 --N 256 --dtype fp16" "--config R1 --seqlen 8192" |
  timeout 150 bash scripts/api_ab.sh --rounds 5 --lib "main=out/dev/s54main" --lib "sip=out/dev/s55sip" > "$OUT/api_ab_sip.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_sip.log"
. scripts/device_variant.sh
VARIANT_SCHEMES="state"
variant_suites sip out/dev/s55sip
variant_sanitize sip out/dev/s55sip memcheck racecheck
variant_pack sip
echo "all done at ${SECONDS} s"
