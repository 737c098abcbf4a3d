#!/usr/bin/env bash
# Session 33's prepared calls for the next session (not run: no device time left). Build and
# stage HEAD's library first (README "Build"; scripts/stage_device_build.sh build-gpu build-gpu;
# git rev-parse --short=12 HEAD > out/dev/build-gpu/COMMIT). Carry out/dev/build-gpu and
# third_party_bench.
#   call A (PART=A, ~5.5 min): the benchmark of record on HEAD (the packed rows should read
#     ~7% faster than 7644e32's: the reset flag's load off the producer's path).
#   call B (PART=B, ~7 min): the GPU pytest file with the 14 mamba_ssm Triton comparisons (last
#     run in session 30; the kernels have changed since: the factored intra-tile term, its range).
set -u
O=${OUT:?}; mkdir -p $O
case ${PART:-A} in
  A) FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh out/dev/build-gpu
     ls $O/bench ;;
  B) PYTHONPATH=out/dev/build-gpu/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 520 \
       python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
     echo "pytest rc=$?"; tail -5 $O/pytest_gpu.log ;;
esac
