#!/bin/bash
# Session 15 call 2: A/B of the dt prefetch held as raw bits (16-bit dt converted when used)
# against main's kernel; probe R1 8k, API's dt (--softplus 1), fp32 and bf16 dt, two rounds.
A=out/ab
for round in 1 2; do
  for N in 128 64 256; do for dtb in 0 1; do for z in 0 1; do for v in base bits; do
    r=$(timeout 40 $A/${v}_probe --N $N --softplus 1 --iters 50 --z $z --dt-bf16 $dtb | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])")
    echo "round=$round N=$N dt_bf16=$dtb z=$z $v $r"
  done; done; done; done
  for v in base bits; do
    r=$(timeout 40 $A/${v}_probe --N 128 --softplus 1 --iters 50 --seqlen 512 --batch 128 | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])"); echo "round=$round T512 N=128 $v $r"
    r=$(timeout 40 $A/${v}_probe --N 128 --softplus 1 --iters 50 --packed 4 | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])"); echo "round=$round packed4 N=128 $v $r"
  done
done
