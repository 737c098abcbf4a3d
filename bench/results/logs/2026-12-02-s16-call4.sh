#!/bin/bash
# Session 16 call 4 (9fbb8cb): the producer's pair form synchronised per warp / per head with
# the block decays hoisted everywhere, 3 main-pass stages at N = 64 without z: the GPU suites
# (and with 3 splits, under racecheck too: the state pass runs the same pair form), an API A/B
# against main's library (7960b1c, out/ab/baselib; two rounds), then the GPU pytest file.
B=out/dev/build-gpu; M=out/ab/baselib; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -3
FLASHSSD_NUM_SPLITS=3 timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_splits3.log 2>&1; echo "gpu_tests (3 splits) rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_splits3.log | tail -3
timeout 60 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90_tests.log | tail -3
FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/racecheck_splits3.log 2>&1; echo "racecheck (3 splits) rc=$?"; grep "RACECHECK SUMMARY" $O/racecheck_splits3.log
unset LD_LIBRARY_PATH
for round in 1 2; do
  for args in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R3 --seqlen 2048" "--config R4 --seqlen 131072" "--config R1 --seqlen 512"; do
    r=$(LD_LIBRARY_PATH=$PWD/$M timeout 60 $M/flashssd_bench $args 2>&1 | tail -1 | grep -o "median [0-9.]* ms"); echo "round=$round | $args | main | $r"
    r=$(LD_LIBRARY_PATH=$PWD/$B timeout 60 $B/bench/flashssd_bench $args 2>&1 | tail -1 | grep -o "median [0-9.]* ms"); echo "round=$round | $args | new | $r"
  done
done 2>&1 | tee $O/api_ab.log
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 380 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -25 $O/pytest_gpu.log
