#!/bin/bash
# Session 16 call 2: probe A/B (R1 8k unless noted, --softplus 1, two rounds) against main's
# kernels (base, 7960b1c): hoist64 (every kernel hoists the block decays), pwb (the producer's
# pair form synchronised per warp for a / dt and per head, 64 threads, for the block totals,
# instead of the warpgroup barrier twice), pwbh (both).
A=out/ab
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
runp() { local v=$1; shift; local r; r=$(timeout 40 $A/${v}_probe --softplus 1 --iters 50 "$@" | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])"); echo "round=$round $v [$*] $r"; }
for round in 1 2; do
  while read -r cfg; do
    vs="base pwb pwbh"
    case "$cfg" in *"--N 64"*) vs="$vs hoist64";; esac
    for v in $vs; do runp $v $cfg; done
  done <<'CFGS'
--N 128
--N 128 --z 1
--N 64
--N 64 --z 1
--N 128 --packed 4
--N 64 --packed 4
--N 128 --z 1 --packed 4
--N 64 --z 1 --packed 4
--N 128 --seqlen 512 --batch 128
--N 128 --dt-bf16 1
--N 64 --P 128 --H 32
CFGS
done
