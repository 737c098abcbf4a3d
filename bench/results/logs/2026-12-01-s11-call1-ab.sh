#!/bin/bash
# A/B of the main kernel: base (db7d12c) vs chunk-scores pre-pass branch; interleaved.
cd "$(dirname "$0")"
for round in 1 2; do
for args in "--N 128" "--N 128 --z 1" "--N 64" "--N 64 --z 1" "--N 128 --batch 128 --seqlen 512" "--N 256 --batch 8" "--N 128 --P 128 --H 32" ; do
  for v in base new; do
    r=$(./${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "round $round | $args | $v | $r"
  done
done
done
