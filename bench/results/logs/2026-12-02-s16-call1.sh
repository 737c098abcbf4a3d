#!/bin/bash
# Session 16 call 1: probe A/B (R1 8k unless noted, API's dt: --softplus 1, two rounds) of
# variants of main's kernels (7960b1c): pad (a pad row after each diagonal block), f4 (the
# producer's a and block totals read as float4), hoist64 (N = 64 hoists the block decays),
# pp64z (the N = 64 z kernel takes turns), flags (every kernel prefetches the reset flags).
A=out/ab
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
runp() { local v=$1; shift; local r; r=$(timeout 40 $A/${v}_probe --softplus 1 --iters 50 "$@" | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])"); echo "round=$round $v [$*] $r"; }
for round in 1 2; do
  while read -r cfg; do
    vs="base pad f4"
    case "$cfg" in *"--N 64"*) vs="$vs hoist64";; esac
    case "$cfg" in *"--N 64 --z 1"*) vs="$vs pp64z";; esac
    case "$cfg" in *packed*) vs="$vs flags";; esac
    for v in $vs; do runp $v $cfg; done
  done <<'CFGS'
--N 128
--N 128 --z 1
--N 64
--N 64 --z 1
--N 256
--N 256 --z 1
--N 128 --packed 4
--N 64 --packed 4
--N 128 --z 1 --packed 4
--N 256 --packed 4
--N 128 --seqlen 512 --batch 128
CFGS
done
