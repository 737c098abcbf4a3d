#!/bin/bash
# Session 19 call 2: (a) one consumer per CTA at N = 128 (SsdFwdSm90<64, 128, 1>, the probe
# only; timing, not a shipped configuration) against the two-consumer kernel: how much of a
# step the two consumers' chains share; (b) the GPU pytest file on HEAD's library (669b16a).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" "--N 128 --z 1" "--N 128 --softplus 0" \
  | timeout 150 bash scripts/probe_ab.sh --rounds 2 --variants "base one" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
B=out/dev/build-gpu
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json \
  timeout 430 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -25 $O/pytest_gpu.log
