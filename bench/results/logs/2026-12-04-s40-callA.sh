#!/usr/bin/env bash
# Session 40 call A: x (and z) asked of L2 ahead by TMA prefetches (cp.async.bulk.prefetch.tensor,
# producer thread 0, one per tile and head), so that a stage's TMA load finds them there. Timing
# and correctness unchanged (the prefetch writes nothing). Variants (FLASHSSD_L2_AHEAD = tiles
# ahead within the item; _GROUP also B and C; _NEXT also the next item's first tiles): head (0), pf1 (1),
# pf2 (2), pf2g (2 + B, C), pf2n (2, into the next item).
# Carry out/ab50.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0" "--z 1 --final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--batch 128 --seqlen 512 --z 1 --final-states 0" "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  "--batch 1 --seqlen 131072 --state-pass 4 --final-states 0" "--batch 2 --seqlen 32768 --state-pass 2 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab50 --rounds 3 --variants "head pf1 pf2 pf2g pf2n" > $O/ab.log 2>&1
tail -40 $O/ab.log
