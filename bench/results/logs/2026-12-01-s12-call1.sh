#!/bin/bash
# Session 12 call 1: the chunk-score pre-pass in slices of 32 (one wave at R1), the workspace
# pool created in relaxed capture mode; GPU suites, sanitizers, ncu of the pre-pass and API
# A/B against HEAD a547341's build (out/ab/old).
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 120 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90 rc=$?"; grep -E "^chunk|^\[  PASSED|^\[  FAILED" $O/sm90_tests.log | tail -10
timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -5
FLASHSSD_NUM_SPLITS=3 timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_s3.log 2>&1; echo "gpu s3 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_s3.log | tail -5
timeout 120 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*:*ChunkScores*' > $O/sm90_memcheck.log 2>&1; echo "sm90 memcheck rc=$?"; grep "ERROR SUMMARY" $O/sm90_memcheck.log
timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*:*ChunkScores*' > $O/sm90_racecheck.log 2>&1; echo "sm90 racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/sm90_racecheck.log
timeout 70 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/memcheck.log 2>&1; echo "memcheck rc=$?"; grep "ERROR SUMMARY" $O/memcheck.log
FLASHSSD_NUM_SPLITS=3 timeout 90 compute-sanitizer --tool synccheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/synccheck.log 2>&1; echo "synccheck (3 splits) rc=$?"; grep "ERROR SUMMARY" $O/synccheck.log
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 512" "--config R2" "--config R1 --seqlen 8192 --N 256"; do
  for v in old new; do
    if [ $v = old ]; then L=out/ab/old; BIN=out/ab/old/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    LD_LIBRARY_PATH=$PWD/$L timeout 60 ncu --metrics gpu__time_duration.sum -k regex:"chunk|ssd_fwd" --launch-count 2 $BIN $cfg --no-verify --iters 1 --warmup 0 2>&1 | grep -E "chunk_scores_kernel|ssd_fwd|gpu__time" | sed 's/^ *//' | cut -c1-60 | sed "s/^/ncu | $cfg | $v | /"
  done
done
for round in 1 2; do
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 512" "--config R1 --seqlen 8192 --z" "--config R2" "--config R4 --seqlen 131072" "--config R1 --seqlen 8192 --N 256"; do
  for v in old new; do
    if [ $v = old ]; then L=out/ab/old; BIN=out/ab/old/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    r=$(LD_LIBRARY_PATH=$PWD/$L timeout 60 $BIN $cfg --iters 40 2>&1 | tail -2 | tr '\n' ' ' | grep -o "median [0-9.]* ms\|err[^,]*" | tr '\n' ' ')
    echo "api $round | $cfg | $v | $r"
  done
done
done
PYTHONPATH=$B/python:third_party_bench timeout 120 python3 -m pytest tests/python/test_gpu.py -k "capture" -v -rs -p no:cacheprovider > $O/pytest_capture.log 2>&1
echo "pytest capture rc=$?"; grep -E "PASS|FAIL|Error|error" $O/pytest_capture.log | head -20; tail -3 $O/pytest_capture.log
