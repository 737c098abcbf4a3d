#!/bin/bash
# Session 14 call 2: the diagonal block computed by columns (segsum.cuh diagonal_block_column,
# between the producer's two barriers; the sm80 kernel's role 1 too): GPU suites (and the sm80
# path's), sanitizers; probe A/B (HEAD basefull / e2aae70 e2a / new), API A/B against HEAD
# (out/ab/hd) in two rounds, and the sm80 path's R1 (FLASHSSD_DISABLE_SM90=1; its fp16 hierarchical
# kernel now spills 4 bytes, as its bf16 and diff kernels already did).
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 60 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90_tests.log | tail -5
timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -5
FLASHSSD_NUM_SPLITS=3 timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_s3.log 2>&1; echo "gpu s3 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_s3.log | tail -5
FLASHSSD_DISABLE_SM90=1 timeout 90 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_sm80.log 2>&1; echo "gpu sm80 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_sm80.log | tail -5
timeout 90 $B/tests/gpu/flashssd_segsum_gpu_tests > $O/segsum_tests.log 2>&1; echo "segsum rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/segsum_tests.log | tail -3
timeout 60 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*' > $O/sm90_memcheck.log 2>&1; echo "sm90 memcheck rc=$?"; grep "ERROR SUMMARY" $O/sm90_memcheck.log
timeout 80 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*' > $O/sm90_racecheck.log 2>&1; echo "sm90 racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/sm90_racecheck.log
FLASHSSD_DISABLE_SM90=1 timeout 90 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/sm80_memcheck.log 2>&1; echo "sm80 memcheck rc=$?"; grep "ERROR SUMMARY" $O/sm80_memcheck.log
FLASHSSD_DISABLE_SM90=1 timeout 90 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/sm80_racecheck.log 2>&1; echo "sm80 racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/sm80_racecheck.log
cp $B/bench/flashssd_sm90_forward_probe out/ab/new_probe
for round in 1 2; do
for args in "--N 128 --softplus 1" "--N 128 --z 1 --softplus 1" "--N 128 --seqlen 512 --batch 128 --softplus 1" "--N 128 --packed 4 --softplus 1" "--N 256 --softplus 1" "--N 64 --P 128 --H 32 --softplus 1"; do
  for v in basefull new e2a; do
    case "$args" in *"N 128"*) ;; *) [ $v = e2a ] && continue;; esac
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done
for round in 1 2; do
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 8192 --dtype fp16" "--config R1 --seqlen 512 --batch 128" "--config R2" "--config R3" "--config R4 --seqlen 131072"; do
  for v in hd new; do
    if [ $v = hd ]; then L=out/ab/hd; BIN=out/ab/hd/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    r=$(LD_LIBRARY_PATH=$PWD/$L timeout 30 $BIN $cfg --iters 40 2>&1 | tail -2 | tr '\n' ' ' | grep -o "median [0-9.]* ms\|err[^,]*" | tr '\n' ' ')
    echo "api $round | $cfg | $v | $r"
  done
done
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --dtype fp16"; do
  for v in hd new; do
    if [ $v = hd ]; then L=out/ab/hd; BIN=out/ab/hd/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    r=$(FLASHSSD_DISABLE_SM90=1 LD_LIBRARY_PATH=$PWD/$L timeout 30 $BIN $cfg --iters 20 2>&1 | tail -2 | tr '\n' ' ' | grep -o "median [0-9.]* ms\|err[^,]*" | tr '\n' ' ')
    echo "api sm80 $round | $cfg | $v | $r"
  done
done
done
