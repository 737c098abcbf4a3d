#!/usr/bin/env bash
# Session 32, device call 14 (review): the intra-GEMM helper refactor (SASS of the ungated bf16
# N = 128 main kernel differs from e9f1eaf's by register renaming in 14 lines; every other
# kernel identical). With ~265 s of device time left: the GPU suite through the library, the
# Hopper suite, and memcheck on its small shapes (racecheck, 3 splits and segsum not run).
# Carry: out/dev/build-gpu.
set -u
O=${OUT:?}; B=out/dev/build-gpu; mkdir -p $O; export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -3
timeout 60 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED|StrongDecay" $O/sm90_tests.log | tail -4
timeout 60 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*' > $O/sm90_memcheck.log 2>&1; echo "sm90 memcheck rc=$?"; grep "ERROR SUMMARY" $O/sm90_memcheck.log
# Then, on the same warm machine (calls 15-16, inline): racecheck on the Hopper suite's small
# shapes, the GPU suite at FLASHSSD_NUM_SPLITS=3, and the segsum suite (logs in -call14/).
