#!/usr/bin/env bash
# Session 27 call 4 (device): the checks (device_session.sh PART=checks) on HEAD (kernels =
# 40f1555's: the N = 64 main pass with S's rows balanced; the new ungated P = 128 tests), and
# through the API base = 40f1555~'s library (out/dev/build-gpu-head) against HEAD's
# (out/dev/build-gpu), 3 rounds.
# Carry: out/dev/build-gpu, out/dev/build-gpu-head.
set -uo pipefail
OUT=${OUT:-/tmp/s27call4}; mkdir -p "$OUT"
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT="$OUT/checks" bash scripts/device_session.sh out/dev/build-gpu
printf "%s\n" "--config R3" "--config R3 --batch 128 --seqlen 512" "--config R1 --batch 8 --seqlen 8192 --N 64" "--config R3 --z" |
  bash scripts/api_ab.sh --rounds 3 --lib base=out/dev/build-gpu-head --lib new=out/dev/build-gpu > "$OUT/api_ab.log" 2>&1
tail -5 "$OUT/api_ab.log"
