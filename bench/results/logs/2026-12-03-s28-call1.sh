#!/usr/bin/env bash
# Session 28 call 1 (device). Probe A/B (3 rounds), then checks and an API A/B of the new library.
#   head  = HEAD's kernels (609e49d = fbc959c's, session 27's head_probe)
#   pp    = the N = 64 z kernel with the consumers' ping-pong turns (session 27 call 7, not run then)
#   ppbal = pp and S's balanced rows in the z kernel (session 27's -call7-ppbal-not-run.diff)
#   oneh  = this session's change: a P = 128 pair (one head's two slices) has its decay factors
#           prepared once by the producer (one-head form over the warpgroup), both consumers
#           reading slot 0's record (ptxas -v: no spill, no C75xx)
# Ungated configurations: pp / ppbal equal head there (their change is the z kernel's), so not run.
# Checks: PART=checks scripts/device_session.sh on the oneh library (out/dev/build-gpu).
# API A/B: base = fbc959c's library (out/dev/base), new = oneh's (out/dev/build-gpu).
# Carry: out/ab out/dev/build-gpu out/dev/base.
set -uo pipefail
OUT=${OUT:-/tmp/s28call1}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 | head oneh" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 | head oneh" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 --z 1" \
  "--N 64 --final-states 0 --z 1" \
  "--P 128 --H 32 --final-states 0 | head oneh" \
  "--final-states 0 | head oneh" \
  "--N 64 --final-states 0 | head oneh" |
  bash scripts/probe_ab.sh --rounds 3 --variants "head pp ppbal oneh" > "$OUT/probe_ab.log" 2>&1
tail -12 "$OUT/probe_ab.log"
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$OUT/checks bash scripts/device_session.sh out/dev/build-gpu 2>&1 | tail -20
printf "%s\n" \
  "--config R3" \
  "--config R3 --z" \
  "--config R3 --batch 128 --seqlen 512" \
  "--config R1 --batch 8 --seqlen 8192" |
  bash scripts/api_ab.sh --rounds 3 --lib base=out/dev/base --lib new=out/dev/build-gpu > "$OUT/api_ab.log" 2>&1
tail -6 "$OUT/api_ab.log"
