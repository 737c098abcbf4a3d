#!/usr/bin/env bash
# Session 37 call D: zb (z in the one output buffer, a third stage for the gated bf16 N = 128
# main pass) against head (HEAD 58c9101's kernels = call A's os3_probe), 3 rounds.
# Build here: mkdir -p out/ab44 && cp out/ab43/os3_probe out/ab44/head_probe &&
#   scripts/build_probe.sh out/ab44/zb_probe     (from the working tree with the change)
# Carry out/ab44.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--z 1 --final-states 0" "--batch 128 --seqlen 512 --z 1 --final-states 0" \
  "--batch 4 --seqlen 16384 --z 1 --final-states 0" "--batch 32 --seqlen 2048 --z 1 --final-states 0" \
  "--packed 4 --z 1 --final-states 0" "--a-scale 4 --z 1 --final-states 0" "--a-scale 8 --z 1 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  "--batch 2 --seqlen 32768 --main-splits 2 --z 1 --final-states 0" "--final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab44 --rounds 3 --variants "head zb" > $O/ab.log 2>&1
tail -11 $O/ab.log
