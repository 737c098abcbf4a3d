#!/usr/bin/env bash
# Session 28 call 3 (device): a probe A/B for the N = 64 z kernel, then the checks and the
# benchmark of record on HEAD's library (out/dev/build-gpu, b266ae0: the mask per warp where S's
# rows are balanced, the one-head decay in the N = 64 z kernel).
#   mwarp3 = HEAD's kernels
#   zbal   = the N = 64 z kernel with S's balanced rows (C in registers) and so the mask per warp
#            (kBalancedScores = true; session 27 measured the balanced rows alone +0.8% there)
# Carry: out/ab out/dev/build-gpu third_party_bench.
set -uo pipefail
OUT=${OUT:-/tmp/s28call3}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 --z 1" \
  "--N 64 --final-states 0 --z 1" |
  bash scripts/probe_ab.sh --rounds 3 --variants "mwarp3 zbal" > "$OUT/probe_ab.log" 2>&1
tail -4 "$OUT/probe_ab.log"
C=$(cat out/dev/build-gpu/COMMIT)
FLASHSSD_COMMIT=$C PART=checks OUT=$OUT/checks bash scripts/device_session.sh out/dev/build-gpu 2>&1 | tail -16
FLASHSSD_COMMIT=$C PART=bench OUT=$OUT/bench bash scripts/device_session.sh out/dev/build-gpu 2>&1 | tail -45
