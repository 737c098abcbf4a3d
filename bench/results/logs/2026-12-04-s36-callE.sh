#!/usr/bin/env bash
# Session 36, device call E: a third pipeline stage for the ungated bf16 N = 128 main pass
# (every R1 row, R2, R4's main pass), never possible before (2 x 86 KB stages + 48 KB of
# consumer buffers). os: one output buffer per consumer (K::kOneOutputBuffer), which an exact
# tile's S' shares; the factored tiles read no S', and thread 0 waits for the previous y's
# store before the turn's barrier; 3 stages fit (228 352 bytes). os2: the same with 2 stages
# (the single buffer's cost alone). Probe, 3 rounds, against head (HEAD's kernels). The z rows
# are the control (their kernel is unchanged). Carry out/ab42.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" "--batch 4 --seqlen 16384 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--final-states 0 --packed 4" \
  "--final-states 0 --a-scale 4" "--final-states 0 --a-scale 8" "--final-states 0 --z 1" \
  | bash scripts/probe_ab.sh --dir out/ab42 --rounds 3 --variants "head os os2" > $O/ab.log 2>&1
tail -9 $O/ab.log
