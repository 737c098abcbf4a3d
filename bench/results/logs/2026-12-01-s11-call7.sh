#!/bin/bash
# Session 11 call 7: compare.py's timing of R1 rows (HEAD), then the GPU pytest file.
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
PYTHONPATH=$B/python:third_party_bench timeout 120 python3 out/ab/py_time.py 2>&1 | tail -30
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 430 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -5 $O/pytest_gpu.log
