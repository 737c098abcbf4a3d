#!/bin/bash
# Session 13 call 12: the producer reads the block decays before its chain (N = 128 and 256
# kernels; kProducerHoistsDecays): GPU suites, sanitizers; probe with the API's dt against HEAD's
# kernels (out/ab/hdsp_probe, e2aae70), API in two rounds against e2aae70's build (out/ab/hd).
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 60 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90_tests.log | tail -5
timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -5
FLASHSSD_NUM_SPLITS=3 timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_s3.log 2>&1; echo "gpu s3 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_s3.log | tail -5
timeout 60 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*' > $O/sm90_memcheck.log 2>&1; echo "sm90 memcheck rc=$?"; grep "ERROR SUMMARY" $O/sm90_memcheck.log
timeout 80 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*' > $O/sm90_racecheck.log 2>&1; echo "sm90 racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/sm90_racecheck.log
for round in 1 2; do
for args in "--N 128 --softplus 1" "--N 128 --z 1 --softplus 1" "--N 128 --seqlen 512 --batch 128 --softplus 1" "--N 256 --softplus 1" "--N 64 --P 128 --H 32 --softplus 1"; do
  for v in hdsp new; do
    if [ $v = new ]; then P=$B/bench/flashssd_sm90_forward_probe; else P=out/ab/hdsp_probe; fi
    r=$(timeout 20 $P $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done
for round in 1 2; do
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512 --batch 128" "--config R1 --seqlen 8192 --dtype fp16" "--config R2" "--config R3" "--config R4 --seqlen 131072"; do
  for v in hd new; do
    if [ $v = hd ]; then L=out/ab/hd; BIN=out/ab/hd/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    r=$(LD_LIBRARY_PATH=$PWD/$L timeout 30 $BIN $cfg --iters 40 2>&1 | tail -2 | tr '\n' ' ' | grep -o "median [0-9.]* ms\|err[^,]*" | tr '\n' ' ')
    echo "api $round | $cfg | $v | $r"
  done
done
done
