#!/bin/bash
# Session 24 call 3: the benchmark of record (scripts/device_session.sh PART=bench) and the GPU
# pytest file on the library call 2 checked and kept (out/dev/build-gpu, with its Python
# package; commit in out/dev/COMMIT). Carry out/dev, third_party_bench.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=bench OUT=$O/bench timeout 330 bash scripts/device_session.sh out/dev/build-gpu 2>&1 | tail -42
PYTHONPATH=out/dev/build-gpu/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json LD_LIBRARY_PATH=$PWD/out/dev/build-gpu \
  timeout 240 python3 -m pytest tests/python/test_gpu.py -q -rs -p no:cacheprovider -x > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -8 $O/pytest_gpu.log
