#!/bin/bash
# Session 11 call 9: the chunk scores in scaled fp16 (fp16 inputs' accuracy): GPU suites,
# sanitizers, A/B against 5498388 (prev), then the GPU pytest file.
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 120 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90 rc=$?"; grep -E "^chunk|^\[  PASSED|^\[  FAILED" $O/sm90_tests.log | tail -10
timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -5
FLASHSSD_NUM_SPLITS=3 timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_s3.log 2>&1; echo "gpu s3 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_s3.log | tail -5
timeout 120 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*:*ChunkScores*' > $O/sm90_memcheck.log 2>&1; echo "sm90 memcheck rc=$?"; grep "ERROR SUMMARY" $O/sm90_memcheck.log
timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*:*ChunkScores*' > $O/sm90_racecheck.log 2>&1; echo "sm90 racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/sm90_racecheck.log
timeout 70 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/memcheck.log 2>&1; echo "memcheck rc=$?"; grep "ERROR SUMMARY" $O/memcheck.log
FLASHSSD_NUM_SPLITS=3 timeout 90 compute-sanitizer --tool synccheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/synccheck.log 2>&1; echo "synccheck (3 splits) rc=$?"; grep "ERROR SUMMARY" $O/synccheck.log
cp $B/bench/flashssd_sm90_forward_probe out/ab/new_probe
cd out/ab
for round in 1 2; do
for args in "--N 128" "--N 128 --z 1" "--N 256 --batch 8"; do
  for v in prev new; do
    r=$(timeout 30 ./${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "round $round | $args | $v | $r"
  done
done
done
cd ../..
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R2" "--config R4 --seqlen 131072" "--config R1 --seqlen 8192 --dtype fp16"; do
  for v in prev new; do
    if [ $v = prev ]; then L=out/ab/prev; BIN=out/ab/prev/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    r=$(LD_LIBRARY_PATH=$PWD/$L timeout 60 $BIN $cfg --iters 40 2>&1 | tail -2 | tr '\n' ' ' | grep -o "median [0-9.]* ms\|err[^,]*" | tr '\n' ' ')
    echo "api | $cfg | $v | $r"
  done
done
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 400 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -4 $O/pytest_gpu.log
