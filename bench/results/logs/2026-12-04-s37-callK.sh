#!/usr/bin/env bash
# Session 37 call K, 3 rounds against head: the consumer's y-store duties (the store, its waits)
# moved off warp 0, whose SM sub-partition also holds the producer's TMA-issuing warp:
#   w3: thread 96 (warp 3) of each consumer;  wa: thread 32 of consumer 0, 96 of consumer 1
#   (-wa.diff; w3 the same with tid == 96 for both). Carry out/ab44.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--packed 4 --final-states 0" "--a-scale 8 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  "--z 1 --final-states 0" "--batch 128 --seqlen 512 --z 1 --final-states 0" \
  "--N 256 --final-states 0" "--N 64 --H 32 --P 128 --batch 32 --seqlen 2048 --final-states 0" \
  "--N 64 --H 32 --P 128 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab44 --rounds 3 --variants "head w3 wa" > $O/ab.log 2>&1
tail -11 $O/ab.log
