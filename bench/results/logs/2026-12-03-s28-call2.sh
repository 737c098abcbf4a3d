#!/usr/bin/env bash
# Session 28 call 2 (device). Probe A/B (3 rounds), then checks on the mwarp library and an API A/B.
#   oneh2  = HEAD 9aaeb67's kernels (the one-head decay in the N = 64 z kernel only)
#   mwarp  = the mask compiled per warp (with_warp_constant: the warp's row blocks constants)
#   mwarp2 = mwarp and the chunk scores' load per warp too (/tmp tree; `-call2-mwarp2.diff`)
# Checks: PART=checks scripts/device_session.sh on the mwarp library (out/dev/build-gpu).
# API A/B: base = fbc959c's library (out/dev/base: HEAD's kernels but the N = 64 z one), new = mwarp's.
# Carry: out/ab out/dev/build-gpu out/dev/base.
set -uo pipefail
OUT=${OUT:-/tmp/s28call2}; mkdir -p "$OUT"
printf "%s\n" \
  "--final-states 0" \
  "--batch 128 --seqlen 512 --final-states 0" \
  "--final-states 0 --z 1" \
  "--final-states 0 --packed 4" \
  "--N 64 --final-states 0" \
  "--N 64 --final-states 0 --z 1" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--N 256 --final-states 0" |
  bash scripts/probe_ab.sh --rounds 3 --variants "oneh2 mwarp mwarp2" > "$OUT/probe_ab.log" 2>&1
tail -10 "$OUT/probe_ab.log"
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$OUT/checks bash scripts/device_session.sh out/dev/build-gpu 2>&1 | tail -22
printf "%s\n" \
  "--config R1 --batch 8 --seqlen 8192" \
  "--config R1 --batch 128 --seqlen 512" \
  "--config R1 --batch 8 --seqlen 8192 --z" \
  "--config R3" \
  "--config R3 --z" |
  bash scripts/api_ab.sh --rounds 3 --lib base=out/dev/base --lib new=out/dev/build-gpu > "$OUT/api_ab.log" 2>&1
tail -7 "$OUT/api_ab.log"
