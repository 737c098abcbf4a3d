#!/bin/bash
# Session 13 call 4: is the producer on the critical path once dt has its bias and softplus (as in
# the API)? Probe of b26c799 and of HEAD, each with and without --softplus 1; p1 = softplus with
# __expf, p2 = 56 producer registers (probe only, HEAD + the change).
for round in 1 2; do
for args in "--N 128" "--N 128 --softplus 1" "--N 128 --z 1 --softplus 1" "--N 128 --seqlen 512 --batch 128 --softplus 1" "--N 64 --P 128 --H 32 --softplus 1"; do
  for v in b26sp newsp p1sp p2sp; do
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done
