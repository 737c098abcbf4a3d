#!/usr/bin/env bash
# Session 35, device call 4: the last wave's cost (wave quantization). R1 is 32768 tile-steps of
# a CTA (2 heads x 64 tokens) on 132 SMs, 248.2 per SM, but its items (batch x head pairs, a
# whole sequence each, no splits below 32k) give every SM a whole number of items: 256
# tile-steps on the busiest, +3.1% at every seqlen. The probe (HEAD's kernels, 3 rounds) at work
# sizes that fill the last wave exactly (batch 132 x 512 tokens: 4224 items, 32 per SM; H = 66 at
# 8k: 264 items, 2 per SM) or leave it as empty as R1 does (batch 124, H = 62): if the makespan
# is the busiest SM's items, 128 and 132 (64 and 66) read alike and 124 (62) 1/32 (1/2 x 1/32..)
# less. Carry out/ab35.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--batch 124 --seqlen 512 --final-states 0" "--batch 128 --seqlen 512 --final-states 0" "--batch 132 --seqlen 512 --final-states 0" \
  "--H 62 --final-states 0" "--final-states 0" "--H 66 --final-states 0" "--final-states 0 --z 1" "--H 66 --final-states 0 --z 1" \
  | bash scripts/probe_ab.sh --dir out/ab35 --rounds 3 --variants "head" > $O/ab.log 2>&1
tail -10 $O/ab.log
