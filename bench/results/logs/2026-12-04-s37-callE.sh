#!/usr/bin/env bash
# Session 37 call E: zb2 (zb with each tile storing its own y at its end, so that the next
# tile's z load finds the buffer read) and zd (zb2 without the z load: the epilogue reads the
# buffer as it is; a bound, its y wrong) against head, 3 rounds. Carry out/ab44.
# zd's tree: zb2's with the z_full wait and both load_z_into_buffer calls removed.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--z 1 --final-states 0" "--batch 128 --seqlen 512 --z 1 --final-states 0" \
  "--batch 32 --seqlen 2048 --z 1 --final-states 0" \
  "--packed 4 --z 1 --final-states 0" "--a-scale 8 --z 1 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab44 --rounds 3 --variants "head zb2 zd" > $O/ab.log 2>&1
tail -7 $O/ab.log
