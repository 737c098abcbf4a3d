#!/bin/bash
# Session 25 call 6: (a) SM clock and board power while each kind of work runs back to back
# (call 4 found R1 8k's main pass at the 700 W cap, ~1.8 GHz): the device copy (the floor's
# reference), the read-only stream, R4's state pass, the N = 64 main pass; out/ab/base_probe =
# HEAD's kernels. (b) The GPU pytest file on HEAD's library and Python module (out/dev, with
# python/; last run in session 21 at cd35dbf; the Python layer is unchanged since).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
sample() { for i in $(seq 10); do nvidia-smi --query-gpu=clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader; sleep 0.5; done; }
for args in "--copy-bw 1024 --iters 15000" "--read-bw 1024 --iters 30000" \
            "--N 128 --batch 1 --seqlen 131072 --state-pass 4 --softplus 1 --iters 25000" \
            "--N 64 --softplus 1 --iters 18000" "--N 128 --softplus 1 --iters 16000"; do
  sleep 2
  ( sleep 1.5; sample ) > $O/s.log 2>&1 &
  r=$(timeout 60 out/ab/base_probe $args 2>/dev/null | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'], d['min_ms'], d.get('achieved_TBps'))")
  wait
  echo "== $args: median/min ms, TB/s: $r"; cat $O/s.log
done | tee $O/clocks.log
PYTHONPATH=out/dev/build-gpu/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json LD_LIBRARY_PATH=$PWD/out/dev/build-gpu \
  timeout 400 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -5 $O/pytest_gpu.log
