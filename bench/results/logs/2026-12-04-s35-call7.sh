#!/usr/bin/env bash
# Session 35, device call 7 (timing only): which half of the short item prologue costs the long
# rows (call 6: fd2 R1 8k +0.6%, packed +1.0%; fdonly too). br = fd2 with the plain divisions
# back (only the branch around the incoming state's loads), against head (is), fd2 (the library
# since 910692b) and fdonly. Carry out/ab37.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--batch 128 --seqlen 512 --final-states 0" "--final-states 0" "--batch 4 --seqlen 16384 --final-states 0" \
  "--final-states 0 --packed 4" "--batch 128 --seqlen 512 --final-states 0 --z 1" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  | bash scripts/probe_ab.sh --dir out/ab37 --rounds 3 --variants "head fd2 fdonly br" > $O/ab.log 2>&1
tail -8 $O/ab.log
