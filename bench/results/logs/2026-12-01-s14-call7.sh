#!/bin/bash
# Session 14 call 7: the column form's stores are 4-way bank conflicted in the two-head producer
# (a warp's four blocks are 256 B apart). p* = a pad row after each diagonal block in TileDecay
# (row i at i + i / 8: the four blocks' rows fall in different banks): p0 = the final code + pad,
# pc = call 2's layout (columns between the barriers) + pad; b0 / c0 as in call 6. Timing only.
O=$OUT
for round in 1 2 3; do
for args in "--N 128 --softplus 1" "--N 128" "--N 128 --packed 4 --softplus 1"; do
  for v in b0 c0 p0 pc; do
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done 2>&1 | tee $O/probe.log
