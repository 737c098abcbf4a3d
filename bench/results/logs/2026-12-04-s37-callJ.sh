#!/usr/bin/env bash
# Session 37 call J: ncu's SASS stall tables (scripts/ncu_stall_table.sh) of head's probe
# (HEAD 58c9101's kernels, out/ab44/head_probe), R1 8k and R1 8k z. Carry out/ab44.
set -u
O=${OUT:?}; mkdir -p $O
for v in "r18k" "r18kz --z 1"; do
  set -- $v; n=$1; shift
  bash scripts/ncu_stall_table.sh $n $O/st out/ab44/head_probe --softplus 1 --final-states 0 --iters 2 "$@" 2>&1 | tail -60
done
