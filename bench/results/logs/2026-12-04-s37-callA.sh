#!/usr/bin/env bash
# Session 37 call A: session 36's prepared call (2026-12-04-s36-next-not-run.sh: R4's and R1
# 32k's main pass alone, --main-splits, head = 76f3be1's kernels against os3 = the third
# stage, 6cfa101), plus each plan's state pass alone (os3 only; the change does not touch it).
# Build as that script says; carry out/ab43.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--batch 1 --seqlen 131072 --main-splits 4 --final-states 0" \
  "--batch 1 --seqlen 524288 --main-splits 4 --final-states 0" \
  "--batch 2 --seqlen 32768 --main-splits 2 --final-states 0" \
  "--batch 2 --seqlen 32768 --main-splits 2 --final-states 0 --z 1" "--final-states 0" \
  "--batch 4 --seqlen 16384 --final-states 0" \
  "--batch 1 --seqlen 131072 --state-pass 4 --final-states 0 | os3" \
  "--batch 1 --seqlen 524288 --state-pass 4 --final-states 0 | os3" \
  "--batch 2 --seqlen 32768 --state-pass 2 --final-states 0 | os3" \
  | bash scripts/probe_ab.sh --dir out/ab43 --rounds 3 --variants "head os3" > $O/ab.log 2>&1
tail -8 $O/ab.log
for a in "--batch 1 --seqlen 131072 --state-pass 4" "--batch 2 --seqlen 32768 --state-pass 2" "--batch 1 --seqlen 131072 --main-splits 4"; do
  out/ab43/os3_probe --softplus 1 --iters 20 --final-states 0 $a 2>&1 | tail -2 >> $O/plans.log
done
