#!/bin/bash
# Session 13 call 11: the block decays read before the chain in the producer pair form (p9, probe only) against HEAD (hdsp), with the API's dt.
for round in 1 2 3; do
for args in "--N 128 --softplus 1" "--N 128 --z 1 --softplus 1" "--N 128 --seqlen 512 --batch 128 --softplus 1" "--N 64 --P 128 --H 32 --softplus 1" "--N 128"; do
  for v in hdsp p9sp; do
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done
