#!/usr/bin/env bash
# Session 37 call F, 3 rounds against head (HEAD's kernels, out/ab43/os3_probe copied):
#   su: the ungated one-buffer kernel stores each tile's y at the tile's end (zb2's store
#       without the z load; -su.diff), the next tile's thread 0 waits for its read as before.
#   tb: the z kernel's silu on bf16 pairs, tanh.approx.bf16x2 (one MUFU op per two elements
#       where tanh.approx.f32 takes one per element; -tb.diff).
#   nz: y = v z without silu (wrong maths: how much silu's MUFU work costs at most).
# Build: scripts/build_probe.sh /tmp/v_<name> out/ab44/<name>_probe. Carry out/ab44.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0 | head su" "--batch 128 --seqlen 512 --final-states 0 | head su" \
  "--packed 4 --final-states 0 | head su" "--a-scale 8 --final-states 0 | head su" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0 | head su" \
  "--z 1 --final-states 0 | head tb nz" "--batch 128 --seqlen 512 --z 1 --final-states 0 | head tb nz" \
  "--batch 32 --seqlen 2048 --z 1 --final-states 0 | head tb nz" "--packed 4 --z 1 --final-states 0 | head tb nz" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0 | head tb nz" \
  "--N 64 --H 32 --P 128 --batch 32 --seqlen 2048 --z 1 --final-states 0 | head tb nz" \
  | bash scripts/probe_ab.sh --dir out/ab44 --rounds 3 --variants "head" > $O/ab.log 2>&1
tail -12 $O/ab.log
