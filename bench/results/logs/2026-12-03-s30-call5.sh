#!/usr/bin/env bash
# Session 30, call 5: a P = 128 pair's decay (one head in both slots) by the pair form's first
# half (threads 0-63, the pair form's warp-level syncs; threads 64-127 idle) instead of computed
# twice (ungated kernels) or by the one-head roles form with two whole-warpgroup syncs (the
# N = 64 z kernel). Why: call 1's skp (producer decay skipped) took 5.6% off R3's shape, 3.1% off
# R3 z's. Variants (`-call5-hp.diff`, HP_MODE, probe builds with -Xptxas -v):
#   head = HEAD;  hp1 = the N = 64 z kernel only;  hp2 = + the ungated N = 64 kernel;
#   hp3 = every main pass (P = 128 at N = 128 too).
# hp1-3's N = 64 z kernel spills 16 bytes (8-byte stack frame): timing only.
# Carry: out/ab30.
set -uo pipefail
OUT=${OUT:-/tmp/s30c5}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 | head hp1 hp2 hp3" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1 | head hp1" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 | head hp2" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 --z 1 | head hp1" \
  "--P 128 --N 128 --H 32 --batch 32 --seqlen 2048 --final-states 0 | head hp3" \
  "--P 128 --N 128 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1 | head hp3" \
  "--final-states 0 | head hp3" |
  bash scripts/probe_ab.sh --dir out/ab30 --rounds 5 --variants "head hp1 hp2 hp3" > "$OUT/probe_ab.log" 2>&1
tail -8 "$OUT/probe_ab.log"
