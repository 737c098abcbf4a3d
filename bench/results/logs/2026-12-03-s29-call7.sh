#!/usr/bin/env bash
# Session 29, call 7 (the last ~260 s of device time): a reduced first look at
# `2026-12-03-s29-call7-ss128-full.sh` (S inside the N = 128 main pass; ss128s3 with a third
# stage): the API A/B first, 2 rounds, then the API GPU suite on ss128s3 as far as time allows.
# Carry: out/ab_next.
set -uo pipefail
OUT=${OUT:-/tmp/s29c7}; mkdir -p "$OUT"
printf "%s\n" "--config R1 --batch 8 --seqlen 8192" "--config R1 --batch 128 --seqlen 512" \
  "--config R1 --batch 8 --seqlen 8192 --z" "--config R2" "--config R4 --batch 1 --seqlen 131072" |
  bash scripts/api_ab.sh --rounds 2 --lib base=out/ab_next/baselib --lib ss128=out/ab_next/ss128lib \
    --lib ss128s3=out/ab_next/ss128s3lib > "$OUT/api_ab.log" 2>&1
tail -6 "$OUT/api_ab.log"
LD_LIBRARY_PATH=$PWD/out/ab_next/ss128s3lib timeout 100 out/ab_next/flashssd_gpu_tests > "$OUT/gpu_tests_ss128s3.log" 2>&1
echo "ss128s3 gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" "$OUT/gpu_tests_ss128s3.log" | head -8
