#!/bin/bash
# Session 14 call 5: the GPU pytest file on the final build (8741570).
B=out/dev/build-gpu; O=$OUT
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 500 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -30 $O/pytest_gpu.log
