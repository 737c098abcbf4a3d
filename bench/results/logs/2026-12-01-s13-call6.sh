#!/bin/bash
# Session 13 call 6: the producer synchronised per warp (a, dt) and per head (block totals)
# instead of over the warpgroup, alone (p7, probe only) against HEAD (newsp), with the API's dt.
for round in 1 2 3; do
for args in "--N 128 --softplus 1" "--N 128" "--N 128 --z 1 --softplus 1" "--N 128 --seqlen 512 --batch 128 --softplus 1" "--N 64 --P 128 --H 32 --softplus 1" "--N 128 --packed 4 --softplus 1"; do
  for v in newsp p7sp; do
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done
