#!/usr/bin/env bash
# Session 38 call H: bounds on three phases of the factored tile (each variant wrong in its y,
# timing only; diffs -callH-<name>.diff): nb, the tile's publish barrier dropped (what per-warp
# y stores could save: "barrier + y store" ~350 cycles of ~2940 in session 37's trace); ny, x's
# reload for D x skipped (~100 cycles); nr, the readout factors skipped (~310 cycles).
# head = HEAD's kernels (eb0afec). Carry out/ab46.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0" "--z 1 --final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--batch 128 --seqlen 512 --z 1 --final-states 0" "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab46 --rounds 3 --variants "head nb ny nr" > $O/ab.log 2>&1
tail -6 $O/ab.log
