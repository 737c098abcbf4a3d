#!/usr/bin/env bash
# Session 29, call 5: with the third stage in the N = 64 z kernel (HEAD 9f60805), do the variants
# session 28 rejected for that kernel when it had two stages pay now? Probe, 3 rounds; each
# variant is HEAD with one constexpr changed in src/kernels/sm90/ssd_fwd_sm90.cuh
# (`2026-12-03-s29-call5-<name>.diff`; built by scripts/build_probe.sh with -Xptxas -v: no spill):
#   head  = HEAD's kernels
#   pp    = kPingPong in every two-consumer main pass (the N = 64 z kernel takes the turns)
#   zbal  = kBalancedScores everywhere (the N = 64 z kernel: RS S, C in registers, the mask per warp)
#   ppbal = both
#   noneh = kOneHeadDecay off (the N = 64 z kernel prepares a P = 128 pair's decay twice again)
#   onehu = kOneHeadDecay in the ungated N = 64 kernel too
# Carry: out/ab.
set -uo pipefail
OUT=${OUT:-/tmp/s29c5}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1 | head pp zbal ppbal noneh" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 --z 1 | head pp zbal ppbal noneh" \
  "--N 64 --final-states 0 --z 1 | head pp zbal ppbal" \
  "--N 64 --final-states 0 --z 1 --packed 4 | head pp zbal ppbal" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 | head onehu" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 | head onehu" |
  bash scripts/probe_ab.sh --rounds 3 --variants "head pp zbal ppbal noneh onehu" > "$OUT/probe_ab.log" 2>&1
tail -8 "$OUT/probe_ab.log"
