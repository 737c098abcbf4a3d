#!/usr/bin/env bash
# Session 36 calls A (record on HEAD 76f3be1) and B (GPU pytest on it); prepared in session 35.
# Build and stage HEAD's library first (README "Build"; scripts/stage_device_build.sh build-gpu
# build-gpu; git rev-parse --short=12 HEAD > out/dev/build-gpu/COMMIT). Carry out/dev/build-gpu
# and third_party_bench.
#
# Call A (~5 min): the benchmark of record on HEAD, whose kernels have the short item prologue
#   (910692b, K::kShortItemPrologue), not yet in a record. Probe against is (session 35 calls
#   6-7): 512 tokens -2.3/-2.4%, 1k -1.2%, 512 z -2.5/-2.6%, R3 z -3.0/-3.4%; R1 8k +0.3..0.6%,
#   16k +1.1%, packed +0.7..1.0%. The record should show the 512 / 1k rows and R3 z faster, and
#   8k / 16k within their spread.
# Call B (~6.5 min): the GPU pytest in full on HEAD's library (with the 14 mamba_ssm
#   comparisons; session 35 ran it on 134fbc3, not on 910692b).
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu
case ${PART:-A} in
  A) FLASHSSD_COMMIT=$(cat $B/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh $B
     ls $O/bench ;;
  B) export LD_LIBRARY_PATH=$PWD/$B
     PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 440 \
       python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
     echo "pytest rc=$?"; tail -5 $O/pytest_gpu.log ;;
esac
