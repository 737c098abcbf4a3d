#!/bin/bash
# Session 14 call 3: the diagonal block by columns in the one-head form only (sm80 role 1,
# Hopper N = 256), the two-head form back to rows, and the packed-sequence producer loop
# without the hoisted decays: probe A/B (HEAD basefull / new; N = 128 only: colafter = the
# two-head form with the column form after the token factors, e2a = e2aae70), API A/B against
# HEAD (out/ab/hd), two rounds.
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
cp $B/bench/flashssd_sm90_forward_probe out/ab/new_probe
for round in 1 2; do
for args in "--N 128 --softplus 1" "--N 128 --packed 4 --softplus 1" "--N 128 --z 1 --softplus 1" "--N 128 --seqlen 512 --batch 128 --softplus 1" "--N 256 --softplus 1" "--N 256 --z 1 --softplus 1" "--N 64 --P 128 --H 32 --softplus 1" "--N 64 --P 128 --H 32 --packed 4 --softplus 1"; do
  for v in basefull new colafter e2a; do
    case "$args" in *"N 128"*) ;; *) case $v in colafter|e2a) continue;; esac;; esac
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512 --batch 128" "--config R2" "--config R3" "--config R4 --seqlen 131072"; do
  for v in hd new; do
    if [ $v = hd ]; then L=out/ab/hd; BIN=out/ab/hd/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    r=$(LD_LIBRARY_PATH=$PWD/$L timeout 30 $BIN $cfg --iters 40 2>&1 | tail -2 | tr '\n' ' ' | grep -o "median [0-9.]* ms\|err[^,]*" | tr '\n' ' ')
    echo "api $round | $cfg | $v | $r"
  done
done
done
