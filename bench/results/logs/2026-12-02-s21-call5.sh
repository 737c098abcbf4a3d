#!/bin/bash
# Session 21 call 5: the GPU pytest file (tests/python/test_gpu.py: the Python layer against the
# reference and mamba_ssm's Triton kernels) on the library of record (c8acd4c4960d, call 4's;
# out/dev/build-gpu, third_party_bench carried).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
B=out/dev/build-gpu
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json \
  timeout 500 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -25 $O/pytest_gpu.log
