#!/bin/bash
# Session 14 call 6: is it when the producer works, not how much? Probe (R1 8k, N = 128, API's dt)
# of the final code's plain loop (b*: diagonal rows after the token factors) and of call 2's
# slower layout (c*: columns between the barriers), each with the producer's decay work delayed
# by __nanosleep(0 / 300 / 800) after the stage's TMA issue (timing only).
O=$OUT
for round in 1 2 3; do
for args in "--N 128 --softplus 1" "--N 128"; do
  for v in b0 b300 b800 c0 c300 c800; do
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done 2>&1 | tee $O/probe.log
