#!/bin/bash
# Session 16 call 3: probe A/B (R1 8k unless noted, --softplus 1, two rounds) against main's
# kernels (base2, acaaed3): st3 (the main pass's stages sized per gate: 3 where they fit, i.e.
# N = 64 without z, whose stage no longer holds an unused z tile), pad2 (a pad row after each
# diagonal block, on acaaed3).
A=out/ab
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
$A/st3_probe --N 64 --iters 2 2>&1 >/dev/null | head -2
runp() { local v=$1; shift; local r; r=$(timeout 40 $A/${v}_probe --softplus 1 --iters 50 "$@" 2>/dev/null | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])"); echo "round=$round $v [$*] $r"; }
for round in 1 2; do
  while read -r cfg; do
    vs="base2 pad2"
    case "$cfg" in *"--N 64"*) vs="$vs st3";; esac
    for v in $vs; do runp $v $cfg; done
  done <<'CFGS'
--N 128
--N 128 --z 1
--N 64
--N 64 --z 1
--N 64 --P 128 --H 32
--N 64 --packed 4
--N 64 --seqlen 512 --batch 128
--N 256
--N 256 --z 1
--N 128 --packed 4
--N 128 --z 1 --packed 4
CFGS
done
