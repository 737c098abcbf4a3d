#!/usr/bin/env bash
# Session 37 call L (rerun as call M with zp2: z two groups ahead, -zp2.diff), 3 rounds against head: zp, the gated epilogue reads z a group ahead
# (-zp.diff; ldmatrix and stmatrix are volatile asm, so each group's z load waited its whole
# latency: the call J stall table has short-scoreboard waits at z's unpacks). Carry out/ab44.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--z 1 --final-states 0" "--batch 128 --seqlen 512 --z 1 --final-states 0" \
  "--batch 32 --seqlen 2048 --z 1 --final-states 0" "--batch 4 --seqlen 16384 --z 1 --final-states 0" \
  "--packed 4 --z 1 --final-states 0" "--a-scale 8 --z 1 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  "--N 64 --H 32 --P 128 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  "--N 256 --z 1 --final-states 0" "--final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab44 --rounds 3 --variants "head zp zp2" > $O/ab.log 2>&1
tail -11 $O/ab.log
