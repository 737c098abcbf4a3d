#!/usr/bin/env bash
# Session 30, call 6: call 5's half-pair variants spilled (16-44 bytes: the producer's 48
# registers) and read 7-20% slower, even where nothing ran differently (P = 64 +18%). Here the
# pair form is compiled once and predicated (`-call6-hq.diff`), the producer given 56 registers
# (128 x (56 + 2 x 224) = 64 512 = the launch's 168 x 384): no spill in any kernel (-Xptxas -v).
#   head   = HEAD
#   r56    = HEAD with the producer at 56 registers (the control)
#   hq1r56 = + the ungated N = 64 kernel: a P = 128 pair's decay once, by threads 0-63 (pair form)
#   hq2r56 = + the N = 64 z kernel the same way (instead of the one-head roles form)
# Carry: out/ab30.
set -uo pipefail
OUT=${OUT:-/tmp/s30c6}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 | head r56 hq1r56" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 | head r56 hq1r56" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1 | head r56 hq2r56" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 --z 1 | head r56 hq2r56" \
  "--N 64 --final-states 0 | head r56 hq1r56" \
  "--N 64 --final-states 0 --z 1 | head r56 hq2r56" \
  "--final-states 0 | head r56" \
  "--final-states 0 --z 1 | head r56" |
  bash scripts/probe_ab.sh --dir out/ab30 --rounds 5 --variants "head r56 hq1r56 hq2r56" > "$OUT/probe_ab.log" 2>&1
tail -9 "$OUT/probe_ab.log"
