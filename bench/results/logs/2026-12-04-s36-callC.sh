#!/usr/bin/env bash
# Session 36, device call C: the record on HEAD (call A) read a median +3.0% over session 35's
# record on 134fbc3 (Triton +1.5%), with the z rows up to +7.7% (4k z) and packed z +9.2%.
# The kernels between them: the short item prologue (910692b). Probe A/B, 3 rounds, on the rows
# session 35's probe did not cover: is (134fbc3, out/ab36/head_probe) against fd2 (HEAD's
# kernels, out/ab36/fd2_probe) and fdzb (fd2 with the incoming state's predicated select back in
# the gated N = 128 kernel). Carry out/ab40.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--batch 16 --seqlen 4096 --final-states 0 --z 1" "--final-states 0 --z 1" \
  "--batch 4 --seqlen 16384 --final-states 0 --z 1" "--final-states 0 --packed 4 --z 1" \
  "--batch 64 --seqlen 1024 --final-states 0 --z 1" "--batch 4 --seqlen 16384 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--batch 128 --seqlen 512 --final-states 0 --z 1" \
  | bash scripts/probe_ab.sh --dir out/ab40 --rounds 3 --variants "is fd2 fdzb" > $O/ab.log 2>&1
tail -14 $O/ab.log
