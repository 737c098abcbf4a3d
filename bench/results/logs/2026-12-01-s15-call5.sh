#!/bin/bash
# Session 15 call 5: the diagonal blocks by columns in the producer's plain loop too (cols: the
# prepare_tiles_decay_pair flag true for every main-pass loop) against b9b70c2's kernel (bits:
# columns only in the packed loop), now that the dt prefetch waits at the round's end; probe
# R1 8k, API's dt, two rounds.
A=out/ab
for round in 1 2; do
  for N in 128 64; do for dtb in 0 1; do for z in 0 1; do for v in bits cols; do
    r=$(timeout 40 $A/${v}_probe --N $N --softplus 1 --iters 50 --z $z --dt-bf16 $dtb | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])")
    echo "round=$round N=$N dt_bf16=$dtb z=$z $v $r"
  done; done; done; done
  for v in bits cols; do
    r=$(timeout 40 $A/${v}_probe --N 256 --softplus 1 --iters 50 | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])"); echo "round=$round N=256 $v $r"
  done
done
