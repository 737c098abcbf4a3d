#!/usr/bin/env bash
# Session 34, device call 2, on call 1's library: the Hopper suite with memcheck and racecheck on
# its small shapes (call 1 ran them, but their logs did not come back: only 8 files return per
# call), then the GPU pytest file with the 14 mamba_ssm Triton comparisons (last run in session
# 30). Carry: out/dev/build-gpu, third_party_bench.
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu; export LD_LIBRARY_PATH=$PWD/$B
{
  timeout 120 $B/tests/gpu/flashssd_sm90_gpu_tests; echo "sm90_tests rc=$?"
  timeout 120 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*'; echo "sm90 memcheck rc=$?"
  timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*'; echo "sm90 racecheck rc=$?"
} > $O/sm90_checks.log 2>&1
grep -E "^\[  PASSED|^\[  FAILED|SUMMARY|rc=" $O/sm90_checks.log
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 460 \
  python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -5 $O/pytest_gpu.log
