#!/usr/bin/env bash
# Session 37 call G, 3 rounds against head (HEAD's kernels):
#   ac:  retire_all fences acc_s only without the chunk scores (N = 64, where the next tile's S
#        is in flight): in the N = 128 / 256 kernels the fence kept S's 32 registers alive
#        across the whole tile loop (-ac.diff).
#   fr3: ac + the factored tile issues X^T S'^T's factored GEMM first and h C^T right behind it,
#        the state decayed before its conversion, one wait for both (-fr2.diff + -ac.diff; fr and
#        fr2 alone: ptxas C7511, the WGMMAs serialised for registers).
# Build: scripts/build_probe.sh /tmp/v_<name> out/ab44/<name>_probe. Carry out/ab44.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--packed 4 --final-states 0" "--a-scale 4 --final-states 0" "--a-scale 8 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  "--z 1 --final-states 0" "--batch 128 --seqlen 512 --z 1 --final-states 0" \
  "--packed 4 --z 1 --final-states 0" "--a-scale 8 --z 1 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  "--N 256 --final-states 0" "--N 64 --H 32 --P 128 --batch 32 --seqlen 2048 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab44 --rounds 3 --variants "head ac fr3" > $O/ab.log 2>&1
tail -14 $O/ab.log
