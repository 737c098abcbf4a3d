#!/bin/bash
# Session 15 call 6: the diagonal blocks by columns in every producer loop (the final kernels):
# GPU suites, sanitizers on small shapes, and an API A/B against main's library (b1429d2) and
# b9b70c2 (call 3's build, out/ab/b9lib), two rounds.
B=out/dev/build-gpu; O=$OUT; M=out/ab/mainlib; P=out/ab/b9lib
export LD_LIBRARY_PATH=$PWD/$B
timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -3
FLASHSSD_NUM_SPLITS=3 timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_splits3.log 2>&1; echo "gpu_tests (3 splits) rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_splits3.log | tail -3
timeout 120 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90_tests.log | tail -3
timeout 100 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*' > $O/sm90_memcheck.log 2>&1; echo "sm90 memcheck rc=$?"; grep "ERROR SUMMARY" $O/sm90_memcheck.log
timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*' > $O/sm90_racecheck.log 2>&1; echo "sm90 racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/sm90_racecheck.log
timeout 70 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/memcheck.log 2>&1; echo "memcheck rc=$?"; grep "ERROR SUMMARY" $O/memcheck.log
for round in 1 2; do
  for args in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" "--config R3 --seqlen 2048"; do
    for v in main b9 new; do
      case $v in main) L=$M; X=$M/flashssd_bench;; b9) L=$P; X=$P/flashssd_bench;; new) L=$B; X=$B/bench/flashssd_bench;; esac
      r=$(LD_LIBRARY_PATH=$PWD/$L timeout 60 $X $args 2>&1 | tail -1 | grep -o "median [0-9.]* ms"); echo "round=$round | $args | $v | $r"
    done
  done
  for v in b9 new; do
    case $v in b9) L=$P; X=$P/flashssd_bench;; new) L=$B; X=$B/bench/flashssd_bench;; esac
    r=$(LD_LIBRARY_PATH=$PWD/$L timeout 60 $X --config R1 --seqlen 8192 --dt-dtype bf16 2>&1 | tail -1 | grep -o "median [0-9.]* ms"); echo "round=$round | R1 8k dt bf16 | $v | $r"
  done
done 2>&1 | tee $O/api_ab.log
