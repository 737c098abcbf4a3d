#!/usr/bin/env bash
# Session 38 call E: probe A/B of head, zr (the z ring started before the readout factors) and
# zx (zr, and x's reload for D x issued before the readout factors too). Carry out/ab45.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--z 1 --final-states 0" "--batch 128 --seqlen 512 --z 1 --final-states 0" \
  "--batch 64 --seqlen 1024 --z 1 --final-states 0" "--packed 4 --z 1 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" "--packed 4 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--a-scale 4 --z 1 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab45 --rounds 3 --variants "head zr zx" > $O/ab.log 2>&1
tail -11 $O/ab.log
